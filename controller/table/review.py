"""The table's review of its match, kept up to date off the event loop.

After every event the table tells the runner how the match stands (`match_changed`); when
a game has finished since the last review, the runner puts the match's record to a
`ReviewCache` (controller.analysis.review: each finished game analysed once, at 0-ply as
`bgboard analyze` does) in a worker thread of its own, so the board keeps being read and
the computer keeps thinking meanwhile. The finished review comes back on the loop
(`deliver`); the table then hands its figures to the controller (`ReviewReady`).

The games are judged in a short-lived process of their own (controller.analysis.
review_process: spawned for each review, it loads the network, judges the new games, sends
their decisions back as plain data and exits), so `bgboard run` never holds the network
or the analysis's memos (issue 34.4: 30 MB grew to 80 MB in the table's process and
stayed); the worker thread only waits for it. The table's process keeps the decisions of
the match's games (a few tens of KB a game): each match's games are kept only while that
match is played, a new match starts a fresh `ReviewCache` (issue 35.21).

The analysis never disturbs play: the network not installed, a money session, or any
failure of the analysis is one log line, and the table plays on without a review. A
review process that is killed (out of memory) is one log line too, and the next finished
game's review judges its games again. Without a loop (the headless runner, tests) the
review is made at once, in the caller's thread.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from controller.analysis.review import MatchReview, ReviewCache
from controller.analysis.review_process import ProcessJudge, ReviewProcessEnded
from controller.engine.match import Match
from controller.engine.match_settings import REMOTE
from controller.records.from_match import record_from_match
from controller.records.model import MatchRecord
from controller.show.review_notes import MarkedLine, PlayerFigures, ReviewFigures, finished_games

log = logging.getLogger("bgboard")


def default_cache() -> ReviewCache:
    """gnubg's 0-ply analysis, each review's games judged in a process of their own
    (cheap here: nothing is loaded in this process)."""
    return ReviewCache(ProcessJudge(plies=0))


def figures_of(review: MatchReview) -> ReviewFigures:
    """What the display shows of a review: each player's PR and rating, and the marked
    decisions the menu offers to practise."""
    white, black = (PlayerFigures(p.pr if p.decisions else None, p.rating) for p in review.players)
    marked = tuple(MarkedLine(m.key, m.decision.game, m.decision.move, m.decision.mark, m.decision.loss)
                   for m in review.marked)
    return ReviewFigures(white, black, review.games, marked)


class ReviewRunner:
    """Reviews a table's match after each finished game (see the module docstring)."""

    def __init__(self, deliver: Callable[[MatchReview], None], *,
                 loop: asyncio.AbstractEventLoop | None = None,
                 cache: Callable[[], ReviewCache] = default_cache) -> None:
        self._deliver = deliver
        self._loop = loop
        self._make_cache = cache
        self._cache: ReviewCache | None = None
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="bgboard-review") if loop is not None else None
        self._running: Future[MatchReview | None] | None = None
        self._reviewed = 0  # finished games of the last review asked for
        self._new_match = False  # the next review is of another match than the cache's games
        self._waiting: MatchRecord | None = None  # a newer record to review once the running one ends
        self.disabled = False
        self.latest: MatchReview | None = None

    def match_changed(self, match: Match) -> None:
        """Review `match` if a game has finished since the last review (cheap otherwise).
        A match with a remote player (online play, which has the table for a while) is not
        the table's own: its review stays as it was."""
        if self.disabled or REMOTE in match.settings.players:
            return
        games = finished_games(match)
        if games == self._reviewed:
            return
        if games < self._reviewed:
            self._new_match = True  # the games reviewed so far are another match's
        self._reviewed = games
        self.review(record_from_match(match))

    def review(self, record: MatchRecord) -> None:
        """Review `record`'s finished games: in the worker (after the one running, if any:
        only the newest waiting record is kept), or at once without a loop."""
        fresh, self._new_match = self._new_match, False
        if self._executor is None or self._loop is None:
            self._finish(self._review(record, fresh))
            return
        if self._running is not None:
            self._waiting = record
            self._new_match = fresh or self._new_match  # still to forget when the waiting one runs
            return
        self._running = self._executor.submit(self._review, record, fresh)
        self._running.add_done_callback(self._done_in_worker)

    def _review(self, record: MatchRecord, fresh: bool = False) -> MatchReview | None:
        """In the worker: the review, or None (and one log line) when it cannot be had.
        `fresh`: the cache's games are another match's, forgotten (its judge kept). A
        review process that ended without an answer disables nothing: the next review
        judges the games this one could not."""
        try:
            if record.length == 0:
                raise ValueError("money sessions are not reviewed")
            if self._cache is None:
                self._cache = self._make_cache()
            elif fresh:
                self._cache = ReviewCache(self._cache.judge)
            return self._cache.review(record)
        except ReviewProcessEnded as exc:
            log.warning("review of the match unavailable this time: %s", exc)
            return None
        except Exception as exc:  # noqa: BLE001 - any failure of the analysis must leave play alone
            log.warning("review of the match unavailable: %s", str(exc)[:160] or type(exc).__name__)
            self.disabled = True
            return None

    def _done_in_worker(self, future: Future[MatchReview | None]) -> None:
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(self._finish_running, future)
        except RuntimeError:  # the loop has closed meanwhile: nobody to show it to
            pass

    def _finish_running(self, future: Future[MatchReview | None]) -> None:
        self._running = None
        if future.cancelled():
            return
        self._finish(future.result())
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self.review(waiting)

    def _finish(self, review: MatchReview | None) -> None:
        if review is None:
            return
        self.latest = review
        try:
            self._deliver(review)
        except Exception as exc:  # noqa: BLE001 - showing it must not stop the table either
            log.warning("review not shown: %s", exc)

    def close(self) -> None:
        """Stop reviewing: a review process under way is ended, none is started."""
        if self._cache is not None:
            self._cache.judge.stop()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

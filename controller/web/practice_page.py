"""The page's review panel and its practice of a marked decision: the latest review of the
match at the table, the panel that shows it, and the page's "practise this" and "back to
the match", each answered with the page's notice.

The table's `TablePractice` and review runner do the work (controller.table); this job
keeps the review's cache across tables (a game is analysed once) and hands the checkers
in the air back before the board is set up. It was part of `LiveSim`.
"""
from __future__ import annotations

from collections.abc import Callable

from controller.analysis.review import MatchReview, ReviewCache
from controller.table import Table
from controller.table.practice import PracticeRefused, TablePractice
from controller.web.protocol import Notice
from controller.web.review_page import ReviewPanel


class PagePractice:
    """The review and the practice as the page sees them. `table` reads the table now,
    `hand_back` puts the checkers in the page's hands back (the board's own page has none:
    they are moved by hand), `now` the loop's clock, `changed` tells the page."""

    def __init__(self, table: Callable[[], Table | None], hand_back: Callable[[], object], *,
                 now: Callable[[], float], changed: Callable[[], None]) -> None:
        self._table, self._hand_back, self._now, self._changed = table, hand_back, now, changed
        self._review_cache: ReviewCache | None = None  # kept across tables: a game is analysed once

    def cache(self) -> ReviewCache:
        """The review's cache (made in the review's worker thread; its games are judged in a
        process of their own, controller.analysis.review_process)."""
        if self._review_cache is None:
            from controller.table.review import default_cache

            self._review_cache = default_cache()
        return self._review_cache

    def forget(self) -> None:
        """A new match: the reviews of the old one are not kept."""
        self._review_cache = None

    def latest(self) -> MatchReview | None:
        """The latest review of the match at the table (also while practising: a practice
        is not reviewed)."""
        table = self._table()
        runner = table.review if table is not None else None
        return runner.latest if runner is not None else None

    @property
    def practice(self) -> TablePractice:
        """The table's practice of a marked decision (controller.table.practice)."""
        table = self._table()
        assert table is not None and table.practice is not None
        return table.practice

    @property
    def panel(self) -> ReviewPanel:
        chosen = self.practice.chosen
        return ReviewPanel(chosen.key if chosen is not None else None)

    def summary(self) -> dict[str, object] | None:
        """The review as the snapshot carries it (its version tells the page to fetch it)."""
        return self.panel.summary(self.latest())

    def document(self) -> dict[str, object]:
        """`/review.json`: the review the page's panel shows (controller.web.review_page)."""
        return self.panel.document(self.latest())

    async def start(self, key: str) -> str | Notice | None:
        """Play on from the marked decision `key` at this table: the match is saved first,
        the person sets the position up as the `setup` lights guide."""
        try:
            self.practice.choose(key)
            self._hand_back()
            chosen = self.practice.start(key, self._now())
        except PracticeRefused as exc:
            return str(exc)
        self._changed()
        game, move = chosen.decision.game, chosen.decision.move
        return Notice("practice", f"set up game {game} move {move} on the board",
                      {"game": str(game), "move": str(move)})

    async def back(self) -> str | Notice | None:
        """End the practice: the saved match is resumed (the board set up as it asks)."""
        if self.practice.match_seating is None:
            return Notice("no_practice", "there is no practice to end")
        self._hand_back()
        self.practice.end(self._now())
        self._changed()
        return Notice("back_to_match", "back to the match")

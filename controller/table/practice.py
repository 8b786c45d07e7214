"""Practising a marked decision of the match's review, at the table itself.

Every front end practises the same way (the board menu's "Practise a marked move", the
page's "Set up on the board"): `TablePractice.start(key)` plays on from the marked
decision's position (controller.analysis.review.practice_match) and `end()` gives the
match back. Decided so that the confirmed match is never lost:

- the match is saved first, where it always is (the table's store); if that save fails
  the practice does not start;
- the practice is a seating of its own (`Table.seat`, as online play and watching set a
  match aside): its own dice (the table's random source, its own queue) and its own store,
  a `practice` directory under the state directory, so a table restarted meanwhile
  resumes the match, not the practice;
- the board is not laid out for the practice: the person sets the checkers up, guided by
  the `setup` lights as after any new seating;
- "Back to the match" seats the match set aside again, exactly as it was (a running clock
  restarted, as on a resume), and the board is set up to it again.

While practising, the review is not updated (a practice is not the match: the table's
review runner keeps the match's review), so another marked decision of the match can be
chosen, and the match's own record stays the one a front end downloads. Online play and
watching have the table for themselves: a practice is refused there.
"""
from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from controller.analysis.review import MarkedDecision, MatchReview, practice_match
from controller.controller import Controller
from controller.errors import BgboardError, EngineError
from controller.events import Announce, Effect, Refused
from controller.records.store import TableStore
from controller.table.review import ReviewRunner
from controller.table.seating import Seating

PRACTICE_DIR = "practice"
"""Where a practice is saved, under the table's state directory."""

KEY = re.compile(r"^[0-9]{1,4}-[0-9]{1,4}-(white|black)-[a-z_]{1,12}$")
"""What a decision's key looks like (controller.analysis.review.decision_key)."""


class PracticeRefused(BgboardError, ValueError):
    """A practice that cannot start (or end) now, in one line; nothing changed."""


class PracticeTable(Protocol):
    """What the practice uses of its `Table` (which owns the practice, so this module
    does not import it)."""

    controller: Controller
    review: ReviewRunner | None
    clock: Callable[[], float]

    @property
    def seating(self) -> Seating: ...

    def seat(self, seating: Seating, now: float) -> Seating: ...

    def refuse(self, refused: Refused) -> None: ...

    def execute(self, effects: list[Effect], now: float) -> None: ...


class TablePractice:
    """The practice of a marked decision at one table (see the module docstring)."""

    def __init__(self, table: PracticeTable, state_dir: Path | None) -> None:
        self.table = table
        self.store = TableStore(state_dir / PRACTICE_DIR if state_dir is not None else None)
        #: the match set aside while a position is practised (None: the match is played)
        self.match_seating: Seating | None = None
        #: the marked decision practised now
        self.chosen: MarkedDecision | None = None

    @property
    def review(self) -> MatchReview | None:
        """The match's latest review (also while a position is practised)."""
        runner = self.table.review
        return runner.latest if runner is not None else None

    def choose(self, key: object) -> MarkedDecision:
        """The marked decision `key` of the match's review (PracticeRefused otherwise)."""
        if not isinstance(key, str) or not KEY.match(key):
            raise PracticeRefused(f"ignored a set-up request: {str(key)[:40]!r} names no decision")
        review = self.review
        found = review.decision(key) if review is not None else None
        if found is None:
            raise PracticeRefused(f"ignored a set-up request: no marked decision {key} in this match's review")
        return found

    def start(self, key: object, now: float) -> MarkedDecision:
        """Practise the marked decision `key` from `now` (another one while practising
        replaces the practice, the match stays set aside). PracticeRefused, one line and
        nothing changed: online, watching, no such decision, the match not saved."""
        status = self.table.controller.status()
        if status.playing_online or status.watching:
            raise PracticeRefused("ignored a set-up request: this table is playing or watching online; leave first")
        chosen = self.choose(key)
        played = self.match_seating or self.table.seating
        try:
            match = practice_match(chosen.setup, played.match.settings)
        except EngineError as exc:
            raise PracticeRefused(f"ignored a set-up request: {exc}") from exc
        if self.match_seating is None and not played.store.save(played.match, played.dice.secret, now=now):
            raise PracticeRefused("ignored a set-up request: the match could not be saved first "
                                  f"({played.store.status.line})")
        dice = replace(played.dice, queue=(), mode="board", secret=None).adopt(match)  # its generator, its own queue
        left = self.table.seat(Seating(match, dice, self.store, chosen.key), now)
        if self.match_seating is None:
            self.match_seating = left
        self.chosen = chosen
        return chosen

    def end(self, now: float) -> bool:
        """Back to the match set aside, as it was; False when nothing is practised."""
        if self.match_seating is None:
            return False
        local, self.match_seating, self.chosen = self.match_seating, None, None
        self.table.seat(replace(local, match=local.match.resumed(now)), now)
        return True

    def requested(self, key: str | None) -> None:
        """The menu's choice (`PracticeRequested`): a marked decision, or back (None)."""
        now = self.table.clock()
        try:
            if key is None:
                said = "back to the match" if self.end(now) else "there is no practice to end"
            else:
                chosen = self.start(key, now)
                said = f"practising game {chosen.decision.game} move {chosen.decision.move}: set it up on the board"
        except PracticeRefused as exc:
            self.table.refuse(Refused.of(str(exc), "practice_refused"))
            return
        self.table.execute([Announce(said)], now)

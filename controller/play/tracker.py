"""The physical board as the controller knows it: read, settled, and what it means.

A reading counts once it has been quiet for the settling time (a hand in motion, a
flickering sensor never move the match); the settled board is then reconciled with the
positions the engine allows now (`controller.board.reconcile`). A lifted checker is seen
at once (`in_the_air`), so its targets light while the hand is still in the air. The
expectation (the boards allowed now) is built once per state of the turn and kept.

Pure: no clock of its own (times are given), no I/O. What the table knows of the board is
one frozen `BoardReading`, the board's slice of the table's state (controller.play.
table_state), whose methods give the next one; the readings against the match are functions
of it. The expectations built last are a memo here, keyed by what they were built from
(costly to build, equal whenever rebuilt), not part of the state.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.board.reconcile import (BoardState, Expectation, Instruction, Matched, Mismatch,
                                        Verdict, path_expectation, reconcile, surplus, turn_expectation)
from controller.engine.board_view import Colour, step_cells
from controller.engine.match import Match
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.play.status import BotPlan

ExpectationKey = tuple[object, ...]


@dataclass(frozen=True)
class BoardReading:
    """What the table knows of the board: the latest reading (`raw`, unchanged since
    `raw_since`), the settled one, what it means now (`verdict`), a checker seen in the air."""

    raw: BoardState | None = None
    raw_since: float = 0.0
    settled: BoardState | None = None
    verdict: Verdict | None = None
    in_air: Matched | None = None

    @property
    def settling(self) -> bool:
        """The latest reading still waits for its settling time."""
        return self.raw is not None and self.raw != self.settled

    def observed(self, board: BoardState, at: float) -> BoardReading | None:
        """The reading after `board` arrived at `at`; None if it is the last one again."""
        return None if board == self.raw else replace(self, raw=board, raw_since=at)

    def due(self, now: float, settle_s: float) -> bool:
        """The latest reading has been quiet for the settling time (and no sensor of it is
        faulty: what stands on a faulty sensor is unknown, so no move is read from it)."""
        return self.raw is not None and self.raw != self.settled and not self.raw.faults \
            and now - self.raw_since + 1e-9 >= settle_s

    def settle(self) -> BoardReading:
        """The latest reading counts: it is the settled board, and no checker is in the air."""
        return replace(self, settled=self.raw, in_air=None)

    def judged(self, verdict: Verdict | None) -> BoardReading:
        """The settled board means `verdict` now."""
        return replace(self, verdict=verdict)

    def lifted(self, in_air: Matched | None) -> BoardReading:
        """A checker seen in the air (None: none is)."""
        return self if in_air == self.in_air else replace(self, in_air=in_air)

    def is_right(self) -> bool:
        """The settled board is exactly what the match says (or none was read yet)."""
        return self.settled is None or (isinstance(self.verdict, Matched) and self.verdict.is_exact)

    def forget(self) -> BoardReading:
        """The match moved on (a new phase, turn, step or game): read everything afresh."""
        if self.verdict is None and self.in_air is None:
            return self
        return replace(self, verdict=None, in_air=None)


class _Memo:
    """The expectations built last, by what they were built from (building one for a turn
    enumerates every board the roll allows: kept, so the readings of the turn do not build
    it again). A pure function's memo: the same key always gives an equal value."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: dict[ExpectationKey, Expectation] = {}

    def get(self, key: ExpectationKey, build: Callable[[], Expectation]) -> Expectation:
        found = self._kept.get(key)
        if found is None:
            found = build()
            if len(self._kept) >= self._size:
                self._kept.pop(next(iter(self._kept)))
            self._kept[key] = found
        return found


_EXPECTATIONS = _Memo(8)


def expectation(match: Match, bot: BotPlan | None) -> tuple[Colour, Position, Expectation]:
    """Whose checkers move now, the last accepted position and the boards allowed."""
    if bot is not None:
        return bot.side, bot.path[0], _EXPECTATIONS.get(
            ("bot", bot), lambda: path_expectation(bot.path[0], bot.path[1:], bot.side, _path_hits(bot)))
    mover: Colour = match.turn or "white"
    plan = match.plan if match.turn is not None else None
    if match.phase == "move" and match.turn is not None and plan is not None:
        side = match.turn
        return mover, match.partial, _EXPECTATIONS.get(
            ("turn", match.position, match.dice, side), lambda: turn_expectation(plan, side))
    return mover, match.partial, _EXPECTATIONS.get(
        ("single", match.partial, mover), lambda: Expectation.single(match.partial, mover))


def read(board: BoardState, match: Match, bot: BotPlan | None) -> tuple[Position, Verdict]:
    """The last accepted position and what `board` means now. A checker lifted while
    no move is being made (before the roll, during an offer) must go back. A move
    carried out for the computer has its landings lit: a checker that may stand unseen
    on a full point is read as landed there."""
    _, current, expected = expectation(match, bot)
    verdict = reconcile(board, expected, current, assume_landed=bot is not None)
    if isinstance(verdict, Matched) and verdict.in_hand is not None \
            and not (match.phase == "move" or bot is not None):
        cell, colour = verdict.in_hand
        verdict = Mismatch((cell,), (Instruction("put", colour, 1, to=cell),))
    return current, verdict


def landed(reading: BoardReading, match: Match, bot: BotPlan | None) -> Verdict | None:
    """What the settled board means when the player presses the button to say the
    checker in hand has landed on a full point (the board cannot see it land): the
    allowed board it completes, the question which one, or the correction of a checker
    too many on the full point. None when the settled board holds no such checker."""
    verdict, settled = reading.verdict, reading.settled
    if settled is None or bot is not None or match.phase != "move" \
            or not isinstance(verdict, Matched) or verdict.in_hand is None \
            or verdict.in_hand[1] != match.turn:
        return None
    _, current, expected = expectation(match, bot)
    found = reconcile(settled, expected, current, assume_landed=True)
    if isinstance(found, Matched) and found.in_hand is not None:
        return surplus(settled, found)
    return found


def in_the_air(reading: BoardReading, board: BoardState, match: Match, bot: BotPlan | None) -> Matched | None:
    """A hand in the air: `board` is the settled board less one checker lifted from it,
    during a move. Nothing of the match changes before the reading settles, but the
    lifted checker's targets light now."""
    settled_verdict = reading.verdict
    if reading.settled is None or not isinstance(settled_verdict, Matched) or not settled_verdict.is_exact:
        return None
    if match.phase != "move" and bot is None:
        return None
    verdict = read(board, match, bot)[1]
    if isinstance(verdict, Matched) and verdict.in_hand is not None \
            and verdict.position == settled_verdict.position and not verdict.hits_pending \
            and not verdict.prehit:
        return verdict
    return None


def whole_move_reading(match: Match) -> Move | None:
    """The complete legal move the board may also show, when the steps read so far leave a
    die to play (None otherwise).

    Bearing off, one hand can mean two things that leave the same checkers: with 6-1 and a
    checker on the 5-point, 5/off with the 6 (the 1 still to play) and 5/4/off with both
    dice (RULES.md "Bearing off": a higher die bears off from the highest point, a lower
    die may be played first). The fewest steps read the first, so a player who meant the
    whole move would wait for ever for a 1 they have no reason to play. When the position
    the steps reach is also the result of a complete legal move, this is that move, for
    the table to ask about ("Was it 5/4/off?"); a player who meant the shorter reading plays
    on and the next reading settles it. Only the side on turn's own steps count here (a
    move carried out for the computer is known whole)."""
    if match.phase != "move" or not match.steps or match.move_complete:
        return None
    plan = match.plan
    if plan is None or not plan.is_complete(match.partial):
        return None
    return plan.move_for(match.partial)


def steps_carried(plan: BotPlan, verdict: Verdict | None) -> int:
    """How many steps of a move carried out by hand (the computer's, a remote player's)
    the settled board already shows: its place along the move's path. Those steps are
    done: their lights go out and their dice are used."""
    if isinstance(verdict, Matched) and verdict.position in plan.path:
        return plan.path.index(verdict.position)
    return 0


def _path_hits(plan: BotPlan) -> dict[Position, tuple[str, ...]]:
    hits: dict[Position, tuple[str, ...]] = {}
    for pos, step in zip(plan.path, plan.move.steps):
        if step.hit:
            hits[pos] = (step_cells(step, plan.side)[1],)
    return hits

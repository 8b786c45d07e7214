"""Legal moves: every distinct resulting position of a roll, with the steps that reach it.

Rules (RULES.md "Moving", "Bearing off"): each die is one step of one checker; doubles give
four; bar checkers enter first; use as many dice as possible, the higher die when only one
can be played. Two moves are the same when they leave the same position.

The search itself lives in `generate` (speed); this module gives its compact records the
public shape: `Move` builds its `Step`s, `result` and notation only when asked, because a
bot or a hint scan usually looks at a few of the thousands of moves a roll can have.
"""
from __future__ import annotations

from collections.abc import Sequence

from controller.engine.dice import check_dice
from controller.engine.generate import generate
from controller.engine.move_text import format_move
from controller.engine.position import Position
# OFF, BAR_POINT and step_destination are imported from here too (a step is part of a move)
from controller.engine.step import BAR, BAR_POINT, OFF, Step, step_destination


def _played(start_mine: tuple[int, ...], start_theirs: tuple[int, ...],
            raw: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counts `(mine, theirs)` after the steps `raw` (`generate`'s `(frm, die, ...)`)
    from `start_mine`/`start_theirs`; the opponent's side is copied only when a step hits."""
    mine = list(start_mine)
    theirs: Sequence[int] = start_theirs
    hit: list[int] | None = None
    for i in range(0, len(raw), 2):
        frm = raw[i]
        to = frm - raw[i + 1]
        mine[BAR if frm == BAR_POINT else frm - 1] -= 1
        if to > 0:
            mine[to - 1] += 1
            if theirs[24 - to] == 1:
                hit = list(theirs) if hit is None else hit
                hit[24 - to] = 0
                hit[BAR] += 1
                theirs = hit
    return tuple(mine), tuple(theirs)


class Move:
    """A complete legal move: the steps in the order played and the position they leave.

    `result` is still seen by the player who moved (swap() it to pass the turn). Immutable
    and hashable; equal when steps and result are equal. `Move(steps, result)` builds one
    directly; `legal_moves` makes lazy ones that compute both on first use.
    """

    __slots__ = ("_start", "_raw", "_steps", "_result", "_notation")

    def __init__(self, steps: Sequence[Step], result: Position) -> None:
        self._start: Position | None = None
        self._raw: tuple[int, ...] = ()
        self._steps: tuple[Step, ...] | None = tuple(steps)
        self._result: Position | None = result
        self._notation: str | None = None

    def _build_result(self) -> Position:
        start = self._start
        assert start is not None
        mine, theirs = _played(start.mine, start.theirs, self._raw)
        result = Position(mine, theirs)
        self._result = result
        return result

    def _build_steps(self) -> tuple[Step, ...]:
        start = self._start
        assert start is not None
        theirs = list(start.theirs)
        raw = self._raw
        steps = []
        for i in range(0, len(raw), 2):
            frm, die = raw[i], raw[i + 1]
            to = frm - die
            hit = False
            if to > 0:
                if theirs[24 - to] == 1:
                    theirs[24 - to] = 0
                    hit = True
            else:
                to = OFF
            steps.append(Step(frm, to, die, hit))
        built = tuple(steps)
        self._steps = built
        return built

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in a legal playing order."""
        return self._steps if self._steps is not None else self._build_steps()

    @property
    def result(self) -> Position:
        """The position after the move, still seen by the player who moved."""
        return self._result if self._result is not None else self._build_result()

    @property
    def notation(self) -> str:
        """GNU Backgammon notation, e.g. `8/5 6/5`; built on first use only."""
        if self._notation is None:
            self._notation = format_move(self.steps)
        return self._notation

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.steps == other.steps and self.result == other.result

    def __hash__(self) -> int:
        return hash((self.steps, self.result))

    def __repr__(self) -> str:
        return f"Move({self.steps!r}, {self.result!r})"

    def __str__(self) -> str:
        return self.notation


class _LazyMove(Move):
    """A move from `start` given as `(frm, die, frm, die, ...)`: nothing is built until
    asked (creating one is the only per-move cost of `legal_moves`)."""

    __slots__ = ()

    def __init__(self, start: Position, raw: tuple[int, ...]) -> None:  # noqa: D107
        self._start = start
        self._raw = raw
        self._steps = None
        self._result = None
        self._notation = None


def legal_moves(position: Position, dice: tuple[int, int] | list[int]) -> list[Move]:
    """Every distinct legal move for `dice` (one per resulting position); `[]` when no
    checker can move. Raises InvalidDiceError for anything but two numbers 1..6."""
    d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
    return [_LazyMove(position, raw) for raw in generate(position.mine, position.theirs, d1, d2)]


def legal_results(position: Position, dice: tuple[int, int] | list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The counts `(mine, theirs)` each of `legal_moves` leaves, in its order, still seen
    by the mover: a look-ahead asks for millions of them and needs neither the steps nor
    `Move`/`Position` objects."""
    d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
    mine, theirs = position.mine, position.theirs
    return [_played(mine, theirs, raw) for raw in generate(mine, theirs, d1, d2)]

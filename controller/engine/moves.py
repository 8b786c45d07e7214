"""Legal moves: every distinct resulting position of a roll, with the steps that reach it.

Rules (RULES.md "Moving", "Bearing off"): each die is one step of one checker; doubles give
four; bar checkers enter first; use as many dice as possible, the higher die when only one
can be played. Two moves are the same when they leave the same position.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.engine.dice import check_dice
from controller.engine.position import BAR, Position

OFF = 0  # `Step.to` for a checker borne off
BAR_POINT = 25  # `Step.frm` for a checker entering from the bar


@dataclass(frozen=True, slots=True)
class Step:
    """One die's move of one checker, in the mover's numbering (25 = bar, 0 = off)."""

    frm: int
    to: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """A complete legal move: the steps in the order played and the position they leave.

    `result` is still seen by the player who moved (swap() it to pass the turn).
    """

    steps: tuple[Step, ...]
    result: Position
    _notation: list[str] = field(default_factory=list, compare=False, repr=False, hash=False)

    @property
    def notation(self) -> str:
        """GNU Backgammon notation, e.g. `8/5 6/5`; built on first use only."""
        if not self._notation:
            from controller.engine.notation import format_move

            self._notation.append(format_move(self.steps))
        return self._notation[0]

    def __str__(self) -> str:
        return self.notation


def step_destination(mine: Sequence[int], theirs: Sequence[int], frm: int, die: int) -> tuple[int, bool] | None:
    """Where a checker on `frm` goes with `die`, and whether it hits; None if it may not.

    Checks only the single step (closed points, bearing-off rules); whether the rest of the
    roll can still be played is the caller's business.
    """
    to = frm - die
    if to >= 1:
        opp = theirs[24 - to]
        if opp >= 2:
            return None
        return to, opp == 1
    # bearing off: every checker home (points 1..6), none on the bar
    for i in range(6, 25):
        if mine[i]:
            return None
    if to == 0:
        return OFF, False
    for i in range(frm, 6):  # a higher die only from the highest occupied point
        if mine[i]:
            return None
    return OFF, False


def _origins(mine: list[int]) -> list[int]:
    if mine[BAR]:
        return [BAR_POINT]
    return [p for p in range(24, 0, -1) if mine[p - 1]]


def apply_step(mine: Sequence[int], theirs: Sequence[int], frm: int, to: int, hit: bool) -> tuple[list[int], list[int]]:
    """The two sides after one step (new lists; the inputs are not changed)."""
    m = list(mine)
    m[BAR if frm == BAR_POINT else frm - 1] -= 1
    t = list(theirs)
    if to != OFF:
        m[to - 1] += 1
        if hit:
            t[24 - to] = 0
            t[BAR] += 1
    return m, t


def _search(mine: list[int], theirs: list[int], dice: tuple[int, ...], steps: tuple[Step, ...],
            out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Step, ...]], best: list[int]) -> None:
    """Depth-first over the remaining dice in the given order, recording leaves."""
    moved = False
    if dice:
        die = dice[0]
        tried: set[int] = set()
        for frm in _origins(mine):
            if frm in tried:
                continue
            tried.add(frm)
            dest = step_destination(mine, theirs, frm, die)
            if dest is None:
                continue
            moved = True
            to, hit = dest
            m, t = apply_step(mine, theirs, frm, to, hit)
            _search(m, t, dice[1:], steps + (Step(frm, to, die, hit),), out, best)
    if not moved:
        n = len(steps)
        if n < best[0]:
            return
        if n > best[0]:
            best[0] = n
            out.clear()
        key = (tuple(mine), tuple(theirs))
        if key not in out:
            out[key] = steps


def legal_moves(position: Position, dice: tuple[int, int] | list[int]) -> list[Move]:
    """Every distinct legal move for `dice`; `[]` when no checker can move."""
    d1, d2 = check_dice(tuple(dice))  # type: ignore[arg-type]
    mine, theirs = list(position.mine), list(position.theirs)
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Step, ...]] = {}
    best = [0]
    if d1 == d2:
        _search(mine, theirs, (d1,) * 4, (), out, best)
    else:
        hi, lo = max(d1, d2), min(d1, d2)
        _search(mine, theirs, (hi, lo), (), out, best)
        _search(mine, theirs, (lo, hi), (), out, best)
        if best[0] == 1 and any(s[0].die == hi for s in out.values()):
            out = {k: s for k, s in out.items() if s[0].die == hi}
    if best[0] == 0:
        return []
    return [Move(steps, Position(k[0], k[1])) for k, steps in out.items()]

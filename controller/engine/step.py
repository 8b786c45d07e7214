"""One die's step of one checker, and what it does to the two sides' tuples.

The bottom of the engine: `Position.after` applies a step and `moves`, `turn` and
`notation` check one, so this module imports nothing of theirs (a step is three numbers
and a flag; the board is two tuples of counts).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BAR = 24  # index of the bar in a side's tuple
OFF = 0  # `Step.to` for a checker borne off
BAR_POINT = 25  # `Step.frm` for a checker entering from the bar


@dataclass(frozen=True, slots=True)
class Step:
    """One die's move of one checker, in the mover's numbering (25 = bar, 0 = off)."""

    frm: int
    to: int
    die: int
    hit: bool = False


def step_destination(mine: Sequence[int], theirs: Sequence[int], frm: int, die: int) -> tuple[int, bool] | None:
    """Where a checker on `frm` goes with `die`, and whether it hits; None if it may not.

    Checks only the single step (closed points, bearing-off rules, nobody left on the bar
    is the caller's business, as is whether the rest of the roll can still be played).
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

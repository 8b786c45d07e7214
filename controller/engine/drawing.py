"""An ASCII drawing of a position, for `str(position)` and error messages."""
from __future__ import annotations

from typing import Protocol


class Drawable(Protocol):
    """What a drawing reads of a position (`Position` draws itself with this, so this
    module needs nothing of it)."""

    @property
    def mine(self) -> tuple[int, ...]: ...
    @property
    def theirs(self) -> tuple[int, ...]: ...
    @property
    def off(self) -> tuple[int, int]: ...
    def pips(self) -> tuple[int, int]: ...
    def opponent_on(self, point: int) -> int: ...


def _cell(mine: int, theirs: int) -> str:
    if mine:
        return f"{mine:>2}X"
    if theirs:
        return f"{theirs:>2}O"
    return "  ."


def draw(position: Drawable) -> str:
    """Two rows of points in the mover's numbering: X is the mover, O the opponent."""
    top = range(13, 25)
    bottom = range(12, 0, -1)
    lines = [
        " ".join(f"{p:>3}" for p in top),
        " ".join(_cell(position.mine[p - 1], position.opponent_on(p)) for p in top),
        " ".join(_cell(position.mine[p - 1], position.opponent_on(p)) for p in bottom),
        " ".join(f"{p:>3}" for p in bottom),
    ]
    off_mine, off_theirs = position.off
    pips_mine, pips_theirs = position.pips()
    lines.append(
        f"bar X:{position.mine[24]} O:{position.theirs[24]}  off X:{off_mine} O:{off_theirs}"
        f"  pips X:{pips_mine} O:{pips_theirs}"
    )
    return "\n".join(lines)

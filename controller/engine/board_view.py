"""From the mover's view of a position to the physical board's cells.

The physical board and the scene speak in cells in White's numbering (DESIGN.md "Cells"):
points `1`..`24`, `bar`, `off-white`, `off-black`. White's point p is Black's 25-p.
"""
from __future__ import annotations

from typing import Literal

from controller.engine.moves import BAR_POINT, OFF, Step
from controller.engine.position import BAR, CHECKERS, Position

#: the two sides, by the colour of their checkers (the one definition: import it from here)
Colour = Literal["white", "black"]
COLOURS: tuple[Colour, Colour] = ("white", "black")
#: who owns the cube, as the display, the page and the bots name it; the match itself keeps
#: `Colour | None` (None: the cube is in the center, nobody owns it)
CubeOwner = Literal["white", "black", "center"]
CUBE_OWNERS: tuple[CubeOwner, ...] = ("white", "black", "center")
#: the cells of DESIGN.md "Cells": points 1..24 in White's numbering, the bar, the off trays
CELLS: tuple[str, ...] = tuple(str(p) for p in range(1, 25)) + ("bar", "off-white", "off-black")


def other(colour: Colour) -> Colour:
    """The opponent of `colour`."""
    return "black" if colour == "white" else "white"


def cube_owner(owner: Colour | None) -> CubeOwner:
    """The match's cube owner (None when centred) as the display and the page name it."""
    return "center" if owner is None else owner


def cell_of_point(point: int, colour: Colour) -> str:
    """The cell of `colour`'s own point number (25 = bar, 0 = off)."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF:
        return f"off-{colour}"
    return str(point if colour == "white" else 25 - point)


def point_of_cell(cell: str, colour: Colour) -> int:
    """`colour`'s own point number of a cell (25 for the bar, 0 for its own off tray)."""
    if cell == "bar":
        return BAR_POINT
    if cell.startswith("off-"):
        return OFF
    p = int(cell)
    return p if colour == "white" else 25 - p


def step_cells(step: Step, colour: Colour) -> tuple[str, str]:
    """(from cell, to cell) of a step made by `colour`."""
    return cell_of_point(step.frm, colour), cell_of_point(step.to, colour)


def cell_counts(position: Position, mover: Colour) -> dict[str, tuple[int, int]]:
    """(white, black) checkers in every cell, for a position whose player on roll is `mover`."""
    white, black = (position.mine, position.theirs) if mover == "white" else (position.theirs, position.mine)
    counts: dict[str, tuple[int, int]] = {}
    for p in range(1, 25):
        counts[str(p)] = (white[p - 1], black[24 - p])
    counts["bar"] = (white[BAR], black[BAR])
    counts["off-white"] = (CHECKERS - sum(white), 0)
    counts["off-black"] = (0, CHECKERS - sum(black))
    return counts


def position_from_cells(counts: dict[str, tuple[int, int]], mover: Colour) -> Position:
    """The position with `mover` on roll from (white, black) counts per point and bar
    (the off trays follow from 15 a side)."""
    white = [counts[str(p)][0] for p in range(1, 25)] + [counts["bar"][0]]
    black = [counts[str(25 - p)][1] for p in range(1, 25)] + [counts["bar"][1]]
    if mover == "white":
        return Position.checked(white, black)
    return Position.checked(black, white)

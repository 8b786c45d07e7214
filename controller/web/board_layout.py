"""Where the simulator page draws each cell of the board, and the numbers it prints by them.

The cells are DESIGN.md's (`controller.engine.board_view.CELLS`: points 1..24 in White's
numbering, the bar, each side's tray). The page once kept its own list of them, its own
quadrants and its own Black numbering beside the product's; now this module lays the
product's cells out in board units and the server sends the result once, as the ES module
`/cells.js` that `controller/web/static/board.js` imports, so the page draws, hit-tests and labels
exactly these cells and the two cannot drift.

The board is drawn as the seeds' boards are printed, White's home (1-6) at the bottom
right: points 1-12 along the bottom from right to left, 13-24 along the top from left to
right, the bar between the two halves and the trays on the right, Black's above White's.
Every point shows White's number and Black's (`point_of_cell(cell, "black")`, 25 - p).
"""
from __future__ import annotations

import json
from typing import TypedDict

from controller.engine.board_view import CELLS, COLOURS, point_of_cell

#: sizes in board units (the SVG's user space)
SIZES: dict[str, int] = {
    "POINT_W": 40, "R": 18, "STEP": 37,  # a point's width; a checker's radius and stacking step
    "TOP": 30, "BOTTOM": 490, "MID_TOP": 230, "MID_BOTTOM": 290,  # the playing area's edges
    "BAR_X": 270, "BAR_W": 50, "TRAY_X": 580, "TRAY_W": 80,
}
#: the drawing's extent: a margin above and below for Black's numbers
VIEW: dict[str, int] = {"x": 0, "y": -16, "w": 700, "h": 552}
_LEFT, _RIGHT = 30, 320  # x of the outer point of each half (beside the bar: 12/13 and 6/19 inward)
_REACH = 25  # how far a point's touch area reaches past its tip towards the middle


class Rect(TypedDict):
    x: int
    y: int
    w: int
    h: int


class PointBox(TypedDict):
    x: int  # the left edge of the point's triangle
    top: bool  # hangs from the top edge


class CellLayout(TypedDict):
    cell: str
    rect: Rect  # where a pointer counts as on the cell
    point: PointBox | None  # points only
    labels: dict[str, str]  # the point's number in each side's numbering ({} for bar, trays)


class BoardLayout(TypedDict):
    sizes: dict[str, int]
    view: dict[str, int]
    cells: list[CellLayout]


def point_box(point: int) -> PointBox:
    """The triangle of point 1..24 (White's numbering)."""
    w = SIZES["POINT_W"]
    if point <= 6:
        return {"x": _RIGHT + (6 - point) * w, "top": False}
    if point <= 12:
        return {"x": _LEFT + (12 - point) * w, "top": False}
    if point <= 18:
        return {"x": _LEFT + (point - 13) * w, "top": True}
    return {"x": _RIGHT + (point - 19) * w, "top": True}


def cell_rect(cell: str) -> Rect:
    """The area of `cell` where a pointer counts as on it."""
    s = SIZES
    if cell == "bar":
        return {"x": s["BAR_X"], "y": s["TOP"], "w": s["BAR_W"], "h": s["BOTTOM"] - s["TOP"]}
    if cell == "off-white":
        return {"x": s["TRAY_X"], "y": s["MID_BOTTOM"], "w": s["TRAY_W"], "h": s["BOTTOM"] - s["MID_BOTTOM"]}
    if cell == "off-black":
        return {"x": s["TRAY_X"], "y": s["TOP"], "w": s["TRAY_W"], "h": s["MID_TOP"] - s["TOP"]}
    box = point_box(int(cell))
    if box["top"]:
        return {"x": box["x"], "y": s["TOP"], "w": s["POINT_W"], "h": s["MID_TOP"] - s["TOP"] + _REACH}
    return {"x": box["x"], "y": s["MID_BOTTOM"] - _REACH, "w": s["POINT_W"],
            "h": s["BOTTOM"] - s["MID_BOTTOM"] + _REACH}


def board_layout() -> BoardLayout:
    """Every cell of CELLS, in their order, laid out (see the module docstring)."""
    cells: list[CellLayout] = []
    for cell in CELLS:
        is_point = cell.isdigit()
        cells.append({
            "cell": cell, "rect": cell_rect(cell), "point": point_box(int(cell)) if is_point else None,
            "labels": {side: str(point_of_cell(cell, side)) for side in COLOURS} if is_point else {},
        })
    return {"sizes": dict(SIZES), "view": dict(VIEW), "cells": cells}


def layout_module() -> str:
    """The layout as the ES module the page imports (`/cells.js`)."""
    return ("// Made by controller/web/board_layout.py from the product's cells: do not edit.\n"
            f"export const LAYOUT = {json.dumps(board_layout(), separators=(',', ':'))};\n")

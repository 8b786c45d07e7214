"""What a bring-up step asks of the person at the board, and what a step reports.

Requests are things to do (place a checker, press a button); questions are things to
look at or listen for. Both are typed values, so a simulated operator can carry them out
on the virtual board instead of a person.
"""
from __future__ import annotations

from dataclasses import dataclass

_BUTTON_NAMES = {
    "white_main": "White's main button",
    "white_cube": "White's cube button",
    "black_main": "Black's main button",
    "black_cube": "Black's cube button",
    "menu": "the menu button",
}


def cell_text(cell: str) -> str:
    """A cell as a person reads it: "point 5", "the bar", "White's tray"."""
    if cell == "bar":
        return "the bar"
    if cell == "off-white":
        return "White's tray"
    if cell == "off-black":
        return "Black's tray"
    return f"point {cell}"


def button_text(key: str) -> str:
    return _BUTTON_NAMES.get(key, key)


@dataclass(frozen=True)
class PlaceChecker:
    """Put one checker of `colour` on `cell`, in slot `slot` (0 = at the board's edge)."""

    cell: str
    slot: int
    colour: str

    def __str__(self) -> str:
        return (f"Place a {self.colour} checker on {cell_text(self.cell)}, "
                f"slot {self.slot + 1} from the edge")


@dataclass(frozen=True)
class ClearCell:
    """Take every checker off `cell`."""

    cell: str

    def __str__(self) -> str:
        return f"Take every checker off {cell_text(self.cell)}"


@dataclass(frozen=True)
class PressButton:
    """Press and release the button of profile key `key` once."""

    key: str

    def __str__(self) -> str:
        return f"Press {button_text(self.key)} once"


@dataclass(frozen=True)
class ClearBoard:
    """Take every checker off the board."""

    def __str__(self) -> str:
        return "Take every checker off the board and keep magnets away from it"


@dataclass(frozen=True)
class CoverCells:
    """Put a checker of `colour` on every slot of `cells` (the lit ones), in any order."""

    colour: str
    cells: tuple[str, ...]

    def __str__(self) -> str:
        where = ", ".join(cell_text(c) for c in self.cells)
        return (f"Put a {self.colour} checker on every slot of {where} (lit), in any order, "
                "and leave them a moment")


Request = PlaceChecker | ClearCell | PressButton | ClearBoard | CoverCells


@dataclass(frozen=True)
class CellLit:
    """Are the LEDs of `cell` lit, and no others?"""

    cell: str

    def __str__(self) -> str:
        return f"Are the LEDs at {cell_text(self.cell)} lit white, and no others?"


@dataclass(frozen=True)
class HeardBeep:
    """Did the buzzer just beep?"""

    def __str__(self) -> str:
        return "Did the buzzer beep twice?"


@dataclass(frozen=True)
class SawPattern:
    """Does the display show the test pattern?"""

    def __str__(self) -> str:
        return ("Does the display show a frame, a chequered left half and the words "
                "'bgboard selftest'?")


Question = CellLit | HeardBeep | SawPattern


@dataclass(frozen=True)
class StepResult:
    """One step's verdict: a one-line summary and, when it failed, each problem found."""

    name: str
    passed: bool
    summary: str
    problems: tuple[str, ...] = ()

    def lines(self, limit: int = 12) -> list[str]:
        """The verdict as printed: the summary line, then at most `limit` problems."""
        head = f"{'PASS' if self.passed else 'FAIL'} {self.name}: {self.summary}"
        shown = [f"  - {p}" for p in self.problems[:limit]]
        if len(self.problems) > limit:
            shown.append(f"  - ... and {len(self.problems) - limit} more")
        return [head, *shown]

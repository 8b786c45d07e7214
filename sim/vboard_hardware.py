"""What stands on the virtual board: checkers on cells, and the sensor faults a test injects.

`HallField` knows which checkers stand where (each with the place it came to rest in its
recess, drawn when it was put down) and what every sensor should read, including injected
faults (a stuck sensor, a flickering one). What the sensors output for it is
sim/vboard_analogue.py's; the chain the firmware reads them through sim/vboard_chain.py's.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.board.profile import Profile
from controller.engine.board_view import CELLS
from firmware import levels as scan  # the sensor values: 0 empty, 1 white, 2 black, 3 fault
from sim.vboard_parts import Placement, Placements

COLOURS = {"white": scan.WHITE, "black": scan.BLACK}


def cell_name(cell: str | int) -> str:
    """'13', 13, 'bar', 'off-white' ... -> the profile's cell name; ValueError otherwise."""
    name = str(cell).strip().lower()
    if name not in CELLS:
        raise ValueError(f"unknown cell {cell!r}; use 1..24, bar, off-white, off-black")
    return name


def colour_value(colour: str) -> int:
    try:
        return COLOURS[colour.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown colour {colour!r}; use white or black") from None


@dataclass(frozen=True)
class Checker:
    """One checker on a cell: its colour (scan.WHITE or scan.BLACK) and where it lies."""

    colour: int
    placement: Placement


@dataclass(frozen=True)
class Flicker:
    """A sensor that alternates between its true value and `value` every `period_ms`."""

    period_ms: int
    value: int


class HallField:
    """The checkers on the board (a stack per cell, edge first: the k-th checker on the
    k-th slot, those beyond the slots lying on top) and what each sensor should read.

    Every change to a cell's checkers is noted in `dirty` (the analogue model takes the
    cells it must look at again from there)."""

    def __init__(self, profile: Profile, placements: Placements | None = None) -> None:
        self.profile = profile
        self.count = profile.sensors.count
        self.placements = placements if placements is not None else Placements("typical", 0)
        self._stacks: dict[str, list[Checker]] = {c: [] for c, _ in profile.cells}
        self._slots: dict[str, tuple[int, ...]] = dict(profile.cells)
        self.stuck: dict[int, int] = {}
        self.flickers: dict[int, Flicker] = {}
        self.dirty: set[str] = set(self._stacks)

    # -- checkers ---------------------------------------------------------------------
    def _checker(self, colour: int) -> Checker:
        return Checker(colour, self.placements.draw())

    def set_cell(self, cell: str | int, white: int, black: int) -> None:
        if white < 0 or black < 0 or white + black > 30:
            raise ValueError(f"bad counts white={white} black={black}")
        name = cell_name(cell)
        self._stacks[name] = [self._checker(scan.WHITE) for _ in range(white)] + \
            [self._checker(scan.BLACK) for _ in range(black)]
        self.dirty.add(name)

    def place(self, cell: str | int, colour: str) -> None:
        name = cell_name(cell)
        self._stacks[name].append(self._checker(colour_value(colour)))
        self.dirty.add(name)

    def lift(self, cell: str | int, colour: str | None = None) -> str:
        """Take the top checker (of `colour`, if given); returns the colour lifted. The
        checkers above it move down a slot each, and come to rest anew."""
        name = cell_name(cell)
        stack = self._stacks[name]
        want = colour_value(colour) if colour else None
        for i in range(len(stack) - 1, -1, -1):
            if want is None or stack[i].colour == want:
                value = stack.pop(i).colour
                stack[i:] = [self._checker(c.colour) for c in stack[i:]]
                self.dirty.add(name)
                return "white" if value == scan.WHITE else "black"
        what = f"{colour} checker" if colour else "checker"
        raise ValueError(f"no {what} on cell {name}")

    def push(self, cell: str | int, dx: float, dy: float, index: int = -1) -> None:
        """Slide the `index`-th checker of a cell (the top one by default) to (dx, dy) mm
        off its slot's centre, as a hand does before it lets go."""
        name = cell_name(cell)
        stack = self._stacks[name]
        if not stack:
            raise ValueError(f"no checker on cell {name}")
        if not -len(stack) <= index < len(stack):
            raise ValueError(f"cell {name} has {len(stack)} checkers, not a checker {index}")
        old = stack[index]
        stack[index] = Checker(old.colour, Placement(dx, dy, old.placement.br))
        self.dirty.add(name)

    def stack(self, cell: str) -> tuple[Checker, ...]:
        """The checkers of a cell, edge first."""
        return tuple(self._stacks[cell])

    def counts(self, cell: str | int) -> tuple[int, int]:
        colours = [c.colour for c in self._stacks[cell_name(cell)]]
        return colours.count(scan.WHITE), colours.count(scan.BLACK)

    def clear(self) -> None:
        for name, stack in self._stacks.items():
            if stack:
                stack.clear()
                self.dirty.add(name)

    # -- faults -------------------------------------------------------------------------
    def _check_sensor(self, sensor: int) -> None:
        if not 0 <= sensor < self.count:
            raise ValueError(f"sensor {sensor} out of range 0..{self.count - 1}")

    def stick(self, sensor: int, value: int | None) -> None:
        self._check_sensor(sensor)
        if value is None:
            self.stuck.pop(sensor, None)
        elif 0 <= value <= 3:
            self.stuck[sensor] = value
        else:
            raise ValueError(f"sensor value {value} out of 0..3")

    def flicker(self, sensor: int, period_ms: int = 10, value: int | None = None) -> None:
        self._check_sensor(sensor)
        if period_ms <= 0:
            self.flickers.pop(sensor, None)
            return
        if value is None:
            value = scan.WHITE if self.true_values()[sensor] == scan.EMPTY else scan.EMPTY
        self.flickers[sensor] = Flicker(period_ms, value)

    # -- what the sensors see -----------------------------------------------------------
    def true_values(self) -> list[int]:
        values = [scan.EMPTY] * self.count
        for cell, stack in self._stacks.items():
            for slot, sensor in enumerate(self._slots[cell]):
                if slot < len(stack):
                    values[sensor] = stack[slot].colour
        return values

    def values(self, now_ms: int) -> list[int]:
        values = self.true_values()
        for sensor, f in self.flickers.items():
            if (now_ms // f.period_ms) % 2:
                values[sensor] = f.value
        for sensor, v in self.stuck.items():
            values[sensor] = v
        return values

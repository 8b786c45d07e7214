"""Where everything sits on the default board, in millimetres, from the profile's cells.

Coordinates: x to the right and y away from White, seen from above with White's side at
the bottom; the origin is the bottom-left corner of the playing field (inside the frame).
Points 1-12 lie along the bottom (1 at the right), 13-24 along the top (13 at the left),
the bar between the quarters, the trays in a column right of the field: off-white at the
bottom end, off-black at the top end.

The build is stripboard, so every distance between two sensors on one module is a whole
number of 0.1 in (2.54 mm) steps: the slot pitch is 13 steps (33.02 mm, a 30 mm checker in
a 31 mm recess with 2 mm between recesses) across a point, along it and in the trays, and
16 steps (40.64 mm) on the bar.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from controller.board.profile import Profile, load_profile

GRID = 2.54                      # stripboard hole pitch, mm
PITCH = 13 * GRID                # slot pitch on points and trays; also a point's width
BAR_PITCH = 16 * GRID            # slot pitch on the bar
BAR_WIDTH = 20 * GRID            # the bar between the two quarters
MIDDLE_GAP = 30.0                # between the tips of opposite points
TRAY_DIVIDER = 12.0              # wood between the right quarter and the trays
FRAME = 24.0                     # frame around the field (LEDs sit under it)
CHECKER = 30.0                   # checker diameter
CHECKER_HEIGHT = 6.0             # a checker's thickness: a stack's upper layers are that much farther
RECESS = 31.0                    # recess diameter in the top, 1 mm deep
RECESS_DEPTH = 1.0
TOP = 3.0                        # playing surface thickness (plywood)
MODULE_CLEARANCE = 0.5           # each module board's edge inside its band
LED_PITCH = 1000 / 144           # a 144 LEDs a metre WS2812B strip
LED_SIZE = 5.0                   # a WS2812B package
LED_INSET = FRAME / 2            # LED centre line in the frame, from the field's edge
LED_WINDOW_HEIGHT = 6.0          # the slot cut through the top over an LED piece
LED_KEEPOUT = 6.0                # half the band around the bar's LEDs kept free of modules
QUARTER = 6 * PITCH
POINT_LENGTH = 6 * PITCH
DEPTH = 2 * POINT_LENGTH + MIDDLE_GAP
X_RIGHT = QUARTER + BAR_WIDTH    # left edge of the right quarter
TRAY_X = X_RIGHT + QUARTER + TRAY_DIVIDER
TRAY_WIDTH = 3 * PITCH
WIDTH = TRAY_X + TRAY_WIDTH      # the playing field, trays included
CARRIER = (90.0, 90.0)           # the Pico carrier board, between the trays
# --- the stack under the top (hardware/README.md, "Mechanics"): every module hangs from
# the top's underside on standoffs, its parts' top side facing the wood
STANDOFF = 5.0                   # M3 hex standoff, female-female: the top's underside to a module's face
PCB = 1.6                        # board thickness
PIN_PROTRUSION = 1.5             # a through-hole connector's pins on the top side, trimmed to this
TOP_CLEARANCE = 0.5              # air kept between the tallest part on a module's top and the wood
PLUG_AND_BEND = 6.0              # a mated ribbon socket over its box header, and the cable's bend
BAY_DEPTH = 32.0                 # the box's clear depth under the top's underside
HOLE_INSET = 4.0                 # a mounting hole's centre from a module board's edges
HOLE_KEEPOUT = 7.0               # the standoff's foot around it (M3 hex, 5.5 mm across flats)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle, x0 < x1, y0 < y1."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        return self.x0 + margin <= x <= self.x1 - margin and self.y0 + margin <= y <= self.y1 - margin

    def overlaps(self, other: Rect) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def inset(self, d: float) -> Rect:
        return Rect(self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Slot:
    """One sensor under one slot: its cell, slot number (from the board edge), sensor index."""

    cell: str
    slot: int
    sensor: int
    x: float
    y: float


@dataclass(frozen=True)
class Led:
    index: int
    cell: str
    x: float
    y: float


@dataclass(frozen=True)
class Module:
    """A sensor module board: its outline and its slots, in chain order (nearest the Pico
    first)."""

    name: str
    kind: str                    # "point-pair", "bar-half" or "tray"
    outline: Rect
    slots: tuple[Slot, ...]

    @property
    def sensors(self) -> tuple[int, ...]:
        return tuple(s.sensor for s in self.slots)

    @property
    def rotation(self) -> int:
        """0 for a module in White's half (its first slot nearest White's edge), 180 for one
        in Black's: the same board turned round, so one design serves both halves."""
        return 0 if self.slots[0].y < DEPTH / 2 else 180

    def local(self, x: float, y: float) -> tuple[float, float]:
        """Board coordinates to the module board's own: from the outline's centre, in the
        orientation of a White's-half module (millimetres, x right, y away from White)."""
        cx, cy = (self.outline.x0 + self.outline.x1) / 2, (self.outline.y0 + self.outline.y1) / 2
        dx, dy = x - cx, y - cy
        return (dx, dy) if self.rotation == 0 else (-dx, -dy)

    @property
    def holes(self) -> tuple[tuple[float, float], ...]:
        """The M3 mounting holes, in the module board's own coordinates (local()): one in
        each corner, HOLE_INSET from both edges, the same on every board of a kind."""
        hx, hy = self.outline.width / 2 - HOLE_INSET, self.outline.height / 2 - HOLE_INSET
        return ((-hx, -hy), (hx, -hy), (-hx, hy), (hx, hy))

    def placed(self, lx: float, ly: float) -> tuple[float, float]:
        """The module board's own coordinates (local()) back to the playing field's."""
        cx, cy = (self.outline.x0 + self.outline.x1) / 2, (self.outline.y0 + self.outline.y1) / 2
        return (cx + lx, cy + ly) if self.rotation == 0 else (cx - lx, cy - ly)


@dataclass(frozen=True)
class Board:
    profile: Profile
    cells: dict[str, Rect]
    slots: tuple[Slot, ...]
    leds: tuple[Led, ...]
    led_windows: dict[str, Rect]
    modules: tuple[Module, ...]
    carrier: Rect

    def module_of(self, sensor: int) -> Module:
        return next(m for m in self.modules if sensor in m.sensors)


def point_x(point: int) -> float:
    """The centre line of a point: 1..6 right quarter right to left, 7..12 left quarter
    right to left, 13..18 left quarter left to right, 19..24 right quarter left to right."""
    if point <= 6:
        return X_RIGHT + (6 - point + 0.5) * PITCH
    if point <= 12:
        return (12 - point + 0.5) * PITCH
    if point <= 18:
        return (point - 13 + 0.5) * PITCH
    return X_RIGHT + (point - 19 + 0.5) * PITCH


def _bottom(cell: str) -> bool:
    return cell == "off-white" or (cell.isdigit() and int(cell) <= 12)


def _along(cell: str, distance: float) -> float:
    """y of a point `distance` from the board edge on the cell's side."""
    return distance if _bottom(cell) else DEPTH - distance


def cell_rect(cell: str) -> Rect:
    """The band a cell owns, frame included (its LEDs sit there)."""
    if cell.isdigit():
        x = point_x(int(cell))
        y0, y1 = _along(cell, -FRAME), _along(cell, POINT_LENGTH)
        return Rect(x - PITCH / 2, min(y0, y1), x + PITCH / 2, max(y0, y1))
    if cell == "bar":
        return Rect(QUARTER, -FRAME, X_RIGHT, DEPTH + FRAME)
    y0, y1 = _along(cell, -FRAME), _along(cell, 5 * PITCH)
    return Rect(TRAY_X, min(y0, y1), TRAY_X + TRAY_WIDTH, max(y0, y1))


def slot_xy(cell: str, slot: int) -> tuple[float, float]:
    """A slot's centre. Every cell's slots start at its edge of the board, so that Black's
    half is White's turned round and one module board serves both: a point's slot 0 at the
    board's edge; the bar's slots 0-3 from White's edge toward the middle, 4-7 from Black's;
    a tray row by row from the board's edge, White's from the corner by the playing field,
    Black's (turned round) from the corner away from it."""
    if cell.isdigit():
        return point_x(int(cell)), _along(cell, (slot + 0.5) * PITCH)
    if cell == "bar":
        half = 4
        steps = slot - 3.5 if slot < half else 7.5 - slot
        return QUARTER + BAR_WIDTH / 2, DEPTH / 2 + steps * BAR_PITCH
    row, col = divmod(slot, 3)
    if cell == "off-black":
        col = 2 - col
    return TRAY_X + (col + 0.5) * PITCH, _along(cell, (row + 0.5) * PITCH)


def _led_row(cell: str, count: int) -> list[tuple[float, float]]:
    """A piece of `count` LEDs, left to right: under the frame at a point's or tray's foot,
    across the bar in the middle gap."""
    if cell == "bar":
        cx, cy = QUARTER + BAR_WIDTH / 2, DEPTH / 2
    else:
        r = cell_rect(cell)
        cx, cy = (r.x0 + r.x1) / 2, _along(cell, -LED_INSET)
    return [(cx + (i - (count - 1) / 2) * LED_PITCH, cy) for i in range(count)]


def _window(cell: str, count: int) -> Rect:
    row = _led_row(cell, count)
    half = LED_WINDOW_HEIGHT / 2
    return Rect(row[0][0] - LED_SIZE / 2, row[0][1] - half, row[-1][0] + LED_SIZE / 2, row[0][1] + half)


def _band(slots: list[Slot], cells: list[str]) -> Rect:
    """Outline of a module: the union of its cells' slot bands, inside by the clearance."""
    x0 = min(cell_rect(c).x0 for c in cells)
    x1 = max(cell_rect(c).x1 for c in cells)
    if cells[0] == "bar":
        x0, x1 = QUARTER, X_RIGHT
    ys = [s.y for s in slots]
    pitch = BAR_PITCH if cells[0] == "bar" else PITCH
    return Rect(x0, min(ys) - pitch / 2, x1, max(ys) + pitch / 2).inset(MODULE_CLEARANCE)


def _modules(slots: tuple[Slot, ...]) -> tuple[Module, ...]:
    by_cell: dict[str, list[Slot]] = {}
    for s in slots:
        by_cell.setdefault(s.cell, []).append(s)
    modules = []
    for first in range(1, 25, 2):
        cells = [str(first), str(first + 1)]
        members = by_cell[cells[0]] + by_cell[cells[1]]
        modules.append(Module(f"P{first}-{first + 1}", "point-pair", _band(members, cells), tuple(members)))
    bar = by_cell["bar"]
    half = len(bar) // 2
    for name, members in (("BAR-W", bar[:half]), ("BAR-B", bar[half:])):
        r = _band(members, ["bar"])
        # the bar's LEDs sit in the middle, under the top: the halves stop short of them
        mid = DEPTH / 2
        r = Rect(r.x0, r.y0, r.x1, min(r.y1, mid - LED_KEEPOUT)) if r.y1 <= mid + 1 else \
            Rect(r.x0, max(r.y0, mid + LED_KEEPOUT), r.x1, r.y1)
        modules.append(Module(name, "bar-half", r, tuple(members)))
    for cell, name in (("off-white", "TRAY-W"), ("off-black", "TRAY-B")):
        r = cell_rect(cell)
        members = by_cell[cell]
        ys = [s.y for s in members]
        outline = Rect(r.x0, min(ys) - PITCH / 2, r.x1, max(ys) + PITCH / 2).inset(MODULE_CLEARANCE)
        modules.append(Module(name, "tray", outline, tuple(members)))
    return tuple(modules)


@cache
def default_board() -> Board:
    """The default board, laid out from hardware/profiles/default.toml."""
    return board(load_profile())


def board(profile: Profile) -> Board:
    """The board laid out from `profile`'s cells and LED cells."""
    slots = tuple(Slot(cell, i, sensor, *slot_xy(cell, i))
                  for cell, sensors in profile.cells for i, sensor in enumerate(sensors))
    leds = []
    windows = {}
    for cell, indices in profile.leds.cells.items():
        for index, (x, y) in zip(sorted(indices), _led_row(cell, len(indices))):
            leds.append(Led(index, cell, x, y))
        windows[cell] = _window(cell, len(indices))
    cy = DEPTH / 2
    carrier = Rect(TRAY_X + (TRAY_WIDTH - CARRIER[0]) / 2, cy - CARRIER[1] / 2,
                   TRAY_X + (TRAY_WIDTH + CARRIER[0]) / 2, cy + CARRIER[1] / 2)
    return Board(profile, {c: cell_rect(c) for c, _ in profile.cells}, slots,
                 tuple(sorted(leds, key=lambda led: led.index)), windows, _modules(slots), carrier)

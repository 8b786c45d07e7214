"""The sections of a hardware profile: each one is the config of the backend that uses it.

One set of rules, written once: each section has one parse function here, which
`parse_profile` (profile.py) calls for a whole file and which `X.from_profile(source)`
calls for one section alone (`source`: a `Profile`, a whole parsed TOML mapping, or the
section's own table). Every problem becomes a line `origin: key: what` (`origin` the
file, or `profile` for a mapping), so a person editing a copy reads which key is wrong.

    LedConfig      [leds], [leds.cells], [leds.roles]   -> controller.show.leds
    DisplayConfig  [display]                           -> controller.show.display_backends
    ButtonConfig   [buttons]                           -> controller.inputs.buttons
    BuzzerConfig   [buzzer]                            -> controller.inputs.buzzer

Optional keys and their defaults: leds brightness 0.25, pin "D10", order "GRB"; display
driver "ssd1306", width 128, height 64 (the only size the screens are drawn for), i2c_port
1, i2c_address 0x3C, rotate 0; buttons bounce_ms 30, long_press_ms 800.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Callable, Literal, TypeVar

from controller.engine.board_view import CELLS
from controller.errors import ProfileError

PATTERNS: tuple[str, ...] = ("solid", "blink", "pulse")
#: The semantic LED roles of DESIGN.md ("Scene roles"): the scene gives each lit cell one,
#: and the profile's [leds.roles] maps each to a colour and a pattern.
ROLES: tuple[str, ...] = ("target", "origin", "last-from", "last-to", "error",
                          "bot-from", "bot-to", "setup", "hit", "hint")
DISPLAY_DRIVERS: tuple[str, ...] = ("dummy", "ssd1306", "sh1106")
#: the display the screens are drawn for (controller.show.display draws at this size)
SCREEN_SIZE: tuple[int, int] = (128, 64)
BUTTON_KEYS: tuple[str, ...] = ("white_main", "white_cube", "black_main", "black_cube", "menu")

RGB = tuple[int, int, int]
Pattern = Literal["solid", "blink", "pulse"]
K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


class FrozenMap(Mapping[K, V]):
    """A read-only mapping that is hashable and compares by content, so a config that
    holds one stays a frozen value (a `Profile` is hashable)."""

    __slots__ = ("_items", "_dict")

    def __init__(self, items: Mapping[K, V] | Iterator[tuple[K, V]] | tuple[tuple[K, V], ...] = ()
                 ) -> None:
        pairs = tuple(items.items()) if isinstance(items, Mapping) else tuple(items)
        self._dict: dict[K, V] = dict(pairs)
        self._items = tuple(self._dict.items())

    def __getitem__(self, key: K) -> V:
        return self._dict[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._dict == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._dict!r})"


# -- the reader: typed getters that collect problems ---------------------------------------

class _Missing:
    """The type of `_MISSING`: a key without a default is a problem when absent."""


_MISSING = _Missing()


class Reader:
    """Typed getters over a parsed TOML table; problems collect as `origin: key: what`."""

    def __init__(self, origin: str, data: Mapping[str, object]) -> None:
        self.origin = origin
        self.data = data
        self.problems: list[str] = []

    def problem(self, key: str, text: str) -> None:
        self.problems.append(f"{self.origin}: {key}: {text}")

    def section(self, name: str) -> Mapping[str, object]:
        value = self.data.get(name)
        if not isinstance(value, Mapping):
            self.problem(name, "missing section" if value is None else "must be a table")
            return {}
        return value

    def get(self, sec: Mapping[str, object], secname: str, key: str, kind: type[T],
            lo: float | None = None, hi: float | None = None, default: T | _Missing = _MISSING) -> T:
        """`sec[key]` as `kind` within lo..hi; `default` when absent (else a problem)."""
        full = f"{secname}.{key}"
        if key not in sec:
            if not isinstance(default, _Missing):
                return default
            self.problem(full, "missing")
            return kind()
        value = sec[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.problem(full, f"must be {kind.__name__}, not {value!r}")
            return kind()
        checked: T = value
        if isinstance(value, int | float) and (lo is not None and value < lo or hi is not None and value > hi):
            self.problem(full, f"{value!r} out of range {lo}..{hi}")
        return checked

    def index_list(self, key: str, value: object, limit: int) -> tuple[int, ...]:
        """A non-empty list of indices 0..limit-1."""
        if not isinstance(value, list) or not value:
            self.problem(key, "must be a non-empty list of indices")
            return ()
        out: list[int] = []
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int):
                self.problem(key, f"{v!r} is not an index")
            elif not 0 <= v < limit:
                self.problem(key, f"index {v} out of range 0..{limit - 1}")
            else:
                out.append(v)
        return tuple(out)

    def raise_first(self) -> None:
        """ProfileError with the first problem (and how many more) in one line."""
        if self.problems:
            more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
            raise ProfileError(self.problems[0] + more)


def _one_section(source: object, name: str, cls: type[T],
                 parse: Callable[[Reader, Mapping[str, object]], T]) -> T:
    """`source`'s section `name`: a Profile's own, or parsed from a mapping (the whole
    profile or the section itself) with the section's one set of rules."""
    held = getattr(source, name, None)
    if isinstance(held, cls):
        return held
    if not isinstance(source, Mapping):
        raise ProfileError(f"profile: [{name}] must be a table")
    table = source.get(name, source)
    if not isinstance(table, Mapping):
        raise ProfileError(f"profile: {name}: must be a table")
    reader = Reader("profile", {name: table})
    config = parse(reader, table)
    reader.raise_first()
    return config


# -- [leds] ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoleLight:
    """How one role looks: a colour and a pattern (`solid`, `blink`, `pulse`)."""

    color: RGB
    pattern: Pattern = "solid"


@dataclass(frozen=True)
class LedConfig:
    """[leds]: the chain (count, data pin, colour order, brightness), which LEDs light
    each cell ([leds.cells]) and how each role looks ([leds.roles])."""

    count: int
    cells: Mapping[str, tuple[int, ...]]
    roles: Mapping[str, RoleLight]
    brightness: float = 0.25
    pin: str = "D10"
    order: str = "GRB"

    def cell_leds(self, cell: str) -> tuple[int, ...]:
        return self.cells.get(cell, ())

    def role(self, role: str) -> RoleLight:
        return self.roles[role]

    @classmethod
    def from_profile(cls, source: object) -> LedConfig:
        """The [leds] section of a Profile or of a parsed mapping (see the module doc)."""
        return _one_section(source, "leds", cls, parse_leds)


def parse_leds(r: Reader, sec: Mapping[str, object]) -> LedConfig:
    count = r.get(sec, "leds", "count", int, 1, 10000)
    brightness = r.get(sec, "leds", "brightness", float, 0.0, 1.0, default=0.25)
    order = r.get(sec, "leds", "order", str, default="GRB")
    if sorted(order) not in (sorted("RGB"), sorted("RGBW")):
        r.problem("leds.order", f"{order!r}: a permutation of RGB or RGBW")
    pin = r.get(sec, "leds", "pin", str, default="D10")
    return LedConfig(count, _led_cells(r, sec.get("cells"), max(count, 1)),
                     _led_roles(r, sec.get("roles")), brightness, pin, order)


def _led_cells(r: Reader, table: object, count: int) -> FrozenMap[str, tuple[int, ...]]:
    if not isinstance(table, Mapping):
        r.problem("leds.cells", "missing section")
        return FrozenMap()
    cells: dict[str, tuple[int, ...]] = {}
    lit: dict[int, str] = {}
    for cell, value in table.items():
        key = f"leds.cells.{cell}"
        if cell not in CELLS:
            r.problem(key, "unknown cell (1..24, bar, off-white, off-black)")
            continue
        if not isinstance(value, list) or not value or \
                not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            r.problem(key, "must be a non-empty list of LED indices")
            continue
        for led in value:
            if not 0 <= led < count:
                r.problem(key, f"LED {led} is outside the chain of {count}")
            elif led in lit:
                r.problem(key, f"LED {led} is already in cell {lit[led]}")
            else:
                lit[led] = cell
        cells[cell] = tuple(value)
    return FrozenMap(cells)


def _led_roles(r: Reader, table: object) -> FrozenMap[str, RoleLight]:
    if not isinstance(table, Mapping):
        r.problem("leds.roles", "missing section")
        return FrozenMap()
    for role in table:
        if role not in ROLES:
            r.problem(f"leds.roles.{role}", f"unknown role; the roles are {', '.join(ROLES)}")
    roles: dict[str, RoleLight] = {}
    for role in ROLES:
        spec = table.get(role)
        key = f"leds.roles.{role}"
        if not isinstance(spec, Mapping):
            r.problem(key, "missing" if spec is None else "must be a table")
            continue
        color, pattern = spec.get("color"), spec.get("pattern", "solid")
        if not isinstance(color, str) or not _COLOUR.match(color):
            r.problem(key + ".color", f"{color!r} is not #rrggbb")
            color = "#000000"
        if pattern not in PATTERNS:
            r.problem(key + ".pattern", f"{pattern!r}: choose {', '.join(PATTERNS)}")
            pattern = "solid"
        roles[role] = RoleLight((int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)),
                                pattern)
    return FrozenMap(roles)


# -- [display] ------------------------------------------------------------------------------

@dataclass(frozen=True)
class DisplayConfig:
    """[display]: the driver (`dummy`, `ssd1306`, `sh1106`), its size, I2C bus and address,
    and quarter turns of rotation."""

    driver: str = "ssd1306"
    width: int = SCREEN_SIZE[0]
    height: int = SCREEN_SIZE[1]
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0

    @classmethod
    def from_profile(cls, source: object) -> DisplayConfig:
        """The [display] section of a Profile or of a parsed mapping (see the module doc)."""
        return _one_section(source, "display", cls, parse_display)


def parse_display(r: Reader, sec: Mapping[str, object]) -> DisplayConfig:
    d = DisplayConfig()
    config = DisplayConfig(
        driver=r.get(sec, "display", "driver", str, default=d.driver),
        width=r.get(sec, "display", "width", int, 1, 4096, default=d.width),
        height=r.get(sec, "display", "height", int, 1, 4096, default=d.height),
        i2c_port=r.get(sec, "display", "i2c_port", int, 0, 16, default=d.i2c_port),
        i2c_address=r.get(sec, "display", "i2c_address", int, 0, 127, default=d.i2c_address),
        rotate=r.get(sec, "display", "rotate", int, 0, 3, default=d.rotate))
    if config.driver not in DISPLAY_DRIVERS:
        r.problem("display.driver", f"{config.driver!r}: choose {', '.join(DISPLAY_DRIVERS)}")
    if (config.width, config.height) != SCREEN_SIZE:
        r.problem("display", f"{config.width}x{config.height}; the screens are drawn for "
                             f"{SCREEN_SIZE[0]}x{SCREEN_SIZE[1]}")
    return config


# -- [buttons] and [buzzer] -------------------------------------------------------------------

@dataclass(frozen=True)
class ButtonConfig:
    """[buttons]: BCM pin numbers (`white_main` ... `menu`), the bounce time and how long
    the menu button is held for a long press."""

    pins: Mapping[str, int]
    bounce_ms: int = 30
    long_press_ms: int = 800

    @classmethod
    def from_profile(cls, source: object) -> ButtonConfig:
        """The [buttons] section of a Profile or of a parsed mapping (see the module doc)."""
        return _one_section(source, "buttons", cls, parse_buttons)


def parse_buttons(r: Reader, sec: Mapping[str, object]) -> ButtonConfig:
    pins = {key: r.get(sec, "buttons", key, int, 0, 27) for key in BUTTON_KEYS}
    shared = sorted({p for p in pins.values() if list(pins.values()).count(p) > 1})
    if shared:
        r.problem("buttons", f"two buttons share a pin (GPIO{shared[0]})")
    return ButtonConfig(FrozenMap(pins), r.get(sec, "buttons", "bounce_ms", int, 0, 1000, default=30),
                        r.get(sec, "buttons", "long_press_ms", int, 1, 10000, default=800))


@dataclass(frozen=True)
class BuzzerConfig:
    """[buzzer]: the BCM pin of the active buzzer."""

    pin: int

    @classmethod
    def from_profile(cls, source: object) -> BuzzerConfig:
        """The [buzzer] section of a Profile or of a parsed mapping (see the module doc)."""
        return _one_section(source, "buzzer", cls, parse_buzzer)


def parse_buzzer(r: Reader, sec: Mapping[str, object]) -> BuzzerConfig:
    return BuzzerConfig(r.get(sec, "buzzer", "pin", int, 0, 27))

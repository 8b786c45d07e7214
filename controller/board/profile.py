"""Hardware profiles: the TOML that maps a board's sensors to cells and names its parts.

`load_profile()` reads and validates a profile (by default
`hardware/profiles/default.toml`, found relative to the repository) and returns a frozen
`Profile` with typed access to every section. Validation reports every problem it can
name at once as a `ProfileError` naming the file and key, so a person editing a copy
gets one clear line instead of a KeyError deep in the controller.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import ProfileError

#: every cell a profile must map (DESIGN.md "Cells")
CELLS: tuple[str, ...] = tuple(str(p) for p in range(1, 25)) + ("bar", "off-white", "off-black")
ROLES: tuple[str, ...] = ("target", "origin", "last-from", "last-to", "error",
                          "bot-from", "bot-to", "setup", "hit")
PATTERNS: tuple[str, ...] = ("solid", "blink", "pulse")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def default_profile_path() -> Path:
    """`hardware/profiles/default.toml` of this repository."""
    return Path(__file__).resolve().parents[2] / "hardware" / "profiles" / "default.toml"


@dataclass(frozen=True)
class SensorMatrix:
    rows: int
    cols: int

    @property
    def count(self) -> int:
        return self.rows * self.cols


@dataclass(frozen=True)
class Timing:
    scan_period_ms: int
    debounce_scans: int
    heartbeat_ms: int
    settle_ms: int


@dataclass(frozen=True)
class LinkSettings:
    baudrate: int
    offline_after_ms: int


@dataclass(frozen=True)
class RoleStyle:
    color: str
    pattern: str

    @property
    def rgb(self) -> tuple[int, int, int]:
        v = int(self.color[1:], 16)
        return (v >> 16) & 255, (v >> 8) & 255, v & 255


@dataclass(frozen=True)
class Leds:
    pin: str
    count: int
    brightness: float
    order: str
    cells: tuple[tuple[str, tuple[int, ...]], ...]
    roles: tuple[tuple[str, RoleStyle], ...]

    def cell_leds(self, cell: str) -> tuple[int, ...]:
        return dict(self.cells).get(cell, ())

    def role(self, role: str) -> RoleStyle:
        return dict(self.roles)[role]


@dataclass(frozen=True)
class Display:
    driver: str
    width: int
    height: int
    i2c_port: int
    i2c_address: int


@dataclass(frozen=True)
class Buttons:
    white_main: int
    white_cube: int
    black_main: int
    black_cube: int
    menu: int
    bounce_ms: int


@dataclass(frozen=True)
class Buzzer:
    pin: int


@dataclass(frozen=True)
class Pico:
    spi_id: int
    sck: int
    miso: int
    load: int
    clock_inhibit: int
    status_led: int
    uart_tx: int
    uart_rx: int


@dataclass(frozen=True)
class Profile:
    """A validated hardware profile. `cells` maps each cell to its sensor indices
    (row-major in the matrix), slot order from the board edge inward."""

    path: Path
    name: str
    sensors: SensorMatrix
    timing: Timing
    link: LinkSettings
    cells: tuple[tuple[str, tuple[int, ...]], ...]
    leds: Leds
    display: Display
    buttons: Buttons
    buzzer: Buzzer
    pico: Pico

    def cell_sensors(self, cell: str) -> tuple[int, ...]:
        for name, sensors in self.cells:
            if name == cell:
                return sensors
        raise KeyError(cell)

    def slots(self, cell: str) -> int:
        return len(self.cell_sensors(cell))

    def cell_of_sensor(self) -> dict[int, tuple[str, int]]:
        """sensor index -> (cell, slot)."""
        return {s: (cell, slot) for cell, sensors in self.cells for slot, s in enumerate(sensors)}


class _Reader:
    """Typed getters that collect problems as 'file: key: what' lines."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.problems: list[str] = []

    def problem(self, key: str, text: str) -> None:
        self.problems.append(f"{self.path}: {key}: {text}")

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name)
        if not isinstance(value, dict):
            self.problem(name, "missing section" if value is None else "must be a table")
            return {}
        return value

    def get(self, sec: dict[str, Any], secname: str, key: str, kind: type,
            lo: float | None = None, hi: float | None = None) -> Any:
        full = f"{secname}.{key}"
        if key not in sec:
            self.problem(full, "missing")
            return kind()
        value = sec[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.problem(full, f"must be {kind.__name__}, not {value!r}")
            return kind()
        if lo is not None and value < lo or hi is not None and value > hi:
            self.problem(full, f"{value!r} out of range {lo}..{hi}")
        return value


def load_profile(path: str | Path | None = None) -> Profile:
    """Read and validate a profile; `ProfileError` names the file and the bad key."""
    p = Path(path) if path is not None else default_profile_path()
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ProfileError(f"{p}: no such profile") from None
    except OSError as exc:
        raise ProfileError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{p}: not valid TOML: {exc}") from None
    return parse_profile(data, p)


def parse_profile(data: dict[str, Any], path: Path) -> Profile:
    """Validate already-parsed TOML data (`path` only names it in errors)."""
    r = _Reader(path, data)
    board = r.section("board")
    name = r.get(board, "board", "name", str)

    s = r.section("sensors")
    matrix = SensorMatrix(r.get(s, "sensors", "rows", int, 1, 64),
                          r.get(s, "sensors", "cols", int, 1, 64))
    if matrix.count > 4 * 247:
        r.problem("sensors", f"{matrix.count} sensors do not fit a SCAN frame (at most 988)")

    t = r.section("timing")
    timing = Timing(r.get(t, "timing", "scan_period_ms", int, 1, 1000),
                    r.get(t, "timing", "debounce_scans", int, 1, 50),
                    r.get(t, "timing", "heartbeat_ms", int, 20, 60000),
                    r.get(t, "timing", "settle_ms", int, 0, 60000))

    lk = r.section("link")
    link = LinkSettings(r.get(lk, "link", "baudrate", int, 300, 4_000_000),
                        r.get(lk, "link", "offline_after_ms", int, 100, 60000))

    cells = _cells(r, r.section("cells"), matrix.count)
    leds = _leds(r, r.section("leds"))

    d = r.section("display")
    display = Display(r.get(d, "display", "driver", str), r.get(d, "display", "width", int, 1, 4096),
                      r.get(d, "display", "height", int, 1, 4096),
                      r.get(d, "display", "i2c_port", int, 0, 16),
                      r.get(d, "display", "i2c_address", int, 0, 127))
    if display.driver not in ("ssd1306", "sh1106", ""):
        r.problem("display.driver", f"{display.driver!r}: choose ssd1306 or sh1106")

    b = r.section("buttons")
    gpio = {k: r.get(b, "buttons", k, int, 0, 27)
            for k in ("white_main", "white_cube", "black_main", "black_cube", "menu")}
    buttons = Buttons(**gpio, bounce_ms=r.get(b, "buttons", "bounce_ms", int, 0, 1000))
    pins = [v for v in (buttons.white_main, buttons.white_cube, buttons.black_main,
                        buttons.black_cube, buttons.menu)]
    if len(set(pins)) != len(pins):
        r.problem("buttons", "two buttons on one pin")

    bz = r.section("buzzer")
    buzzer = Buzzer(r.get(bz, "buzzer", "pin", int, 0, 27))

    pc = r.section("pico")
    pico = Pico(**{k: r.get(pc, "pico", k, int, 0, 29) for k in
                   ("spi_id", "sck", "miso", "load", "clock_inhibit", "status_led",
                    "uart_tx", "uart_rx")})
    if r.problems:
        more = f" (and {len(r.problems) - 1} more)" if len(r.problems) > 1 else ""
        raise ProfileError(r.problems[0] + more)
    return Profile(path, name, matrix, timing, link, cells, leds, display, buttons, buzzer, pico)


def _index_list(r: _Reader, key: str, value: Any, limit: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        r.problem(key, "must be a non-empty list of indices")
        return ()
    out: list[int] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            r.problem(key, f"{v!r} is not an index")
        elif not 0 <= v < limit:
            r.problem(key, f"index {v} out of range 0..{limit - 1}")
        else:
            out.append(v)
    return tuple(out)


def _cells(r: _Reader, sec: dict[str, Any], n_sensors: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    owner: dict[int, str] = {}
    out: list[tuple[str, tuple[int, ...]]] = []
    for cell in CELLS:
        if cell not in sec:
            r.problem(f"cells.{cell}", "missing (every point, bar, off-white and off-black)")
            continue
        sensors = _index_list(r, f"cells.{cell}", sec[cell], n_sensors)
        for s in sensors:
            if s in owner:
                r.problem(f"cells.{cell}", f"sensor {s} is already in cell {owner[s]}")
            owner[s] = cell
        out.append((cell, sensors))
    for extra in sec:
        if extra not in CELLS:
            r.problem(f"cells.{extra}", "not a cell (1..24, bar, off-white, off-black)")
    return tuple(out)


def _leds(r: _Reader, sec: dict[str, Any]) -> Leds:
    count = r.get(sec, "leds", "count", int, 1, 10000)
    brightness = r.get(sec, "leds", "brightness", float, 0.0, 1.0)
    order = r.get(sec, "leds", "order", str)
    if order and sorted(order) not in (sorted("RGB"), sorted("RGBW")):
        r.problem("leds.order", f"{order!r}: a permutation of RGB or RGBW")
    cells_sec = sec.get("cells")
    cells: list[tuple[str, tuple[int, ...]]] = []
    if not isinstance(cells_sec, dict):
        r.problem("leds.cells", "missing section")
    else:
        lit: dict[int, str] = {}
        for cell, value in cells_sec.items():
            if cell not in CELLS:
                r.problem(f"leds.cells.{cell}", "not a cell")
                continue
            indices = _index_list(r, f"leds.cells.{cell}", value, max(count, 1))
            for led in indices:
                if led in lit:
                    r.problem(f"leds.cells.{cell}", f"LED {led} is already in cell {lit[led]}")
                lit[led] = cell
            cells.append((cell, indices))
    roles: list[tuple[str, RoleStyle]] = []
    roles_sec = sec.get("roles")
    if not isinstance(roles_sec, dict):
        r.problem("leds.roles", "missing section")
    else:
        for role in ROLES:
            v = roles_sec.get(role)
            key = f"leds.roles.{role}"
            if not isinstance(v, dict):
                r.problem(key, "missing")
                continue
            color, pattern = v.get("color"), v.get("pattern", "solid")
            if not isinstance(color, str) or not _COLOR.match(color):
                r.problem(key + ".color", f"{color!r} is not #rrggbb")
                color = "#000000"
            if pattern not in PATTERNS:
                r.problem(key + ".pattern", f"{pattern!r}: choose {', '.join(PATTERNS)}")
                pattern = "solid"
            roles.append((role, RoleStyle(color, pattern)))
    return Leds(r.get(sec, "leds", "pin", str), count, brightness, order, tuple(cells), tuple(roles))

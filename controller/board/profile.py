"""Hardware profiles: the TOML that maps a board's sensors to cells and names its parts.

`load_profile()` reads and validates a profile (by default
`hardware/profiles/default.toml`, found relative to the repository) and returns a frozen
`Profile` with typed access to every section. The backends' sections are their configs
(`profile.leds` is the `LedConfig` the strip takes, `profile.display` the
`DisplayConfig`, `profile.buttons`, `profile.buzzer`), parsed once here with the one set
of rules in `profile_sections.py`. Validation reports the first problem (and how many
more) as a `ProfileError` naming the file and key, so a person editing a copy gets one
clear line instead of a KeyError deep in the controller.
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from controller.board.profile_sections import (PATTERNS, ROLES, ButtonConfig, BuzzerConfig,
                                               DisplayConfig, LedConfig, Reader, RoleLight,
                                               parse_buttons, parse_buzzer, parse_display,
                                               parse_leds)
from controller.engine.board_view import CELLS
from controller.errors import ProfileError
from controller.files import read_text_bounded

__all__ = ["CELLS", "ROLES", "PATTERNS", "Profile", "SensorMatrix", "Timing", "LinkSettings",
           "Pico", "LedConfig", "RoleLight", "DisplayConfig", "ButtonConfig", "BuzzerConfig",
           "load_profile", "parse_profile", "default_profile_path"]


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
class Pico:
    """The Pico's pins (GP numbers): the sensor chain (hardware/front-end.md), the status
    LED and the optional UART."""

    s0: int
    s1: int
    s2: int
    s3: int
    tclk: int
    token: int
    ret: int
    aout: int
    supply: int
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
    leds: LedConfig
    display: DisplayConfig
    buttons: ButtonConfig
    buzzer: BuzzerConfig
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


def load_profile(path: str | Path | None = None) -> Profile:
    """Read and validate a profile; `ProfileError` names the file and the bad key."""
    p = Path(path) if path is not None else default_profile_path()
    try:
        data = tomllib.loads(read_text_bounded(p))
    except FileNotFoundError:
        raise ProfileError(f"{p}: no such profile") from None
    except OSError as exc:
        raise ProfileError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{p}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{p}: not valid TOML: {exc}") from None
    return parse_profile(data, p)


def parse_profile(data: Mapping[str, object], path: Path) -> Profile:
    """Validate already-parsed TOML data (`path` only names it in errors): every section
    through its one parser (profile_sections.py), every problem named by file and key."""
    r = Reader(str(path), data)
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
    leds = parse_leds(r, r.section("leds"))
    display = parse_display(r, r.section("display"))
    buttons = parse_buttons(r, r.section("buttons"))
    buzzer = parse_buzzer(r, r.section("buzzer"))

    pc = r.section("pico")
    pico = Pico(**{k: r.get(pc, "pico", k, int, 0, 29) for k in
                   ("s0", "s1", "s2", "s3", "tclk", "token", "ret", "aout", "supply",
                    "status_led", "uart_tx", "uart_rx")})
    r.raise_first()
    return Profile(path, name, matrix, timing, link, cells, leds, display, buttons, buzzer, pico)


def _cells(r: Reader, sec: Mapping[str, object], n_sensors: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    owner: dict[int, str] = {}
    out: list[tuple[str, tuple[int, ...]]] = []
    for cell in CELLS:
        if cell not in sec:
            r.problem(f"cells.{cell}", "missing (every point, bar, off-white and off-black)")
            continue
        sensors = r.index_list(f"cells.{cell}", sec[cell], n_sensors)
        for s in sensors:
            if s in owner:
                r.problem(f"cells.{cell}", f"sensor {s} is already in cell {owner[s]}")
            owner[s] = cell
        out.append((cell, sensors))
    for extra in sec:
        if extra not in CELLS:
            r.problem(f"cells.{extra}", "not a cell (1..24, bar, off-white, off-black)")
    return tuple(out)

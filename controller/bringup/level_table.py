"""The sensors' calibration table as bgboard keeps it: every sensor's empty, white and black
level (mV) and noise, the checks that refuse an impossible one (one line a sensor, its
cell named), and the copy kept in the state directory for a replaced Pico.

Pure values and files: controller/bringup/sensor_levels.py learns the levels on the board
and stores them there.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from controller.board.profile import Profile
from controller.bringup.requests import cell_text
from controller.errors import BgboardError
from controller.link.codec import calibration_table, crc32
from hardware.design.geometry import board as board_layout

#: the firmware's limits: a level outside them is a fault, a span under MIN_SPAN refused
FAULT_LOW_MV, FAULT_HIGH_MV, MIN_SPAN_MV = 80, 3000, 40
#: a module whose channels' three levels all agree within this (or the sensors' own noise,
#: if more) reads one sensor on every channel: its multiplexer is stuck
STUCK_SPREAD_MV = 4
COPY_NAME = "calibration.json"


class CalibrationRefused(BgboardError, ValueError):
    """An impossible calibration: one line per sensor (its cell named); nothing was sent."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = tuple(problems)


class CalibrationNotStored(BgboardError, RuntimeError):
    """The board did not store the calibration (its CAL_STATUS says why)."""


@dataclass(frozen=True)
class SensorLevels:
    """One sensor's calibration: empty, white and black levels and its noise, in mV."""

    empty: int
    white: int
    black: int
    noise: int = 0


@dataclass(frozen=True)
class LevelCalibration:
    """Every sensor's levels, in the profile's sensor order."""

    sensors: tuple[SensorLevels, ...]

    @property
    def rows(self) -> tuple[tuple[int, int, int], ...]:
        return tuple((s.empty, s.white, s.black) for s in self.sensors)

    @property
    def crc(self) -> int:
        """The CRC-32 the board reports for this table (CAL_SAVE, CAL_STATUS)."""
        return crc32(calibration_table(self.rows))

    def to_json(self) -> str:
        return json.dumps({"crc32": f"{self.crc:08x}",
                           "sensors": [[s.empty, s.white, s.black, s.noise] for s in self.sensors]})

    @classmethod
    def from_json(cls, text: str) -> LevelCalibration:
        """The copy `to_json` wrote; ValueError when it is not one (or was changed)."""
        data = json.loads(text)
        sensors = tuple(SensorLevels(*(int(v) for v in row)) for row in data["sensors"])
        calibration = cls(sensors)
        if f"{calibration.crc:08x}" != data["crc32"]:
            raise ValueError("its CRC does not match its levels")
        return calibration


def where(profile: Profile, sensor: int) -> str:
    """"point 5 slot 3 (sensor 26)", as a person finds the sensor."""
    place = profile.cell_of_sensor().get(sensor)
    if place is None:
        return f"sensor {sensor}"
    cell, slot = place
    return f"{cell_text(cell)} slot {slot + 1} (sensor {sensor})"


def volts(mv: int) -> str:
    """"1.02 V": millivolts as a person reads them."""
    return f"{mv / 1000:.2f} V"


# --- the checks -------------------------------------------------------------------------


def check(profile: Profile, empty: Sequence[int], noise: Sequence[int],
          white: dict[int, int], black: dict[int, int]) -> list[str]:
    """Every problem with a calibration, one line each naming the sensor's cell."""
    runs = _stuck_modules(profile, empty, noise, white, black)
    stuck = {i for run, _ in runs for i in run}
    lines = [text for _, text in runs]
    for i in range(len(empty)):
        if i in stuck:
            continue
        line = _sensor_problem(i, empty[i], noise[i], white.get(i), black.get(i))
        if line is not None:
            lines.append(f"{where(profile, i)}: {line}")
    return lines


def _sensor_problem(i: int, e: int, noise: int, w: int | None, b: int | None) -> str | None:
    if not FAULT_LOW_MV <= e <= FAULT_HIGH_MV:
        return f"reads {volts(e)} on the empty board: no sensor there, or no supply"
    if w is None and b is None:
        return "did not move for a white or a black checker: a sensor that does not move"
    if w is None:
        return "did not move for a white checker: a sensor that does not move for white"
    if b is None:
        return "did not move for a black checker: a sensor that does not move for black"
    if w - e < MIN_SPAN_MV or e - b < MIN_SPAN_MV:
        return (f"white {volts(w)} and black {volts(b)} overlap (empty {volts(e)}): "
                "white must read above empty, black below")
    if not (FAULT_LOW_MV <= b and w <= FAULT_HIGH_MV):
        return f"white {volts(w)} or black {volts(b)} outside 0.08-3.00 V"
    return None


def _stuck_modules(profile: Profile, empty: Sequence[int], noise: Sequence[int], white: dict[int, int],
                   black: dict[int, int]) -> list[tuple[tuple[int, ...], str]]:
    """Modules whose every channel reads alike, empty, white and black, within the sensors'
    own noise: one sensor read on every channel of a stuck multiplexer (each channel's
    reading of it is its own noisy sample, so they differ by up to its noise; a whole module
    agreeing so, where parts spread by tens of millivolts, is no chance)."""
    def same(a: int, b: int) -> bool:
        spread = max(STUCK_SPREAD_MV, noise[a], noise[b])
        levels = ((empty[a], empty[b]), (white.get(a), white.get(b)), (black.get(a), black.get(b)))
        return all(x is not None and y is not None and abs(x - y) <= spread
                   for x, y in levels)

    found: list[tuple[tuple[int, ...], str]] = []
    for module in board_layout(profile).modules:
        run = tuple(sorted(module.sensors))
        if len(run) > 1 and run[-1] < len(empty) and all(same(run[0], i) for i in run[1:]):
            found.append((run, f"{where(profile, run[0])} to {where(profile, run[-1])} all read the "
                               "same levels: a stuck multiplexer on that module (check its S0-S3)"))
    return found


def save_copy(state_dir: Path, calibration: LevelCalibration) -> Path:
    """The copy kept on the Pi, written atomically (temporary file, rename)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    target = state_dir / COPY_NAME
    tmp = target.with_suffix(".tmp")
    tmp.write_text(calibration.to_json() + "\n", encoding="utf-8")
    tmp.replace(target)
    return target


def load_copy(state_dir: Path, count: int) -> LevelCalibration:
    """The copy kept on the Pi; BgboardError (one line) when there is none that fits."""
    path = state_dir / COPY_NAME
    try:
        calibration = LevelCalibration.from_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BgboardError(f"{path}: no calibration kept here ({exc.strerror or exc}); "
                           "run bgboard calibrate") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise BgboardError(f"{path}: not a calibration bgboard wrote ({exc})") from None
    if len(calibration.sensors) != count:
        raise BgboardError(f"{path}: a calibration of {len(calibration.sensors)} sensors, "
                           f"the board has {count}")
    return calibration

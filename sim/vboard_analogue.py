"""The analogue half of the virtual board: every checker's magnet, every sensor's output.

Each sensor is its own DRV5053RA (sim/vboard_parts.py) at its own gap and place; its
output is that part's response to the field of every checker near it (the exact disc
field, tabulated: sim/vboard_field.py), white's north pole driving it up and black's
south pole down, clamped at the part's saturation levels. A checker on one of a cell's
slots lies in that slot's recess, off its centre by the play drawn when it was put down;
the checkers a point holds beyond its slots lie on top of those in its recesses, one
`geometry.CHECKER_HEIGHT` higher a layer, so their magnets are that much farther from the sensor.

`Drift` is what changed since the board was calibrated (temperature: the sensors'
sensitivity within the datasheet's ±10 %, the magnets' remanence, the quiescent level);
tests turn it. The field at each sensor is kept per cell and updated only for the cells
whose checkers changed (`HallField.dirty`), so a scan costs a lookup and a noise draw a
sensor.
"""
from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from controller.board.profile import Profile
from firmware import levels as scan  # the sensor values: 0 empty, 1 white, 2 black, 3 fault
from hardware.design import geometry
from hardware.design.geometry import slot_xy
from sim.vboard_field import REACH, FieldTable
from sim.vboard_hardware import Checker, HallField
from sim.vboard_parts import SensorPart

#: a sensor's output when it outputs nothing (dead, unpowered): the bus's pull-down
NO_OUTPUT = 0.0
#: the least supply (V) on which the DRV5053 runs (SLIS153C, 6.3)
SUPPLY_MIN = 2.5
#: mm beyond REACH a checker can lie from its slot's centre and still be counted: the most
#: a test pushes a checker (20 mm) with room to spare
PUSH_ROOM = 25.0


@dataclass(frozen=True)
class Drift:
    """What has changed since calibration: each factor multiplies the value the sensors and
    magnets had then, `vq_mv` moves every sensor's quiescent output."""

    sensitivity: float = 1.0
    br: float = 1.0
    vq_mv: float = 0.0


class AnalogueSensors:
    """The outputs (volts) of every sensor of a board, from its parts and its checkers."""

    def __init__(self, profile: Profile, parts: Sequence[SensorPart], checkers: HallField,
                 table: FieldTable, seed: int = 0) -> None:
        if len(parts) != profile.sensors.count:
            raise ValueError(f"{len(parts)} parts for {profile.sensors.count} sensors")
        self.parts = tuple(parts)
        self.checkers = checkers
        self.table = table
        self.drift = Drift()
        self.supply_v = 5.0
        #: sensors that answer a south pole as a north one (a wrong part: `black_reads_white`)
        self.folded: set[int] = set()
        self._rng = random.Random(f"sensor noise {seed}")
        self._np_rng = np.random.default_rng(zlib.crc32(f"sensor noise {seed}".encode()))
        self._sigma_v = np.array([p.noise_sigma_v() for p in parts])
        self._sat_low = np.array([p.sat_low for p in parts])
        self._sat_high = np.array([p.sat_high for p in parts])
        self._slots: dict[str, tuple[tuple[float, float], ...]] = {}
        self._where: list[tuple[float, float]] = [(0.0, 0.0)] * len(parts)
        for cell, sensors in profile.cells:
            self._slots[cell] = tuple(slot_xy(cell, k) for k in range(len(sensors)))
            for (x, y), sensor in zip(self._slots[cell], sensors):
                ox, oy = parts[sensor].offset
                self._where[sensor] = (x + ox, y + oy)
        self._near = {cell: self._sensors_near(xys) for cell, xys in self._slots.items()}
        self._contrib: dict[str, dict[int, float]] = {cell: {} for cell in self._slots}
        self._field = [0.0] * len(parts)
        self._out: list[float] | None = None
        self._out_array = np.zeros(len(parts))

    def _sensors_near(self, xys: tuple[tuple[float, float], ...]) -> tuple[int, ...]:
        reach = REACH + PUSH_ROOM
        return tuple(s for s, (x, y) in enumerate(self._where)
                     if any(math.hypot(x - sx, y - sy) < reach for sx, sy in xys))

    # -- the field -----------------------------------------------------------------------
    def _checker_field(self, cell: str, index: int, checker: Checker) -> dict[int, float]:
        slots = self._slots[cell]
        n = len(slots)
        slot, layer = (index, 0) if index < n else ((index - n) % n, 1 + (index - n) // n)
        sx, sy = slots[slot]
        p = checker.placement
        mx, my = sx + p.dx, sy + p.dy
        sign = 1.0 if checker.colour == scan.WHITE else -1.0
        out = {}
        for sensor in self._near[cell]:
            x, y = self._where[sensor]
            d = self.parts[sensor].gap + layer * geometry.CHECKER_HEIGHT
            b = self.table.bz(d, math.hypot(x - mx, y - my))
            if b:
                out[sensor] = sign * p.br * b
        return out

    def _refresh(self) -> None:
        """Take in the cells whose checkers changed since the last look."""
        dirty = self.checkers.dirty
        if not dirty:
            return
        touched: set[int] = set()
        for cell in dirty:
            contrib: dict[int, float] = {}
            for index, checker in enumerate(self.checkers.stack(cell)):
                for sensor, b in self._checker_field(cell, index, checker).items():
                    contrib[sensor] = contrib.get(sensor, 0.0) + b
            touched.update(self._contrib[cell], contrib)
            self._contrib[cell] = contrib
        dirty.clear()
        for sensor in touched:
            self._field[sensor] = sum(c.get(sensor, 0.0) for c in self._contrib.values())
        self._out = None

    def fields(self) -> list[float]:
        """The field (mT, positive toward a north pole) at every sensor, at the magnets'
        remanence at calibration."""
        self._refresh()
        return list(self._field)

    # -- the outputs ---------------------------------------------------------------------
    def set_drift(self, drift: Drift) -> None:
        self.drift = drift
        self._out = None

    def set_supply(self, volts: float) -> None:
        """The sensors' 5 V as it stands (0: unplugged supply, every output gone)."""
        self.supply_v = volts
        self._out = None

    def black_reads_white(self, sensor: int) -> None:
        """From now on `sensor` outputs for a south pole what it outputs for a north one."""
        if not 0 <= sensor < len(self.parts):
            raise ValueError(f"sensor {sensor} out of range 0..{len(self.parts) - 1}")
        self.folded.add(sensor)
        self._out = None

    def _volts(self, sensor: int, b: float) -> float:
        if self.supply_v < SUPPLY_MIN:
            return NO_OUTPUT
        if sensor in self.folded:
            b = abs(b)
        drift = self.drift
        return self.parts[sensor].volts(b * drift.br, drift.sensitivity) + drift.vq_mv / 1000

    def outputs(self) -> list[float]:
        """Every sensor's output (V) without noise, from what stands on the board."""
        self._refresh()
        if self._out is None:
            self._out = [self._volts(s, b) for s, b in enumerate(self._field)]
            self._out_array = np.array(self._out)
        return self._out

    def output(self, sensor: int, now_ms: int) -> float:
        """What `sensor` outputs now without noise: a stuck or flickering sensor (the
        virtual board's faults) outputs the level of the value it is held at."""
        field = self.checkers
        held = field.stuck.get(sensor)
        if held is None:
            f = field.flickers.get(sensor)
            if f is not None and (now_ms // f.period_ms) % 2:
                held = f.value
        if held is not None:
            return self.level_of(sensor, held)
        return self.outputs()[sensor]

    def level_of(self, sensor: int, value: int) -> float:
        """The output (V) of `sensor` reading `value` alone on the board: EMPTY no field,
        WHITE and BLACK a checker centred on its slot, FAULT no output at all (a dead
        sensor: the bus's pull-down)."""
        if value == scan.FAULT:
            return NO_OUTPUT
        if value == scan.EMPTY:
            return self._volts(sensor, 0.0)
        part = self.parts[sensor]
        b = self.table.bz(part.gap, math.hypot(*part.offset))
        return self._volts(sensor, b if value == scan.WHITE else -b)

    def sample(self, now_ms: int) -> list[float]:
        """Every sensor's output now with one draw of its noise each (one scan's worth)."""
        out: list[float] = self.sample_array(now_ms).tolist()
        return out

    def sample_array(self, now_ms: int) -> np.ndarray:
        """`sample` as a numpy array: the 182 draws at once, a scan's cost kept small."""
        self.outputs()
        volts = self._out_array
        field = self.checkers
        if field.stuck or field.flickers:
            volts = volts.copy()
            for sensor in set(field.stuck) | set(field.flickers):
                volts[sensor] = self.output(sensor, now_ms)
        noise = self._np_rng.standard_normal(len(volts)) * (self._sigma_v * self.drift.sensitivity)
        noisy = np.minimum(np.maximum(volts + noise, self._sat_low), self._sat_high)
        noisy[volts == NO_OUTPUT] = NO_OUTPUT     # a dead output carries no noise
        return noisy

    def noisy(self, sensor: int, volts: float) -> float:
        """`volts` with one draw of the sensor's own noise on it (none on a dead output)."""
        if volts == NO_OUTPUT:
            return volts
        part = self.parts[sensor]
        v = volts + self._rng.gauss(0.0, part.noise_sigma_v(self.drift.sensitivity))
        return min(max(v, part.sat_low), part.sat_high)

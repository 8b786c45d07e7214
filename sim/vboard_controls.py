"""The virtual board's sensing faults and the hand's finer moves, as controls a test turns.

`SensingControls` is the part of `VirtualBoard` (sim/virtual_board.py) that changes its
sensing hardware (sim/vboard_sensing.py) rather than its firmware or its cable: a sensor
held at one value or flickering, a dead one (`stick(sensor, 3)`: no output, the bus's
pull-down), a part that answers black as white, a checker slid off its slot, the
temperature since calibration, a module's ribbon pulled, a multiplexer stuck, the sensors'
supply, the chain's pins failing. Every control takes the board's one lock.
"""
from __future__ import annotations

import math
import threading

from sim.vboard_analogue import PUSH_ROOM, Drift
from sim.vboard_chain import TokenChain
from sim.vboard_hardware import HallField
from sim.vboard_sensing import SensingHardware


class SensingControls:
    """Faults and finer moves on the sensing hardware; see the module docstring."""

    _lock: threading.RLock
    field: HallField
    chain: TokenChain
    hardware: SensingHardware

    def flicker(self, sensor: int, period_ms: int = 10, value: int | None = None) -> None:
        """Make `sensor` alternate with `value` every `period_ms` (period 0 stops it)."""
        with self._lock:
            self.field.flicker(sensor, period_ms, value)

    def stick(self, sensor: int, value: int | None) -> None:
        """Hold `sensor` at `value` (0..3) whatever stands there; None releases it."""
        with self._lock:
            self.field.stick(sensor, value)

    def black_reads_white(self, sensor: int) -> None:
        """Sensor `sensor` reads a black checker at its white level from now on."""
        with self._lock:
            self.hardware.sensors.black_reads_white(sensor)

    def fail_chain(self, reason: str | None) -> None:
        """Make the chain's pins fail to drive (the firmware reports ERROR 4)."""
        with self._lock:
            self.chain.fail = reason

    def push(self, cell: str | int, dx: float, dy: float, index: int = -1) -> None:
        """Slide a checker of `cell` (the top one by default) to (dx, dy) mm off its slot."""
        if not math.hypot(dx, dy) <= PUSH_ROOM:
            raise ValueError(f"a checker slides at most {PUSH_ROOM:g} mm off its slot, not {dx}, {dy}")
        with self._lock:
            self.field.push(cell, dx, dy, index)

    def drift(self, sensitivity: float = 1.0, br: float = 1.0, vq_mv: float = 0.0) -> None:
        """What temperature changed since calibration: every sensor's sensitivity and every
        magnet's remanence times these factors, every quiescent output moved by vq_mv."""
        if not (0.5 <= sensitivity <= 2.0 and 0.5 <= br <= 2.0 and abs(vq_mv) <= 500):
            raise ValueError(f"drift factors 0.5..2 and a shift within 500 mV, not {sensitivity}, {br}, {vq_mv}")
        with self._lock:
            self.hardware.sensors.set_drift(Drift(sensitivity, br, vq_mv))

    def unplug_module(self, module: int | None) -> None:
        """Pull module `module`'s ribbon (0-based, chain order): the chain ends before it.
        None plugs every module back."""
        with self._lock:
            self.chain.unplug_module(module)

    def stick_mux(self, module: int, channel: int | None) -> None:
        """Hold a module's multiplexer on one channel whatever the address (None frees it)."""
        with self._lock:
            self.chain.stick_mux(module, channel)

    def sensor_supply(self, volts: float) -> None:
        """The sensors' 5 V as it stands (0: its plug pulled: every output gone)."""
        if not 0.0 <= volts <= 6.0:
            raise ValueError(f"sensor supply {volts} V out of 0..6")
        with self._lock:
            self.hardware.sensors.set_supply(volts)

"""The virtual board's sensing hardware put together: its parts (of one kind), the
checkers and where they lie, every sensor's output, the chain the firmware reads them
through, and the calibration the board left the factory with.

The factory calibration is what a perfect `bgboard calibrate` would learn from these very
parts: each sensor's empty level, and its level with a white and with a black checker
centred on its slot and nothing else on the board, read through the bus and the ADC
without noise. A board built with it reads as a calibrated board reads; a test that wants
to see calibration done asks for an uncalibrated board instead.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.board.profile import Profile
from firmware import levels as scan  # the sensor values: 0 empty, 1 white, 2 black, 3 fault
from hardware.design import sensing
from hardware.design.geometry import board as board_layout
from sim.vboard_analogue import AnalogueSensors
from sim.vboard_chain import TokenChain
from sim.vboard_field import FieldTable, field_table
from sim.vboard_hardware import HallField
from sim.vboard_parts import PartKind, Placements, SensorPart, random_part, typical_part
from sim.vboard_worst import worst_parts


def _phantom() -> dict[int, float]:
    part = typical_part()
    b = sensing.MAGNET.on_axis(part.gap)
    return {scan.EMPTY: part.volts(0.0), scan.WHITE: part.volts(b), scan.BLACK: part.volts(-b)}


#: the outputs of a sensor the firmware scans past the board's own (firmware flashed for a
#: bigger matrix): a typical part, per value
PHANTOM = _phantom()


def module_sizes(profile: Profile) -> tuple[int, ...]:
    """The sensors of each module in chain order, as the profile's board is built
    (hardware/design/geometry.py: P1-2 ... P23-24, BAR-W, BAR-B, TRAY-W, TRAY-B)."""
    return tuple(len(m.slots) for m in board_layout(profile).modules)


def draw_parts(kind: PartKind, profile: Profile, table: FieldTable, seed: int) -> tuple[SensorPart, ...]:
    """Every sensor's part: see sim/vboard_parts.py for the kinds."""
    count = profile.sensors.count
    if kind == "typical":
        return (typical_part(),) * count
    if kind == "worst":
        return worst_parts(profile, table)
    import random
    rng = random.Random(f"parts {seed}")
    return tuple(random_part(rng) for _ in range(count))


@dataclass
class SensingHardware:
    """One board's sensing hardware; `field` is what stands where, `sensors` what each
    sensor outputs, `chain` what the firmware reads."""

    kind: PartKind
    field: HallField
    sensors: AnalogueSensors
    chain: TokenChain

    def factory_table(self, n: int | None = None) -> list[int]:
        """(empty, white, black) mV for each of `n` sensors (default: the board's), as the
        firmware's calibration stores it; sensors past the board's are typical parts."""
        count = len(self.sensors.parts)
        table = []
        for sensor in range(count if n is None else n):
            for value in (scan.EMPTY, scan.WHITE, scan.BLACK):
                volts = self.sensors.level_of(sensor, value) if sensor < count else PHANTOM[value]
                table.append(self.chain.ideal_mv(volts))
        return table


def build(profile: Profile, kind: PartKind, seed: int, now_ms: Callable[[], int]) -> SensingHardware:
    """A board of `kind` parts for `profile` (seeded: the same seed builds the same board
    and draws the same placements and noise)."""
    table = field_table(sensing.MAGNET)
    field = HallField(profile, Placements(kind, seed))
    sensors = AnalogueSensors(profile, draw_parts(kind, profile, table, seed), field, table, seed)
    chain = TokenChain(module_sizes(profile), sensors, now_ms, seed)
    return SensingHardware(kind, field, sensors, chain)

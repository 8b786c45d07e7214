"""A board of worst-case parts: each sensor at a corner of its datasheet limits that
leaves it the least room to read right, chosen slot by slot.

Which corner is worst depends on where a sensor sits and on what it is read against:

- against its own calibrated levels (the board as it plays), a sensor whose output
  saturates early (a high quiescent level with a high sensitivity) calibrates a white level
  squeezed against 1.8 V, so its threshold sits lowest against the neighbours' stray field;
- against the typical part's levels (a board not yet calibrated), the weakest swing (the
  lowest sensitivity at the far end of the gap) with its quiescent level at the wrong end
  does not reach the typical threshold at all.

One part cannot be both, so the board alternates: even slots of each cell take the corner
worst against their own calibration, odd slots the corner worst against the typical
levels. Every corner is tried at every slot: the quiescent output at either end,
sensitivities from one end to the other (the clamps make the worst one not always an
end), the gap at either end of its tolerance, and the element off its slot's centre toward
either axis. A corner's room is the least, over both colours, of

- a checker at the far edge of its play, every neighbour's stray field against it, above
  its threshold (`sensing.ENTER` of the swing calibrated with a checker centred on the
  slot, or of the typical levels);
- an empty slot, every neighbour's stray field toward the colour, below that threshold,

in millitesla at the sensor, as hardware/design/sensing.py budgets each case.
"""
from __future__ import annotations

import math
from functools import cache

from controller.board.profile import Profile
from hardware.design import sensing
from hardware.design.geometry import slot_xy
from sim.vboard_chain import DIVIDER
from sim.vboard_field import REACH, FieldTable
from sim.vboard_parts import SensorPart

SENSITIVITY_STEPS = 6       # sensitivities tried between the two ends, both included


def _out(vq: float, sensitivity: float, b: float) -> float:
    return min(max(vq + b * sensitivity / 1000, sensing.V_SAT_LOW), sensing.V_SAT_HIGH)


def _typical_thresholds() -> tuple[float, float]:
    """(white, black) thresholds in sensor volts of a board that uses the typical levels:
    the firmware compares what the ADC reads through the bus's divider."""
    empty, white, black = (v / 1000 / DIVIDER for v in sensing.TYPICAL_LEVELS_MV)
    return empty + sensing.ENTER * (white - empty), empty - sensing.ENTER * (empty - black)


def corner_room(vq: float, sensitivity: float, own_cal: float, own_weak: float, hood: float,
                calibrated: bool = True) -> float:
    """The least room (mT) of a part with this quiescent output and sensitivity, given the
    fields of its own checker (centred at calibration, at its weakest in play) and of its
    neighbours (the most they give together), read against its own calibrated levels or
    (`calibrated` False) the typical part's."""
    typical = _typical_thresholds()
    room = math.inf
    for k, sign in enumerate((1.0, -1.0)):
        if calibrated:
            threshold = vq + sensing.ENTER * (_out(vq, sensitivity, sign * own_cal) - vq)
        else:
            threshold = typical[k]
        on_slot = sign * (_out(vq, sensitivity, sign * (own_weak - hood)) - threshold)
        empty = sign * (threshold - _out(vq, sensitivity, sign * hood))
        room = min(room, on_slot, empty)
    return room / (sensitivity / 1000)


def _stray(table: FieldTable, gap: float, at: tuple[float, float],
           others: list[tuple[float, float]]) -> float:
    """The most field every other slot's checker can give at `at` together, each with the
    worse polarity and anywhere in its play."""
    total = 0.0
    play = sensing.PLAY
    for ox, oy in others:
        r = math.hypot(at[0] - ox, at[1] - oy)
        if r < REACH + play:
            total += max(abs(table.bz(gap, max(r + dr, 0.0))) for dr in (-play, 0.0, play))
    return total


def worst_part(table: FieldTable, at: tuple[float, float], others: list[tuple[float, float]],
               calibrated: bool = True) -> SensorPart:
    """The corner with the least room for a sensor under the slot at `at`, read against its
    own calibration or (`calibrated` False) the typical levels."""
    s_lo, s_hi = sensing.SENSITIVITY
    sensitivities = [s_lo + (s_hi - s_lo) * k / (SENSITIVITY_STEPS - 1) for k in range(SENSITIVITY_STEPS)]
    tol, r = sensing.GAP_TOLERANCE, sensing.SENSOR_OFFSET
    best: tuple[float, SensorPart] | None = None
    for gap in (sensing.GAP - tol, sensing.GAP + tol):
        own_cal = table.bz(gap, r)
        own_weak = table.bz(gap, r + sensing.PLAY)
        for offset in ((r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)):
            hood = _stray(table, gap, (at[0] + offset[0], at[1] + offset[1]), others)
            for vq in sensing.VQ:
                for s in sensitivities:
                    room = corner_room(vq, s, own_cal, own_weak, hood, calibrated)
                    if best is None or room < best[0]:
                        best = (room, SensorPart(vq, s, sensing.V_SAT_LOW, sensing.V_SAT_HIGH,
                                                 sensing.NOISE_PP, gap, offset))
    assert best is not None
    return best[1]


@cache
def _worst_parts(cells: tuple[tuple[str, tuple[int, ...]], ...], count: int,
                 table: FieldTable) -> tuple[SensorPart, ...]:
    where: dict[int, tuple[tuple[float, float], int]] = {}
    for cell, sensors in cells:
        for k, sensor in enumerate(sensors):
            where[sensor] = (slot_xy(cell, k), k)
    parts = []
    for sensor in range(count):
        at, slot = where[sensor]
        others = [xy for s, (xy, _) in where.items() if s != sensor]
        parts.append(worst_part(table, at, others, calibrated=slot % 2 == 0))
    return tuple(parts)


def worst_parts(profile: Profile, table: FieldTable) -> tuple[SensorPart, ...]:
    """Every sensor of `profile`'s board at its worst corner (computed once a process): even
    slots against their own calibration, odd slots against the typical levels."""
    return _worst_parts(profile.cells, profile.sensors.count, table)

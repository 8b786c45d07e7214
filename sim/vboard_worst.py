"""A board of worst-case parts: each sensor at the corner of its datasheet limits that
leaves it the least room to read right, chosen slot by slot.

Which corner is worst depends on where a sensor sits: a slot among many neighbours
suffers most from their stray field, and a sensor whose output saturates early (a high
quiescent level with a high sensitivity) calibrates a white level squeezed against 1.8 V,
so its threshold sits low against that stray field. So every corner is tried at every
slot: the quiescent output at either end, sensitivities from one end to the other (the
clamps make the worst one not always an end), the gap at either end of its tolerance, and
the element off its slot's centre toward either axis. A corner's room is the least, over
both colours, of

- a checker at the far edge of its play, every neighbour's stray field against it, above
  the threshold `ENTER` of the swing calibrated with a checker centred on the slot;
- an empty slot, every neighbour's stray field toward the colour, below that threshold,

in millitesla at the sensor (the margin hardware/design/sensing.py budgets per case). The
corner with the least room is the part built in.
"""
from __future__ import annotations

import math
from functools import cache

from controller.board.profile import Profile
from hardware.design.geometry import slot_xy
from sim import _limits_placeholder as sensing  # TEMPORARY: hardware.design.sensing
from sim.vboard_field import REACH, FieldTable
from sim.vboard_parts import SensorPart

SENSITIVITY_STEPS = 6       # sensitivities tried between the two ends, both included


def _corner_room(vq: float, sensitivity: float, own_cal: float, own_weak: float, hood: float) -> float:
    """The least room (mT) of a part with this quiescent output and sensitivity, given the
    fields of its own checker (centred at calibration, at its weakest in play) and of its
    neighbours (the most they give together)."""
    def out(b: float) -> float:
        return min(max(vq + b * sensitivity / 1000, sensing.V_SAT_LOW), sensing.V_SAT_HIGH)

    room = math.inf
    for sign in (1.0, -1.0):
        threshold = vq + sensing.ENTER * (out(sign * own_cal) - vq)
        on_slot = sign * (out(sign * (own_weak - hood)) - threshold)
        empty = sign * (threshold - out(sign * hood))
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


def worst_part(table: FieldTable, at: tuple[float, float], others: list[tuple[float, float]]) -> SensorPart:
    """The corner with the least room for a sensor under the slot at `at`."""
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
                    room = _corner_room(vq, s, own_cal, own_weak, hood)
                    if best is None or room < best[0]:
                        best = (room, SensorPart(vq, s, sensing.V_SAT_LOW, sensing.V_SAT_HIGH,
                                                 sensing.NOISE_PP, gap, offset))
    assert best is not None
    return best[1]


@cache
def _worst_parts(cells: tuple[tuple[str, tuple[int, ...]], ...], count: int,
                 table: FieldTable) -> tuple[SensorPart, ...]:
    where: dict[int, tuple[float, float]] = {}
    for cell, sensors in cells:
        for k, sensor in enumerate(sensors):
            where[sensor] = slot_xy(cell, k)
    parts = []
    for sensor in range(count):
        at = where[sensor]
        others = [xy for s, xy in where.items() if s != sensor]
        parts.append(worst_part(table, at, others))
    return tuple(parts)


def worst_parts(profile: Profile, table: FieldTable) -> tuple[SensorPart, ...]:
    """Every sensor of `profile`'s board at its worst corner (computed once a process)."""
    return _worst_parts(profile.cells, profile.sensors.count, table)

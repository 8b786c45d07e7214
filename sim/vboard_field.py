"""The magnet's field at a sensor, tabulated: hardware/design/magnet.py's exact disc field
(elliptic integrals summed over the disc's length, about 0.1 ms a point) read from a
table instead, so a scan of 182 sensors with 30 checkers around costs little.

The table runs over the distance below the magnet's face (rows 0.25 mm apart, each row
computed the first time a sensor needs it, then kept for the process) and the distance
off the magnet's axis (0.25 mm apart up to 20 mm, where the field changes fast, 1 mm apart
from there to `REACH`); between its points the field is interpolated linearly both ways.
Past `REACH` a magnet's field is taken as nothing (a checker 80 mm off gives under 0.02 mT,
a fortieth of the sensor's own noise).
"""
from __future__ import annotations

import math
from functools import cache

from hardware.design.magnet import Disc

ROW_STEP = 0.25          # mm between rows (distance below the magnet's face)
FINE_STEP = 0.25         # mm between points off the axis, up to FINE_END
FINE_END = 20.0
COARSE_STEP = 1.0        # mm between points from FINE_END to REACH
REACH = 80.0             # mm: farther magnets are not counted

_FINE_POINTS = round(FINE_END / FINE_STEP)
_OFFSETS = tuple([k * FINE_STEP for k in range(_FINE_POINTS)]
                 + [FINE_END + k * COARSE_STEP for k in range(round((REACH - FINE_END) / COARSE_STEP) + 1)])


class FieldTable:
    """`bz(d, offset)` of one magnet, as `Disc.bz` gives it, from a table made as needed."""

    def __init__(self, magnet: Disc) -> None:
        self.magnet = magnet
        self._rows: dict[int, tuple[float, ...]] = {}

    def _row(self, index: int) -> tuple[float, ...]:
        row = self._rows.get(index)
        if row is None:
            d = index * ROW_STEP
            row = tuple(self.magnet.bz(d, r) for r in _OFFSETS)
            self._rows[index] = row
        return row

    @property
    def rows_made(self) -> int:
        """How many rows were computed so far (each costs about 14 ms)."""
        return len(self._rows)

    def bz(self, d: float, offset: float) -> float:
        """The axial field (mT) `d` mm below the magnet's face and `offset` mm off its axis;
        0 beyond REACH. `d` must be positive: a sensor lies under the magnet."""
        if offset >= REACH:
            return 0.0
        if d <= 0.0:
            raise ValueError(f"a sensor {d} mm below the magnet's face: it must lie below it")
        if offset < FINE_END:
            pos = offset / FINE_STEP
        else:
            pos = _FINE_POINTS + (offset - FINE_END) / COARSE_STEP
        j = int(pos)
        fj = pos - j
        pos_d = d / ROW_STEP
        i = int(pos_d)
        fi = pos_d - i
        lo, hi = self._row(i), self._row(i + 1)
        near = lo[j] + (lo[j + 1] - lo[j]) * fj
        far = hi[j] + (hi[j + 1] - hi[j]) * fj
        return near + (far - near) * fi

    def at(self, d: float, dx: float, dy: float) -> float:
        """The field at a sensor `d` mm below and (dx, dy) mm beside the magnet's axis."""
        return self.bz(d, math.hypot(dx, dy))


@cache
def field_table(magnet: Disc) -> FieldTable:
    """One table per magnet for the whole process: every virtual board shares it."""
    return FieldTable(magnet)

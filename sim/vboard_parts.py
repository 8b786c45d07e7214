"""The parts of a virtual board: each hall sensor its own DRV5053RA, drawn from the
datasheet's limits, and each checker's place in its recess, drawn when it is put down.

A real board's 182 sensors are 182 different parts: each has its own quiescent output,
sensitivity and noise, and sits at its own gap under the wood, a little off its slot's
centre. The firmware reads each against that sensor's calibrated levels; the virtual board
gives it the same spread to read, in three kinds:

- `typical`: every sensor the datasheet's typical part, at the nominal gap, centred;
- `random`: each sensor drawn uniformly within the limits (seeded);
- `worst`: each sensor at the corner of its limits that leaves it the least room between
  what it reads and its thresholds (sim/vboard_worst.py finds it, slot by slot).

The limits are hardware/design/sensing.py's (one definition): SLIS153C for the sensor,
the stack of wood, standoff and package for the gap, the recess for a checker's play.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

from hardware.design import sensing

PartKind = Literal["typical", "random", "worst"]
PART_KINDS: tuple[PartKind, ...] = ("typical", "random", "worst")


@dataclass(frozen=True)
class SensorPart:
    """One DRV5053RA as built into the board. Fields are volts, millivolts per millitesla
    (the magnitude: the RA's output falls with a south pole, so it rises with a white
    checker's north pole), millitesla peak to peak and millimetres."""

    vq: float                   # V, the output with no field
    sensitivity: float          # mV/mT, magnitude
    sat_low: float              # V, the output's floor with a strong south pole
    sat_high: float             # V, its ceiling with a strong north pole
    noise_pp: float             # mTpp, input-referred
    gap: float                  # mm, magnet face to Hall element
    offset: tuple[float, float]  # mm, the element off its slot's centre (x, y)

    def volts(self, b_north: float, sensitivity_factor: float = 1.0) -> float:
        """The output for a field of `b_north` mT (positive: a north pole, a white checker,
        above), the sensitivity `sensitivity_factor` times its own (temperature)."""
        v = self.vq + b_north * self.sensitivity * sensitivity_factor / 1000
        return min(max(v, self.sat_low), self.sat_high)

    def noise_sigma_v(self, sensitivity_factor: float = 1.0) -> float:
        """The output's noise as a standard deviation in volts: peak to peak taken as six
        standard deviations (±3 sigma), the convention of TI's hall sensor datasheets."""
        return self.noise_pp / 6 * self.sensitivity * sensitivity_factor / 1000


def typical_part() -> SensorPart:
    """The datasheet's typical part at the nominal gap, centred on its slot."""
    return SensorPart(sensing.VQ_TYPICAL, sensing.SENSITIVITY_TYPICAL, sensing.V_SAT_LOW,
                      sensing.V_SAT_HIGH, sensing.NOISE_PP, sensing.GAP, (0.0, 0.0))


def random_part(rng: random.Random) -> SensorPart:
    """A part drawn uniformly within every limit; the noise at its limit (the datasheet
    gives only the most) and the saturation levels at theirs (it gives only one side)."""
    angle, radius = rng.uniform(0, 2 * math.pi), sensing.SENSOR_OFFSET * math.sqrt(rng.random())
    tol = sensing.GAP_TOLERANCE
    return SensorPart(rng.uniform(*sensing.VQ), rng.uniform(*sensing.SENSITIVITY), sensing.V_SAT_LOW,
                      sensing.V_SAT_HIGH, sensing.NOISE_PP, rng.uniform(sensing.GAP - tol, sensing.GAP + tol),
                      (radius * math.cos(angle), radius * math.sin(angle)))


@dataclass(frozen=True)
class Placement:
    """Where one checker came to rest: (dx, dy) mm off its slot's centre (the recess's play
    and its magnet glued off its centre) and its magnet's remanence against the nominal."""

    dx: float
    dy: float
    br: float


class Placements:
    """Draws each checker's placement as it is put down: uniform within the play and the
    magnet grade's spread (`random`), centred and nominal (`typical`), or at the edge of
    its play in a random direction (`worst`). Seeded: a board replays exactly."""

    def __init__(self, kind: PartKind, seed: int) -> None:
        self.kind = kind
        self._rng = random.Random(f"placements {seed}")

    def draw(self) -> Placement:
        if self.kind == "typical":
            return Placement(0.0, 0.0, 1.0)
        rng = self._rng
        angle = rng.uniform(0, 2 * math.pi)
        radius = sensing.PLAY if self.kind == "worst" else sensing.PLAY * math.sqrt(rng.random())
        br = rng.uniform(*sensing.BR_RANGE) / sensing.MAGNET.br
        return Placement(radius * math.cos(angle), radius * math.sin(angle), br)

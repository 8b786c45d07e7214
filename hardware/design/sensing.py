"""How a slot reads: the magnet's field at the sensor (magnet.py), the DRV5053VA's output,
and the LM339 window comparator with its hysteresis, each at its datasheet limits.

A margin is in millitesla: how far the worst-case field stays beyond the worst-case
field at which the comparator switches. `margins()` lists every case the board relies on,
and hardware/margins.md is generated from it; tests/test_hardware_field.py fails when a
case's margin falls under MIN_MARGIN_MT.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from . import geometry as g
from .magnet import Disc

# --- the magnet and where it sits ----------------------------------------------------
MAGNET = Disc(diameter=6.0, thickness=2.0, br=1300.0)   # N42: Br 1.29-1.32 T
#: magnet face to the Hall element: 2 mm of wood under the recess; the module hangs on
#: 12 mm standoffs (the box headers and screw terminals are 9-10 mm tall), each sensor
#: lies flat, branded face up, on a 6 mm spacer over the board, so its face is
#: 12 - 6 - 1.52 = 4.48 mm under the wood and the element about 0.5 mm under that face.
WOOD_UNDER_RECESS = g.TOP - g.RECESS_DEPTH
STANDOFF = 12.0
SENSOR_RAISE = 6.0
TO92_THICKNESS = 1.52
ELEMENT_DEPTH = 0.5
GAP = WOOD_UNDER_RECESS + STANDOFF - SENSOR_RAISE - TO92_THICKNESS + ELEMENT_DEPTH
GAP_TOLERANCE = 0.5          # plywood thickness, standoffs, lead bends
#: how far a checker in its recess can sit off the sensor: recess play, magnet glued off
#: the checker's centre, sensor placed off its hole
PLACEMENT = (g.RECESS - g.CHECKER) / 2 + 0.5 + 1.0
LOOSE_OFFSETS = tuple(x / 2 for x in range(0, 41))      # a checker 0-20 mm off a slot
NEIGHBOURHOOD = 80.0        # slots nearer than this add their stray field

# --- DRV5053VA (TI SLIS153) ------------------------------------------------------------
SENSITIVITY = 90.0           # mV/mT, output falls with a south pole: -90 mV/mT
SENSITIVITY_TOLERANCE = 0.20  # +-20 %, initial and over temperature together
VQ = (0.9, 1.1)              # V, output with no field
V_OUT_LOW_MAX = 0.25         # V, the output's lowest level at most (0.2 V typical)
V_OUT_HIGH_MIN = 1.75        # V, its highest level at least (1.8 V typical)
LINEAR_RANGE = 9.0           # mT, +-: the VA option's linear range

# --- the comparator, its thresholds and hysteresis -------------------------------------
V33 = (3.3 * 0.97, 3.3 * 1.03)   # the Pico's 3.3 V at a module, regulator and ribbon
R_TOLERANCE = 0.01
R_TOP, R_MID, R_BOTTOM = 1800.0, 1100.0, 470.0     # divider: 3V3 - VHI - VLO - GND
R_IN, R_FEEDBACK = 10e3, 1e6                       # hysteresis: series in, output back
R_PULLUP = 47e3                                    # open-collector output to 3.3 V
LM339_OFFSET = 0.009         # V, input offset over temperature (LM339 datasheet, max)
COMPARATORS_PER_MODULE = 15  # the most south comparators feeding back into one VLO node

MIN_MARGIN_MT = 1.0


def sensor_volts(b: float, vq: float, sensitivity: float) -> float:
    """DRV5053VA output for field b (mT, positive = north toward the face, which drives
    the output up), clamped to the output's range."""
    return min(max(vq + b * sensitivity / 1000, V_OUT_LOW_MAX), V_OUT_HIGH_MIN)


@dataclass(frozen=True)
class Thresholds:
    """Worst-case sensor voltages at which the comparators switch. `*_on` is where the
    output turns (the sensor must pass it to read a colour), `*_off` where it turns back
    (the sensor must come back past it to read empty); each as (lowest, highest)."""

    north_on: tuple[float, float]
    north_off: tuple[float, float]
    south_on: tuple[float, float]
    south_off: tuple[float, float]


def _divider(v33: float, top: float, mid: float, bottom: float) -> tuple[float, float]:
    total = top + mid + bottom
    return v33 * (mid + bottom) / total, v33 * bottom / total


def nominal_thresholds() -> tuple[float, float]:
    """(VHI, VLO) with nominal parts."""
    return _divider(3.3, R_TOP, R_MID, R_BOTTOM)


@cache
def thresholds() -> Thresholds:
    corners = []
    for v33 in V33:
        for ft in (1 - R_TOLERANCE, 1 + R_TOLERANCE):
            for fm in (1 - R_TOLERANCE, 1 + R_TOLERANCE):
                for fb in (1 - R_TOLERANCE, 1 + R_TOLERANCE):
                    corners.append((v33, *_divider(v33, R_TOP * ft, R_MID * fm, R_BOTTOM * fb),
                                    R_TOP * ft, R_MID * fm, R_BOTTOM * fb))
    north_on, north_off, south_on, south_off = [], [], [], []
    rin, rf, rpu = R_IN, R_FEEDBACK, R_PULLUP
    for v33, vhi, vlo, rt, rm, rb in corners:
        # the VLO node's own resistance, and the most the high south outputs pull it up
        r_node = 1 / (1 / (rt + rm) + 1 / rb)
        lift = COMPARATORS_PER_MODULE * (v33 - vlo) / (rin + rf + rpu) * r_node
        for vos in (-LM339_OFFSET, LM339_OFFSET):
            # north: IN+ = sensor through R_IN, R_FEEDBACK from the output; IN- = VHI
            north_on.append((vhi + vos) * (rin + rf) / rf)
            north_off.append(((vhi + vos) * (rin + rf + rpu) - v33 * rin) / (rf + rpu))
            # south: IN- = sensor; IN+ = VLO (lifted up to `lift`) through R_IN, R_FEEDBACK
            for v in (vlo, vlo + lift):
                south_on.append(v * rf / (rin + rf) + vos)
                south_off.append((v * (rf + rpu) + v33 * rin) / (rin + rf + rpu) + vos)
    span = lambda xs: (min(xs), max(xs))  # noqa: E731
    return Thresholds(span(north_on), span(north_off), span(south_on), span(south_off))


def field_to_reach(volts: float, rising: bool) -> float:
    """The least |field| (mT) that moves every sensor's output past `volts`, whatever
    its VQ and sensitivity within the datasheet's limits."""
    s_min = SENSITIVITY * (1 - SENSITIVITY_TOLERANCE) / 1000
    return (volts - VQ[0]) / s_min if rising else (VQ[1] - volts) / s_min


def field_kept_below(volts: float, rising: bool) -> float:
    """The largest |field| (mT) that never moves any sensor's output past `volts`."""
    s_max = SENSITIVITY * (1 + SENSITIVITY_TOLERANCE) / 1000
    return (volts - VQ[1]) / s_max if rising else (VQ[0] - volts) / s_max


@cache
def stray(d: float, distance: float) -> float:
    """The most |field| a magnet whose slot is `distance` mm away gives at a sensor, its
    checker anywhere within PLACEMENT of its slot."""
    return max(abs(MAGNET.bz(d, max(distance + dx, 0.0))) for dx in (-PLACEMENT, 0.0, PLACEMENT))


@cache
def worst_neighbourhood(d: float) -> tuple[float, str]:
    """The most stray field (mT) any slot's neighbours can give it together (each magnet
    with the worse polarity), and which slot that is."""
    slots = g.default_board().slots
    best, where = 0.0, ""
    for s in slots:
        total = sum(stray(d, round(math.hypot(s.x - o.x, s.y - o.y), 3)) for o in slots
                    if o is not s and math.hypot(s.x - o.x, s.y - o.y) < NEIGHBOURHOOD)
        if total > best:
            best, where = total, f"{s.cell} slot {s.slot}"
    return best, where


@dataclass(frozen=True)
class Margin:
    case: str
    field: float          # worst-case field the case gives, mT
    threshold: float      # worst-case switching field it must pass (or stay under), mT
    margin: float         # mT


@cache
def margins() -> tuple[Margin, ...]:
    t = thresholds()
    near, far = GAP - GAP_TOLERANCE, GAP + GAP_TOLERANCE
    hood, _ = worst_neighbourhood(near)
    on_slot = min(MAGNET.bz(far, r) for r in (0.0, PLACEMENT / 2, PLACEMENT)) - hood
    lobe = -min(MAGNET.bz(near, r) for r in LOOSE_OFFSETS)
    white_needs = field_to_reach(t.north_on[1], rising=True)
    black_needs = field_to_reach(t.south_on[0], rising=False)
    empty_north = field_kept_below(t.north_off[0], rising=True)
    empty_south = field_kept_below(t.south_off[1], rising=False)
    wrong_white = field_kept_below(t.north_on[0], rising=True)
    wrong_black = field_kept_below(t.south_on[1], rising=False)
    return (
        Margin("white checker on its slot reads white", on_slot, white_needs, on_slot - white_needs),
        Margin("black checker on its slot reads black", on_slot, black_needs, on_slot - black_needs),
        Margin("empty slot, neighbours all black, reads empty (north released)", hood, empty_north,
               empty_north - hood),
        Margin("empty slot, neighbours all white, reads empty (south released)", hood, empty_south,
               empty_south - hood),
        Margin("white checker 0-20 mm off a slot never reads black there", lobe + hood, wrong_black,
               wrong_black - lobe - hood),
        Margin("black checker 0-20 mm off a slot never reads white there", lobe + hood, wrong_white,
               wrong_white - lobe - hood),
    )

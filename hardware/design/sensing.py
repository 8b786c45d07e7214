"""How a slot reads, at every part's datasheet limits: the magnet's field at the sensor
(magnet.py), the DRV5053RA's output, the RP2040's ADC and the firmware's classification
against each sensor's own calibrated levels (hardware/front-end.md).

Why calibration: the DRV5053's quiescent output spreads 0.90–1.15 V and the RA option's
sensitivity −20…−70 mV/mT (SLIS153C, 6.7). No fixed threshold serves every part; a
threshold placed at a fraction F of *this* sensor's own measured swing removes both
spreads. What calibration cannot remove is budgeted here, each at its limit:

- what changes between calibration and play: the sensitivity (±10 % over temperature,
  so a ratio of up to 1.1/0.9 between two temperatures), the magnet's remanence
  (N42 1.28–1.32 T, −0.12 %/K over the room's range), the checker's place in its recess
  (another checker, another play) and the neighbours standing at calibration;
- the quiescent level's drift and the ADC reference's: the firmware tracks each empty
  sensor's level, within TRACK_LIMIT_MV of its calibrated one: budgeted whole;
- the ADC's non-linearity (RP2040 datasheet, 4.9.3: DNL and INL of a few LSB) and the
  sensor's noise (input-referred, 0.79 mTpp at most), taken at their peaks, unaveraged.

A margin is in millitesla: how far the worst-case field stays beyond the field at which the
worst-case sensor crosses its threshold. `margins()` lists every case the board relies
on; hardware/margins.md is generated from it and tests/test_hardware_field.py fails when a
margin falls under MIN_MARGIN_MT.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from . import geometry as g
from .magnet import Disc

MIN_MARGIN_MT = 1.0

# --- the magnet ----------------------------------------------------------------------
MAGNET = Disc(diameter=6.0, thickness=2.0, br=1300.0)   # N42, nominal remanence, mT
BR_RANGE = (1280.0, 1320.0)      # N42 at 20 °C (DIN IEC 60404-8-1 grade), mT
BR_TEMPERATURE = -0.0012         # per K, NdFeB's reversible coefficient
ROOM = (10.0, 35.0)              # °C: where the board is calibrated and played

# --- where it sits: the stack from the magnet to the Hall element ---------------------
WOOD_UNDER_RECESS = g.TOP - g.RECESS_DEPTH
ELEMENT_HEIGHT = 0.7             # mm, DBZ: the Hall element above the package's bottom
#: mm, each part of the stack at its tolerance: plywood, recess depth, standoff,
#: element height, the board's bow between its standoffs
GAP_TOLERANCES = {"plywood": 0.3, "recess": 0.1, "standoff": 0.1, "element": 0.05, "board bow": 0.1}
GAP_TOLERANCE = round(sum(GAP_TOLERANCES.values()), 3)


def gap() -> float:
    """Magnet face to Hall element: the wood under the recess, the standoff from the top's
    underside to the module's top face, less the element's height above the board."""
    return WOOD_UNDER_RECESS + g.STANDOFF - ELEMENT_HEIGHT


GAP = gap()
#: mm a checker in its recess sits off the centre it sat at when calibrated: the recess's
#: play and another checker's magnet glued off its centre. The sensor's own error of place
#: (assembly, the board on its standoffs) is the same at calibration and in play.
PLAY = (g.RECESS - g.CHECKER) / 2 + 0.5
#: mm, the sensor off the recess's centre: SMD placement and the board's holes on its standoffs
SENSOR_OFFSET = 0.6
LOOSE_OFFSETS = tuple(x / 2 for x in range(0, 41))      # a checker 0-20 mm off a slot
NEIGHBOURHOOD = 80.0             # slots nearer than this add their stray field

# --- DRV5053RA (TI SLIS153C, 6.5 and 6.7, −40…125 °C) ----------------------------------
SENSITIVITY = (20.0, 70.0)       # mV/mT, magnitude: the output falls with a south pole
SENSITIVITY_TYPICAL = 45.0
SENSITIVITY_DRIFT = 0.10         # ± over temperature
VQ = (0.90, 1.15)                # V, output with no field
VQ_TYPICAL = 1.02
V_SAT_LOW = 0.2                  # V, the saturated low output is at most this
V_SAT_HIGH = 1.8                 # V, the saturated high output is at least this
NOISE_PP = 0.79                  # mTpp, input-referred
ICC_MAX = 3.6                    # mA

# --- the RP2040's ADC and the firmware ---------------------------------------------------
ADC_BITS = 12
ADC_REFERENCE = 3.3              # V (the Pico's filtered 3V3)
ADC_ERROR_MV = 8.0               # ±: INL/DNL of a few LSB at 0.8 mV each
TRACK_LIMIT_MV = 20.0            # ±: how far the firmware follows an empty sensor's level
#: The classification (firmware/levels.py carries the same numbers, tested to agree), as
#: fractions of each sensor's own calibrated span from empty toward a colour: a slot turns
#: to the colour above CLASSIFY_FRACTION + HYSTERESIS_FRACTION/2 of it and back to empty
#: below CLASSIFY_FRACTION − HYSTERESIS_FRACTION/2.
CLASSIFY_FRACTION = 0.48
HYSTERESIS_FRACTION = 0.08
ENTER = CLASSIFY_FRACTION + HYSTERESIS_FRACTION / 2
LEAVE = CLASSIFY_FRACTION - HYSTERESIS_FRACTION / 2
FAULT_LOW_MV = 80                # a bus no sensor drives reads 0 V through its pull-down
FAULT_HIGH_MV = 3000             # nothing a DRV5053 can output
#: (empty, white, black) mV of a typical part at the nominal gap, used by a board that has no
#: calibration yet: a typical board reads right, one with parts at their limits may not.
TYPICAL_LEVELS_MV = (1020, 1800, 200)


def sensor_volts(b: float, vq: float, sensitivity: float, colour: str) -> float:
    """The RA's output for field b (mT toward the checker's own colour; white's north pole
    drives the output up, black's south pole down), clamped at the saturation levels that
    are worst for reading: as low as 1.8 V on the way up, as high as 0.2 V on the way down."""
    if colour == "white":
        return min(vq + b * sensitivity / 1000, V_SAT_HIGH)
    return max(vq - b * sensitivity / 1000, V_SAT_LOW)


def swing(b: float, vq: float, sensitivity: float, colour: str) -> float:
    """|output − VQ| in volts for a field b toward `colour`."""
    return abs(sensor_volts(b, vq, sensitivity, colour) - vq)


def br_ratio() -> tuple[float, float]:
    """The magnet's remanence against the model's nominal, lowest and highest: the grade's
    spread at 20 °C and the room's temperatures."""
    lo = BR_RANGE[0] * (1 + BR_TEMPERATURE * (ROOM[1] - 20)) / MAGNET.br
    hi = BR_RANGE[1] * (1 + BR_TEMPERATURE * (ROOM[0] - 20)) / MAGNET.br
    return lo, hi


def sensitivity_ratio() -> tuple[float, float]:
    """Sensitivity in play over sensitivity at calibration, at most apart."""
    d = SENSITIVITY_DRIFT
    return (1 - d) / (1 + d), (1 + d) / (1 - d)


@cache
def field(d: float, offset: float) -> float:
    """The nominal magnet's axial field, d mm under its face, `offset` mm off its axis."""
    return MAGNET.bz(d, offset)


@cache
def stray(d: float, distance: float) -> float:
    """The most |field| a magnet whose slot is `distance` mm away gives at a sensor, its
    checker anywhere within its play and the sensor's offset of its slot."""
    reach = PLAY + SENSOR_OFFSET
    return max(abs(field(d, max(distance + dx, 0.0))) for dx in (-reach, 0.0, reach))


@cache
def worst_neighbourhood(d: float) -> tuple[float, str]:
    """The most stray field (mT) any slot's neighbours can give it together (each magnet
    with the worse polarity, at the highest remanence), and which slot that is."""
    slots = g.default_board().slots
    best, where = 0.0, ""
    for s in slots:
        total = sum(stray(d, round(math.hypot(s.x - o.x, s.y - o.y), 3)) for o in slots
                    if o is not s and math.hypot(s.x - o.x, s.y - o.y) < NEIGHBOURHOOD)
        if total > best:
            best, where = total, f"{s.cell} slot {s.slot}"
    return best * br_ratio()[1], where


@cache
def reversed_lobe(d: float) -> float:
    """The strongest field of the *other* sign a checker gives at a slot's sensor while it
    lies 0–20 mm off that slot (the reversed lobe, where its field lines return)."""
    return max(0.0, -min(field(d, r) for r in LOOSE_OFFSETS)) * br_ratio()[1]


def gaps() -> tuple[float, ...]:
    """The gaps a sensor can have: nominal ± the stack's tolerance, and between."""
    return tuple(GAP + GAP_TOLERANCE * k / 2 for k in (-2, -1, 0, 1, 2))


def on_slot(d: float) -> tuple[float, float]:
    """(weakest, strongest) field of a checker on its slot at gap d, before neighbours: its
    magnet anywhere within the play around the sensor's offset, remanence at its limits."""
    lo_br, hi_br = br_ratio()
    weakest = field(d, SENSOR_OFFSET + PLAY) * lo_br
    strongest = field(d, max(SENSOR_OFFSET - PLAY, 0.0)) * hi_br
    return weakest, strongest


@dataclass(frozen=True)
class Margin:
    case: str
    field: float          # worst-case field the case gives, mT
    threshold: float      # worst-case field at which the reading turns, mT
    margin: float         # mT


@dataclass(frozen=True)
class Part:
    """One sensor at one corner of its datasheet limits."""

    vq: float
    sensitivity: float    # mV/mT at calibration


def corners() -> tuple[Part, ...]:
    """Every corner of the RA's spread worth trying, and points between (the clamps make
    the worst sensitivity not always an end)."""
    s_lo, s_hi = SENSITIVITY
    sens = tuple(s_lo + (s_hi - s_lo) * k / 8 for k in range(9))
    return tuple(Part(vq, s) for vq in VQ for s in sens)


def _errors_v() -> float:
    """What shifts a reading against its calibrated levels, volts: the tracked level's limit
    and the ADC's non-linearity."""
    return (TRACK_LIMIT_MV + ADC_ERROR_MV) / 1000


def _calibrated_swing(part: Part, colour: str, b: float) -> float:
    """The swing (V) calibration measures for a checker whose field there is b."""
    return swing(b, part.vq, part.sensitivity, colour)


def threshold_field(part: Part, colour: str, b_cal: float, ratio: float, fraction: float) -> float:
    """The field (mT) at which a sensor calibrated with field b_cal crosses `fraction` of its
    calibrated swing in play, its sensitivity then `ratio` times what it was; None-safe:
    infinite when the threshold lies beyond what the sensor can output."""
    t_v = fraction * _calibrated_swing(part, colour, b_cal)
    s_use = min(max(part.sensitivity * ratio, SENSITIVITY[0]), SENSITIVITY[1]) / 1000
    room = (V_SAT_HIGH - part.vq) if colour == "white" else (part.vq - V_SAT_LOW)
    if t_v >= room:
        return math.inf
    return t_v / s_use


def _noise() -> float:
    return NOISE_PP / 2


@cache
def margins() -> tuple[Margin, ...]:
    """Every case, each at its worst over the gaps, the sensor's corners, the temperature
    between calibration and play, the magnet, the checker's play and the neighbours."""
    cases: dict[str, tuple[float, float, float]] = {}

    def worse(name: str, field_mt: float, threshold: float, margin: float) -> None:
        if name not in cases or margin < cases[name][2]:
            cases[name] = (field_mt, threshold, margin)

    r_lo, r_hi = sensitivity_ratio()
    for d in gaps():
        hood, _ = worst_neighbourhood(d)
        weakest, strongest = on_slot(d)
        lobe = reversed_lobe(d)
        for part in corners():
            s_use_lo = max(part.sensitivity * r_lo, SENSITIVITY[0]) / 1000
            err_field = _errors_v() / s_use_lo
            for colour in ("white", "black"):
                name = colour
                # a checker on its slot reads its colour: calibrated at its strongest with
                # the same colour all around, played at its weakest with the other colour
                # all around, the sensitivity up since calibration (threshold highest)
                t_hi = threshold_field(part, colour, strongest + hood, r_lo, ENTER)
                b_play = weakest - hood
                worse(f"{name} checker on its slot reads {colour}", b_play, t_hi,
                      b_play - t_hi - err_field - _noise())
                # an empty slot stays empty: the threshold at its lowest (calibrated weakest,
                # the other colour around; the sensitivity down since), the full
                # neighbourhood's stray field against it
                t_lo = threshold_field(part, colour, weakest - hood, r_hi, ENTER)
                worse(f"empty slot, every neighbour there, does not read {colour}", hood, t_lo,
                      t_lo - hood - err_field - _noise())
                # a checker of the other colour pushed 0-20 mm off this slot: its reversed
                # lobe points this colour's way
                worse(f"a checker 0-20 mm off a slot never reads {colour} there unless it is",
                      lobe + hood, t_lo, t_lo - lobe - hood - err_field - _noise())
                # once read, a checker stays read: it leaves only below LEAVE, which the
                # weakest checker in play must stay above too
                t_leave = threshold_field(part, colour, strongest + hood, r_lo, LEAVE)
                worse(f"{name} checker, once read, is held against noise (hysteresis)", b_play,
                      t_leave, b_play - t_leave - err_field - _noise())
                # and when it is lifted the reading falls back under LEAVE, whatever stands
                # around: the neighbours and another checker's reversed lobe
                t_leave_lo = threshold_field(part, colour, weakest - hood, r_hi, LEAVE)
                worse(f"{name} checker lifted: the slot reads empty again", lobe + hood, t_leave_lo,
                      t_leave_lo - lobe - hood - err_field - _noise())
    order = ("white checker on its slot reads white", "black checker on its slot reads black",
             "empty slot, every neighbour there, does not read white",
             "empty slot, every neighbour there, does not read black",
             "a checker 0-20 mm off a slot never reads white there unless it is",
             "a checker 0-20 mm off a slot never reads black there unless it is",
             "white checker, once read, is held against noise (hysteresis)",
             "black checker, once read, is held against noise (hysteresis)",
             "white checker lifted: the slot reads empty again",
             "black checker lifted: the slot reads empty again")
    return tuple(Margin(k, *cases[k]) for k in order)


@cache
def margins_without_calibration() -> tuple[Margin, ...]:
    """The two cases that pull a threshold apart, with the best single threshold for every
    sensor (a fixed offset from the typical quiescent level, as a comparator would have),
    to show why the board calibrates: a negative margin means a board with parts at their
    datasheet limits misreads whatever the threshold."""
    out = []
    for colour in ("white", "black"):
        best: tuple[float, float, float] | None = None
        for k in range(1, 80):
            t_v = k / 100                              # volts from the typical VQ
            worst_on = worst_empty = math.inf
            for d in gaps():
                hood, _ = worst_neighbourhood(d)
                weakest, _ = on_slot(d)
                for part in corners():
                    shift = (part.vq - VQ_TYPICAL) * (1 if colour == "white" else -1)
                    reach = (t_v - shift) / (part.sensitivity / 1000)     # field this part needs
                    if reach > (V_SAT_HIGH - part.vq if colour == "white" else part.vq - V_SAT_LOW) \
                            / (part.sensitivity / 1000):
                        reach = math.inf
                    worst_on = min(worst_on, weakest - hood - reach - _noise())
                    worst_empty = min(worst_empty, reach - hood - reversed_lobe(d) - _noise())
            if best is None or min(worst_on, worst_empty) > min(best[1], best[2]):
                best = (t_v, worst_on, worst_empty)
        assert best is not None
        t_v, on, empty = best
        out.append(Margin(f"{colour} on its slot, one threshold {t_v * 1000:.0f} mV from 1.02 V for all",
                          0.0, 0.0, on))
        out.append(Margin(f"a slot with no {colour} checker, the same threshold", 0.0, 0.0, empty))
    return tuple(out)


# bgboard firmware: each sensor's level (mV) classified as empty, white or black from
# that sensor's own calibration (hardware/front-end.md "Firmware scan").
#
# A DRV5053RA's output at zero field spreads 0.90-1.15 V and its sensitivity 20-70 mV/mT,
# so fixed thresholds cannot work; with each sensor's empty, white and black levels
# learned (`bgboard calibrate`), a sensor reads
#     white  above empty + F*(white - empty), black  below empty - F*(empty - black)
# with a hysteresis of H (both fractions of that sensor's own span, so they hold for
# every sensitivity), and fault outside 80..3000 mV (no sensor, no supply, a short).
# The noise is averaged over successive scans (an exponential average per sensor); the
# empty level follows the sensor slowly while it reads empty (temperature drift).
# Without a stored calibration every sensor gets the typical part's levels.
#
# Cost on the Pico: one pass over all sensors a scan that only averages and compares
# each level with the band its class holds in (two numbers kept per sensor); only the
# sensors that left their band are classified again and handed to the debouncer.
#
# Same Python subset as wire.py: it runs on MicroPython and CPython.

import sys
from array import array

EMPTY = 0
WHITE = 1
BLACK = 2
FAULT = 3

#: F and H in thousandths of a sensor's span (hardware/design/sensing.py holds the same
#: numbers; tests/test_firmware_levels.py checks that they agree)
CLASSIFY_PERMILLE = 480
HYSTERESIS_PERMILLE = 80
FAULT_LOW_MV = 80
FAULT_HIGH_MV = 3000
#: the typical DRV5053RA's levels, used until a calibration is stored: empty, white, black
TYPICAL_LEVELS_MV = (1020, 1800, 200)
#: a calibration whose white or black lies closer to empty than this is refused
MIN_SPAN_MV = 40
#: the average over scans, kept doubled so that it needs one shift and one add a sensor and
#: settles exactly: avg2 = avg2 // 2 + level, i.e. avg = (avg + level) / 2 (each new scan
#: weighs a half, the one before a quarter, ...)
#: the empty level is tracked at this many sensors a scan, 1 mV a visit, while the
#: sensor reads empty and lies within TRACK_PERMILLE of its span from it, and never
#: further than TRACK_LIMIT_MV from its calibrated level
TRACK_PER_SCAN = 4
TRACK_PERMILLE = 250
TRACK_LIMIT_MV = 20


NOTHING = []  # type: list[int]  # update()'s answer when no class changed (never changed)


def average(doubled: "array[int]", levels: "array[int]", lo: "array[int]", hi: "array[int]",
            n: int, moved: "array[int]") -> int:
    """The scan's hot loop: every sensor's doubled average takes the new level
    (doubled[i] = doubled[i] // 2 + levels[i]) and is compared with its band; the sensors
    outside it go into moved[0..]; returns how many. On the Pico fastlevels.average, the
    same in viper code, runs instead."""
    count = 0
    for i in range(n):
        a = (doubled[i] >> 1) + levels[i]
        doubled[i] = a
        if a < lo[i] or a > hi[i]:
            moved[count] = i
            count += 1
    return count


if sys.platform == "rp2":  # the Pico: the same loop as machine code
    from fastlevels import average as _average  # type: ignore[import-not-found,unused-ignore]
else:
    _average = average


UP = CLASSIFY_PERMILLE + HYSTERESIS_PERMILLE // 2      # a colour enters above this
DOWN = CLASSIFY_PERMILLE - HYSTERESIS_PERMILLE // 2    # and leaves below this


def thresholds(e: int, sw: int, sb: int) -> tuple:
    """(white on, white off, black on, black off) in mV for empty e and spans sw, sb."""
    return (e + sw * UP // 1000, e + sw * DOWN // 1000,
            e - sb * UP // 1000, e - sb * DOWN // 1000)


def classify(f2: int, current: int, e: int, sw: int, sb: int) -> int:
    """The class of a sensor whose average is f2 / 2 mV (kept doubled: see Levels) and
    that reads `current` now."""
    if f2 < 2 * FAULT_LOW_MV or f2 > 2 * FAULT_HIGH_MV:
        return FAULT
    w_on, w_off, b_on, b_off = thresholds(e, sw, sb)
    if f2 > 2 * w_on or (current == WHITE and f2 > 2 * w_off):
        return WHITE
    if f2 < 2 * b_on or (current == BLACK and f2 < 2 * b_off):
        return BLACK
    return EMPTY


def band(f2: int, current: int, e: int, sw: int, sb: int) -> tuple:
    """(lo, hi): the doubled averages for which `current` stays the class (lo <= f2 <= hi)."""
    w_on, w_off, b_on, b_off = thresholds(e, sw, sb)
    if current == WHITE:
        return (max(2 * w_off + 1, 2 * FAULT_LOW_MV), 2 * FAULT_HIGH_MV)
    if current == BLACK:
        return (2 * FAULT_LOW_MV, min(2 * b_off - 1, 2 * w_on))
    if current == EMPTY:
        return (max(2 * b_on, 2 * FAULT_LOW_MV), min(2 * w_on, 2 * FAULT_HIGH_MV))
    if f2 < 2 * FAULT_LOW_MV:
        return (0, 2 * FAULT_LOW_MV - 1)
    return (2 * FAULT_HIGH_MV + 1, 65535)


def check_table(table: "array[int] | list[int]", n: int) -> int:
    """-1 when a calibration table (empty, white, black per sensor) can be used, else the
    first sensor that cannot: a level outside 80..3000 mV, or white not above empty, or
    black not below it, by MIN_SPAN_MV."""
    for i in range(n):
        e = table[3 * i]
        w = table[3 * i + 1]
        b = table[3 * i + 2]
        for v in (e, w, b):
            if v < FAULT_LOW_MV or v > FAULT_HIGH_MV:
                return i
        if w - e < MIN_SPAN_MV or e - b < MIN_SPAN_MV:
            return i
    return -1


class Levels:
    """Every sensor's average level, calibration and class; see the module comment."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.doubled = array("H", [0] * n)   # each sensor's average level, times 2
        self.empty = array("H", [0] * n)
        self.empty_calibrated = array("H", [0] * n)
        self.span_white = array("H", [0] * n)
        self.span_black = array("H", [0] * n)
        self.lo = array("H", [0] * n)       # the band the class holds in (doubled, as the average)
        self.hi = array("H", [0] * n)
        self.classes = bytearray(n)      # what the debouncer reads
        self.moved = array("H", [0] * n)    # average()'s answer: the sensors out of band
        self.primed = False
        self.calibrated = False          # False: the typical levels
        self.tracked = 0                 # the next sensor whose empty level is tracked
        self.use(None)

    def use(self, table: "array[int] | list[int] | None") -> None:
        """Classify from `table` (empty, white, black per sensor; None: typical levels)."""
        e0, w0, b0 = TYPICAL_LEVELS_MV
        for i in range(self.n):
            if table is not None:
                e0 = table[3 * i]
                w0 = table[3 * i + 1]
                b0 = table[3 * i + 2]
            self.empty[i] = e0
            self.empty_calibrated[i] = e0
            self.span_white[i] = w0 - e0
            self.span_black[i] = e0 - b0
            self.reclassify(i)
        self.calibrated = table is not None

    def reclassify(self, i: int) -> bool:
        """Classify sensor i afresh and set its band; True when its class changed.
        (classify() and band() inline, without their tuples: nothing is allocated.)"""
        f2 = self.doubled[i]
        e = self.empty[i]
        sw = self.span_white[i]
        sb = self.span_black[i]
        old = self.classes[i]
        w_on = 2 * (e + sw * UP // 1000)
        w_off = 2 * (e + sw * DOWN // 1000)
        b_on = 2 * (e - sb * UP // 1000)
        b_off = 2 * (e - sb * DOWN // 1000)
        if f2 < 2 * FAULT_LOW_MV:
            new, lo, hi = FAULT, 0, 2 * FAULT_LOW_MV - 1
        elif f2 > 2 * FAULT_HIGH_MV:
            new, lo, hi = FAULT, 2 * FAULT_HIGH_MV + 1, 65535
        elif f2 > w_on or (old == WHITE and f2 > w_off):
            new, lo, hi = WHITE, max(w_off + 1, 2 * FAULT_LOW_MV), 2 * FAULT_HIGH_MV
        elif f2 < b_on or (old == BLACK and f2 < b_off):
            new, lo, hi = BLACK, 2 * FAULT_LOW_MV, min(b_off - 1, w_on)
        else:
            new, lo, hi = EMPTY, max(b_on, 2 * FAULT_LOW_MV), min(w_on, 2 * FAULT_HIGH_MV)
        self.lo[i] = lo
        self.hi[i] = hi
        self.classes[i] = new
        return new != old

    def level(self, i: int) -> int:
        """Sensor i's average level in mV."""
        return self.doubled[i] >> 1

    def averages(self) -> list:
        """Every sensor's average level in mV (what LEVELS carries)."""
        doubled = self.doubled
        return [doubled[i] >> 1 for i in range(self.n)]

    def update(self, levels: "array[int]") -> list:
        """Take one scan's levels (mV); the sensors whose class changed."""
        doubled = self.doubled
        lo = self.lo
        hi = self.hi
        out = NOTHING
        if not self.primed:              # the first scan: no average to start from
            for i in range(self.n):
                doubled[i] = 2 * levels[i]
            self.primed = True
            out = []
            for i in range(self.n):
                if self.reclassify(i):
                    out.append(i)
            return out
        count = _average(doubled, levels, lo, hi, self.n, self.moved)
        moved = self.moved
        for k in range(count):
            i = moved[k]
            if self.reclassify(i):
                if out is NOTHING:
                    out = []
                out.append(i)
        self.track()
        return out

    def track(self) -> None:
        """Move the empty level of a few empty sensors 1 mV toward their average."""
        n = self.n
        i = self.tracked
        for _ in range(TRACK_PER_SCAN if TRACK_PER_SCAN < n else n):
            if self.classes[i] == EMPTY:
                f = self.doubled[i] >> 1
                e = self.empty[i]
                window = min(self.span_white[i], self.span_black[i]) * TRACK_PERMILLE // 1000
                home = self.empty_calibrated[i]
                if e < f <= e + window and e < home + TRACK_LIMIT_MV:
                    self.empty[i] = e + 1
                    self.reclassify(i)
                elif e - window <= f < e and e > home - TRACK_LIMIT_MV:
                    self.empty[i] = e - 1
                    self.reclassify(i)
            i += 1
            if i >= n:
                i = 0
        self.tracked = i

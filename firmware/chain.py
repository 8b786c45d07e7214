# bgboard firmware: the sensor chain (hardware/front-end.md "Firmware scan").
#
# Every module carries one CD74HC4067 multiplexer (its sensors on channels 0..) and one
# flip-flop; the flip-flops form a chain that passes a token along on each TCLK pulse,
# and the module holding the token drives the shared analogue bus (AOUT -> ADC0). The
# last module returns the token on RET. A scan clocks the token in, module by module,
# reads every channel of the module that holds it, and clocks it out again.
#
# The chain is driven through small primitives, so the same code runs on the Pico
# (pins.Front), on CPython with plain fakes (tests) and in the virtual board (sim/):
#
#     address(channel)          S0..S3
#     clock(token) -> ret       TOKEN = token, one TCLK pulse; RET read after the edge
#     level() -> mV             ADC0, a few conversions averaged, in millivolts
#     supply() -> mV            the sensors' 5 V (ADC1 through its 1:2 divider, x2)
#     read_module(count, out, at)
#                               address(k) then out[at + k] = level() for k < count:
#                               the hot loop, one call a module, so the Pico can run it
#                               as fast code (read_module() below is the plain version)
#
# Same Python subset as wire.py: it runs on MicroPython and CPython.

from array import array

MYPY = False
if MYPY:  # type checkers only: MicroPython has no typing module
    from typing import Protocol

    class Front(Protocol):
        def address(self, channel: int) -> object: ...

        def clock(self, token: int) -> int: ...

        def level(self) -> int: ...

        def supply(self) -> int: ...

        def read_module(self, count: int, out: "array[int]", at: int) -> object: ...

#: sensors a module, in chain order (hardware/front-end.md "Modules, slots and channels";
#: tests/test_firmware_chain.py holds it against hardware/design/geometry.py)
MODULE_SIZES = (12,) * 12 + (4, 4, 15, 15)
MODULE_NAMES = ("P1-2", "P3-4", "P5-6", "P7-8", "P9-10", "P11-12", "P13-14", "P15-16",
                "P17-18", "P19-20", "P21-22", "P23-24", "BAR-W", "BAR-B", "TRAY-W", "TRAY-B")
CHANNELS = 16             # a CD74HC4067's channels
FLUSH_PULSES = 16         # zeros clocked through the chain at boot
IDLE_BUS_MV = 50          # ADC0 with no module enabled reads under this (47 kOhm to GND)
SUPPLY_LOW_MV = 3500      # the sensors' 5 V under this: ERROR 8
#: reads of the bus before a broken chain's diagnosis trusts it (first_dark_module): a few
#: conversions each, some 200 us in all, four time constants of the pull-down's
DIAGNOSIS_READS = 10


def module_sizes(n_sensors: int) -> tuple:
    """The modules of a board of n sensors: the default board's, or (a board flashed for
    another matrix) as many full 16-channel modules as it takes."""
    if n_sensors == sum(MODULE_SIZES):
        return MODULE_SIZES
    sizes = [CHANNELS] * (n_sensors // CHANNELS)
    if n_sensors % CHANNELS:
        sizes.append(n_sensors % CHANNELS)
    return tuple(sizes)


def module_name(m: int, sizes: tuple) -> str:
    """Module m (0-based, chain order) as a person finds it: "5 (P9-10)"."""
    if sizes == MODULE_SIZES:
        return "%d (%s)" % (m + 1, MODULE_NAMES[m])
    return str(m + 1)


def read_module(front: "Front", count: int, out: "array[int]", at: int) -> None:
    """The plain read_module primitive: each channel addressed, then read."""
    for k in range(count):
        front.address(k)
        out[at + k] = front.level()


class Chain:
    """One scan of the whole chain into `levels` (mV, sensor order), checking as it goes
    that RET follows the token and that the bus is idle once the token has left.

    `problem` is None after a good scan, else one line naming what failed (the host
    hears it as ERROR 7); `supply_mv` is the sensors' supply at the last scan."""

    def __init__(self, front: "Front", sizes: tuple) -> None:
        self.front = front
        self.sizes = sizes
        self.n = sum(sizes)
        self.levels = array("H", [0] * self.n)
        self.problem = None  # type: str | None
        self._verdict = None  # type: tuple | None
        self.supply_mv = 0

    def flush(self) -> None:
        """At boot: clock zeros through every flip-flop, so no two modules drive the bus."""
        for _ in range(FLUSH_PULSES):
            self.front.clock(0)

    def read(self) -> "array[int]":
        """Scan every module; the levels (one array, reused). Exceptions of the
        primitives pass on (the board reports ERROR 4)."""
        front = self.front
        sizes = self.sizes
        last = len(sizes) - 1
        levels = self.levels
        early = -1
        last_ret = 0
        at = 0
        # the bus with no module enabled, read before the token goes in: right after the
        # last pulse its 1 nF still holds the last channel's level and empties only through
        # the 47 kOhm pull-down (tau 47 us; 170 us to fall from 1.8 V under 50 mV), while
        # since the last scan it has had a whole period
        idle = front.level()
        for m in range(len(sizes)):
            ret = front.clock(1 if m == 0 else 0)
            if ret and m != last and early < 0:
                early = m
            if m == last:
                last_ret = ret
            front.read_module(sizes[m], levels, at)
            at += sizes[m]
        stuck = front.clock(0)
        self.supply_mv = front.supply()
        verdict = self._judge(early, last_ret, stuck, idle)
        if verdict != self._verdict:     # the text is made when the verdict changes only
            self._verdict = verdict
            self.problem = self._describe(verdict)
        return levels

    def _judge(self, early: int, last_ret: int, stuck: int, idle: int) -> "tuple | None":
        """What went wrong, as (kind, module or mV), or None."""
        if early >= 0:
            return ("early", early)
        if not last_ret:
            return ("broken", self.first_dark_module())
        if stuck:
            return ("stuck", 0)
        if idle >= IDLE_BUS_MV:
            return ("driven", idle // 100 * 100)
        return None

    def _describe(self, verdict: "tuple | None") -> "str | None":
        if verdict is None:
            return None
        kind, at = verdict
        sizes = self.sizes
        last = module_name(len(sizes) - 1, sizes)
        if kind == "early":
            return ("RET came back at module %s, not at the last (%s): a shunt on the wrong module?"
                    % (module_name(at, sizes), last))
        if kind == "broken" and at >= 0:
            return "chain broken at module %s: RET did not follow the token" % module_name(at, sizes)
        if kind == "broken":
            return "RET did not come back from module %s: its shunt on J2 13-14?" % last
        if kind == "stuck":
            return "RET stays high after the token left the chain"
        return "the bus reads %d mV or more with no module enabled: a module holds on to the token" % at

    def first_dark_module(self) -> int:
        """The first module whose every channel reads under the idle-bus level while it
        should hold the token (nobody drives the bus), or -1.

        Asked only when RET did not follow the token, so it may take its time: the token
        is walked in again and the bus read slowly at each module. The scan's own reads
        come microseconds after a switch, and a bus nobody drives still holds the last
        level it was driven to (its 1 nF empties through the 47 kOhm pull-down, tau 47 us):
        in the scan the module after a cut reads its predecessor's level fading away, and
        the cut would be named a module late."""
        front = self.front
        found = -1
        for m in range(len(self.sizes)):
            front.clock(1 if m == 0 else 0)
            front.address(0)
            for _ in range(DIAGNOSIS_READS):
                dark = front.level() < IDLE_BUS_MV
            for k in range(1, self.sizes[m]):
                if not dark:
                    break
                front.address(k)
                dark = front.level() < IDLE_BUS_MV
            if dark:
                found = m
                break
        self.flush()                     # whatever happened, no token stays in the chain
        return found

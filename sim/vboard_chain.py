"""The sensor chain as the firmware's four primitives see it (hardware/front-end.md):

    address(channel)    S0..S3 on every module's CD74HC4067 at once
    clock(token) -> ret one TCLK edge: every module's SN74LVC1G74 takes its D (the Pico's
                        TOKEN for the first, the module before's Q for the others); RET is
                        the last module's Q (an open chain: the Pico's 100 kΩ pull-down, 0)
    level() -> mV       ADC0 on the analogue bus, a few conversions averaged
    supply() -> mV      ADC1 on the sensors' 5 V through its 10 k / 10 k divider, doubled

The module holding the token (its /Q low enables its multiplexer) drives the bus with the
sensor on the addressed channel, through the multiplexer's on-resistance and the module's
1 kΩ, against the carrier's 47 kΩ pull-down; nobody holding it leaves the bus at 0 V; two
holding it (before the boot flush) fight through their resistors. The flip-flops power up
in any state. Faults: a module unplugged (the chain ends before it: RET never comes, it
and every later module read 0 V), a multiplexer stuck on one channel.

The ADC is the RP2040's: 12 bits on a 3.3 V reference, about one code of noise (RMS) of
its own (measured: pico-adc.markomo.me); each conversion is rounded to a code, and
`level()` makes `CONVERSIONS` of them into millivolts exactly as firmware/pins.py does
on the Pico. The sensor's noise is drawn once per `level()`: the conversions of one burst
lie microseconds apart, inside the DRV5053's 20 kHz bandwidth, so averaging them does not
reduce it.
"""
from __future__ import annotations

import random
import zlib
from array import array
from collections.abc import Callable, Sequence

import numpy as np

from hardware.design import parts
from hardware.design.netlist import PartType
from hardware.design.sensing import ADC_BITS, ADC_REFERENCE, VQ_TYPICAL
from sim.vboard_analogue import AnalogueSensors

CHANNELS = 16


def ohms(resistor: PartType) -> float:
    """A resistor's value as hardware/design/parts.py orders it (its key is R<ohms>)."""
    return float(resistor.key.removeprefix("R"))


R_SERIES = ohms(parts.R_BUS)           # each module's COM to the bus
R_MUX_ON = 100.0                       # Ω, the CD74HC4067's switch at 3.3 V (70 Ω at 4.5 V, typical)
R_PULLDOWN = ohms(parts.R_BUS_PULL)    # the bus to ground on the carrier
ADC_NOISE_CODES = 1.0      # RMS, the RP2040's own noise with its input held still
CONVERSIONS = 1            # conversions `level()` averages (firmware/pins.py: one, after a
                           # settling conversion thrown away)
SUPPLY_DIVIDER = ohms(parts.R_DIVIDER) / (2 * ohms(parts.R_DIVIDER))   # 5 V into ADC1: two alike
_FULL_SCALE = (1 << ADC_BITS) - 1
_LSB = ADC_REFERENCE / (1 << ADC_BITS)
_REF_MV = round(ADC_REFERENCE * 1000)
_TRIANGLE = ADC_NOISE_CODES * 6 ** 0.5          # triangular(-a, 0, a) has a standard deviation a/sqrt(6)
#: the bus's attenuation with one module driving it: its resistors against the pull-down
DIVIDER = R_PULLDOWN / (R_PULLDOWN + R_SERIES + R_MUX_ON)


class TokenChain:
    """The modules of one board in chain order, seen through the Pico's pins. Channels past
    the board's sensors (firmware flashed for a bigger matrix) read a quiet typical part.

    `fail` (a text) makes every primitive raise OSError with it, as pins that cannot be
    driven would (the virtual board's `fail_chain`)."""

    def __init__(self, module_sizes: Sequence[int], sensors: AnalogueSensors,
                 now_ms: Callable[[], int], seed: int = 0) -> None:
        if any(not 0 < size <= CHANNELS for size in module_sizes):
            raise ValueError(f"a module holds 1..{CHANNELS} sensors, not {list(module_sizes)}")
        self.sizes = tuple(module_sizes)
        self.first = tuple(sum(self.sizes[:m]) for m in range(len(self.sizes)))
        self.sensors = sensors
        self.now_ms = now_ms
        self._rng = random.Random(f"chain {seed}")
        self._np_rng = np.random.default_rng(zlib.crc32(f"adc {seed}".encode()))
        #: one scan's readings (mV per sensor, each as if its module alone drove the bus),
        #: drawn when the token enters the chain; a module's are used once
        self._scan = array("H")
        self._unread = bytearray(len(self.sizes))
        self.channel = 0
        self.present = len(self.sizes)         # modules before the first unplugged one
        self.stuck_mux: dict[int, int] = {}    # module -> the channel its mux always selects
        self.fail: str | None = None
        self.reads = 0                         # clock edges with TOKEN high (a scan each)
        self._pad = max(0, sum(self.sizes) - len(sensors.parts))
        self._q = 0                            # bit m: module m's flip-flop (Q)
        self.power_up()

    def power_up(self) -> None:
        """Power reaches the modules: each flip-flop comes up high or low."""
        self._q = self._rng.getrandbits(len(self.sizes))

    @property
    def q(self) -> list[int]:
        """Every module's flip-flop, in chain order (1: it holds a token)."""
        return [(self._q >> m) & 1 for m in range(len(self.sizes))]

    def _enabled(self) -> list[int]:
        """The modules driving the bus: plugged in, holding a token."""
        e = self._q & ((1 << self.present) - 1)
        return [m for m in range(self.present) if (e >> m) & 1]

    def _single(self) -> int:
        """The one module driving the bus, or -1 (none, or more than one)."""
        e = self._q & ((1 << self.present) - 1)
        return e.bit_length() - 1 if e and not e & (e - 1) else -1

    def _check(self) -> None:
        if self.fail:
            raise OSError(self.fail)

    # -- the primitives -----------------------------------------------------------------
    def address(self, channel: int) -> None:
        self._check()
        self.channel = channel & (CHANNELS - 1)

    def clock(self, token: int) -> int:
        self._check()
        present = self.present
        if present:
            mask = (1 << present) - 1
            q = self._q
            self._q = (((q << 1) | (1 if token else 0)) & mask) | (q & ~mask)
        if token:
            self.reads += 1
            self._sample()
        return self.ret()

    def _sample(self) -> None:
        """Every sensor read through the bus and the ADC at once, for the scan starting."""
        volts = self.sensors.sample_array(self.now_ms())
        if self._pad:
            volts = np.concatenate([volts, np.full(self._pad, VQ_TYPICAL)])
        n = len(volts)
        noise = self._np_rng.triangular(-_TRIANGLE, 0.0, _TRIANGLE, (CONVERSIONS, n))
        codes = np.rint(volts * (DIVIDER / _LSB) + noise)
        codes = np.clip(codes, 0, _FULL_SCALE).astype(np.int64)
        u16 = (codes << 4) | (codes >> 8)
        mv = u16.sum(axis=0) * _REF_MV // (CONVERSIONS * 65535)
        self._scan = array("H", mv.astype(np.uint16).tobytes())
        self._unread = bytearray(b"\x01" * len(self.sizes))

    def ret(self) -> int:
        """RET: the last module's Q through the shunt, or the pull-down's 0 when the chain
        does not reach it."""
        n = len(self.sizes)
        return (self._q >> (n - 1)) & 1 if self.present == n else 0

    def level(self) -> int:
        self._check()
        return self._adc_mv(self.bus_volts(noisy=True))

    def supply(self) -> int:
        self._check()
        u16 = self._adc_u16(self.sensors.supply_v * SUPPLY_DIVIDER)
        return u16 * _REF_MV * round(1 / SUPPLY_DIVIDER) // (CONVERSIONS * 65535)

    def read_module(self, count: int, out: array[int], at: int) -> None:
        """address(k), out[at + k] = level() for k < count: firmware/chain.py's hot loop,
        taken from the scan's readings when one module drives the bus (every scan after
        the boot flush), each module's once."""
        self._check()
        module = self._single()
        if module < 0 or self.stuck_mux or not self._unread[module] or count > self.sizes[module]:
            for k in range(count):
                self.address(k)
                out[at + k] = self.level()
            return
        self._unread[module] = 0
        first = self.first[module]
        out[at:at + count] = self._scan[first:first + count]
        if count:
            self.channel = (count - 1) & (CHANNELS - 1)

    # -- the bus ------------------------------------------------------------------------
    def driver(self, module: int) -> int | None:
        """The sensor `module` puts on the bus at the present address (None: an unused
        channel, tied to ground)."""
        channel = self.stuck_mux.get(module, self.channel)
        if channel >= self.sizes[module]:
            return None
        return self.first[module] + channel

    def _source(self, module: int, now: int, noisy: bool) -> float:
        sensor = self.driver(module)
        if sensor is None:
            return 0.0
        if sensor >= len(self.sensors.parts):
            return VQ_TYPICAL             # past the board's sensors: a quiet typical part
        volts = self.sensors.output(sensor, now)
        return self.sensors.noisy(sensor, volts) if noisy else volts

    def bus_volts(self, noisy: bool = False) -> float:
        """The bus at the ADC: every enabled module's sensor through its resistors, against
        the pull-down (Millman's theorem)."""
        enabled = self._enabled()
        if not enabled:
            return 0.0
        now = self.now_ms()
        if len(enabled) == 1:
            return self._source(enabled[0], now, noisy) * DIVIDER
        g = 1 / (R_SERIES + R_MUX_ON)
        current = sum(self._source(m, now, noisy) for m in enabled) * g
        return current / (len(enabled) * g + 1 / R_PULLDOWN)

    def ideal_mv(self, volts: float) -> int:
        """What `level()` reads of a sensor outputting `volts` alone on the bus, without
        noise: the bus's divider, the ADC's codes and the firmware's averaging."""
        code = min(max(round(volts * DIVIDER / _LSB), 0), _FULL_SCALE)
        return CONVERSIONS * ((code << 4) | (code >> 8)) * _REF_MV // (CONVERSIONS * 65535)

    def _adc_u16(self, volts: float) -> int:
        """`CONVERSIONS` conversions of `volts` summed, each a 12-bit code with the ADC's
        noise scaled to 16 bits as MicroPython's read_u16 does. The ADC's noise is
        triangular (two uniform draws: a fifth of the cost of a gaussian one) with one
        code's standard deviation."""
        rnd = self._rng.random
        base = volts / _LSB
        total = 0
        for _ in range(CONVERSIONS):
            code = round(base + (rnd() + rnd() - 1.0) * _TRIANGLE)
            code = 0 if code < 0 else (_FULL_SCALE if code > _FULL_SCALE else code)
            total += (code << 4) | (code >> 8)
        return total

    def _adc_mv(self, volts: float) -> int:
        """What firmware/pins.py's level() makes of `volts` at the ADC: millivolts."""
        return self._adc_u16(volts) * _REF_MV // (CONVERSIONS * 65535)

    # -- faults -------------------------------------------------------------------------
    def unplug_module(self, module: int | None) -> None:
        """Pull module `module`'s ribbon (None: every module in again)."""
        if module is not None and not 0 <= module < len(self.sizes):
            raise ValueError(f"module {module} out of range 0..{len(self.sizes) - 1}")
        if module is None:        # the modules plugged back power up in any state
            n = len(self.sizes)
            kept = self._q & ((1 << self.present) - 1)
            self._q = kept | (self._rng.getrandbits(n) << self.present) & ((1 << n) - 1)
            self.present = n
        else:
            self.present = min(self.present, module)

    def stick_mux(self, module: int, channel: int | None) -> None:
        """Hold `module`'s multiplexer on `channel` whatever the address (None frees it)."""
        if not 0 <= module < len(self.sizes):
            raise ValueError(f"module {module} out of range 0..{len(self.sizes) - 1}")
        if channel is None:
            self.stuck_mux.pop(module, None)
        elif 0 <= channel < CHANNELS:
            self.stuck_mux[module] = channel
        else:
            raise ValueError(f"channel {channel} out of range 0..{CHANNELS - 1}")

# bgboard firmware: pins.Front.read_module compiled to machine code, for the Pico only.
#
# The scan's other hot loop: a module's channels addressed and read, 182 a scan. As
# bytecode each channel costs several Python calls (the address write, two ADC reads);
# here the registers are written directly, as the pico-sdk's adc_read() does: START_ONCE
# set through the CS register's atomic SET alias, READY polled, RESULT read. After each
# switch SETTLE conversions are thrown away, then one is kept: the bus settles through
# 1.1 kOhm into 1 nF (tau 1.2 us), and a sample 2 us after a switch still carries 18 % of
# the step (0 V to a sensor's 0.9 V read 0.71 V on the emulated Pico, and each sensor 18 %
# of its neighbour's difference); 8 us leave 0.1 %, 2 mV of a 1.8 V step.
#
# pins.py imports this module only where sys.platform is "rp2" (the suite's MicroPython
# cannot compile viper code); it is checked on MicroPython's unix port against fake
# registers (firmware/README.md, "Speed").
import micropython
from micropython import const

SETTLE = const(4)                           # conversions thrown away after a switch

ADC_BASE = 0x4004C000        # RP2040 datasheet 4.9.6: CS at +0, RESULT at +4
SET_ALIAS = 0x2000           # 2.1.2: +0x2000 sets the bits written, +0x3000 clears them
CLEAR_ALIAS = 0x3000
SIO_GPIO_OUT_XOR = 0xD000001C


@micropython.viper
def read_module(count: int, out, at: int, channel: int, shift: int, xor_addr: uint,
                adc_addr: uint) -> int:
    """out[at + k] = the bus's level in mV with the multiplexers on channel k, for
    k < count; `channel` is the address set before (the XOR register at xor_addr moves
    it), `shift` the first address pin. Returns the channel left addressed."""
    xor = ptr32(xor_addr)
    cs = ptr32(adc_addr)
    cs_set = ptr32(adc_addr + 0x2000)
    cs_clear = ptr32(adc_addr + 0x3000)
    o = ptr16(out)
    cs_clear[0] = 0x7000                    # AINSEL = 0: the bus (ADC0)
    if channel:
        xor[0] = channel << shift           # to channel 0
    k = 0
    while k < count:
        if k:
            xor[0] = ((k - 1) ^ k) << shift
        n = 0
        while n <= SETTLE:                  # SETTLE to settle, then the one kept
            cs_set[0] = 4                   # START_ONCE
            while not (cs[0] & 0x100):      # READY
                pass
            n += 1
        o[at + k] = ((cs[1] & 0xFFF) * 52812 + 32768) >> 16   # 12 bits of 3.3 V, in mV
        k += 1
    if count:
        return count - 1
    return channel

# bgboard firmware: levels.average() compiled to machine code, for the Pico only.
#
# The scan's hot loop (each of 182 sensors averaged and compared with its band) costs about
# 5 ms a scan as MicroPython bytecode on the RP2040 (estimated from the suite's wasm
# interpreter against the old firmware's measured 2 ms debounce pass), half the 10 ms scan
# period. Viper code does the same arithmetic on the raw 16-bit arrays.
#
# levels.py imports this module only where sys.platform is "rp2": the MicroPython the
# suite runs (WebAssembly) has no native code emitter and aborts on a viper function, so
# the suite imports levels.average(), the plain version, and this file is checked against
# it on MicroPython's unix port (firmware/README.md, "Speed").
import micropython


@micropython.viper
def average(doubled, levels, lo, hi, n: int, moved) -> int:
    """levels.average(), the same: doubled[i] = doubled[i] // 2 + levels[i] for every
    sensor; the ones outside lo[i]..hi[i] into moved[0..]; returns how many."""
    d = ptr16(doubled)
    lv = ptr16(levels)
    low = ptr16(lo)
    high = ptr16(hi)
    out = ptr16(moved)
    count = 0
    i = 0
    while i < n:
        a = (d[i] >> 1) + lv[i]
        d[i] = a
        if a < low[i] or a > high[i]:
            out[count] = i
            count += 1
        i += 1
    return count

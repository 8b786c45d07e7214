"""The Pico's machine-code loops (firmware/fastlevels.py, firmware/fastfront.py) do what
their bytecode twins do. Viper code needs a MicroPython with a native emitter: the unix
port (firmware/README.md "Speed" says how to build it); the suite's WebAssembly MicroPython
has none and aborts on it, so without BGBOARD_MICROPYTHON this is skipped, saying so."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
MICROPYTHON = os.environ.get("BGBOARD_MICROPYTHON", "")

pytestmark = pytest.mark.skipif(
    not (MICROPYTHON and Path(MICROPYTHON).is_file()),
    reason="viper loops not run: set BGBOARD_MICROPYTHON to MicroPython's unix port (firmware/README.md)")

AVERAGE = f"""
import sys
sys.path.insert(0, {str(FIRMWARE)!r})
from array import array
import levels, fastlevels
seed = 12345
def rnd():
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed
n = 182
for trial in range(300):
    d1 = array("H", [rnd() % 6600 for _ in range(n)])
    d2 = array("H", d1)
    lv = array("H", [rnd() % 3300 for _ in range(n)])
    lo = array("H", [rnd() % 3000 for _ in range(n)])
    hi = array("H", [lo[i] + rnd() % 3000 for i in range(n)])
    m1 = array("H", [0] * n)
    m2 = array("H", [0] * n)
    c1 = levels.average(d1, lv, lo, hi, n, m1)
    c2 = fastlevels.average(d2, lv, lo, hi, n, m2)
    assert c1 == c2 and d1 == d2 and m1[:c1] == m2[:c2], trial
print("same")
"""

FRONT = f"""
import sys
sys.path.insert(0, {str(FIRMWARE)!r})
import uctypes
from array import array
import fastfront
adc = bytearray(0x4000)
sio = bytearray(4)
def put32(buf, off, v):
    buf[off:off + 4] = v.to_bytes(4, "little")
def get32(buf, off):
    return int.from_bytes(buf[off:off + 4], "little")
put32(adc, 0, 0x100 | 0x1000)       # READY, and AINSEL 1 left by a supply read
for raw in (0, 4095, 1241, 2234, 99):
    want = (raw * 3300 * 2 + 4095) // (2 * 4095)
    put32(adc, 4, raw)
    out = array("H", [7] * 20)
    left = fastfront.read_module(12, out, 3, 5, 2, uctypes.addressof(sio), uctypes.addressof(adc))
    assert left == 11 and list(out[3:15]) == [want] * 12 and out[2] == 7 and out[15] == 7, raw
    assert get32(sio, 0) == (10 ^ 11) << 2          # the last step: channel 10 -> 11
    assert get32(adc, 0x2000) == 4 and get32(adc, 0x3000) == 0x7000   # START_ONCE; AINSEL 0
out = array("H", [0] * 4)
assert fastfront.read_module(0, out, 0, 6, 2, uctypes.addressof(sio), uctypes.addressof(adc)) == 6
put32(sio, 0, 0)
fastfront.read_module(1, out, 0, 6, 2, uctypes.addressof(sio), uctypes.addressof(adc))
assert get32(sio, 0) == 6 << 2                      # from channel 6 back to 0 in one write
print("same")
"""


def _run(code: str) -> str:
    done = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_viper_average_is_the_bytecode_average() -> None:
    assert _run(AVERAGE) == "same"


def test_the_viper_read_loop_addresses_converts_and_scales_as_the_bytecode_one() -> None:
    """Against fake registers: the XOR steps of the address, START_ONCE through the SET
    alias, AINSEL cleared through the CLEAR alias, RESULT scaled to mV as pins.py does."""
    assert _run(FRONT) == "same"

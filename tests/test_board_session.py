"""The board session on a real pseudo-terminal, against the virtual board (real firmware).

What the protocol promises (DESIGN.md "Wire protocol", issue 11): HELLO checked against
the profile, CONFIG from the profile's timing really applied by the firmware, PING as
liveness, a board of another size refused with one line naming both sizes (and taken
once it is replaced), ERROR frames as typed events, faulty sensors reported per cell.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest

from controller.board.profile import Profile, load_profile
from controller.link.board_events import (
    BoardErrorReport,
    BoardEvent,
    BoardReading,
    BoardStatus,
    SessionState,
)
from controller.link.codec import Hello
from controller.link.session import BoardSession, check_hello
from sim.virtual_board import VirtualBoard

PROFILE = load_profile()
#: a calibrated profile: timing unlike the firmware's built-in 10 ms / 3 scans / 500 ms
CALIBRATED = replace(PROFILE, timing=replace(PROFILE.timing, scan_period_ms=5,
                                              debounce_scans=2, heartbeat_ms=200))

pytestmark = pytest.mark.timeout(60)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(coro)


async def until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(0.005)


class Events:
    def __init__(self) -> None:
        self.all: list[BoardEvent] = []

    def __call__(self, event: BoardEvent) -> None:
        self.all.append(event)

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.all if isinstance(e, kind)]

    def states(self) -> list[SessionState]:
        return [s.state for s in self.of(BoardStatus)]

    def last_reading(self) -> BoardReading | None:
        readings = self.of(BoardReading)
        return readings[-1] if readings else None


def session_for(vb: VirtualBoard, events: Events, profile: Profile = PROFILE) -> BoardSession:
    return BoardSession(vb.port, profile, on_event=events, ping_interval_s=0.2,
                        reply_timeout_s=0.5, hello_retry_s=0.2, read_timeout=0.02)


@asynccontextmanager
async def board_in_session(profile: Profile = PROFILE, **board: Any
                           ) -> AsyncIterator[tuple[VirtualBoard, Events, BoardSession]]:
    """A virtual board running in real time and a started session on its pty."""
    with VirtualBoard(profile, **board) as vb:
        vb.start()
        events = Events()
        async with session_for(vb, events, profile) as session:
            yield vb, events, session


def test_handshake_sends_the_profiles_config_and_the_firmware_applies_it() -> None:
    async def main() -> None:
        with VirtualBoard(CALIBRATED) as vb:
            assert vb.timing == (10, 3, 500)     # as flashed: the firmware's defaults
            vb.start()
            events = Events()
            async with session_for(vb, events, CALIBRATED) as session:
                await until(lambda: session.is_playing)
                assert vb.timing == (5, 2, 200) and vb.configs >= 1
                assert session.config_sent is not None
                assert session.hello is not None and (session.hello.rows, session.hello.cols) == (14, 13)
                assert SessionState.ONLINE in events.states()
                # the heartbeat now comes every 200 ms of board time, not every 500 ms
                await until(lambda: len(events.of(BoardReading)) >= 1)
                vb.stop()                         # from here on the board runs on manual time
                sent = vb.firmware.frames_sent
                n0, f0 = len(events.of(BoardReading)), session.stats.frames
                vb.advance(1000)
                assert vb.firmware.frames_sent - sent == 5
                # all five arrive; written at once, the newest waiting is the one read
                await until(lambda: session.stats.frames >= f0 + 5 and len(events.of(BoardReading)) > n0)
                vb.start()
                # readings are the controller's board state, converted once
                vb.place("13", "black")
                await until(lambda: (r := events.last_reading()) is not None
                            and r.board.count("13") == (0, 1))
                assert 0 < await session.ping() < 0.5
    run(main())


def test_a_board_of_another_size_gets_one_line_and_a_status_then_plays_once_replaced(
        caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        async with board_in_session(PROFILE, size=(12, 12)) as (vb, events, session):
            await until(lambda: session.status.state is SessionState.MISMATCH)
            status = session.status
            assert "profile 14x13, board 12x12" in status.detail
            assert (str(status.profile_size), str(status.board_size)) == ("14x13", "12x12")
            await asyncio.sleep(1.5)         # SCANs keep coming, HELLO? is asked again
            assert events.of(BoardReading) == []
            assert not session.is_playing and vb.configs == 0
            lines = [r for r in caplog.records if "board 12x12" in r.getMessage()]
            assert len(lines) == 1 and lines[0].levelno == logging.ERROR
            assert "profile 14x13, board 12x12" in lines[0].getMessage()
            assert not any(r.exc_info for r in caplog.records)
            vb.flash(14, 13)                 # the right firmware: it boots, says HELLO
            await until(lambda: session.is_playing)
            vb.place("6", "white")
            await until(lambda: (r := events.last_reading()) is not None
                        and r.board.count("6") == (1, 0))
    caplog.set_level(logging.INFO, logger="bgboard")
    run(main())


def test_protocol_version_mismatch_is_named_with_what_to_do() -> None:
    """One line naming both versions; the newer side says what to do: a version-1 board
    is to be flashed with this bgboard's firmware, a board newer than this bgboard needs
    bgboard updated."""
    old = check_hello(Hello(0, 1, 14, 13, "bgboard-fw 1.0"), PROFILE)
    assert old == ("board firmware speaks protocol 1, this bgboard 2: flash the board with "
                   "this bgboard's firmware (firmware/README.md)")
    newer = check_hello(Hello(0, 3, 14, 13, "bgboard-fw 3.0"), PROFILE)
    assert newer is not None and "protocol 3, this bgboard only 2" in newer
    assert "update bgboard" in newer and "\n" not in newer
    assert check_hello(Hello(0, 2, 14, 13, "fw"), PROFILE) is None


def test_a_version_1_board_is_told_to_be_flashed_and_an_uncalibrated_one_to_be_calibrated(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Through the session on a pty: a board whose HELLO says protocol 1 never plays and the
    one line names both versions and the flashing; a version-2 board without a calibration
    plays, and the session says once that it reads with the typical part's levels."""
    from firmware import wire

    async def old_board() -> None:
        async with board_in_session(PROFILE) as (vb, events, session):
            await until(lambda: session.status.state is SessionState.MISMATCH)
            assert session.status.detail.startswith("board firmware speaks protocol 1, this bgboard 2")
            assert not events.of(BoardReading)

    async def uncalibrated_board() -> None:
        async with board_in_session(PROFILE, calibrated=False) as (vb, events, session):
            await until(lambda: session.calibration is not None)
            assert session.is_playing and session.calibration.status == 1
            assert [e.code for e in events.of(BoardErrorReport)] in ([], [6])

    caplog.set_level(logging.INFO, logger="bgboard")
    with monkeypatch.context() as patch:
        patch.setattr(wire, "VERSION", 1)
        run(old_board())
    run(uncalibrated_board())
    told = [r.getMessage() for r in caplog.records if "typical part" in r.getMessage()]
    assert told == ["the board has no calibration and reads with the typical part's levels: "
                    "run bgboard calibrate"]


def test_scan_failure_is_a_typed_error_and_the_board_offline_until_scans_are_good() -> None:
    async def main() -> None:
        async with board_in_session(PROFILE) as (vb, events, session):
            await until(lambda: session.is_playing)
            vb.fail_chain("SPI timeout")
            await until(lambda: session.status.state is SessionState.SCAN_FAILING)
            error = events.of(BoardErrorReport)[0]
            assert error.code == 4 and "SPI timeout" in error.text
            assert error.line.startswith("board error 4 (scan): ")
            n = len(events.of(BoardReading))
            await asyncio.sleep(0.7)          # longer than a heartbeat: no stale SCAN
            assert len(events.of(BoardReading)) == n
            assert session.status.state is SessionState.SCAN_FAILING
            vb.fail_chain(None)
            await until(lambda: session.is_playing)
            await until(lambda: len(events.of(BoardReading)) > n)
    run(main())


def test_watchdog_reset_is_reported_and_the_config_sent_again() -> None:
    async def main() -> None:
        async with board_in_session(CALIBRATED) as (vb, events, session):
            await until(lambda: session.is_playing and vb.timing == (5, 2, 200))
            vb.reboot(watchdog=True)
            await until(lambda: any(e.code == 3 for e in events.of(BoardErrorReport)))
            await until(lambda: vb.timing == (5, 2, 200) and vb.configs >= 1)
            assert session.is_playing
    run(main())


def test_a_sensor_stuck_at_fault_is_reported_per_cell_and_not_read_as_empty(
        caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        async with board_in_session(PROFILE) as (vb, events, session):
            await until(lambda: session.is_playing)
            vb.set_cell("13", 0, 2)
            vb.stick(PROFILE.cell_sensors("13")[1], 3)   # the second slot's sensor
            await until(lambda: (r := events.last_reading()) is not None and bool(r.faults))
            reading = events.last_reading()
            assert reading is not None
            assert reading.faults == frozenset({"13"}) == reading.board.faults
            assert reading.reading["13"].faults == 1
            await asyncio.sleep(0.6)                      # heartbeats: logged once
            assert [r.getMessage() for r in caplog.records
                    if "sensor fault" in r.getMessage()] == ["sensor fault at 13"]
            vb.stick(PROFILE.cell_sensors("13")[1], None)
            await until(lambda: (r := events.last_reading()) is not None and not r.faults)
    caplog.set_level(logging.INFO, logger="bgboard")
    run(main())


def test_unplugged_is_offline_and_back_after_a_new_handshake() -> None:
    async def main() -> None:
        async with board_in_session(CALIBRATED) as (vb, events, session):
            await until(lambda: session.is_playing)
            vb.unplug()
            await until(lambda: session.status.state is SessionState.OFFLINE)
            vb.plug()                         # reboots: firmware defaults again
            await until(lambda: session.is_playing and vb.timing == (5, 2, 200))
        assert session.status.state is SessionState.CLOSED
    run(main())


def test_the_virtual_board_flashes_reboots_and_sends_no_stale_scan_while_its_chain_fails() -> None:
    import serial

    from controller.link.codec import BoardError, Scan, StreamDecoder, parse
    from sim.virtual_board import execute

    with VirtualBoard(PROFILE) as vb:                      # manual time: deterministic
        host = serial.Serial(vb.port, 115200, timeout=0)  # the cable's other end
        decoder = StreamDecoder()

        def received() -> list[Any]:
            data = b""
            while chunk := host.read(65536):
                data += chunk
            return [parse(f) for f in decoder.feed(data)]

        try:
            received()
            assert execute(vb, "flash 12 12") == "ok flashed for 12x12"
            hello = received()[0]
            assert isinstance(hello, Hello) and (hello.rows, hello.cols, hello.seq) == (12, 12, 0)
            assert execute(vb, "reboot watchdog") == "ok rebooted"
            first, second = received()[:2]
            assert isinstance(first, Hello) and isinstance(second, BoardError)
            assert second.code == 3
            vb.fail_chain("SPI timeout")
            vb.advance(1500)                              # three heartbeats' worth
            during = received()
            assert during and all(isinstance(m, BoardError) and m.code == 4 for m in during)
            vb.fail_chain(None)
            vb.advance(600)
            assert any(isinstance(m, Scan) for m in received())
        finally:
            host.close()


def test_on_simulated_time_the_handshake_and_a_pong_barrier_work_while_the_runner_pumps() -> None:
    """The headless runner's way: the board runs only when advanced, liveness pings are
    off, and a PING's future is awaited while the runner keeps the board going."""
    from controller.link.codec import Ping, Pong

    async def pump_until(vb: VirtualBoard, cond: Callable[[], bool]) -> None:
        t0 = time.monotonic()
        while not cond():
            assert time.monotonic() - t0 < 10, "not reached while pumping"
            vb.advance(5)
            await asyncio.sleep(0.002)

    async def main() -> None:
        with VirtualBoard(CALIBRATED) as vb:            # never started: manual time
            events = Events()
            session = BoardSession(vb.port, CALIBRATED, on_event=events, ping_interval_s=None,
                                   reply_timeout_s=0.5, hello_retry_s=0.2, read_timeout=0.02)
            async with session:
                await pump_until(vb, lambda: session.is_playing)
                assert vb.timing == (5, 2, 200)
                pong = session.expect(Pong, lambda p: p.payload == b"barrier")
                assert session.send(Ping(payload=b"barrier"))
                await pump_until(vb, pong.done)
                assert pong.result().payload == b"barrier"
                vb.place("24", "black")
                await pump_until(vb, lambda: (r := events.last_reading()) is not None
                                 and r.board.count("24") == (0, 1))
                abandoned = session.expect(Pong)
                abandoned.cancel()
                await asyncio.sleep(0)
                assert session.is_playing
    run(main())


def test_a_board_that_stops_answering_pings_is_offline_until_it_says_hello_again() -> None:
    patient = replace(CALIBRATED, link=replace(CALIBRATED.link, offline_after_ms=60000))

    async def main() -> None:
        async with board_in_session(patient) as (vb, events, session):
            await until(lambda: session.is_playing)
            vb.stop()                                   # the firmware hangs, the port stays
            await until(lambda: session.status.state is SessionState.OFFLINE)
            assert "no PONG" in session.status.detail
            vb.start()                                  # it runs again: HELLO? answered
            await until(lambda: session.is_playing)
    run(main())

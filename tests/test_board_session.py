"""The board session against the virtual board (real firmware), on the board's own clock.

What the protocol promises (DESIGN.md "Wire protocol", issue 11): HELLO checked against
the profile, CONFIG from the profile's timing really applied by the firmware, PING as
liveness, a board of another size refused with one line naming both sizes (and taken
once it is replaced), ERROR frames as typed events, faulty sensors reported per cell.

Most run on the in-memory cable (sim/memory_cable.py): the board's frames reach the
session as the firmware writes them and time is the board's, so nothing waits for real
time. The first test runs the same handshake over a real pseudo-terminal and pyserial in
real time, the serial line's contract (tests/test_link_serial.py holds the rest of it).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
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
from controller.link.board_session import BoardSession, check_hello
from sim.memory_cable import MemoryCable
from sim.virtual_board import VirtualBoard

PROFILE = load_profile()
#: a calibrated profile: timing unlike the firmware's built-in 10 ms / 3 scans / 500 ms
CALIBRATED = replace(PROFILE, timing=replace(PROFILE.timing, scan_period_ms=5,
                                              debounce_scans=2, heartbeat_ms=200))

pytestmark = pytest.mark.timeout(60)


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


class Rig:
    """A virtual board on the in-memory cable and a session on the board's clock (plus the
    time a hung firmware lets pass without running: `hang`)."""

    STEP_MS = 5

    def __init__(self, profile: Profile = PROFILE, **board: Any) -> None:
        self.cable = MemoryCable()
        self.vb = VirtualBoard(profile, cable=self.cable, **board)
        self.events = Events()
        self._hung_ms = 0
        self.session = BoardSession(self.cable.host_end(), profile, on_event=self.events,
                                    clock=self.now, ping_interval_s=0.2, reply_timeout_s=0.5,
                                    hello_retry_s=0.2)
        self.session.open()

    def now(self) -> float:
        return (self.vb.now_ms + self._hung_ms) / 1000

    def run(self, ms: int) -> None:
        """The board runs `ms` and the session's time passes with it."""
        for _ in range(0, ms, self.STEP_MS):
            self.vb.advance(self.STEP_MS)
            self.session.tick(self.now())

    def hang(self, ms: int) -> None:
        """The firmware hangs for `ms`: the port stays, nothing is answered."""
        for _ in range(0, ms, self.STEP_MS):
            self._hung_ms += self.STEP_MS
            self.session.tick(self.now())

    def until(self, cond: Callable[[], bool], within_ms: int = 5000) -> int:
        """Run until `cond()` holds; the board's milliseconds it took."""
        for waited in range(0, within_ms, self.STEP_MS):
            if cond():
                return waited
            self.run(self.STEP_MS)
        raise AssertionError(f"not reached within {within_ms} ms of the board's time")

    def close(self) -> None:
        self.session.stop()
        self.vb.close()


def test_handshake_over_a_pseudo_terminal_sends_the_profiles_config_and_the_firmware_applies_it() -> None:
    """The serial line's contract: pyserial on a real pty, the board in real time."""
    async def until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                raise AssertionError(f"condition not met within {timeout} s")
            await asyncio.sleep(0.005)

    async def main() -> None:
        with VirtualBoard(CALIBRATED) as vb:
            assert vb.timing == (10, 3, 500)     # as flashed: the firmware's defaults
            vb.start()
            events = Events()
            # no liveness PINGs: their PONGs would count among the heartbeats below
            async with BoardSession(vb.port, CALIBRATED, on_event=events, ping_interval_s=None,
                                    reply_timeout_s=0.5, hello_retry_s=0.2,
                                    read_timeout=0.02) as session:
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
    asyncio.run(main())


def test_on_the_boards_clock_the_handshake_and_the_heartbeat_need_no_real_time() -> None:
    rig = Rig(CALIBRATED)
    try:
        assert rig.vb.timing == (10, 3, 500)
        t0 = time.process_time()
        assert rig.until(lambda: rig.session.is_playing) <= 20   # HELLO, CONFIG, PONG: a few scans
        assert rig.vb.timing == (5, 2, 200) and rig.session.config_sent is not None
        n = len(rig.events.of(BoardReading))
        rig.run(1000)
        assert len(rig.events.of(BoardReading)) - n == 5           # one heartbeat every 200 ms
        rig.vb.place("13", "black")
        rig.until(lambda: (r := rig.events.last_reading()) is not None and r.board.count("13") == (0, 1))
        assert time.process_time() - t0 < 30  # a sanity bound: seconds of CPU, no waiting at all
        assert rig.session.is_playing and rig.session.stats.lost == 0
    finally:
        rig.close()


def test_a_board_of_another_size_gets_one_line_and_a_status_then_plays_once_replaced(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bgboard")
    rig = Rig(PROFILE, size=(12, 12))
    try:
        rig.until(lambda: rig.session.status.state is SessionState.MISMATCH)
        status = rig.session.status
        assert "profile 14x13, board 12x12" in status.detail
        assert (str(status.profile_size), str(status.board_size)) == ("14x13", "12x12")
        rig.run(1500)                    # SCANs keep coming, HELLO? is asked again
        assert rig.events.of(BoardReading) == []
        assert not rig.session.is_playing and rig.vb.configs == 0
        lines = [r for r in caplog.records if "board 12x12" in r.getMessage()]
        assert len(lines) == 1 and lines[0].levelno == logging.ERROR
        assert "profile 14x13, board 12x12" in lines[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        rig.vb.flash(14, 13)             # the right firmware: it boots, says HELLO
        rig.until(lambda: rig.session.is_playing)
        rig.vb.place("6", "white")
        rig.until(lambda: (r := rig.events.last_reading()) is not None and r.board.count("6") == (1, 0))
    finally:
        rig.close()


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
    """A board whose HELLO says protocol 1 never plays and the one line names both versions
    and the flashing; a version-2 board without a calibration plays, and the session says
    once that it reads with the typical part's levels."""
    from firmware import wire

    caplog.set_level(logging.INFO, logger="bgboard")
    with monkeypatch.context() as patch:
        patch.setattr(wire, "VERSION", 1)
        old = Rig(PROFILE)
        try:
            old.until(lambda: old.session.status.state is SessionState.MISMATCH)
            assert old.session.status.detail.startswith("board firmware speaks protocol 1, this bgboard 2")
            old.run(500)
            assert not old.events.of(BoardReading)
        finally:
            old.close()
    rig = Rig(PROFILE, calibrated=False)
    try:
        rig.until(lambda: rig.session.calibration is not None)
        calibration = rig.session.calibration
        assert rig.session.is_playing and calibration is not None and calibration.status == 1
        rig.run(1000)
        assert [e.code for e in rig.events.of(BoardErrorReport)] in ([], [6])
    finally:
        rig.close()
    told = [r.getMessage() for r in caplog.records if "typical part" in r.getMessage()]
    assert told == ["the board has no calibration and reads with the typical part's levels: "
                    "run bgboard calibrate"]


def test_scan_failure_is_a_typed_error_and_the_board_offline_until_scans_are_good() -> None:
    rig = Rig(PROFILE)
    try:
        rig.until(lambda: rig.session.is_playing)
        rig.vb.fail_chain("SPI timeout")
        rig.until(lambda: rig.session.status.state is SessionState.SCAN_FAILING)
        error = rig.events.of(BoardErrorReport)[0]
        assert error.code == 4 and "SPI timeout" in error.text
        assert error.line.startswith("board error 4 (scan): ")
        n = len(rig.events.of(BoardReading))
        rig.run(700)                     # longer than a heartbeat: no stale SCAN
        assert len(rig.events.of(BoardReading)) == n
        assert rig.session.status.state is SessionState.SCAN_FAILING
        rig.vb.fail_chain(None)
        rig.until(lambda: rig.session.is_playing)
        rig.until(lambda: len(rig.events.of(BoardReading)) > n)
    finally:
        rig.close()


def test_watchdog_reset_is_reported_and_the_config_sent_again() -> None:
    rig = Rig(CALIBRATED)
    try:
        rig.until(lambda: rig.session.is_playing and rig.vb.timing == (5, 2, 200))
        rig.vb.reboot(watchdog=True)
        assert rig.vb.timing == (10, 3, 500)       # the firmware's defaults after the reset
        rig.until(lambda: any(e.code == 3 for e in rig.events.of(BoardErrorReport)))
        rig.until(lambda: rig.vb.timing == (5, 2, 200) and rig.vb.configs >= 1)
        assert rig.session.is_playing
    finally:
        rig.close()


def test_a_sensor_stuck_at_fault_is_reported_per_cell_and_not_read_as_empty(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bgboard")
    rig = Rig(PROFILE)
    try:
        rig.until(lambda: rig.session.is_playing)
        rig.vb.set_cell("13", 0, 2)
        rig.vb.stick(PROFILE.cell_sensors("13")[1], 3)   # the second slot's sensor
        rig.until(lambda: (r := rig.events.last_reading()) is not None and bool(r.faults))
        reading = rig.events.last_reading()
        assert reading is not None
        assert reading.faults == frozenset({"13"}) == reading.board.faults
        assert reading.reading["13"].faults == 1
        rig.run(1200)                                    # heartbeats: logged once
        assert [r.getMessage() for r in caplog.records
                if "sensor fault" in r.getMessage()] == ["sensor fault at 13"]
        rig.vb.stick(PROFILE.cell_sensors("13")[1], None)
        rig.until(lambda: (r := rig.events.last_reading()) is not None and not r.faults)
    finally:
        rig.close()


def test_unplugged_is_offline_at_once_and_back_after_a_new_handshake() -> None:
    rig = Rig(CALIBRATED)
    try:
        rig.until(lambda: rig.session.is_playing)
        rig.vb.unplug()
        assert rig.session.status.state is SessionState.OFFLINE    # the cable says so at once
        assert "went away" in rig.session.status.detail
        rig.run(1000)                     # nothing to read, nothing sent
        rig.vb.plug()                     # reboots: firmware defaults again
        rig.until(lambda: rig.session.is_playing and rig.vb.timing == (5, 2, 200))
        assert rig.session.link.reconnects == 1
        rig.session.stop()
        assert rig.session.status.state is SessionState.CLOSED
    finally:
        rig.close()


def test_a_board_that_stops_answering_pings_is_offline_until_it_says_hello_again() -> None:
    patient = replace(CALIBRATED, link=replace(CALIBRATED.link, offline_after_ms=60000))
    rig = Rig(patient)
    try:
        rig.until(lambda: rig.session.is_playing)
        rig.hang(1300)                    # a PING 0.2 s after the last PONG, 0.5 s for its PONG:
        assert rig.session.is_playing     # one missed at 0.7 s, the next PING at 0.9 s
        rig.hang(200)                     # its PONG missed at 1.4 s: two in a row
        assert rig.session.status.state is SessionState.OFFLINE
        assert "no PONG for 2 pings" in rig.session.status.detail
        rig.until(lambda: rig.session.is_playing)    # it runs again: HELLO? answered
    finally:
        rig.close()


def test_a_silent_board_is_offline_after_the_profiles_limit() -> None:
    """The link's silence limit (the profile's [link] offline_after_ms) on the board's
    clock: no frame at all for that long is OFFLINE even without PINGs."""
    rig = Rig(replace(CALIBRATED, link=replace(CALIBRATED.link, offline_after_ms=2000)))
    try:
        rig.until(lambda: rig.session.is_playing)
        rig.session.liveness.ping_interval_s = None
        rig.hang(1900)
        assert rig.session.is_playing
        rig.hang(200)
        assert rig.session.status.state is SessionState.OFFLINE
        assert "no frame for 2 s" in rig.session.status.detail
    finally:
        rig.close()


def test_a_request_on_a_loop_is_answered_on_the_boards_clock() -> None:
    """`requests.expect` futures resolve as the board's frames arrive: a caller on a
    loop awaits them while the board runs, no real time passing for the board."""
    from controller.link.codec import Ping, Pong

    async def main() -> None:
        rig = Rig(CALIBRATED)
        try:
            rig.until(lambda: rig.session.is_playing)
            pong = rig.session.requests.expect(Pong, lambda p: p.payload == b"asked")
            assert rig.session.send(Ping(payload=b"asked"))
            assert not pong.done()
            rig.run(5)                        # the firmware reads it, answers at once
            assert pong.done() and pong.result().payload == b"asked"
            abandoned = rig.session.requests.expect(Pong)
            abandoned.cancel()
            await asyncio.sleep(0)
            rig.run(5)
            assert rig.session.is_playing
        finally:
            rig.close()
    asyncio.run(main())


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

"""The serial link end to end: virtual board (real firmware code) -> pty -> pyserial -> codec.

These run in real time through a real pseudo-terminal, as the issue asks: latency of a
placed checker, 10,000 frames without loss, a pulled cable and its return, a silent
board, and errors from the OS turned into one clear LinkError.
"""
from __future__ import annotations

import asyncio
import errno
import os
import statistics
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

import pytest

from controller.board.profile import load_profile
from controller.board.reading import Reading
from controller.errors import LinkError
from controller.link.codec import BoardError, Hello, Message, Pong, Scan
from controller.link.board_link import BoardLink
from controller.link.host_protocol import LinkState, LinkStatus
from controller.link.serial_link import link_error
from sim.virtual_board import VirtualBoard

PROFILE = load_profile()
N = PROFILE.sensors.count

pytestmark = pytest.mark.timeout(60)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(coro)


async def wait_for(cond: Callable[[], bool], timeout: float) -> float:
    """Seconds until cond() holds; fails the test after `timeout`."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(0.001)
    return time.monotonic() - t0


class Recorder:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.statuses: list[LinkStatus] = []

    def on_frame(self, m: Message) -> None:
        self.messages.append(m)

    def on_status(self, s: LinkStatus) -> None:
        self.statuses.append(s)

    def scans(self) -> list[Scan]:
        return [m for m in self.messages if isinstance(m, Scan)]

    def reading(self) -> Reading:
        """The reading of the last SCAN (an empty board before the first)."""
        scans = self.scans()
        return Reading.from_sensors(scans[-1].sensors(N), PROFILE) if scans else Reading.empty(PROFILE)


def make_link(vb: VirtualBoard, rec: Recorder, **kw: Any) -> BoardLink:
    """A link to the virtual board feeding `rec`; `async with` starts and closes it."""
    return BoardLink(vb.port, on_frame=rec.on_frame, on_status=rec.on_status, **kw)


def test_hello_on_connect_and_checker_in_reading_within_100ms() -> None:
    async def main() -> None:
        with VirtualBoard() as vb:
            vb.start()
            rec = Recorder()
            async with make_link(vb, rec) as link:
                await wait_for(lambda: link.is_online, 1.0)
                await wait_for(lambda: any(isinstance(m, Hello) for m in rec.messages), 1.0)
                hello = next(m for m in rec.messages if isinstance(m, Hello))
                assert (hello.version, hello.rows, hello.cols) == (2, 14, 13)
                latencies = []
                for i, cell in enumerate(("13", "6", "bar", "off-white", "24")):
                    colour = "white" if i % 2 else "black"
                    vb.place(cell, colour)
                    latencies.append(await wait_for(
                        lambda cell=cell: rec.reading()[cell].total == 1, 1.0))
                    assert rec.reading()[cell] == vb_cell(vb, cell)
                # the budget is 100 ms; a machine loaded by other jobs (CI on 2 cores) may
                # deschedule a thread now and then, so one outlier is tolerated
                assert sorted(latencies)[-2] < 0.100 and max(latencies) < 0.5, latencies
                vb.lift("13")
                await wait_for(lambda: rec.reading()["13"].is_empty, 0.1)
                assert link.stats.crc_errors == link.stats.framing_errors == link.stats.lost == 0
    run(main())


def vb_cell(vb: VirtualBoard, cell: str) -> Any:
    from controller.board.reading import CellReading
    w, b = vb.counts(cell)
    return CellReading(w, b, PROFILE.slots(cell), 0)


def test_ten_thousand_frames_at_full_rate_without_loss() -> None:
    """The firmware in manual time sends a SCAN every 20 ms of board time, as fast as
    the pty takes them; the host must decode every one."""
    async def main() -> None:
        fast = replace(PROFILE, timing=replace(PROFILE.timing, debounce_scans=1))
        with VirtualBoard(fast, boot_timing=fast.timing) as vb:
            rec = Recorder()
            async with make_link(vb, rec) as link:
                vb.advance(5)           # answer HELLO?
                await wait_for(lambda: link.is_online, 1.0)
                before = link.stats.frames
                sent_before = vb.firmware.frames_sent
                vb.flicker(5, period_ms=20)
                t0 = time.monotonic()
                # 10,000 flips of 20 ms; the board reports each a scan or two after it (its
                # average over scans), so the last one needs a few ms more
                pump = threading.Thread(target=vb.advance, args=(200_040,))
                pump.start()
                while pump.is_alive():
                    await asyncio.sleep(0.01)
                sent = vb.firmware.frames_sent - sent_before
                assert sent >= 10_000
                await wait_for(lambda: link.stats.frames - before >= sent, 10.0)
                # the reader thread counts a frame before the loop runs its callback: let
                # the loop deliver every counted frame, then check none went missing
                await wait_for(lambda: len(rec.scans()) >= sent, 10.0)
                elapsed = time.monotonic() - t0
                stats = link.stats
                assert stats.lost == stats.crc_errors == stats.framing_errors == 0
                assert vb.cable.bytes_dropped == 0
                assert len(rec.scans()) >= 10_000
                assert elapsed < 30
    run(main())


def test_pulled_cable_reported_within_2s_and_back_within_2s() -> None:
    async def main() -> None:
        with VirtualBoard() as vb:
            vb.start()
            rec = Recorder()
            async with make_link(vb, rec) as link:
                await wait_for(lambda: link.is_online, 1.0)
                for _ in range(2):
                    vb.unplug()
                    assert not os.path.exists(vb.port)
                    down = await wait_for(lambda: bool(rec.statuses) and rec.statuses[-1].state
                                          is LinkState.DISCONNECTED, 2.0)
                    assert down < 2.0 and link.status is LinkState.DISCONNECTED
                    assert "went away" in rec.statuses[-1].detail or \
                        "no such device" in rec.statuses[-1].detail
                    await asyncio.sleep(0.8)  # the link keeps retrying meanwhile
                    assert link.status is LinkState.DISCONNECTED
                    vb.plug()
                    up = await wait_for(lambda: rec.statuses[-1].state is LinkState.ONLINE, 2.0)
                    assert up < 2.0
                    vb.place("1", "white")
                    await wait_for(lambda: rec.reading()["1"].white >= 1, 1.0)
                assert link.reconnects == 2
                assert [s.state for s in rec.statuses].count(LinkState.ONLINE) == 3
    run(main())


def test_silent_board_goes_offline_after_2s_and_returns() -> None:
    async def main() -> None:
        with VirtualBoard() as vb:           # manual time: silent unless advanced
            rec = Recorder()
            async with make_link(vb, rec) as link:
                vb.advance(5)
                await wait_for(lambda: link.is_online, 1.0)
                t = await wait_for(lambda: link.status is LinkState.OFFLINE, 3.0)
                assert 1.8 <= t <= 2.6
                assert "no frame for 2 s" in rec.statuses[-1].detail
                vb.advance(600)                # a heartbeat
                await wait_for(lambda: link.is_online, 1.0)
    run(main())


def test_offline_timing_follows_the_injected_clock() -> None:
    """With a fake clock the 2 s silence needs no 2 s of waiting."""
    async def main() -> None:
        now = [100.0]
        with VirtualBoard() as vb:
            rec = Recorder()
            async with make_link(vb, rec, clock=lambda: now[0]) as link:
                vb.advance(5)
                await wait_for(lambda: link.is_online, 1.0)
                now[0] += 1.9
                await asyncio.sleep(0.1)
                assert link.is_online
                now[0] += 0.2
                await wait_for(lambda: link.status is LinkState.OFFLINE, 0.5)
                vb.advance(600)
                await wait_for(lambda: link.is_online, 1.0)
    run(main())


def test_ping_and_config_through_the_link() -> None:
    async def main() -> None:
        with VirtualBoard() as vb:
            vb.start()
            rec = Recorder()
            async with make_link(vb, rec) as link:
                await wait_for(lambda: link.is_online, 1.0)
                assert link.send_ping(b"\x00abc\x00")
                await wait_for(lambda: Pong(rec.messages[-1].seq, b"\x00abc\x00")
                               in rec.messages if rec.messages else False, 1.0)
                assert link.send_config(5, 2, 100)
                await wait_for(lambda: vb.firmware.heartbeat == 100, 1.0)
                assert (vb.firmware.scan_period, vb.firmware.debouncer.count) == (5, 2)
                assert link.send_config(0, 2, 100)  # out of range: the board says so
                await wait_for(lambda: any(isinstance(m, BoardError) and m.code == 2
                                           for m in rec.messages), 1.0)
    run(main())


def test_noise_and_flipped_bytes_counted_and_link_keeps_working() -> None:
    async def main() -> None:
        with VirtualBoard(seed=7) as vb:
            vb.start()
            rec = Recorder()
            async with make_link(vb, rec) as link:
                await wait_for(lambda: link.is_online, 1.0)
                vb.noise(500)
                vb.flip_bytes(0.02)
                vb.set_cell("13", 0, 5)
                await wait_for(lambda: link.stats.crc_errors + link.stats.framing_errors > 0, 3.0)
                vb.flip_bytes(0.0)
                await wait_for(lambda: rec.reading()["13"].black == 5, 2.0)
    run(main())


def test_missing_port_is_one_clear_error() -> None:
    async def main() -> None:
        link = BoardLink("/dev/ttyBGBOARD-nonexistent", on_frame=lambda m: None)
        with pytest.raises(LinkError) as info:
            await link.start()
        msg = str(info.value)
        assert msg.startswith("/dev/ttyBGBOARD-nonexistent: no such device") and "\n" not in msg
        assert isinstance(info.value, ConnectionError)
    run(main())


@pytest.mark.parametrize("code,needle", [
    (errno.EACCES, "dialout"), (errno.EPERM, "dialout"), (errno.ENOENT, "plugged in"),
    (errno.EBUSY, "another program"), (errno.ENOTTY, "not a serial port"), (errno.EIO, "went away"), (errno.EINVAL, "check the cable"),
])
def test_os_errors_translated_with_path_and_hint(code: int, needle: str) -> None:
    err = link_error("/dev/ttyACM0", OSError(code, os.strerror(code)))
    assert str(err).startswith("/dev/ttyACM0: ") and needle in str(err)


def test_a_file_that_is_no_serial_port() -> None:
    async def main() -> None:
        with pytest.raises(LinkError, match="^/dev/null: not a serial port"):
            await BoardLink("/dev/null", on_frame=lambda m: None).start()
    run(main())


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_permission_denied_names_dialout(tmp_path: Any) -> None:
    p = tmp_path / "ttyX"
    p.write_text("")
    p.chmod(0)

    async def main() -> None:
        with pytest.raises(LinkError, match="dialout"):
            await BoardLink(str(p), on_frame=lambda m: None).start()
    run(main())


def test_latency_statistics_are_sane() -> None:
    """15 placements: the median well inside the 100 ms budget (scan 10 ms, debounce 3),
    at least 90 % within it even on a loaded machine."""
    async def main() -> None:
        with VirtualBoard() as vb:
            vb.start()
            rec = Recorder()
            async with make_link(vb, rec) as link:
                await wait_for(lambda: link.is_online, 1.0)
                lat = []
                for i in range(15):
                    vb.place("off-black", "black")
                    lat.append(await wait_for(
                        lambda n=i + 1: rec.reading()["off-black"].black == n, 1.0))
                within = sum(1 for x in lat if x < 0.100) / len(lat)
                assert statistics.median(lat) < 0.060 and within >= 0.9 and max(lat) < 1.0, lat
    run(main())

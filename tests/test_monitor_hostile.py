"""`bgboard monitor` and the decoder against a hostile board and a reader that stops:
terminal escapes in an ERROR frame over a real pty, SCANs of the wrong length, SIGTERM,
`monitor --json` into a pipe nobody reads, garbage glued to every frame."""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from controller.link.codec import Frame, Hello, MsgType, Scan, StreamDecoder, encode, pack_sensors
from pty_board import bgboard, interrupt, on_a_thread, pty_port, run_args, running, stopped_reader

ROOT = Path(__file__).resolve().parents[1]
PROFILE = load_profile()
EVIL = "\x1b]0;owned\x07\x1b[2J\x9b31m"


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _wait_for_hello(master: int, timeout_s: float = 30.0) -> None:
    """Until the monitor, started as a process, has opened the port and written its first
    bytes (HELLO?) to it: its start-up takes longer than any fixed pause on a loaded machine."""
    ready, _, _ = select.select([master], [], [], timeout_s)
    assert ready, f"the monitor did not open the port within {timeout_s} s"
    os.read(master, 4096)


@pytest.mark.timeout(60)
def test_a_hostile_board_over_a_pty_is_printed_escaped_and_counted() -> None:
    with pty_port() as (master, port), running(bgboard("monitor", "--raw", "--port", port)) as proc:
        _wait_for_hello(master)  # the monitor has opened the port and asks HELLO?
        good = pack_sensors([0] * PROFILE.sensors.count)
        wire = (encode(Hello(0, 2, PROFILE.sensors.rows, PROFILE.sensors.cols, "fw\x1b[31m"))
                + Frame(MsgType.ERROR, 2, bytes([4]) + EVIL.encode("latin-1")).encode()
                + encode(Scan(3, good[:10])) + encode(Scan(4, good + b"\x00")) + encode(Scan(5, good)))
        os.write(master, wire)
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    assert b"\x1b" not in out and b"\x07" not in out and b"\x9b" not in out, out
    text = out.decode()
    assert "\\x1b]0;owned\\x07" in text and "\\x1b[31m" in text
    assert text.count("scan seq=") == 3  # raw mode shows even the wrong ones
    stats = json.loads(text.splitlines()[-1])  # SIGTERM ends with the closing stats
    assert stats["type"] == "stats" and stats["bad_scans"] == 2 and stats["frames"] == 5
    assert b"Traceback" not in err


@pytest.mark.timeout(60)
def test_a_reader_that_stops_costs_dropped_lines_not_memory_and_ctrl_c_still_works() -> None:
    """A board sending SCANs fast over a pty into `monitor --raw --json`, whose stdout is a
    pipe nobody reads: memory stays flat, lines are dropped and counted, Ctrl-C ends it."""
    packed = pack_sensors([1] * PROFILE.sensors.count)
    frames = b"".join(encode(Scan(i, packed)) for i in range(256))

    def flood(stop: threading.Event) -> None:  # about 800 SCANs a second, as fast as a board over USB sends them
        while not stop.is_set():
            for i in range(0, len(frames), len(frames) // 16):
                try:
                    os.write(master, frames[i:i + len(frames) // 16])
                except OSError:
                    return
                time.sleep(0.02)
    with pty_port() as (master, port), stopped_reader() as stdout, \
            running(bgboard("monitor", "--raw", "--json", "--port", port, stdout=stdout)) as proc:
        _wait_for_hello(master)
        with on_a_thread(flood):
            time.sleep(2.0)
            early = _rss_kb(proc.pid)
            time.sleep(3.0)
            late = _rss_kb(proc.pid)
            _, err = interrupt(proc, 10)  # nobody reads stdout, and it still ends
    assert late - early < 5_000, (early, late)
    stats = json.loads(err.decode().strip().splitlines()[-1])  # stdout would not take it
    assert stats["type"] == "stats" and stats["dropped"] > 1000 and stats["frames"] >= stats["dropped"]
    assert b"Traceback" not in err


@pytest.mark.timeout(90)
def test_a_flood_as_fast_as_the_pty_takes_into_a_stopped_reader_ends_on_ctrl_c() -> None:
    """Issue 23 item 6: `monitor` with a blocked stdout under a flood took 14-29 s (and
    more than 30 s here) to stop after Ctrl-C: the link queued one loop callback per frame,
    each formatted for a reader that had stopped. Now the link's inbox is bounded, a line
    nobody will read is counted without being formatted, and the last wait is one second."""
    packed = pack_sensors([1] * PROFILE.sensors.count)
    frames = b"".join(encode(Scan(i, packed)) for i in range(256))

    def flood(stop: threading.Event) -> None:  # no pause: as fast as the monitor's reader thread takes them
        os.set_blocking(master, False)
        while not stop.is_set():
            select.select([], [master], [], 0.1)
            try:
                os.write(master, frames)
            except BlockingIOError:
                continue
            except OSError:
                return
    with pty_port() as (master, port), stopped_reader() as stdout, \
            running(bgboard("monitor", "--raw", "--json", "--port", port, stdout=stdout)) as proc:
        _wait_for_hello(master)
        with on_a_thread(flood):
            time.sleep(3.0)
            stopped_s, err = interrupt(proc, 60)
    assert stopped_s < 5, stopped_s  # 1.3 s measured under load, 1 s of it the last line's wait
    stats = json.loads(err.decode().strip().splitlines()[-1])
    assert stats["type"] == "stats" and stats["dropped"] > 1000 and stats["frames"] >= stats["dropped"]
    assert b"Traceback" not in err


@pytest.mark.timeout(20)
def test_garbage_glued_to_every_frame_is_salvaged_in_linear_time() -> None:
    """2,000 blocks of 255 bytes of 0x01, each glued to a SCAN (1 MB): every SCAN comes out
    and every block counts once; at the old quadratic salvage this took over 40 s."""
    scans = [Frame(MsgType.SCAN, i & 0xFF, pack_sensors([(i + k) % 3 for k in range(182)])) for i in range(2000)]
    stream = b"".join(b"\x01" * 255 + f.encode() for f in scans)
    dec = StreamDecoder()
    out = []
    for i in range(0, len(stream), 4096):
        out += dec.feed(stream[i:i + 4096])
    assert out == scans
    assert dec.framing_errors == 2000 and dec.crc_errors == 0 and dec.lost == 0


def _answer_pings(master: int, seconds: float) -> None:
    from controller.link.codec import Ping, Pong, parse

    decoder = StreamDecoder()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            continue
        for frame in decoder.feed(os.read(master, 4096)):
            message = parse(frame)
            if isinstance(message, Ping):
                os.write(master, encode(Pong(message.seq, message.payload)))


FORGED = "x\nbgboard run: ERROR: cannot save: disk full (forged by the board)"


@pytest.mark.timeout(90)
def test_a_hostile_board_cannot_forge_a_log_line_of_bgboard_run(tmp_path: Path) -> None:
    """Issue 23 item 8: the board's HELLO firmware name and ERROR text went raw into the
    log; a newline in them wrote a whole line of bgboard's own, an ESC acted on the
    terminal. Both are escaped (one function, controller/outside_text.py)."""
    with pty_port() as (master, port), running(bgboard(*run_args(port, tmp_path, "--seconds", "8"))) as proc:
        _wait_for_hello(master)
        wire = (encode(Hello(0, 2, PROFILE.sensors.rows, PROFILE.sensors.cols, "fw\x1b]0;owned\x07" + FORGED))
                + Frame(MsgType.ERROR, 2, bytes([4]) + (EVIL + FORGED).encode("latin-1")).encode())
        os.write(master, wire)
        _answer_pings(master, 4.0)  # the hostile board answers PING (after CONFIG): it goes online
        _, err = proc.communicate(timeout=60)
    text = err.decode("utf-8", "replace")
    assert "fw\\x1b" in text and "Traceback" not in text, text[-2000:]
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert not any(line.startswith("bgboard run: ERROR: cannot save") for line in text.splitlines())


@pytest.mark.timeout(60)
def test_two_tables_on_one_serial_port_the_second_is_told_who_has_it(tmp_path: Path) -> None:
    """Issue 23 item 3: two `bgboard run` on one port both opened it and the link dropped
    15 times in 25 s. The port is opened exclusively; the second says who holds it."""
    from board_process import board_port

    with board_port() as port:
        with running(bgboard(*run_args(port, tmp_path / "a", "--seconds", "30"), stdout=subprocess.DEVNULL,
                             text=True)) as first:
            assert first.stderr is not None
            for line in first.stderr:  # once the first table's board is online, it holds the port
                if "board online" in line:
                    break
            second = subprocess.run([sys.executable, "-m", "bgboard.cli", *run_args(port, tmp_path / "b", "--seconds", "3")],
                                    cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert second.returncode == 1
    lines = second.stderr.splitlines()
    assert len(lines) == 1 and "busy" in lines[0] and f"pid {first.pid}" in lines[0], second.stderr


@pytest.mark.timeout(120)
def test_bgboard_run_stops_at_the_first_ctrl_c_under_a_flood_of_scans(tmp_path: Path) -> None:
    """Issue 23 item 6: fed valid SCANs as fast as a pty takes them, `bgboard run` ignored
    the first SIGINT in 5 of 7 runs (the main task stayed cancelling at app.py's wait_for)."""
    with pty_port() as (master, port), running(bgboard(*run_args(port, tmp_path))) as proc:
        _wait_for_hello(master)
        os.write(master, encode(Hello(0, 2, PROFILE.sensors.rows, PROFILE.sensors.cols, "flood")))
        _answer_pings(master, 2.0)
        scans = b"".join(encode(Scan(seq % 256, pack_sensors([seq % 2] * PROFILE.sensors.count)))
                         for seq in range(200))
        os.set_blocking(master, False)
        end = time.monotonic() + 3.0
        _flood(master, scans, lambda: time.monotonic() >= end)
        proc.send_signal(signal.SIGINT)
        stopped_at = time.monotonic() + 15.0
        _flood(master, scans, lambda: proc.poll() is not None or time.monotonic() >= stopped_at)  # on while it stops
        assert proc.poll() is not None, "the first Ctrl-C was not heeded within 15 s"


def _flood(master: int, scans: bytes, done: Callable[[], bool]) -> None:
    """`scans` written as fast as the pty takes them (what the table writes read and
    dropped) until `done()`."""
    while not done():
        try:
            os.write(master, scans)
        except BlockingIOError:
            time.sleep(0.001)
        try:
            os.read(master, 65536)
        except BlockingIOError:
            pass

"""`bgboard monitor`: print every frame the sensor board sends, live.

    bgboard monitor [--port P] [--profile F] [--raw] [--json] [--seconds S] [--sim]

Without `--raw` each SCAN is shown as the cells' counts (the reading); with `--raw`
the frames as they are. `--json` prints one JSON object a line; status changes of the
link go to stderr so stdout stays parseable. At exit (after S seconds, on Ctrl-C or
SIGTERM) one last line: {"type": "stats", "frames": n, "crc_errors": n, "framing_errors":
n, "lost": n, "bad_scans": n, "dropped": n}. `--sim` starts a virtual board in this
process (opening position set up), so the command works without hardware.

The board's own text (an ERROR frame, the firmware name) is printed with escapes, so a
board cannot send terminal control sequences. Lines go out through a bounded queue and
a writer thread: a reader that stops reading (`monitor --json | slow`) costs dropped
lines, counted in `dropped` (with the frames the link dropped while the loop was behind),
never memory or the event loop (Ctrl-C still works); SCANs whose length does not fit the
matrix are counted in `bad_scans`.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from bgboard.commands.numbers import seconds
from controller.errors import UsageError
from controller.outside_text import printable

if TYPE_CHECKING:  # imported when run, so `bgboard --help` stays quick
    from controller.board.profile import Profile
    from controller.link.codec import Message, Scan
    from controller.link.board_link import BoardLink
    from controller.link.host_protocol import LinkStatus
    from sim.virtual_board import VirtualBoard

HELP = "print what the sensor board reports, live (--sim: a virtual board)"

#: the opening position on the virtual board: cell -> (white, black)
OPENING: dict[str, tuple[int, int]] = {"24": (2, 0), "13": (5, 0), "8": (3, 0), "6": (5, 0),
                                       "1": (0, 2), "12": (0, 5), "17": (0, 3), "19": (0, 5)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", metavar="P",
                        help="serial device (default: the first Raspberry Pi Pico found)")
    parser.add_argument("--profile", metavar="F", help="hardware profile (default: the default board)")
    parser.add_argument("--raw", action="store_true", help="the frames themselves, not cell counts")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--seconds", metavar="S", type=seconds(zero=True),
                        help="stop after S seconds (default: until Ctrl-C)")
    parser.add_argument("--sim", action="store_true",
                        help="start a virtual board in-process (no hardware needed)")


#: lines waiting for a slow reader, at most (then they are dropped and counted)
QUEUE_LINES = 1000


@dataclass
class _Session:
    """What the monitor holds while running, so the stats line survives Ctrl-C."""

    link: BoardLink | None = None
    board: VirtualBoard | None = None
    rows_cols: tuple[int, int] = (0, 0)
    extras: dict[str, object] = field(default_factory=dict)
    bad_scans: int = 0


class LineWriter:
    """Lines to a stream from a thread of its own, through a bounded queue.

    `put` never blocks: when the reader has stopped and the queue is full the line is
    dropped and counted. `close` waits a moment for the queue to drain and then writes
    its last line without blocking (on stderr if stdout will not take it). A stream with
    a file descriptor is written with `os.write` (no buffer lock a stuck thread could
    hold at exit)."""

    def __init__(self, stream: TextIO, limit: int = QUEUE_LINES) -> None:
        self.stream = stream
        try:
            stream.flush()
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation: a test's capture
            self.fd = None
        self.dropped = 0
        self.gone = False  # the reader closed the pipe
        self._queue: queue.Queue[str | None] = queue.Queue(limit)
        self._thread = threading.Thread(target=self._run, name="monitor output", daemon=True)
        self._thread.start()

    def put(self, line: str) -> None:
        try:
            self._queue.put_nowait(line + "\n")
        except queue.Full:
            self.dropped += 1

    def _write(self, text: str) -> None:
        if self.fd is None:
            self.stream.write(text)
            self.stream.flush()
        else:
            _write_all(self.fd, text.encode("utf-8", "replace"))

    def _run(self) -> None:
        while (text := self._queue.get()) is not None:
            try:
                self._write(text)
            except BrokenPipeError:
                self.gone = True
                return
            except OSError:
                return

    @property
    def full(self) -> bool:
        """Whether the next line would be dropped (the reader is behind or has stopped)."""
        return self._queue.full()

    def close(self, last: str | None, wait_s: float = 1.0) -> None:
        """Let the queue drain for at most `wait_s` in all (a reader that stopped costs
        one wait, not one per step: Ctrl-C took 2 s more than this), then the last line."""
        deadline = time.monotonic() + wait_s
        try:
            self._queue.put(None, timeout=wait_s)
        except queue.Full:
            pass
        self._thread.join(max(0.0, deadline - time.monotonic()))
        if last is None or self.gone:
            return
        if self.fd is None:
            self._write(last + "\n")
            return
        data = (last + "\n").encode()
        written = 0
        if not self._thread.is_alive():  # else it is stuck writing to a reader that stopped
            blocking = os.get_blocking(self.fd)
            try:
                os.set_blocking(self.fd, False)
                written = os.write(self.fd, data)
            except OSError:
                written = 0
            finally:
                os.set_blocking(self.fd, blocking)
        if written < len(data):
            sys.stderr.write(last + "\n")
            sys.stderr.flush()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def find_pico_port() -> str | None:
    """The first USB serial device with the Raspberry Pi vendor id (RP2040 MicroPython)."""
    from serial.tools import list_ports

    for p in list_ports.comports():
        if p.vid == 0x2E8A:
            return str(p.device)
    return None


def run(args: argparse.Namespace) -> int:
    if args.sim and args.port:
        raise UsageError("--sim and --port exclude each other")
    from controller.board.profile import load_profile

    profile = load_profile(args.profile)
    session = _Session(rows_cols=(profile.sensors.rows, profile.sensors.cols))
    out = LineWriter(sys.stdout)
    try:
        asyncio.run(_monitor(args, profile, session, out))
    except KeyboardInterrupt:
        pass
    finally:
        stats = None
        if session.link is not None:
            session.link.close()
            stats = json.dumps({"type": "stats", **session.link.stats.as_dict(),
                                "bad_scans": session.bad_scans,
                                "dropped": out.dropped + session.link.overrun})
        out.close(stats)
        if session.board is not None:
            session.board.close()
    return 0


async def _monitor(args: argparse.Namespace, profile: Profile, session: _Session, out: LineWriter) -> None:
    from controller.link.codec import Hello, Scan
    from controller.link.board_link import BoardLink
    from controller.link.board_session import check_hello

    port = args.port
    if args.sim:
        from sim.virtual_board import VirtualBoard

        vb = VirtualBoard(profile)
        session.board = vb
        for cell, (w, b) in OPENING.items():
            vb.set_cell(cell, w, b)
        vb.start()
        port = vb.port
        _status_line(f"virtual board on {port}")
    elif port is None:
        port = find_pico_port()
        if port is None:
            raise UsageError("no --port given and no Raspberry Pi Pico found; "
                             "try --port /dev/ttyACM0, or --sim for a virtual board")

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM,):  # Ctrl-C cancels asyncio.run's task; both end with the stats
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass

    def on_frame(message: Message) -> None:
        if isinstance(message, Hello) and (problem := check_hello(message, profile)):
            _status_line(f"board mismatch: {problem}")  # what `bgboard run` would refuse
        if isinstance(message, Scan) and out.full:  # not read anyway: counted, not formatted
            session.bad_scans += not fits(message, session)
            out.dropped += 1
            return
        line = format_message(message, profile, session, raw=args.raw, as_json=args.json)
        if out.gone:  # `bgboard monitor | head`: the reader has gone
            stop.set()
        elif line is not None and not stop.is_set():
            out.put(line)

    def on_status(status: LinkStatus) -> None:
        _status_line(f"link {status.state.value}" + (f": {status.detail}" if status.detail else ""))

    link = BoardLink(port, on_frame=on_frame, on_status=on_status,
                     baudrate=profile.link.baudrate,
                     offline_after=profile.link.offline_after_ms / 1000)
    await link.start()
    session.link = link
    try:  # not wait_for: Python 3.11's can swallow the cancel of Ctrl-C (as in app.py)
        async with asyncio.timeout(args.seconds):
            await stop.wait()
    except TimeoutError:
        pass


def _status_line(text: str) -> None:
    sys.stderr.write(f"bgboard monitor: {printable(text, ascii_only=True)}\n")
    sys.stderr.flush()


def fits(scan: Scan, session: _Session) -> bool:
    """Whether a SCAN's length fits the matrix its board's HELLO named."""
    rows, cols = session.rows_cols
    return len(scan.packed) == -(-rows * cols // 4)


def format_message(message: Message, profile: Profile, session: _Session, *, raw: bool,
                   as_json: bool) -> str | None:
    """One output line for a message (None: nothing to print)."""
    from controller.board.reading import Reading
    from controller.link.codec import BoardError, Hello, Pong, Scan

    if isinstance(message, Hello):
        session.rows_cols = (message.rows, message.cols)
        obj: dict[str, object] = {"type": "hello", "seq": message.seq, "version": message.version,
                               "rows": message.rows, "cols": message.cols,
                               "firmware": message.firmware}
        text = (f"hello seq={message.seq} protocol={message.version} "
                f"matrix={message.rows}x{message.cols} "
                f"firmware={printable(repr(message.firmware), ascii_only=True)}")
    elif isinstance(message, Scan):
        rows, cols = session.rows_cols
        if not fits(message, session):
            session.bad_scans += 1  # a SCAN that does not fit the matrix: counted
            if not raw:
                return None
        count = min(rows * cols, 4 * len(message.packed))
        sensors = message.sensors(count)
        if raw:
            obj = {"type": "scan", "seq": message.seq, "sensors": list(sensors)}
            text = f"scan seq={message.seq} " + "".join(".wbX"[v] for v in sensors)
        else:
            if count < profile.sensors.count:
                return None  # a board with a smaller matrix than the profile: cannot map
            reading = Reading.from_sensors(sensors, profile)
            obj = {"type": "reading", "seq": message.seq, **reading.as_json()}
            text = f"reading seq={message.seq} {reading}"
    elif isinstance(message, Pong):
        obj = {"type": "pong", "seq": message.seq, "payload": message.payload.hex()}
        text = f"pong seq={message.seq} payload={message.payload.hex()}"
    elif isinstance(message, BoardError):
        obj = {"type": "error", "seq": message.seq, "code": message.code, "text": message.text}
        text = f"error seq={message.seq} code={message.code} {printable(message.text, ascii_only=True)}"
    else:
        return None
    return json.dumps(obj) if as_json else text

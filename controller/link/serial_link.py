"""The serial link to the sensor board, over pyserial, for one asyncio event loop.

A reader thread owns the port: it opens it, asks HELLO?, reads and decodes, and hands
the typed messages to the event loop through a bounded inbox (the callbacks run on the
loop, never on the thread). The inbox is drained by one callback per batch, not one per
frame: a board that sends faster than the loop handles (a flood of valid SCANs at
600 KB/s) once filled the loop's queue with a callback per frame, 36 -> 99 MB in 20 s,
and Ctrl-C waited behind them. With `latest_scan_only` a SCAN still waiting in the inbox
is replaced by a newer one of the same length (a board's state is its latest reading; counted
in `superseded`; one of another length is a fault the session counts, never replaced); past `max_pending` waiting messages the oldest is dropped (`overrun`).
It watches for silence (no frame for `offline_after`
seconds: offline, and asks HELLO? again) and, when the port fails or vanishes (USB
unplugged), closes it and reopens it with exponential backoff until it comes back.

    link = BoardLink("/dev/ttyACM0", on_frame=handle, on_status=show)
    await link.start()          # LinkError (one line, device path and a hint) if it cannot open
    link.send_ping(b"hi"); link.send_config(10, 3, 500)
    link.stats, link.is_online, link.status
    link.close()

OS errors become `controller.errors.LinkError` naming the device and a hint, e.g. the
`dialout` group for a permission error.
"""
from __future__ import annotations

import asyncio
import collections
import errno
import fcntl
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import serial

from controller.errors import LinkError
from controller.files import holder_of
from controller.link import codec
from controller.link.codec import (
    Config,
    FrameError,
    HelloRequest,
    LinkStats,
    Message,
    Ping,
    Scan,
)

MAX_PENDING = 4096  # messages waiting for the loop (about 1 MB); past it the oldest go (a flood)
DRAIN_SLICE = 64  # messages handed over in one turn of the loop


class LinkState(Enum):
    CONNECTING = "connecting"     # port open, no frame yet
    ONLINE = "online"             # frames arriving
    OFFLINE = "offline"           # port open but the board is silent
    DISCONNECTED = "disconnected"  # the port failed or is gone; reopening with backoff
    CLOSED = "closed"             # close() was called


@dataclass(frozen=True)
class LinkStatus:
    """A change of the link's state, with the device path and what happened."""

    state: LinkState
    port: str
    detail: str = ""


def link_error(port: str, exc: BaseException) -> LinkError:
    """One clear message for an OS or pyserial error on `port`, with a hint."""
    code = getattr(exc, "errno", None)
    reason = getattr(exc, "strerror", None) or str(exc)
    if code in (errno.EACCES, errno.EPERM):
        return LinkError(f"{port}: permission denied; add the user to the dialout group "
                         "(sudo usermod -aG dialout $USER) and log in again")
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return LinkError(f"{port}: no such device; is the board plugged in? "
                         "(ls /dev/ttyACM* /dev/ttyUSB*)")
    if code in (errno.EBUSY, errno.EAGAIN):  # EAGAIN: the exclusive lock another table holds
        return LinkError(f"{port}: busy; another program has the port open ({holder_of(port)}): "
                         "one table per port")
    if code == errno.ENOTTY or "Inappropriate ioctl" in reason:
        return LinkError(f"{port}: not a serial port; pass the board's device, e.g. /dev/ttyACM0")
    if code == errno.EIO or "returned no data" in reason:
        return LinkError(f"{port}: the device went away (cable pulled or board reset)")
    return LinkError(f"{port}: {reason}; check the cable and the --port path")


def check_port(port: str) -> None:
    """Before a table starts on `port`: LinkError (one line) when it is there but can never
    be the board's (not a serial port: /dev/null, a file) or another table holds it; a
    port not there yet is fine (the board may be plugged in later)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise link_error(port, exc) from None
    try:
        if not os.isatty(fd):
            raise link_error(port, OSError(errno.ENOTTY, "not a tty"))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            raise link_error(port, exc) from None
    finally:
        os.close(fd)  # the lock goes with it; the link takes its own (exclusive=True)


class BoardLink:
    """The host end of the wire protocol on one serial port (see the module docstring)."""

    def __init__(self, port: str, *, on_frame: Callable[[Message], None],
                 on_status: Callable[[LinkStatus], None] | None = None,
                 baudrate: int = 115200, offline_after: float = 2.0,
                 backoff: tuple[float, float] = (0.05, 0.5),
                 clock: Callable[[], float] = time.monotonic,
                 read_timeout: float = 0.02, latest_scan_only: bool = False,
                 max_pending: int = MAX_PENDING) -> None:
        self.port = port
        self._on_frame = on_frame
        self._on_status = on_status
        self.baudrate = baudrate
        self.offline_after = offline_after
        self.backoff = backoff
        self._clock = clock
        self._read_timeout = read_timeout
        self._decoder = codec.StreamDecoder()
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._state = LinkState.CLOSED
        self._seq = 0
        self.malformed = 0
        self.reconnects = 0
        self.latest_scan_only = latest_scan_only
        self.max_pending = max_pending
        self.superseded = 0  # SCANs replaced in the inbox by a newer one
        self.overrun = 0     # messages dropped because `max_pending` were waiting
        self._inbox: collections.deque[tuple[Callable[[Any], None], object]] = collections.deque()
        self._inbox_lock = threading.Lock()
        self._drain_asked = False

    # -- public API -----------------------------------------------------------------
    async def start(self) -> None:
        """Open the port (LinkError if that fails), ask HELLO?, start reading."""
        if self._thread is not None:
            raise RuntimeError("BoardLink already started")
        self._loop = asyncio.get_running_loop()
        with self._inbox_lock:  # a drain asked of an earlier loop will never run
            self._inbox.clear()
            self._drain_asked = False
        self._open()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"BoardLink {self.port}",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading and close the port; idempotent."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._thread = None
        self._close_port()
        self._state = LinkState.CLOSED

    async def __aenter__(self) -> BoardLink:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    @property
    def status(self) -> LinkState:
        return self._state

    @property
    def is_online(self) -> bool:
        return self._state is LinkState.ONLINE

    @property
    def pending(self) -> int:
        """Messages decoded but not yet handed to `on_frame` (the loop is behind)."""
        return len(self._inbox)

    @property
    def stats(self) -> LinkStats:
        """Frames decoded, CRC and framing errors, frames lost by seq gaps."""
        return self._decoder.stats

    def send(self, message: Message) -> bool:
        """Send a host message (its seq is assigned here); False when the port is down."""
        with self._write_lock:
            ser = self._serial
            if ser is None:
                return False
            frame = codec.to_frame(message)
            wire = codec.Frame(frame.type, self._seq, frame.payload).encode()
            self._seq = (self._seq + 1) & 0xFF
            try:
                ser.write(wire)
            except (serial.SerialException, OSError):
                return False  # the reader thread notices and reconnects
            return True

    def send_hello_request(self) -> bool:
        return self.send(HelloRequest())

    def send_ping(self, payload: bytes = b"") -> bool:
        return self.send(Ping(payload=payload))

    def send_config(self, scan_period_ms: int, debounce_scans: int, heartbeat_ms: int) -> bool:
        return self.send(Config(scan_period_ms=scan_period_ms, debounce_scans=debounce_scans,
                                heartbeat_ms=heartbeat_ms))

    # -- the reader thread ---------------------------------------------------------------
    def _open(self) -> None:
        try:
            ser = serial.Serial(self.port, self.baudrate, timeout=self._read_timeout,
                                write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise link_error(self.port, exc) from None
        with self._write_lock:
            self._serial = ser
        self._decoder.reset_seq()
        self._set_state(LinkState.CONNECTING, "port open, asking HELLO?")
        self.send_hello_request()

    def _close_port(self) -> None:
        with self._write_lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass  # closing a port that already vanished: nothing left to release

    def _set_state(self, state: LinkState, detail: str = "") -> None:
        if state is self._state:
            return
        self._state = state
        if self._on_status is not None and self._loop is not None:
            self._post(self._on_status, LinkStatus(state, self.port, detail))

    def _call(self, fn: Callable[..., None], arg: object) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(fn, arg)
        except RuntimeError:
            pass  # the loop closed while we were reading: nobody left to tell

    def _post(self, fn: Callable[[Any], None], arg: object) -> None:
        """From the reader thread: queue `fn(arg)` (a message for `on_frame`, a status for
        `on_status`, in the order they happened) and ask the loop to drain the inbox unless
        a drain is already asked for: one callback per batch, however many frames."""
        with self._inbox_lock:
            inbox = self._inbox
            waiting = inbox[-1][1] if inbox else None
            # only the newest reading matters (order kept); a SCAN of another length is
            # not a newer reading of the same board but a fault the session must count
            if (self.latest_scan_only and isinstance(arg, Scan) and isinstance(waiting, Scan)
                    and len(waiting.packed) == len(arg.packed)):
                inbox[-1] = (fn, arg)
                self.superseded += 1
            else:
                if len(inbox) >= self.max_pending:
                    inbox.popleft()
                    self.overrun += 1
                inbox.append((fn, arg))
            if self._drain_asked:
                return
            self._drain_asked = True
        self._call(self._drain, None)

    def _drain(self, _: object) -> None:
        """On the loop: run the waiting callbacks in order, `DRAIN_SLICE` at a time (the
        loop's other work, a Ctrl-C's cancel, gets its turn between slices)."""
        with self._inbox_lock:
            inbox = self._inbox
            batch = [inbox.popleft() for _ in range(min(len(inbox), DRAIN_SLICE))]
            more = bool(inbox)
            self._drain_asked = more
        if more and self._loop is not None:
            self._loop.call_soon(self._drain, None)
        for fn, arg in batch:
            try:
                fn(arg)
            except Exception as exc:  # as the loop does for a callback of its own: told, and on
                if self._loop is not None:
                    self._loop.call_exception_handler(
                        {"message": f"{self.port}: callback {fn!r} failed", "exception": exc})

    def _run(self) -> None:
        delay = self.backoff[0]
        last_frame = self._clock()
        last_ask = last_frame
        while not self._stop.is_set():
            ser = self._serial
            if ser is None:
                try:
                    self._open()
                except LinkError as exc:
                    self._set_state(LinkState.DISCONNECTED, str(exc))
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                self.reconnects += 1
                delay = self.backoff[0]
                last_frame = last_ask = self._clock()
                continue
            try:
                data = ser.read(ser.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError) as exc:
                # TypeError: pyserial reading a port closed under it by close()
                if self._stop.is_set():
                    break
                self._close_port()
                self._set_state(LinkState.DISCONNECTED, str(link_error(self.port, exc)))
                continue
            now = self._clock()
            if data:
                frames = self._decoder.feed(data)
                for frame in frames:
                    try:
                        message = codec.parse(frame)
                    except FrameError:
                        self.malformed += 1
                        continue
                    if message is not None:
                        self._post(self._on_frame, message)
                if frames:
                    last_frame = now
                    self._set_state(LinkState.ONLINE)
                    continue
            if now - last_frame >= self.offline_after:
                self._set_state(LinkState.OFFLINE,
                                f"no frame for {self.offline_after:g} s")
                if now - last_ask >= self.offline_after / 2:
                    last_ask = now
                    self.send_hello_request()

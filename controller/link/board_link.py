"""The link to the sensor board: the protocol (host_protocol.py, no I/O) over an interface.

    link = BoardLink("/dev/ttyACM0", on_frame=handle, on_status=show)   # pyserial on a path
    link = BoardLink(cable, on_frame=handle, clock=clock)              # any LinkInterface
    await link.start()      # LinkError (one line, device path and a hint) if it cannot open
    link.send_ping(b"hi"); link.send_config(10, 3, 500)
    link.tick(now)          # time passed (an interface without a thread of its own)
    link.stats, link.is_online, link.status
    link.close()

A threaded interface (pyserial's reader) calls the link from its thread: the link decodes
there and hands the messages to the event loop in batches, one callback per batch, not one
per frame (a board sending faster than the loop handles, a flood of valid SCANs at 600 KB/s,
once filled the loop's queue with a callback per frame, 36 -> 99 MB in 20 s, and Ctrl-C
waited behind them); the protocol's bounded queue keeps only the newest waiting SCAN with
`latest_scan_only`. An interface without a thread (the in-memory cable) calls the link on
the caller's thread, and the messages are handed on at once, on the caller's clock.
"""
from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from controller.link.codec import Config, LinkStats, Message, Ping
from controller.link.interface import LinkInterface
from controller.link.host_protocol import MAX_PENDING, LinkProtocol, LinkState, LinkStatus
from controller.link.serial_link import DEFAULT_BACKOFF, SerialPort

DRAIN_SLICE = 64  # events handed over in one turn of the loop


class BoardLink:
    """The host end of the wire protocol over one interface (see the module docstring).
    A path names a serial port (`baudrate`, `read_timeout` and `backoff` are its own)."""

    def __init__(self, interface: LinkInterface | str, *, on_frame: Callable[[Message], None],
                 on_status: Callable[[LinkStatus], None] | None = None,
                 baudrate: int = 115200, offline_after: float = 2.0,
                 backoff: tuple[float, float] = DEFAULT_BACKOFF,
                 clock: Callable[[], float] = time.monotonic,
                 read_timeout: float = 0.02, latest_scan_only: bool = False,
                 max_pending: int = MAX_PENDING) -> None:
        if isinstance(interface, str):
            interface = SerialPort(interface, baudrate=baudrate, read_timeout=read_timeout,
                                   backoff=backoff)
        self.interface = interface
        self.port = interface.name
        self._on_frame = on_frame
        self._on_status = on_status
        self._clock = clock
        self.protocol = LinkProtocol(interface.name, offline_after=offline_after,
                                     latest_scan_only=latest_scan_only, max_pending=max_pending)
        self._lock = threading.Lock()  # the protocol, between a reader thread and the loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._drain_asked = False
        self._draining = False
        self._started = False
        #: the state as last handed on (a reader thread's protocol may be a step ahead)
        self._state = LinkState.CLOSED

    # -- life cycle -----------------------------------------------------------------------
    def open(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Open the interface and ask HELLO? (LinkError if it cannot open). A threaded
        interface needs the event loop its messages are handed to."""
        if self._started:
            raise RuntimeError("BoardLink already started")
        if self.interface.threaded and loop is None:
            raise RuntimeError(f"{self.port}: a threaded interface needs the event loop")
        self._loop = loop
        with self._lock:  # a drain asked of an earlier loop will never run
            self._drain_asked = False
        self._started = True
        try:
            self.interface.start(self)
        except BaseException:
            self._started = False
            raise

    async def start(self) -> None:
        """`open` on the running loop."""
        self.open(asyncio.get_running_loop())

    def close(self) -> None:
        """Stop reading and close the interface; idempotent."""
        self.interface.stop()
        self._started = False
        with self._lock:
            self.protocol.close()
        self._state = LinkState.CLOSED

    async def __aenter__(self) -> BoardLink:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    # -- what it knows --------------------------------------------------------------------------
    @property
    def status(self) -> LinkState:
        """The link's state, as the callbacks have been told it."""
        return self._state

    @property
    def is_online(self) -> bool:
        return self._state is LinkState.ONLINE

    @property
    def pending(self) -> int:
        """Messages decoded but not yet handed to `on_frame` (the loop is behind)."""
        return self.protocol.pending

    @property
    def stats(self) -> LinkStats:
        """Frames decoded, CRC and framing errors, frames lost by seq gaps."""
        return self.protocol.stats

    @property
    def superseded(self) -> int:
        """SCANs replaced while waiting by a newer one."""
        return self.protocol.superseded

    @property
    def overrun(self) -> int:
        """Messages dropped because too many were waiting."""
        return self.protocol.overrun

    @property
    def malformed(self) -> int:
        return self.protocol.malformed

    @property
    def reconnects(self) -> int:
        return self.interface.reconnects

    # -- to the board ---------------------------------------------------------------------------
    def send(self, message: Message) -> bool:
        """Send a host message (its seq is assigned here); False when the line is down."""
        with self._lock:
            wire = self.protocol.send(message)
        return self.interface.write(wire)

    def send_ping(self, payload: bytes = b"") -> bool:
        return self.send(Ping(payload=payload))

    def send_config(self, scan_period_ms: int, debounce_scans: int, heartbeat_ms: int) -> bool:
        return self.send(Config(scan_period_ms=scan_period_ms, debounce_scans=debounce_scans,
                                heartbeat_ms=heartbeat_ms))

    def tick(self, now: float) -> None:
        """Time passed (the owner's clock): a silent board goes OFFLINE and is asked HELLO?
        again. A threaded interface looks by itself after every read."""
        if self._started and not self.interface.threaded:
            self._look_for_silence(now)

    # -- LinkHost: what the interface tells ------------------------------------------------------
    def opened(self) -> None:
        with self._lock:
            wire = self.protocol.connection_made(self._clock())
        self.interface.write(wire)
        self._hand_on()

    def received(self, data: bytes) -> None:
        with self._lock:
            self.protocol.receive_data(data, self._clock())
        self._hand_on()

    def lost(self, detail: str) -> None:
        with self._lock:
            self.protocol.connection_lost(detail)
        self._hand_on()

    def idle(self) -> None:
        self._look_for_silence(self._clock())

    def _look_for_silence(self, now: float) -> None:
        with self._lock:
            wire = self.protocol.tick(now)
        if wire:
            self.interface.write(wire)
        self._hand_on()

    # -- handing the events on ---------------------------------------------------------------------
    def _hand_on(self) -> None:
        """Give the waiting events to the callbacks: at once without a thread, else on the
        loop, one drain asked at a time however many frames came."""
        if not self.interface.threaded:
            if not self._draining:  # a callback that sends does not drain again inside
                self._draining = True
                try:
                    while self._deliver(DRAIN_SLICE):
                        pass
                finally:
                    self._draining = False
            return
        loop = self._loop
        with self._lock:
            if self._drain_asked or not self.protocol.pending or loop is None:
                return
            self._drain_asked = True
        try:
            loop.call_soon_threadsafe(self._drain)
        except RuntimeError:
            pass  # the loop closed while we were reading: nobody left to tell

    def _drain(self) -> None:
        """On the loop: hand over the waiting events in order, `DRAIN_SLICE` at a time (the
        loop's other work, a Ctrl-C's cancel, gets its turn between slices)."""
        with self._lock:
            self._drain_asked = more = self.protocol.pending > DRAIN_SLICE
        if more and self._loop is not None:
            self._loop.call_soon(self._drain)
        self._deliver(DRAIN_SLICE, told=self._tell_failure)

    def _tell_failure(self, exc: Exception) -> None:
        """A callback failed on the loop: told as the loop tells a failed callback of its
        own, and the link goes on."""
        if self._loop is not None:
            self._loop.call_exception_handler(
                {"message": f"{self.port}: a link callback failed", "exception": exc})

    def _deliver(self, most: int, told: Callable[[Exception], None] | None = None) -> bool:
        """Hand over up to `most` waiting events; True when more are waiting. With `told`,
        a callback's exception goes there and the next event is handed over."""
        for _ in range(most):
            with self._lock:
                event = self.protocol.next_event()
            if event is None:
                return False
            try:
                if isinstance(event, LinkStatus):
                    self._state = event.state
                    if self._on_status is not None:
                        self._on_status(event)
                else:
                    self._on_frame(event)
            except Exception as exc:
                if told is None:
                    raise
                told(exc)
        return self.protocol.pending > 0

"""The host end of the wire protocol as a state machine that does no I/O (h11's shape).

Bytes go in and come out; nothing here reads a port, starts a thread or looks at a clock
(the time is given). `BoardLink` (board_link.py) puts it over an interface: pyserial on a
device path (the Pi, a pseudo-terminal) or an in-memory cable to the virtual board.

    protocol = LinkProtocol("/dev/ttyACM0", offline_after=2.0)
    wire = protocol.connection_made(now)      # the port opened: bytes to write (HELLO?)
    protocol.receive_data(data, now)          # bytes read from the port
    event = protocol.next_event()             # a Message or a LinkStatus, in order; None
    wire = protocol.send(Ping(b"hi"))         # a host message's bytes, its seq assigned
    wire = protocol.tick(now)                 # time passed: silent too long? (HELLO? again)
    protocol.connection_lost(detail)          # the port failed or vanished

The events wait in a bounded queue: with `latest_scan_only` a SCAN still waiting is
replaced by a newer one of the same length (a board's state is its latest reading; one of
another length is a fault the session counts, never replaced; counted in `superseded`);
past `max_pending` waiting messages the oldest goes (`overrun`; a change of state is
never dropped). A board that floods the
host faster than the table reads it (valid SCANs at 600 KB/s) so costs a bounded queue,
not memory without end.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass
from enum import Enum

from controller.link import codec
from controller.link.codec import FrameError, HelloRequest, LinkStats, Message, Scan

MAX_PENDING = 4096  # messages waiting to be read (about 1 MB); past it the oldest go (a flood)


class LinkState(Enum):
    CONNECTING = "connecting"     # port open, no frame yet
    ONLINE = "online"             # frames arriving
    OFFLINE = "offline"           # port open but the board is silent
    DISCONNECTED = "disconnected"  # the port failed or is gone; reopening with backoff
    CLOSED = "closed"             # close() was called


@dataclass(frozen=True)
class LinkStatus:
    """A change of the link's state, with the port's name and what happened."""

    state: LinkState
    port: str
    detail: str = ""


LinkEvent = Message | LinkStatus


class LinkProtocol:
    """The wire protocol's host end on one port (see the module docstring)."""

    def __init__(self, port: str, *, offline_after: float = 2.0, latest_scan_only: bool = False,
                 max_pending: int = MAX_PENDING) -> None:
        self.port = port
        self.offline_after = offline_after
        self.latest_scan_only = latest_scan_only
        self.max_pending = max_pending
        self.state = LinkState.CLOSED
        self.malformed = 0   # intact frames whose payload does not parse
        self.superseded = 0  # SCANs replaced while waiting by a newer one
        self.overrun = 0     # events dropped because `max_pending` were waiting
        self._decoder = codec.StreamDecoder()
        self._events: collections.deque[LinkEvent] = collections.deque()
        self._messages = 0  # of the events waiting, the board's messages
        self._seq = 0
        self._last_frame = 0.0
        self._last_ask = 0.0

    @property
    def stats(self) -> LinkStats:
        """Frames decoded, CRC and framing errors, frames lost by seq gaps."""
        return self._decoder.stats

    @property
    def pending(self) -> int:
        """Events decoded but not yet read with `next_event`."""
        return len(self._events)

    # -- the port's life -----------------------------------------------------------------
    def connection_made(self, now: float) -> bytes:
        """The port opened (again): the board is asked HELLO?; returns the bytes to write."""
        self._decoder.reset_seq()
        self._last_frame = self._last_ask = now
        self._set(LinkState.CONNECTING, "port open, asking HELLO?")
        return self.send(HelloRequest())

    def connection_lost(self, detail: str) -> None:
        """The port failed or vanished (`detail` says how, in one line)."""
        self._set(LinkState.DISCONNECTED, detail)

    def close(self) -> None:
        """Closed on purpose: no event (nobody is left to tell)."""
        self.state = LinkState.CLOSED

    # -- bytes in, events out ---------------------------------------------------------------
    def receive_data(self, data: bytes, now: float) -> None:
        """Bytes read from the port; the messages they complete wait for `next_event`."""
        for frame in self._decoder.feed(data):
            self._last_frame = now
            self._set(LinkState.ONLINE)  # told before the first message that proves it
            try:
                message = codec.parse(frame)
            except FrameError:
                self.malformed += 1
                continue
            if message is not None:
                self._queue(message)

    def next_event(self) -> LinkEvent | None:
        """The oldest waiting event (a message from the board, or a change of state)."""
        if not self._events:
            return None
        event = self._events.popleft()
        if not isinstance(event, LinkStatus):
            self._messages -= 1
        return event

    def send(self, message: Message) -> bytes:
        """The bytes of a host message, with the next seq of this direction."""
        frame = codec.to_frame(message)
        wire = codec.Frame(frame.type, self._seq, frame.payload).encode()
        self._seq = (self._seq + 1) & 0xFF
        return wire

    def tick(self, now: float) -> bytes:
        """Time passed without a frame: after `offline_after` the link is OFFLINE and asks
        HELLO? again every half of it; returns the bytes to write (often none)."""
        if self.state not in (LinkState.CONNECTING, LinkState.ONLINE, LinkState.OFFLINE):
            return b""
        if now - self._last_frame < self.offline_after:
            return b""
        self._set(LinkState.OFFLINE, f"no frame for {self.offline_after:g} s")
        if now - self._last_ask < self.offline_after / 2:
            return b""
        self._last_ask = now
        return self.send(HelloRequest())

    # -- the queue --------------------------------------------------------------------------
    def _set(self, state: LinkState, detail: str = "") -> None:
        if state is self.state:
            return
        self.state = state
        self._queue(LinkStatus(state, self.port, detail))

    def _queue(self, event: LinkEvent) -> None:
        events = self._events
        waiting = events[-1] if events else None
        # only the newest reading matters (order kept); a SCAN of another length is not a
        # newer reading of the same board but a fault the session must count
        if (self.latest_scan_only and isinstance(event, Scan) and isinstance(waiting, Scan)
                and len(waiting.packed) == len(event.packed)):
            events[-1] = event
            self.superseded += 1
            return
        if not isinstance(event, LinkStatus):
            if self._messages >= self.max_pending:
                self._drop_oldest_message()
            self._messages += 1
        events.append(event)

    def _drop_oldest_message(self) -> None:
        """The oldest waiting message goes (counted); a change of state is never dropped."""
        for i, waiting in enumerate(self._events):
            if not isinstance(waiting, LinkStatus):
                del self._events[i]
                self._messages -= 1
                self.overrun += 1
                return

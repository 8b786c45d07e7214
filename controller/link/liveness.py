"""The board session's timers, on the time it is given: when to ask the board again, and
the one PING whose PONG is awaited (the handshake's, or liveness's).

    live = Liveness(ping_interval_s=1.0, hello_retry_s=1.0, reply_timeout_s=0.5)
    live.started(now)                         # the first HELLO? is asked again after 1 s
    payload = live.ping(Purpose.HANDSHAKE, now)   # send PING(payload); its PONG is awaited
    live.answered(pong.payload)               # the purpose it answered, or None
    live.overdue(now) -> bool; live.give_up() -> Purpose
    live.due(now) -> bool                     # nothing awaited, and the wait is over
    live.wait(now, state)                     # the wait that the session's state calls for
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from controller.link.board_events import SessionState


class Purpose(Enum):
    """Why a PING was sent: its PONG proves the CONFIG was read, or the board is alive."""

    HANDSHAKE = "handshake"
    LIVENESS = "liveness"


@dataclass(frozen=True)
class _Awaited:
    purpose: Purpose
    payload: bytes
    deadline: float


class Liveness:
    """See the module docstring; pure bookkeeping, no I/O and no clock of its own."""

    def __init__(self, *, ping_interval_s: float | None, hello_retry_s: float,
                 reply_timeout_s: float) -> None:
        #: a playing board is PINGed this long after its last answer (None: never)
        self.ping_interval_s = ping_interval_s
        #: any other board is asked HELLO? again this often (a mismatched one 5 times less)
        self.hello_retry_s = hello_retry_s
        self.reply_timeout_s = reply_timeout_s
        self.missed = 0  # liveness PINGs missed in a row
        self._awaited: _Awaited | None = None
        self._next = math.inf
        self._counter = 0

    def started(self, now: float) -> None:
        self._awaited = None
        self.missed = 0
        self._next = now + self.hello_retry_s

    def wait(self, now: float, state: SessionState) -> None:
        """Nothing is asked of the board for as long as `state` calls for from `now`."""
        if state in (SessionState.ONLINE, SessionState.SCAN_FAILING):
            wait_s = self.ping_interval_s  # None: no liveness pings, wait for a new HELLO
        elif state is SessionState.MISMATCH:
            wait_s = 5 * self.hello_retry_s
        else:
            wait_s = self.hello_retry_s
        self._next = math.inf if wait_s is None else now + wait_s

    def next_payload(self) -> bytes:
        """A PING payload not used before (a counter)."""
        self._counter = (self._counter + 1) & 0xFFFFFFFF
        return self._counter.to_bytes(4, "little")

    def ping(self, purpose: Purpose, now: float) -> bytes:
        """The payload of a PING to send now, whose PONG is awaited `reply_timeout_s`."""
        payload = self.next_payload()
        self._awaited = _Awaited(purpose, payload, now + self.reply_timeout_s)
        return payload

    def answered(self, payload: bytes) -> Purpose | None:
        """The PONG with `payload` came: the purpose of the PING it answers (None: not
        the one awaited). A liveness PONG clears the misses."""
        awaited = self._awaited
        if awaited is None or awaited.payload != payload:
            return None
        self._awaited = None
        if awaited.purpose is Purpose.LIVENESS:
            self.missed = 0
        return awaited.purpose

    def overdue(self, now: float) -> bool:
        return self._awaited is not None and now >= self._awaited.deadline

    def give_up(self) -> Purpose:
        """Stop awaiting the overdue PONG; the purpose of its PING."""
        awaited = self._awaited
        assert awaited is not None
        self._awaited = None
        return awaited.purpose

    def missed_one(self) -> int:
        self.missed += 1
        return self.missed

    def forget(self) -> None:
        """No PONG is awaited any more (a board of another kind said HELLO)."""
        self._awaited = None

    def due(self, now: float) -> bool:
        return self._awaited is None and now >= self._next

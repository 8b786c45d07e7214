"""The board session's timers, on the time it is given: when to ask the board again, and
the one PING whose PONG is awaited (the handshake's, or liveness's).

    live = Liveness()
    live.started(now, 1.0)                    # the first HELLO? is asked again after 1 s
    live.pinged(Purpose.HANDSHAKE, b"....", deadline)
    live.answered(pong.payload)               # the purpose it answered, or None
    live.overdue(now) -> bool; live.give_up() -> Purpose
    live.due(now) -> bool                     # nothing awaited, and the wait is over
    live.wait(now, seconds_or_None)           # None: wait for the board, never ask
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum


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

    def __init__(self) -> None:
        self.missed = 0  # liveness PINGs missed in a row
        self._awaited: _Awaited | None = None
        self._next = math.inf

    def started(self, now: float, wait_s: float) -> None:
        self._awaited = None
        self.missed = 0
        self.wait(now, wait_s)

    def wait(self, now: float, wait_s: float | None) -> None:
        """Nothing is asked of the board for `wait_s` from `now` (None: until it speaks)."""
        self._next = math.inf if wait_s is None else now + wait_s

    def pinged(self, purpose: Purpose, payload: bytes, deadline: float) -> None:
        self._awaited = _Awaited(purpose, payload, deadline)

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

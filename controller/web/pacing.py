"""How fast one browser tab may send: a token bucket per WebSocket.

A hand on the page sends a few messages a second (a fast slide over the points a few
dozen in a burst); a flood of thousands a second would keep the event loop busy acting on
them and stall every other request. Over the rate a message is dropped unread (a count
is kept and told to the tab once a second), which costs next to nothing, so the rest of
the server keeps answering and the flooding tab's backlog never outlives it.
"""
from __future__ import annotations

from dataclasses import dataclass

RATE_PER_S = 100.0
BURST = 200.0
TELL_EVERY_S = 1.0


@dataclass
class Pacer:
    """A token bucket with a count of what it dropped."""

    rate: float = RATE_PER_S
    burst: float = BURST
    tokens: float = BURST
    last: float | None = None
    dropped: int = 0
    _told: float = float("-inf")
    _untold: int = 0

    def allow(self, now: float) -> bool:
        """Whether one more message may be acted on at `now` (else it is dropped)."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        self._untold += 1
        return False

    def notice(self, now: float) -> str | None:
        """The line to tell the tab about dropped messages, at most once a second."""
        if not self._untold or now - self._told < TELL_EVERY_S:
            return None
        text = f"ignored {self._untold} messages: more than {self.rate:.0f} a second"
        self._told, self._untold = now, 0
        return text

"""Hearing the server: an open connection that brings nothing is a dead one.

Keep-alive has two directions. We write (`client.Connection` sends a `pong` whenever it
wrote nothing for 20 s, since the server drops a client silent for 40 s). The server
writes too: bgammon's `handlePingClient` (pkg/server/server.go) sends every logged-in
client a `ping` every 30 s, whatever else it sends. So a connection that brought no line
at all for longer than two of those pings and a margin (`SILENCE_S`) has a dead peer,
a path that carries nothing back, or a stalled server: TCP itself may not notice for
many minutes (the issue's check waited 476 s and saw nothing). The connection then counts
as lost, and the session reconnects and rejoins as after any drop.

The clock is injected (`clock`, seconds); `Connection` gives it the event loop's.
"""
from __future__ import annotations

from collections.abc import Callable

#: how often the real server pings every client (pkg/server/server.go handlePingClient)
SERVER_PING_S = 30.0
#: no line for this long: the connection is dead (two pings missed, and 15 s to spare)
SILENCE_S = 2 * SERVER_PING_S + 15.0


class Hearing:
    """When the server was last heard, and whether that is too long ago."""

    def __init__(self, bound_s: float, clock: Callable[[], float]) -> None:
        if not bound_s > 0:
            raise ValueError(f"the silence bound must be above 0 s, not {bound_s!r}")
        self.bound_s = bound_s
        self._clock = clock
        self._last = clock()

    def heard(self) -> None:
        """A line came (any line: a ping, an event, a malformed one)."""
        self._last = self._clock()

    def left_s(self) -> float:
        """Seconds until the silence becomes too long (0 when it is already)."""
        return max(0.0, self._last + self.bound_s - self._clock())

    @property
    def deaf(self) -> bool:
        """Nothing heard for longer than the bound: the connection is dead."""
        return self.left_s() == 0.0

    def why(self) -> str:
        return f"no line from the server in {self.bound_s:g} s"

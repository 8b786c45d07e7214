"""The simulator's sockets kept in bounds: slow requests, too many of them, noisy logs.

aiohttp waits for a request's headers as long as the client likes: 1,100 connections that
never finished their headers stayed open 600 s and more, used up the process's 1,024
files (every save then failed, new tabs timed out), and each accept that failed, and each
malformed request (two Host headers), wrote a traceback to stderr (67,421 of them, 28.7 MB
in 17 s). So:

- :class:`ConnectionKeeper` looks at the server's connections every second: one that has
  not finished its first request within `header_s` is closed, and past `limit` open
  connections the newest without a request are closed first (a tab's WebSocket and a
  request being answered are never touched);
- :class:`OneLineServerLog` turns aiohttp's and asyncio's tracebacks for a bad request or
  a failed accept into one line, at most one a minute, with a count (the real cause
  named: "too many open files").
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

#: a request's headers must be in within this many seconds of the connection
HEADER_S = 10.0
#: open connections at most (a few tabs need a handful; far below 1,024 files)
MAX_CONNECTIONS = 256
#: a line about refused requests or failed accepts at most this often
LOG_EVERY_S = 60.0


class ConnectionKeeper:
    """Closes the connections of `server` (aiohttp's ``runner.server``) that take too long
    to ask or are too many (see the module docstring)."""

    def __init__(self, server: object, *, header_s: float = HEADER_S, limit: int = MAX_CONNECTIONS,
                 every_s: float = 1.0) -> None:
        self._server = server
        self.header_s = header_s
        self.limit = limit
        self.every_s = every_s
        self.closed = 0
        self._seen: dict[int, float] = {}  # id of a connection -> when first seen (aiohttp's have __slots__)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            self.sweep(time.monotonic())

    def sweep(self, now: float) -> None:
        """One look at every connection: close the slow ones, then the excess."""
        waiting = []
        connections = list(getattr(self._server, "connections", ()))
        self._seen = {id(h): self._seen.get(id(h), now) for h in connections}
        for handler in connections:
            since = self._seen[id(handler)]
            if getattr(handler, "_request_count", 1) or getattr(handler, "_request_in_progress", True):
                continue  # it asked (a page, a WebSocket): aiohttp's keep-alive bounds it
            if now - since >= self.header_s:
                self._close(handler)
            else:
                waiting.append((since, handler))
        excess = len(connections) - self.limit
        for _, handler in sorted(waiting, key=lambda w: -w[0])[:max(0, excess)]:
            self._close(handler)

    def _close(self, handler: object) -> None:
        self.closed += 1
        transport = getattr(handler, "transport", None)
        if transport is not None:
            transport.abort()


class OneLineServerLog(logging.Filter):
    """aiohttp's "Error handling request" and asyncio's failed accepts, each kind one line
    at most once a minute with a count, without the traceback."""

    def __init__(self, every_s: float = LOG_EVERY_S, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every_s = every_s
        self.clock = clock
        self.counts: dict[str, int] = {}
        self._told: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        kind = "a failed accept" if "accept" in record.getMessage() else "a malformed request"
        cause = getattr(exc, "strerror", None) or getattr(exc, "message", None) or str(exc)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        if now - self._told.get(kind, float("-inf")) < self.every_s:
            return False
        self._told[kind] = now
        record.msg, record.args = "%s: %s (%d so far)", (kind, " ".join(str(cause).split())[:160],
                                                        self.counts[kind])
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_server_logs() -> OneLineServerLog:
    """Put the one-line filter on aiohttp's server log and asyncio's (idempotent)."""
    for name in ("aiohttp.server", "asyncio"):
        logger = logging.getLogger(name)
        for found in logger.filters:
            if isinstance(found, OneLineServerLog):
                return found
    quiet = OneLineServerLog()
    for name in ("aiohttp.server", "asyncio"):
        logging.getLogger(name).addFilter(quiet)
    return quiet

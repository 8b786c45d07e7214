"""One TCP connection to a bgammon server: lines out, typed events in, kept alive.

The protocol is line based (PROTOCOL.md: "commands and events are separated by
newlines"). Before log-in the server speaks plain text (a `hello` line); `loginjson`
turns JSON events on, and from then on every line is one event (`events.decode_event`).
The server drops a client that writes nothing for 40 seconds, so a keep-alive task
writes a `pong` whenever nothing was written for `keepalive_s` (20 s by default), and
every `ping` is answered at once. The other way, the server pings every 30 s: a
connection that brings no line for `silence_s` (`hearing.SILENCE_S`) is dead even when
the socket stays open, and `next_event` says so with `ConnectionLost`.

Errors are one line each, as the command line reports them: `ServerUnreachable` when the
connection cannot be made, `LoginRefused` with the server's own reason, `ConnectionLost`
when an open connection ends.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import socket

from controller.bgammon import commands
from controller.bgammon.address import ServerAddress
from controller.errors import BgboardError
from controller.online.events import Notice, Ping, ProtocolError, ServerEvent, Welcome, decode_event
from controller.online.hearing import SILENCE_S, Hearing

#: the server drops a client silent for 40 s (pkg/server/server.go clientTimeout)
SERVER_TIMEOUT_S = 40.0
KEEPALIVE_S = 20.0
_MAX_LINE = 1 << 20


class OnlineError(BgboardError, ConnectionError):
    """Playing online failed; the message says why in one line."""


class ServerUnreachable(OnlineError):
    """The server could not be reached."""


class LoginRefused(OnlineError):
    """The server refused the log-in (its reason is the message)."""


class ConnectionLost(OnlineError):
    """An open connection to the server ended."""


class Connection:
    """An open, logged-in connection (build with :meth:`open`, then :meth:`login`)."""

    def __init__(self, address: ServerAddress, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, keepalive_s: float, silence_s: float = SILENCE_S) -> None:
        self.address = address
        self._reader = reader
        self._writer = writer
        self.keepalive_s = keepalive_s
        self.name = ""
        self.sent: list[str] = []  # every line written (tests and the log read it)
        self._last_write = asyncio.get_running_loop().time()
        self.hearing = Hearing(silence_s, asyncio.get_running_loop().time)
        self._keepalive: asyncio.Task[None] | None = None
        self.closed = False

    @classmethod
    async def open(cls, address: ServerAddress, *, timeout_s: float = 10.0,
                   keepalive_s: float = KEEPALIVE_S, silence_s: float = SILENCE_S) -> Connection:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(address.host, address.port, limit=_MAX_LINE), timeout_s)
        except asyncio.TimeoutError:
            raise ServerUnreachable(f"cannot reach {address}: no answer in {timeout_s:g} s") from None
        except socket.gaierror as exc:  # getaddrinfo's codes (-2) are not errno values: "Unknown error -2"
            raise ServerUnreachable(f"cannot reach {address}: {exc.strerror or 'the name is not known'}") from None
        except OSError as exc:
            reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc) or type(exc).__name__)
            raise ServerUnreachable(f"cannot reach {address}: {reason}") from None
        return cls(address, reader, writer, keepalive_s, silence_s)

    async def login(self, name: str | None = None, password: str | None = None,
                    timeout_s: float = 15.0) -> Welcome:
        """Log in (JSON on); returns the welcome, or raises LoginRefused with the reason."""
        await self.send(commands.login(name, password))
        last_notice = ""
        try:
            async with asyncio.timeout(timeout_s):
                while True:
                    line = await self._readline()
                    if line is None:
                        reason = last_notice.removeprefix("Connection terminated: ") or "it closed the connection"
                        raise LoginRefused(f"{self.address} refused the log-in: {reason}")
                    if not line.startswith("{"):
                        continue  # the plain-text hello sent before JSON is on
                    event = decode_event(line)
                    if isinstance(event, Notice):
                        last_notice = event.message
                    elif isinstance(event, Welcome):
                        self.name = event.player_name
                        self._keepalive = asyncio.create_task(self._keep_alive())
                        return event
        except TimeoutError:
            raise LoginRefused(f"{self.address} did not answer the log-in in {timeout_s:g} s") from None

    async def send(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError("a command is one line")
        if self.closed:
            raise ConnectionLost(f"the connection to {self.address} is closed")
        self.sent.append(line)
        self._last_write = asyncio.get_running_loop().time()
        try:
            self._writer.write(line.encode() + b"\n")
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:
            self.closed = True
            raise ConnectionLost(f"lost the connection to {self.address}: {exc}") from None

    async def next_event(self) -> ServerEvent:
        """The next event the caller has a use for (pings are answered here). Raises
        ConnectionLost at the end of the connection or when the server has been silent for
        `silence_s`, ProtocolError for a malformed line."""
        while True:
            line = await self._readline_heard()
            if line is None:
                self.closed = True
                raise ConnectionLost(f"lost the connection to {self.address}")
            if not line.strip():
                continue
            event = decode_event(line)
            if isinstance(event, Ping):
                await self.send(commands.pong(event.message))
                continue
            if event is not None:
                return event

    async def _readline_heard(self) -> str | None:
        """The next line, or ConnectionLost once the server has been silent too long."""
        while True:
            try:
                async with asyncio.timeout(self.hearing.left_s()):
                    return await self._readline()
            except TimeoutError:
                if self.hearing.deaf:
                    self.closed = True
                    raise ConnectionLost(f"lost the connection to {self.address}: "
                                         f"{self.hearing.why()}") from None

    async def _readline(self) -> str | None:
        try:
            raw = await self._reader.readline()
        except (OSError, asyncio.IncompleteReadError):
            return None
        except ValueError:
            raise ProtocolError(f"server sent a line longer than {_MAX_LINE} bytes") from None
        if not raw:
            return None
        self.hearing.heard()
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    async def _keep_alive(self) -> None:
        """Write something whenever nothing was written for `keepalive_s`."""
        loop = asyncio.get_running_loop()
        while not self.closed:
            due = self._last_write + self.keepalive_s
            if loop.time() >= due:
                with contextlib.suppress(ConnectionLost):
                    await self.send(commands.pong("keepalive"))
                continue
            await asyncio.sleep(due - loop.time())

    async def close(self) -> None:
        self.closed = True
        if self._keepalive is not None:
            self._keepalive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keepalive
        self._writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self._writer.wait_closed()

"""The connection to the server kept alive for a whole match, and the state that resumes it.

`OnlineSession.start()` connects, logs in and creates or joins the match (or, with a
saved state, rejoins the match it names); it returns the first board, or raises an
`OnlineError` whose message is the one line the command prints. Afterwards
`next_event()` hands out the server's events in order; when the connection drops it
(it ended, or brought no line for `silence_s`: a silent server is a dead one) hands out
`LinkDown`, reconnects with backoff (0.5 s, doubling, at most 30 s), logs in
under the same name (the server puts a returning player back into their match), and hands
out `LinkUp` before the board that follows.

The saved state (`online.json` in the state directory, written atomically) names the
server, the name we play under and the server's match number, so `bgboard online` after a
restart resumes that match instead of starting another.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Union

from controller.files import read_text_bounded, write_atomically
from controller.bgammon import commands
from controller.online.client import (KEEPALIVE_S, Connection, ConnectionLost, LoginRefused, OnlineError,
                                      ServerAddress)
from controller.online.events import Board, Failed, GameState, Joined, ServerEvent
from controller.online.hearing import SILENCE_S

STATE_FILE = "online.json"


@dataclass(frozen=True)
class MatchRequest:
    """What to play: create (public or private with a password, to `points`) or join a
    match by number or player name (with the private match's password)."""

    create: str | None = None
    points: int = 1
    join: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class SavedOnline:
    """Which server match a restart resumes."""

    server: str
    name: str
    game_id: int

    @classmethod
    def load(cls, path: Path) -> SavedOnline | None:
        try:
            data = json.loads(read_text_bounded(path))
            return cls(str(data["server"]), str(data["name"]), int(data["game_id"]))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            return None  # a torn or foreign file: start afresh rather than guess

    def save(self, path: Path) -> None:
        write_atomically(path, json.dumps(asdict(self)))


@dataclass(frozen=True)
class LinkDown:
    """The connection dropped; the session is reconnecting."""

    reason: str


@dataclass(frozen=True)
class LinkUp:
    """Reconnected and back in the match after `seconds` (a board follows)."""

    seconds: float
    attempts: int


SessionEvent = Union[ServerEvent, LinkDown, LinkUp]
Sleep = Callable[[float], Awaitable[None]]


class OnlineSession:
    """See the module docstring."""

    def __init__(self, address: ServerAddress, *, name: str | None = None, password: str | None = None,
                 request: MatchRequest | None = None, state_dir: Path | None = None,
                 keepalive_s: float = KEEPALIVE_S, silence_s: float = SILENCE_S,
                 answer_s: float = 15.0, rejoin_wait_s: float = 2.0,
                 backoff_s: tuple[float, float] = (0.5, 30.0), sleep: Sleep = asyncio.sleep) -> None:
        self.address = address
        self.name = name
        self.password = password
        self.request = request
        self.state_path = None if state_dir is None else state_dir / STATE_FILE
        self.keepalive_s = keepalive_s
        self.silence_s = silence_s  # no line for this long: the connection is dead (hearing.py)
        self.answer_s = answer_s
        self.rejoin_wait_s = rejoin_wait_s
        self.backoff_s = backoff_s
        self.sleep = sleep
        self.connection: Connection | None = None
        self.game_id = 0
        self.resumed = False  # start() rejoined the saved match (a restart), not a new one
        self.reconnects: list[float] = []  # seconds each reconnection took
        self._pending: list[ServerEvent] = []
        self._closing = False

    # -- start ------------------------------------------------------------------------
    def saved(self) -> SavedOnline | None:
        if self.state_path is None:
            return None
        saved = SavedOnline.load(self.state_path)
        return saved if saved is not None and saved.server == str(self.address) else None

    async def start(self) -> tuple[Joined, GameState]:
        """Connect, log in, create/join/rejoin; the joined event and the first board."""
        saved = self.saved() if self.request is None else None
        if self.request is None and saved is None:
            raise OnlineError(f"no match to resume on {self.address}: give --create or --join")
        name = saved.name if saved is not None else self.name
        connection = await Connection.open(self.address, keepalive_s=self.keepalive_s, silence_s=self.silence_s)
        try:
            await connection.login(_login_name(name), self.password, self.answer_s)
            self.connection = connection
            if saved is not None:
                joined, state = await self._rejoin(saved.game_id)
            else:
                assert self.request is not None
                joined, state = await self._create_or_join(self.request)
        except BaseException:
            await connection.close()
            self.connection = None
            raise
        self.name = connection.name
        self.game_id = joined.game_id
        self.resumed = saved is not None
        self._save()
        return joined, state

    async def _create_or_join(self, request: MatchRequest) -> tuple[Joined, GameState]:
        if request.create is not None:
            secret = request.password if request.create == "private" else None
            await self._send(commands.create(secret, request.points))
            what = f"create a {request.create} match"
        else:
            assert request.join is not None
            await self._send(commands.join(request.join, request.password))
            what = f"join match {request.join}"
        found = await self._await_joined(what, self.answer_s)
        assert found is not None  # not quiet: no answer raised
        joined, state = found
        if state.spectating:
            await self._send(commands.LEAVE)
            raise OnlineError(f"cannot {what} on {self.address}: it is full (two players already)")
        return joined, state

    async def _rejoin(self, game_id: int) -> tuple[Joined, GameState]:
        """Back into `game_id`: the server seats a returning player again by itself; if it
        has not within `rejoin_wait_s`, ask with `join`."""
        what = f"rejoin match {game_id}"
        found = await self._await_joined(what, self.rejoin_wait_s, quiet=True)
        if found is None:
            await self._send(commands.join(str(game_id)))
            found = await self._await_joined(what, self.answer_s)
        if found is None:
            raise OnlineError(f"cannot {what} on {self.address}: no answer")
        joined, state = found
        if joined.game_id != game_id or state.spectating:
            raise OnlineError(f"cannot {what} on {self.address}: the server seats us elsewhere")
        return joined, state

    async def _await_joined(self, what: str, timeout_s: float,
                            quiet: bool = False) -> tuple[Joined, GameState] | None:
        """Read until we joined and the board came (events after the joined wait in
        `_pending`). A timeout raises, or returns None when `quiet`."""
        assert self.connection is not None
        joined: Joined | None = None
        me = self.connection.name
        try:
            async with asyncio.timeout(timeout_s):
                while True:
                    event = await self.connection.next_event()
                    if isinstance(event, Failed) and event.what in ("create", "join"):
                        raise OnlineError(f"cannot {what} on {self.address}: {event.reason}")
                    if isinstance(event, Joined) and event.player == me and joined is None:
                        joined = event
                    elif isinstance(event, Board) and joined is not None:
                        return joined, event.state
                    elif joined is not None:
                        self._pending.append(event)
        except TimeoutError:
            if quiet and joined is None:
                return None
            raise OnlineError(f"cannot {what} on {self.address}: no answer in {timeout_s:g} s") from None

    # -- running ------------------------------------------------------------------------
    async def send(self, line: str) -> bool:
        """Send a command; False (and nothing sent) while the connection is down."""
        try:
            await self._send(line)
        except ConnectionLost:
            return False
        return True

    async def _send(self, line: str) -> None:
        if self.connection is None:
            raise ConnectionLost(f"not connected to {self.address}")
        await self.connection.send(line)

    async def next_event(self) -> SessionEvent:
        """The next event; LinkDown once when the connection drops (then `reconnect()`)."""
        if self._pending:
            return self._pending.pop(0)
        if self.connection is None:
            return await self.reconnect()
        try:
            return await self.connection.next_event()
        except ConnectionLost as exc:
            await self.connection.close()
            self.connection = None
            return LinkDown(str(exc))

    async def reconnect(self) -> LinkUp:
        """After LinkDown: try until back in the match; LinkUp (the board follows). An
        OnlineError when the server no longer has the match."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        delay, ceiling = self.backoff_s
        attempts = 0
        while not self._closing:
            attempts += 1
            await self.sleep(delay)
            try:
                connection = await Connection.open(self.address, keepalive_s=self.keepalive_s,
                                                   silence_s=self.silence_s, timeout_s=5.0)
            except OnlineError:
                delay = min(delay * 2, ceiling)
                continue
            try:
                await connection.login(_login_name(self.name), self.password, self.answer_s)
                self.connection = connection
                joined, state = await self._rejoin(self.game_id)
            except LoginRefused:
                # our old connection may not be gone on the server yet ("name in use")
                await connection.close()
                self.connection = None
                delay = min(delay * 2, ceiling)
                continue
            except (ConnectionLost, OnlineError) as exc:
                await connection.close()
                self.connection = None
                if isinstance(exc, OnlineError) and not isinstance(exc, ConnectionLost) \
                        and "not found" in str(exc).lower():
                    raise
                delay = min(delay * 2, ceiling)
                continue
            seconds = loop.time() - began
            self.reconnects.append(seconds)
            self._pending.insert(0, Board(state))
            return LinkUp(seconds, attempts)
        raise ConnectionLost(f"stopped reconnecting to {self.address}")

    def _save(self) -> None:
        if self.state_path is not None and self.name:
            SavedOnline(str(self.address), self.name, self.game_id).save(self.state_path)

    def forget(self) -> None:
        """The match is over: a restart starts afresh."""
        if self.state_path is not None and self.state_path.exists():
            self.state_path.unlink()

    async def close(self) -> None:
        self._closing = True
        if self.connection is not None:
            await self.connection.close()
            self.connection = None


def _login_name(name: str | None) -> str | None:
    """The name to log in with: the one the server gave us last time (a guest's
    `Guest_x` comes back as itself), or the user's; none lets the server choose."""
    return name or None


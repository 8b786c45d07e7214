"""`bgboard online --watch ID|USER`: a spectator of a server match, read-only.

Joining a match whose two seats are taken makes a client its spectator (bgammon's
`addClient`): it receives every `board`, `rolled`, `moved` and `win` of the match and may
send nothing that plays. But a `join` seats a client as a player wherever a seat is free,
so a match asked for by its number is looked up first (`list`: its `Players`) and one with
a free seat is refused with one line before any `join` (the player waiting there sees
nobody come and go); a `join` by a player's name that seated us anyway (the list does not
name the players) is left at once with the same line. Besides that `list`, this client
sends nothing but its log-in, the `join` that starts watching, the `leave` that ends it
and the keep-alive `pong`.

The server shows a spectator every game from player 1's side: player 1 is White here,
player 2 Black, and `server_match.match_from_state` makes the engine's match of each board
(White as its "local" seat, so `perspective` converts it, as for a player). What is shown
(`WatchedMatch.scene`): the display's dice, cube, score and pips with "Watching A - B";
the LEDs light the move of the turn so far, and after it the last move, as `last-from` /
`last-to`. The board's checkers need not follow: nothing here reads the sensors.

`Spectator.run()` is `start()` (connect, log in, join: the one line of a failure) then
`follow()` until the match is over; `leave()` ends following early, with the `leave`.
The board's menu watches through the same spectator (controller/online/door.py).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.engine.board_view import Colour, cell_of_point
from controller.engine.match import Match
from controller.engine.wording import counted
from controller.engine.match_settings import MatchSettings
from controller.bgammon import commands
from controller.bgammon.address import ServerAddress
from controller.online.client import Connection, ConnectionLost, OnlineError
from controller.online.events import (Board, Failed, GameState, Joined, Left, MatchList, Moved, Rolled,
                                      Say, ServerEvent, Win)
from controller.online.perspective import Seat, point_of_space
from controller.online.server_match import match_from_state
from controller.show.content import Prompt, Scene
from controller.show.match_content import match_content
from controller.show.scene import ControllerView, build_scene

SEATS: dict[int, tuple[Seat, Colour]] = {1: ("local", "white"), 2: ("remote", "black")}
Show = Callable[[Scene], None]


@dataclass
class WatchedMatch:
    """The match as the spectator last saw it, and what it shows (see the module docstring)."""

    state: GameState
    language: str = "en"
    lit: tuple[tuple[str, str], ...] = ()  # (from cell, to cell) of the move lit
    over: bool = False
    chat: list[str] = field(default_factory=list)  # "player: message", oldest first (across rejoins)

    def name(self, number: int) -> str:
        player = self.state.player1 if number == 1 else self.state.player2
        return player.name or f"player {number}"

    def players(self) -> str:
        return f"{self.name(1)} (White) v {self.name(2)} (Black)"

    def number_of(self, name: str) -> int:
        return 1 if name == self.state.player1.name else 2

    def on_event(self, event: ServerEvent) -> list[str]:
        """What `event` tells a spectator, as lines for the log (state kept here)."""
        if isinstance(event, Board):
            return self._board(event.state)
        if isinstance(event, Rolled):
            dice = "-".join(str(d) for d in (event.roll1, event.roll2) if d)
            return [f"{event.player} rolls {dice}"]
        if isinstance(event, Moved):
            seat, _ = SEATS[self.number_of(event.player)]
            steps = [f"{commands.space(point_of_space(a, seat), frm=True)}/"
                     f"{commands.space(point_of_space(b, seat), frm=False)}" for a, b in event.moves]
            return [f"{event.player} moves {' '.join(steps)}"]
        if isinstance(event, Win):
            how = f" ({event.resigned} resigned)" if event.resigned else ""
            points = f" {counted(event.points, 'point')}" if event.points else ""
            return [f"{event.player} wins the game{points}{how}"]
        if isinstance(event, Say):
            self.chat.append(f"{event.player}: {event.message}")
            return [f"chat {self.chat[-1]}"]
        if isinstance(event, Left):
            return [f"{event.player} left the match"]
        if isinstance(event, Joined):
            return [f"{event.player} joined match {event.game_id}"]
        return []

    def _board(self, state: GameState) -> list[str]:
        prev, self.state = self.state, state
        lines = []
        if state.double_offered and not prev.double_offered:
            lines.append(f"{self.name(state.turn)} doubles to {2 * state.double_value}")
        elif state.double_value > prev.double_value and state.winner == 0:
            lines.append(f"{self.name(state.double_player)} takes: the cube is on {state.double_value}")
        if state.moves and state.turn in SEATS:
            seat, colour = SEATS[state.turn]
            self.lit = tuple((cell_of_point(point_of_space(a, seat), colour),
                              cell_of_point(point_of_space(b, seat), colour)) for a, b in state.moves)
        if state.turn == 0 or (state.winner and not prev.winner):
            if (state.player1.points, state.player2.points) != (prev.player1.points, prev.player2.points):
                lines.append(f"score {self.name(1)} {state.player1.points} - {state.player2.points} {self.name(2)}")
            if state.turn == 0:
                self.lit = ()
        if state.winner and max(state.player1.points, state.player2.points) >= state.points:
            self.over = True
            won, lost = (state.player1, state.player2) if state.winner == 1 else (state.player2, state.player1)
            lines.append(f"match over: {self.name(state.winner)} wins {won.points}-{lost.points} "
                         f"({self.name(1)} {state.player1.points} - {state.player2.points} {self.name(2)})")
        return lines

    def match(self) -> Match:
        settings = MatchSettings(length=self.state.points, white=self.name(1), black=self.name(2))
        return match_from_state(self.state, settings)

    def scene(self, now: float = 0.0, banner: Prompt | None = None) -> Scene:
        """The display and LEDs for the match as it stands (`banner` in place of the line)."""
        m = self.match()
        prompt = banner or Prompt.of("watching", text=f"{self.name(1)} - {self.name(2)}")
        view = ControllerView(table=match_content(m, now), language=self.language, mover=m.turn,
                              last_move=self.lit, show_last=bool(self.lit), prompt=prompt)
        return build_scene(view)


@dataclass
class WatchResult:
    over: bool = False
    score: tuple[int, int] = (0, 0)  # (player 1, player 2)
    lines: list[str] = field(default_factory=list)
    reconnects: int = 0


class Spectator:
    """Watch one server match until it is over (or `seconds` pass); see the module docstring."""

    def __init__(self, address: ServerAddress, target: str, *, password: str | None = None,
                 language: str = "en", show: Show | None = None, on_line: Callable[[str], None] | None = None,
                 backoff_s: tuple[float, float] = (0.5, 30.0), answer_s: float = 15.0) -> None:
        self.address = address
        self.join_line = commands.join(target, password)
        self.target = target
        self.password = password
        self.language = language
        self.show = show or (lambda scene: None)
        self.on_line = on_line or (lambda line: None)
        self.backoff_s = backoff_s
        self.answer_s = answer_s
        self.watched: WatchedMatch | None = None
        self.result = WatchResult()
        self.sent: list[str] = []  # the commands written (log-in and keep-alive aside)
        self.names: list[str] = []  # the guest name of each connection
        self.game_id = 0  # the server's number of the match watched, once joined
        self.rejoining = False  # the connection dropped: rejoining with backoff
        self._connection: Connection | None = None
        self._leave = asyncio.Event()

    def note(self, line: str) -> None:
        self.result.lines.append(line)
        self.on_line(line)

    async def run(self, seconds: float | None = None) -> WatchResult:
        """`start()`, then `follow(seconds)`."""
        await self.start()
        return await self.follow(seconds)

    async def start(self) -> None:
        """Connect, log in and join as a spectator (OnlineError, ConnectionLost: one line)."""
        self._connection = await self._watch()

    def leave(self) -> None:
        """Stop watching: `follow()` sends `leave` and returns."""
        self._leave.set()

    async def follow(self, seconds: float | None = None) -> WatchResult:
        """Watch after `start()` until the match is over, `seconds` pass or `leave()`."""
        connection, self._connection = self._connection, None
        assert connection is not None, "start() first"
        try:
            async with asyncio.timeout(seconds):
                await self._follow(connection)
        except TimeoutError:
            pass
        finally:
            if self.watched is not None:
                s = self.watched.state
                self.result.score = (s.player1.points, s.player2.points)
                self.result.over = self.watched.over
        return self.result

    async def _watch(self) -> Connection:
        """Connect, log in as a guest and join as a spectator; one line on failure."""
        connection = await Connection.open(self.address)
        try:
            await connection.login(None, None, self.answer_s)
            self.names.append(connection.name)
            if self.watched is None and self.target.isdigit():
                await self._refuse_a_free_seat(connection)
            await self._send(connection, self._join_line())
            joined, state = await self._joined(connection)
            self.game_id = joined.game_id
        except BaseException:
            await connection.close()
            raise
        if self.watched is None:
            self.watched = WatchedMatch(state, self.language)
            self.note(f"watching match {joined.game_id} on {self.address}: {self.watched.players()}")
            for line in self.watched.on_event(Board(state)):  # a match already over ends here
                self.note(line)
        else:  # back after a drop: what happened meanwhile is in this board
            self.note(f"back watching match {joined.game_id} on {self.address}")
            for line in self.watched.on_event(Board(state)):
                self.note(line)
        self._show()
        return connection

    def _join_line(self) -> str:
        """The `join` of this connection: the target first; after a drop the match's number,
        since bgammon finds a match by a player's name only while that player is connected
        (a player away at that moment would make the match "not found" and end watching)."""
        if self.watched is None:
            return self.join_line
        return commands.join(str(self.game_id), self.password)

    async def _refuse_a_free_seat(self, connection: Connection) -> None:
        """bgammon's `join` seats us as a player in a match with a free seat, and the player
        waiting there sees an opponent come and go: a match asked for by its number is
        looked up in the server's list (`Players`) first and refused before any `join`."""
        await self._send(connection, commands.LIST)
        try:
            async with asyncio.timeout(self.answer_s):
                while not isinstance(event := await connection.next_event(), MatchList):
                    pass
        except TimeoutError:
            raise OnlineError(f"cannot {self._what} on {self.address}: no answer in {self.answer_s:g} s") from None
        if any(g.id == int(self.target) and g.players < 2 for g in event.games):
            raise self._free_seat()

    @property
    def _what(self) -> str:
        return f"watch match {self.target}"

    def _free_seat(self) -> OnlineError:
        return OnlineError(f"cannot {self._what} on {self.address}: it has a free seat (watching would take it)")

    async def _joined(self, connection: Connection) -> tuple[Joined, GameState]:
        what = self._what
        joined: Joined | None = None
        try:
            async with asyncio.timeout(self.answer_s):
                while True:
                    event = await connection.next_event()
                    if isinstance(event, Failed) and event.what == "join":
                        raise OnlineError(f"cannot {what} on {self.address}: {event.reason}")
                    if isinstance(event, Joined) and event.player == connection.name:
                        joined = event
                    elif isinstance(event, Board) and joined is not None:
                        if not event.state.spectating:
                            await self._send(connection, commands.LEAVE)
                            raise self._free_seat()
                        return joined, event.state
        except TimeoutError:
            raise OnlineError(f"cannot {what} on {self.address}: no answer in {self.answer_s:g} s") from None

    async def _send(self, connection: Connection, line: str) -> None:
        self.sent.append(line)
        await connection.send(line)

    async def _follow(self, connection: Connection) -> None:
        assert self.watched is not None
        try:
            while not self.watched.over and not self._leave.is_set():
                try:
                    event = await self._next(connection)
                except ConnectionLost as exc:
                    await connection.close()
                    connection = await self._rejoin(str(exc))
                    continue
                if event is None:
                    break  # left
                for line in self.watched.on_event(event):
                    self.note(line)
                self._show()
            await self._send(connection, commands.LEAVE)
        finally:
            await connection.close()

    async def _next(self, connection: Connection) -> ServerEvent | None:
        """The next event of the match, or None when `leave()` came first."""
        read = asyncio.ensure_future(connection.next_event())
        left = asyncio.ensure_future(self._leave.wait())
        try:
            await asyncio.wait({read, left}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            left.cancel()
            if not read.done():
                read.cancel()
                await asyncio.gather(read, return_exceptions=True)
        return read.result() if read.done() and not read.cancelled() else None

    async def _rejoin(self, reason: str) -> Connection:
        assert self.watched is not None
        self.note(f"connection lost, rejoining ({reason})")
        self.show(self.watched.scene(banner=Prompt.of("server_lost")))
        delay, ceiling = self.backoff_s
        self.rejoining = True
        try:
            while True:
                await asyncio.sleep(delay)
                try:
                    connection = await self._watch()
                except (ConnectionLost, OnlineError) as exc:
                    if "not found" in str(exc).lower():
                        raise
                    delay = min(delay * 2, ceiling)
                    continue
                self.result.reconnects += 1
                return connection
        finally:
            self.rejoining = False

    def _show(self) -> None:
        assert self.watched is not None
        self.show(self.watched.scene())

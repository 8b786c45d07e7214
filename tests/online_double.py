"""A bgammon server double over real TCP on loopback, written from the protocol.

Sources: bgammon's PROTOCOL.md (commands, events, the 40 s rule) and its Go types
(`event.go`, `game.go`, `gamestate.go`, `pkg/server/game.go` sendBoard/addClient,
`pkg/server/server_command.go`). Only the backgammon variant. What it keeps from the
real server, because the client depends on it:

- a plain-text `hello` line before log-in; `loginjson <client> [name] [password]`;
  guests are called `Guest_<name>` (or a random `Guest_NNN`); a password is checked
  against `accounts` and a wrong one ends the connection after a `notice`;
- every game as player 1 sees it: the raw board keeps player 1's checkers positive,
  moving 24 -> 1 (off 0, bar 26) and player 2's negative (off 25, bar 27); a player 2 client
  receives it turned around (`_view`), as do its `moved` pairs and opening dice;
- commands in the sender's own numbering; one step per `move` pair is checked against the
  legal steps; `ok` ends the turn only when no step is left; the next turn is rolled by the
  server unless that player may double; `reset`, `double`, `ok` as take, `resign` (as
  drop or resign), `rematch`, `say` (to the opponent only), `leave`;
- a returning player logging in under the same name is put back into their match;
- a client that writes nothing for `timeout_s` is dropped; `ping` every `ping_s`.

Test controls: `dice` (queued rolls), `drop(name)` (the network fails under a client),
`inject(name, line)` (any line, malformed ones too), `after_join` (a line sent to whoever
joins), `received` (lines per client), `accounts`, `rogue_move` (the next `moved` a
client receives is replaced by this line), `board_fields` (fields every board event is
sent with instead of the game's: a die of 0, a board of 14 checkers...), `silence(name)`
(the server stalls for a client: the socket stays open and is read, but nothing is done
and nothing comes back, pings included).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
import json
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from controller.engine.position import Position
from controller.engine.turn import TurnPlan

HOME1, HOME2, BAR1, BAR2 = 0, 25, 26, 27


def new_board() -> list[int]:
    b = [0] * 28
    b[24], b[1] = 2, -2
    b[19], b[6] = -5, 5
    b[17], b[8] = -3, 3
    b[13], b[12] = 5, -5
    return b


def flip_space(space: int, player: int) -> int:
    """FlipSpace of game.go: player 2's numbering <-> the raw board's."""
    if player == 1:
        return space
    return {HOME1: HOME2, HOME2: HOME1, BAR1: BAR2, BAR2: BAR1}.get(space, 25 - space)


def position_for(board: list[int], player: int) -> Position:
    """The raw board as the engine's position seen by `player` (for checking steps)."""
    p1 = [0] * 25
    p2 = [0] * 25
    for s in range(1, 25):
        if board[s] > 0:
            p1[s - 1] = board[s]
        elif board[s] < 0:
            p2[24 - s] = -board[s]
    p1[24], p2[24] = board[BAR1], -board[BAR2]
    return Position(tuple(p1), tuple(p2)) if player == 1 else Position(tuple(p2), tuple(p1))


async def until(what: str, check: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait (the double and whatever else runs on this loop go on meanwhile) until `check()`:
    never a fixed pause, which a loaded machine can outrun."""
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.01)
    assert check(), what


@dataclass
class Client:
    writer: asyncio.StreamWriter
    name: str = ""
    json: bool = False
    number: int = 0  # 1, 2, or 0 when not seated
    last_read: float = 0.0
    silent: bool = False  # nothing is sent to it (`BgammonDouble.silence`)

    def send(self, payload: dict[str, Any] | str) -> None:
        if self.silent:
            return
        line = payload if isinstance(payload, str) else json.dumps(payload)
        try:
            self.writer.write(line.encode() + b"\n")
        except (ConnectionError, RuntimeError):
            pass


@dataclass
class Game:
    id: int
    points: int
    password: str = ""
    clients: dict[int, Client | None] = field(default_factory=lambda: {1: None, 2: None})
    names: dict[int, str] = field(default_factory=lambda: {1: "", 2: ""})
    allowed: dict[int, str] = field(default_factory=dict)
    spectators: list[Client] = field(default_factory=list)
    board: list[int] = field(default_factory=new_board)
    turn: int = 0
    roll1: int = 0
    roll2: int = 0
    moves: list[list[int]] = field(default_factory=list)
    states: list[list[int]] = field(default_factory=list)
    winner: int = 0
    score: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0})
    crawford: int = 0
    double_value: int = 1
    double_player: int = 0
    double_offered: bool = False
    rematch: int = 0
    ended: bool = False

    def everyone(self) -> list[Client]:
        return [c for c in (self.clients[1], self.clients[2]) if c is not None] + list(self.spectators)

    def dice_left(self) -> tuple[int, int] | None:
        return (self.roll1, self.roll2) if self.roll1 and self.roll2 and self.turn else None

    def plan(self) -> TurnPlan | None:
        dice = self.dice_left()
        if dice is None:
            return None
        start = list(self.states[0]) if self.states else list(self.board)
        return TurnPlan(position_for(start, self.turn), dice)

    def legal_steps(self) -> list[tuple[int, int]]:
        plan = self.plan()
        if plan is None:
            return []
        if len(self.moves) >= plan.steps_needed:
            return []  # every die that can be used is used (the same position can be
            # reached with dice left: 5/off with the 6, or 5/4/off with both)
        now = position_for(self.board, self.turn)
        return [(s.frm, s.to) for s in plan.next_steps(now)]

    def may_double(self, player: int) -> bool:
        return (self.points != 1 and self.turn == player and self.roll1 == 0 and not self.double_offered
                and self.double_player in (0, player) and self.double_value < 64 and self.crawford != 1
                and self.winner == 0)


class Wire:
    """A client's connection kept in memory: the lines the double writes to it, in order
    (`BgammonDouble.seat_offline`: the double's own game logic without a network)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, data: bytes) -> None:
        self.lines.extend(data.decode().splitlines())

    def take(self) -> list[str]:
        """The lines written since the last take."""
        taken, self.lines = self.lines, []
        return taken


class BgammonDouble:
    """See the module docstring. `async with BgammonDouble(port) as server:`."""

    def __init__(self, port: int, *, timeout_s: float = 40.0, ping_s: float = 30.0, seed: int = 7) -> None:
        self.port = port
        self.timeout_s = timeout_s
        self.ping_s = ping_s
        self.rng = random.Random(seed)
        self.dice: deque[tuple[int, int]] = deque()
        self.accounts: dict[str, str] = {}
        self.received: dict[str, list[str]] = {}
        self.clients: list[Client] = []
        self.games: list[Game] = []
        self.rogue_move: str | None = None
        self.after_join: str | None = None  # a line sent to whoever joins a match (malformed ones too)
        self.board_fields: dict[str, Any] = {}  # sent in every board event instead of the game's
        self.logins = 0
        self._pending_opening: tuple[int, int] | None = None
        self._next_game = 1
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> BgammonDouble:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for c in list(self.clients):
            c.writer.close()
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- controls ----------------------------------------------------------------------
    def client(self, name: str) -> Client:
        return next(c for c in self.clients if c.name == name)

    def drop(self, name: str) -> None:
        """The network fails under `name`'s connection."""
        self.client(name).writer.transport.abort()

    def silence(self, name: str) -> None:
        """The server stalls for `name`: its connection stays open, it is read, nothing comes back."""
        self.client(name).silent = True

    def inject(self, name: str, line: str) -> None:
        self.client(name).send(line)

    def game_of(self, name: str) -> Game | None:
        for g in self.games:
            if any(c is not None and c.name == name for c in g.clients.values()) or \
                    any(s.name == name for s in g.spectators):
                return g
        return None

    def _die(self) -> int:
        return self.rng.randint(1, 6)

    def _roll(self) -> tuple[int, int]:
        return self.dice.popleft() if self.dice else (self._die(), self._die())

    def seat_offline(self, game: Game, name: str, number: int) -> tuple[Client, Wire]:
        """`name` seated as player `number` of `game` over a `Wire`: the double's commands
        (`_do_double`, `_do_resign`...) then write to the wire exactly what a connected
        client would read."""
        wire = Wire()
        client = Client(wire, name=name, json=True)  # type: ignore[arg-type]
        self.clients.append(client)
        if game not in self.games:
            self.games.append(game)
        self._seat(game, client, number)
        return client, wire

    # -- connection ----------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        loop = asyncio.get_running_loop()
        client = Client(writer, last_read=loop.time())
        self.clients.append(client)
        client.send("hello Welcome to bgammon.org! Please log in by sending the 'login' command.")
        pinger = asyncio.create_task(self._ping(client))
        try:
            while True:
                try:
                    line = await asyncio.wait_for(reader.readline(), self.timeout_s)
                except asyncio.TimeoutError:
                    break  # silent for too long: dropped, as the real server does
                if not line:
                    break
                client.last_read = loop.time()
                text = line.decode().strip()
                self.received.setdefault(client.name or "(before log-in)", []).append(text)
                if client.silent:
                    continue  # stalled: read, never acted on
                if not self._command(client, text):
                    break
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            pinger.cancel()
            self._gone(client)
            writer.close()
            self._tasks.discard(task)

    async def _ping(self, client: Client) -> None:
        while True:
            await asyncio.sleep(self.ping_s)
            if client.name:
                client.send({"Type": "ping", "Player": "", "Message": "1"})

    def _gone(self, client: Client) -> None:
        if client in self.clients:
            self.clients.remove(client)
        game = self.game_of(client.name) if client.name else None
        if game is None:
            return
        if client in game.spectators:
            game.spectators.remove(client)
            return
        game.clients[client.number] = None
        for c in game.everyone():
            c.send({"Type": "left", "Player": client.name})

    # -- commands ------------------------------------------------------------------------
    def _command(self, c: Client, text: str) -> bool:
        keyword, _, rest = text.partition(" ")
        keyword = keyword.lower()
        params = rest.split()
        if not c.name:
            if keyword not in ("login", "loginjson", "lj"):
                return True
            return self._login(c, keyword, params)
        game = self.game_of(c.name)
        handler = getattr(self, f"_do_{keyword}", None)
        if keyword == "pong":
            return True
        if handler is None:
            c.send({"Type": "notice", "Player": "", "Message": f"Unknown command: {keyword}"})
            return True
        if game is not None and c in game.spectators and keyword not in ("leave", "board", "list"):
            c.send({"Type": "notice", "Player": "", "Message": "Command ignored: You are spectating this match."})
            return True
        return handler(c, game, params) is not False

    def _login(self, c: Client, keyword: str, params: list[str]) -> bool:
        c.json = keyword != "login"
        args = params[1:] if c.json else params
        name = args[0] if args else ""
        password = "_".join(args[1:]) if len(args) > 1 else ""
        if password:
            if self.accounts.get(name.lower()) != password:
                c.send({"Type": "notice", "Player": "", "Message": "Connection terminated: No account was found "
                        "with the provided username and password. To log in as a guest, do not enter a password."})
                return False
            full = name.lower()
        elif not name:
            full = f"Guest_{self.rng.randint(100, 999)}"
        else:
            low = name.lower()
            full = "Guest_" + (low[len("guest_"):] if low.startswith("guest_") else low)
        if any(x.name.lower() == full.lower() for x in self.clients):
            c.send({"Type": "notice", "Player": "", "Message": "Connection terminated: That username is already in use."})
            return False
        c.name = full
        self.logins += 1
        self.received.setdefault(full, [])
        c.send({"Type": "welcome", "Player": "", "PlayerName": full, "Clients": len(self.clients),
                "Games": len(self.games)})
        c.send({"Type": "list", "Player": "", "Games": [self._listing(g) for g in self.games]})
        c.send({"Type": "notice", "Player": "", "Message": "Connect with other players. Visit bgammon.org/community"})
        for g in self.games:  # rejoin a match in progress
            for n in (1, 2):
                if g.allowed.get(n) == full and g.clients[n] is None and g.winner == 0:
                    self._seat(g, c, n)
                    c.send({"Type": "notice", "Player": "", "Message": f"Rejoined match: {g.id}"})
        return True

    def _listing(self, g: Game) -> dict[str, Any]:
        return {"ID": g.id, "Password": bool(g.password), "Points": g.points,
                "Players": sum(1 for x in g.clients.values() if x), "Rating": 0, "Name": f"match {g.id}"}

    def _do_create(self, c: Client, game: Game | None, params: list[str]) -> None:
        def fail(reason: str) -> None:
            c.send({"Type": "failedcreate", "Player": "", "Reason": reason})
        if game is not None:
            return fail("Please leave the match you are in before creating another.")
        if len(params) < 3 or params[0] not in ("public", "private"):
            return fail("To create a public match please specify whether it is public or private.")
        password = ""
        if params[0] == "private":
            if len(params) < 4:
                return fail("When creating a private match, a password must also be provided.")
            password, params = params[1].replace("_", " "), params[1:]
        if not params[1].isdigit() or int(params[1]) < 1 or params[2] != "0":
            return fail("To create a public match please specify how many points are needed to win the match.")
        g = Game(self._next_game, min(int(params[1]), 127), password)
        self._next_game += 1
        self.games.append(g)
        self._seat(g, c, 1 if self.rng.random() < 0.5 else 2)
        c.send({"Type": "notice", "Player": "", "Message": f"Created match: match {g.id}"})

    def _do_join(self, c: Client, game: Game | None, params: list[str]) -> None:
        def fail(reason: str) -> None:
            c.send({"Type": "failedjoin", "Player": "", "Reason": reason})
        if game is not None:
            return fail("Please leave the match you are in before joining another.")
        if not params:
            c.send({"Type": "notice", "Player": "", "Message": "To join a match please specify its ID."})
            return None
        target = params[0]
        found = next((g for g in self.games if str(g.id) == target or target.lower() in
                      (n.lower() for n in g.names.values() if n)), None)
        if found is None:
            return fail("Match not found.")
        given = " ".join(params[1:]).replace("_", " ")
        if found.password and given != found.password:
            return fail("Invalid password.")
        free = [n for n in (1, 2) if found.clients[n] is None]
        if found.allowed and c.name not in found.allowed.values():
            free = []
        if not free:
            found.spectators.append(c)
            c.number = 1
            c.send({"Type": "joined", "Player": c.name, "GameID": found.id, "PlayerNumber": 1})
            self._board(found, c)
            c.send({"Type": "notice", "Player": "", "Message": "You are spectating this match."})
            return None
        self._seat(found, c, free[0])
        if self.after_join is not None:
            c.send(self.after_join)
        return None

    def _seat(self, g: Game, c: Client, n: int) -> None:
        g.clients[n] = c
        g.names[n] = c.name
        c.number = n
        c.send({"Type": "joined", "Player": c.name, "GameID": g.id, "PlayerNumber": 1})
        self._board(g, c)
        for other in g.everyone():
            if other is not c:
                other.send({"Type": "joined", "Player": c.name, "GameID": g.id, "PlayerNumber": 2})
                self._board(g, other)

    def _do_leave(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None:
            c.send({"Type": "failedleave", "Player": "", "Reason": "You are not currently in a match."})
            return
        if c in game.spectators:
            game.spectators.remove(c)
        else:
            game.clients[c.number] = None
            game.allowed.pop(c.number, None)
        for x in game.everyone() + [c]:
            x.send({"Type": "left", "Player": c.name})

    def _do_board(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is not None:
            self._board(game, c)

    def _do_say(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None or not params:
            return
        other = game.clients[3 - c.number]
        if other is not None:
            other.send({"Type": "say", "Player": c.name, "Message": " ".join(params)})

    def _both(self, game: Game | None) -> bool:
        return game is not None and game.clients[1] is not None and game.clients[2] is not None

    def _do_roll(self, c: Client, game: Game | None, params: list[str]) -> None:
        if not self._both(game) or game is None or game.winner:
            c.send({"Type": "failedroll", "Player": "", "Reason": "You may not roll until your opponent rejoins the match."})
            return
        n = c.number
        if game.turn == 0:
            if (n == 1 and game.roll1) or (n == 2 and game.roll2):
                c.send({"Type": "failedroll", "Player": "", "Reason": "It is not your turn to roll."})
                return
            if not game.allowed:
                game.allowed = {1: game.names[1], 2: game.names[2]}
            if self.dice and not (game.roll1 or game.roll2):
                w, b = self.dice.popleft()  # a queued opening roll: (player 1's die, player 2's)
                self._pending_opening = (w, b)
            pending = self._pending_opening
            die = (pending[0] if n == 1 else pending[1]) if pending else self._die()
            if n == 1:
                game.roll1 = die
            else:
                game.roll2 = die
            for x in game.everyone():
                r1, r2 = game.roll1, game.roll2
                if x.number == 2:
                    r1, r2 = r2, r1
                x.send({"Type": "rolled", "Player": c.name, "Roll1": r1, "Roll2": r2, "Roll3": 0, "Selected": False})
            if game.roll1 and game.roll2:
                self._pending_opening = None
                while game.roll1 == game.roll2:
                    game.roll1, game.roll2 = self._die(), self._die()
                    for x in game.everyone():
                        r1, r2 = (game.roll1, game.roll2) if x.number != 2 else (game.roll2, game.roll1)
                        x.send({"Type": "rolled", "Player": game.names[1], "Roll1": r1, "Roll2": 0})
                        x.send({"Type": "rolled", "Player": game.names[2], "Roll1": r1, "Roll2": r2})
                game.turn = 1 if game.roll1 > game.roll2 else 2
                for x in game.everyone():
                    self._board(game, x)
            return
        if game.turn != n or game.roll1:
            c.send({"Type": "failedroll", "Player": "", "Reason": "It is not your turn to roll."})
            return
        self._turn_roll(game)

    def _turn_roll(self, game: Game) -> None:
        game.roll1, game.roll2 = self._roll()
        for x in game.everyone():
            x.send({"Type": "rolled", "Player": game.names[game.turn], "Roll1": game.roll1, "Roll2": game.roll2,
                    "Roll3": 0, "Selected": False})
        for x in game.everyone():
            self._board(game, x)

    def _do_move(self, c: Client, game: Game | None, params: list[str]) -> None:
        def fail(reason: str) -> None:
            c.send({"Type": "failedmove", "Player": "", "From": 0, "To": 0, "Reason": reason})
        if game is None or game.winner:
            return fail("You are not currently in a match.")
        if game.turn != c.number:
            return fail("It is not your turn to move.")
        if not self._both(game):
            return fail("You may not move until your opponent rejoins the match.")
        if not params:
            return fail("Specify one or more moves in the form FROM/TO. For example: 8/4 6/4")
        done: list[list[int]] = []
        for p in params:
            frm_s, sep, to_s = p.partition("/")
            frm = 25 if frm_s.lower() in ("bar", "b") else int(frm_s) if frm_s.isdigit() else -1
            to = 0 if to_s.lower() in ("off", "o", "home", "h") else int(to_s) if to_s.isdigit() else -1
            if not sep or frm < 0 or to < 0:
                return fail("Specify one or more moves in the form FROM/TO. For example: 8/4 6/4")
            if (frm, to) not in game.legal_steps():
                return fail("Illegal move.")
            raw = self._apply(game, frm, to)
            done.append(raw)
        for x in game.everyone():
            pairs = [[flip_space(a, x.number), flip_space(b, x.number)] for a, b in done]
            if self.rogue_move is not None and x is not c:
                x.send(self.rogue_move)
                self.rogue_move = None
                continue
            x.send({"Type": "moved", "Player": c.name, "Moves": pairs})
            self._board(game, x)
        self._check_win(game)

    def _apply(self, game: Game, frm: int, to: int) -> list[int]:
        """A step in the mover's own numbering (25 bar, 0 off) onto the raw board."""
        n = game.turn
        sign = 1 if n == 1 else -1
        raw_frm = (BAR1 if n == 1 else BAR2) if frm == 25 else (frm if n == 1 else 25 - frm)
        raw_to = (HOME1 if n == 1 else HOME2) if to == 0 else (to if n == 1 else 25 - to)
        game.states.append(list(game.board))
        b = game.board
        b[raw_frm] -= sign
        if raw_to not in (HOME1, HOME2) and b[raw_to] == -sign:
            b[raw_to] = sign
            b[BAR2 if n == 1 else BAR1] -= sign
        else:
            b[raw_to] += sign
        game.moves.append([raw_frm, raw_to])
        return [raw_frm, raw_to]

    def _do_reset(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None or game.turn != c.number or not game.moves:
            return
        undo = [[b, a] for a, b in reversed(game.moves)]
        game.board = game.states[0]
        game.states, game.moves = [], []
        for x in game.everyone():
            x.send({"Type": "moved", "Player": c.name,
                    "Moves": [[flip_space(a, x.number), flip_space(b, x.number)] for a, b in undo]})
            self._board(game, x)

    def _do_double(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None or not game.may_double(c.number) or not self._both(game):
            c.send({"Type": "notice", "Player": "", "Message": "You may not double at this time."})
            return
        game.double_offered = True
        for x in game.everyone():
            self._board(game, x)

    def _do_ok(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is not None and not game.winner and not self._both(game):
            c.send({"Type": "notice", "Player": "", "Message": "You must wait until your opponent rejoins the "
                    "match before continuing the game."})
            return
        if game is None or game.winner:
            return
        if game.double_offered:
            if game.turn != c.number:
                game.double_offered = False
                game.double_value *= 2
                game.double_player = c.number
                for x in game.everyone():
                    self._board(game, x)
            return
        if game.turn != c.number or not game.roll1:
            c.send({"Type": "notice", "Player": "", "Message": "It is not your turn."})
            return
        left = game.legal_steps()
        if left:
            c.send({"Type": "failedok", "Player": "", "Reason": f"The following legal moves are available: {left}"})
            return
        self._next_turn(game)

    def _next_turn(self, game: Game) -> None:
        game.turn = 2 if game.turn == 1 else 1
        game.roll1 = game.roll2 = 0
        game.moves, game.states = [], []
        if not game.may_double(game.turn):
            self._turn_roll(game)
            return
        for x in game.everyone():
            self._board(game, x)

    def _do_resign(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None or game.winner or not self._both(game):
            return
        n = c.number
        if game.double_offered and game.turn != n:
            game.winner = 3 - n
            # bgammon scores a drop as it scores a resignation: winPoints x DoubleValue
            points = self._win_points(game, 3 - n) * game.double_value
            resigned = c.name
        elif game.turn == n:
            game.winner = 3 - n
            points = self._win_points(game, 3 - n) * game.double_value
            resigned = c.name
        else:
            c.send({"Type": "notice", "Player": "", "Message": "You may not resign until it is your turn."})
            return
        self._finish(game, points, resigned)

    def _win_points(self, game: Game, winner: int) -> int:
        b = game.board
        loser_sign = -1 if winner == 1 else 1
        loser_bar = BAR2 if winner == 1 else BAR1
        home = range(1, 7) if winner == 1 else range(19, 25)
        if b[loser_bar] * loser_sign > 0 or any(b[s] * loser_sign > 0 for s in home):
            return 3
        loser_off = HOME2 if winner == 1 else HOME1
        return 2 if b[loser_off] == 0 else 1

    def _check_win(self, game: Game) -> None:
        sign = 1 if game.turn == 1 else -1
        if any(game.board[s] * sign > 0 for s in list(range(1, 25)) + [BAR1, BAR2]):
            return
        game.winner = game.turn
        self._finish(game, self._win_points(game, game.turn) * game.double_value, "")

    def _finish(self, game: Game, points: int, resigned: str) -> None:
        game.score[game.winner] += points
        event = {"Type": "win", "Player": game.names[game.winner], "Points": points if game.points > 1 else 0,
                 "Rating": 0, "Resigned": resigned}
        if game.score[game.winner] < game.points:
            winner = game.winner
            game.board, game.turn, game.roll1, game.roll2 = new_board(), 0, 0, 0
            game.moves, game.states, game.winner = [], [], 0
            game.double_value, game.double_player, game.double_offered = 1, 0, False
            if game.crawford == 0 and game.score[winner] == game.points - 1:
                game.crawford = 1
            elif game.crawford == 1:
                game.crawford = 2
        else:
            game.ended = True
        for x in game.everyone():
            x.send(event)
            self._board(game, x)

    def _do_rematch(self, c: Client, game: Game | None, params: list[str]) -> None:
        if game is None or not game.ended:
            c.send({"Type": "notice", "Player": "", "Message": "The match you are in is still in progress."})
            return
        if game.rematch == c.number:
            return
        if not game.rematch:
            game.rematch = c.number
            other = game.clients[3 - c.number]
            if other is not None:
                other.send({"Type": "notice", "Player": "", "Message": "Your opponent would like to play again."})
            return
        fresh = Game(game.id, game.points, game.password, dict(game.clients), dict(game.names),
                     dict(game.allowed), list(game.spectators))
        self.games[self.games.index(game)] = fresh
        for n in (1, 2):
            x = fresh.clients[n]
            if x is None:
                continue
            x.send({"Type": "joined", "Player": fresh.names[n], "GameID": fresh.id, "PlayerNumber": 1})
            x.send({"Type": "joined", "Player": fresh.names[3 - n], "GameID": fresh.id, "PlayerNumber": 2})
            self._board(fresh, x)

    # -- the board as each client sees it ----------------------------------------------------
    def _board(self, g: Game, c: Client) -> None:
        c.send({**self.view(g, c), **self.board_fields})

    def view(self, g: Game, c: Client) -> dict[str, Any]:
        """sendBoard: the raw game, turned around for a player 2 client."""
        spectating = c in g.spectators
        n = 1 if spectating else c.number
        players = {k: {"Number": k, "Name": g.names[k] if g.clients[k] else "", "Rating": 0,
                       "Points": g.score[k], "Entered": True, "Inactive": 0, "Icon": 0} for k in (1, 2)}
        swap = {0: 0, 1: 2, 2: 1} if n == 2 else {0: 0, 1: 1, 2: 2}
        board = list(g.board)
        r1, r2 = g.roll1, g.roll2
        moves = [list(m) for m in g.moves]
        if n == 2:
            board = [0] * 28
            for s in range(1, 25):
                board[s] = -g.board[25 - s]
            board[HOME1], board[HOME2] = -g.board[HOME2], -g.board[HOME1]
            board[BAR1], board[BAR2] = -g.board[BAR2], -g.board[BAR1]
            players = {1: dict(players[2], Number=1), 2: dict(players[1], Number=2)}
            if r1 == 0 or r2 == 0:
                r1, r2 = r2, r1
            moves = [[flip_space(a, 2), flip_space(b, 2)] for a, b in moves]
        available = self._available(g)
        if n == 2:
            available = [[flip_space(a, 2), flip_space(b, 2)] for a, b in available]
        return {"Type": "board", "Player": "", "Started": 1 if g.allowed else 0, "Ended": 0,
                "Player1": players[1], "Player2": players[2], "Variant": 0, "Board": board,
                "Turn": swap[g.turn], "Roll1": r1, "Roll2": r2, "Roll3": 0, "Moves": moves,
                "Winner": swap[g.winner], "Points": g.points, "Crawford": g.crawford,
                "DoubleValue": g.double_value, "DoublePlayer": swap[g.double_player],
                "DoubleOffered": g.double_offered, "Reroll": False, "PlayerNumber": 1,
                "Available": available, "Forced": False, "Spectating": spectating}

    def _available(self, g: Game) -> list[list[int]]:
        """Legal steps as raw spaces of the player on turn (sendBoard's Available)."""
        out = []
        for frm, to in g.legal_steps():
            n = g.turn
            raw_frm = (BAR1 if n == 1 else BAR2) if frm == 25 else (frm if n == 1 else 25 - frm)
            raw_to = (HOME1 if n == 1 else HOME2) if to == 0 else (to if n == 1 else 25 - to)
            out.append([raw_frm, raw_to])
        return out

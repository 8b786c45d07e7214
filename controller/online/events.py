"""The server's events (bgammon PROTOCOL.md "Server events", JSON mode) as typed values.

In JSON mode every line the server sends is one JSON object whose ``Type`` names the event
(`event.go` in the bgammon repository lists the fields). `decode_event(line)` turns a line
into one of the frozen dataclasses below or raises :class:`ProtocolError` with one line
saying what is wrong; nothing here trusts the server: types, lengths and ranges are checked,
so a malformed line cannot reach the rules engine.

The board event carries the whole game state as the receiving player sees it: the server
shows every game from player 1's side (the receiver is always ``PlayerNumber`` 1, its
checkers positive, moving from space 24 towards 1); `controller.online.perspective` turns
that into the engine's positions.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Union

from controller.errors import BgboardError
from controller.outside_text import printable

#: spaces of a server board: 0 the receiver's off tray, 1..24 points, 25 the opponent's off
#: tray, 26 the receiver's bar, 27 the opponent's bar
BOARD_SPACES = 28


class ProtocolError(BgboardError, ValueError):
    """A line from the server that is not a well-formed event of the protocol."""


@dataclass(frozen=True)
class PlayerInfo:
    """One seat of a game: name ('' while empty), points scored in the match."""

    number: int
    name: str
    points: int
    rating: int = 0


@dataclass(frozen=True)
class GameState:
    """A board event's game, as the receiver sees it (see the module docstring)."""

    player1: PlayerInfo
    player2: PlayerInfo
    variant: int
    board: tuple[int, ...]
    turn: int
    roll1: int
    roll2: int
    moves: tuple[tuple[int, int], ...]
    winner: int
    points: int
    crawford: int
    double_value: int
    double_player: int
    double_offered: bool
    player_number: int
    available: tuple[tuple[int, int], ...]
    spectating: bool
    started: int = 0
    ended: int = 0


@dataclass(frozen=True)
class Welcome:
    """Logged in: the name the server gave us."""

    player_name: str
    clients: int
    games: int


@dataclass(frozen=True)
class Ping:
    message: str


@dataclass(frozen=True)
class Notice:
    message: str


@dataclass(frozen=True)
class Say:
    """A chat line from another player."""

    player: str
    message: str


@dataclass(frozen=True)
class GameListing:
    id: int
    password: bool
    points: int
    players: int
    name: str


@dataclass(frozen=True)
class MatchList:
    games: tuple[GameListing, ...]


@dataclass(frozen=True)
class Joined:
    """`player` joined game `game_id` (ourselves after create/join, or the opponent)."""

    player: str
    game_id: int
    player_number: int


@dataclass(frozen=True)
class Left:
    player: str


@dataclass(frozen=True)
class Failed:
    """The server refused a command: `what` names it (the event types failedcreate,
    failedjoin, failedleave, failedroll, failedmove, failedok), `reason` says why."""

    what: str
    reason: str


@dataclass(frozen=True)
class Board:
    state: GameState


@dataclass(frozen=True)
class Rolled:
    """`player` rolled (at the opening roll `roll1` is the receiver's own die)."""

    player: str
    roll1: int
    roll2: int


@dataclass(frozen=True)
class Moved:
    """`player` moved checkers: (from, to) spaces in the receiver's view."""

    player: str
    moves: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Win:
    """`player` won the game (`points` only in matches longer than 1 point); `resigned`
    names who resigned or declined a double, '' for a game borne off."""

    player: str
    points: int
    resigned: str


@dataclass(frozen=True)
class Settings:
    """Account settings (sent to registered users); only auto-play matters here."""

    autoplay: bool


ServerEvent = Union[Welcome, Ping, Notice, Say, MatchList, Failed, Joined, Left, Board, Rolled,
                    Moved, Win, Settings]

#: events the client reads but has no use for (achievements, replays, histories)
IGNORED_TYPES = frozenset({"achievements", "replay", "history", "help"})


class _Fields:
    """Typed reads from one event object; every failure names the event and the field."""

    def __init__(self, kind: str, data: Mapping[str, object]) -> None:
        self.kind = kind
        self.data = data

    def _fail(self, name: str, want: str) -> ProtocolError:
        return ProtocolError(f"server sent a {self.kind} event whose {name} is not {want}")

    def integer(self, name: str, low: int = -(2**31), high: int = 2**31, default: int | None = None) -> int:
        value = self.data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self._fail(name, f"a whole number {low}..{high}")
        return value

    def text(self, name: str) -> str:
        value = self.data.get(name, "")
        if not isinstance(value, str):
            raise self._fail(name, "text")
        return printable(value)  # the server's or a player's text: never a terminal's control

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            raise self._fail(name, "true or false")
        return value

    def pairs(self, name: str) -> tuple[tuple[int, int], ...]:
        value = self.data.get(name) or []
        if not isinstance(value, list):
            raise self._fail(name, "a list of moves")
        out = []
        for item in value:
            if (not isinstance(item, list) or len(item) != 2
                    or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < BOARD_SPACES
                           for v in item)):
                raise self._fail(name, f"a list of [from, to] spaces 0..{BOARD_SPACES - 1}")
            out.append((item[0], item[1]))
        return tuple(out)

    def sub(self, name: str) -> _Fields:
        value = self.data.get(name)
        if not isinstance(value, dict):
            raise self._fail(name, "an object")
        return _Fields(f"{self.kind} {name}", value)


def _player(f: _Fields) -> PlayerInfo:
    return PlayerInfo(f.integer("Number", 0, 2), f.text("Name"), f.integer("Points", 0, 127, 0), f.integer("Rating", default=0))


def _board_problem(board: list[int]) -> str | None:
    """Why a backgammon board cannot be one: each side's 15 checkers on its own points,
    bar and off tray (player 1 positive, off on 0, bar on 26; player 2 negative, 25, 27)."""
    if board[0] < 0 or board[26] < 0 or board[25] > 0 or board[27] > 0:
        return "a board (an off tray or a bar holds the other side's checkers)"
    ones = sum(v for v in board if v > 0)
    twos = -sum(v for v in board if v < 0)
    if ones != 15 or twos != 15:
        return f"a board of 15 checkers a side (it holds {ones} and {twos})"
    return None


def _check_game(f: _Fields, state: GameState) -> None:
    """What no single field says: the fields of one board agree with each other and with the
    rules, so a board that passes cannot stop the rules engine (issue 22.13: a die of 0)."""
    playing = state.winner == 0 and state.turn != 0
    if playing and (state.roll1 == 0) != (state.roll2 == 0):
        raise f._fail("Roll1 and Roll2", "two dice 1..6 or none in a turn")
    if state.double_value & (state.double_value - 1):
        raise f._fail("DoubleValue", "a power of two")
    if state.double_offered and state.winner == 0 and state.turn == 0:
        # a game won by a dropped double keeps the offer on its last board (bgammon's
        # `resign` sets the Winner and leaves DoubleOffered): only before a turn is it wrong
        raise f._fail("DoubleOffered", "false before the first turn")
    if state.winner == 0 and max(state.player1.points, state.player2.points) >= state.points:
        raise f._fail("Points", "more than a score of a match still played")
    if state.variant == 0:
        problem = _board_problem(list(state.board))
        if problem is not None:
            raise f._fail("Board", problem)


def _game_state(f: _Fields) -> GameState:
    board = f.data.get("Board")
    if (not isinstance(board, list) or len(board) != BOARD_SPACES
            or any(isinstance(v, bool) or not isinstance(v, int) or not -15 <= v <= 15 for v in board)):
        raise f._fail("Board", f"{BOARD_SPACES} counts -15..15")
    state = GameState(
        player1=_player(f.sub("Player1")), player2=_player(f.sub("Player2")),
        variant=f.integer("Variant", 0, 2), board=tuple(board), turn=f.integer("Turn", 0, 2),
        roll1=f.integer("Roll1", 0, 6), roll2=f.integer("Roll2", 0, 6), moves=f.pairs("Moves"),
        winner=f.integer("Winner", 0, 2), points=f.integer("Points", 1, 127), crawford=f.integer("Crawford", 0, 2),
        double_value=f.integer("DoubleValue", 1, 64), double_player=f.integer("DoublePlayer", 0, 2),
        double_offered=f.flag("DoubleOffered"), player_number=f.integer("PlayerNumber", 0, 2),
        available=f.pairs("Available"), spectating=f.flag("Spectating"),
        started=f.integer("Started", 0, 2**62, 0), ended=f.integer("Ended", 0, 2**62, 0))
    _check_game(f, state)
    return state


def _listing(item: object) -> GameListing:
    if not isinstance(item, dict):
        raise ProtocolError("server sent a list event whose Games are not objects")
    f = _Fields("list", item)
    return GameListing(f.integer("ID", 0), f.flag("Password"), f.integer("Points", 0, 127), f.integer("Players", 0, 2),
                       f.text("Name"))


def _list(f: _Fields) -> MatchList:
    games = f.data.get("Games") or []
    if not isinstance(games, list):
        raise f._fail("Games", "a list")
    return MatchList(tuple(_listing(g) for g in games))


_DECODERS: dict[str, Callable[[_Fields], ServerEvent]] = {
    "welcome": lambda f: Welcome(f.text("PlayerName"), f.integer("Clients", 0), f.integer("Games", 0)),
    "ping": lambda f: Ping(f.text("Message")),
    "notice": lambda f: Notice(f.text("Message")),
    "say": lambda f: Say(f.text("Player"), f.text("Message")),
    "list": _list,
    "failedcreate": lambda f: Failed("create", f.text("Reason")),
    "joined": lambda f: Joined(f.text("Player"), f.integer("GameID", 0), f.integer("PlayerNumber", 0, 2)),
    "failedjoin": lambda f: Failed("join", f.text("Reason")),
    "left": lambda f: Left(f.text("Player")),
    "failedleave": lambda f: Failed("leave", f.text("Reason")),
    "board": lambda f: Board(_game_state(f)),
    "rolled": lambda f: Rolled(f.text("Player"), f.integer("Roll1", 0, 6), f.integer("Roll2", 0, 6)),
    "failedroll": lambda f: Failed("roll", f.text("Reason")),
    "moved": lambda f: Moved(f.text("Player"), f.pairs("Moves")),
    "failedmove": lambda f: Failed("move", f.text("Reason")),
    "failedok": lambda f: Failed("ok", f.text("Reason")),
    "win": lambda f: Win(f.text("Player"), f.integer("Points", 0, 127, 0), f.text("Resigned")),
    "settings": lambda f: Settings(f.flag("AutoPlay")),
}


def decode_event(line: str | bytes) -> ServerEvent | None:
    """One server line as an event; None for a known event this client has no use for.
    Raises ProtocolError for anything that is not a JSON event of the protocol."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    shown = text if len(text) <= 60 else text[:57] + "..."
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError(f"server sent a line that is not JSON: {shown!r}") from None
    if not isinstance(data, dict) or not isinstance(data.get("Type"), str):
        raise ProtocolError(f"server sent JSON without an event type: {shown!r}")
    kind = data["Type"]
    if kind in IGNORED_TYPES:
        return None
    decoder = _DECODERS.get(kind)
    if decoder is None:
        raise ProtocolError(f"server sent an unknown event type {kind!r}")
    return decoder(_Fields(kind, data))

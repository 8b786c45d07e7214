"""The board's menu watches a server match (issue 15): `bgboard run`'s table (`run_table` on
the virtual board's pseudo-terminal, simulated LEDs and display, the real button panel on
gpiozero's mock pins) against the protocol double over loopback TCP.

Two plain protocol clients play the watched match (each the first legal step the server
offers, then `ok`), paced by the test. A finger presses the menu button until the display
shows "watch online" and chooses it with a main button. While watching, the display shows
"Watching A - B", the score and the dice, with one line that the board is not used; the
LEDs light the last move as `bgboard online --watch` does; checkers moved on the board and
the game buttons change nothing; the menu offers only "leave watching"; a dropped
connection shows "connection lost, rejoining" until it watches again. Leaving, or the end
of the watched match, gives the local match back exactly (position, dice, score, cube),
and the spectator sent nothing but its `join` and `leave` (and keep-alives). A bad
`online_watch` is one line, the menu item is absent and nothing else changes; a running
clock is not charged for the time spent watching.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from controller.app import run_table
from controller.controller import Controller
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.errors import ProfileError
from controller.events import ButtonPressed, Tick, menu_pressed
from controller.bgammon import commands
from controller.online.client import Connection
from controller.online.door import OnlineDoor, offer_online
from controller.online.events import Board
from controller.records.store import TableStore
from controller.settings import Settings
from controller.show.content import Scene
from controller.show.display import text_lines
from controller.table import Table
from sim.finger import Finger
from sim.virtual_board import VirtualBoard
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port
from tests.test_online_menu import choose, press, press_seen, shown
from tests.test_online_watch import plain_move

pytestmark = pytest.mark.timeout(180)
LAST_MOVE = {"last-from", "last-to"}


class Players:
    """The watched match's two players, plain protocol clients playing `turns` turns at a
    time (the opening roll counts as none): each rolls when it may, plays the first legal
    step the server offers, then `ok`."""

    def __init__(self, double: BgammonDouble, points: int) -> None:
        self.double = double
        self.points = points
        self.turns = 0
        self.connections: list[Connection] = []
        self._tasks: list[asyncio.Task[None]] = []

    async def __aenter__(self) -> "Players":
        anna = await self._client("anna", commands.create(None, self.points))
        await until("anna's match", lambda: bool(self.double.games))
        bert = await self._client("bert", commands.join("Guest_anna"))
        self._tasks = [asyncio.create_task(self._play(c)) for c in (anna, bert)]
        await until("both seated", lambda: all(self.double.games[0].names.values()))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for c in self.connections:
            await c.close()

    async def allow(self, turns: int) -> None:
        """Play `turns` more turns (each player looks at the board again)."""
        self.turns += turns
        for c in self.connections:
            await c.send(commands.BOARD)

    async def _client(self, name: str, first: str) -> Connection:
        c = await Connection.open(address(self.double))
        await c.login(name)
        await c.send(first)
        self.connections.append(c)
        return c

    async def _play(self, c: Connection) -> None:
        while True:
            event = await c.next_event()
            if not isinstance(event, Board) or not event.state.player2.name or self.turns <= 0:
                continue
            line = plain_move(event.state)
            if line == commands.OK:
                self.turns -= 1
            if line is not None:
                await c.send(line)


Body = Callable[[Table, OnlineDoor, VirtualBoard], Awaitable[None]]


async def on_the_board(tmp: Path, settings: Callable[[], Settings], body: Body) -> None:
    """`bgboard run`'s table with its online door (as bgboard/commands/run.py opens it),
    its local match a 5-point match, the board set up and the opening rolled."""
    doors: list[OnlineDoor] = []
    with VirtualBoard() as vb:
        start = Match.new()
        for cell, (white, black) in cell_counts(*start.board()).items():
            vb.set_cell(cell, white, black)
        vb.start()
        opened: asyncio.Future[Table] = asyncio.get_running_loop().create_future()

        def got(table: Table) -> None:
            doors.append(offer_online(table, settings, tmp / "online"))
            opened.set_result(table)

        task = asyncio.create_task(run_table(vb.port, state_dir=tmp, strip_name="sim", display_driver="dummy",
                                             pin_factory="mock", match_settings=MatchSettings(length=5),
                                             on_table=got))
        table = await opened
        try:
            await _opening_rolled(table)
            await body(table, doors[0], vb)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def _opening_rolled(table: Table) -> None:
    c = table.controller
    await until("the board set up", lambda: not c.status().setting_up)
    finger = Finger.on(table)
    assert finger is not None
    while c.status().match.phase == "opening":  # a tie rolls again
        await press(finger, "white_main")
    assert c.status().match.phase == "move" and c.status().match.dice is not None


def lit(scene: Scene) -> dict[str, str]:
    return dict(scene.leds)


WatchBody = Callable[[Table, OnlineDoor, VirtualBoard, BgammonDouble, Players], Awaitable[None]]


def watching(tmp: Path, points: int, seed: int, target: Callable[[BgammonDouble], str], body: WatchBody) -> None:
    """`body` at the board while the players' match is on the double; the settings name
    the double as the server and `target(double)` as the match to watch."""
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=seed) as double, Players(double, points) as players:
            settings = Settings(online_server=str(address(double)), online_watch=target(double))
            await on_the_board(tmp, lambda: settings,
                               lambda table, door, vb: body(table, door, vb, double, players))
    asyncio.run(go())


def test_watch_online_from_the_menu_and_leave_again(tmp_path: Path) -> None:
    async def body(table: Table, door: OnlineDoor, vb: VirtualBoard, double: BgammonDouble,
                   players: Players) -> None:
        c = table.controller
        local, local_dice = c.status().match, c.state.dice
        await choose(table, "watch_online")
        await until("watching", lambda: door.state == "watching")
        spectator = door.spectator
        assert spectator is not None and spectator.watched is not None
        names = double.games[0].names  # the server's player 1 is White here
        watching = f"Watching {names[1]} - {names[2]}"
        assert door.view()["spectator"] and (door.view()["me"], door.view()["opponent"]) == (names[1], names[2])
        assert shown(table) == watching
        assert "The board is not used: leave the checkers" in text_lines(c.status().scene.display)

        await players.allow(2)  # two turns of the watched match
        game = double.games[0]

        def seen_as_the_server_stands() -> bool:
            w = spectator.watched
            return players.turns == 0 and w is not None and bool(w.lit) and \
                (w.state.turn, w.state.roll1, w.state.roll2) == (game.turn, game.roll1, game.roll2) and \
                lit(c.status().scene) == dict(w.scene().leds)

        await until("the last move seen", seen_as_the_server_stands)
        scene = c.status().scene
        assert lit(scene) and set(lit(scene).values()) <= LAST_MOVE  # as `bgboard online --watch` lights it
        assert (scene.display.score_white, scene.display.score_black) == (game.score[1], game.score[2])
        assert scene.display.match_length == 3
        assert scene.display.dice == tuple(d for d in (game.roll1, game.roll2) if d)

        # the network fails under the spectator: the display says so until it watches again
        double.drop(spectator.names[0])
        await until("rejoining", lambda: door.state == "rejoining")
        assert shown(table) == "Connection lost, rejoining"
        await until("back watching", lambda: door.state == "watching" and shown(table) == watching)
        assert spectator.result.reconnects == 1

        # the board is not used: a checker lifted, a game button pressed: nothing changes
        vb.lift("13", "white")
        finger = Finger.on(table)
        assert finger is not None
        refused_before = table.last_refused
        await press(finger, "white_main")
        await until("the press refused", lambda: table.last_refused is not refused_before)
        assert table.last_refused is not None and table.last_refused.why.key == "refused.watching"
        assert door.state == "watching" and shown(table) == watching
        await press_seen(table, finger, "menu")
        assert c.status().menu.items == ("leave_watching", "close")
        await press_seen(table, finger, "menu")
        await press_seen(table, finger, "menu")  # round again to "leave watching"
        assert c.status().menu.item == "leave_watching"
        await press(finger, "white_main")
        await until("left", lambda: door.state == "off")

        # the local match is back exactly; the board is set up to it again
        assert c.status().match == local and c.state.dice == local_dice and c.status().match.dice == local.dice
        assert c.status().match.score == local.score and c.status().match.cube == local.cube and c.status().match.length == 5
        assert door.line == "stopped watching; the local match is back"
        saved = TableStore(tmp_path).load(0.0)
        assert saved is not None and saved.position == local.position and saved.score == local.score
        assert c.status().setting_up and shown(table) == "Set up the board"  # the checker lifted meanwhile
        vb.place("13", "white")
        await until("the board set up", lambda: not c.status().setting_up)
        assert c.status().match == local
        sent = [line.split()[0] for name in spectator.names for line in double.received[name]]
        assert [word for word in sent if word != "pong"] == ["join", "join", "leave"], sent  # one join a connection

    watching(tmp_path, 3, 5, lambda double: "Guest_anna", body)


def test_the_local_match_is_back_when_the_watched_match_ends(tmp_path: Path) -> None:
    async def body(table: Table, door: OnlineDoor, vb: VirtualBoard, double: BgammonDouble,
                   players: Players) -> None:
        c = table.controller
        local = c.status().match
        await choose(table, "watch_online")
        await until("watching", lambda: door.state == "watching")
        await players.allow(10_000)
        await until("the watched match over", lambda: door.state == "off", 120)
        game = double.games[0]
        winner = game.names[1] if game.score[1] > game.score[2] else game.names[2]
        assert door.line.startswith(f"match over: {winner} wins") and \
            door.line.endswith("; the local match is back")
        assert shown(table).startswith(f"Online: match over: {winner} wins")
        assert c.status().match == local and not c.status().playing_online
        assert "watch_online" in c.status().menu_items

    watching(tmp_path, 1, 9, lambda double: str(double.games[0].id), body)  # by its number


def test_a_bad_online_watch_is_one_line_and_the_menu_has_no_watch_item(tmp_path: Path) -> None:
    line = "/etc/bgboard/config.toml: key 'online_watch': expected a match number or a player's name, " \
           "got 'two words'"

    def settings() -> Settings:
        return Settings().replace("/etc/bgboard/config.toml", online_watch="two words")

    with pytest.raises(ProfileError) as bad:
        settings()
    assert str(bad.value) == line

    async def body(table: Table, door: OnlineDoor, vb: VirtualBoard) -> None:
        c = table.controller
        local = c.status().match
        assert door.line == line and door.state == "off"
        finger = Finger.on(table)
        assert finger is not None
        await press(finger, "menu")
        assert "watch_online" not in c.status().menu.items and "play_online" in c.status().menu.items
        assert "new_match" in c.status().menu.items
        await press(finger, "white_cube")  # closes the menu
        assert not c.status().menu.is_open and c.status().match is local and not c.status().playing_online

    asyncio.run(on_the_board(tmp_path, settings, body))


def test_a_running_clock_is_not_charged_for_the_time_spent_watching(tmp_path: Path) -> None:
    """An hour watched on a table with a move timer (the table's clock injected): the local
    match comes back with White's turn and bank as a resume leaves them, not lost on time."""
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double, Players(double, 3):
            now = [100.0]
            local = Match.new(MatchSettings(length=5, clock="timer")).roll("white", (3, 1), now[0]).match
            before = local.clock_reading(now[0])
            table = Table(Controller(local, now=now[0]), store=TableStore(tmp_path), clock=lambda: now[0])
            settings = Settings(online_server=str(address(double)), online_watch="Guest_anna")
            door = offer_online(table, lambda: settings, None)
            c = table.controller
            table.dispatch(menu_pressed(now[0]))
            while c.status().menu.item != "watch_online":
                table.dispatch(menu_pressed(now[0]))
            table.dispatch(ButtonPressed("white", "main", now[0]))
            await until("watching", lambda: door.state == "watching")
            for _ in range(60):  # an hour of the table's ticks, a minute apart
                now[0] += 60.0
                table.dispatch(Tick(now[0]))
            assert door.state == "watching"
            assert door.leave()
            await until("left", lambda: door.state == "off")
            table.dispatch(Tick(now[0]))
            assert not c.status().match.is_over and c.status().match.phase == "move" and c.status().match.turn == "white"
            assert c.status().match.clock_reading(now[0]) == before
            assert c.status().match.position == local.position and c.status().match.dice == local.dice
    asyncio.run(go())

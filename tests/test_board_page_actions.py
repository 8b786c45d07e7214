"""What the board's page on the player's phone does besides the buttons (controller/web/board_page.py):
the language, real dice keyed in, a refused action said in one line, the New match dialog,
the tutor and the hint, all through the table's own events. Against `bgboard run` in
Chromium: tests/test_browser_spectators.py and tests/test_browser_phone.py.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.board.profile import load_profile
from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import AdoptMatch, ReadingReceived, RollQueued, Tick
from controller.play.tutor import mark_for
from controller.records.store import TableStore
from controller.table import Table
from controller.table.practice import TablePractice
from controller.web import online_page
from controller.web.board_page import board_page
from controller.web.table_page import TablePage
from controller.web.protocol import Notice, PageAction
from controller.web.watch_page import READ_ONLY


def _page(tmp_path: Path, dice: str = "board") -> TablePage:
    return board_page(_table(tmp_path, dice), load_profile())


def _table(tmp_path: Path, dice: str = "board") -> Table:
    """A table whose board stands set up, with the practice the menu offers."""
    match = Match.new(MatchSettings(length=5, dice=dice))
    table_dice = DiceState().adopt(match)
    table = Table(Controller(match, dice=table_dice, now=1.0), store=TableStore(tmp_path), clock=lambda: 1.0,
                  practice=lambda at: TablePractice(at, tmp_path))
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 1.0))
    table.dispatch(Tick(1.5))  # the reading settles: the board is set up
    assert not table.controller.status().setting_up
    return table


def test_the_phone_chooses_the_language(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert asyncio.run(page.act(PageAction("language", name="da"))) is None
    assert page.table.controller.status().config.language == "da"
    assert page.snapshot()["settings"]["language"] == "da"


def test_an_action_the_table_refuses_is_one_line_on_the_phone(tmp_path: Path) -> None:
    page = _page(tmp_path)
    before = page.table.controller.status().match
    answer = asyncio.run(page.act(PageAction("command", name="white double")))
    assert isinstance(answer, Notice) and answer.text.startswith("rejected: ") and "\n" not in answer.text
    assert page.table.controller.status().match == before


def test_real_dice_are_keyed_in_on_the_phone(tmp_path: Path) -> None:
    page = _page(tmp_path, dice="entered")
    assert page.snapshot()["dice_panel"]["mode"] == "entered"
    assert asyncio.run(page.act(PageAction("dice", name="52"))) is None  # the opening: White's 5, Black's 2
    m = page.table.controller.status().match
    assert m.phase == "move" and m.turn == "white" and tuple(m.dice) == (5, 2)


def _act(page: TablePage, kind: str, **fields: object) -> object:
    return asyncio.run(page.act(PageAction(kind, **fields)))  # type: ignore[arg-type]


def test_the_phones_new_match_is_the_dialogs_match_at_the_table(tmp_path: Path) -> None:
    """The simulator's New match dialog on the phone: every setting it has, the score it
    starts from, the language and tutor with it, as the table's own `MatchChosen`."""
    page = _page(tmp_path)
    c = page.table.controller
    assert page.snapshot()["settings"]["length"] == 5 and page.snapshot()["levels"]
    form = {"length": 3, "cube": "off", "crawford": "on", "clock": "timer", "confirm": "button",
            "opponent": "human", "dice": "entered", "tutor": "bad", "language": "sv", "score": "1-0"}
    answer = _act(page, "new_match", settings=form)
    assert isinstance(answer, Notice) and answer.key == "new_match", answer
    m = c.status().match
    assert (m.settings.length, m.settings.cube, m.settings.clock, m.settings.confirm, m.settings.dice) == \
        (3, False, "timer", "button", "entered")
    assert m.score == (1, 0) and m.phase == "opening" and c.status().dice.mode == "entered"
    assert (c.status().config.tutor, c.status().config.language) == ("bad", "sv")
    shown = page.snapshot()["settings"]
    assert {k: shown[k] for k in form if k != "score"} == {k: v for k, v in form.items() if k != "score"}
    assert "new match to 3" in page.table.log_lines


def test_a_bad_new_match_from_the_phone_changes_nothing(tmp_path: Path) -> None:
    page = _page(tmp_path)
    before = page.table.controller.status().match
    answer = _act(page, "new_match", settings={"length": 0})
    assert answer == "ignored: match length 0 is out of range (1-99)"
    answer = _act(page, "new_match", settings={"length": 3, "score": "3-0"})
    assert isinstance(answer, str) and answer.startswith("ignored: ") and "\n" not in answer
    assert page.table.controller.status().match is before


def test_a_new_match_is_refused_while_one_is_played_online(tmp_path: Path) -> None:
    """The controller refuses `MatchChosen` where the menu offers no New match (online the
    server starts the match); the phone says so in one line."""
    page = _page(tmp_path)
    online = Match.new(MatchSettings(length=3, black_player="remote"))
    page.table.dispatch(AdoptMatch(online, 1.0))  # the server's match takes the table
    answer = _act(page, "new_match", settings={"length": 7})
    assert isinstance(answer, Notice) and answer.text.startswith("rejected: online the server starts the match")
    assert page.table.controller.status().match is online


def test_the_phone_sets_the_tutor_in_the_middle_of_a_match(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert _act(page, "tutor", name="doubtful") is None
    assert page.table.controller.status().config.tutor == "doubtful"
    assert page.snapshot()["settings"]["tutor"] == "doubtful"
    status = page.table.controller.status()
    assert mark_for(status.config.tutor, status.match, "white") == "doubtful"  # the tutor judges with it now


def test_the_phones_hint_is_the_menus_hint(tmp_path: Path) -> None:
    """No hint before the opening roll (refused in one line, as the menu does not offer
    it); in a person's move, the hint shown on the display as the menu's Hint shows it."""
    page = _page(tmp_path)
    assert page.snapshot()["hint_ask"] is False
    answer = _act(page, "hint")
    assert isinstance(answer, Notice) and answer.text.startswith("rejected: no hint now"), answer
    page.table.controller.handle(RollQueued((3, 1), page.table.controller.status().now))
    assert _act(page, "command", name="white roll") is None
    assert page.table.controller.status().match.phase == "move" and page.snapshot()["hint_ask"] is True
    assert _act(page, "hint") is None
    c = page.table.controller
    assert c.state.hint.shown is not None
    assert c.status().scene.display.prompt is not None and c.status().scene.display.prompt.key in ("hint", "hint_missing")


#: one valid message of each kind the phone may send (the simulator's page sends the same)
PHONE_MESSAGES = [
    {"type": "new_match", "settings": {"length": 3}}, {"type": "tutor", "name": "bad"}, {"type": "hint"},
    {"type": "practice", "key": "1.1"}, {"type": "back_to_match"},
    {"type": "online", "settings": {"server": "127.0.0.1:1", "match": "public"}}, {"type": "online_leave"},
    {"type": "say", "text": "hello"}, {"type": "language", "name": "da"}, {"type": "dice", "dice": [5, 2]},
    {"type": "phrase", "side": "white", "text": "mine"}, {"type": "reveal"},
    {"type": "button", "name": "white_main"}, {"type": "command", "name": "white roll"},
]


def test_a_spectators_token_does_nothing_and_the_players_page_checks_host_and_origin(tmp_path: Path) -> None:
    """Every action of the phone needs the player's token: the spectators' token opens no
    player's socket (403), and each action sent on the spectators' own socket is refused
    in one line with nothing changed at the table; the player's socket is refused to a
    foreign Host or Origin, and with its token and its own origin it acts."""
    import aiohttp

    from controller.web.board_page import PlayerServer
    from controller.web.spectators import SpectatorServer, table_view

    page = _page(tmp_path)
    table = page.table

    def state() -> object:
        c = table.controller
        return (c.status().match, c.status().config, c.status().dice.mode, len(table.log_lines))

    async def check() -> None:
        player, watcher = PlayerServer(page), SpectatorServer(table_view(table, load_profile()))
        runners = [await player.start("127.0.0.1", 0), await watcher.start("127.0.0.1", 0)]
        assert player.guard is not None and watcher.guard is not None
        host = f"127.0.0.1:{player.guard.port}"
        ws = f"ws://{host}/ws?token="
        try:
            async with aiohttp.ClientSession() as session:
                before = state()
                for token, headers in ((watcher.guard.token, {}), ("", {}), (player.guard.token, {"Host": "evil.example"}),
                                       (player.guard.token, {"Origin": "http://evil.example"})):
                    try:
                        await session.ws_connect(ws + str(token), headers=headers)
                        raise AssertionError(f"the player's socket opened with {token!r} {headers}")
                    except aiohttp.WSServerHandshakeError as exc:
                        assert exc.status == 403
                spectator = await session.ws_connect(
                    f"ws://127.0.0.1:{watcher.guard.port}/ws?token={watcher.guard.token}")
                await spectator.receive_json()  # the first snapshot
                for message in PHONE_MESSAGES:
                    await spectator.send_json(message)
                    while (said := await spectator.receive_json(timeout=10))["type"] != "notice":
                        pass
                    assert said["key"] == "spectating", (message, said)
                    assert state() == before, message
                await spectator.close()
                own = await session.ws_connect(ws + str(player.guard.token), headers={"Origin": f"http://{host}"})
                await own.send_json({"type": "tutor", "name": "bad"})
                while not ((shown := await own.receive_json(timeout=30))["type"] == "state"
                           and shown["settings"]["tutor"] == "bad"):
                    pass
                assert table.controller.status().config.tutor == "bad"
                await own.close()
        finally:
            for runner in runners:
                await runner.cleanup()

    asyncio.run(check())


def test_the_phone_plays_online_through_the_tables_door(tmp_path: Path) -> None:
    """The simulator's online dialog on the phone: the table's own door (the menu's "Play
    online") seats the remote player; no new match meanwhile; a chat line goes out; Leave
    gives the local match back."""
    from controller.online.door import OnlineDoor
    from controller.settings import Settings
    from tests.online_double import BgammonDouble, until
    from tests.test_online_client import address, free_port

    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double:
            table = _table(tmp_path)
            local = table.controller.status().match
            known = Settings(online_server=str(address(double)))
            door = OnlineDoor(table, settings=lambda: known, online_dir=tmp_path / "online")
            table.offer_online(door)
            page = board_page(table, load_profile(), door)
            assert page.snapshot()["online_play"]["default_server"] == str(address(double))
            answer = await page.act(PageAction("online", settings={
                "server": str(address(double)), "login": "guest", "match": "private", "points": "3",
                "match_password": "pw"}))
            assert isinstance(answer, Notice) and answer.key == "online_connecting", answer
            await until("seated, waiting for an opponent", lambda: door.state == "waiting")
            view = page.snapshot()["online_play"]
            assert view["match"] >= 1 and view["match_password"] == "pw" and view["state"] == "waiting"
            assert table.controller.status().playing_online and table.controller.status().match.settings.length == 3
            busy = await page.act(PageAction("new_match", settings={"length": 7}))
            assert isinstance(busy, Notice) and busy.key == "online_busy"
            assert await page.act(PageAction("say", name="hello")) is None
            assert await page.act(PageAction("online_leave")) is None
            await until("left", lambda: door.state == "off")
            assert table.controller.status().match == local and not table.controller.status().playing_online
            await table.aclose()

    asyncio.run(go())


def test_without_an_online_door_the_phone_says_so(tmp_path: Path) -> None:
    page = _page(tmp_path)
    for kind in ("online", "online_leave"):
        answer = _act(page, kind, settings={"match": "public"})
        assert isinstance(answer, Notice) and answer.key == "no_online"


def test_the_phone_watches_a_server_match_and_leaves_it(tmp_path: Path) -> None:
    """The dialog's "watch a match" on the phone: `bgboard run`'s table (its door, as
    bgboard/commands/run.py opens it) watches through the door; the phone draws the
    watched match, plays nothing meanwhile, and Leave gives the local match back."""
    from controller.online.door import OnlineDoor
    from tests.online_double import BgammonDouble, until
    from tests.test_online_client import address
    from sim.virtual_board import VirtualBoard
    from tests.test_online_watch_menu import Players, watching

    async def body(table: Table, door: OnlineDoor, vb: VirtualBoard, double: BgammonDouble, players: Players) -> None:
        local = table.controller.status().match
        page = board_page(table, load_profile(), door)
        answer = await page.act(PageAction("online", settings={"server": str(address(double)), "match": "watch",
                                                               "join": "Guest_anna"}))
        assert isinstance(answer, Notice) and answer.key == "online_connecting", answer
        await until("watching", lambda: door.state == "watching" and online_page.watched(door) is not None)
        shown = page.snapshot()
        assert shown["online_play"]["spectator"] is True and shown["actions"] == []
        assert shown["match"]["position_id"] == online_page.watched(door).match().position.id  # type: ignore[union-attr]
        assert await page.act(PageAction("hint")) == READ_ONLY
        assert await page.act(PageAction("online_leave")) is None
        await until("left", lambda: door.state == "off")
        assert table.controller.status().match == local

    watching(tmp_path, 3, 7, lambda double: "Guest_anna", body)


def test_the_phones_review_and_practice_are_the_tables(tmp_path: Path) -> None:
    """Before a finished game there is no review to show or practise from: the phone's
    set-up request and its way back are one line each, and nothing changes."""
    page = _page(tmp_path)
    before = page.table.controller.status().match
    assert page.snapshot()["review"] is None and page.review_json()["marked"] == []
    answer = _act(page, "practice", name="1.1")
    assert isinstance(answer, str) and answer.startswith("ignored a set-up request") and "\n" not in answer, answer
    assert _act(page, "back_to_match") == Notice("no_practice", "there is no practice to end")
    assert page.table.controller.status().match is before and page.table.controller.status().practising is None

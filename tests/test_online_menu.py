"""The board's menu plays online from the settings: `bgboard run`'s table (`run_table` on
the virtual board's pseudo-terminal, simulated LEDs and display, the real button panel on
gpiozero's mock pins) against the protocol double over loopback TCP.

A finger presses the menu button until the display shows "play online" and chooses it
with a main button; the display then says what happens (connecting, waiting for an
opponent, connection lost, rejoining), the local match is set aside and comes back when
"leave online play" is chosen. A bad setting or a refused match is one line on the
display, and the local match stays.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.app import run_table
from controller.controller import Controller
from controller.engine.match import Match
from controller.events import OnlineOffered, menu_pressed
from controller.bgammon import commands
from controller.online.client import Connection
from controller.online.door import OnlineDoor, offer_online
from controller.settings import Settings
from controller.show.texts import render
from controller.table import Table
from controller.play.showing import phase_prompt
from sim.finger import TAP_S, Finger
from sim.virtual_board import VirtualBoard
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port

pytestmark = pytest.mark.timeout(180)


def shown(table: Table) -> str:
    """The display's prompt line, as the person reads it."""
    prompt = table.controller.status().scene.display.prompt
    return "" if prompt is None else render(prompt.key, prompt.as_dict(), "en")


async def press(finger: Finger, key: str) -> None:
    finger.down(key)
    await asyncio.sleep(TAP_S)
    finger.up(key)
    await asyncio.sleep(TAP_S)


async def press_seen(table: Table, finger: Finger, key: str) -> None:
    """A tap the menu has taken in: each of `choose`'s presses moves the menu (opens it, steps
    to the next item, chooses), and a loaded machine may hand the event on after the tap."""
    before = table.controller.status().menu
    await press(finger, key)
    await until(f"the menu moved by {key}", lambda: table.controller.status().menu != before)


async def choose(table: Table, item: str) -> None:
    """Open the menu, step to `item` with the menu button, choose it with White's main."""
    finger = Finger.on(table)
    assert finger is not None
    await press_seen(table, finger, "menu")
    for _ in range(len(table.controller.status().menu.items)):
        if table.controller.status().menu.item == item:
            break
        await press_seen(table, finger, "menu")
    assert table.controller.status().menu.item == item, table.controller.status().menu.items
    prompt = phase_prompt(table.controller.state)  # the menu's line (a board not set up may outrank it on the display)
    assert prompt is not None and render(prompt.key, prompt.as_dict()) == f"Menu: {render('menu.' + item)}"
    await press_seen(table, finger, "white_main")


async def on_the_board(tmp: Path, settings: Settings,
                       body: Callable[[Table, OnlineDoor], object]) -> None:
    """`bgboard run`'s table with its online door (as bgboard/commands/run.py opens it)."""
    doors: list[OnlineDoor] = []
    with VirtualBoard() as vb:
        vb.start()
        opened: asyncio.Future[Table] = asyncio.get_running_loop().create_future()

        def got(table: Table) -> None:
            doors.append(offer_online(table, lambda: settings, tmp / "online"))
            opened.set_result(table)

        task = asyncio.create_task(run_table(vb.port, state_dir=tmp, strip_name="sim", display_driver="dummy",
                                             pin_factory="mock", on_table=got))
        await asyncio.wait({opened, task}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if not opened.done():  # the table never opened: say why instead of waiting for ever
            task.cancel()
            outcome = await asyncio.gather(task, return_exceptions=True)
            raise AssertionError(f"run_table did not open its table: {outcome[0]!r}")
        table = opened.result()
        try:
            await asyncio.wait_for(body(table, doors[0]), 120)  # type: ignore[misc]
        finally:
            task.cancel()
            try:  # a table that does not stop when cancelled is a failure of its own, not a hang
                await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 30)
            except TimeoutError:
                raise AssertionError("run_table did not stop within 30 s of being cancelled") from None


def test_the_menu_offers_play_online_only_where_a_door_is() -> None:
    c = Controller(Match.new())
    c.handle(menu_pressed(0.0))
    assert "play_online" not in c.status().menu.items and "leave_online" not in c.status().menu.items
    c = Controller(Match.new())
    c.handle(OnlineOffered("play", True, 0.0))  # the table has an online door
    c.handle(menu_pressed(0.0))
    assert "play_online" in c.status().menu.items and "new_match" in c.status().menu.items


def test_play_online_from_the_menu_and_leave_again(tmp_path: Path) -> None:
    async def body(table: Table, door: OnlineDoor) -> None:
        local = table.controller.status().match
        await choose(table, "play_online")
        await until("waiting", lambda: door.state == "waiting")
        match_id = door.view()["match"]
        assert shown(table) == f"Waiting for an opponent: match {match_id}"
        assert table.controller.status().playing_online and table.controller.status().match.length == 3
        assert "new_match" not in table.controller.status().menu.items  # the server decides a new match

        bert = await Connection.open(address(double))
        await bert.login("bert")
        await bert.send(commands.join(str(match_id)))
        await until("the opponent seated", lambda: door.state == "playing")
        assert not shown(table).startswith("Waiting")

        me = door.view()["me"]
        double.drop(me)  # the network fails under this board
        await until("rejoining", lambda: door.state == "rejoining")
        assert shown(table) == "Connection lost, rejoining"
        await until("back in the match", lambda: door.state == "playing")
        assert shown(table) != "Connection lost, rejoining"

        await choose(table, "leave_online")
        await until("left", lambda: door.state == "off")
        assert table.controller.status().match == local and not table.controller.status().playing_online
        assert "play_online" in table.controller.status().menu_items
        await bert.close()

    async def go() -> None:
        nonlocal double
        async with BgammonDouble(free_port()) as double:
            settings = Settings(online_server=str(address(double)), online_match="public", online_points=3)
            await on_the_board(tmp_path, settings, body)

    double: BgammonDouble
    asyncio.run(go())


@pytest.mark.parametrize("keys, line", [
    ({"online_match": "join", "online_join": "nobody"}, "cannot join match nobody on {server}: Match not found."),
    ({"online_match": "join"}, "joining a match needs a match number or a player's name"),
    ({"online_user": "carol"}, "online user carol needs its password in a file: the settings' "
                               "online_password_file (or bgboard online --password-file)"),
    ({"online_server": "127.0.0.1:1"}, "cannot reach 127.0.0.1:1: Connection refused"),
])
def test_a_bad_setting_or_a_refused_match_is_one_line_on_the_display(
        tmp_path: Path, keys: dict[str, str], line: str) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            settings = Settings(online_server=str(address(double))).replace("test", **keys)
            expected = line.format(server=address(double))

            async def body(table: Table, door: OnlineDoor) -> None:
                local = table.controller.status().match
                await choose(table, "play_online")
                await until("the attempt over", lambda: door.failed and not door.busy)
                assert door.line == expected
                assert shown(table) == f"Online: {expected}"  # the whole reason, paged (was cut at 60)
                assert table.controller.status().match is local and not table.controller.status().playing_online

            await on_the_board(tmp_path, settings, body)
    asyncio.run(go())


def test_after_a_restart_play_online_rejoins_the_interrupted_match(tmp_path: Path) -> None:
    games: list[int] = []

    async def first(table: Table, door: OnlineDoor) -> None:
        await choose(table, "play_online")
        await until("waiting", lambda: door.state == "waiting")
        games.append(door.view()["match"])  # then the board stops, without leaving

    async def second(table: Table, door: OnlineDoor) -> None:
        assert not table.controller.status().playing_online
        await choose(table, "play_online")
        await until("back in the match", lambda: door.state == "waiting")
        assert door.view()["match"] == games[0] and door.choice is not None and door.choice.what == "resume"

    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            settings = Settings(online_server=str(address(double)), online_points=3)
            await on_the_board(tmp_path, settings, first)
            await on_the_board(tmp_path, settings, second)
    asyncio.run(go())

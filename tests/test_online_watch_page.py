"""`bgboard online --watch ID --sim`: a match on the protocol double watched on the page.

Two plain protocol clients play a whole match on the double over loopback TCP (as in
test_online_watch.py); the real `Spectator` watches it behind the page's backend
(`WatchPage`), served by the simulator's own server. Checked: every snapshot offers no
play action; the checkers drawn are the server's position, move after move, with the last
move lit `last-from`/`last-to`; the chat of the match shows; the served page answers a
checker lifted with one "watching" line and sends nothing to the server; Leave ends it.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bgboard.cli import main
from controller.engine.board_view import CELLS, cell_counts
from controller.online.watch import Spectator
from controller.web.protocol import Notice, PageAction
from controller.web.server import SimServer
from controller.web.watch_page import WatchPage
from tests.online_double import BgammonDouble, position_for, until
from tests.test_online_cli import double  # noqa: F401  (the double on a thread, for the command)
from tests.test_online_client import address, free_port
from tests.test_online_page import _sim
from tests.test_online_watch import _match
from tests.test_online_watch_menu import Players

pytestmark = pytest.mark.timeout(180)


def _server_board(double: BgammonDouble) -> dict[str, list[int]]:
    """The cells of the double's own board (player 1 is White, as the spectator sees it)."""
    game = double.games[0]
    counts = cell_counts(position_for(game.board, 1), "white")
    return {c: list(counts.get(c, (0, 0))) for c in CELLS}


def test_the_watch_page_draws_the_servers_match_and_offers_no_play() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double:
            players = await _match(double, 3)
            page = WatchPage(Spectator(address(double), "Guest_anna"))
            snapshots: list[dict[str, Any]] = []
            page.subscribe(lambda: snapshots.append(page.snapshot()))
            watching = asyncio.create_task(page.run(60))
            await asyncio.gather(*players)
            await watching
            assert page.spectator.result.over
            final = page.snapshot()
            assert final["board"] == _server_board(double)  # the server's last position
            assert final["online_play"]["state"] == "over"
            names = double.games[0].names
            assert (final["online_play"]["me"], final["online_play"]["opponent"]) == (names[1], names[2])
            watched = [s for s in snapshots if s["online_play"]["state"] == "watching" and s["match"]]
            assert len(watched) > 10
            boards = {json.dumps(s["board"], sort_keys=True) for s in watched}
            assert len(boards) > 5, "the checkers follow the server's moves"
            assert all(sum(w for w, _ in s["board"].values()) == 15 for s in watched)
            assert all(s["possible"] == [] and s["actions"] == [] and s["helpers"] == [] for s in snapshots)
            lit = [s for s in watched if {"last-from", "last-to"} <= {v["role"] for v in s["leds"].values()}]
            assert len(lit) >= 5, "the last move's from/to lit"
            assert any(s["dice_view"] for s in watched) and all(s["match"]["length"] == 3 for s in watched)
            assert any("Watching" in " ".join(s["display"]["lines"]) for s in watched)
            # a page action that would play is refused with one line, nothing sent
            answer = await page.act(PageAction("lift", cell="6"))
            assert answer is not None and not isinstance(answer, str) and answer.key == "watching_only"
            sent = [line.split()[0] for line in double.received[page.spectator.names[0]]]
            assert [w for w in sent if w != "pong"] == ["join", "leave"], sent
    asyncio.run(go())


def _undated(record: str) -> list[str]:
    """A .mat record without the time it was written."""
    return [line for line in record.splitlines() if "EventDate" not in line and "EventTime" not in line]


def test_the_served_watch_page_shows_chat_refuses_play_and_leaves() -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=7) as double:
            players = await _match(double, 5)
            page = WatchPage(Spectator(address(double), "Guest_anna"))
            server = SimServer(page)
            runner = await server.start("127.0.0.1", 0)
            assert server.guard is not None
            url = server.guard.url()
            watching = asyncio.create_task(page.run(60))
            try:
                async with asyncio.timeout(20):
                    while page.snapshot()["online_play"]["state"] != "watching":
                        await asyncio.sleep(0.05)
                anna = double.client("Guest_anna")
                anna_game = double.game_of("Guest_anna")
                assert anna_game is not None
                for x in anna_game.everyone():  # anna's chat line, as the server passes it on
                    x.send({"Type": "say", "Player": "Guest_anna", "Message": "hello watchers"})
                assert anna is not None
                async with asyncio.timeout(10):
                    while "Guest_anna: hello watchers" not in page.snapshot()["chat"]:
                        await asyncio.sleep(0.05)
                origin = url.split("/?")[0].rstrip("/")
                async with aiohttp.ClientSession() as http, \
                        http.ws_connect(f"{origin}/ws", headers={"Origin": origin}) as ws:
                    first = json.loads((await ws.receive()).data)
                    assert first["type"] == "state" and first["possible"] == []
                    assert "Guest_anna: hello watchers" in first["chat"]
                    await ws.send_str(json.dumps({"type": "command", "name": "white roll"}))
                    while (msg := json.loads((await ws.receive()).data))["type"] != "notice":
                        pass
                    assert msg["key"] == "watching_only"
                    async with http.get(f"{origin}/display.png", headers={"Origin": origin}) as png:
                        assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")
                    async with http.get(f"{origin}/match.mat", headers={"Origin": origin}) as mat:
                        assert mat.status == 404 and "the server keeps it" in await mat.text()
                    await ws.send_str(json.dumps({"type": "online_leave"}))
                    await asyncio.wait_for(watching, 10)
                assert page.snapshot()["online_play"]["state"] == "off"
                spectator = page.spectator.names[0]
                assert all(not line.startswith(("roll", "move", "ok")) for line in double.received[spectator])
            finally:
                watching.cancel()
                await asyncio.gather(watching, return_exceptions=True)
                await runner.cleanup()
                for p in players:
                    p.cancel()
                await asyncio.gather(*players, return_exceptions=True)
    asyncio.run(go())


def test_watching_an_unknown_match_on_the_page_is_one_line(double: BgammonDouble,  # noqa: F811
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["online", "--server", str(address(double)), "--watch", "42", "--sim", "--no-browser",
                 "--port", "8681", "--seconds", "5"])
    assert code == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("the board: http://127.0.0.1:8681/")
    assert captured.err.strip().splitlines() == [
        f"bgboard online: cannot watch match 42 on {address(double)}: Match not found."]


def test_the_dialogs_watch_choice_shows_the_match_instead_of_the_table_until_leave(tmp_path: Path) -> None:
    async def go() -> None:
        # the watched match is paced (`Players`): it cannot end, giving the table back, mid-test
        async with BgammonDouble(free_port(), seed=7) as double, Players(double, 5) as players:
            live = _sim(tmp_path, double)
            await live.start()
            try:
                refused = await live.act(PageAction("online", settings={"server": str(address(double)),
                                                                        "match": "watch", "join": ""}))
                assert isinstance(refused, Notice) and refused.key == "online_failed"
                assert refused.text == "watching a match needs a match number or a player's name"
                await players.allow(2)
                await until("two turns played", lambda: players.turns <= 0, 20)
                record = _undated(live.match_record())
                answer = await live.act(PageAction("online", settings={"server": str(address(double)),
                                                                       "match": "watch", "join": "Guest_anna"}))
                assert isinstance(answer, Notice) and answer.key == "online_connecting"
                await until("watching", lambda: live.snapshot()["online_play"]["state"] == "watching", 20)
                shown = live.snapshot()
                assert shown["possible"] == [] and shown["actions"] == [] and shown["online_play"]["spectator"]
                assert shown["board"] == _server_board(double)  # the server's checkers, not the board's
                assert live.display_png().startswith(b"\x89PNG")
                assert _undated(live.match_record()) == record  # the .mat is still the local match's
                answer = await live.act(PageAction("command", name="white roll"))
                assert isinstance(answer, Notice) and answer.key == "watching_only"
                # bgammon ignores a spectator's `say` (and relays no chat to it): the page's line says so, nothing sent
                said = await live.act(PageAction("say", name="hello players"))
                assert said == "ignored: watching: a spectator cannot chat on bgammon (no chat line sent)"
                assert live.door is not None and live.door.spectator is not None
                spectator = live.door.spectator.names[0]
                assert not any(line.startswith("say") for line in double.received[spectator])
                assert await live.act(PageAction("online_leave")) is None
                await until("the table again", lambda: live.watched is None and live.door is not None
                            and live.door.state == "off", 10)
                back = live.snapshot()
                assert back["possible"] and back["online_play"]["state"] == "off" and "spectator" not in back["online_play"]
                assert back["board"] != shown["board"]  # the local match's checkers again
            finally:
                await live.close()
    asyncio.run(go())

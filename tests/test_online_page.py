"""Online play started at a running simulator, as the page's New match dialog starts it.

The simulator (`LiveSim`: the virtual board behind a real pseudo-terminal, the table, the
page's actions) is playing a local match; the page's "Online (bgammon.org)" action takes
it onto a match on the protocol double over loopback TCP, where a second bgboard
(`bgboard online --headless`'s table) joins it. Moves go both ways, the opponent's chat
line reaches the page, the player leaves, and the local match is back, exactly as it
was, on the table and in its saved file.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from controller.bgammon import commands
from controller.online.play import OnlinePlay
from controller.online.session import MatchRequest, OnlineSession
from controller.records.store import TableStore
from controller.settings import Settings
from controller.table import make_bot
from sim.online_hands import SimHands
from sim.online_host import SimHost
from sim.page.live import LiveSim
from controller.web.protocol import Notice, PageAction
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port

pytestmark = pytest.mark.timeout(240)


def _sim(tmp: Path, double: BgammonDouble | None, **settings: object) -> LiveSim:
    server = str(address(double)) if double is not None else "127.0.0.1:1"
    known = Settings(online_server=server, **settings)  # type: ignore[arg-type]
    return LiveSim(state_dir=tmp / "sim", settings_file=tmp / "dialog.json", seed=3,
                   online_settings=lambda: known)


@contextlib.asynccontextmanager
async def playing_locally(tmp: Path, double: BgammonDouble) -> AsyncIterator[LiveSim]:
    """The simulator started, its local match begun; closed afterwards."""
    live = _sim(tmp, double)
    await live.start()
    try:
        await _local_match_begun(live)
        yield live
    finally:
        await live.close()


async def _local_match_begun(live: LiveSim) -> None:
    """The local match has begun: the board set up, the opening rolled."""
    assert live.table is not None
    await live.act(PageAction("setup"))
    await until("the board set up", lambda: not live.table.controller.status().setting_up)  # type: ignore[union-attr]
    assert await live.act(PageAction("command", name="white roll")) is None
    assert live.table.controller.status().match.phase == "move"


def test_the_page_starts_an_online_match_plays_it_and_gets_the_local_match_back(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double:
            live = _sim(tmp_path, double)
            await live.start()
            try:
                await _local_match_begun(live)
                assert live.table is not None
                table = live.table
                local = table.controller.status().match
                local_dice = table.controller.state.dice

                answer = await live.act(PageAction("online", settings={
                    "server": str(address(double)), "login": "guest", "match": "private", "points": "3",
                    "match_password": "pw"}))
                assert isinstance(answer, Notice) and answer.key == "online_connecting"
                door = live.door
                assert door is not None
                await until("seated, waiting for an opponent", lambda: door.state == "waiting")
                view = live.snapshot()["online_play"]
                assert view["match"] >= 1 and view["match_password"] == "pw" and view["me"].startswith("Guest_")
                assert table.controller.status().playing_online and table.controller.status().match is not local
                assert table.controller.status().match.length == 3
                assert await live.act(PageAction("new_match", settings={})) == \
                    Notice("online_busy", "this match is played online; leave online play first")

                # the opponent: another bgboard joins the page's match by its number
                other = OnlinePlay(OnlineSession(address(double), name="bert",
                                                 request=MatchRequest(join=str(view["match"]), password="pw"),
                                                 state_dir=tmp_path / "b", rejoin_wait_s=0.3, backoff_s=(0.05, 1.0)))
                await other.open_table(SimHost(autoplay="simple", pause_s=0.05), state_dir=tmp_path / "b")
                opponent = asyncio.create_task(other.run(200))
                hands = SimHands(live, make_bot("simple"), pause_s=0.05)
                working = asyncio.create_task(hands.work())
                seat = door.seat
                assert seat is not None and seat.opponent is not None
                await until("the opponent seated", lambda: door.state == "playing")
                await other.session.send(commands.say("good luck"))
                await until("moves both ways", lambda: seat.opponent.compared >= 2  # type: ignore[union-attr]
                            and other.seat.opponent.compared >= 2, 150)  # type: ignore[union-attr]
                await until("the chat line on the page",
                            lambda: "Guest_bert: good luck" in live.snapshot()["chat"])
                # `bgboard online --sim`'s page shows its match the same way, chat included
                assert isinstance(other.host, SimHost)
                await seat.session.send(commands.say("thanks"))
                their_page = other.host.sim
                await until("their page", lambda: f"{view['me']}: thanks" in their_page.snapshot()["chat"])
                assert their_page.snapshot()["online_play"]["state"] == "playing"
                sent = seat.result.sent
                assert "roll" in sent and any(c.startswith("move ") for c in sent) and "ok" in sent

                # leave: the local match is back, as it was, on the table and on disk
                working.cancel()
                assert await live.act(PageAction("online_leave")) is None
                await until("left", lambda: door.state == "off")
                c = table.controller
                assert c.status().match == local and not c.status().playing_online
                assert c.state.dice == local_dice and c.status().match.settings.black_player == "human"
                assert "left online play; the local match is back" == live.snapshot()["online_play"]["line"]
                assert "leave" in seat.result.sent and seat.result.left
                saved = TableStore(tmp_path / "sim").load(0.0)
                assert saved is not None and saved.position == local.position and saved.history == local.history
                assert not (tmp_path / "sim" / "online" / "online.json").exists()  # left on purpose
                opponent.cancel()
                await asyncio.gather(opponent, working, return_exceptions=True)
            finally:
                await live.close()
    asyncio.run(go())


@pytest.mark.parametrize("form, line", [
    ({"server": "127.0.0.1:1", "match": "public"}, "cannot reach 127.0.0.1:1: Connection refused"),
    ({"match": "join", "join": "42"}, "cannot join match 42 on {server}: Match not found."),
    ({"login": "user"}, "no online user in the settings (online_user): play as a guest"),
    ({"match": "join"}, "joining a match needs a match number or a player's name"),
    ({"points": "lots"}, "match length 'lots' is not a number"),
    ({"server": "no port:x"}, "server 'no port:x': give HOST:PORT, e.g. bgammon.org:1337"),
    ({"password": "secret"}, "unknown online setting 'password'"),
])
def test_errors_are_one_line_on_the_page_and_the_local_match_stays(
        tmp_path: Path, form: dict[str, str], line: str) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double, playing_locally(tmp_path, double) as live:
            assert live.table is not None and live.door is not None
            local = live.table.controller.status().match
            await live.act(PageAction("online", settings=form))
            await until("the attempt over", lambda: not live.door.busy)  # type: ignore[union-attr]
            view = live.snapshot()["online_play"]
            assert view["failed"] and view["state"] == "off"
            assert view["line"] == line.format(server=address(double))
            assert "\n" not in view["line"]
            assert live.table.controller.status().match is local and not live.table.controller.status().playing_online
    asyncio.run(go())


def test_a_malformed_server_line_gives_the_local_match_back(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double, playing_locally(tmp_path, double) as live:
            assert live.table is not None and live.door is not None
            door = live.door
            local = live.table.controller.status().match
            await live.act(PageAction("online", settings={"match": "public"}))
            await until("seated", lambda: door.state == "waiting")
            assert door.seat is not None
            double.inject(door.seat.session.name or "", "<html>502 Bad Gateway</html>")
            await until("stopped", lambda: door.state == "off")
            assert door.line == ("server sent a line that is not JSON: '<html>502 Bad Gateway</html>'; "
                                 "the local match is back")
            assert live.table.controller.status().match == local and not live.table.controller.status().playing_online
    asyncio.run(go())


def test_a_hostile_request_starts_nothing(tmp_path: Path) -> None:
    """The online actions pass the same guard as every page action (controller/web/guard.py): a page
    of another origin is refused at the WebSocket handshake, and a malformed online message
    from the page itself is one short line; the server never hears of either."""
    import aiohttp

    from sim.page.harness import ServerThread

    double = BgammonDouble(free_port())
    known = Settings(online_server=str(address(double)))
    with ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "dialog.json",
                      online_settings=lambda: known) as sim:
        sim.run(double.__aenter__())
        port = int(sim.url.rstrip("/").rsplit(":", 1)[1])
        action = {"type": "online", "settings": {"server": str(address(double)), "match": "public"}}

        async def hostile() -> list[str]:
            answers = []
            async with aiohttp.ClientSession() as http:
                for origin in ("http://evil.example", f"http://evil.example:{port}", "null"):
                    try:
                        async with http.ws_connect(f"{sim.url}ws", headers={"Origin": origin}) as ws:
                            await ws.send_json(action)
                        answers.append("connected")
                    except aiohttp.WSServerHandshakeError as exc:
                        answers.append(str(exc.status))
                own = {"Origin": f"http://127.0.0.1:{port}"}
                async with http.ws_connect(f"{sim.url}ws", headers=own) as ws:
                    await ws.receive_json()  # the first snapshot
                    for bad in ({"type": "online"}, {"type": "online", "settings": ["public"]},
                                {"type": "online", "settings": {"match": {"x": 1}}}):
                        await ws.send_json(bad)
                        while (msg := await ws.receive_json())["type"] != "notice":
                            pass
                        answers.append(msg["text"])
            return answers

        answers = sim.run(hostile(), timeout=30)
        assert answers[:3] == ["403", "403", "403"]
        assert answers[3:] == ["ignored online: settings missing", "ignored online: settings missing",
                               "online setting match is not text"]
        assert double.logins == 0
        assert sim.inspect(lambda live: live.door.state == "off" and not live.table.controller.status().playing_online)  # type: ignore[union-attr]
        sim.run(double.__aexit__())


def test_a_restart_keeps_the_local_match_and_offers_to_rejoin_the_online_one(tmp_path: Path) -> None:
    """The simulator stops in the middle of an online match (a crash, a power cut): started
    again it has the local match, not the online one, and the dialog's "resume" rejoins the
    server match its online.json names."""
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            live = _sim(tmp_path, double)
            await live.start()
            await _local_match_begun(live)
            assert live.table is not None and live.door is not None
            local = live.table.controller.status().match
            await live.act(PageAction("online", settings={"match": "public", "points": "5"}))
            await until("seated", lambda: live.door.state == "waiting")  # type: ignore[union-attr]
            game = live.door.view()["match"]
            await live.close()  # no leave: the server keeps the match, online.json names it

            again = _sim(tmp_path, double)
            await again.start()
            try:
                assert again.table is not None and again.door is not None
                c = again.table.controller
                assert c.status().match.position == local.position and c.status().match.history == local.history
                assert not c.status().playing_online
                assert again.snapshot()["online_play"]["saved"] == f"{address(double)} {game}"
                await again.act(PageAction("online", settings={"server": str(address(double)), "match": "resume"}))
                await until("back in the match", lambda: again.door.state == "waiting")  # type: ignore[union-attr]
                assert again.door.view()["match"] == game and c.status().match.length == 5
                assert again.snapshot()["online_play"]["saved"] == ""
            finally:
                await again.close()
    asyncio.run(go())

"""The room's page server: what it shows (boards, standings, results), the records and the
night's zip for download, a live snapshot relayed to every screen, and that it only shows:
no other method, no foreign Host, no way in off loopback without the link's token."""
from __future__ import annotations

import asyncio
import io
import json
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
from aiohttp import web

from club.room.live import LiveRelay
from club.room.server import RoomServer, room_guard
from club.state import night, store
from club.state.model import Board, ClubState, MatchResult
from club.tournament.model import RoundRules
from club_fake_board import decided_match
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat


def _night(tmp_path: Path) -> ClubState:
    state = store.create(tmp_path, "Thursday club")
    for name in ["Anna", "Bjørn", "Carl", "Dora"]:
        state = night.add_player(state, name)
    state = night.add_board(state, Board("b-1", "Table 1", "http://10.0.0.1:8080", "secret-key-of-the-board"))
    state = night.add_board(state, Board("b-2", "Table 2", "http://10.0.0.2:8080", "another-secret"))
    state = night.start(state, "swiss", (RoundRules(1),), 2, seed=1)
    first, second = state.tournaments[0].rounds[0].pairings
    state = night.assign(night.assign(state, first.match_id, "b-1"), second.match_id, "b-2")
    m = decided_match(first.white, first.black, 1, "black")
    return night.record(state, MatchResult(first.match_id, "b-1", first.white, first.black, 1, m.score, "black",
                                           write_mat(record_from_match(m)), "t"))


async def _serving(state: ClubState, relay: LiveRelay, host: str,
                   body: Callable[[str, RoomServer], Awaitable[None]]) -> None:
    room = RoomServer(lambda: state, relay, room_guard(host, 0))
    runner = web.AppRunner(room.app)
    await runner.setup()
    site = web.TCPSite(runner, host, 0)
    await site.start()
    port = runner.addresses[0][1]
    room.guard = room_guard(host, port)
    try:
        await body(f"http://{host}:{port}", room)
    finally:
        await runner.cleanup()


def test_the_room_shows_boards_standings_and_results_without_the_boards_keys(tmp_path: Path) -> None:
    state = _night(tmp_path)

    async def body(base: str, room: RoomServer) -> None:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/room.json") as r:
                text = await r.text()
            view = json.loads(text)
            assert "secret" not in text and "10.0.0.1" not in text
            assert [b["name"] for b in view["boards"]] == ["Table 1", "Table 2"]
            assert view["boards"][0]["match"] is None  # its match is recorded: the board is free
            assert view["boards"][1]["match"]["white"] == "Bjørn"
            assert view["tournaments"][0]["head"][:3] == ["rank", "name", "score"]
            record = view["results"][0]["record"]
            async with s.get(f"{base}/{record}") as r:
                assert r.status == 200 and "1 point match" in await r.text()
            async with s.get(f"{base}/night.zip") as r:
                names = zipfile.ZipFile(io.BytesIO(await r.read())).namelist()
            assert names == [record.split("/")[-1], "standings.csv"]
            async with s.get(f"{base}/") as r:
                assert r.status == 200 and "<title>Club room</title>" in await r.text()

    asyncio.run(_serving(state, LiveRelay(), "127.0.0.1", body))


def test_the_room_only_shows(tmp_path: Path) -> None:
    state = _night(tmp_path)

    async def body(base: str, room: RoomServer) -> None:
        async with aiohttp.ClientSession() as s:
            async with s.post(f"{base}/room.json", json={}) as r:
                assert r.status == 405
            async with s.get(f"{base}/room.json", headers={"Host": "evil.example:80"}) as r:
                assert r.status == 403 and "Host" in await r.text()

    asyncio.run(_serving(state, LiveRelay(), "127.0.0.1", body))


def test_off_loopback_the_room_needs_its_links_token(tmp_path: Path) -> None:
    state = _night(tmp_path)

    async def body(base: str, room: RoomServer) -> None:
        assert room.guard.token is not None
        local = base.replace("0.0.0.0", "127.0.0.1")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:  # an IP's cookies
            async with s.get(f"{local}/room.json") as r:
                assert r.status == 403
            async with s.get(f"{local}/room.json?token={room.guard.token}") as r:
                assert r.status == 200  # the token, exchanged for a cookie, and the page follows

    asyncio.run(_serving(state, LiveRelay(), "0.0.0.0", body))


class _LiveBoard:
    def __init__(self, snapshots: list[dict[str, object]]) -> None:
        self.snapshots = snapshots

    async def live(self) -> AsyncIterator[dict[str, object]]:
        for snapshot in self.snapshots:
            await asyncio.sleep(0)
            yield snapshot
        await asyncio.Event().wait()  # the socket stays open


def test_a_boards_live_snapshot_reaches_every_screen(tmp_path: Path) -> None:
    state = _night(tmp_path)
    relay = LiveRelay()

    async def body(base: str, room: RoomServer) -> None:
        async with aiohttp.ClientSession() as s:
            async with s.ws_connect(f"{base}/ws") as a, s.ws_connect(f"{base}/ws") as b:
                assert json.loads((await a.receive()).data)["type"] == "room"
                assert json.loads((await b.receive()).data)["type"] == "room"
                await a.send_str('{"type": "action", "kind": "new_match"}')  # ignored
                relay.follow(state.boards[1], _LiveBoard([{"last_move": "31: 8/5 6/5"}]))  # type: ignore[arg-type]
                for ws in (a, b):
                    message = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
                    assert message == {"type": "live", "board_id": "b-2", "live": {"last_move": "31: 8/5 6/5"}}
        await relay.stop()

    asyncio.run(_serving(state, relay, "127.0.0.1", body))

"""The board's side of the club (issue 36; ../notes/club-contract.md is the contract): a
hub pairs with the code the display shows, assigns a club match, reads the status and the
live snapshot, collects the result kept in the state directory and acknowledges it; bad
input is one line and changes nothing. Over real HTTP on loopback, against the phone's
page server of `bgboard run --page` (controller/web/board_page.py) on a table without a board.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

from controller.board.profile import load_profile
from controller.board.reconcile import BoardState
from controller.controller import Controller
from controller.dice import DiceState
from controller.engine import Position
from controller.engine.board_view import cell_counts
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, ButtonPressed, LinkPublished, ReadingReceived, Tick, menu_pressed
from controller.records.mat_reader import check_mat, parse_mat
from controller.records.store import TableStore
from controller.show.display import text_lines
from controller.table import Table
from controller.web.board_page import PlayerServer, board_page
from controller.web.club_door import open_club
from controller.web.club_state import ClubStore
from controller.web.club_table import ClubTable
from controller.web.page_links import pairing_view
from controller.web.spectators import table_view

FINISHED = datetime(2026, 12, 7, 21, 30, tzinfo=UTC)
HUB = {"hub_id": "5f0c8c1e-hub-one", "hub_name": "Club night"}
ASSIGN = {"match_id": "r1-b3", "white": "Anna Berg", "black": "Bo", "length": 3,
          "clock": None, "crawford": True}


def _table(tmp_path: Path) -> Table:
    """A table whose board stands set up (no board link: the hub's side needs none)."""
    match = Match.new(MatchSettings(length=5))
    table = Table(Controller(match, dice=DiceState().adopt(match), now=1.0), store=TableStore(tmp_path),
                  clock=lambda: 1.0)
    table.dispatch(ReadingReceived(BoardState.of(cell_counts(Position.initial(), "white")), 1.0))
    table.dispatch(Tick(1.5))
    return table


class Board:
    """The table, its club and the phone page's server it is served on, and a hub's session."""

    def __init__(self, tmp_path: Path) -> None:
        profile = load_profile()
        self.tmp_path = tmp_path
        self.table = _table(tmp_path)
        self.server = PlayerServer(board_page(self.table, profile))
        self.club: ClubTable = open_club(self.server, self.table, table_view(self.table, profile), tmp_path,
                                         board_name="board-7", wall=lambda: FINISHED)
        self.session: aiohttp.ClientSession
        self.base = ""
        self.key: dict[str, str] = {}

    async def call(self, method: str, name: str, body: object = None, *, raw: bytes | None = None,
                   headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        async with self.session.request(method, self.base + name, data=data,
                                        headers={**self.key, **(headers or {})}) as response:
            return response.status, await response.json()

    async def pair(self, hub: dict[str, str] = HUB) -> dict[str, object]:
        status, answer = await self.call("POST", "pair", {"code": self.club.code(), **hub})
        assert status == 200, answer
        self.key = {"Authorization": f"Bearer {answer['hub_key']}", "X-Club-Hub": hub["hub_id"]}
        return answer


def served(test: Callable[[Board], Awaitable[None]]) -> Callable[[Path], None]:
    def run(tmp_path: Path) -> None:
        async def main() -> None:
            board = Board(tmp_path)
            runner = await board.server.start("127.0.0.1", 0)
            assert board.server.guard is not None
            board.base = f"http://127.0.0.1:{board.server.guard.port}/club/v1/"
            try:
                async with aiohttp.ClientSession() as board.session:
                    await test(board)
            finally:
                await runner.cleanup()
        asyncio.run(main())
    run.__name__ = test.__name__
    return run


def _kept(board: Board) -> ClubStore:
    """What a board restarted now would find in its state directory."""
    return ClubStore(board.tmp_path / "club")


@served
async def test_a_hub_pairs_with_the_code_the_display_shows(board: Board) -> None:
    assert board.club.code() == board.server.guard.token  # type: ignore[union-attr]
    assert (await board.call("POST", "pair", {"code": "guess", **HUB}))[0] == 403
    assert _kept(board).hub is None
    answer = await board.pair()
    assert answer["board_name"] == "board-7" and answer["board_id"] == _kept(board).board_id
    assert len(str(answer["hub_key"])) >= 32
    kept = _kept(board).hub
    assert kept is not None and kept.hub_id == HUB["hub_id"] and kept.hub_key == answer["hub_key"]
    # the page's whole link is a code too
    status, again = await board.call("POST", "pair", {"code": board.server.guard.url(), **HUB})  # type: ignore[union-attr]
    assert status == 200 and again["hub_key"] != answer["hub_key"]  # the same hub: a new key
    assert (await board.call("GET", "status"))[0] == 403  # the old key is gone
    board.key["Authorization"] = f"Bearer {again['hub_key']}"
    assert (await board.call("GET", "status"))[0] == 200


@served
async def test_a_board_paired_to_another_hub_refuses_in_one_line(board: Board) -> None:
    await board.pair()
    status, answer = await board.call("POST", "pair", {"code": board.club.code(), "hub_id": "other",
                                                       "hub_name": "Rival club"})
    assert status == 409
    assert answer == {"error": "refused: this board is paired to another club hub (Club night): "
                               "New page links on the board frees it"}
    assert _kept(board).hub.hub_id == HUB["hub_id"]  # type: ignore[union-attr]


@served
async def test_no_order_from_a_hub_without_the_key(board: Board) -> None:
    for headers in ({}, {"X-Club-Hub": HUB["hub_id"]}, {"Authorization": "Bearer forged", "X-Club-Hub": HUB["hub_id"]}):
        board.key = headers
        status, answer = await board.call("POST", "assign", ASSIGN)
        assert status == 403 and "\n" not in str(answer["error"])
    key = await board.pair()
    board.key = {"Authorization": f"Bearer {key['hub_key']}", "X-Club-Hub": "another hub"}
    assert (await board.call("POST", "assign", ASSIGN))[0] == 403
    assert board.table.controller.status().match.settings.white == "White"
    assert _kept(board).match is None


@served
async def test_a_web_page_cannot_call_the_club(board: Board) -> None:
    """A browser's request carries an Origin: even with the right code nothing is paired."""
    status, answer = await board.call("POST", "pair", {"code": board.club.code(), **HUB},
                                      headers={"Origin": f"http://127.0.0.1:{board.server.guard.port}"})  # type: ignore[union-attr]
    assert status == 403 and "web page" in str(answer["error"])
    status, _ = await board.call("POST", "pair", {"code": board.club.code(), **HUB}, headers={"Host": "evil.example"})
    assert status == 403 and _kept(board).hub is None


@served
async def test_an_assignment_is_the_tables_new_match_with_both_names(board: Board) -> None:
    await board.pair()
    status, answer = await board.call("POST", "assign", {**ASSIGN, "clock": {"minutes": 6, "delay_s": 8}})
    assert status == 200 and answer["accepted"] is True
    m = board.table.controller.status().match
    assert (m.settings.white, m.settings.black, m.settings.length, m.settings.crawford) == ("Anna Berg", "Bo", 3, True)
    assert m.settings.clock == "tournament" and m.phase == "opening" and m.score == (0, 0)
    assert m.clock is not None and m.clock.reading(1.0).white.bank == 360.0  # 6 minutes each
    assert answer["clock"] == {"minutes": 6, "delay_s": 12}  # the rule's delay, said
    assert "White: Anna Berg / Black: Bo" in " ".join(text_lines(board.table.controller.status().scene.display))
    status, state = await board.call("GET", "status")
    assert status == 200 and state["playing"] is True and state["board_name"] == "board-7"
    assert state["assignment"] == {**ASSIGN, "clock": {"minutes": 6, "delay_s": 8}}
    live = state["live"]
    assert isinstance(live, dict) and live["spectator"] is True and live["match"]["length"] == 3  # type: ignore[index]
    # the same match again changes nothing; another while it is played is refused
    assert (await board.call("POST", "assign", {**ASSIGN, "clock": {"minutes": 6, "delay_s": 8}}))[0] == 200
    assert board.table.controller.status().match is m
    status, answer = await board.call("POST", "assign", {**ASSIGN, "match_id": "r1-b4"})
    assert status == 409 and "r1-b3" in str(answer["error"])
    assert board.table.controller.status().match is m


@served
async def test_bad_assignments_are_one_line_each_and_change_nothing(board: Board) -> None:
    await board.pair()
    before = board.table.controller.status().match
    bad: list[tuple[dict[str, object] | None, bytes | None, str]] = [
        ({**ASSIGN, "white": "Anna\x1b[2J"}, None, "control characters"),
        ({**ASSIGN, "black": "B\no"}, None, "control characters"),
        ({**ASSIGN, "white": ""}, None, "white name"),
        ({**ASSIGN, "black": "x" * 41}, None, "black name"),
        ({**ASSIGN, "white": "Ann: 2"}, None, "no ':'"),
        ({**ASSIGN, "length": 0}, None, "length"),
        ({**ASSIGN, "length": 26}, None, "length"),
        ({**ASSIGN, "length": "3"}, None, "length"),
        ({**ASSIGN, "crawford": "yes"}, None, "crawford"),
        ({**ASSIGN, "clock": {"minutes": 5}}, None, "clock"),
        ({**ASSIGN, "clock": {"minutes": 0, "delay_s": 12}}, None, "clock minutes"),
        (None, b'{"match_id": "r1-b3", ', "malformed JSON"),
        (None, b"\xff\xfe", "malformed JSON"),
        (None, b"[1, 2]", "JSON object"),
    ]
    for body, raw, said in bad:
        status, answer = await board.call("POST", "assign", body, raw=raw)
        assert status == 400 and said in str(answer["error"]) and "\n" not in str(answer["error"]), answer
    assert board.table.controller.status().match is before and _kept(board).match is None
    status, answer = await board.call("POST", "assign", raw=b" " * (64 * 1024 + 1))
    assert status == 400 and "64 KiB" in str(answer["error"])


@served
async def test_a_club_matchs_result_is_kept_until_the_hub_acknowledges_it(board: Board) -> None:
    await board.pair()
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200
    assert (await board.call("GET", "results"))[1] == {"results": []}
    board.table.dispatch(ActionRequested("black", "forfeit", 2.0))  # Bo gives the match up
    assert board.table.controller.status().match.is_over
    kept = _kept(board).results  # on disk at once: a board killed now has it
    assert len(kept) == 1
    status, answer = await board.call("GET", "results")
    assert status == 200 and answer["results"] == kept
    result = kept[0]
    assert {k: result[k] for k in ("match_id", "white", "black", "length", "score", "winner", "finished_at")} == {
        "match_id": "r1-b3", "white": "Anna Berg", "black": "Bo", "length": 3, "score": [0, 0],
        "winner": "white", "finished_at": "2026-12-07T21:30:00Z"}
    record, _ = check_mat(str(result["record"]))  # a forfeit before any move: no game to replay
    assert record.players == ("Anna Berg", "Bo") and record.length == 3
    state = (await board.call("GET", "status"))[1]
    assert state["playing"] is False and state["assignment"] == ASSIGN
    # the next match may be assigned; the result stays until acknowledged, only that one
    assert (await board.call("POST", "assign", {**ASSIGN, "match_id": "r2-b3"}))[0] == 200
    assert [r["match_id"] for r in (await board.call("GET", "results"))[1]["results"]] == ["r1-b3"]  # type: ignore[union-attr,index]
    assert await board.call("POST", "ack", {"match_id": "r9-b9"}) == (200, {"known": False})
    assert len(_kept(board).results) == 1
    assert await board.call("POST", "ack", {"match_id": "r1-b3"}) == (200, {"known": True})
    assert await board.call("POST", "ack", {"match_id": "r1-b3"}) == (200, {"known": False})
    assert (await board.call("GET", "results"))[1] == {"results": []} and _kept(board).results == []


@served
async def test_new_page_links_forgets_the_hub(board: Board) -> None:
    await board.pair()
    table = board.table
    table.dispatch(LinkPublished("phone", pairing_view("http://127.0.0.1:8080/?token=x", "phone"), 1.0))
    table.dispatch(menu_pressed(1.0))
    while table.controller.status().menu.item != "new_links":
        table.dispatch(menu_pressed(1.0))
    table.dispatch(ButtonPressed("black", "main", 1.0))
    assert _kept(board).hub is None
    status, answer = await board.call("GET", "status")
    assert status == 403 and "not the club hub" in str(answer["error"])


@served
async def test_the_live_socket_sends_the_snapshot_now_and_on_change(board: Board) -> None:
    await board.pair()
    async with board.session.ws_connect(board.base + "live", headers=board.key) as ws:
        first = json.loads((await ws.receive(timeout=5)).data)
        assert first["spectator"] is True and first["match"]["length"] == 5
        await ws.send_str('{"kind": "button", "name": "white_main"}')  # read-only: ignored
        assert (await board.call("POST", "assign", ASSIGN))[0] == 200
        changed = json.loads((await ws.receive(timeout=5)).data)
        assert changed["match"]["length"] == 3 and changed["names"] == {"white": "Anna Berg", "black": "Bo"}
    assert board.table.controller.status().match.phase == "opening"
    board.key = {}
    try:
        await board.session.ws_connect(board.base + "live")
        raise AssertionError("the live socket opened without the hub's key")
    except aiohttp.WSServerHandshakeError as exc:
        assert exc.status == 403


def test_the_longest_names_are_read_back_from_the_record() -> None:
    """A club's players are named up to 40 characters: the record's score line still says
    both names and the score (a first name past 26 ran into the second)."""
    from controller.web.record import mat_text

    names = ("A" * 40, "Bo Øster-" + "b" * 31)
    match = Match.new(MatchSettings(length=3, white=names[0], black=names[1]))
    raw = parse_mat(mat_text(match.forfeit("black", 1.0).match))
    assert raw.games[0].names == names and raw.games[0].score == (0, 0)


@served
async def test_the_seats_are_shown_until_the_first_roll(board: Board) -> None:
    await board.pair()
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200

    def shown() -> str:
        return " ".join(text_lines(board.table.controller.status().scene.display))
    assert "White: Anna Berg / Black: Bo" in shown()
    for now in range(2, 40):  # the dice are random: a tied opening roll is rolled again
        board.table.dispatch(ActionRequested("white", "roll", float(now)))
        await asyncio.sleep(0)  # the banner goes after the event that rolled
        if board.table.controller.status().match.phase != "opening":
            break
    assert board.table.controller.status().match.phase != "opening"
    assert "Anna Berg" not in shown()


@served
async def test_a_club_match_replaced_at_the_table_is_abandoned(board: Board) -> None:
    """A person starts another match at the board (its menu's New match): the club match is
    no longer played, and the hub may assign the next one."""
    from controller.events import MatchChosen

    await board.pair()
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200
    board.table.dispatch(MatchChosen(Match.new(MatchSettings(length=7)), 2.0))
    status, state = await board.call("GET", "status")
    assert state["playing"] is False and state["assignment"] == ASSIGN
    assert (await board.call("POST", "assign", {**ASSIGN, "match_id": "r1-b5"}))[0] == 200
    assert board.table.controller.status().match.settings.length == 3


@served
async def test_a_club_match_abandoned_at_the_table_starts_again_when_the_hub_sends_it_again(board: Board) -> None:
    """The hub sees the abandoned match (its status: assigned, not playing, no result) and sends
    it again: the same players sit down to it from the start, and the board plays it again."""
    from controller.events import MatchChosen

    await board.pair()
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200
    board.table.dispatch(MatchChosen(Match.new(MatchSettings(length=7)), 2.0))
    assert (await board.call("GET", "status"))[1]["playing"] is False
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200
    _, state = await board.call("GET", "status")
    assert state["playing"] is True and state["assignment"] == ASSIGN
    assert board.table.controller.status().match.settings.length == 3
    assert "White: Anna Berg / Black: Bo" in " ".join(text_lines(board.table.controller.status().scene.display))
    assert (await board.call("POST", "assign", ASSIGN))[0] == 200  # sent again while played: nothing changes
    assert board.table.controller.status().match.settings.length == 3
    assert (await board.call("POST", "assign", {**ASSIGN, "match_id": "r1-b5"}))[0] == 409

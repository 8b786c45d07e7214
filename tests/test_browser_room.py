"""The club room's page in Chromium (issue 36.3): every board of the night is on it, a move
made on a board appears on it, one board grows large on a click (and back on a second), the
standings and results are beside, and the page only shows: nothing a screen does reaches a
board or changes the night. The boards are stand-ins for their live sockets, fed through the
hub's own relay and room server."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_support import needs_chromium
from bgboard.bench.club_bench import RoomThread, club_night, snapshot
from club.state import night
from club.state.model import ClubState, MatchResult
from club_fake_board import decided_match
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat

pytestmark = needs_chromium


def _night_with_a_result(root: Path) -> ClubState:
    """Four boards, eight players, round 1 assigned, and Table 1's match won by Black."""
    state = club_night(root, 4)
    first = state.tournaments[0].rounds[0].pairings[0]
    m = decided_match(first.white, first.black, 3, "black")
    return night.record(state, MatchResult(first.match_id, "b-1", first.white, first.black, 3, m.score, "black",
                                           write_mat(record_from_match(m)), "2026-12-07T20:00:00Z"))


def _open(browser: Any, hub: RoomThread) -> Any:
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.goto(hub.url)
    page.wait_for_function("document.querySelectorAll('#boards section.board').length === 4")
    return page


def test_the_room_shows_every_board_its_players_and_the_standings(browser: Any, tmp_path: Path) -> None:
    state = _night_with_a_result(tmp_path)
    with RoomThread(state) as hub:
        page = _open(browser, hub)
        names = page.locator("#boards section.board h2").all_inner_texts()
        assert names == ["Table 1", "Table 2", "Table 3", "Table 4"]
        pairings = state.tournaments[0].rounds[0].pairings
        table_2 = page.locator('#boards section.board[data-id="b-2"]').inner_text()
        assert f"White: {pairings[1].white} / Black: {pairings[1].black}" in table_2
        assert "free" in page.locator('#boards section.board[data-id="b-1"]').inner_text()  # its match is over
        standings = page.locator("#tables table").inner_text()
        winner = pairings[0].black
        rows = [line.split("\t") for line in standings.splitlines()]
        assert rows[0][:3] == ["rank", "name", "score"]
        assert [r[1] for r in rows[1:]].count(winner) == 1 and len(rows) == 9  # the 8 players
        assert rows[1][1] == winner  # the one who won leads
        assert f"{pairings[0].white} v {winner}" in page.locator("#results").inner_text()
        page.close()


def test_a_move_on_a_board_appears_on_the_room_page(browser: Any, tmp_path: Path) -> None:
    with RoomThread(club_night(tmp_path, 4)) as hub:
        page = _open(browser, hub)
        hub.push(2, "64: 24/18 13/9")  # Table 3's board: White played 6-4
        card = page.locator('#boards section.board[data-id="b-3"]')
        card.get_by_text("last move: 64: 24/18 13/9").wait_for()  # waited for, not timed
        assert "last move: 64: 24/18 13/9" not in page.locator('#boards section.board[data-id="b-2"]').inner_text()
        assert card.locator(".pt span").count() > 0  # the position is drawn with it
        page.close()


def test_one_board_large_on_a_click_and_back_on_another(browser: Any, tmp_path: Path) -> None:
    with RoomThread(club_night(tmp_path, 4)) as hub:
        page = _open(browser, hub)
        page.click('#boards section.board[data-id="b-2"] h2')
        assert page.locator("#boards section.board.big").count() == 1
        big = page.locator('#boards section.board[data-id="b-2"]')
        small = page.locator('#boards section.board[data-id="b-1"]').bounding_box()
        assert "big" in (big.get_attribute("class") or "")
        assert big.bounding_box()["width"] > 1.5 * small["width"]
        hub.push(1, "31: 8/5 6/5")  # it stays large as its board moves
        big.get_by_text("last move: 31: 8/5 6/5").wait_for()
        assert "big" in (page.locator('#boards section.board[data-id="b-2"]').get_attribute("class") or "")
        page.click('#boards section.board[data-id="b-2"] h2')
        assert page.locator("#boards section.board.big").count() == 0
        page.close()


def test_the_room_page_only_shows(browser: Any, tmp_path: Path) -> None:
    state = club_night(tmp_path, 4)
    saved = sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file())
    with RoomThread(state) as hub:
        page = _open(browser, hub)
        statuses = page.evaluate("""async () => {
            const out = [];
            for (const [method, path] of [["POST", "/room.json"], ["PUT", "/"], ["DELETE", "/night.zip"],
                                          ["POST", "/ws"], ["POST", "/club/v1/assign"]]) {
              out.push((await fetch(path, {method, body: "{}"})).status);
            }
            return out;
        }""")
        assert statuses == [405, 405, 405, 405, 405]
        sent = page.evaluate("""() => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws`);
            ws.onopen = () => { ws.send(JSON.stringify({type: "action", kind: "new_match"})); ws.send("reset"); };
            ws.onmessage = () => { ws.close(); resolve(true); };
        })""")
        assert sent
        hub.push(0, "52: 13/8 13/11")  # the room still follows the board after what the screen sent
        page.get_by_text("last move: 52: 13/8 13/11").wait_for()
        assert hub.state is state
        page.close()
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.rglob("*") if p.is_file()) == saved

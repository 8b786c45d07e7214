"""Watching from the board's menu in `bgboard sim` shows the watched match on the page.

Chromium on the simulator's page; the protocol double over loopback TCP on the
simulator's own loop, where two plain protocol clients play the watched match, paced by
the test (`Players`). The person presses the page's hardware buttons (the mock pins the
real button panel reads): Menu until the display offers "Watch online", then White's main
button. From then on the page draws the server's checkers, not the board's (issue 15's
defect: they stayed the local match's), with the watched match's players, dice and score
and the "watching" state, and follows the server move after move; "Leave watching" from
the same menu gives the local match back on the page exactly, checkers and all.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import Page, ctl, needs_chromium, wait_until
from controller.engine.board_view import CELLS, cell_counts
from controller.settings import Settings
from sim.page.harness import ServerThread, fast_profile
from tests.online_double import BgammonDouble, position_for
from tests.test_online_client import address, free_port
from tests.test_online_watch_menu import Players

pytestmark = [needs_chromium, pytest.mark.timeout(240)]
WAIT_S = 20.0  # generous: the machine may be busy; every wait ends as soon as its condition holds

Cells = dict[str, list[int]]


@pytest.fixture()
def watched_on_the_double(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                          ) -> Iterator[tuple[BgammonDouble, Players, ServerThread]]:
    """The simulator whose settings name the double and Guest_anna's match as the one to
    watch; the match played on the double, two turns in (its checkers off the start)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state").mkdir()
    double = BgammonDouble(free_port(), seed=5)
    settings = Settings(online_server=str(address(double)), online_watch="Guest_anna")
    sim = ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "config" / "bgboard" / "simulator.json",
                       profile=fast_profile(tmp_path), seed=11, online_settings=lambda: settings)
    with sim:
        sim.run(double.__aenter__())
        players = Players(double, 3)
        sim.run(players.__aenter__(), WAIT_S)
        try:
            yield double, players, sim
        finally:
            sim.run(players.__aexit__(None, None, None))
            sim.run(double.__aexit__(None, None, None))


def server_board(sim: ServerThread, double: BgammonDouble) -> Cells:
    """The double's own board (player 1 is White, as a spectator sees it), read on its loop."""
    def read() -> Cells:
        counts = cell_counts(position_for(double.games[0].board, 1), "white")
        return {c: list(counts.get(c, (0, 0))) for c in CELLS}
    return sim.call(read)


def allow(sim: ServerThread, players: Players, turns: int) -> None:
    """`turns` more turns of the watched match, played out before this returns."""
    sim.run(players.allow(turns))
    wait_until(lambda: sim.call(lambda: players.turns) <= 0, WAIT_S, f"{turns} turns of the watched match")


def door_state(sim: ServerThread) -> str:
    """What the table's online door is doing (`off`, `watching`, ...)."""
    return sim.inspect(lambda live: live.door.state if live.door is not None else "no door")


def press(page: Page, sim: ServerThread, button: str, changed: Any) -> None:
    """Press the page's hardware `button` and wait until `changed()` says the table saw it."""
    page.click_button(button)
    wait_until(changed, WAIT_S, f"the table's answer to {button}")


def to_menu_item(page: Page, sim: ServerThread, item: str) -> None:
    """Open the menu with its button and step with it to `item` (as on the board)."""
    press(page, sim, "menu", lambda: ctl(sim, lambda c: c.status().menu.is_open))
    for _ in range(len(ctl(sim, lambda c: c.status().menu.items))):
        now = ctl(sim, lambda c: c.status().menu.item)
        if now == item:
            return
        press(page, sim, "menu", lambda: ctl(sim, lambda c: c.status().menu.item) != now)
    raise AssertionError(f"the menu has no {item!r}: {ctl(sim, lambda c: c.status().menu.items)}")


def drawn(page: Page, board: Cells) -> dict[str, int]:
    """How many checkers the page draws on each point of `board` (a stack of more than five
    is drawn as five, the fifth carrying the count)."""
    return {c: page.page.locator(f'#checkers [data-cell="{c}"]').count() for c, (w, b) in board.items()
            if c.isdigit() and w + b}


def test_watching_from_the_board_menu_shows_the_watched_checkers_then_the_local_match_again(
        browser: Any, watched_on_the_double: tuple[BgammonDouble, Players, ServerThread]) -> None:
    double, players, sim = watched_on_the_double
    wait_until(lambda: ctl(sim, lambda c: c.status().online and not c.status().setting_up), WAIT_S, "the table ready")
    allow(sim, players, 2)
    page = Page(browser, sim.url)
    p = page.page
    wait_until(lambda: p.locator("#actions button").count() > 0, WAIT_S, "the table's actions")
    local = ctl(sim, lambda c: c.status().match)
    local_board = page.state()["board"]
    players_before = p.locator("#players").inner_text()
    assert server_board(sim, double) != local_board  # the two matches stand apart

    to_menu_item(page, sim, "watch_online")
    press(page, sim, "white_main", lambda: door_state(sim) == "watching")
    wait_until(lambda: p.locator("#online-state").inner_text() == "watching (read-only)", WAIT_S, "watching")
    names = sim.call(lambda: double.games[0].names)
    assert f"watching {names[1]} - {names[2]}" in p.locator("#online-facts").inner_text()

    def shows_the_server() -> bool:
        state = page.state()
        return state["board"] == server_board(sim, double) and state["online_play"]["state"] == "watching"

    wait_until(shows_the_server, WAIT_S, "the page's checkers the watched match's")
    board = page.state()["board"]
    shown = {c: min(w + b, 5) for c, (w, b) in board.items() if c.isdigit() and w + b}
    wait_until(lambda: drawn(page, board) == shown, WAIT_S, "the checkers drawn where the server has them")
    state = page.state()
    assert (state["online_play"]["me"], state["online_play"]["opponent"]) == (names[1], names[2])
    wait_until(lambda: p.locator("#players").inner_text() == f"{names[1]} vs {names[2]}", WAIT_S,
               "the watched match's players by name")
    game = sim.call(lambda: double.games[0])
    assert sorted(state["match"]["dice"]) == sorted(d for d in (game.roll1, game.roll2) if d)
    assert state["match"]["score"] == {"white": game.score[1], "black": game.score[2]}
    assert state["match"]["length"] == 3 and state["cube_view"] == {"value": 1, "owner": "center", "offered": False}
    assert state["possible"] == [] and state["helpers"] == [] and p.locator("#actions button").count() == 0

    # the page follows the server: one more turn, the checkers move with it
    before = board
    allow(sim, players, 1)
    wait_until(shows_the_server, WAIT_S, "the next turn's checkers")
    assert page.state()["board"] != before
    wait_until(lambda: {v["role"] for v in page.state()["leds"].values()} == {"last-from", "last-to"}, WAIT_S,
               "the last move lit as on the board")

    # a checker clicked is not lifted: the board is not used while watching
    cell, colour = next((c, "white" if w else "black") for c, (w, b) in page.state()["board"].items()
                        if c.isdigit() and w + b)
    p.mouse.click(*page.checker(cell, colour))
    assert "this page plays nothing" in page.wait_notice("watching a match online", WAIT_S)
    assert page.state()["hand"] == []

    # "Leave watching" from the same menu: the local match back on the page, checkers and all
    to_menu_item(page, sim, "leave_watching")
    press(page, sim, "white_main", lambda: door_state(sim) == "off")
    wait_until(lambda: page.state()["board"] == local_board and page.state()["online_play"]["state"] == "off",
               WAIT_S, "the local checkers on the page again")
    wait_until(lambda: p.locator("#actions button").count() > 0, WAIT_S, "the table's actions again")
    assert ctl(sim, lambda c: c.status().match == local and not c.status().playing_online)
    assert p.locator("#online-line").inner_text() == "stopped watching; the local match is back"
    wait_until(lambda: p.locator("#players").inner_text() == players_before, WAIT_S, "the local players again")
    assert page.errors == [], page.errors
    page.close()

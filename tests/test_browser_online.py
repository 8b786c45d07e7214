"""The page's New match dialog plays online: Chromium on the simulator's page, the protocol
double over loopback TCP on the simulator's own loop.

The person chooses "Online (bgammon.org)", creates a private match; the page shows the
server's state (waiting, then playing against the opponent who joined), the password to
pass on, the opponent's chat line, and a button that leaves: the local match is back. A
refused match is one clear line on the page. The account's password never passes through
the page: the dialog has no field for it, and nothing the page sends carries it.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import Page, ctl, needs_chromium, wait_until
from controller.bgammon import commands
from controller.online.client import Connection
from controller.online.events import Say
from controller.settings import Settings
from sim.page.harness import ServerThread, fast_profile
from controller.web.protocol import PageAction
from tests.online_double import BgammonDouble
from tests.test_online_client import address, free_port
from tests.test_online_watch_menu import Players

pytestmark = [needs_chromium, pytest.mark.timeout(180)]
SECRET = "correct horse"


@pytest.fixture()
def double_and_sim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[BgammonDouble, ServerThread]]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state").mkdir()
    double = BgammonDouble(free_port())
    (tmp_path / "password").write_text(SECRET + "\n")
    settings = Settings(online_server=str(address(double)), online_user="carol",
                        online_password_file=tmp_path / "password")
    server = ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "config" / "bgboard" / "simulator.json",
                          profile=fast_profile(tmp_path), seed=11, online_settings=lambda: settings)
    with server:
        server.run(double.__aenter__())
        wait_until(lambda: ctl(server, lambda c: c.status().online and not c.status().setting_up))
        try:
            yield double, server
        finally:
            server.run(double.__aexit__())


def _text(page: Page, selector: str) -> str:
    return page.page.locator(selector).inner_text()


def test_the_dialog_plays_online_and_leaving_gives_the_local_match_back(
        browser: Any, double_and_sim: tuple[BgammonDouble, ServerThread]) -> None:
    double, sim = double_and_sim
    assert sim.run(sim.live.act(PageAction("command", name="white roll"))) is None  # type: ignore[union-attr]
    local = ctl(sim, lambda c: c.status().match)
    page = Page(browser, sim.url)
    p = page.page
    assert p.locator("#online").is_hidden()

    p.click("#new-match-open")
    p.locator("#dlg-where").select_option("online")
    assert p.locator("#local-fields").is_hidden() and p.locator("#online-fields").is_visible()
    assert p.locator('#online-fields [name="server"]').input_value() == str(address(double))
    assert p.locator("#dlg-login-user").inner_text() == "as carol (the settings' user)"
    assert p.locator('#new-match-form input[type="password"]').count() == 0  # no field for an account's password
    p.locator("#dlg-online-match").select_option("private")
    p.locator('#online-fields [name="points"]').fill("3")
    p.locator('#online-fields [name="match_password"]').fill("pw")
    p.click("#new-match-start")  # a match is running here: it is set aside, not asked about

    wait_until(lambda: _text(page, "#online-state") == "waiting for an opponent", 15, "waiting on the page")
    assert "match 1 on " in _text(page, "#online-facts") and "Password to pass on: pw" in _text(page, "#online-facts")
    assert ctl(sim, lambda c: c.status().playing_online and c.status().match.length == 3)

    async def opponent() -> Connection:
        bert = await Connection.open(address(double))
        await bert.login("bert")
        await bert.send(commands.join("1", "pw"))
        return bert

    bert = sim.run(opponent())
    wait_until(lambda: _text(page, "#online-state") == "playing", 15, "playing on the page")
    assert "against Guest_bert" in _text(page, "#online-facts")
    sim.run(bert.send(commands.say("have fun")))
    wait_until(lambda: "Guest_bert: have fun" in _text(page, "#chat"), 10, "the chat line")

    # the person answers from the page: one `say` reaches the opponent; an empty line is refused
    assert p.locator("#chat-form").is_visible()
    p.locator("#chat-input").fill("thanks, you too")
    p.click("#chat-send")

    async def heard() -> str:
        while not isinstance(event := await bert.next_event(), Say):
            pass
        return event.message
    assert sim.run(heard()) == "thanks, you too"
    wait_until(lambda: ": thanks, you too" in _text(page, "#chat"), 10, "our chat line shown")
    assert p.locator("#chat-input").input_value() == ""
    p.click("#chat-send")
    assert page.wait_notice("empty chat line") == "ignored: an empty chat line: nothing sent"

    p.click("#online-leave")
    wait_until(lambda: _text(page, "#online-state") == "not playing online", 15, "left")
    assert _text(page, "#online-line") == "left online play; the local match is back"
    assert p.locator("#online-leave").is_hidden()
    assert ctl(sim, lambda c: c.status().match == local and not c.status().playing_online)

    # the page sent the choice, never the account's password (read from its file on the server side)
    sent = p.evaluate("window.bgboard.sent.filter((m) => m.type === 'online')")
    assert sent == [{"type": "online", "settings": {"server": str(address(double)), "login": "guest",
                                                     "match": "private", "points": "3", "join": "", "match_password": "pw"}}]
    assert SECRET not in p.content()

    # a refused match: one clear line on the page, the local match still here
    p.click("#new-match-open")
    p.locator("#dlg-where").select_option("online")
    p.locator("#dlg-online-match").select_option("join")
    p.locator('#online-fields [name="join"]').fill("42")
    p.click("#new-match-start")
    wait_until(lambda: "Match not found" in _text(page, "#online-line"), 15, "the refusal")
    assert _text(page, "#online-line") == f"cannot join match 42 on {address(double)}: Match not found."
    assert "failed" in (p.locator("#online-line").get_attribute("class") or "")
    assert ctl(sim, lambda c: c.status().match == local and not c.status().playing_online)
    sim.run(bert.close())
    assert page.errors == [], page.errors
    page.close()


def test_the_dialog_watches_a_match_read_only_and_leave_gives_the_table_back(
        browser: Any, double_and_sim: tuple[BgammonDouble, ServerThread]) -> None:
    double, sim = double_and_sim
    # paced (`Players`): the watched match cannot end, and give the table back, before the page is read
    players = Players(double, 5)
    sim.run(players.__aenter__(), 20)
    page = Page(browser, sim.url)
    p = page.page
    wait_until(lambda: p.locator("#actions button").count() > 0, 10, "the table's actions")
    p.click("#new-match-open")
    p.locator("#dlg-where").select_option("online")
    p.locator("#dlg-online-match").select_option("watch")
    assert p.locator("#online-fields .online-join").is_visible()
    assert p.locator("#online-fields .online-create").is_hidden()
    p.locator('#online-fields [name="join"]').fill("Guest_anna")
    p.click("#new-match-start")
    wait_until(lambda: _text(page, "#online-state") == "watching (read-only)", 20, "watching")
    assert "watching Guest_" in _text(page, "#online-facts")
    assert p.locator("#actions button").count() == 0 and p.locator("#chat-form").is_hidden()
    assert page.state()["possible"] == []
    p.click("#online-leave")
    wait_until(lambda: _text(page, "#online-state") == "not playing online", 15, "back at the table")
    wait_until(lambda: p.locator("#actions button").count() > 0, 10, "the table's actions again")
    assert ctl(sim, lambda c: not c.status().playing_online)
    sim.run(players.__aexit__(None, None, None))
    assert page.errors == [], page.errors
    page.close()

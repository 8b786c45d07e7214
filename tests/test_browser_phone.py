"""The board's own page on a phone (controller/web/board_page.py) in Chromium at 390 x 844, against
`bgboard run`'s main loop on the virtual board (the Pi path with simulated backends): what
a player does from the phone beyond the buttons, each through the table's own events.

The simulator's New match dialog starts a 3-point match with the tutor set (the table's
`MatchChosen`, `TutorChosen`); the tutor is turned off again from the page's own choice;
the Hint button appears when a hint can be given and shows it as the menu's Hint does;
a short game is played, moved by hand on the board and answered with the phone's buttons
(White opens 3-1 with 24/20, Black doubles, White drops); then the review panel shows the
PR and the marked decisions, "Set up on the board" starts the table's practice of one,
and "Back to the match" gives the match back.
"""
from __future__ import annotations

from typing import Any

import pytest

from browser_support import OUTPUT, Page, needs_chromium, wait_until
from controller.bot.gnubg_level import load_gnubg_nn
from controller.events import RollQueued
from tests.test_browser_spectators import PHONE, PiThread

pytestmark = [needs_chromium, pytest.mark.timeout(300)]


def _by_hand(pi: PiThread, side: str, frm: str, to: str) -> None:
    """One checker of `side` moved by hand from cell `frm` to `to`, as a player's hand:
    lifted, seen in the hand, placed, the step taken."""
    before = pi.ctl(lambda c: (c.status().match.partial.id, c.status().match.turn, c.status().match.phase))
    pi.vb.lift(frm, side)
    wait_until(lambda: pi.ctl(lambda c: getattr(c.status().verdict, "in_hand", None) is not None), 30,
               f"the lift from {frm}")
    pi.vb.place(to, side)
    wait_until(lambda: pi.ctl(lambda c: (c.status().match.partial.id, c.status().match.turn, c.status().match.phase)) != before, 30,
               f"the step {frm}/{to}")


def _new_match_from_the_dialog(phone: Page, pi: PiThread) -> None:
    phone.page.click("#new-match-open")
    form = phone.page.locator("#new-match-form")
    form.locator('[name="length"]').fill("3")
    form.locator('[name="tutor"]').select_option("bad")
    form.locator('[name="clock"]').select_option("off")
    form.locator('[name="opponent"]').select_option("human")
    phone.page.click("#new-match-start")
    wait_until(lambda: pi.ctl(lambda c: (c.status().match.settings.length, c.status().config.tutor)) == (3, "bad"), 30,
               "the dialog's match at the table")
    assert "new match to 3" in pi.call(lambda: list(pi.table.log_lines))  # type: ignore[union-attr]
    phone.page.wait_for_function("document.getElementById('tutor').value === 'bad'")


def test_the_phone_starts_a_match_asks_a_hint_and_sets_the_tutor(browser: Any, tmp_path: Any) -> None:
    with PiThread(tmp_path) as pi:
        phone = Page(browser, pi.page_urls[0], **PHONE)
        # the board's own page: the checkers are real, no virtual board's debug panel or helping hands
        phone.page.wait_for_function("document.querySelector('header .sub').textContent === 'board'")
        phone.page.wait_for_function("document.title === 'bgboard — board'")  # the tab says it too
        assert phone.page.locator("#debug-toggle").is_hidden() and phone.page.locator("#helpers").is_hidden()
        _new_match_from_the_dialog(phone, pi)
        wait_until(lambda: pi.ctl(lambda c: not c.status().setting_up and any(a.action == "roll" for a in c.status().actions)),
                   30, "the new match's opening roll offered")
        phone.page.select_option("#tutor", "off")  # the tutor off again, in the middle of the match
        wait_until(lambda: pi.ctl(lambda c: c.status().config.tutor) == "off", 30, "the tutor off")
        assert phone.page.locator("#hint-ask").is_hidden()  # no hint before the opening roll
        pi.ctl(lambda c: c.handle(RollQueued((3, 1), c.status().now)))
        phone.click_button("white_main")
        wait_until(lambda: pi.ctl(lambda c: (c.status().match.phase, c.status().match.turn)) == ("move", "white"), 30, "White's 3-1")
        phone.page.wait_for_selector("#hint-ask:not([hidden])")
        phone.page.click("#hint-ask")
        wait_until(lambda: pi.ctl(lambda c: c.state.hint.current(c.state.match) is not None), 30, "the hint shown")
        key = pi.ctl(lambda c: c.status().scene.display.prompt.key)
        assert key in ("hint", "hint_missing"), key  # the display says it, as the menu's Hint
        OUTPUT.mkdir(exist_ok=True)
        phone.page.screenshot(path=str(OUTPUT / "phone-hint.png"), full_page=True)
        assert phone.errors == [], phone.errors
        phone.close()


@pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (installed by .ci/run)")
def test_the_phone_shows_the_review_and_practises_a_marked_decision(browser: Any, tmp_path: Any) -> None:
    with PiThread(tmp_path) as pi:
        phone = Page(browser, pi.page_urls[0], **PHONE)
        assert phone.page.locator("#review-box").is_hidden()  # no finished game, no review
        pi.ctl(lambda c: c.handle(RollQueued((3, 1), c.status().now)))
        phone.click_button("white_main")  # the opening: White 3, Black 1
        wait_until(lambda: pi.ctl(lambda c: (c.status().match.phase, c.status().match.turn)) == ("move", "white"), 30, "White's 3-1")
        _by_hand(pi, "white", "24", "21")
        _by_hand(pi, "white", "21", "20")
        wait_until(lambda: pi.ctl(lambda c: (c.status().match.phase, c.status().match.turn)) == ("roll", "black"), 30, "Black's turn")
        phone.click_button("black_cube")  # doubles at once
        wait_until(lambda: pi.ctl(lambda c: c.status().match.phase) == "doubled", 30, "the double")
        phone.click_button("white_cube")  # drops: very bad both
        wait_until(lambda: pi.ctl(lambda c: c.status().match.score) == (0, 1), 30, "game 1 dropped")
        phone.page.wait_for_function("window.bgboard.state.review && window.bgboard.state.review.games === 1",
                                     timeout=120000)
        phone.page.wait_for_function("document.querySelectorAll('#review-list tr').length > 0")
        assert phone.page.locator("#review-box").is_visible()
        assert "PR" in phone.page.locator("#review-players").inner_text()
        assert phone.page.locator("#review-graph path.chance").count() == 1
        review = phone.page.evaluate("async () => (await fetch('/review.json')).json()")
        chosen = next(d for d in review["marked"] if d["kind"] == "pass")
        before = pi.ctl(lambda c: c.status().match)
        phone.page.click(f'#review-list button.review-setup[data-key="{chosen["key"]}"]')
        phone.page.wait_for_selector("#confirm[open]")
        phone.page.click("#confirm-yes")  # asked first: the match is saved and comes back
        wait_until(lambda: pi.ctl(lambda c: c.status().practising) == chosen["key"], 30, "the practice at the table")
        m = pi.ctl(lambda c: c.status().match)
        assert (m.phase, m.turn, m.position.id) == ("doubled", "black", chosen["setup"]["position_id"])
        phone.page.wait_for_selector("#practice-banner:not([hidden])")
        # nothing wider than the phone: each marked decision wraps within 390 px
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        OUTPUT.mkdir(exist_ok=True)
        phone.page.screenshot(path=str(OUTPUT / "phone-practice.png"), full_page=True)
        phone.page.click("#practice-back")
        wait_until(lambda: pi.ctl(lambda c: c.status().practising) is None, 30, "back to the match")
        back = pi.ctl(lambda c: c.status().match)
        assert (back.score, back.game, back.match_id) == (before.score, before.game, before.match_id)
        assert phone.errors == [], phone.errors
        phone.close()


def test_the_phone_plays_online_from_the_dialog_and_leaving_gives_the_match_back(browser: Any, tmp_path: Any) -> None:
    """The dialog's "Online (bgammon.org)" on the phone: the table's online door (the
    menu's "Play online") creates a private match on the protocol double; the phone shows
    the server's state, the opponent who joins and the chat both ways; Leave gives the
    board's match back."""
    from controller.bgammon import commands
    from controller.online.client import Connection
    from controller.online.events import Say
    from controller.settings import Settings
    from tests.online_double import BgammonDouble
    from tests.test_online_client import address, free_port

    double = BgammonDouble(free_port())
    settings = Settings(online_server=str(address(double)))
    with PiThread(tmp_path, online=lambda: settings) as pi:
        pi.run(double.__aenter__())
        try:
            local = pi.ctl(lambda c: c.status().match)
            phone = Page(browser, pi.page_urls[0], **PHONE)
            p = phone.page
            text = lambda selector: p.locator(selector).inner_text()  # noqa: E731
            p.click("#new-match-open")
            p.locator("#dlg-where").select_option("online")
            assert p.locator('#online-fields [name="server"]').input_value() == str(address(double))
            p.locator("#dlg-online-match").select_option("private")
            p.locator('#online-fields [name="points"]').fill("3")
            p.locator('#online-fields [name="match_password"]').fill("pw")
            p.click("#new-match-start")
            wait_until(lambda: text("#online-state") == "waiting for an opponent", 30, "waiting on the phone")
            assert "Password to pass on: pw" in text("#online-facts")
            assert pi.ctl(lambda c: c.status().playing_online and c.status().match.settings.length == 3)

            async def opponent() -> Connection:
                bert = await Connection.open(address(double))
                await bert.login("bert")
                await bert.send(commands.join("1", "pw"))
                return bert

            bert = pi.run(opponent())
            wait_until(lambda: text("#online-state") == "playing", 30, "playing on the phone")
            assert "against Guest_bert" in text("#online-facts")
            pi.run(bert.send(commands.say("have fun")))
            wait_until(lambda: "Guest_bert: have fun" in text("#chat"), 30, "the chat line on the phone")
            p.locator("#chat-input").fill("thanks")
            p.click("#chat-send")

            async def heard() -> str:
                while not isinstance(event := await bert.next_event(), Say):
                    pass
                return event.message
            assert pi.run(heard()) == "thanks"
            p.click("#new-match-open")  # no new match here while online: the server decides
            p.locator("#dlg-where").select_option("here")
            p.click("#new-match-start")
            # the dialog asks first where a match is running here (the server's may count as one)
            p.wait_for_function("document.getElementById('confirm').open"
                                " || window.bgboard.notices.some((n) => n.includes('online'))")
            if p.locator("#confirm[open]").count():
                p.click("#confirm-yes")
            assert "leave online play first" in phone.wait_notice("online")
            p.click("#online-leave")
            wait_until(lambda: text("#online-state") == "not playing online", 30, "left")
            assert pi.ctl(lambda c: c.status().match == local and not c.status().playing_online)
            pi.run(bert.close())
            assert phone.errors == [], phone.errors
            phone.close()
        finally:
            pi.run(double.__aexit__())


def test_the_phone_watches_a_server_match_from_the_dialog_and_leaves(browser: Any, tmp_path: Any) -> None:
    """The dialog's "watch a match" on the phone: the table's door watches the players'
    match on the protocol double; the phone draws the watched match (its players, its
    position) and offers nothing to play; Leave gives the board's match back."""
    from controller.settings import Settings
    from tests.online_double import BgammonDouble
    from tests.test_online_client import address, free_port
    from tests.test_online_watch_menu import Players

    double = BgammonDouble(free_port(), seed=7)
    settings = Settings(online_server=str(address(double)))
    players = Players(double, 3)
    with PiThread(tmp_path, online=lambda: settings) as pi:
        pi.run(double.__aenter__())
        pi.run(players.__aenter__())
        try:
            local = pi.ctl(lambda c: c.status().match)
            phone = Page(browser, pi.page_urls[0], **PHONE)
            p = phone.page
            p.click("#new-match-open")
            p.locator("#dlg-where").select_option("online")
            p.locator("#dlg-online-match").select_option("watch")
            p.locator('#online-fields [name="join"]').fill("Guest_anna")
            p.click("#new-match-start")
            wait_until(lambda: p.locator("#online-state").inner_text() == "watching (read-only)", 30,
                       "watching on the phone")
            pi.run(players.allow(1))  # a turn of the watched match
            watched = lambda: pi.call(lambda: pi.door.spectator.watched.match())  # type: ignore[union-attr]  # noqa: E731
            moved = lambda: watched().position.id != local.position.id  # noqa: E731
            wait_until(lambda: moved() and phone.state()["match"]["position_id"] == watched().position.id,
                       30, "the watched match's move drawn on the phone")
            assert "Guest_anna" in p.locator("#online-facts").inner_text()
            assert phone.state()["actions"] == [] and p.locator("#actions button").count() == 0
            p.click("#online-leave")
            wait_until(lambda: pi.call(lambda: pi.door.state) == "off", 30, "left")  # type: ignore[union-attr]
            assert pi.ctl(lambda c: c.status().match == local and not c.status().watching)
            assert phone.errors == [], phone.errors
            phone.close()
        finally:
            pi.run(players.__aexit__(None, None, None))
            pi.run(double.__aexit__())

"""The page's dice panel in a real browser (Debian's Chromium through Playwright): real
dice entered on two rows of die faces, the verifiable dice's commitment with its QR code,
the players' phrases and the reveal, and the dice statistics; each checked against the
controller behind the page, not only against what the page says."""
from __future__ import annotations

import random
import urllib.request
from typing import Any

import pytest

from browser_support import OUTPUT, SPY, ctl, needs_chromium, wait_until
from controller.dice.fairness import roll_fairness
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.web.dice_panel import player_rolls
from sim.page.harness import ServerThread
from controller.events import AdoptMatch
from controller.play.showing import phase_prompt

pytestmark = [needs_chromium, pytest.mark.timeout(170)]


def _open(browser: Any, sim: ServerThread) -> Any:
    OUTPUT.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1320, "height": 1400})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(SPY)
    page.goto(sim.url)
    page.wait_for_function("window.bgboard && window.bgboard.state !== null")
    page.errors = errors
    return page


def _new_match(page: Any, sim: ServerThread, dice: str) -> None:
    page.click("#new-match-open")
    page.select_option('#new-match-form select[name="dice"]', dice)
    page.click("#new-match-start")
    wait_until(lambda: ctl(sim, lambda c: c.status().dice.mode == dice and not c.status().setting_up), what=f"a {dice} match set up")
    page.wait_for_function(f"window.bgboard.state.dice_panel && window.bgboard.state.dice_panel.mode === '{dice}'")


def test_real_dice_entered_on_the_die_faces(browser: Any, sim: ServerThread) -> None:
    page = _open(browser, sim)
    _new_match(page, sim, "entered")
    assert "real dice" in page.inner_text("#dice-mode")
    page.click('button.hw[data-button="white_main"]')  # roll: the board waits for the dice
    wait_until(lambda: ctl(sim, lambda c: c.status().menu.mode == "dice"), what="the board asking for the dice")
    rows = page.locator("#dice-entry .die-row")
    assert rows.count() == 2
    assert "White" in rows.nth(0).inner_text() and "Black" in rows.nth(1).inner_text()  # one die per side
    page.click('#dice-entry [data-die-row="0"] [data-face="5"]')
    # issue 35.10: the display asks for Black's die now (it asked for White's until both were sent)
    wait_until(lambda: ctl(sim, lambda c: c.status().menu.dice) == (5,), what="the display told the first die")
    prompt = ctl(sim, lambda c: phase_prompt(c.state))
    assert prompt.key == "dice_entry_opening" and prompt.as_dict()["side"] == "black"
    assert ctl(sim, lambda c: c.status().match.phase) == "opening"  # one die is not a roll yet
    page.click('#dice-entry [data-die-row="1"] [data-face="2"]')
    wait_until(lambda: ctl(sim, lambda c: c.status().match.dice) == (5, 2), what="the entered opening roll")
    assert ctl(sim, lambda c: c.status().match.turn) == "white"
    page.wait_for_function("!document.querySelector('#dice-entry')")  # nothing to enter while moving
    record = urllib.request.urlopen(sim.url.rstrip("/") + "/match.mat", timeout=10).read().decode()
    assert '; [Dice "entered"]' in record
    assert page.errors == []


def test_verifiable_dice_commitment_phrase_and_reveal(browser: Any, sim: ServerThread) -> None:
    page = _open(browser, sim)
    _new_match(page, sim, "verifiable")
    secret = ctl(sim, lambda c: c.status().dice.secret)
    assert page.inner_text("#dice-commitment") == secret.commitment  # the whole commitment
    svg = page.locator("#dice-qr svg")
    assert svg.count() == 1 and int(svg.get_attribute("width") or 0) >= 100  # the QR code
    assert secret.seed.hex() not in page.content()  # never shown before the reveal
    page.fill("#dice-phrase-white", "lucky sevens")
    page.click('[data-phrase="white"]')
    wait_until(lambda: ctl(sim, lambda c: c.status().dice.secret.phrases) == ("lucky sevens", ""), what="the phrase mixed in")
    page.wait_for_selector("#dice-phrase-given-white")  # the phrase given is acknowledged
    assert page.locator("#dice-phrase-given-black").count() == 0
    prompt = ctl(sim, lambda c: phase_prompt(c.state))
    assert prompt.key == "opening_roll_verifiable" and prompt.as_dict()["code"] == secret.short_commitment
    page.screenshot(path=str(OUTPUT / "dice-verifiable.png"), full_page=True)
    page.click("#dice-reveal")  # the reveal ends the guarantee: it asks first
    page.wait_for_selector("#dice-reveal-ask")
    assert "ordinary dice" in page.inner_text("#dice-reveal-ask")
    page.click("#dice-reveal-no")
    page.wait_for_selector("#dice-reveal")
    assert not ctl(sim, lambda c: c.status().dice.secret.revealed) and secret.seed.hex() not in page.content()
    page.click("#dice-reveal")
    page.click("#dice-reveal-yes")
    page.wait_for_selector("#dice-seed")
    # revealed while the match goes on: the rest of it rolls ordinary dice, and the page says so
    assert "ordinary dice" in page.inner_text("#dice-ended")
    assert secret.seed.hex() in page.inner_text("#dice-seed")
    assert "lucky sevens" in page.inner_text("#dice-panel")
    assert ctl(sim, lambda c: c.status().dice.secret.revealed)
    record = urllib.request.urlopen(sim.url.rstrip("/") + "/match.mat", timeout=10).read().decode()
    assert f'; [Dice seed "{secret.seed.hex()}"]' in record and f'; [Dice commitment "{secret.commitment}"]' in record
    assert page.errors == []


def test_dice_statistics_per_player_beside_fair_dice(browser: Any, sim: ServerThread) -> None:
    """A played match put behind the page: the panel's counts are the controller's history."""
    rng = random.Random(4)
    m = Match.new(MatchSettings(length=25, cube=False))
    while m.game < 3 and not m.is_over:
        if m.phase in ("opening", "roll"):
            m = m.roll(m.turn or "white", (rng.randint(1, 6), rng.randint(1, 6))).match
        elif m.phase == "move":
            side = m.turn
            m = m.play(side, rng.choice(m.legal_moves())).match  # type: ignore[arg-type]
            if m.phase == "move":
                m = m.done(side).match  # type: ignore[arg-type]
    page = _open(browser, sim)

    def swap(live: Any) -> None:
        live.table.dispatch(AdoptMatch(m, live.table.clock()))  # the played match takes the table
        live._changed()

    sim.inspect(swap)
    rolls = player_rolls(m)
    want = {side: roll_fairness(r) for side, r in rolls.items()}
    page.wait_for_function(f"window.bgboard.state.dice_panel.stats.white.rolls === {want['white'].rolls}")
    table = page.locator("#dice-stats tr")
    cells = [[c.strip() for c in table.nth(i).inner_text().split("\t")] for i in range(table.count())]
    for face in range(1, 7):
        row = cells[face]
        assert row[1] == str(want["white"].faces[face - 1]) and row[2] == str(want["black"].faces[face - 1])
    doubles = cells[7]
    assert doubles[1] == str(want["white"].doubles) and doubles[2] == str(want["black"].doubles)
    p_row = page.inner_text("#dice-stats .p-faces")
    assert f"{want['white'].p_faces:.3f}" in p_row and f"{want['black'].p_faces:.3f}" in p_row
    assert page.errors == []

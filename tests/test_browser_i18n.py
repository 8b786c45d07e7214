"""The simulator page speaks the match's language (Debian's Chromium driven by Playwright).

The language is chosen in the new-match dialog (`settings.language`); the page's own labels
(header, buttons, facts table, dialog, help, hints, action captions) must follow it live and
come back to English, while ids and data-* attributes stay as the other tests use them.
Server notices carry a key (controller/web/protocol.py `Notice`) and are shown in the language too.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import OUTPUT, SPY, needs_chromium, wait_until
from sim.page.harness import ServerThread

pytestmark = [needs_chromium, pytest.mark.timeout(120)]

#: the labels checked in every language: selector -> English text
LABELS = {
    "#new-match-open": "New match",
    "#download-mat": "Download .mat",
    "#debug-toggle": "Debug",
    "#white-buttons .who": "White",
    "#black-buttons .who": "Black",
    'button[data-button="white_main"]': "White ●",
    'button[data-button="black_main"]': "Black ●",
    'button[data-button="white_cube"]': "White cube",
    'button[data-button="black_cube"]': "Black cube",
    "#status": "board online",
    ".facts tr:has(#score) th": "Score",
    ".facts tr:has(#pips) th": "Pips",
    ".facts tr:has(#cube) th": "Cube",
    ".facts tr:has(#dice) th": "Dice",
    ".facts tr:has(#turn) th": "Turn",
    ".facts tr:has(#match-id) th": "Match ID",
    ".facts tr:has(#position-id) th": "Position ID",
    "#actions-box summary": "Actions (what you may do now; the coloured buttons do the same)",
    '[data-fault="unplug"]': "Pull cable",
    "#new-match-form h2": "New match",
    "#new-match-start": "Start",
}
#: what the same labels must read in Danish and Swedish (a few, spelled out)
EXPECTED = {
    "da": {"#new-match-open": "Ny match", 'button[data-button="white_main"]': "Hvid ●",
           'button[data-button="black_cube"]': "Sort kube", ".facts tr:has(#dice) th": "Terninger",
           ".facts tr:has(#cube) th": "Dobbeltkube", "#status": "brættet er online"},
    "sv": {"#new-match-open": "Ny match", 'button[data-button="white_main"]': "Vit ●",
           'button[data-button="black_cube"]': "Svart kub", ".facts tr:has(#dice) th": "Tärningar",
           ".facts tr:has(#cube) th": "Dubblingstärning", "#status": "brädet är online"},
}
#: English words that must not be seen in the header, the buttons or the facts table
ENGLISH_WORDS = ("White", "Black", "cube", "Score", "Pips", "Dice", "Turn", "Download", "Debug",
                 "New match", "board online", "Position ID", "Match ID", "to ")


@pytest.fixture()
def page(browser: Any, sim: ServerThread) -> Iterator[Any]:
    p = browser.new_page(viewport={"width": 1320, "height": 980})
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.add_init_script(SPY)
    p.goto(sim.url)
    p.wait_for_function("window.bgboard && window.bgboard.state !== null")
    p.wait_for_function("document.getElementById('status').className.includes('online')")
    yield p
    assert errors == [], errors
    p.close()


def start_match(page: Any, sim: ServerThread, language: str) -> None:
    """Start a new match in `language` through the dialog, and wait until the page speaks it."""
    page.click("#new-match-open")
    page.locator("#new-match-form [name=language]").select_option(language)
    page.click("#new-match-start")
    page.wait_for_function(f"window.bgboard.language === '{language}'"
                           f" && window.bgboard.state.settings.language === '{language}'", timeout=30000)
    page.wait_for_function("document.getElementById('status').className.includes('online')")
    wait_until(lambda: sim.inspect(lambda live: not live.table.controller.status().setting_up), what="the set-up board")
    page.wait_for_function("window.bgboard.state.match.state === 'opening'", timeout=30000)


def label(page: Any, selector: str) -> str:
    found = page.locator(selector)
    assert found.count() == 1, f"{selector} matches {found.count()} elements"
    return " ".join(found.text_content().split())


def visible_texts(page: Any) -> str:
    """The header, the side buttons, the menu button and the facts table, as one text."""
    parts = [page.locator(sel).inner_text() for sel in ("header", "#black-buttons", "#white-buttons",
                                                          ".menu-row", "aside > table.facts")]
    return "\n".join(parts)


def test_labels_follow_the_match_language_and_come_back(page: Any, sim: ServerThread) -> None:
    for selector, english in LABELS.items():
        assert label(page, selector) == english, selector
    for language in ("da", "sv"):
        start_match(page, sim, language)
        for selector, english in LABELS.items():
            assert label(page, selector) != english, f"{selector} still English in {language}"
        for selector, text in EXPECTED[language].items():
            assert label(page, selector) == text, (language, selector)
        shown = visible_texts(page)
        for word in ENGLISH_WORDS:
            assert word not in shown, f"English {word!r} visible in {language}: {shown}"
        assert page.evaluate("document.documentElement.lang") == language
        # the facts table's values and the hint are in the language too
        side = "Hvid" if language == "da" else "Vit"
        assert label(page, "#score").startswith(f"{side} 0 – ")
        hint = label(page, "#hint")
        assert hint.startswith("Tryk på Hvid ●" if language == "da" else "Tryck på Vit ●"), hint
        # the action captions are translated; the commands the tests click are not
        button = page.locator('#actions button[data-command="white roll"]')
        assert button.count() == 1 and button.inner_text() == ("Hvid: slå" if language == "da" else "Vit: slå")
        # the menu button opens the board's own menu: the prompt says its first item (giving
        # up the match, before the opening roll) in the language; a cube button closes it
        page.click('button[data-button="menu"]')
        first = "Menu: opgiv hele matchen" if language == "da" else "Meny: ge upp matchen"
        page.wait_for_function(f"document.getElementById('prompt').textContent.startsWith({first!r})")
        page.click('button[data-button="white_cube"]')
        page.wait_for_function(f"!document.getElementById('prompt').textContent.startsWith({first!r})")
        # a notice from the server is said in the language, and the next action clears it
        page.click("#debug-toggle")
        page.click('[data-fault="noise"]')
        page.wait_for_function("document.querySelector('#notices li')?.dataset.key === 'fault'")
        assert page.locator("#notices li").count() == 1
        page.click("#debug-toggle")
        # the setting persists with the match
        assert sim.inspect(lambda live: json.loads(live.settings_file.read_text()))["language"] == language
        if language == "da":
            OUTPUT.mkdir(exist_ok=True)
            page.screenshot(path=str(OUTPUT / "simulator-da.png"), full_page=True)
    start_match(page, sim, "en")
    for selector, english in LABELS.items():
        assert label(page, selector) == english, selector
    assert label(page, "#hint").startswith("Press White ●")
    assert page.locator('#actions button[data-command="white roll"]').inner_text() == "White: roll"


def test_a_reload_keeps_the_language_and_the_buttons_still_work(page: Any, sim: ServerThread) -> None:
    start_match(page, sim, "sv")
    page.reload()
    page.wait_for_function("window.bgboard && window.bgboard.language === 'sv'")
    assert label(page, "#new-match-open") == "Ny match"
    # the dialog's own labels are Swedish, its values unchanged
    page.click("#new-match-open")
    assert label(page, "#new-match-form h2") == "Ny match"
    assert page.locator("#new-match-form [name=language]").input_value() == "sv"
    assert page.locator('#new-match-form option[value="human"]').text_content() == "en person"
    page.keyboard.press("Escape")
    # a translated button still does what it did: White ● rolls the opening
    page.click('button[data-button="white_main"]')
    wait_until(lambda: sim.inspect(lambda live: live.table.controller.status().match.phase != "opening"),
               what="the opening roll")
    page.wait_for_function("document.getElementById('dice').textContent !== '–'")
    assert "Ställning" in page.locator("aside > table.facts").inner_text()
    # the debug panel's link table is Swedish too
    page.click("#debug-toggle")
    page.wait_for_function("document.querySelectorAll('#link-stats tr').length > 0")
    rows = page.locator("#link-stats").inner_text()
    assert "ramar/s" in rows and "förlorade ramar" in rows and "frames" not in rows and "true" not in rows, rows


def server_hints() -> list[dict[str, str]]:
    """Every hint `controller.web.page_hint` can return (spoken to Black): its `HINT_KEYS`, which
    must hold every key its source returns, so a hint added on the server shows up here
    instead of missing on the page."""
    import inspect
    import re

    from controller.web import page_hint

    source = inspect.getsource(page_hint)
    found = set(re.findall(r'"key": "(\w+)"', source)) | set(re.findall(r'return "(\w+)"', source))
    found |= {k for pair in re.findall(r'"(\w+)" if .+? else "(\w+)"', source) for k in pair}
    found |= set(re.findall(r'\("(\w+)", (?:opp|"")\)', source))
    assert found and found <= set(page_hint.HINT_KEYS), found - set(page_hint.HINT_KEYS)
    return [{"key": key, "side": "black"} for key in sorted(page_hint.HINT_KEYS)]


def test_every_server_hint_has_a_danish_and_swedish_line(page: Any) -> None:
    hints = server_hints()
    assert len(hints) >= 10, hints
    got = page.evaluate("""async (hints) => {
        const i18n = await import('/static/i18n.js');
        return ['en', 'da', 'sv'].map((lang) => hints.map((h) => i18n.hintText(lang, h)));
    }""", hints)
    english_lines = got[0]
    for hint, english in zip(hints, english_lines):
        assert english != f"hint.{hint['key']}", f"no English line for the hint {hint['key']!r}"
    for language, lines in zip(("da", "sv"), got[1:]):
        for english, line in zip(english_lines, lines):
            assert line != english, f"no {language} line for the hint {english!r}"
            assert "Black" not in line and "White" not in line, line


def test_the_language_changes_in_the_middle_of_a_match(page: Any, sim: ServerThread) -> None:
    """The header's language choice: the page, the display and the refusals speak Danish at
    once, and the match goes on where it was (no new match needed)."""
    page.click('button[data-button="white_main"]')  # the opening roll
    wait_until(lambda: sim.inspect(lambda live: live.table.controller.status().match.phase == "move"), what="the opening roll")
    before = sim.inspect(lambda live: live.table.controller.status().match)
    page.locator("#language").select_option("da")
    page.wait_for_function("window.bgboard.language === 'da'")
    assert label(page, "#new-match-open") == "Ny match"
    wait_until(lambda: sim.inspect(lambda live: live.table.controller.status().config.language) == "da", what="the table in Danish")
    assert sim.inspect(lambda live: live.table.controller.status().match) is before  # the same match, untouched
    assert sim.inspect(lambda live: live.table.controller.status().scene.display.language) == "da"  # the display too
    assert sim.inspect(lambda live: json.loads(live.settings_file.read_text()))["language"] == "da"
    page.locator("#language").select_option("en")
    page.wait_for_function("window.bgboard.language === 'en'")
    assert label(page, "#new-match-open") == "New match"


def test_a_language_the_table_does_not_speak_is_refused_in_one_line() -> None:
    from controller.web.protocol import BadMessage, parse_message

    assert parse_message('{"type": "language", "name": "sv"}').name == "sv"
    for bad in ('"xx"', '["da"]', "null"):
        with pytest.raises(BadMessage, match="ignored a language"):
            parse_message('{"type": "language", "name": %s}' % bad)

"""The board's menu is its registry (controller/play/menu_items.py, issue 33.4): at every
moment of a stretch of play the menu button opens on exactly the entries whose offer holds
for the table's facts, in the registry's order, each shown with its entry's label, the
table's status lists the same items, and a main button on an item does what its entry says.
An entry added to the registry (here a "race estimate") is offered and carried out with no
other change, and an entry whose offer fails is not shown."""
from __future__ import annotations

from dataclasses import replace

import pytest

from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.events import Announce, ButtonPressed, LinkPublished
from controller.inputs.menu import MenuState
from controller.play import facts, menu_items, pressing
from controller.play.change import Stepped
from controller.play.step import step
from controller.play.showing import status
from controller.play.table_state import TableState
from controller.web.page_links import pairing_view
from tests.test_table_step import PLAY, fresh

MENU = ButtonPressed(None, "menu", 0.0)


def states() -> list[TableState]:
    """Every state of the step's stretch of play (opening, moving, a hint, the other side
    to roll), with the verifiable dice, and with both pages' links published."""
    out: list[TableState] = []
    for start in (fresh(rolls=((3, 1),)).state,
                  TableState.new(Match.new(MatchSettings(length=5, dice="verifiable")))):
        state = start
        for event in PLAY + (LinkPublished("phone", pairing_view("http://127.0.0.1:8080/?token=x", "phone"), 9.0),
                             LinkPublished("spectators", pairing_view("http://127.0.0.1:8081/?t=y", "spectators"), 9.1)):
            state = step(state, event)[0]
            out.append(state)
    return out


def shown(state: TableState) -> list[tuple[str, str]]:
    """Open the menu with its button and step through it: each item and its label's key."""
    seen = []
    opened = step(state, replace(MENU, at=state.now))[0]
    for _ in opened.menu.items:
        prompt = opened.menu.prompt
        assert opened.menu.item is not None and prompt is not None
        seen.append((opened.menu.item, str(prompt.as_dict()["item_key"])))
        opened = pressing.menu(opened, MENU)[0]
    return seen


def expected(state: TableState) -> list[tuple[str, str]]:
    """The entries whose offer holds now, as the registry says (close comes last)."""
    return [(e.id, e.label) for e in menu_items.ENTRIES if e.offered(facts.menu_facts(state))]


def test_the_menu_shows_exactly_the_entries_whose_offer_holds_in_the_registrys_order() -> None:
    seen_items: set[str] = set()
    for state in states():
        if state.menu.is_open:
            continue
        want = expected(state)
        assert shown(state) == want
        assert list(status(state).menu_items) == [item for item, _ in want]
        seen_items |= {item for item, _ in want}
    # the stretch reaches more than the always-there items: the offers are really read
    assert {"new_match", "dice_entry", "resign_single", "hint", "reveal_dice", "phone_link", "new_links"} <= seen_items


def test_a_main_button_on_an_item_does_what_its_entry_says() -> None:
    chosen = 0
    for state in states():
        if state.menu.is_open:
            continue
        opened = step(state, replace(MENU, at=state.now))[0]
        for item in opened.menu.items:
            for side in ("white", "black"):
                side_: Colour = side  # type: ignore[assignment]
                press = ButtonPressed(side_, "main", state.now)
                assert pressing.press(opened, press) == menu_items.BY_ID[item].chosen(opened, side_), item
                chosen += 1
            opened = pressing.menu(opened, MENU)[0]
    assert chosen > 50


def _race_estimate(state: TableState, side: Colour) -> Stepped:
    return replace(state, menu=MenuState()), [Announce(f"race estimate for {side}")]


def test_a_new_entry_is_offered_and_carried_out_with_no_other_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's "Adding a feature": one entry (and its text and job) is the whole item;
    and an entry whose offer does not hold is not shown."""
    race = menu_items.MenuEntry("race_estimate", "menu.race_estimate", lambda f: not f.watching, _race_estimate)
    entries = tuple(e for e in menu_items.ENTRIES if e.id != "close")
    no_new_match = tuple(replace(e, offered=lambda f: False) if e.id == "new_match" else e for e in entries)
    registry = no_new_match + (race, menu_items.BY_ID["close"])
    monkeypatch.setattr(menu_items, "ENTRIES", registry)
    monkeypatch.setattr(menu_items, "BY_ID", {e.id: e for e in registry})
    state = fresh().state
    assert shown(state)[-2:] == [("race_estimate", "menu.race_estimate"), ("close", "menu.close")]
    assert "new_match" not in status(state).menu_items and "race_estimate" in status(state).menu_items
    opened = step(state, MENU)[0]
    while opened.menu.item != "race_estimate":
        opened = step(opened, MENU)[0]
    after, effects = step(opened, ButtonPressed("black", "main", 0.0))
    assert Announce("race estimate for black") in effects and not after.menu.is_open



def test_a_pages_link_is_shown_under_its_items_label() -> None:
    state = states()[-1]  # both pages' links published
    for item in ("phone_link", "spectators_link"):
        opened = step(state, replace(MENU, at=state.now))[0]
        while opened.menu.item != item:
            opened = step(opened, replace(MENU, at=state.now))[0]
        shown_link = step(opened, ButtonPressed("white", "main", state.now))[0].menu
        assert shown_link.mode == "link" and shown_link.prompt is not None
        assert shown_link.prompt.key == "link_shown"
        assert shown_link.prompt.as_dict()["item_key"] == menu_items.BY_ID[item].label

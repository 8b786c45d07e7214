"""The menu state machine: cycle with the menu button, choose with main, typed actions.

The items are the registry's (controller/play/menu_items.py), all offered here: a main
button on one is `Chosen(item, side)`; its second steps (a confirmation, the dice, a
length) are the machine's own. What the registry's entries do at the table is
tests/test_menu_items.py's."""
from __future__ import annotations

from controller.inputs.press import ButtonPressed, menu_pressed
from controller.inputs.menu import Chosen, DiceEntered, Forfeit, MenuClosed, MenuState, NewMatch, step
from controller.play.menu_items import ENTRIES, choose
from controller.play.table_state import TableState
from controller.engine.match import Match
from controller.show.texts import render

ITEMS = tuple((entry.id, entry.label) for entry in ENTRIES)
#: a table past its opening roll (at the opening, dice entry takes one die a side)
PLAYING = TableState.new(Match.new().roll("white", (3, 1)).match)

MENU = menu_pressed(0.0)
HOLD = menu_pressed(0.0, held=True)
W_MAIN = ButtonPressed("white", "main", 0.0)
B_MAIN = ButtonPressed("black", "main", 0.0)
W_CUBE = ButtonPressed("white", "cube", 0.0)


def run(*events, available=ITEMS):
    """The menu's states through `events`; an item chosen goes on as its entry says (a
    second step), as at the table."""
    state, actions = MenuState(), []
    for event in events:
        result = step(state, event, available)
        state = result.state
        if result.action is not None:
            actions.append(result.action)
        if isinstance(result.action, Chosen):
            state = choose(PLAYING, result.action)[0].menu
    return state, actions


def offered(*ids: str) -> tuple[tuple[str, str], ...]:
    return tuple(item for item in ITEMS if item[0] in ids)


def test_closed_menu_leaves_game_buttons_to_the_controller() -> None:
    result = step(MenuState(), W_MAIN)
    assert not result.consumed and result.action is None and not result.state.is_open
    assert step(MenuState(), HOLD).consumed and not step(MenuState(), HOLD).state.is_open


def test_menu_button_opens_and_cycles_and_wraps() -> None:
    state, _ = run(MENU)
    assert state.item == "resign_single"
    state, _ = run(MENU, MENU, MENU)
    assert state.item == "resign_backgammon"
    state, _ = run(*[MENU] * (len(ITEMS) + 1))
    assert state.item == "resign_single"


def test_main_chooses_for_the_side_that_pressed() -> None:
    assert run(MENU, MENU, B_MAIN)[1] == [Chosen("resign_gammon", "black")]
    assert run(MENU, W_MAIN)[1] == [Chosen("resign_single", "white")]
    state, actions = run(MENU, MENU, MENU, W_MAIN)
    assert actions == [Chosen("resign_backgammon", "white")] and not state.is_open


def test_only_available_items_are_offered() -> None:
    state, _ = run(MENU, available=offered("rematch", "new_match"))
    assert state.items == ("new_match", "rematch", "close")
    assert run(MENU, MENU, B_MAIN, available=offered("rematch", "new_match"))[1] == [Chosen("rematch", "black")]
    state, actions = run(MENU, MENU, MENU, W_MAIN, available=offered("rematch", "new_match"))
    assert actions == [Chosen("close", "white")] and not state.is_open


def test_cube_or_long_press_closes_without_acting() -> None:
    assert run(MENU, W_CUBE)[1] == [MenuClosed()]
    assert run(MENU, MENU, HOLD)[1] == [MenuClosed()]
    state, actions = run(MENU, W_CUBE, W_MAIN)
    assert actions == [MenuClosed()] and not state.is_open


def test_forfeit_needs_a_second_press_by_the_same_side() -> None:
    to_forfeit = [MENU] * 4
    chose = Chosen("forfeit", "white")
    assert run(*to_forfeit, W_MAIN, W_MAIN)[1] == [chose, Forfeit("white")]
    assert run(*to_forfeit, W_MAIN, B_MAIN)[1] == [chose, MenuClosed()]
    assert run(*to_forfeit, W_MAIN, W_CUBE)[1] == [chose, MenuClosed()]


def test_dice_entry_counts_with_cube_and_takes_with_main() -> None:
    to_dice = [MENU] * 7
    state, _ = run(*to_dice, B_MAIN)
    assert state.mode == "dice" and state.die == 1
    cube = ButtonPressed("black", "cube", 0.0)
    state, actions = run(*to_dice, B_MAIN, cube, cube, B_MAIN, *[cube] * 6, B_MAIN)
    assert actions == [Chosen("dice_entry", "black"), DiceEntered("black", (3, 1))], "six presses wrap 1 round to 1"
    state, _ = run(*to_dice, B_MAIN, cube, cube, B_MAIN, cube)
    assert render(state.prompt.key, state.prompt.as_dict()) == "Black: dice 3-2? Cube: change"
    assert run(*to_dice, B_MAIN, cube, MENU)[1] == [Chosen("dice_entry", "black"), MenuClosed()]


def test_new_match_cycles_the_length() -> None:
    to_new = [MENU] * 5
    cube = W_CUBE
    assert run(*to_new, W_MAIN, W_MAIN)[1][1:] == [NewMatch(5)]
    assert run(*to_new, W_MAIN, cube, cube, W_MAIN)[1][1:] == [NewMatch(9)]
    assert run(*to_new, W_MAIN, *[cube] * 9, W_MAIN)[1][1:] == [NewMatch(1)], "wraps after 25"


def test_every_menu_state_has_a_prompt_in_every_language() -> None:
    states = [run(*[MENU] * n)[0] for n in range(1, len(ITEMS) + 1)]
    states += [run(*[MENU] * 4, W_MAIN)[0], run(*[MENU] * 5, W_MAIN)[0],
               run(*[MENU] * 7, W_MAIN)[0]]
    for state in states:
        assert state.is_open and state.prompt is not None
        for language in ("en", "da", "sv"):
            assert render(state.prompt.key, state.prompt.as_dict(), language)
    assert MenuState().prompt is None
    assert render("menu", {"item_key": "menu.forfeit"}, "sv") == "Meny: ge upp matchen"

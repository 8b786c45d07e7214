"""The table's menu: the facts that decide its items, and where it stands. One job of the
controller.

The menu's steps are controller.inputs.menu's pure state machine; this job keeps its state
for the table and hands the table's step the action chosen. Which items are offered now
and what choosing one does are the menu's registry (controller/play/menu_items.py), one
entry per item, each offer a pure function of the `MenuFacts` here. Its slice of the
table's state is the menu's own frozen `MenuState`, replaced at each step.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from controller.dice.state import DiceState
from controller.engine.board_view import Colour
from controller.inputs import menu as menus
from controller.inputs.press import ButtonPressed
from controller.play.possible import PossibleAction
from controller.show.review_notes import ReviewFigures


@dataclass(frozen=True)
class MenuFacts:
    """What decides the menu's items at this moment: what each player may do now
    (controller.play.possible), online play, watching, the dice, a hint, the review, the
    practice, the online door's offers and the board's pages' links."""

    actions: tuple[PossibleAction, ...] = ()
    playing_online: bool = False
    watching: bool = False
    dice: DiceState = DiceState()
    hint_allowed: bool = False
    review: ReviewFigures | None = None
    practising: str | None = None
    play_offered: bool = False
    watch_offered: bool = False
    links: tuple[menus.LinkName, ...] = ()


def ask_dice(side: Colour, opening: bool) -> menus.MenuState:
    """Open on the dice's entry: real dice to key in (at the opening, White's die first)."""
    return menus.MenuState(mode="dice", side="white" if opening else side, opening=opening)


def first_die(menu: menus.MenuState, die: int) -> menus.MenuState:
    """The first of the real dice, keyed in on the page: the display, which asks for
    the dice (`ask_dice`), asks for the second from now on, as after the main button
    took the first (issue 35.10: it asked for die 1 until both were sent)."""
    if menu.mode == "dice" and not menu.dice and 1 <= die <= 6:
        return replace(menu, dice=(die,), die=1)
    return menu


def press(menu: menus.MenuState, event: ButtonPressed, offered: tuple[menus.Offer, ...],
          opening: bool) -> tuple[menus.MenuState, menus.MenuAction | None]:
    """A button for the menu: its next state, and the action chosen (None: none).
    `offered`: the registry's items offered now (controller/play/menu_items.py); `opening`:
    the match waits for its opening roll (dice keyed in then take one die a side)."""
    result = menus.step(menu, event, offered)
    menu = result.state
    if menu.mode == "dice" and opening and not menu.opening:
        menu = replace(menu, side="white", opening=True)  # one die per side
    return menu, result.action

"""The table's menu: which items it offers now, and where it stands. One job of the
controller.

The menu's steps are controller.inputs.menu's pure state machine; this job keeps its state
for the table, decides the items offered at this moment (what is possible now, the dice's
entry and reveal, a hint, the online door's and the practice's ways, the board's pages'
links) and hands
the table's step the action chosen, which it routes to the job that carries it out. Its
slice of the table's state is the menu's own frozen `MenuState`, replaced at each step.
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


def press(menu: menus.MenuState, event: ButtonPressed, facts: MenuFacts,
          opening: bool) -> tuple[menus.MenuState, menus.MenuAction | None]:
    """A button for the menu: its next state, and the action chosen (None: none).
    `opening`: the match waits for its opening roll (dice keyed in then take one die a side)."""
    result = menus.step(menu, event, items(facts), facts.review.marked if facts.review else ())
    menu = result.state
    if menu.mode == "dice" and opening and not menu.opening:
        menu = replace(menu, side="white", opening=True)  # one die per side
    return menu, result.action


def items(facts: MenuFacts) -> tuple[menus.MenuItem, ...]:
    """The menu's items now: what is possible now (controller.play.possible), and the
    table's own (dice entry, the dice's reveal, a hint)."""
    if facts.watching:
        return ("leave_watching",)
    actions = facts.actions
    remote = facts.playing_online
    # online the server decides a new match and rolls the dice; leaving gives the local match back
    available: list[menus.MenuItem] = ["leave_online" if remote else "new_match"]
    available += [f"resign_{a.level}" for a in actions if a.action == "resign"]  # type: ignore[misc]
    for item in ("forfeit", "rematch"):
        if any(a.action == item for a in actions):
            available.append(item)
    if any(a.action == "roll" for a in actions) and facts.dice.mode not in ("verifiable", "server"):
        available.append("dice_entry")
    if facts.dice.secret is not None and not facts.dice.secret.revealed:
        available.append("reveal_dice")
    if facts.hint_allowed:
        available.append("hint")
    if not remote:
        available += _door_items(facts) + _practice_items(facts)
    available += [item for item, name in menus.LINK_ITEMS.items() if name in facts.links]  # the pages'
    return tuple(available + (["new_links"] if facts.links else []))


def _practice_items(facts: MenuFacts) -> list[menus.MenuItem]:
    """The practice's items (controller/table/practice.py): a marked decision of the
    review to practise, and while practising the way back to the match."""
    offered: list[menus.MenuItem] = ["practise"] if facts.review is not None and facts.review.marked else []
    return offered + (["back_to_match"] if facts.practising is not None else [])


def _door_items(facts: MenuFacts) -> list[menus.MenuItem]:
    """The online door's ways in that the table offers (controller/online/door.py)."""
    offered: list[menus.MenuItem] = []
    if facts.practising is not None:  # a practice is neither played nor left for watching online
        return offered
    if facts.play_offered:
        offered.append("play_online")
    if facts.watch_offered:
        offered.append("watch_online")
    return offered

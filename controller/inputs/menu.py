"""The menu behind the menu button, as a small pure state machine.

The menu button opens the menu and cycles through its items; a main button chooses the
item shown (the side whose button it was is the one who resigns, forfeits, ...); a cube
button or a long press on the menu button closes it. Two items have a second step:
dice entry (for people who roll real dice: the cube button counts a die up 1..6, main
takes it, twice; at the opening roll the prompt asks for White's die, then Black's) and a new match (cube cycles the length, main starts it). Giving up
the whole match and revealing the verifiable dice's seed ask for a second main press: a slip
would cost the match, or end the dice's guarantee for the rest of it.

`step(state, event, offered)` returns the next state, the chosen action (or None)
and whether the menu used the event: when it did not (the menu is closed and a main or
cube button was pressed), the controller handles the event as a game button.
Which items there are, when each is offered (resigning only at the start of one's own
turn, rematch only after a match), its label and what choosing it does are the menu's
registry, controller/play/menu_items.py: this machine knows items only by id and label,
and a main button on one gives `Chosen(item, side)`; "close" is always offered last. The
second steps (dice, length, the confirmations, the marked list, a link shown) are its own.

"Practise a marked move" (offered when the review has marked decisions) opens a list of
them in match order, shown one at a time ("G2 M14 Bad -0.09"): the menu button goes to the
next, a main button chooses it (the table's practice sets its position up), a cube button
or a long press closes the menu. While practising, "Back to the match" ends the practice.

With the board's pages on (`bgboard run --page/--spectators`), "phone page" and
"spectators' page" show the page's link as a QR code on the display until any button is
pressed, and "new page links" revokes both links (every paired phone scans again).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Union

from controller.engine.board_view import Colour
from controller.inputs.press import ButtonPressed
from controller.show.content import Prompt
from controller.show.review_notes import MarkedLine

#: an item's id: the key of its entry in the menu's registry (controller/play/menu_items.py),
#: which says when it is offered, its label and what choosing it does
MenuItem = str
#: an item offered now: its id and its label's text key (controller/show/texts.py)
Offer = tuple[MenuItem, str]
CLOSE: Offer = ("close", "menu.close")
#: what the menu asks of the table's online door (controller/online/door.py)
OnlineWhat = Literal["play", "watch", "leave"]
#: the board's pages whose link the menu shows (controller/web/board_page.py: the player's phone, the spectators)
LinkName = Literal["phone", "spectators"]
MATCH_LENGTHS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)

Mode = Literal["closed", "items", "dice", "length", "confirm_forfeit", "confirm_reveal", "marked", "link"]


@dataclass(frozen=True)
class Forfeit:
    side: Colour


@dataclass(frozen=True)
class NewMatch:
    length: int


@dataclass(frozen=True)
class DiceEntered:
    side: Colour
    dice: tuple[int, int]


@dataclass(frozen=True)
class RevealDice:
    """Reveal the verifiable dice's seed now (controller/dice/README.md step 5)."""

    side: Colour


@dataclass(frozen=True)
class Practise:
    """Practise the marked decision `key` (controller/table/practice.py)."""

    key: str


@dataclass(frozen=True)
class Chosen:
    """`side`'s main button chose `item`: what that does is its registry entry's
    (controller/play/menu_items.py), carried out by the table's step."""

    item: MenuItem
    side: Colour


@dataclass(frozen=True)
class MenuClosed:
    """The menu was closed without choosing anything."""


MenuAction = Union[Chosen, Forfeit, NewMatch, DiceEntered, RevealDice, Practise, MenuClosed]


@dataclass(frozen=True)
class MenuState:
    """Where the menu is; `MenuState()` is closed."""

    mode: Mode = "closed"
    items: tuple[MenuItem, ...] = ()
    labels: tuple[str, ...] = ()  # each item's label's text key (mode "items")
    index: int = 0
    side: Colour | None = None
    dice: tuple[int, ...] = ()
    die: int = 1
    length: int = 5
    opening: bool = False
    marks: tuple[MarkedLine, ...] = ()  # the marked decisions listed (mode "marked")
    link: LinkName = "phone"  # the page whose link is shown (mode "link", which keeps the items' labels)

    @property
    def is_open(self) -> bool:
        return self.mode != "closed"

    @property
    def item(self) -> MenuItem | None:
        return self.items[self.index] if self.mode == "items" else None

    @property
    def prompt(self) -> Prompt | None:
        """What the display's prompt line shows for the menu (None when closed)."""
        if self.mode == "items":
            return Prompt.of("menu", item_key=self.labels[self.index])
        if self.mode == "dice" and self.opening:
            return Prompt.of("dice_entry_opening", side="black" if self.dice else "white", die=self.die)
        if self.mode == "dice" and self.side is not None:
            return Prompt.of("dice_entry", side=self.side, dice=self.dice + (self.die,))
        if self.mode == "length":
            return Prompt.of("setting.length", length=self.length)
        if self.mode == "marked":
            return self.marks[self.index].prompt
        if self.mode == "link":
            return Prompt.of("link_shown", item_key=self.labels[self.index])  # the item that showed it
        if self.mode in ("confirm_forfeit", "confirm_reveal") and self.side is not None:
            return Prompt.of(self.mode, side=self.side)
        return None


@dataclass(frozen=True)
class MenuResult:
    state: MenuState
    action: MenuAction | None = None
    consumed: bool = True


_CLOSED = MenuState()


def step(state: MenuState, event: ButtonPressed, offered: tuple[Offer, ...] = ()) -> MenuResult:
    """The menu's answer to one button event. `offered` (the registry's items offered now,
    controller/play/menu_items.py) is used when the menu opens; "close" comes last."""
    is_menu = event.button == "menu"
    if state.mode == "closed":
        if not is_menu:
            return MenuResult(state, None, consumed=False)
        if event.held:
            return MenuResult(state)
        shown = tuple(offer for offer in offered if offer[0] != CLOSE[0]) + (CLOSE,)
        return MenuResult(MenuState(mode="items", items=tuple(item for item, _ in shown),
                                    labels=tuple(label for _, label in shown)))
    if event.held or (event.button == "cube" and state.mode in ("items", "marked")):
        return MenuResult(_CLOSED, MenuClosed())
    if state.mode == "items":
        return _step_items(state, event)
    if state.mode == "marked":
        return _step_marked(state, event)
    if is_menu or state.mode == "link":  # a link is shown until any button is pressed
        return MenuResult(_CLOSED, MenuClosed())
    if state.mode == "dice":
        return _step_dice(state, event)
    if state.mode == "length":
        return _step_length(state, event)
    return _step_confirm(state, event)


def _step_items(state: MenuState, event: ButtonPressed) -> MenuResult:
    """The menu button goes to the next item; a main button chooses the item shown for its
    side (its registry entry says what that does)."""
    if event.button == "menu":
        return MenuResult(replace(state, index=(state.index + 1) % len(state.items)))
    if event.side is None:  # a main event without a side: nobody to act for
        return MenuResult(state)
    return MenuResult(state, Chosen(state.items[state.index], event.side))


def _step_marked(state: MenuState, event: ButtonPressed) -> MenuResult:
    """The list of marked decisions: menu goes to the next, main chooses (cube and a
    long press closed the menu already)."""
    if event.button == "menu":
        return MenuResult(replace(state, index=(state.index + 1) % len(state.marks)))
    return MenuResult(_CLOSED, Practise(state.marks[state.index].key))


def _step_dice(state: MenuState, event: ButtonPressed) -> MenuResult:
    if event.button == "cube":
        return MenuResult(replace(state, die=state.die % 6 + 1))
    dice = state.dice + (state.die,)
    if len(dice) == 2 and state.side is not None:
        return MenuResult(_CLOSED, DiceEntered(state.side, (dice[0], dice[1])))
    return MenuResult(replace(state, dice=dice, die=1))


def _step_length(state: MenuState, event: ButtonPressed) -> MenuResult:
    if event.button == "cube":
        lengths = MATCH_LENGTHS
        following = [n for n in lengths if n > state.length]
        return MenuResult(replace(state, length=following[0] if following else lengths[0]))
    return MenuResult(_CLOSED, NewMatch(state.length))


def _step_confirm(state: MenuState, event: ButtonPressed) -> MenuResult:
    """The second press of a step that cannot be undone: the same side's main button
    confirms, anything else closes the menu with nothing done."""
    if event.button == "main" and event.side == state.side and state.side is not None:
        done = Forfeit(state.side) if state.mode == "confirm_forfeit" else RevealDice(state.side)
        return MenuResult(_CLOSED, done)
    return MenuResult(_CLOSED, MenuClosed())

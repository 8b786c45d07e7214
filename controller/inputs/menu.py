"""The menu behind the menu button, as a small pure state machine.

The menu button opens the menu and cycles through its items; a main button chooses the
item shown (the side whose button it was is the one who resigns, forfeits, ...); a cube
button or a long press on the menu button closes it. Two items have a second step:
dice entry (for people who roll real dice: the cube button counts a die up 1..6, main
takes it, twice; at the opening roll the prompt asks for White's die, then Black's) and a new match (cube cycles the length, main starts it). Giving up
the whole match and revealing the verifiable dice's seed ask for a second main press: a slip
would cost the match, or end the dice's guarantee for the rest of it.

`step(state, event, available)` returns the next state, the chosen action (or None)
and whether the menu used the event: when it did not (the menu is closed and a main or
cube button was pressed), the controller handles the event as a game button.
The controller says which items are `available` now (resigning only at the start of
one's own turn, rematch only after a match); "close" is always offered last.

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

MenuItem = Literal["resign_single", "resign_gammon", "resign_backgammon", "forfeit",
                   "new_match", "rematch", "dice_entry", "reveal_dice", "hint", "play_online",
                   "leave_online", "watch_online", "leave_watching", "practise", "back_to_match",
                   "phone_link", "spectators_link", "new_links", "close"]
ITEMS: tuple[MenuItem, ...] = ("resign_single", "resign_gammon", "resign_backgammon",
                               "forfeit", "new_match", "rematch", "dice_entry", "reveal_dice", "hint",
                               "play_online", "leave_online", "watch_online", "leave_watching", "practise",
                               "back_to_match", "phone_link", "spectators_link", "new_links", "close")
#: what the menu asks of the table's online door (controller/online/door.py)
OnlineWhat = Literal["play", "watch", "leave"]
#: the online door's items and what each asks it
ONLINE_ITEMS: dict[MenuItem, OnlineWhat] = {
    "play_online": "play", "leave_online": "leave", "watch_online": "watch", "leave_watching": "leave"}
#: the board's pages whose link the menu shows (controller/web/board_page.py: the player's phone, the spectators)
LinkName = Literal["phone", "spectators"]
LINK_ITEMS: dict[MenuItem, LinkName] = {"phone_link": "phone", "spectators_link": "spectators"}
MATCH_LENGTHS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)

Mode = Literal["closed", "items", "dice", "length", "confirm_forfeit", "confirm_reveal", "marked", "link"]


@dataclass(frozen=True)
class Resign:
    side: Colour
    level: Literal["single", "gammon", "backgammon"]


@dataclass(frozen=True)
class Forfeit:
    side: Colour


@dataclass(frozen=True)
class NewMatch:
    length: int


@dataclass(frozen=True)
class Rematch:
    side: Colour


@dataclass(frozen=True)
class DiceEntered:
    side: Colour
    dice: tuple[int, int]


@dataclass(frozen=True)
class RevealDice:
    """Reveal the verifiable dice's seed now (controller/dice/README.md step 5)."""

    side: Colour


@dataclass(frozen=True)
class HintAsked:
    """GNU Backgammon's hint was asked for (the menu stays on it: asking again shows the
    next best move)."""

    side: Colour


@dataclass(frozen=True)
class Online:
    """Play online or watch a match online (from the settings), or leave either."""

    what: OnlineWhat


@dataclass(frozen=True)
class Practise:
    """Practise the marked decision `key` (controller/table/practice.py)."""

    key: str


@dataclass(frozen=True)
class BackToMatch:
    """End the practice: the match set aside plays on."""


@dataclass(frozen=True)
class NewLinks:
    """Revoke the pages' links: new tokens, every paired phone and spectator shut out."""


@dataclass(frozen=True)
class MenuClosed:
    """The menu was closed without choosing anything."""


MenuAction = Union[Resign, Forfeit, NewMatch, Rematch, DiceEntered, RevealDice, HintAsked, Online, Practise,
                   BackToMatch, NewLinks, MenuClosed]


@dataclass(frozen=True)
class MenuState:
    """Where the menu is; `MenuState()` is closed."""

    mode: Mode = "closed"
    items: tuple[MenuItem, ...] = ()
    index: int = 0
    side: Colour | None = None
    dice: tuple[int, ...] = ()
    die: int = 1
    length: int = 5
    opening: bool = False
    marks: tuple[MarkedLine, ...] = ()  # the marked decisions listed (mode "marked")
    link: LinkName = "phone"  # the page whose link is shown (mode "link")

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
            return Prompt.of("menu", item_key=f"menu.{self.items[self.index]}")
        if self.mode == "dice" and self.opening:
            return Prompt.of("dice_entry_opening", side="black" if self.dice else "white", die=self.die)
        if self.mode == "dice" and self.side is not None:
            return Prompt.of("dice_entry", side=self.side, dice=self.dice + (self.die,))
        if self.mode == "length":
            return Prompt.of("setting.length", length=self.length)
        if self.mode == "marked":
            return self.marks[self.index].prompt
        if self.mode == "link":
            return Prompt.of("link_shown", item_key=f"menu.{self.link}_link")
        if self.mode in ("confirm_forfeit", "confirm_reveal") and self.side is not None:
            return Prompt.of(self.mode, side=self.side)
        return None


@dataclass(frozen=True)
class MenuResult:
    state: MenuState
    action: MenuAction | None = None
    consumed: bool = True


_CLOSED = MenuState()


def step(state: MenuState, event: ButtonPressed,
         available: tuple[MenuItem, ...] = ITEMS, marked: tuple[MarkedLine, ...] = ()) -> MenuResult:
    """The menu's answer to one button event. `available` is used when the menu opens,
    `marked` (the review's marked decisions) when "Practise a marked move" is chosen."""
    is_menu = event.button == "menu"
    if state.mode == "closed":
        if not is_menu:
            return MenuResult(state, None, consumed=False)
        if event.held:
            return MenuResult(state)
        items = tuple(item for item in ITEMS if item in available and item != "close")
        return MenuResult(MenuState(mode="items", items=items + ("close",)))
    if event.held or (event.button == "cube" and state.mode in ("items", "marked")):
        return MenuResult(_CLOSED, MenuClosed())
    if state.mode == "items":
        return _step_items(state, event, marked)
    if state.mode == "marked":
        return _step_marked(state, event)
    if is_menu or state.mode == "link":  # a link is shown until any button is pressed
        return MenuResult(_CLOSED, MenuClosed())
    if state.mode == "dice":
        return _step_dice(state, event)
    if state.mode == "length":
        return _step_length(state, event)
    return _step_confirm(state, event)


def _step_items(state: MenuState, event: ButtonPressed, marked: tuple[MarkedLine, ...]) -> MenuResult:
    if event.button == "menu":
        return MenuResult(replace(state, index=(state.index + 1) % len(state.items)))
    side = event.side
    if side is None:  # a main or cube event without a side: nobody to act for
        return MenuResult(state)
    item = state.items[state.index]
    if item.startswith("resign_"):
        level = item.removeprefix("resign_")
        return MenuResult(_CLOSED, Resign(side, level))  # type: ignore[arg-type]
    if item == "forfeit":
        return MenuResult(MenuState(mode="confirm_forfeit", side=side))
    if item == "new_match":
        return MenuResult(MenuState(mode="length", side=side, length=state.length))
    if item == "rematch":
        return MenuResult(_CLOSED, Rematch(side))
    if item == "dice_entry":
        return MenuResult(MenuState(mode="dice", side=side, opening=state.opening))
    if item == "hint":
        return MenuResult(state, HintAsked(side))
    if item == "reveal_dice":
        return MenuResult(MenuState(mode="confirm_reveal", side=side))
    if item in ONLINE_ITEMS:
        return MenuResult(_CLOSED, Online(ONLINE_ITEMS[item]))
    if item in LINK_ITEMS:
        return MenuResult(MenuState(mode="link", link=LINK_ITEMS[item]))
    if item == "new_links":
        return MenuResult(_CLOSED, NewLinks())
    return _step_practice(item, side, marked)


def _step_practice(item: MenuItem, side: Colour, marked: tuple[MarkedLine, ...]) -> MenuResult:
    if item == "practise" and marked:
        return MenuResult(MenuState(mode="marked", side=side, marks=marked))
    if item == "back_to_match":
        return MenuResult(_CLOSED, BackToMatch())
    return MenuResult(_CLOSED, MenuClosed())


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

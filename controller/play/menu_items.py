"""The board's menu as data (issue 33.4): one entry per item, in the order the menu shows them.

An entry is the item's id, its label's text key (controller/show/texts.py), when it is
offered (a pure function of the menu's facts, controller/play/table_menu.MenuFacts, which
the table's step hands it: controller/play/facts.menu_facts) and what choosing it does (a
pure function of the table's state and the side whose main button chose it, returning the
next state and the effects, as every part of the table's step does). The menu button's
menu (controller/inputs/menu.py opens on `offers`), the table's status (`menu_items`, which
the page and the tests read) and the step's carrying out (`choose`) all read this one
table; nothing else lists the items. A new item is one entry here, its label in the texts
and the job it calls (the README's "Adding a feature").

Items that ask a second step (the dice, a new match's length, the two confirmations, the
list of marked decisions, a page's link shown) open that step of the menu's own state
machine; its answer (`Forfeit`, `NewMatch`, ...) is carried out by controller/play/pressing.py.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.engine.board_view import Colour
from controller.events import Effect, LinksRevoked, OnlineRequested, PracticeRequested
from controller.inputs import menu as menus
from controller.play import facts, hint
from controller.play.acting import act
from controller.play.change import Stepped
from controller.play.table_menu import MenuFacts, ask_dice
from controller.play.table_state import TableState

#: whether an item is offered now, from the menu's facts alone
Offered = Callable[[MenuFacts], bool]
#: what choosing an item does: the table's next state and effects, for the side that chose it
Chosen = Callable[[TableState, Colour], Stepped]


@dataclass(frozen=True)
class MenuEntry:
    """One item of the board's menu: `id` (the menu's and the status's name for it),
    `label` (its text key), `offered` (when the menu shows it) and `chosen` (what a
    main button on it does)."""

    id: str
    label: str
    offered: Offered
    chosen: Chosen


def show_hint(state: TableState) -> Stepped:
    """The menu's Hint (and the page's): the best move, or the next-ranked one (when a hint
    can be given)."""
    if not facts.hint_allowed(state):
        return state, []
    shown, said = hint.show(state.hint, state.match)
    return replace(state, hint=shown), list(said)


def _may(action: str, level: str | None = None) -> Offered:
    """Offered when a player may take `action` (at `level`) now (controller.play.possible)."""
    return lambda f: any(a.action == action and (level is None or a.level == level) for a in f.actions)


def _at_table(offered: Offered) -> Offered:
    """Offered as `offered` says, but never while a server match is watched (then the menu
    only leaves watching)."""
    return lambda f: not f.watching and offered(f)


def _local(offered: Offered) -> Offered:
    """`_at_table`, and not while playing online (the server decides those)."""
    return _at_table(lambda f: not f.playing_online and offered(f))


def _acts(action: str, level: str | None = None) -> Chosen:
    """Close the menu, and the side takes `action` (controller.play.acting), as with its buttons."""
    return lambda state, side: act(replace(state, menu=menus.MenuState()), side, action, level)


def _opens(step: Callable[[TableState, Colour], menus.MenuState]) -> Chosen:
    """Go on to a second step of the menu (the dice, a length, a confirmation, a list, a link)."""
    return lambda state, side: (replace(state, menu=step(state, side)), [])


def _says(*effects: Effect) -> Chosen:
    """Close the menu and hand `effects` to the table (the online door, the practice, the pages)."""
    return lambda state, side: (replace(state, menu=menus.MenuState()), list(effects))


def _practise(state: TableState, side: Colour) -> Stepped:
    """The review's marked decisions, listed one at a time (nothing to list: the menu closes)."""
    marked = state.table.review.marked if state.table.review is not None else ()
    if not marked:
        return replace(state, menu=menus.MenuState()), []
    return replace(state, menu=menus.MenuState(mode="marked", side=side, marks=marked)), []


def _shows_link(name: menus.LinkName) -> Chosen:
    """Show the page `name`'s link as a QR code, under the label of the item that chose it."""
    return _opens(lambda state, side: replace(state.menu, mode="link", link=name))


def _reveal_pending(f: MenuFacts) -> bool:
    return f.dice.secret is not None and not f.dice.secret.revealed


def _door(offer: Callable[[MenuFacts], bool]) -> Offered:
    """The online door's ways in (controller/online/door.py): not while practising (a
    practice is neither played nor left for watching online)."""
    return _local(lambda f: f.practising is None and offer(f))


#: every item of the board's menu, in the order the menu shows them ("close" last)
ENTRIES: tuple[MenuEntry, ...] = (
    MenuEntry("resign_single", "menu.resign_single", _at_table(_may("resign", "single")), _acts("resign", "single")),
    MenuEntry("resign_gammon", "menu.resign_gammon", _at_table(_may("resign", "gammon")), _acts("resign", "gammon")),
    MenuEntry("resign_backgammon", "menu.resign_backgammon", _at_table(_may("resign", "backgammon")),
              _acts("resign", "backgammon")),
    MenuEntry("forfeit", "menu.forfeit", _at_table(_may("forfeit")),
              _opens(lambda state, side: menus.MenuState(mode="confirm_forfeit", side=side))),
    MenuEntry("new_match", "menu.new_match", _local(lambda f: True),
              _opens(lambda state, side: menus.MenuState(mode="length", side=side, length=state.menu.length))),
    MenuEntry("rematch", "menu.rematch", _at_table(_may("rematch")), _acts("rematch")),
    MenuEntry("dice_entry", "menu.dice_entry",
              _at_table(lambda f: _may("roll")(f) and f.dice.mode not in ("verifiable", "server")),
              _opens(lambda state, side: ask_dice(side, state.match.phase == "opening"))),
    MenuEntry("reveal_dice", "menu.reveal_dice", _at_table(_reveal_pending),
              _opens(lambda state, side: menus.MenuState(mode="confirm_reveal", side=side))),
    MenuEntry("hint", "menu.hint", _at_table(lambda f: f.hint_allowed), lambda state, side: show_hint(state)),
    MenuEntry("play_online", "menu.play_online", _door(lambda f: f.play_offered), _says(OnlineRequested("play"))),
    MenuEntry("leave_online", "menu.leave_online", _at_table(lambda f: f.playing_online),
              _says(OnlineRequested("leave"))),
    MenuEntry("watch_online", "menu.watch_online", _door(lambda f: f.watch_offered), _says(OnlineRequested("watch"))),
    MenuEntry("leave_watching", "menu.leave_watching", lambda f: f.watching, _says(OnlineRequested("leave"))),
    MenuEntry("practise", "menu.practise", _local(lambda f: f.review is not None and bool(f.review.marked)),
              _practise),
    MenuEntry("back_to_match", "menu.back_to_match", _local(lambda f: f.practising is not None),
              _says(PracticeRequested(None))),
    MenuEntry("phone_link", "menu.phone_link", _at_table(lambda f: "phone" in f.links), _shows_link("phone")),
    MenuEntry("spectators_link", "menu.spectators_link", _at_table(lambda f: "spectators" in f.links),
              _shows_link("spectators")),
    MenuEntry("new_links", "menu.new_links", _at_table(lambda f: bool(f.links)), _says(LinksRevoked())),
    MenuEntry(menus.CLOSE[0], menus.CLOSE[1], lambda f: True, _says()),
)
#: the entries by id
BY_ID: dict[str, MenuEntry] = {entry.id: entry for entry in ENTRIES}


def offered(menu_facts: MenuFacts) -> tuple[MenuEntry, ...]:
    """The entries offered now, in the menu's order."""
    return tuple(entry for entry in ENTRIES if entry.offered(menu_facts))


def offers(menu_facts: MenuFacts) -> tuple[menus.Offer, ...]:
    """The items offered now as the menu's state machine opens on them: id and label."""
    return tuple((entry.id, entry.label) for entry in offered(menu_facts))


def choose(state: TableState, chosen: menus.Chosen) -> Stepped:
    """Carry out the item `chosen` (its entry's `chosen`); an id with no entry closes the menu."""
    entry = BY_ID.get(chosen.item)
    if entry is None:
        return replace(state, menu=menus.MenuState()), []
    return entry.chosen(state, chosen.side)

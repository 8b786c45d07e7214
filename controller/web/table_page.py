"""The page of a table, whichever front end serves it: the simulator's page over the virtual
board (sim/page/live.py) and the phone's page of the real board (board_page.py) are this one
page with another board under it.

It holds the page's actions once, each as the table's own event or job: a button press, a
typed command, real dice keyed in, a phrase and the reveal, the language and the tutor, the
Hint, the New match dialog (`MatchChosen`, as on every front end), the review's practice
and the way back, online play, watching and its chat. What differs between the front ends
is what is under the page, handed to it as three small parts:

- the board (`PageBoard`): what the page's hands do there (on the virtual board they lift
  and place checkers and help; on the real board a person's hands do it, and the page says
  so), the checkers as the page draws them, and what else it shows of the board;
- the buttons (`PageButtons`): a finger on the simulator's mock pins, or the table's own
  buttons pressed as the physical ones are;
- the dialog (`PageDialog`): the New match dialog's choices, remembered by the simulator
  for its next session, read from the table's own match on the board.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from controller.board.profile_sections import LedConfig
from controller.engine.match import Match
from controller.events import Event, LanguageChosen, MatchChosen, Refused, TutorChosen
from controller.json_value import JsonObject
from controller.online.door import OnlineDoor
from controller.online.watch import WatchedMatch
from controller.table import Table
from controller.web import online_page, page_actions, table_commands
from controller.web.dialog import new_match_choice, offered_levels
from controller.web.page_actions import Answer, Handler
from controller.web.practice_page import PagePractice
from controller.web.protocol import Notice, PageAction, PageKind
from controller.web.record import table_record
from controller.web.refusals import PageRefusals
from controller.web.spectators import NO_ONLINE_PLAY
from controller.web.subscribers import Subscribers
from controller.web.table_view import display_png, display_version, table_view
from controller.web.watch_page import watched_view

NO_DOOR = Notice("no_online", "online play is not offered at this table")


class PageBoard(Protocol):
    """The board under the page (see the module docstring)."""

    @property
    def hand(self) -> list[dict[str, str]]:
        """The checkers in the air (their colour and the cell each came from)."""

    def actions(self) -> Mapping[PageKind, Handler]:
        """What the page's hands do on this board (`page_actions.PHYSICAL`), and any
        action only this board has (the simulator's faults)."""

    def cells(self) -> dict[str, list[int]]:
        """Each cell's white and black checkers, as the page draws them."""

    def helpers(self) -> list[str]:
        """The helping hands that make sense now."""

    def hand_back(self) -> None:
        """Checkers in the air go back where they were lifted."""

    def match_chosen(self, match: Match) -> None:
        """A new match was chosen on the page: the board as a person would leave it."""

    def plugged(self) -> bool:
        """Whether the board's cable is in (a hand on an unplugged board is told so)."""

    def shown(self, view: JsonObject) -> JsonObject:
        """What the page shows of this board beside the table's `view` (the Debug panel)."""


class PageButtons(Protocol):
    """The table's buttons as the page presses them."""

    async def press(self, name: str) -> Answer:
        """The button `name` (`white_main`, `black_cube`, `menu`, `menu_hold`) pressed."""


class PageDialog(Protocol):
    """The New match dialog's choices."""

    def settings(self) -> JsonObject:
        """The choices the dialog shows now."""

    def remember(self, chosen: JsonObject) -> None:
        """Choices made on the page (a new match's, a language, a tutor), for the next dialog."""


class TablePage:
    """The page of `table` (see the module docstring): the `PageBackend` every front end's
    server serves. `door` is the table's way into online play (None: not offered here),
    `leds` the profile's LEDs, `tabs` the tabs told when what the page shows changed (the
    simulator's own, which its ticks and hands tell too; default: told after every scene)."""

    def __init__(self, table: Table, *, board: PageBoard, buttons: PageButtons, dialog: PageDialog,
                 leds: LedConfig, door: OnlineDoor | None = None,
                 tabs: Subscribers | None = None) -> None:
        self.table, self.board, self.buttons, self.dialog = table, board, buttons, dialog
        self.leds, self.door = leds, door
        #: every level a player may choose, with what a missing one lacks (shown, explained)
        self.levels = offered_levels()
        #: the table's refusals, as the page's notices in the match's language
        self.refusals = PageRefusals(lambda: table.controller.status().language)
        table.on_refused(self.refusals.refused)
        #: the tabs told when what the page shows changed
        self.tabs = tabs if tabs is not None else Subscribers()
        table.on_scene(lambda scene: self.changed())
        #: the review panel and the practice of a marked decision
        self.practising = PagePractice(lambda: table, board.hand_back, now=table.clock, changed=self.changed)
        if door is not None:
            told = door.on_change

            def door_changed() -> None:  # online play moved on: the door's own listener, then the tabs
                told()
                self.changed()
            door.on_change = door_changed
        self._actions = self._table_of_actions()

    # -- what the page shows ------------------------------------------------------------
    def changed(self) -> None:
        self.tabs.changed()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.tabs.add(callback)

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return self.refusals.on_notice(callback)  # a refusal no page action met (the computer, a button)

    @property
    def watched(self) -> WatchedMatch | None:
        """The server match the door watches now, shown in the table's place."""
        return online_page.watched(self.door)

    def display_version(self) -> str:
        return display_version(self.table, id(self.table) % 100000)

    def snapshot(self) -> JsonObject:
        """What the page draws: the table (table_view.py) with the board under it, the
        dialog, the review and online play; while the door watches a server match, that
        match in the table's place (`watched_view`: its checkers, and nothing to do)."""
        table, board, watched = self.table, self.board, self.watched
        view = table_view(table, self.leds, version=self.display_version(), in_hand=bool(board.hand),
                          watching=watched is not None)
        return {"board": board.cells(), "hand": list(board.hand), **view, "helpers": board.helpers(),
                **self._online(), "settings": self.dialog.settings(), "levels": self.levels,
                "review": self.practising.summary() if table.practice is not None else None,
                **board.shown(view), **({} if watched is None else watched_view(watched))}

    def _online(self) -> JsonObject:
        """Online play as the page shows it (nothing to show without a door)."""
        if self.door is None:
            return {"online_play": dict(NO_ONLINE_PLAY), "chat": []}
        view = self.door.view()
        return {"online_play": view, "chat": view["chat"]}

    def display_png(self) -> bytes:
        """The display's frame as it is, a page's link as a QR code too (the owner's phone
        may show the spectators' link to the people around the table)."""
        return display_png(self.table)

    def match_record(self) -> str:
        """The match so far as `.mat` text: while a position is practised, or a server
        match watched, the match set aside, with its dice (a practice starts from a position
        no .mat can write; the server keeps the watched match's)."""
        practice = self.table.practice
        aside = (practice.match_seating if practice is not None else None) or \
            (self.door.aside if self.door is not None else None)
        return table_record(self.table, aside)

    def review_json(self) -> JsonObject:
        return dict(self.practising.document())

    # -- what the page does -------------------------------------------------------------
    async def act(self, action: PageAction) -> Answer:
        """The page's action answered (page_actions.answer) by its entry in the table of actions."""
        return await page_actions.answer(action, self._actions, self.refusals, watching=self.watched is not None,
                                         plugged=self.board.plugged)

    def _table_of_actions(self) -> dict[PageKind, Handler]:
        """What each page action does at this table (an async one returns its coroutine)."""
        table = self.table
        return {
            **self.board.actions(),
            "button": lambda a: self.buttons.press(a.name or ""),
            "command": lambda a: table_commands.command(table, a.name or "", table.clock()),
            "dice": self._dice, "die": self._dice, "phrase": self._dice, "reveal": self._dice,
            "language": lambda a: self._chosen(LanguageChosen(a.name or "", table.clock()), {"language": a.name}),
            "tutor": lambda a: self._chosen(TutorChosen(a.name or "", table.clock()), {"tutor": a.name}),
            "hint": lambda a: table_commands.ask_hint(table, table.clock()),
            "new_match": lambda a: self._new_match(a.settings or {}),
            "practice": lambda a: self.practising.start(a.name or ""),
            "back_to_match": lambda a: self.practising.back(),
            "online": lambda a: self._door(lambda d: online_page.join(d, table, a.settings or {}, d.read_settings)),
            "online_leave": lambda a: self._door(lambda d: online_page.leave(d, table)),
            "say": lambda a: self._door(lambda d: d.say(a.name or "")),
        }

    def _dice(self, action: PageAction) -> None:
        table_commands.dice(self.table, action, self.table.clock())  # a refusal answers it (`act`)

    def _refused(self, event: Event) -> bool:
        return any(isinstance(e, Refused) for e in self.table.dispatch(event))

    def _chosen(self, event: LanguageChosen | TutorChosen, chosen: JsonObject) -> None:
        """The page's language or tutor: the table's now, the next dialog's too (a refusal
        answers it, `act`)."""
        if not self._refused(event):
            self.dialog.remember(chosen)
        self.changed()

    def _door(self, use: Callable[[OnlineDoor], Answer | Awaitable[Answer]]) -> Answer | Awaitable[Answer]:
        """`use(door)`, or why there is none to use."""
        return NO_DOOR if self.door is None else use(self.door)

    def _new_match(self, data: JsonObject) -> Answer:
        """The New match dialog (its rules: dialog.py) as the table's `MatchChosen`, the
        language and tutor it chose with it, as every front end starts a match; a practice
        under way ends first (its match is given back, then replaced), and a refused match
        changes nothing."""
        busy = online_page.busy(self.door)
        if busy is not None:
            return busy
        dialog, match = new_match_choice(data)
        table, now = self.table, self.table.clock()
        self.board.hand_back()
        practice = table.practice
        if practice is not None and practice.match_seating is not None:
            practice.end(now)
        if self._refused(MatchChosen(match, now)):
            return None  # the refusal answers it
        table.dispatch(LanguageChosen(str(dialog["language"]), now))
        table.dispatch(TutorChosen(str(dialog["tutor"]), now))
        self.dialog.remember(dialog)
        self.board.match_chosen(match)
        self.changed()
        return Notice("new_match", f"new match to {dialog['length']}", {"n": str(dialog["length"])})

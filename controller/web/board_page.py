"""The board's own page for the player's phone: `bgboard run --page PORT`.

The simulator's page (one page implementation, controller/web/static) served from the real table:
the checkers drawn where the sensors last read them (they are moved by hand on the board,
so a checker dragged on the page is refused in one line), the display, LEDs, dice, cube,
score, clock, pips and move list as the simulator's page shows them, and everything else
the player does there, each through the table's own events and jobs, as the physical
buttons and the menu act: a button pressed on the page goes through `Table.on_button`; an
action of the list (`white double`) is the controller's `ActionRequested`; the language,
the tutor (`TutorChosen`), the Hint (`HintRequested`, the menu's Hint), real dice keyed in
and the verifiable dice's phrases and reveal are the table's events; the New match dialog
(controller/web/dialog.py, the simulator's rules) becomes `MatchChosen`, the match with all its
settings, in place of the menu's New match of a length; the review after a game and the
practice of a marked decision are the table's review and `TablePractice` (the menu's
"practise"), through the simulator's panel (controller/web/practice_page.py); online play and
watching are the table's online door (the menu's "Play online"), through the simulator's
dialog (controller/web/online_page.py). A refusal is the page's one line, in the table's language.

Pairing: the page always needs its token (`PlayerServer`: off loopback too, and on
loopback, since the Pi's own browser is not the only one there), given once in the
address the owner scans and then kept in a cookie; `rotate()` revokes every link and
cookie given so far and closes the tabs open now; the menu shows the link as a QR code
on the display and revokes it (controller/web/page_links.py). The spectators' page has a token
of its own and acts on nothing (controller/web/spectators.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from aiohttp import web

from controller.board.profile import Profile
from controller.engine.board_view import CELLS, cell_counts
from controller.events import LanguageChosen, MatchChosen, Refused, TutorChosen
from controller.inputs.buttons import BUTTON_KEYS, ButtonHeld, ButtonPressed
from controller.json_value import JsonObject
from controller.online.door import OnlineDoor
from controller.play.status import TableStatus
from controller.table import Table
from controller.web import online_page, page_actions, table_commands
from controller.web.dialog import new_match_choice, offered_levels, table_dialog
from controller.web.protocol import Notice, PageAction
from controller.web.page_links import close_tabs, offer_link, page_token
from controller.web.practice_page import PagePractice
from controller.web.refusals import PageRefusals
from controller.web.server import SimServer
from controller.web.record import table_record
from controller.web.table_view import display_png, display_version, table_view
from controller.web.spectators import NO_ONLINE_PLAY, SpectatorView, last_move, led_facts, on_table_scene, serve_beside
from controller.web.watch_page import watched_view

BY_HAND = Notice("by_hand", "the checkers are moved by hand on the board; the page presses buttons only")
Used = TypeVar("Used")
NO_DOOR = Notice("no_online", "online play is not offered at this table")


class BoardPage(SpectatorView):
    """The player's page of the real table (see the module docstring); `door` is the
    table's way into online play (None: not offered here)."""

    def __init__(self, table: Table, profile: Profile, door: OnlineDoor | None = None) -> None:
        super().__init__(lambda: table, lambda: table_record(table), on_table_scene(table), **led_facts(profile))
        self.table = table
        self.profile = profile
        self.door = door
        #: the table's refusals, as the page's notices in the table's language
        self.refusals = PageRefusals(lambda: table.controller.status().language)
        table.on_refused(self.refusals.refused)
        #: the review panel and the practice of a marked decision (no hands to give back)
        self.practising = PagePractice(lambda: table, lambda: None, now=table.clock, changed=self._changed)
        if door is not None:
            self._told_before = door.on_change
            door.on_change = self._door_changed

    def _door_changed(self) -> None:
        """Online play moved on (connecting, seated, a chat line): the door's own listener, then the tabs."""
        self._told_before()
        self._changed()

    def snapshot(self) -> JsonObject:
        """What the phone draws: the table as the simulator's page shows it
        (controller/web/table_view.py) with the checkers where the sensors read them, the New match
        dialog's choices as the table plays now, the review, and online play (a watched
        server match in the table's place, as on the simulator's page)."""
        table = self.table
        status = table.controller.status()
        watched = online_page.watched(self.door)
        view = table_view(table, self.profile.leds, version=display_version(table, id(table) % 100000),
                          in_hand=False, watching=watched is not None)
        return {**view, "spectator": False, "board_page": True, "board": _cells(status), "hand": [], "helpers": [],
                "last_move": last_move(view["moves"]), "debug": {"online": status.online},
                "settings": table_dialog(status.match.settings, status.config),
                "levels": offered_levels(),
                "review": self.practising.summary() if table.practice is not None else None,
                **self._online(), **({} if watched is None else watched_view(watched))}

    def _online(self) -> JsonObject:
        """Online play as the page shows it (nothing to show without a door)."""
        if self.door is None:
            return {"online_play": dict(NO_ONLINE_PLAY), "chat": []}
        view = self.door.view()
        return {"online_play": view, "chat": view["chat"]}

    def display_png(self) -> bytes:
        """The display's frame as it is, a link's QR code too: the owner's phone may show
        the spectators' link to the people around the table."""
        return display_png(self.table)

    def review_json(self) -> JsonObject:
        return dict(self.practising.document()) if self.table.practice is not None else super().review_json()

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return self.refusals.on_notice(callback)  # a refusal no page action met (the board's own buttons)

    async def act(self, action: PageAction) -> str | Notice | None:
        """The page's action answered as the simulator's are (controller/web/page_actions.py)."""
        return await page_actions.answer(action, self._handlers(), self.refusals,
                                         watching=online_page.watched(self.door) is not None, plugged=lambda: True)

    def _handlers(self) -> dict[str, page_actions.Handler]:
        """What each page action does at the real table (an async one returns its coroutine)."""
        table, now = self.table, self.table.clock
        door = self._door
        return {
            **dict.fromkeys(page_actions.PHYSICAL, lambda a: BY_HAND),  # on the real board the hand does it
            "button": lambda a: self._button(a.name or ""),
            "command": lambda a: table_commands.command(table, a.name or "", now()),
            "dice": self._dice, "die": self._dice, "phrase": self._dice, "reveal": self._dice,
            "language": lambda a: self._tell(LanguageChosen(a.name or "", now())),
            "tutor": lambda a: self._tell(TutorChosen(a.name or "", now())),
            "hint": lambda a: table_commands.ask_hint(table, now()),
            "new_match": lambda a: self._new_match(a.settings or {}),
            "practice": lambda a: self.practising.start(a.name or ""),
            "back_to_match": lambda a: self.practising.back(),
            "online": lambda a: door(lambda d: online_page.join(d, table, a.settings or {}, d.read_settings)),
            "online_leave": lambda a: door(lambda d: online_page.leave(d, table)),
            "say": lambda a: door(lambda d: d.say(a.name or "")),
        }

    def _tell(self, event: LanguageChosen | TutorChosen) -> None:
        self.table.dispatch(event)  # a refusal answers it (`act`)

    def _door(self, use: Callable[[OnlineDoor], Used]) -> Used | Notice:
        """`use(door)`, or why there is none to use."""
        return NO_DOOR if self.door is None else use(self.door)

    def _button(self, name: str) -> str | None:
        """A button of the page, as the physical one: `Table.on_button`."""
        if name in ("menu", "menu_hold"):
            self.table.on_button(ButtonHeld(None, "menu") if name == "menu_hold" else ButtonPressed(None, "menu"))
            return None
        if name not in BUTTON_KEYS:
            return f"ignored an unknown button {name[:20]!r}"
        side, kind = BUTTON_KEYS[name]
        self.table.on_button(ButtonPressed(side, kind))
        return None

    def _dice(self, action: PageAction) -> None:
        table_commands.dice(self.table, action, self.table.clock())  # a refusal answers it (`act`)

    def _new_match(self, data: JsonObject) -> Notice | None:
        """The New match dialog (its rules: controller/web/dialog.py) as the table's `MatchChosen`,
        the language and tutor it chose with it; a refused match changes nothing."""
        busy = online_page.busy(self.door)
        if busy is not None:
            return busy
        dialog, match = new_match_choice(data)
        table, now = self.table, self.table.clock()
        if any(isinstance(e, Refused) for e in table.dispatch(MatchChosen(match, now))):
            return None  # the refusal answers it
        table.dispatch(LanguageChosen(str(dialog["language"]), now))
        table.dispatch(TutorChosen(str(dialog["tutor"]), now))
        return Notice("new_match", f"new match to {dialog['length']}", {"n": str(dialog["length"])})


def _cells(status: TableStatus) -> dict[str, list[int]]:
    """Each cell's checkers as the sensors last read them (before any reading: as the match stands)."""
    reading = status.reading
    if reading is not None:
        return {c: list(reading.count(c)) for c in CELLS}
    counts = cell_counts(*status.match.board())
    return {c: list(counts.get(c, (0, 0))) for c in CELLS}


class PlayerServer(SimServer):
    """The simulator's server with the pairing token required everywhere (see the module
    docstring)."""

    async def start(self, host: str, port: int) -> web.AppRunner:
        runner = await super().start(host, port)
        assert self.guard is not None
        self.guard = replace(self.guard, token=page_token(), serves="board")
        return runner

    def rotate(self) -> None:
        """A new token: every paired phone must scan again, and the pages open now close."""
        if self.guard is not None:
            self.guard = self.guard.rotated(page_token())
        close_tabs(self._sockets)


def pair_table(table: Table, profile: Profile, host: str, port: int,
               on_url: Callable[[str], None], door: OnlineDoor | None = None) -> PlayerServer:
    """`bgboard run --page PORT`: the player's page of `table` on `host:port` (with the
    table's online `door`), served for as long as the loop runs, its link offered by the
    menu (controller/web/page_links.py); the server is returned for `rotate()`."""
    server = PlayerServer(BoardPage(table, profile, door))
    serve_beside(server, host, port, offer_link(table, "phone", server, host, on_url))
    return server


def print_pairing(url: str) -> None:
    """The pairing address and its QR code on standard output (the journal on the Pi), to
    scan with the phone's camera."""
    import segno

    print(f"page: {url}", flush=True)
    segno.make(url, error="m").terminal(compact=True)

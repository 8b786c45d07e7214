"""The board's own page for the player's phone: `bgboard run --page PORT`.

It is the one page of every table (controller/web/table_page.py, the static page in
controller/web/static) with the real board under it: the checkers drawn where the sensors
last read them (they are moved by hand on the board, so a checker dragged on the page is
refused in one line, `BY_HAND`), and the page's buttons pressed as the physical ones are
(`Table.on_button`); everything else the player does there is the table's own event or job,
exactly as on the simulator's page: an action of the list (`white double`), the language,
the tutor, the Hint, real dice keyed in, the verifiable dice's phrases and reveal, the New
match dialog (`MatchChosen`), the review and its practice, online play and watching. A
refusal is the page's one line, in the table's language.

Pairing: the page always needs its token (`PlayerServer`: off loopback too, and on
loopback, since the Pi's own browser is not the only one there), given once in the
address the owner scans and then kept in a cookie; `rotate()` revokes every link and
cookie given so far and closes the tabs open now; the menu shows the link as a QR code
on the display and revokes it (controller/web/page_links.py). The spectators' page has a token
of its own and acts on nothing (controller/web/spectators.py).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from aiohttp import web

from controller.board.profile import Profile
from controller.engine.board_view import CELLS, cell_counts
from controller.engine.match import Match
from controller.inputs.buttons import BUTTON_KEYS
from controller.inputs.press import ButtonPressed
from controller.json_value import JsonObject
from controller.online.door import OnlineDoor
from controller.play.status import TableStatus
from controller.table import Table
from controller.web.dialog import TableDialog
from controller.web.page_actions import PHYSICAL, Handler
from controller.web.page_links import close_tabs, offer_link, page_token
from controller.web.protocol import Answer, Notice, PageKind
from controller.web.server import SimServer
from controller.web.spectators import last_move, serve_beside
from controller.web.table_page import TablePage

BY_HAND = Notice("by_hand", "the checkers are moved by hand on the board; the page presses buttons only")


def board_page(table: Table, profile: Profile, door: OnlineDoor | None = None) -> TablePage:
    """The player's page of the real `table` (see the module docstring); `door` is the
    table's way into online play (None: not offered here)."""
    return TablePage(table, board=RealBoard(table), buttons=TableButtons(table), dialog=TableDialog(table),
                     leds=profile.leds, door=door)


class RealBoard:
    """The real board under the page (a `PageBoard`): the checkers are where the sensors
    last read them, and only a person's hands move them."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self.hand: list[dict[str, str]] = []  # the page holds no checker

    def actions(self) -> Mapping[PageKind, Handler]:
        return dict.fromkeys(PHYSICAL, lambda a: BY_HAND)  # on the real board the hand does it

    def cells(self) -> dict[str, list[int]]:
        return _cells(self._table.controller.status())

    def helpers(self) -> list[str]:
        return []

    def hand_back(self) -> None:
        pass

    def match_chosen(self, match: Match) -> None:
        pass  # the person sets the board up, as the `setup` lights show

    def plugged(self) -> bool:
        return True

    def shown(self, view: JsonObject) -> JsonObject:
        """The phone's page is the board's own (no sensors, no faults to show)."""
        return {"spectator": False, "board_page": True, "last_move": last_move(view["moves"]),
                "debug": {"online": self._table.controller.status().online}}


class TableButtons:
    """The page's buttons as the physical ones (a `PageButtons`): `Table.on_button`."""

    def __init__(self, table: Table) -> None:
        self._table = table

    async def press(self, name: str) -> Answer:
        if name in ("menu", "menu_hold"):
            self._table.on_button(ButtonPressed(None, "menu", self._table.clock(), held=name == "menu_hold"))
            return None
        if name not in BUTTON_KEYS:
            return f"ignored an unknown button {name[:20]!r}"
        side, kind = BUTTON_KEYS[name]
        self._table.on_button(ButtonPressed(side, kind, self._table.clock()))
        return None


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
               on_url: Callable[[str], None], door: OnlineDoor | None = None,
               more: Callable[[PlayerServer], object] | None = None) -> PlayerServer:
    """`bgboard run --page PORT`: the player's page of `table` on `host:port` (with the
    table's online `door`), served for as long as the loop runs, its link offered by the
    menu (controller/web/page_links.py); the server is returned for `rotate()`. `more`
    adds routes of its own before the server starts (the club's door: club_door.py)."""
    server = PlayerServer(board_page(table, profile, door))
    if more is not None:
        more(server)
    serve_beside(server, host, port, offer_link(table, "phone", server, host, on_url))
    return server


def print_pairing(url: str) -> None:
    """The pairing address and its QR code on standard output (the journal on the Pi), to
    scan with the phone's camera."""
    import segno

    print(f"page: {url}", flush=True)
    segno.make(url, error="m").terminal(compact=True)

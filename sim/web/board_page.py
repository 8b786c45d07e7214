"""The board's own page for the player's phone: `bgboard run --page PORT`.

The simulator's page (one page implementation, sim/static) served from the real table:
the checkers drawn where the sensors last read them (they are moved by hand on the board,
so a checker dragged on the page is refused in one line), the display, LEDs, dice, cube,
score, clock, pips and move list as the spectators see them, and the buttons: a button
pressed on the page goes through `Table.on_button`, the path of the physical button, and
an action of the list (`white double`, a menu's action) is the controller's
`ActionRequested`, as in the simulator; the language, real dice keyed in and the
verifiable dice's phrases and reveal are the table's own events too, and a refusal is the
page's one line. The New match dialog, the review and practice, hints, tutor settings and
online play are not the phone's yet (`NOT_YET`: the board's menu has them).

Pairing: the page always needs its token (`PlayerServer`: off loopback too, and on
loopback, since the Pi's own browser is not the only one there), given once in the
address the owner scans and then kept in a cookie; `rotate()` revokes every link and
cookie given so far and closes the tabs open now; the menu shows the link as a QR code
on the display and revokes it (sim/web/page_links.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aiohttp import web

from controller.board.profile import Profile
from controller.engine.board_view import CELLS
from controller.events import Event, LanguageChosen, Refused
from controller.inputs.buttons import BUTTON_KEYS, ButtonHeld, ButtonPressed
from controller.table import Table
from sim.web.protocol import Notice, PageAction
from sim.web.refusals import refusal_notice
from sim.web.dice_panel import dice_panel
from sim.web.page_actions import PHYSICAL
from sim.web.page_links import close_tabs, offer_link, page_token
from sim.web.server import SimServer
from sim.web.record import table_record
from sim.web.table_commands import command_event, dice_action_event
from sim.web.table_view import display_png
from sim.web.spectators import SpectatorView, led_facts, on_table_scene, serve_beside

BY_HAND = Notice("by_hand", "the checkers are moved by hand on the board; the page presses buttons only")
NOT_YET = Notice("board_page", "the board's page does not do that yet: use the board's menu")
#: the verifiable and entered dice's messages (sim/web/dice_panel.py), as the simulator's page sends them
DICE_KINDS = frozenset(["dice", "phrase", "reveal"])


class BoardPage(SpectatorView):
    """The player's page of the real table (see the module docstring)."""

    def __init__(self, table: Table, profile: Profile) -> None:
        super().__init__(lambda: table, lambda: table_record(table), on_table_scene(table), **led_facts(profile))
        self.table = table

    def snapshot(self) -> dict[str, Any]:
        shown = super().snapshot()
        status = self.table.controller.status()
        reading = status.reading
        board = {c: list(reading.count(c)) for c in CELLS} if reading is not None else shown["board"]
        dice = self.table.controller.dice
        return {**shown, "spectator": False, "board": board,
                "dice_panel": dice_panel(status, dice.mode, dice.secret),
                "actions": [a.command for a in status.actions],
                "possible": [{"side": a.side, "action": a.action, "level": a.level, "button": a.button}
                             for a in status.actions]}

    def display_png(self) -> bytes:
        """The display's frame as it is, a link's QR code too: the owner's phone may show
        the spectators' link to the people around the table."""
        return display_png(self.table)

    async def act(self, action: PageAction) -> str | Notice | None:
        if action.kind == "button":
            name = action.name or ""
            if name in ("menu", "menu_hold"):
                self.table.on_button(ButtonHeld(None, "menu") if name == "menu_hold" else ButtonPressed(None, "menu"))
                return None
            if name not in BUTTON_KEYS:
                return f"ignored an unknown button {name[:20]!r}"
            side, kind = BUTTON_KEYS[name]
            self.table.on_button(ButtonPressed(side, kind))
            return None
        if action.kind == "command":
            event = command_event(action.name or "", self.table.clock())
            return "ignored a command: say '<white|black> <action>'" if event is None else self._dispatch(event)
        if action.kind == "language":
            return self._dispatch(LanguageChosen(action.name or "", self.table.clock()))
        if action.kind in DICE_KINDS:
            return self._dispatch(dice_action_event(self.table.controller.status().match, action, self.table.clock()))
        return BY_HAND if action.kind in PHYSICAL else NOT_YET  # on the real board the hand does it

    def _dispatch(self, event: Event) -> Notice | None:
        """Hand `event` to the table; a refusal is the page's one line, in the table's language."""
        refused = [e for e in self.table.dispatch(event) if isinstance(e, Refused)]
        return refusal_notice(refused[-1], self.table.controller.config.language) if refused else None


class PlayerServer(SimServer):
    """The simulator's server with the pairing token required everywhere (see the module
    docstring)."""

    async def start(self, host: str, port: int) -> web.AppRunner:
        runner = await super().start(host, port)
        assert self.guard is not None
        self.guard = replace(self.guard, token=page_token())
        return runner

    def rotate(self) -> None:
        """A new token: every paired phone must scan again, and the pages open now close."""
        if self.guard is not None:
            self.guard = replace(self.guard, token=page_token())
        close_tabs(self._sockets)


def pair_table(table: Table, profile: Profile, host: str, port: int,
               on_url: Callable[[str], None]) -> PlayerServer:
    """`bgboard run --page PORT`: the player's page of `table` on `host:port`, served for
    as long as the loop runs, its link offered by the menu (sim/web/page_links.py); the
    server is returned for `rotate()`."""
    server = PlayerServer(BoardPage(table, profile))
    serve_beside(server, host, port, offer_link(table, "phone", server, host, on_url))
    return server


def print_pairing(url: str) -> None:
    """The pairing address and its QR code on standard output (the journal on the Pi), to
    scan with the phone's camera."""
    import segno

    print(f"page: {url}", flush=True)
    segno.make(url, error="m").terminal(compact=True)

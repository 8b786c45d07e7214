"""The spectators' page: the live match at a table, read-only, for anyone with its link.

An over-the-board match is followed from other phones: the simulator's own page (one page
implementation, controller/web/static) is served on a port of its own, from `SpectatorView`, a
`PageBackend` that reads the table and acts on nothing. Both front ends serve it the same
way: `bgboard sim --spectators PORT` on the simulator's table, `bgboard run --spectators
PORT` (or `spectator_port` in config.toml) on the board's; off unless asked for.

What a spectator sees is the match, not the sensors: the position the match stands at,
the last move, the score, cube, clock, pips, dice, move list, the display's frame and
lights, and the live record (`/match.mat` at any moment). What it cannot do is anything:
the snapshot offers no action and every message a tab sends is answered with one line
(`SPECTATING`) and dispatched nowhere. The table's settings, the debug figures, the hint
and online play's passwords are never in a spectator's snapshot (it is built field by
field, not trimmed from the player's).

`SpectatorServer` is the simulator's server with three differences: a token always (its
own, never the player's: a spectator's link gives no way to play), kept in a cookie of its
own name; at most `max_clients` tabs at once; and each tab gets at most `per_s` snapshots
a second (the latest one when its turn comes), so a crowd of phones on a slow network
costs the Pi a bounded amount of work whatever the table does.
"""
from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TypedDict

from aiohttp import web

from controller.board.profile import Profile
from controller.board.profile_sections import RoleLight
from controller.engine.board_view import CELLS, cell_counts
from controller.json_value import JsonObject
from controller.show.display import render_image, text_lines
from controller.show.display_backends import frame_png
from controller.show.texts import render
from controller.table import Table
from controller.web.table_json import match_view
from controller.web.backend import NoRecord
from controller.web.page_links import close_tabs, offer_link, page_token
from controller.web.page_facts import led_view, page_facts
from controller.web.protocol import BadMessage, Notice, PageAction, parse_message
from controller.web.review_page import ReviewPanel
from controller.web.server import SimServer, _send
from controller.web.record import player_names, table_record
from controller.web.subscribers import Subscribers
from controller.web.table_view import display_version

SPECTATOR_COOKIE = "bgboard_spectator"
SPECTATING = Notice("spectating", "a spectator's page only watches: nothing was done")
MAX_CLIENTS = 32
SNAPSHOTS_PER_S = 4.0
log = logging.getLogger("bgboard")
#: online play as a page draws it where there is none to show
NO_ONLINE_PLAY: Mapping[str, object] = {
    "state": "off", "line": "", "failed": False, "server": "", "match": None, "me": "", "opponent": "",
    "match_password": "", "chat": [], "user": "", "default_server": "", "saved": "", "spectator": False}


def last_move(moves: object) -> str:
    """The last move of the game's move list (`page_facts`' "moves") as it is written
    ("52: 13/8 13/11"), or ''."""
    for entry in reversed(moves if isinstance(moves, list) else []):
        if isinstance(entry, dict) and entry.get("kind") == "move":
            return f"{entry['dice']}: {entry['notation']}".strip(": ")
    return ""


def spectator_snapshot(table: Table, roles: Mapping[str, RoleLight], led_counts: Mapping[str, int],
                       version: str) -> JsonObject:
    """What a spectator's tab draws of `table` (see the module docstring), field by field."""
    status = table.controller.status()
    m = status.match
    scene = status.scene
    position, mover = m.board()
    counts = cell_counts(position, mover)
    language = status.language
    prompt = scene.display.prompt
    facts = page_facts(status, language)
    return {
        "spectator": True,
        "board": {c: list(counts.get(c, (0, 0))) for c in CELLS}, "hand": [],
        "leds": led_view(scene.leds, roles), "led_counts": dict(led_counts),
        "display": {"version": version, "lines": text_lines(scene.display)},
        "prompt": render(prompt.key, dict(prompt.params), language) if prompt else "",
        "match": {**match_view(m), "cube_enabled": m.cube_enabled, "crawford": m.crawford},
        "last_move": last_move(facts["moves"]),
        "names": dict(zip(("white", "black"), player_names(m))),
        "actions": [], "possible": [], "helpers": [], "hint": None, "chat": [],
        "online_play": dict(NO_ONLINE_PLAY),
        "settings": {"language": language}, "review": None, "debug": {"online": status.online},
        **facts, "dice_panel": None,
    }


class SpectatorView:
    """The `PageBackend` of the spectators' page: reads `table()` (the table at the moment:
    the simulator opens a new one for a new match), acts on nothing."""

    def __init__(self, table: Callable[[], Table | None], record: Callable[[], str],
                 subscribe: Callable[[Callable[[], None]], object], *, roles: Mapping[str, RoleLight],
                 led_counts: Mapping[str, int]) -> None:
        self._table = table
        self._record = record
        self._roles = roles
        self._led_counts = led_counts
        self._tabs = Subscribers()
        subscribe(self._changed)

    def _changed(self, *_: object) -> None:
        self._tabs.changed()

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._tabs.add(callback)

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return lambda: None  # the table's refusals are the player's, not the spectators'

    def snapshot(self) -> JsonObject:
        table = self._table()
        if table is None:
            return {"spectator": True, "board": {c: [0, 0] for c in CELLS}, "hand": [], "actions": []}
        return spectator_snapshot(table, self._roles, self._led_counts, display_version(table, id(table) % 100000))

    def display_png(self) -> bytes:
        table = self._table()
        if table is None or table.display is None:
            return b""
        content = table.controller.status().scene.display
        if content.pairing is not None:  # a page's link is for the owner's eyes: the match's screen
            return frame_png(render_image(replace(content, pairing=None)))
        png: bytes = table.display.frame_png()
        return png

    def match_record(self) -> str:
        if self._table() is None:
            raise NoRecord("no match at the table yet")
        return self._record()

    def review_json(self) -> JsonObject:
        return ReviewPanel().document(None)

    async def act(self, action: PageAction) -> str | Notice | None:
        return SPECTATING


class LedFacts(TypedDict):
    """The profile's LED roles and each cell's count of LEDs: what a spectator's page lights."""

    roles: Mapping[str, RoleLight]
    led_counts: Mapping[str, int]


def led_facts(profile: Profile) -> LedFacts:
    """The profile's LED roles and counts per cell, as `SpectatorView` draws them."""
    return {"roles": profile.leds.roles, "led_counts": {c: len(ix) for c, ix in profile.leds.cells.items()}}


def on_table_scene(table: Table) -> Callable[[Callable[[], None]], object]:
    """`subscribe` for a view of `table`: called after every scene the table shows."""
    return lambda changed: table.on_scene(lambda scene: changed())


def table_view(table: Table, profile: Profile) -> SpectatorView:
    """The spectators' view of one table that lives as long as the front end (`bgboard run`)."""
    return SpectatorView(lambda: table, lambda: table_record(table), on_table_scene(table), **led_facts(profile))


class SpectatorServer(SimServer):
    """The simulator's server for spectators (see the module docstring)."""

    def __init__(self, backend: SpectatorView, *, max_clients: int = MAX_CLIENTS,
                 per_s: float = SNAPSHOTS_PER_S, serves: str = "simulator") -> None:
        super().__init__(backend)
        self.serves = serves  # what its refusals call it: the simulator, or the board (Guard.serves)
        self.max_clients = max_clients
        self.interval = 1.0 / per_s
        self._payload: str | None = None
        self._sent_at: weakref.WeakKeyDictionary[web.WebSocketResponse, float] = weakref.WeakKeyDictionary()
        self._sent: weakref.WeakKeyDictionary[web.WebSocketResponse, str] = weakref.WeakKeyDictionary()
        self._waiting: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()

    async def start(self, host: str, port: int) -> web.AppRunner:
        """Listen like the simulator, with a token of the spectators' own, always."""
        runner = await super().start(host, port)
        assert self.guard is not None
        self.guard = replace(self.guard, token=page_token(), cookie=SPECTATOR_COOKIE, serves=self.serves)
        return runner

    def rotate(self) -> None:
        """A new token: every link and cookie given so far opens nothing any more, and the
        pages open now close."""
        if self.guard is not None:
            self.guard = self.guard.rotated(page_token())
        close_tabs(self._sockets)

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        if len(self._sockets) >= self.max_clients:
            raise web.HTTPServiceUnavailable(
                text=f"refused: {self.max_clients} spectators are watching already\n")
        return await super()._websocket(request)

    async def _handle(self, ws: web.WebSocketResponse, text: str) -> None:
        """Every message is refused in one line; none reaches the table."""
        try:
            parse_message(text)
        except BadMessage as exc:
            await self._notice(ws, str(exc))
            return
        await self._notice(ws, SPECTATING)

    def _changed(self) -> None:
        self._payload = None
        super()._changed()

    def _push(self) -> None:
        """Each tab gets the latest snapshot at most `per_s` times a second."""
        self._push_pending = False
        loop = asyncio.get_running_loop()
        now = loop.time()
        for ws in list(self._sockets):
            if ws.closed or ws in self._waiting:
                continue
            due = self._sent_at.get(ws, float("-inf")) + self.interval
            if now >= due:
                self._send_latest(ws)
            else:
                self._waiting.add(ws)
                loop.call_later(due - now, self._send_latest, ws)

    def _send_latest(self, ws: web.WebSocketResponse) -> None:
        self._waiting.discard(ws)
        if ws.closed:
            return
        if self._payload is None:
            self._payload = json.dumps({"type": "state", **self.backend.snapshot()})
        if self._sent.get(ws) == self._payload:
            return  # nothing new for this tab
        self._sent_at[ws] = asyncio.get_running_loop().time()
        self._sent[ws] = self._payload
        asyncio.ensure_future(_send(ws, self._payload))


async def serve_spectators(view: SpectatorView, host: str, port: int) -> tuple[web.AppRunner, SpectatorServer]:
    """Start the spectators' server on `host:port`; OSError when it cannot listen."""
    server = SpectatorServer(view)
    runner = await server.start(host, port)
    return runner, server


def spectate_table(table: Table, profile: Profile, host: str, port: int,
                   on_url: Callable[[str], None] = lambda url: print(f"spectators: {url}", flush=True),
                   ) -> asyncio.Task[None]:
    """`bgboard run`'s spectators' page of `table` on `host:port` (see `serve_beside`),
    its link offered by the menu (controller/web/page_links.py)."""
    server = SpectatorServer(table_view(table, profile), serves="board")
    return serve_beside(server, host, port, offer_link(table, "spectators", server, host, on_url))


def serve_beside(server: SimServer, host: str, port: int, on_url: Callable[[str], None]) -> asyncio.Task[None]:
    """Serve `server` on `host:port` for as long as the loop runs (the task is cancelled
    when the table stops); a port that cannot be had is one warning, and the board plays
    on without the page."""
    async def serve() -> None:
        try:
            runner = await server.start(host, port)
        except OSError as exc:
            log.warning("no page on %s:%d: %s", host, port, exc.strerror)
            return
        assert server.guard is not None
        on_url(server.guard.url())
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    task = asyncio.ensure_future(serve())
    _SERVING.add(task)  # the loop keeps only a weak reference: an unreferenced task would be collected
    task.add_done_callback(_SERVING.discard)
    return task


_SERVING: set[asyncio.Task[None]] = set()

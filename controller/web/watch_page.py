"""A server match watched, as the simulator's page shows it, whoever watches it.

Two front ends watch through the same `controller.online.watch.Spectator`: `bgboard
online --watch ID|USER --sim` serves `WatchPage` (a `PageBackend` of its own, served by
`controller.web.server.SimServer` behind the same Origin/Host guard), and in `bgboard sim` the
table's door watches (the board's menu "Watch online" or the New match dialog's "watch a
match", controller/online/door.py) while `LiveSim.snapshot` lays `watched_view` over the
table's. Either way the page draws the same: the checkers where the server's position has
them (no virtual board: nothing here is read from sensors), the dice, cube, score, players
and move list of `WatchedMatch.match()`, the display's image of `WatchedMatch.scene`
("Watching A - B"), its LEDs (the last move's `last-from`/`last-to`) and the match's chat.
It is read-only: no action is offered (`possible`, `actions`, `helpers` empty) and a page
action that would play is refused with one line (`READ_ONLY`); leaving ends the spectator
(its connection closes: a spectator has no seat to give up).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from controller.board.profile import Profile, load_profile
from controller.engine.board_view import CELLS, cell_counts
from controller.engine.match import Match
from controller.json_value import JsonObject
from controller.online.client import OnlineError
from controller.online.door_view import CHAT_SHOWN, DoorState
from controller.online.watch import Spectator, WatchedMatch
from controller.play.status import TableStatus
from controller.show.content import Scene
from controller.show.display import text_lines
from controller.show.display_backends import Display
from controller.show.texts import render
from controller.web.table_json import match_view
from controller.web.backend import NoRecord
from controller.web.subscribers import Subscribers
from controller.web.dice_panel import dice_panel
from controller.web.page_facts import led_view, page_facts
from controller.web.protocol import Notice, PageAction
from controller.web.review_page import ReviewPanel

READ_ONLY = Notice("watching_only", "watching a match online: this page plays nothing (Leave ends watching)")


def watched_status(m: Match) -> TableStatus:
    """The status of a table that only shows `m`: the board as the match says, nothing possible."""
    return TableStatus(match=m, mover=m.turn, online=True, setting_up=False, settling=False, reading=None,
                       reading_since=0.0, board=None, verdict=None, board_ready=True, carried_out=None,
                       roll_due=None, clock_running=False, entering_dice=False, actions=())


def watched_view(watched: WatchedMatch) -> JsonObject:
    """The snapshot's fields of a watched match (see the module docstring): its checkers,
    match, dice, cube, players, move list and chat, and nothing to do."""
    m = watched.match()
    status = watched_status(m)
    position, mover = m.board()
    counts = cell_counts(position, mover)
    return {"board": {c: list(counts.get(c, (0, 0))) for c in CELLS}, "hand": [],
            "actions": [], "possible": [], "helpers": [], "hint": None, "chat": watched.chat[-CHAT_SHOWN:],
            "match": {**match_view(m), "cube_enabled": m.cube_enabled, "crawford": m.crawford},
            **page_facts(status, watched.language),
            "dice_panel": dice_panel(status, "server", None)}


class WatchPage:
    """The `PageBackend` of a watched match (see the module docstring)."""

    def __init__(self, spectator: Spectator, *, profile: Profile | None = None) -> None:
        self.spectator = spectator
        self.profile = profile or load_profile()
        self.display = Display.open(self.profile.display, "dummy")
        self.scene: Scene | None = None
        self.line = ""
        self.left = False
        self._tabs = Subscribers()
        told_scene, told_line = spectator.show, spectator.on_line

        def show(scene: Scene) -> None:
            told_scene(scene)
            self._shown(scene)

        def on_line(line: str) -> None:
            told_line(line)
            self._line(line)

        spectator.show, spectator.on_line = show, on_line
        self._task: asyncio.Task[object] | None = None

    # -- following the spectator ----------------------------------------------------------
    def _shown(self, scene: Scene) -> None:
        self.scene = scene
        self.display.show(scene.display)
        self._changed()

    def _line(self, line: str) -> None:
        self.line = line
        self._changed()

    async def run(self, seconds: float | None = None) -> None:
        """Watch until the match is over, `seconds` pass, or the page's Leave."""
        self._task = asyncio.ensure_future(self.spectator.run(seconds))
        try:
            await self._task
        except asyncio.CancelledError:
            if not self.left:
                raise
        finally:
            self.display.close()

    # -- PageBackend -------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self._tabs.add(callback)

    def on_notice(self, callback: Callable[[Notice], None]) -> Callable[[], None]:
        return lambda: None  # a watched match refuses nothing: the server plays it

    def _changed(self) -> None:
        self._tabs.changed()

    def display_png(self) -> bytes:
        png: bytes = self.display.frame_png()
        return png

    def match_record(self) -> str:
        raise NoRecord("a watched match has no record here (the server keeps it)")

    def review_json(self) -> JsonObject:
        return ReviewPanel().document(None)

    async def act(self, action: PageAction) -> str | Notice | None:
        """Only Leave: every other action is refused with one line, nothing sent."""
        if action.kind != "online_leave":
            return READ_ONLY
        if self._task is None or self._task.done():
            return Notice("online_off", "not watching")
        self.left = True
        self.line = "stopped watching"
        self._task.cancel()
        self._changed()
        return None

    def snapshot(self) -> JsonObject:
        watched = self.spectator.watched
        state: DoorState = "off" if self.left else "watching" if watched is not None and not watched.over \
            else "over" if watched is not None else "connecting"
        chat = watched.chat[-CHAT_SHOWN:] if watched is not None else []
        online = {"state": state, "line": self.line, "failed": False, "server": str(self.spectator.address),
                  "match": self.spectator.game_id, "me": watched.name(1) if watched else "",
                  "opponent": watched.name(2) if watched else "", "match_password": "", "chat": chat,
                  "user": "", "default_server": "", "saved": "", "spectator": True}
        base: JsonObject = {"board": {c: [0, 0] for c in CELLS}, "hand": [], "leds": {},
                                "led_counts": {c: len(ix) for c, ix in self.profile.leds.cells.items()},
                                "display": {"version": str(self.display.frames_written), "lines": []},
                                "prompt": "", "actions": [], "possible": [], "helpers": [], "hint": None,
                                "chat": chat, "online_play": online, "settings": {}, "review": None,
                                "debug": {"online": True}}
        if watched is None or self.scene is None:
            return {**base, "match": {}, "dice_view": [], "cube_view": None, "clock": None, "moves": [],
                    "players": {}, "bot_move": [], "winner": None, "announcement": [], "dice_panel": None}
        prompt = self.scene.display.prompt
        return {**base, **watched_view(watched),
                "leds": led_view(self.scene.leds, self.profile.leds.roles),
                "display": {"version": str(self.display.frames_written), "lines": text_lines(self.scene.display)},
                "prompt": render(prompt.key, dict(prompt.params), watched.language) if prompt else ""}


async def watch_on_page(spectator: Spectator, host: str, port: int, *, seconds: float | None = None,
                        on_url: Callable[[str], None] | None = None) -> None:
    """Serve the watched match's page on `host:port` (the simulator's server and guard)
    while the spectator watches; OnlineError when the page cannot be served."""
    from controller.web.server import SimServer

    page = WatchPage(spectator)
    server = SimServer(page)
    try:
        runner = await server.start(host, port)
    except OSError as exc:
        raise OnlineError(f"cannot serve the page on {host}:{port}: {exc.strerror}") from None
    assert server.guard is not None
    (on_url or (lambda url: None))(server.guard.url())
    try:
        await page.run(seconds)
    finally:
        await runner.cleanup()

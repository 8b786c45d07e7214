"""The way in and out of online play at one running table.

The page's New match dialog ("Online (bgammon.org)") and the board's menu ("Play online",
a match from the settings) both come here; `bgboard online` seats its remote player the
same way (`OnlineSeat`). One online match at a time: `start(choice)` connects in the
background and returns at once; the table stays as it is until the server has seated us
(then the local match is saved and set aside, see controller/online/seat.py), and comes
back when the player leaves, the connection cannot be had, or the server stops the match.

What happens is kept as a state (`off`, `connecting`, `waiting` for an opponent, `playing`,
`rejoining` after a dropped connection, `over`) and one line (the last news, or the one
clear line of an error: an unreachable server, a refused log-in, a full or unknown match,
a malformed line). The display shows the same through the controller's banner.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypedDict

from controller.errors import BgboardError
from controller.online.choice import OnlineChoice, from_settings
from controller.online.seat import OnlineSeat
from controller.online.session import STATE_FILE, OnlineSession, SavedOnline
from controller.settings import Settings
from controller.show.content import Prompt
from controller.table.table import Table

log = logging.getLogger("bgboard.online")
#: how long the display shows why online play could not start
FAILED_SHOWN_S = 8.0
CHAT_SHOWN = 8


def open_session(choice: OnlineChoice, state_dir: Path | None) -> OnlineSession:
    """The session a choice asks for (its saved state in `state_dir`)."""
    return OnlineSession(choice.server, name=choice.user, password=choice.password,
                         request=choice.request, state_dir=state_dir)


class OnlineView(TypedDict):
    """What the page shows of online play (`LiveSim.snapshot()["online_play"]`)."""

    state: str
    line: str
    failed: bool
    server: str
    match: int
    me: str
    opponent: str
    match_password: str
    chat: list[str]
    user: str
    default_server: str
    saved: str  # "server match" a restart interrupted (the dialog offers to resume it), or ""


class OnlineDoor:
    """Online play at one table (see the module docstring)."""

    def __init__(self, table: Table, *, settings: Callable[[], Settings], online_dir: Path | None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.table = table
        self._settings = settings
        self.online_dir = online_dir
        self.on_change = on_change or (lambda: None)
        self.seat: OnlineSeat | None = None
        self.choice: OnlineChoice | None = None
        self.line = ""
        self.failed = False
        self._task: asyncio.Task[None] | None = None
        self._clear: asyncio.TimerHandle | None = None
        self._saved_text = ""
        self._look_for_saved()  # read once here and after each online match, not per snapshot
        try:
            self._known: Settings | None = settings()
        except BgboardError as exc:
            self._known = None
            self.line = str(exc)

    # -- in and out ---------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, choice: OnlineChoice) -> None:
        """Connect and play `choice` in the background; BgboardError if already online."""
        if self.busy or self.table.controller.playing_online:
            raise BgboardError("already playing online: leave first")
        self.choice = choice
        self._task = asyncio.get_running_loop().create_task(self._run(choice))

    def attend(self, seat: OnlineSeat) -> None:
        """Show a seat `bgboard online --sim` placed at this table (its state, news and
        chat on the page) and let the page's Leave end it."""
        told = seat.on_line

        def both(line: str) -> None:
            told(line)
            self._say(line)

        seat.on_line = both
        self.seat = seat
        self.on_change()

    def start_from_settings(self) -> None:
        """The menu's "Play online": the match a restart interrupted on the settings' server,
        else the match the settings name; a bad setting is one line."""
        try:
            self._known = self._settings()
            choice = from_settings(self._known)
            saved = self.saved()
            if saved is not None and saved.server == str(choice.server):
                choice = replace(choice, request=None)
            self.start(choice)
        except BgboardError as exc:
            self.fail(str(exc))

    def saved(self) -> SavedOnline | None:
        """The server match a restart interrupted here (its online.json), if any."""
        return None if self.online_dir is None else SavedOnline.load(self.online_dir / STATE_FILE)

    def requested(self, what: str) -> None:
        """The menu's item (`play` or `leave`)."""
        if what == "play":
            self.start_from_settings()
        else:
            self.leave()

    def leave(self) -> bool:
        """Leave online play (while connecting: give up connecting); False when not online."""
        if self.seat is not None:
            self.seat.leave()
            return True
        if self.busy:
            assert self._task is not None
            self._task.cancel()
            return True
        return False

    async def say(self, message: str) -> None:
        """The page's chat line, sent to the opponent through the seat; BgboardError (one
        line, nothing sent) while not in an online match or for a bad line."""
        if self.seat is None or self.state not in ("waiting", "playing", "over"):
            raise BgboardError("not playing online: no chat line sent")
        if not await self.seat.say(message):
            raise BgboardError("the connection is down: the chat line was not sent")

    async def aclose(self) -> None:
        """The table closes: stop online play without leaving (the server keeps the match;
        after a restart "play online", the dialog's "resume" or `bgboard online` rejoins it)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._clear is not None:
            self._clear.cancel()

    async def _run(self, choice: OnlineChoice) -> None:
        self.failed = False
        self._say(f"connecting to {choice.server} ({choice.what})")
        self._banner(Prompt.of("online_connecting", text=str(choice.server)))
        seat = OnlineSeat(open_session(choice, self.online_dir), online_dir=self.online_dir,
                          on_line=self._say, on_change=self.on_change)
        try:
            try:
                await seat.join(self.table)
            except asyncio.CancelledError:
                self._banner(None)
                self._say("stopped connecting")
                raise
            except BgboardError as exc:  # OnlineError, ProtocolError, a refused command
                await seat.session.close()
                self.fail(str(exc))
                return
            self.seat = seat
            try:
                result = await seat.play(until_over=False)
            except BgboardError as exc:
                self.fail(f"{exc}; the local match is back")
                return
            self._say("left online play; the local match is back" if result.left else "online play ended")
        finally:
            self.seat = None
            self._look_for_saved()
            self.on_change()

    # -- what is shown ------------------------------------------------------------------
    @property
    def state(self) -> str:
        seat = self.seat
        if seat is None:
            return "connecting" if self.busy else "off"
        if seat.rejoining:
            return "rejoining"
        if seat.waiting:
            return "waiting"
        return "over" if seat.over else "playing"

    def view(self) -> OnlineView:
        seat = self.seat
        session = seat.session if seat is not None else None
        request = session.request if session is not None else None
        private = request is not None and request.create == "private" and request.password or ""
        opponent = seat.opponent.opponent if seat is not None and seat.opponent is not None else ""
        known = self._known
        return {"state": self.state, "line": self.line, "failed": self.failed,
                "server": str(session.address) if session is not None else
                str(self.choice.server) if self.choice is not None else "",
                "match": session.game_id if session is not None else 0,
                "me": (session.name or "") if session is not None else "",
                "opponent": opponent or "", "match_password": private,
                "chat": seat.chat[-CHAT_SHOWN:] if seat is not None else [],
                "user": (known.online_user or "") if known is not None else "",
                "default_server": known.online_server if known is not None else "",
                "saved": "" if self.busy else self._saved_text}

    def _look_for_saved(self) -> None:
        saved = self.saved()
        self._saved_text = "" if saved is None else f"{saved.server} {saved.game_id}"

    def _say(self, line: str) -> None:
        self.line = line
        log.info("online: %s", line)
        self.on_change()

    def fail(self, reason: str) -> None:
        """Say why online play could not start or went on no longer (page, log, display)."""
        self.failed = True
        self._say(reason)
        self._banner(Prompt.of("online_failed", text=reason[:60]))
        loop = asyncio.get_running_loop()
        if self._clear is not None:
            self._clear.cancel()
        self._clear = loop.call_later(FAILED_SHOWN_S, self._banner, None)

    def _banner(self, prompt: Prompt | None) -> None:
        if self._clear is not None and prompt is not None:
            self._clear.cancel()
            self._clear = None
        self.table.show_banner(prompt)
        self.on_change()


def offer_online(table: Table, settings: Callable[[], Settings], online_dir: Path | None) -> OnlineDoor:
    """Give `table` its door (the menu then offers "Play online"): `bgboard run` on the Pi,
    where the settings name the server, the account and the match."""
    door = OnlineDoor(table, settings=settings, online_dir=online_dir)
    table.offer_online(door)
    return door

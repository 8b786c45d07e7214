"""The way in and out of online play at one running table.

The page's New match dialog ("Online (bgammon.org)") and the board's menu ("Play online",
a match from the settings) both come here; `bgboard online` seats its remote player the
same way (`OnlineSeat`). One online match at a time: `start(choice)` connects in the
background and returns at once; the table stays as it is until the server has seated us
(then the local match is saved and set aside, see controller/online/seat.py), and comes
back when the player leaves, the connection cannot be had, or the server stops the match.

The menu's "Watch online" (the settings' `online_watch`) watches a server match at the
table instead (`watch`): a `Spectator` (controller/online/watch.py) follows it, and once it
has joined, the table shows what it sees (`WatchShown`: "Watching A - B", the score, the
dice, the last move lit) while the local match waits saved and untouched; the board is not
used. "Leave watching", the end of the watched match or a lost match gives it back (that
swap is controller/online/watching.py's).

What happens is kept as a state (`DoorState`, door_view.py: `off`, `connecting`, `waiting` for an
opponent, `playing`, `rejoining` after a dropped connection, `over`, `watching`) and one
line (the last news, or the one clear line of an error: an unreachable server, a refused
log-in, a full or unknown match, a malformed line). The display shows the same through the
table's banner (both kept by controller/online/news.py).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from controller.errors import BgboardError
from controller.events import OnlineOffered
from controller.online.choice import OnlineChoice, from_settings, watch_from_settings
from controller.bgammon.address import ServerAddress
from controller.online.door_view import DoorState, OnlineView, door_state, online_view
from controller.online.news import DoorNews
from controller.online.seat import OnlineSeat
from controller.online.session import STATE_FILE, OnlineSession, SavedOnline
from controller.online.watch import Spectator
from controller.online.watching import WatchingTable
from controller.settings import Settings
from controller.show.content import Prompt
from controller.table.table import Seating, Table

log = logging.getLogger("bgboard.online")
#: bgammon ignores every command of a spectator but a few (`say` is not one of them: its
#: pkg/server/server_command.go answers "Command ignored: You are spectating this match."),
#: and relays no player's chat to spectators (relayChat, set only by embedded local servers)
SPECTATOR_SILENT = "watching: a spectator cannot chat on bgammon (no chat line sent)"


def open_session(choice: OnlineChoice, state_dir: Path | None) -> OnlineSession:
    """The session a choice asks for (its saved state in `state_dir`)."""
    return OnlineSession(choice.server, name=choice.user, password=choice.password,
                         request=choice.request, state_dir=state_dir)


class OnlineDoor:
    """Online play at one table (see the module docstring)."""

    def __init__(self, table: Table, *, settings: Callable[[], Settings], online_dir: Path | None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.table = table
        self._settings = settings
        self.online_dir = online_dir
        self.on_change = on_change or (lambda: None)
        self.seat: OnlineSeat | None = None
        self.news = DoorNews(lambda prompt: table.show_banner(prompt), lambda: self.on_change())
        self.watching = WatchingTable(table, self.news, lambda: self.on_change())
        self.choice: OnlineChoice | None = None
        self._task: asyncio.Task[None] | None = None
        self.saved_text = ""  # "server match" a restart interrupted here, or "" (the page's view)
        self._look_for_saved()  # read once here and after each online match, not per snapshot
        self.known_settings: Settings | None = None  # as last read well (the page's view shows them)
        try:
            self._read_settings()
        except BgboardError as exc:  # a bad setting: its one line, on the display too on a running table
            log.warning("online: %s", exc)
            if _loop_running():
                self.news.fail(str(exc))

    def _read_settings(self) -> Settings:
        """The settings now (BgboardError: their one line); the menu offers "Watch online"
        while they name a match to watch."""
        try:
            self.known_settings = self._settings()
        except BgboardError as exc:
            self.known_settings = None
            self.news.line = str(exc)
            raise
        finally:
            offered = self.known_settings is not None and self.known_settings.online_watch is not None
            if offered != self.table.controller.status().watch_offered:
                self.table.dispatch(OnlineOffered("watch", offered, self.table.clock()))
        return self.known_settings

    def read_settings(self) -> Settings:
        """The settings online play reads now (the page's online form reads them too);
        BgboardError: their one line."""
        return self._settings()

    @property
    def line(self) -> str:
        return self.news.line

    @property
    def failed(self) -> bool:
        return self.news.failed

    @property
    def spectator(self) -> Spectator | None:
        """A match watched at this table."""
        return self.watching.spectator

    @property
    def aside(self) -> Seating | None:
        """The local match (its dice and store) while a watched match has the table."""
        return self.watching.aside

    # -- in and out ---------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, choice: OnlineChoice) -> None:
        """Connect and play `choice` in the background; BgboardError if already online."""
        self._check_free()
        self.choice = choice
        self._task = asyncio.get_running_loop().create_task(self._run(choice))

    def watch(self, server: ServerAddress, target: str, password: str | None = None) -> None:
        """Watch match `target` (its number or a player's name) on `server` at this table,
        in the background; BgboardError if already online."""
        self._check_free()
        self.choice = None
        spectator = Spectator(server, target, password=password, language=self.table.controller.status().language,
                              on_line=self.news.say)
        self._task = asyncio.get_running_loop().create_task(self.watching.run(spectator))

    def _check_free(self) -> None:
        if self.busy or self.table.controller.status().playing_online:
            raise BgboardError("already playing online: leave first")

    def attend(self, seat: OnlineSeat) -> None:
        """Show a seat `bgboard online --sim` placed at this table (its state, news and
        chat on the page) and let the page's Leave end it."""
        told = seat.on_line

        def both(line: str) -> None:
            told(line)
            self.news.say(line)

        seat.on_line = both
        self.seat = seat
        self.on_change()

    def start_from_settings(self) -> None:
        """The menu's "Play online": the match a restart interrupted on the settings' server,
        else the match the settings name; a bad setting is one line."""
        try:
            choice = from_settings(self._read_settings())
            saved = self.saved()
            if saved is not None and saved.server == str(choice.server):
                choice = replace(choice, request=None)
            self.start(choice)
        except BgboardError as exc:
            self.news.fail(str(exc))

    def saved(self) -> SavedOnline | None:
        """The server match a restart interrupted here (its online.json), if any."""
        return None if self.online_dir is None else SavedOnline.load(self.online_dir / STATE_FILE)

    def watch_from_settings(self) -> None:
        """The menu's "Watch online": the settings' `online_watch` on their server; a bad
        setting is one line."""
        try:
            self.watch(*watch_from_settings(self._read_settings()))
        except BgboardError as exc:
            self.news.fail(str(exc))

    def requested(self, what: str) -> None:
        """The menu's item (`play`, `watch` or `leave`)."""
        if what == "play":
            self.start_from_settings()
        elif what == "watch":
            self.watch_from_settings()
        else:
            self.leave()

    def leave(self) -> bool:
        """Leave online play or watching (while connecting: give up connecting); False
        when not online."""
        if self.seat is not None:
            self.seat.leave()
            return True
        if self.spectator is not None and not self.spectator.rejoining:
            self.spectator.leave()  # it sends `leave`; the table is given back
            return True
        if self.busy:
            assert self._task is not None
            self._task.cancel()
            return True
        return False

    async def say(self, message: str) -> None:
        """The page's chat line, sent to the opponent through the seat; BgboardError (one
        line, nothing sent) while not in an online match or for a bad line."""
        if self.spectator is not None:
            raise BgboardError(SPECTATOR_SILENT)
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
        self.news.close()

    async def _run(self, choice: OnlineChoice) -> None:
        self.news.failed = False
        self.news.say(f"connecting to {choice.server} ({choice.what})")
        self.news.banner(Prompt.of("online_connecting", text=str(choice.server)))
        seat = OnlineSeat(open_session(choice, self.online_dir), online_dir=self.online_dir,
                          on_line=self.news.say, on_change=self.on_change)
        try:
            try:
                await seat.join(self.table)
            except asyncio.CancelledError:
                self.news.banner(None)
                self.news.say("stopped connecting")
                raise
            except BgboardError as exc:  # OnlineError, ProtocolError, a refused command
                await seat.session.close()
                self.news.fail(str(exc))
                return
            self.seat = seat
            try:
                result = await seat.play(until_over=False)
            except BgboardError as exc:
                self.news.fail(f"{exc}; the local match is back")
                return
            self.news.say("left online play; the local match is back" if result.left else "online play ended")
        finally:
            self.seat = None
            self._look_for_saved()
            self.on_change()

    # -- what is shown ------------------------------------------------------------------
    @property
    def state(self) -> DoorState:
        return door_state(self.seat, self.spectator, self.busy)

    def view(self) -> OnlineView:
        return online_view(self)

    def _look_for_saved(self) -> None:
        saved = self.saved()
        self.saved_text = "" if saved is None else f"{saved.server} {saved.game_id}"

    def fail(self, reason: str) -> None:
        """Say why online play could not start or went on no longer (page, log, display)."""
        self.news.fail(reason)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def offer_online(table: Table, settings: Callable[[], Settings], online_dir: Path | None) -> OnlineDoor:
    """Give `table` its door (the menu then offers "Play online"): `bgboard run` on the Pi,
    where the settings name the server, the account and the match."""
    door = OnlineDoor(table, settings=settings, online_dir=online_dir)
    table.offer_online(door)
    return door

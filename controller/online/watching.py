"""A server match watched at the table, the local match set aside meanwhile.

The menu's "Watch online" hands the table to a `Spectator` (controller/online/watch.py):
once it has joined, the table shows what it sees (`WatchShown`) while the local match
waits saved and untouched, and gets it back when watching ends. That swap is its own job,
apart from the door's connecting and showing: `WatchingTable` gets the table, the door's
news line (`DoorNews`) and the page's `on_change`, and keeps the spectator and the local
match set aside.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from controller.errors import BgboardError
from controller.events import WatchShown
from controller.online.news import DoorNews
from controller.dice.state import DiceState
from controller.online.watch import Spectator
from controller.records.store import TableStore
from controller.show.content import Prompt, Scene
from controller.table.table import Seating, Table

#: the display's line, under the watched match's, while a match is watched at the board
BOARD_IDLE = Prompt.of("watching_board_idle")


class WatchingTable:
    """The watched match at `table` (`spectator`) and the local one set aside (`aside`)."""

    def __init__(self, table: Table, news: DoorNews, on_change: Callable[[], None]) -> None:
        self.table = table
        self._news = news
        self._on_change = on_change
        self.spectator: Spectator | None = None
        #: the local match (its dice and store) while a watched match has the table: its record is still this one
        self.aside: Seating | None = None

    async def run(self, spectator: Spectator) -> None:
        """Connect `spectator`, show its match at the table until it ends, then give back."""
        news = self._news
        news.failed = False
        news.say(f"connecting to {spectator.address} (watch {spectator.target})")
        news.banner(Prompt.of("online_connecting", text=str(spectator.address)))
        try:
            await spectator.start()
        except asyncio.CancelledError:
            news.banner(None)
            news.say("stopped connecting")
            raise
        except (BgboardError, ConnectionError) as exc:  # OnlineError, ConnectionLost, ProtocolError
            news.fail(str(exc))
            return
        news.banner(None)
        local = self._set_aside(spectator)
        failed: str | None = None
        try:
            result = await spectator.follow()
        except (BgboardError, ConnectionError) as exc:  # a lost match, a malformed line
            failed = f"{exc}; the local match is back"
        finally:
            self._give_back(local)
        if failed is not None:
            news.fail(failed)
        elif result.over:
            news.notice(f"{result.lines[-1]}; the local match is back")

    def _set_aside(self, spectator: Spectator) -> Seating:
        """The watched match takes the table (saving nothing), the local match set aside
        saved; the table shows what the spectator sees from now on."""
        watched = spectator.watched
        assert watched is not None
        match = watched.match()
        dice = DiceState(mode="server").adopt(match)
        local = self.table.seat(Seating(match, dice, TableStore(None)), self.table.clock())
        self.spectator, self.aside = spectator, local
        spectator.show = self._show_watched
        self._show_watched(watched.scene())
        return local

    def _give_back(self, local: Seating) -> None:
        """The local match back as it was (a running clock restarted, as on a resume); the
        board is set up to it again."""
        self.spectator = self.aside = None
        now = self.table.clock()
        self.table.dispatch(WatchShown(None, now))
        self.table.seat(replace(local, match=local.match.resumed(now)), now)
        self._news.say("stopped watching; the local match is back")

    def _show_watched(self, scene: Scene) -> None:
        """The watched match's scene at the table, with the line that the board is not used."""
        shown = replace(scene, display=replace(scene.display, notes=(BOARD_IDLE,)))
        self.table.dispatch(WatchShown(shown, self.table.clock()))
        self._on_change()

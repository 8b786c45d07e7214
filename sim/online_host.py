"""`bgboard online --sim` and `--headless`: the simulator's table for one server match.

The table is the simulator's (`LiveSim`: the virtual board behind a real pseudo-terminal),
in the browser with `--sim` (its page served once the remote player is seated) or without
one; its own saved match lives in a temporary directory, since the command plays the
server's match. With `autoplay` the table's own player is a computer level whose hands
work the virtual board as the page's would (sim/online_hands.py), so two bgboards can
play a whole match on a server by themselves. It is a `TableHost`
(controller/online/play.py), which the command line gives to `play_online`.
"""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from aiohttp import web

from controller.board.profile import Profile
from controller.online.client import OnlineError
from controller.online.play import OnlinePlay
from controller.table import Table, make_bot
from controller.web.server import SimServer
from sim.online_hands import SimHands
from sim.page.live import LiveSim


class SimHost:
    """The simulator's table (see the module docstring); `page` is where its page is
    served, (host, port), if anywhere; `autoplay` the level whose hands play White."""

    def __init__(self, profile: Profile | None = None, *, language: str = "en", confirm: str = "auto",
                 autoplay: str | None = None, pause_s: float = 0.4, page: tuple[str, int] | None = None) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="bgboard-online-")
        base = Path(self._tmp.name)
        self.sim = LiveSim(profile=profile, state_dir=base, settings_file=base / "simulator.json")
        self.sim.saved.choices = {**self.sim.dialog, "language": language, "confirm": confirm, "opponent": "human"}
        self._autoplay, self._pause_s, self._page = autoplay, pause_s, page
        #: the computer level's hands, once the remote player is seated (with `autoplay`)
        self.hands: SimHands | None = None
        self._runner: web.AppRunner | None = None

    @property
    def table(self) -> Table:
        assert self.sim.table is not None
        table: Table = self.sim.table
        return table

    async def start(self) -> None:
        await self.sim.start()

    async def attend(self, play: OnlinePlay) -> None:
        """The page shows the seat, and its Leave (and the menu's) end it; the page is
        served now, its address said as the seat's line."""
        assert self.sim.door is not None
        self.sim.door.attend(play.seat)
        if self._autoplay:
            self.hands = SimHands(self.sim, make_bot(self._autoplay), pause_s=self._pause_s)
        if self._page is not None:
            server = SimServer(self.sim)
            try:
                self._runner = await server.start(*self._page)
            except OSError as exc:
                raise OnlineError(f"cannot serve the page on {self._page[0]}:{self._page[1]}: {exc.strerror}") from None
            assert server.guard is not None
            play.note(f"the board: {server.guard.url()}")

    def changed(self) -> None:
        self.sim._changed()

    async def play(self) -> None:
        if self.hands is not None:
            await self.hands.work()

    async def close(self) -> None:
        if self.hands is not None:
            self.hands.close()
        if self._runner is not None:
            await self._runner.cleanup()
        await self.sim.close()
        self._tmp.cleanup()

"""`bgboard online`: a table opened for one server match, its remote player seated at it.

The seat (`controller.online.seat.OnlineSeat`) is the one the page's dialog and the
board's menu use too; here the table is opened for it by a `TableHost`: the real board
(`BoardHost`, as `bgboard run` opens it) or the simulator's virtual board
(sim/online_host.py, whose own player may be a computer level's hands, so two bgboards
can play a whole match on a server by themselves). The command line chooses the host;
this module never imports the simulator.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from controller.board.profile import Profile
from controller.controller import ControllerConfig
from controller.online.seat import OnlineSeat, PlayResult
from controller.online.session import OnlineSession
from controller.table import Table
from controller.table.backends import LedBackend, PinBackend


class TableHost(Protocol):
    """The table `bgboard online` plays at, and what its own player does there."""

    @property
    def table(self) -> Table:
        """The table, once started."""

    async def start(self) -> None:
        """Open the table."""

    async def attend(self, play: OnlinePlay) -> None:
        """The remote player is seated (`play.seat`): let the table's own way out (the
        menu's, the page's Leave) end it, and say where the table is to be seen."""

    def changed(self) -> None:
        """Online play moved on (a page, if any, redraws)."""

    async def play(self) -> None:
        """What the table's own player does until cancelled (a computer level's hands on
        the virtual board; nothing where a person plays)."""

    async def close(self) -> None:
        """Close the table."""


@dataclass(frozen=True)
class BoardOptions:
    """The real board, as `bgboard run` opens it (`state_dir`: its own saved match, set
    aside while the online match is played and there again afterwards)."""

    port: str
    profile: Profile
    strip: LedBackend
    display: str | None
    pins: PinBackend
    brightness: float | None
    state_dir: Path | None = None


class BoardHost:
    """The real board (`run_table`), run as a task."""

    def __init__(self, options: BoardOptions, language: str) -> None:
        self.options = options
        self.language = language
        self._table: Table | None = None
        self._task: asyncio.Task[Table] | None = None

    @property
    def table(self) -> Table:
        assert self._table is not None
        return self._table

    async def start(self) -> None:
        from controller.app import run_table

        ready = asyncio.get_running_loop().create_future()

        def got(table: Table) -> None:
            self._table = table
            ready.set_result(None)

        o = self.options
        config = ControllerConfig(language=self.language, settle_s=o.profile.timing.settle_ms / 1000)
        self._task = asyncio.create_task(run_table(
            o.port, profile=o.profile, state_dir=o.state_dir, config=config, strip_name=o.strip,
            display_driver=o.display, pin_factory=o.pins, brightness=o.brightness, on_table=got))
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            self._task.result()  # the board could not be opened: its one line

    async def attend(self, play: OnlinePlay) -> None:
        self.table.offer_online(play)  # the menu's "leave online play" ends the command

    def changed(self) -> None:
        pass  # the board's loop redraws every tick

    async def play(self) -> None:
        pass  # a person plays at the board

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class OnlinePlay:
    """`bgboard online`: a table opened for the match by its `TableHost`, the remote player
    seated at it (`OnlineSeat`, as the page and the menu seat one)."""

    def __init__(self, session: OnlineSession, *, confirm: str = "auto", greeting: str | None = None,
                 on_line: Callable[[str], None] | None = None, verbose: bool = False) -> None:
        self.seat = OnlineSeat(session, confirm=confirm, greeting=greeting, on_line=on_line,
                               on_change=self._changed, verbose=verbose)
        self.session = session
        self.host: TableHost | None = None

    @property
    def result(self) -> PlayResult:
        return self.seat.result

    def _changed(self) -> None:
        if self.host is not None:
            self.host.changed()

    async def open_table(self, host: TableHost, *, state_dir: Path | None = None) -> None:
        """Open `host`'s table and seat the remote player of the server's match at it;
        `state_dir` keeps the online match."""
        self.seat.online_dir = state_dir
        self.host = host
        await host.start()
        try:
            await self.seat.join(host.table)
            await host.attend(self)
        except BaseException:
            await self.session.close()
            await host.close()
            raise

    def note(self, line: str) -> None:
        self.seat.note(line)

    def requested(self, what: str) -> None:
        """The real board's menu: "leave online play" ends this match (the command then
        ends); this table has no other online match to start."""
        if what == "leave":
            self.seat.leave()

    async def aclose(self) -> None:
        pass  # the seat is closed by `run`

    async def run(self, seconds: float | None = None) -> PlayResult:
        """Play until the match is over (or `seconds` pass); OnlineError ends it with one line."""
        assert self.host is not None
        own = asyncio.create_task(self.host.play())
        try:
            return await self.seat.play(seconds)
        finally:
            own.cancel()
            await asyncio.gather(own, return_exceptions=True)
            await self.host.close()


async def play_online(session: OnlineSession, host: TableHost, *, seconds: float | None,
                      state_dir: Path | None, greeting: str | None = None, verbose: bool = False,
                      on_line: Callable[[str], None] | None = None) -> PlayResult:
    """`bgboard online`: open `host`'s table on the server's match and play it."""
    play = OnlinePlay(session, greeting=greeting, on_line=on_line, verbose=verbose)
    await play.open_table(host, state_dir=state_dir)
    return await play.run(seconds)

"""`bgboard online`: a table opened for one server match, its remote player seated at it.

The seat (`controller.online.seat.OnlineSeat`) is the one the page's dialog and the
board's menu use too; here the table is opened for it: the simulator's (`LiveSim`: the
virtual board behind a real pseudo-terminal, in the browser with `--sim` or without one)
or the real board (`run_table`, as `bgboard run` opens it). A headless table's own player
is a computer level (`autoplay`) whose hands work the virtual board as the page's would,
so two bgboards can play a whole match on a server by themselves.
"""
from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from controller.board.profile import Profile
from controller.controller import ControllerConfig
from controller.online.client import OnlineError
from controller.online.hands import SimHands
from controller.online.seat import OnlineSeat, PlayResult
from controller.online.session import OnlineSession
from controller.table import Table, make_bot
from controller.table.backends import LedBackend, PinBackend

if TYPE_CHECKING:
    from sim.page.live import LiveSim


class SimHost:
    """The simulator's table (`LiveSim`: the virtual board, the page when served); its own
    saved match lives in a temporary directory (the command plays the server's match)."""

    def __init__(self, profile: Profile | None, language: str, confirm: str) -> None:
        from sim.page.live import LiveSim

        self._tmp = tempfile.TemporaryDirectory(prefix="bgboard-online-")
        base = Path(self._tmp.name)
        self.sim: LiveSim = LiveSim(profile=profile, state_dir=base, settings_file=base / "simulator.json")
        self.sim.dialog = {**self.sim.dialog, "language": language, "confirm": confirm, "opponent": "human"}

    @property
    def table(self) -> Table:
        assert self.sim.table is not None
        table: Table = self.sim.table
        return table

    async def start(self) -> None:
        await self.sim.start()

    def changed(self) -> None:
        self.sim._changed()

    async def close(self) -> None:
        await self.sim.close()
        self._tmp.cleanup()


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
        self.sim = None
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

    def changed(self) -> None:
        pass  # the board's loop redraws every tick

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class OnlinePlay:
    """`bgboard online`: a table opened for the match, the remote player seated at it
    (`OnlineSeat`, as the page and the menu seat one), and with `autoplay` the hands of a
    computer level on the virtual board."""

    def __init__(self, session: OnlineSession, *, language: str = "en", confirm: str = "auto",
                 autoplay: str | None = None, autoplay_pause_s: float = 0.4,
                 greeting: str | None = None, on_line: Callable[[str], None] | None = None,
                 verbose: bool = False) -> None:
        self.language = language
        self.confirm = confirm
        self.autoplay = autoplay
        self.autoplay_pause_s = autoplay_pause_s
        self.seat = OnlineSeat(session, confirm=confirm, greeting=greeting, on_line=on_line,
                               on_change=self._changed, verbose=verbose)
        self.session = session
        self.host: SimHost | BoardHost | None = None
        self.hands: SimHands | None = None

    @property
    def result(self) -> PlayResult:
        return self.seat.result

    def _changed(self) -> None:
        if self.host is not None:
            self.host.changed()

    async def open_table(self, *, profile: Profile | None = None, state_dir: Path | None = None,
                         board: BoardOptions | None = None) -> None:
        """Open the table (the simulator's, or the real `board`) and seat the remote player
        of the server's match at it; `state_dir` keeps the online match."""
        if self.autoplay and board is not None:
            raise OnlineError("--autoplay needs the virtual board (--sim or --headless)")
        self.seat.online_dir = state_dir
        self.host = SimHost(profile, self.language, self.confirm) if board is None \
            else BoardHost(board, self.language)
        await self.host.start()
        try:
            await self.seat.join(self.host.table)
        except BaseException:
            await self.session.close()
            await self.host.close()
            raise
        if isinstance(self.host, SimHost):
            assert self.host.sim.door is not None
            self.host.sim.door.attend(self.seat)  # the page shows it, its Leave (and the menu's) end it
        else:
            self.host.table.offer_online(self)  # the menu's "leave online play" ends the command
        if self.autoplay:
            assert isinstance(self.host, SimHost)
            self.hands = SimHands(self.host.sim, make_bot(self.autoplay), pause_s=self.autoplay_pause_s)

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
        hands = asyncio.create_task(self.hands.work()) if self.hands is not None else None
        try:
            return await self.seat.play(seconds)
        finally:
            if hands is not None:
                hands.cancel()
                await asyncio.gather(hands, return_exceptions=True)
            if self.hands is not None:
                self.hands.close()
            await self.host.close()


async def play_online(session: OnlineSession, *, seconds: float | None, autoplay: str | None,
                      web: tuple[str, int] | None, state_dir: Path | None, language: str = "en",
                      greeting: str | None = None, verbose: bool = False,
                      board: BoardOptions | None = None,
                      on_line: Callable[[str], None] | None = None) -> PlayResult:
    """`bgboard online`: open the table on the server's match and play it."""
    play = OnlinePlay(session, language=language, autoplay=autoplay, greeting=greeting, on_line=on_line,
                      verbose=verbose)
    await play.open_table(state_dir=state_dir, board=board)
    runner = None
    if web is not None:
        from controller.web.server import SimServer

        assert isinstance(play.host, SimHost)  # served only with the simulator's table
        server = SimServer(play.host.sim)
        try:
            runner = await server.start(*web)
        except OSError as exc:
            await session.close()
            await play.host.close()
            raise OnlineError(f"cannot serve the page on {web[0]}:{web[1]}: {exc.strerror}") from None
        assert server.guard is not None
        play.note(f"the board: {server.guard.url()}")
    try:
        return await play.run(seconds)
    finally:
        if runner is not None:
            await runner.cleanup()

"""`bgboard online`'s loop: the session, the remote opponent and the table, together.

Two tasks share one event loop. One reads the server (`OnlineSession.next_event`): each
event goes to `RemoteOpponent.on_server`; a dropped connection shows "connection lost,
rejoining" on the display and the page until the session is back in the match. The other
looks at the table every 50 ms (`RemoteOpponent.pump`): facts the table is ready for go in,
what the local player did goes out. The table is the simulator's (`LiveSim`: the virtual
board behind a real pseudo-terminal, in the browser with `--sim` or without one) or the real
board (`run_table`, as `bgboard run` opens it); a headless table's own player is a computer level (`autoplay`) whose hands work the virtual board
as the page's would, so two bgboards can play a whole match on a server by themselves.
"""
from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.table import make_bot
from controller.table.computer import bot_context
from controller.controller import ControllerConfig
from controller.table import Table
from controller.table.backends import LedBackend, PinBackend
from controller.engine.board_view import cell_of_point, other
from controller.engine.match import Match
from controller.engine.match_settings import REMOTE as REMOTE_PLAYER
from controller.engine.match_settings import MatchSettings
from controller.events import ActionRequested, AdoptMatch, ButtonPressed
from controller.online import commands
from controller.online.client import OnlineError
from controller.online.remote import LOCAL, REMOTE, Reaction, RemoteOpponent, ServerDice, match_from_state
from controller.online.session import LinkDown, LinkUp, OnlineSession
from controller.show.content import Prompt

log = logging.getLogger("bgboard.online")
PUMP_S = 0.05


class _ToldLines(collections.deque[str]):
    """The table's log that also tells each new line (`--verbose`)."""

    def __init__(self, tell: Callable[[str], None], maxlen: int | None) -> None:
        super().__init__(maxlen=maxlen)
        self._tell = tell

    def append(self, line: str) -> None:
        super().append(line)
        self._tell(f"table: {line}")


class SimHost:
    """The simulator's table (`LiveSim`: the virtual board, the page when served)."""

    def __init__(self, live: Any) -> None:
        self.sim = live
        self.chat: list[str] = live.chat

    @property
    def table(self) -> Table:
        assert self.sim.table is not None
        return self.sim.table

    async def start(self) -> None:
        await self.sim.start()

    def changed(self) -> None:
        self.sim._changed()

    async def close(self) -> None:
        await self.sim.close()


@dataclass(frozen=True)
class BoardOptions:
    """The real board, as `bgboard run` opens it."""

    port: str
    profile: Any
    strip: LedBackend
    display: str | None
    pins: PinBackend
    brightness: float | None


class BoardHost:
    """The real board (`run_table`), run as a task; the remote player is driven from here."""

    def __init__(self, options: BoardOptions, match: Match, config: ControllerConfig, dice: ServerDice,
                 state_dir: Path | None) -> None:
        self.options = options
        self.fixed = (match, dice)
        self.config = config
        self.state_dir = state_dir
        self.sim = None
        self.chat: list[str] = []  # shown in the log only: the board has no page
        self._table: Table | None = None
        self._task: asyncio.Task[Any] | None = None

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
        self._task = asyncio.create_task(run_table(
            o.port, profile=o.profile, state_dir=self.state_dir, config=self.config, strip_name=o.strip,
            display_driver=o.display, pin_factory=o.pins, brightness=o.brightness, fixed=self.fixed,
            on_table=got))
        done, _ = await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            self._task.result()  # the board could not be opened: its one line

    def changed(self) -> None:
        pass  # the board's loop redraws every tick

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


@dataclass
class PlayResult:
    """How the session ended, with what the report and the tests count."""

    over: bool = False
    score: tuple[int, int] = (0, 0)
    turns_compared: int = 0
    reconnects: list[float] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: str | None = None


class OnlinePlay:
    """One online match on one table (see the module docstring)."""

    def __init__(self, session: OnlineSession, *, language: str = "en", confirm: str = "auto",
                 autoplay: str | None = None, autoplay_pause_s: float = 0.4,
                 greeting: str | None = None, on_line: Callable[[str], None] | None = None,
                 verbose: bool = False) -> None:
        self.session = session
        self.language = language
        self.confirm = confirm
        self.autoplay = autoplay
        self.autoplay_pause_s = autoplay_pause_s
        self.on_line = on_line or (lambda line: None)
        self.greeting = greeting  # a chat line sent once the opponent is there
        self.verbose = verbose  # also the table's own announcements and every command sent

        self.result = PlayResult()
        self.opponent: RemoteOpponent | None = None
        self._bot: Any = None
        self._acted: object = None
        self._last_step = 0.0
        self._acted_at = 0.0
        self._meant = ""  # the notation of the move the hands are carrying out
        self._steps: list[Any] = []  # its steps still to carry out

    async def open_table(self, *, profile: Any = None, state_dir: Path | None = None,
                         board: BoardOptions | None = None) -> None:
        """Start the session and the table (the simulator's, or the real `board`) on the
        server's match."""
        joined, state = await self.session.start()
        self.note(f"playing match {joined.game_id} on {self.session.address} as {self.session.name}")
        dice = ServerDice()
        settings = MatchSettings(length=state.points, confirm=self.confirm,
                                 white=self.session.name or "White", black="remote", black_player=REMOTE_PLAYER)
        match = match_from_state(state, settings)
        self.host: SimHost | BoardHost
        if board is None:
            from sim.web.live import LiveSim

            config = ControllerConfig(language=self.language)
            self.host = SimHost(LiveSim(profile=profile, state_dir=state_dir, fixed=(match, config, dice)))
        else:
            config = ControllerConfig(language=self.language,
                                      settle_s=board.profile.timing.settle_ms / 1000)
            self.host = BoardHost(board, match, config, dice, state_dir)
        try:
            await self.host.start()
        except BaseException:
            await self.session.close()
            raise
        if self.verbose:
            told = _ToldLines(self.on_line, self.host.table.log_lines.maxlen)
            told.extend(self.host.table.log_lines)
            self.host.table.log_lines = told
        self.opponent = RemoteOpponent(self.session.name or "", state, dice)
        if self.autoplay:
            if self.host.sim is None:
                raise OnlineError("--autoplay needs the virtual board (--sim or --headless)")
            self._bot = make_bot(self.autoplay)

    def note(self, line: str) -> None:
        self.result.notes.append(line)
        log.info(line)
        self.on_line(line)

    async def run(self, seconds: float | None = None) -> PlayResult:
        """Play until the match is over (or `seconds` pass); OnlineError ends it with one line."""
        assert self.opponent is not None
        reader = asyncio.create_task(self._read_server())
        pumper = asyncio.create_task(self._pump())
        try:
            done, _ = await asyncio.wait({reader, pumper}, timeout=seconds,
                                         return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # an OnlineError or a ProtocolError ends the match here
        finally:
            for task in (reader, pumper):
                task.cancel()
            await asyncio.gather(reader, pumper, return_exceptions=True)
            m = self.host.table.controller.match
            self.result.score = m.score
            self.result.turns_compared = self.opponent.compared
            self.result.reconnects = list(self.session.reconnects)
            await self.session.close()
            await self.host.close()
        return self.result

    # -- the server --------------------------------------------------------------------
    async def _read_server(self) -> None:
        assert self.opponent is not None
        while True:
            event = await self.session.next_event()
            if isinstance(event, LinkDown):
                self.note(f"connection lost, rejoining ({event.reason})")
                self._banner(Prompt.of("server_lost"))
                up = await self.session.reconnect()
                self.note(f"back in match {self.session.game_id} after {up.seconds:.2f} s "
                          f"({up.attempts} attempt{'s' if up.attempts != 1 else ''})")
                self._banner(None)
                continue
            if not isinstance(event, LinkUp):
                await self._apply(self.opponent.on_server(event))
            if self.greeting and self.opponent.server.player2.name:
                greeting, self.greeting = self.greeting, None
                await self.session.send(commands.say(greeting))

    def _banner(self, prompt: Prompt | None) -> None:
        controller = self.host.table.controller
        controller.banner = prompt
        from controller.events import Tick

        self.host.table.dispatch(Tick(controller.now))
        self.host.changed()

    async def _apply(self, reaction: Reaction) -> None:
        for line in reaction.notes:
            self.note(line)
            if line.startswith("chat "):
                self.host.chat.append(line[len("chat "):])
        for command in reaction.commands:
            self.result.sent.append(command)
            if self.verbose:
                self.on_line(f"sent: {command}")
            if not await self.session.send(command):
                self.note(f"not sent while the connection is down: {command}")
        if reaction.stopped is not None:
            self.result.stopped = reaction.stopped
        table = self.host.table
        if reaction.adopt is not None:
            table.dispatch(AdoptMatch(reaction.adopt, table.controller.now))
        for event in reaction.events:
            table.dispatch(event)
        if reaction.events or reaction.adopt is not None:
            self.host.changed()

    # -- the table ------------------------------------------------------------------------
    async def _pump(self) -> None:
        assert self.opponent is not None
        while True:
            await asyncio.sleep(PUMP_S)
            await self._apply(self.opponent.pump(self.host.table.controller))
            m = self.host.table.controller.match
            server = self.opponent.server
            if m.is_over and (server.winner or server.turn == 0) and not self.opponent.facts:
                self.result.over = True
                self.note(f"match over: {m.winner} wins {m.score[0]}-{m.score[1]}")
                self.session.forget()
                return
            if self._bot is not None:
                await self._autoplay()

    async def _autoplay(self) -> None:
        """The headless table's own player: a computer level working the virtual board."""
        live = self.host.sim
        assert live is not None
        loop = asyncio.get_running_loop()
        if not self._hands_free(live, loop.time()):
            return
        if self._answer_confirmation(live) or await self._use_helpers(live):
            self._last_step = loop.time()
            return
        m = live.table.controller.status().match
        if not (m.phase == "move" and m.turn == LOCAL):
            self._steps = []
        key = (m, live.table.controller.status().board)
        if key == self._acted and loop.time() - self._acted_at < 2.0:
            return  # done in this very state; again after a while (a refused roll, say)
        self._acted_at = loop.time()
        await self._decide(live, m, key)

    def _hands_free(self, live: Any, now: float) -> bool:
        """Nothing in hand, the pause since the last step over, and that step settled (or
        given up on after 3 s)."""
        if live.hand or now - self._last_step < self.autoplay_pause_s:
            return False
        status = live.table.controller.status()
        settled = not status.settling and status.reading_since >= self._last_step
        return settled or now - self._last_step >= 3.0

    def _answer_confirmation(self, live: Any) -> bool:
        """A full point or tray the sensors cannot count: "Was it ...?" (main yes, cube no)."""
        c = live.table.controller
        prompt = c.phase_prompt()
        if prompt is None or prompt.key != "confirm_move":
            return False
        meant = prompt.as_dict().get("notation") == self._meant
        side = LOCAL if c.status().match.turn == LOCAL else REMOTE
        live.table.dispatch(ButtonPressed(side, "main" if meant else "cube", c.now))
        return True

    async def _use_helpers(self, live: Any) -> bool:
        """The simulator's hands: set the board up, carry out the remote player's move."""
        from sim.web.protocol import PageAction

        helpers = live.helpers()
        carried = live.table.controller.status().carried_out
        if "bot_move" in helpers and carried is not None:
            self._meant = carried.move.notation
        for helper in ("setup", "bot_move"):
            if helper in helpers:
                await live.act(PageAction(helper))
                return True
        return False

    async def _decide(self, live: Any, m: Match, key: object) -> None:
        """The level's decision now: roll or double, take or drop, the next step of its move,
        accept a resignation."""
        c = live.table.controller
        context = bot_context(m, LOCAL)
        if m.phase == "opening" or (m.phase == "roll" and m.turn == LOCAL):
            action = "double" if m.phase == "roll" and m.may_double(LOCAL) and \
                self._bot.should_double(m.position, context) else "roll"
            self._acted = key
            live.table.dispatch(ActionRequested(LOCAL, action, c.now))  # type: ignore[arg-type]
        elif m.phase == "doubled" and m.turn == REMOTE:
            take = self._bot.should_take(m.position.swap(), context)
            self._acted = key
            live.table.dispatch(ActionRequested(LOCAL, "take" if take else "drop", c.now))
        elif m.phase == "move" and m.turn == LOCAL and m.dice is not None:
            if not m.steps and not self._steps:
                move = self._bot.choose_move(m.position, m.dice, context)
                self._acted = key
                if move is None:
                    return
                self._meant = move.notation
                self._steps = list(move.steps)
            if self._steps:
                await self._next_step(live)
        elif m.phase == "resigning" and m.turn == REMOTE:
            self._acted = key
            live.table.dispatch(ActionRequested(LOCAL, "accept", c.now))

    async def _next_step(self, live: Any) -> None:
        """One step at a time, each settled before the next, as hands do: a checker borne
        off from 5 with 1-6 is 5/4 then 4/off, not one 5/off with the 6."""
        from sim.web.protocol import PageAction

        step = self._steps.pop(0)
        frm, to = cell_of_point(step.frm, LOCAL), cell_of_point(step.to, LOCAL)
        if step.hit:
            await live.act(PageAction("lift", cell=to, colour=other(LOCAL)))
            await live.act(PageAction("place", cell="bar", colour=other(LOCAL)))
        await live.act(PageAction("lift", cell=frm, colour=LOCAL))
        await live.act(PageAction("place", cell=to, colour=LOCAL))
        self._last_step = asyncio.get_running_loop().time()


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
        from sim.web.server import SimServer

        assert play.host.sim is not None  # served only with the simulator's table
        server = SimServer(play.host.sim)
        try:
            runner = await server.start(*web)
        except OSError as exc:
            await play.host.close()
            await session.close()
            raise OnlineError(f"cannot serve the page on {web[0]}:{web[1]}: {exc.strerror}") from None
        assert server.guard is not None
        play.note(f"the board: {server.guard.url()}")
    try:
        return await play.run(seconds)
    finally:
        if runner is not None:
            await runner.cleanup()

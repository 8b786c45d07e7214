"""The remote player's seat at a running table: an online match taken up and left again.

The computer sits at a table as `ComputerSeat` (controller/table/computer.py) and answers
the controller's questions; the remote player sits at it as an `OnlineSeat`, whose
answers come from the server. `join()` connects, logs in and creates or joins the match
(`OnlineSession.start`); only when that worked does the seat take the table (`Table.seat`):

1. the local match being played is saved in the table's own store first (it is also
   kept in memory),
2. the table saves to the online directory instead (the online match never overwrites
   the local one),
3. the dice are the server's (the `server` dice source, controller/dice/state.py),
4. the table adopts the server's match, whose Black is the remote player (so hints and
   tutor are off, the controller's rule for a remote player); the board is set up to it.

`play()` runs the two tasks of an online match on the table's loop: one reads the server
(`RemoteOpponent.on_server`; a dropped connection shows "connection lost, rejoining" on
the display and the page until the session is back in the match), the other looks at the
table every 50 ms (`RemoteOpponent.pump`). It ends when the match is over (with
`until_over`), after `seconds`, on `leave()`, or with the OnlineError (or ProtocolError)
that stopped it, raised after the table has its local seating and match back.
"""
from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.dice.state import DiceState
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, MatchSettings
from controller.engine.match_settings import REMOTE as REMOTE_PLAYER
from controller.engine.wording import counted
from controller.events import AdoptMatch
from controller.bgammon import commands
from controller.online.facts import Reaction
from controller.online.remote import RemoteOpponent
from controller.online.resume import resumed_match
from controller.online.server_match import match_from_state
from controller.online.session import LinkDown, LinkUp, OnlineSession
from controller.records.store import TableStore
from controller.show.content import Prompt
from controller.table.table import Seating, Table

log = logging.getLogger("bgboard.online")
PUMP_S = 0.05


@dataclass
class PlayResult:
    """How the online match ended, with what the report and the tests count."""

    over: bool = False
    score: tuple[int, int] = (0, 0)
    turns_compared: int = 0
    reconnects: list[float] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: str | None = None
    left: bool = False
    match: Match | None = None  # the online match as it stood when play ended


class _ToldLines(collections.deque[str]):
    """The table's log that also tells each new line (`--verbose`)."""

    def __init__(self, tell: Callable[[str], None], maxlen: int | None) -> None:
        super().__init__(maxlen=maxlen)
        self._tell = tell

    def append(self, line: str) -> None:
        super().append(line)
        self._tell(f"table: {line}")


class OnlineSeat:
    """One online match at one running table (see the module docstring)."""

    def __init__(self, session: OnlineSession, *, online_dir: Path | None = None,
                 confirm: str | None = None, greeting: str | None = None,
                 on_line: Callable[[str], None] | None = None,
                 on_change: Callable[[], None] | None = None, verbose: bool = False) -> None:
        self.session = session
        self.online_dir = online_dir  # where the online match is saved (the session's directory)
        self.confirm = confirm  # None: as the local match was played
        self.greeting = greeting  # a chat line sent once the opponent is there
        self.on_line = on_line or (lambda line: None)
        self.on_change = on_change or (lambda: None)
        self.verbose = verbose  # also the table's own announcements and every command sent
        self.result = PlayResult()
        self.chat: list[str] = []  # the opponent's chat lines, newest last
        self.opponent: RemoteOpponent | None = None
        self.table: Table | None = None
        self.local: Seating | None = None  # the table's own, given back when the seat leaves
        self.rejoining = False
        self._leave = asyncio.Event()

    # -- taking the table and giving it back ----------------------------------------------
    async def join(self, table: Table) -> None:
        """Start the session; then take `table` (see the module docstring). An OnlineError
        leaves the table as it was."""
        joined, state = await self.session.start()
        self.note(f"playing match {joined.game_id} on {self.session.address} as {self.session.name}")
        c = table.controller.status()
        settings = MatchSettings(length=state.points, confirm=self.confirm or c.match.settings.confirm,
                                 white=self.session.name or "White", black="remote",
                                 white_player=HUMAN, black_player=REMOTE_PLAYER)
        store = TableStore(self.online_dir)
        fresh = match_from_state(state, settings)
        # a restart plays on from the table's own record (issue 22.12: see resume.py)
        match = resumed_match(store.load(c.now) if self.session.resumed else None, state, fresh)
        if match is not fresh:
            self.note(f"resumed game {match.history[-1].number if match.history else 1} from the saved match")
        dice = DiceState(mode="server").adopt(match)  # online the server rolls
        self.table = table
        self.opponent = RemoteOpponent(self.session.name or "", state)
        self.opponent.took_up(match)
        if self.verbose:
            told = _ToldLines(self.on_line, table.log_lines.maxlen)
            told.extend(table.log_lines)
            table.log_lines = told
        self.local = table.seat(Seating(match, dice, store), c.now)
        self._waiting_banner()
        self.on_change()

    def _give_back(self) -> None:
        """The table's own seating and the local match, as they were before the seat took it."""
        table, local = self.table, self.local
        if table is None or local is None:
            return
        self.table = None
        m = table.controller.status().match
        self.result.score = m.score
        self.result.match = m
        table.seat(local, table.clock())  # the banner goes with the online seating
        self.note("the local match is back")
        self.on_change()

    def leave(self) -> None:
        """End online play: `play()` sends `leave`, closes the session, gives the table back."""
        self._leave.set()

    @property
    def over(self) -> bool:
        """The online match is over: the table's match says so the moment it ends (the
        engine has checked every fact that ended it); after the table is given back, as
        it ended. The server's confirmation (`PlayResult.over`) may come a turn of the
        pump later: it decides when the saved server match is forgotten, not this."""
        if self.table is None:
            return self.result.over
        return self.table.controller.status().match.is_over

    @property
    def waiting(self) -> bool:
        """In the match, no opponent there yet."""
        return self.opponent is not None and not self.opponent.server.player2.name

    # -- playing ------------------------------------------------------------------------
    async def play(self, seconds: float | None = None, *, until_over: bool = True) -> PlayResult:
        """Play on the taken table until the match is over (`until_over`), `seconds` pass or
        `leave()`; the table is given back in every case."""
        assert self.opponent is not None
        tasks = {asyncio.create_task(self._read_server()), asyncio.create_task(self._pump(until_over)),
                 asyncio.create_task(self._leave.wait())}
        try:
            done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # an OnlineError or a ProtocolError ends the match here
            if self._leave.is_set():
                self.result.left = True
                self.result.sent.append(commands.LEAVE)
                await self.session.send(commands.LEAVE)
                self.session.forget()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.result.turns_compared = self.opponent.compared
            self.result.reconnects = list(self.session.reconnects)
            await self.session.close()
            self._give_back()
        return self.result

    async def say(self, message: str) -> bool:
        """Send the person's chat line (`commands.check_chat`: a bad one is a UsageError,
        nothing sent); shown with the opponent's, under our name. False: the connection
        is down, nothing was sent."""
        text = commands.check_chat(message)
        command = commands.say(text)
        self.result.sent.append(command)
        if not await self.session.send(command):
            self.note("chat not sent while the connection is down")
            return False
        self.chat.append(f"{self.session.name or 'me'}: {text}")
        self.on_change()
        return True

    def note(self, line: str) -> None:
        self.result.notes.append(line)
        log.info(line)
        self.on_line(line)

    async def _read_server(self) -> None:
        assert self.opponent is not None
        while True:
            event = await self.session.next_event()
            if isinstance(event, LinkDown):
                self.note(f"connection lost, rejoining ({event.reason})")
                self.rejoining = True
                self._banner(Prompt.of("server_lost"))
                up = await self.session.reconnect()
                self.rejoining = False
                self.opponent.rejoined()  # what the dead connection swallowed is sent again
                self.note(f"back in match {self.session.game_id} after {up.seconds:.2f} s "
                          f"({counted(up.attempts, 'attempt')})")
                self._banner(None)
                continue
            if not isinstance(event, LinkUp):
                await self._apply(self.opponent.on_server(event))
            self._waiting_banner()
            if self.greeting and self.opponent.server.player2.name:
                greeting, self.greeting = self.greeting, None
                await self.session.send(commands.say(greeting))

    def _waiting_banner(self) -> None:
        """"Waiting for an opponent" on the display until one sits down."""
        if self.table is None or self.rejoining:
            return
        request = self.session.request
        shared = f" · {request.password}" if request is not None and request.create == "private" \
            and request.password else ""  # a private match's password, to pass on
        wanted = Prompt.of("online_waiting", text=f"{self.session.game_id}{shared}") if self.waiting else None
        if self.table.controller.status().banner != wanted:
            self._banner(wanted)

    def _banner(self, prompt: Prompt | None) -> None:
        table = self.table
        if table is None:
            return
        table.show_banner(prompt)
        self.on_change()

    async def _apply(self, reaction: Reaction) -> None:
        table = self.table
        assert table is not None
        for line in reaction.notes:
            self.note(line)
            if line.startswith("chat "):
                self.chat.append(line[len("chat "):])
        for command in reaction.commands:
            self.result.sent.append(command)
            if self.verbose:
                self.on_line(f"sent: {command}")
            if not await self.session.send(command):
                self.note(f"not sent while the connection is down: {command}")
        if reaction.stopped is not None:
            self.result.stopped = reaction.stopped
        if reaction.adopt is not None:
            table.dispatch(AdoptMatch(reaction.adopt, table.controller.status().now))
        for event in reaction.events:
            table.dispatch(event)
        if reaction.events or reaction.adopt is not None or reaction.notes:
            self.on_change()

    async def _pump(self, until_over: bool) -> None:
        assert self.opponent is not None and self.table is not None
        table = self.table
        over_told = False
        while True:
            await asyncio.sleep(PUMP_S)
            await self._apply(self.opponent.pump(table.controller.status()))
            m = table.controller.status().match
            server = self.opponent.server
            if self.over and (server.winner or server.turn == 0) and not self.opponent.facts:
                self.result.over = True
                self.result.score = m.score
                if not over_told:
                    over_told = True
                    self.note(f"match over: {m.winner} wins {m.score[0]}-{m.score[1]}")
                    self.session.forget()
                if until_over:
                    return
            elif over_told and not m.is_over:
                over_told = False  # a rematch began
                self.result.over = False


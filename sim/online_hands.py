"""The hands of a computer level on the simulator's virtual board: how a headless table's
own player plays an online match (`bgboard online --headless`, and the tests).

A computer level decides (roll or double, take or drop, its move, accept a resignation);
the hands do it as a person at the board would: a button for a decision, each step of a
move lifted and placed on the virtual board and left to settle before the next, the
remote player's move carried out from its bot-from/bot-to, the board set up when the
table asks. The controller learns of it all through the board's readings.
"""
from __future__ import annotations

import asyncio
from typing import Literal

from controller.bot.base import Bot
from controller.engine.board_view import cell_of_point, other
from controller.engine.match import Match
from controller.engine.moves import Step
from controller.events import ActionRequested, AskBot, BotCube, BotMoved, ButtonPressed
from controller.online.facts import LOCAL, REMOTE
from controller.online.seat import PUMP_S
from controller.table import Table
from controller.table.computer import answer_with
from controller.web.protocol import PageAction
from sim.page.live import LiveSim


class SimHands:
    """A computer level's hands on `live` (a `LiveSim`) for the local player (White)."""

    def __init__(self, live: LiveSim, bot: Bot, *, pause_s: float = 0.4) -> None:
        self.live = live
        self.bot = bot
        self.pause_s = pause_s
        self._acted: object = None
        self._last_step = 0.0
        self._acted_at = 0.0
        self._meant = ""  # the notation of the move the hands are carrying out
        self._steps: list[Step] = []  # its steps still to carry out

    @property
    def table(self) -> Table:
        """The simulator's table now (a new match opens a new one)."""
        table = self.live.table
        assert table is not None
        return table

    def close(self) -> None:
        self.bot.close()

    async def work(self) -> None:
        """Look every 50 ms and do the next thing a player's hands would."""
        while True:
            await asyncio.sleep(PUMP_S)
            await self.step()

    async def step(self) -> None:
        """The next thing to do now, if any."""
        live = self.live
        loop = asyncio.get_running_loop()
        if not self._hands_free(live, loop.time()):
            return
        if self._answer_confirmation(live) or await self._use_helpers(live):
            self._last_step = loop.time()
            return
        m = self.table.controller.status().match
        if not (m.phase == "move" and m.turn == LOCAL):
            self._steps = []
        key = (m, self.table.controller.status().board)
        if key == self._acted and loop.time() - self._acted_at < 2.0:
            return  # done in this very state; again after a while (a refused roll, say)
        self._acted_at = loop.time()
        await self._decide(live, m, key)

    def _hands_free(self, live: LiveSim, now: float) -> bool:
        """Nothing in hand, the pause since the last step over, and that step settled (or
        given up on after 3 s)."""
        if live.hand or now - self._last_step < self.pause_s:
            return False
        status = self.table.controller.status()
        settled = not status.settling and status.reading_since >= self._last_step
        return settled or now - self._last_step >= 3.0

    def _answer_confirmation(self, live: LiveSim) -> bool:
        """A full point or tray the sensors cannot count: the checker the hands put down
        there has landed (the main button says so: issue 35.3, the hands waited for ever),
        or "Was it ...?" (main yes, cube no)."""
        status = self.table.controller.status()
        side = LOCAL if status.match.turn == LOCAL else REMOTE
        if status.awaits_landing and not live.hand:
            self.table.dispatch(ButtonPressed(side, "main", status.now))
            return True
        prompt = status.scene.display.prompt
        if prompt is None or prompt.key != "confirm_move":
            return False
        meant = prompt.as_dict().get("notation") == self._meant
        self.table.dispatch(ButtonPressed(side, "main" if meant else "cube", status.now))
        return True

    async def _use_helpers(self, live: LiveSim) -> bool:
        """The simulator's hands: set the board up, carry out the remote player's move."""
        helpers = live.helpers()
        carried = self.table.controller.status().carried_out
        if "bot_move" in helpers and carried is not None:
            self._meant = carried.move.notation
        for helper in ("setup", "bot_move"):
            if helper in helpers:
                await live.act(PageAction(helper))
                return True
        return False

    async def _decide(self, live: LiveSim, m: Match, key: object) -> None:
        """The level's decision now, put to it as the table puts the computer's questions
        (`answer_with`): roll or double, take or drop, the next step of its move, accept or
        decline a resignation."""
        now = self.table.controller.status().now
        kind = _question(m)
        if kind is None:
            return
        if kind == "move" and (m.steps or self._steps):
            if self._steps:
                await self._next_step(live)
            return
        self._acted = key
        if kind == "roll":
            self.table.dispatch(ActionRequested(LOCAL, "roll", now))
            return
        answer = answer_with(self.bot, AskBot(kind, 0, LOCAL, m), now)
        if isinstance(answer, BotCube):
            self.table.dispatch(ActionRequested(LOCAL, answer.action, now))  # type: ignore[arg-type]
        elif isinstance(answer, BotMoved) and answer.move is not None:
            self._meant = answer.move.notation
            self._steps = list(answer.move.steps)
            await self._next_step(live)

    async def _next_step(self, live: LiveSim) -> None:
        """One step at a time, each settled before the next, as hands do: a checker borne
        off from 5 with 1-6 is 5/4 then 4/off, not one 5/off with the 6."""
        step = self._steps.pop(0)
        frm, to = cell_of_point(step.frm, LOCAL), cell_of_point(step.to, LOCAL)
        if step.hit:
            await live.act(PageAction("lift", cell=to, colour=other(LOCAL)))
            await live.act(PageAction("place", cell="bar", colour=other(LOCAL)))
        await live.act(PageAction("lift", cell=frm, colour=LOCAL))
        await live.act(PageAction("place", cell=to, colour=LOCAL))
        self._last_step = asyncio.get_running_loop().time()


def _question(m: Match) -> Literal["roll", "move", "cube", "take", "resign"] | None:
    """What the local player does now, if anything: a roll, or a question for its level."""
    if m.phase == "opening":
        return "roll"
    if m.phase == "roll" and m.turn == LOCAL:
        return "cube" if m.may_double(LOCAL) else "roll"
    if m.phase == "doubled" and m.turn == REMOTE:
        return "take"
    if m.phase == "move" and m.turn == LOCAL and m.dice is not None:
        return "move"
    if m.phase == "resigning" and m.turn == REMOTE:
        return "resign"
    return None

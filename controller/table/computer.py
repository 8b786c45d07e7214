"""The computer's seat at the table: the controller's questions put to a computer level.

The controller asks (`AskBot`: a move, a cube decision, a take, a resignation, a rematch);
`ComputerSeat.answer` puts the question to the level playing that side and returns the
answer as the controller's own event (`BotMoved`, `BotCube`). Levels are made on first
use by the factory the table was given, so a level that is not installed is refused in
one line when it is first needed, and every level made is closed with the table.

`ComputerSeat.ask` is how the table puts the question: at a table on an event loop the
level thinks in a worker thread and its answer comes back as an event on the loop (the
board keeps being read meanwhile); without a loop (the headless runner, tests) it answers
at once. A side played online is answered by the server, not here. That was the table's
own code; it is the seat's job.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from controller.bot.base import Bot, accepts_rematch, offers_rematch
# bot_context is imported from here too: the computer's seat asks with it
from controller.analysis.match_context import bot_context
from controller.engine.board_view import Colour
from controller.engine.match import LEVELS, Match
from controller.engine.match_settings import REMOTE
from controller.errors import BgboardError
from controller.events import AskBot, BotCube, BotMoved, Event, Refused


class AskingTable(Protocol):
    """The table a question comes from: its loop (None: answer at once), its clock (a late
    answer is stamped with it), its events in and its refusals."""

    loop: asyncio.AbstractEventLoop | None
    clock: Callable[[], float]

    def dispatch(self, event: Event) -> object: ...

    def refuse(self, refused: Refused) -> None: ...


class ComputerSeat:
    """The computer levels of one table (see the module docstring)."""

    def __init__(self, factory: Callable[[str], Bot] | None) -> None:
        self._factory = factory
        self._levels: dict[str, Bot] = {}

    def level(self, name: str) -> Bot:
        """The level `name`, made on first use; BgboardError if it cannot be had."""
        bot = self._levels.get(name)
        if bot is None:
            if self._factory is None:
                raise BgboardError(f"no computer levels at this table (asked for {name!r})")
            bot = self._levels[name] = self._factory(name)
        return bot

    def answer(self, question: AskBot, level: str, now: float) -> Event | None:
        """The level's answer to `question`, as an event stamped `now`."""
        return answer_with(self.level(level), question, now)

    def ask(self, question: AskBot, now: float, table: AskingTable) -> Event | None:
        """The answer to `table`'s `question` now, or None: a side played online (the
        server answers), a level that thinks in a worker (its answer is dispatched to the
        table when it comes) or one that cannot be had (refused at the table in one line)."""
        level = question.match.settings.player(question.side)  # who plays it in the match asked about
        if level == REMOTE:
            return None  # an online player answers through the server (controller/online)
        if table.loop is not None:
            self._ask_in_worker(question, level, table.loop, table)
            return None
        try:
            return self.answer(question, level, now)
        except BgboardError as exc:  # a level not installed, or no such level
            table.refuse(Refused.of(str(exc), "computer_missing", level=level))
            return None

    def _ask_in_worker(self, question: AskBot, level: str, loop: asyncio.AbstractEventLoop,
                       table: AskingTable) -> None:
        future = loop.run_in_executor(None, self.answer, question, level, 0.0)

        def done(f: "asyncio.Future[Event | None]") -> None:
            try:
                answer = f.result()
            except Exception as exc:  # a level that fails must not stop the table
                table.refuse(Refused.of(f"the computer failed: {exc}", "computer_failed",
                                        side=question.side, level=level))
                return
            if answer is not None:
                table.dispatch(replace(answer, at=table.clock()))

        future.add_done_callback(done)

    def close(self) -> None:
        for bot in self._levels.values():
            bot.close()
        self._levels.clear()


def answer_with(bot: Bot, question: AskBot, now: float) -> Event | None:
    """`bot`'s answer to `question`, as an event stamped `now`: the one place that knows
    from whose side each of the level's questions is put (a take from the doubler's, a
    resignation from the resigner's), for the computer's seat and for the simulator's
    hands (controller/online/hands.py) alike."""
    match = question.match
    context = bot_context(match, question.side)
    token = question.turn_token
    if question.kind == "move":
        assert match.dice is not None
        return BotMoved(bot.choose_move(match.position, match.dice, context), now, token)
    if question.kind == "cube":
        return BotCube("double" if bot.should_double(match.position, context) else "roll", now, token)
    if question.kind == "take":
        return BotCube("take" if bot.should_take(match.position, context) else "drop", now, token)
    if question.kind == "rematch":
        accepted = accepts_rematch(bot, context)
        return BotCube("rematch" if accepted else "decline", now, token, question.side)
    if question.kind == "offer_rematch":
        offered = offers_rematch(bot, context, lost=match.winner != question.side)
        return BotCube("rematch", now, token, question.side) if offered else None
    level_index = LEVELS.index(match.resign_level or "single") + 1
    accepted = bot.accepts_resignation(match.partial, level_index, context)
    return BotCube("accept" if accepted else "decline", now, token)

"""Both players' hands at a club's virtual board (sim/club_boards.py): a computer level
decides for each side in turn, and the hands do what a person at the board does: a roll
or a cube action is the player's action, each step of a move a checker lifted and placed
on the virtual board (a hit lays the blot on the bar first), the board set up when the
table asks. The controller learns of the checkers only through the board's readings, as on
the real board; the players themselves are people (the match's names), not the computer.
"""
from __future__ import annotations

from collections.abc import Callable

from controller.bot.base import Bot
from controller.engine.board_view import Colour, other, step_cells
from controller.engine.match import Match
from controller.engine.moves import Step
from controller.events import ActionName, ActionRequested, AskBot, BotCube, BotMoved, ButtonPressed
from controller.table import Table
from controller.table.computer import answer_with
from sim.hands import Hands

#: turns of the loop a state acted on is left to the table before the hands act again
RETRY_AFTER = 5


class ClubHands:
    """The two players at `table` on the virtual board under `hands`, deciding with `bot`."""

    def __init__(self, table: Table, hands: Hands, bot: Bot, *, playing: Callable[[], bool] = lambda: True) -> None:
        """`playing()`: whether there is a match to play now (a club board plays only the
        club's: the match its table opened with waits for an assignment)."""
        self.table, self.hands, self.bot, self.playing = table, hands, bot, playing
        self._steps: list[Step] = []  # the move being carried out, step by step
        self._done: object = None  # the state last acted on (one action each)
        self._waited = 0  # turns of the loop since, with the state unchanged

    def act(self) -> bool:
        """Do the next thing a player's hands would do now; whether anything was done."""
        status = self.table.controller.status()
        m, now = status.match, status.now
        if "setup" in self.hands.helpers():
            self.hands.setup()
            return True
        if status.settling or m.is_over or not self.playing():
            return False
        if status.awaits_landing and m.turn is not None:
            self.table.dispatch(ButtonPressed(m.turn, "main", now))  # a checker on a full point
            return True
        if m.phase == "move" and m.turn is not None and (m.steps or self._steps):
            if not self._steps and m.plan is not None:  # a move begun before (a restart): its rest
                self._steps = list(m.plan.next_steps(m.partial))[:1]
            return self._next_step(m.turn)
        key = (m, status.board)
        if key == self._done and self._waited < RETRY_AFTER:
            self._waited += 1  # acted in this very state: wait for the table (a tied opening
            return False       # roll leaves the match as it was: rolled again after a while)
        self._done, self._waited = key, 0
        return self._decide(m, now)

    def _decide(self, m: Match, now: float) -> bool:
        """The level's decision for the side that must act (`answer_with`, as the table
        asks its own computer), carried out."""
        if m.phase == "opening":
            self.table.dispatch(ActionRequested("white", "roll", now))
            return True
        side = m.turn
        if side is None:
            return False
        if m.phase == "roll":
            doubles = m.may_double(side) and _said(answer_with(self.bot, AskBot("cube", 0, side, m), now)) == "double"
            self.table.dispatch(ActionRequested(side, "double" if doubles else "roll", now))
            return True
        if m.phase in ("doubled", "resigning"):
            who = other(side)
            said = _said(answer_with(self.bot, AskBot("take" if m.phase == "doubled" else "resign", 0, who, m), now))
            answers: dict[str, ActionName] = {"take": "take", "drop": "drop", "accept": "accept", "decline": "decline"}
            if said in answers:
                self.table.dispatch(ActionRequested(who, answers[said], now))
            return True
        if m.phase != "move" or m.dice is None:
            return False
        answer = answer_with(self.bot, AskBot("move", 0, side, m), now)
        if isinstance(answer, BotMoved) and answer.move is not None:
            self._steps = list(answer.move.steps)
            return self._next_step(side)
        return True

    def _next_step(self, side: Colour) -> bool:
        """One step of the move, left to settle before the next (as hands do)."""
        if not self._steps:
            return False
        step = self._steps.pop(0)
        frm, to = step_cells(step, side)
        self.hands.carry_out(frm, to, side, step.hit)
        return True


def _said(answer: object) -> str:
    """The computer's cube or resignation answer ('' for none)."""
    return answer.action if isinstance(answer, BotCube) else ""

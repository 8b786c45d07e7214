"""The match at the table and how it moves on: one job of the controller.

Every change of the match goes through `apply` (a command of the pure, immutable
controller.engine.match.Match): a refused command is reported and changes nothing; an
accepted one is announced event by event, saved once, and the settled board read again
against the new match. Around the match this job keeps the table's own part of the flow:
whether the board is being set up, the computer's move being carried out, the last move's
lights, the opening tie, the automatic roll's time and the clock's warning: one frozen
`FlowState`, replaced whole at each change (so a copy read before an event is the state as
it was). Others read it and change it only through the methods below.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from controller.engine.board_view import Colour
from controller.engine.errors import MatchStateError
from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_events import GameWon, MatchWon, Moved, OpeningTie, RematchStarted, TimedOut
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.events import Announce, Buzz, Effect, Refused
from controller.inputs.menu import MenuState
from controller.play.rolls import Rolls
from controller.play.status import BotPlan
from controller.play.tracker import BoardTracker

Command = Callable[[Match], Transition]


class FlowSeat(Protocol):
    """What the match's flow reads of the table."""

    @property
    def now(self) -> float: ...
    @property
    def board(self) -> BoardTracker: ...
    @property
    def rolls(self) -> Rolls: ...
    @property
    def menu(self) -> MenuState: ...


@dataclass(frozen=True)
class FlowState:
    """The match flow's slice of the table's state: the match; whether the board is being set
    up to it (nothing is played meanwhile); whether the last move's lights stay on; the
    computer's (or the remote player's) move the person carries out now; the die both showed
    at the last opening roll (until the next action); when the automatic roll is due (None:
    none is); the clock's warning last given (so it is given once)."""

    match: Match
    setting_up: bool = True
    show_last: bool = True
    bot: BotPlan | None = None
    opening_tie: int | None = None
    roll_due: float | None = None
    warned: tuple[object, ...] | None = None


class MatchFlow:
    """The match and the table's flow around it (see the module docstring). `save` saves
    the match, `reread` reads the settled board against the match just changed, `forget`
    has the board read afresh (board sync owns it), `auto_roll_delay` is the pause before an automatic roll (the table's setting)."""

    def __init__(self, seat: FlowSeat, match: Match, *, save: Callable[[list[Effect]], None],
                 reread: Callable[[list[Effect]], None], forget: Callable[[], None],
                 auto_roll_delay: Callable[[], float]) -> None:
        self._seat = seat
        self._save, self._reread, self._forget, self._delay = save, reread, forget, auto_roll_delay
        self._state = FlowState(match)
        self.schedule_auto_roll()

    @property
    def state(self) -> FlowState:
        """The flow's slice of the table's state (a frozen value; see `FlowState`)."""
        return self._state

    def adopt(self, match: Match) -> None:
        """Play on from `match`; the board is first set up to its position."""
        self._state = replace(self._state, match=match, setting_up=True, bot=None)
        self.schedule_auto_roll()

    def swap(self, match: Match) -> None:
        """The match replaced as it stands (a test's or a tool's edit): nothing else changes."""
        self._state = replace(self._state, match=match)

    def set_up(self, out: list[Effect]) -> None:
        """The board stands as the match says: it is set up."""
        if self._state.setting_up:
            self._state = replace(self._state, setting_up=False)
            out.append(Announce("board set up"))

    def board_moved_on(self) -> None:
        """The board shows something other than the last move: its lights go out."""
        if self._state.show_last:
            self._state = replace(self._state, show_last=False)

    def carried_out(self, out: list[Effect]) -> None:
        """The board shows the move being carried out: it is played."""
        plan = self._state.bot
        if plan is not None:
            self._state = replace(self._state, bot=None)
            self.apply(lambda mm: mm.play(plan.side, plan.move, self._seat.now), out)

    def choose(self, side: Colour, move: Move, path: tuple[Position, ...], out: list[Effect]) -> bool:
        """The computer's (or the remote player's) move: chosen in the match, then carried
        out on the board along `path` (False: not a legal move, or its time ran out)."""
        # no clock runs while the person carries it out (RULES.md "Timer")
        if not self.apply(lambda mm: mm.choose(side, move, self._seat.now), out) or self._state.match.phase != "move":
            return False
        self._state = replace(self._state, bot=BotPlan(side, move, path))
        return True

    def apply(self, command: Command, out: list[Effect]) -> bool:
        """Run a match command; a refusal is reported and changes nothing."""
        try:
            transition = command(self._state.match)
        except MatchStateError as exc:
            out.append(Refused.from_error(exc))
            out.append(Buzz("error"))
            return False
        seat, before, after = self._seat, self._state.match, transition.match
        self._state = replace(self._state, match=after, opening_tie=next(
            (ev.die for ev in transition.events if isinstance(ev, OpeningTie)), None))
        for ev in transition.events:
            out.append(Announce(str(ev)))
            self._after_event(ev)
        if after.phase != before.phase or after.turn != before.turn or after.steps != before.steps \
                or after.game != before.game:
            self._forget()
        if after.is_over and seat.rolls.dice.reveal():
            out.append(Announce("dice seed revealed: the match is over"))
        if after is not before:
            self._save(out)
        if after.phase == "move" and before.phase != "move":
            seat.board.expectation(after, self._state.bot)  # built now, at the roll, not at the first lift
        self.schedule_auto_roll()
        if seat.board.settled is not None and after is not before:
            self._reread(out)
        return True

    def _after_event(self, ev: MatchEvent) -> None:
        state = self._state
        if isinstance(ev, Moved):
            self._state = replace(state, show_last=True)
        elif isinstance(ev, GameWon):
            self._state = replace(state, bot=None, setting_up=state.setting_up or not state.match.is_over)
        elif isinstance(ev, (MatchWon, TimedOut)):
            self._state = replace(state, bot=None)
        elif isinstance(ev, RematchStarted):
            self._seat.rolls.dice.begin(state.match)
            self._state = replace(state, setting_up=True, show_last=False)

    def schedule_auto_roll(self) -> None:
        m, due = self._state.match, self._state.roll_due
        if m.phase == "roll" and m.auto_roll:
            if due is None:
                self._state = replace(self._state, roll_due=self._seat.now + self._delay())
        elif due is not None:
            self._state = replace(self._state, roll_due=None)

    def auto(self, out: list[Effect]) -> None:
        """The automatic roll once its delay has passed; never while the menu is open (a
        player reaching for Resign at the start of the turn, RULES.md "Resigning"): it
        then waits its whole delay again from when the menu closes."""
        seat, m, due = self._seat, self._state.match, self._state.roll_due
        if due is not None and seat.menu.is_open:
            self._state = replace(self._state, roll_due=seat.now + self._delay())
            return
        if due is not None and seat.now + 1e-9 >= due and m.phase == "roll" \
                and m.turn is not None and seat.board.is_right():
            self._state = replace(self._state, roll_due=None)
            seat.rolls.roll(m.turn, out)

    def clock(self, out: list[Effect]) -> None:
        """Run the clock: a warning buzz once when the running side's time gets short,
        and the match lost on time (the match's own tick decides)."""
        now, before = self._seat.now, self._state.match
        if before.clock is None or before.is_over:
            return
        transition = before.tick(now)
        if transition.match is not before or transition.events:
            self.apply(lambda _: transition, out)
        m = self._state.match
        reading = m.clock_reading(now)
        key = (reading.running, m.game, len(m.history[-1].actions)) if reading is not None else None
        if reading is not None and reading.warning and reading.running is not None:
            if self._state.warned != key:
                self._state = replace(self._state, warned=key)
                out.append(Buzz("warning"))
                out.append(Announce(f"{reading.running}: time is running out"))

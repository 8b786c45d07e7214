"""The match at the table and how it moves on: one job of the controller.

Every change of the match goes through `apply` (a command of the pure, immutable
controller.engine.match.Match): a refused command is reported and changes nothing; an
accepted one is announced event by event, saved once, and the settled board read again
against the new match. Around the match this job keeps the table's own part of the flow:
whether the board is being set up, the computer's move being carried out, the last move's
lights, the opening tie, the automatic roll's time and the clock's warning. Others read
these and change them only through the methods below.
"""
from __future__ import annotations

from collections.abc import Callable
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


class MatchFlow:
    """The match and the table's flow around it (see the module docstring). `save` saves
    the match, `reread` reads the settled board against the match just changed,
    `auto_roll_delay` is the pause before an automatic roll (the table's setting)."""

    def __init__(self, seat: FlowSeat, match: Match, *, save: Callable[[list[Effect]], None],
                 reread: Callable[[list[Effect]], None], auto_roll_delay: Callable[[], float]) -> None:
        self._seat = seat
        self._save, self._reread, self._delay = save, reread, auto_roll_delay
        self._match = match
        self._setting_up = True
        self._show_last = True
        self._bot: BotPlan | None = None
        self._opening_tie: int | None = None  # the die both showed at the last opening roll, until the next action
        self._roll_due: float | None = None
        self._warned: object = None  # the clock's warning last given
        self.schedule_auto_roll()

    @property
    def match(self) -> Match:
        return self._match

    @property
    def setting_up(self) -> bool:
        """The board is being set up to the match's position (nothing is played meanwhile)."""
        return self._setting_up

    @property
    def show_last(self) -> bool:
        """The last move's lights stay on (until the board shows anything else)."""
        return self._show_last

    @property
    def bot(self) -> BotPlan | None:
        """The computer's (or the remote player's) move the person carries out now."""
        return self._bot

    @property
    def opening_tie(self) -> int | None:
        return self._opening_tie

    @property
    def roll_due(self) -> float | None:
        """When the automatic roll is due (None: none is)."""
        return self._roll_due

    def adopt(self, match: Match) -> None:
        """Play on from `match`; the board is first set up to its position."""
        self._match = match
        self._setting_up = True
        self._bot = None
        self.schedule_auto_roll()

    def swap(self, match: Match) -> None:
        """The match replaced as it stands (a test's or a tool's edit): nothing else changes."""
        self._match = match

    def set_up(self, out: list[Effect]) -> None:
        """The board stands as the match says: it is set up."""
        if self._setting_up:
            self._setting_up = False
            out.append(Announce("board set up"))

    def board_moved_on(self) -> None:
        """The board shows something other than the last move: its lights go out."""
        self._show_last = False

    def carried_out(self, out: list[Effect]) -> None:
        """The board shows the move being carried out: it is played."""
        plan, self._bot = self._bot, None
        if plan is not None:
            self.apply(lambda mm: mm.play(plan.side, plan.move, self._seat.now), out)

    def choose(self, side: Colour, move: Move, path: tuple[Position, ...], out: list[Effect]) -> bool:
        """The computer's (or the remote player's) move: chosen in the match, then carried
        out on the board along `path` (False: not a legal move, or its time ran out)."""
        # no clock runs while the person carries it out (RULES.md "Timer")
        if not self.apply(lambda mm: mm.choose(side, move, self._seat.now), out) or self._match.phase != "move":
            return False
        self._bot = BotPlan(side, move, path)
        return True

    def apply(self, command: Command, out: list[Effect]) -> bool:
        """Run a match command; a refusal is reported and changes nothing."""
        try:
            transition = command(self._match)
        except MatchStateError as exc:
            out.append(Refused.from_error(exc))
            out.append(Buzz("error"))
            return False
        seat, before = self._seat, self._match
        self._match = after = transition.match
        self._opening_tie = next((ev.die for ev in transition.events if isinstance(ev, OpeningTie)), None)
        for ev in transition.events:
            out.append(Announce(str(ev)))
            self._after_event(ev)
        if after.phase != before.phase or after.turn != before.turn or after.steps != before.steps \
                or after.game != before.game:
            seat.board.forget()
        if after.is_over and seat.rolls.dice.reveal():
            out.append(Announce("dice seed revealed: the match is over"))
        if after is not before:
            self._save(out)
        if after.phase == "move" and before.phase != "move":
            seat.board.expectation(after, self._bot)  # built now, at the roll, not at the first lift
        self.schedule_auto_roll()
        if seat.board.settled is not None and after is not before:
            self._reread(out)
        return True

    def _after_event(self, ev: MatchEvent) -> None:
        if isinstance(ev, Moved):
            self._show_last = True
        elif isinstance(ev, GameWon):
            if not self._match.is_over:
                self._setting_up = True
            self._bot = None
        elif isinstance(ev, (MatchWon, TimedOut)):
            self._bot = None
        elif isinstance(ev, RematchStarted):
            self._seat.rolls.dice.begin(self._match)
            self._setting_up = True
            self._show_last = False

    def schedule_auto_roll(self) -> None:
        m = self._match
        if m.phase == "roll" and m.auto_roll:
            if self._roll_due is None:
                self._roll_due = self._seat.now + self._delay()
        else:
            self._roll_due = None

    def auto(self, out: list[Effect]) -> None:
        """The automatic roll once its delay has passed; never while the menu is open (a
        player reaching for Resign at the start of the turn, RULES.md "Resigning"): it
        then waits its whole delay again from when the menu closes."""
        seat, m = self._seat, self._match
        if self._roll_due is not None and seat.menu.is_open:
            self._roll_due = seat.now + self._delay()
            return
        if self._roll_due is not None and seat.now + 1e-9 >= self._roll_due and m.phase == "roll" \
                and m.turn is not None and seat.board.is_right():
            self._roll_due = None
            seat.rolls.roll(m.turn, out)

    def clock(self, out: list[Effect]) -> None:
        """Run the clock: a warning buzz once when the running side's time gets short,
        and the match lost on time (the match's own tick decides)."""
        now = self._seat.now
        if self._match.clock is None or self._match.is_over:
            return
        transition = self._match.tick(now)
        if transition.match is not self._match or transition.events:
            self.apply(lambda _: transition, out)
        m = self._match
        reading = m.clock_reading(now)
        key = (reading.running, m.game, len(m.history[-1].actions)) if reading is not None else None
        if reading is not None and reading.warning and reading.running is not None:
            if self._warned != key:
                self._warned = key
                out.append(Buzz("warning"))
                out.append(Announce(f"{reading.running}: time is running out"))

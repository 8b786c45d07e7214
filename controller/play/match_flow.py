"""The match at the table and the table's flow around it: one job of the controller.

Its slice of the table's state is one frozen `FlowState`: the match, whether the board is
being set up, the computer's move being carried out, the last move's lights, the opening
tie, the automatic roll's time and the clock's warning. Every change of the match is a
command of the pure, immutable controller.engine.match.Match run by `run`: a refused command
is reported and changes nothing; an accepted one is announced event by event (what else it
brings about, saving and reading the board again, the table's step does:
controller/play/change.py). The functions here are pure: a slice and the facts they need in,
the next slice and the effects out.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.engine.board_view import Colour
from controller.engine.errors import MatchStateError
from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_events import GameWon, MatchWon, Moved, OpeningTie, RematchStarted, TimedOut
from controller.events import Announce, Buzz, Effect, Refused
from controller.play.status import BotPlan

Command = Callable[[Match], Transition]


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


@dataclass(frozen=True)
class Ran:
    """What running a command did: the flow after it, the effects to report, whether the
    match accepted it, and whether it began a rematch (the dice begin again)."""

    flow: FlowState
    effects: tuple[Effect, ...]
    ok: bool
    rematch: bool = False


def started(match: Match, now: float, delay: float) -> FlowState:
    """The flow of a match just seated: the board is set up to it first."""
    return schedule_auto_roll(FlowState(match), now, delay)


def adopt(flow: FlowState, match: Match, now: float, delay: float) -> FlowState:
    """Play on from `match`; the board is first set up to its position."""
    return schedule_auto_roll(replace(flow, match=match, setting_up=True, bot=None), now, delay)


def set_up(flow: FlowState) -> tuple[FlowState, tuple[Effect, ...]]:
    """The board stands as the match says: it is set up."""
    if not flow.setting_up:
        return flow, ()
    return replace(flow, setting_up=False), (Announce("board set up"),)


def moved_on(flow: FlowState) -> FlowState:
    """The board shows something other than the last move: its lights go out."""
    return replace(flow, show_last=False) if flow.show_last else flow


def run(flow: FlowState, command: Command) -> Ran:
    """Run a match command; a refusal is reported and changes nothing."""
    try:
        transition = command(flow.match)
    except MatchStateError as exc:
        return Ran(flow, (Refused.from_error(exc), Buzz("error")), ok=False)
    after = transition.match
    flow = replace(flow, match=after, opening_tie=next(
        (ev.die for ev in transition.events if isinstance(ev, OpeningTie)), None))
    rematch = False
    for ev in transition.events:
        flow = _after_event(flow, ev)
        rematch = rematch or isinstance(ev, RematchStarted)
    return Ran(flow, tuple(Announce(str(ev)) for ev in transition.events), ok=True, rematch=rematch)


def _after_event(flow: FlowState, ev: MatchEvent) -> FlowState:
    if isinstance(ev, Moved):
        return replace(flow, show_last=True)
    if isinstance(ev, GameWon):
        return replace(flow, bot=None, setting_up=flow.setting_up or not flow.match.is_over)
    if isinstance(ev, (MatchWon, TimedOut)):
        return replace(flow, bot=None)
    if isinstance(ev, RematchStarted):
        return replace(flow, setting_up=True, show_last=False)
    return flow


def schedule_auto_roll(flow: FlowState, now: float, delay: float) -> FlowState:
    """The automatic roll's time: due `delay` from now when the match waits for one."""
    m, due = flow.match, flow.roll_due
    if m.phase == "roll" and m.auto_roll:
        return flow if due is not None else replace(flow, roll_due=now + delay)
    return flow if due is None else replace(flow, roll_due=None)


def auto_roll(flow: FlowState, now: float, delay: float, *, menu_open: bool,
              board_right: bool) -> tuple[FlowState, Colour | None]:
    """The side whose automatic roll is due now (None: none is). Never while the menu is
    open (a player reaching for Resign at the start of the turn, RULES.md "Resigning"): it
    then waits its whole delay again from when the menu closes."""
    m, due = flow.match, flow.roll_due
    if due is not None and menu_open:
        return replace(flow, roll_due=now + delay), None
    if due is not None and now + 1e-9 >= due and m.phase == "roll" and m.turn is not None and board_right:
        return replace(flow, roll_due=None), m.turn
    return flow, None


def clock_runs(flow: FlowState) -> bool:
    """The match has a clock and is not over: it runs (RULES.md "Timer")."""
    return flow.match.clock is not None and not flow.match.is_over


def clock_transition(flow: FlowState, now: float) -> Transition | None:
    """The match's own clock tick at `now` when it changes something (a game lost on time)."""
    before = flow.match
    transition = before.tick(now)
    return transition if transition.match is not before or transition.events else None


def clock_warning(flow: FlowState, now: float) -> tuple[FlowState, tuple[Effect, ...]]:
    """A warning buzz once when the running side's time gets short."""
    m = flow.match
    reading = m.clock_reading(now)
    key = (reading.running, m.game, len(m.history[-1].actions)) if reading is not None else None
    if reading is None or not reading.warning or reading.running is None or flow.warned == key:
        return flow, ()
    return replace(flow, warned=key), (Buzz("warning"), Announce(f"{reading.running}: time is running out"))

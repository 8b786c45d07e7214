"""A change of the match, and what it brings about at the table: the bottom of the table's step.

Every change of the match goes through `apply` (a command of the pure
controller.engine.match.Match, run by the match flow): a refused command is reported and
changes nothing; an accepted one is announced event by event, a rematch's dice begin
again, the board is read afresh when the turn moved on, a match's end reveals verifiable
dice, the match is saved once, the automatic roll is scheduled and the settled board is
read again against the new match (`reread`). Seating another match (`adopt_match`,
`start_match`) comes down to the same. Each is a pure function, a state in and the state
after with the effects out; nothing here calls a job that calls back.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from controller.board.reconcile import Matched
from controller.engine.match import Match
from controller.events import Announce, Effect, SaveMatch
from controller.play import match_flow, tracker
from controller.play.match_flow import Command
from controller.play.table_state import TableState

Stepped = tuple[TableState, list[Effect]]


@dataclass(frozen=True)
class Applied:
    """The state after a match command, its effects, and whether the match accepted it."""

    state: TableState
    effects: list[Effect]
    ok: bool


def save(state: TableState) -> list[Effect]:
    """Save the match (with its verifiable dice's secret), unless this table saves nothing."""
    return [SaveMatch(state.match, state.dice.secret)] if state.table.save else []


def apply(state: TableState, command: Command) -> Applied:
    """Run a match command (see the module docstring)."""
    before = state.match
    ran = match_flow.run(state.flow, command)
    if not ran.ok:
        return Applied(state, list(ran.effects), ok=False)
    out = list(ran.effects)
    after = ran.flow.match
    dice = state.dice.begin(after) if ran.rematch else state.dice
    board = state.board
    if after.phase != before.phase or after.turn != before.turn or after.steps != before.steps \
            or after.game != before.game:
        board = board.forget()
    revealed = dice.revealed() if after.is_over else None
    if revealed is not None:
        dice = revealed
        out.append(Announce("dice seed revealed: the match is over"))
    state = replace(state, flow=ran.flow, dice=dice, board=board)
    if after is not before:
        out += save(state)
    if after.phase == "move" and before.phase != "move":
        tracker.expectation(after, state.flow.bot)  # built now, at the roll, not at the first lift
    state = replace(state, flow=match_flow.schedule_auto_roll(state.flow, state.now, state.config.auto_roll_delay_s))
    if state.board.settled is not None and after is not before:
        state, more = reread(state)
        out += more
    return Applied(state, out, ok=True)


def reread(state: TableState) -> Stepped:
    """After the match changed, read the same settled board against the new state
    (without acting again on it: only the verdict and hints change). A board being set
    up that already stands as the new match says is set up (a rematch after a forfeit
    before any checker moved: nobody need touch a checker for the board to count)."""
    settled = state.board.settled
    if settled is None:
        return state, []
    verdict = tracker.read(settled, state.match, state.flow.bot)[1]
    state = replace(state, board=state.board.judged(verdict))
    if not (isinstance(verdict, Matched) and verdict.is_exact):
        return state, []
    flow, said = match_flow.set_up(state.flow)
    return replace(state, flow=flow), list(said)


def adopt_match(state: TableState, match: Match) -> Stepped:
    """Play on from `match`; the board is first set up to its position."""
    state = replace(state, flow=match_flow.adopt(state.flow, match, state.now, state.config.auto_roll_delay_s),
                    board=state.board.forget(), computer=state.computer.forget())
    out = save(state)
    state, more = reread(state)
    return state, out + more


def start_match(state: TableState, match: Match) -> Stepped:
    """Start `match` (new, or from a score) with new dice; the board is first set up to it."""
    state = replace(state, dice=state.dice.begin(match))
    state, out = adopt_match(state, match)
    return state, [Announce(f"new match to {match.settings.length}")] + out

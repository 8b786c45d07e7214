"""The board kept in step with the match: part of the table's step.

Readings are settled on the event's time (a reading counts when it has been quiet for the
settling time); the settled board is reconciled with the match (controller.play.tracker,
controller.board.reconcile) and what it shows is played: the steps of a person's move (undo
included, as one transition), the end of setting up, the computer's move carried out. A
checker lifted lights its targets at once (`reading`); while a server match is watched
readings are kept and settle but nothing is read from them (`kept`).
"""
from __future__ import annotations

from dataclasses import replace

from controller.board.reconcile import Matched, Mismatch
from controller.engine.board_view import Colour
from controller.engine.match_settings import HUMAN
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.events import Announce, Buzz, Effect, ReadingReceived
from controller.play import match_flow, tracker
from controller.play.change import Stepped, apply, reread
from controller.play.status import BotPlan
from controller.play.stepping import sync
from controller.play.table_state import TableState


def reading(state: TableState, event: ReadingReceived) -> TableState:
    """A reading of the board: kept, and what is lifted told (not while setting up)."""
    observed = state.board.observed(event.board, event.at)
    if observed is None:
        return state
    flow = state.flow
    in_air = None if flow.setting_up else tracker.in_the_air(observed, event.board, flow.match, flow.bot)
    return replace(state, board=observed.lifted(in_air))


def kept(state: TableState, event: ReadingReceived | None) -> TableState:
    """While a server match is watched: a reading (None: time passing) is kept and settles
    (to set the board up afterwards) but nothing is read from it."""
    board = state.board
    if event is not None:
        board = board.observed(event.board, event.at) or board
    elif board.due(state.now, state.config.settle_s):
        board = board.settle()
    return replace(state, board=board)


def settle(state: TableState) -> Stepped:
    """A reading quiet for the settling time is settled and reconciled."""
    if not state.board.due(state.now, state.config.settle_s):
        return state, []
    return reconcile(replace(state, board=state.board.settle()))


def reconcile(state: TableState) -> Stepped:
    """Reconcile the settled board with the match and act on what it shows."""
    settled = state.board.settled
    if settled is None:
        return state, []
    m, bot = state.match, state.flow.bot
    current, verdict = tracker.read(settled, m, bot)
    previous = state.board.verdict
    exact = isinstance(verdict, Matched) and verdict.is_exact
    state = replace(state, board=state.board.judged(verdict),
                    tutor=state.tutor.board_shows(verdict.position if isinstance(verdict, Matched) and exact else None))
    out: list[Effect] = []
    if isinstance(verdict, Mismatch) and not isinstance(previous, Mismatch) and not state.flow.setting_up:
        out.append(Buzz("error"))
    if not isinstance(verdict, Matched):
        return state, out
    flow = state.flow
    if exact:
        flow, said = match_flow.set_up(flow)
        out += said
    if verdict.in_hand is not None or verdict.position != current or not exact:
        flow = match_flow.moved_on(flow)
    state = replace(state, flow=flow)
    if not exact:
        return state, out
    if bot is not None:
        if verdict.position == bot.move.result:
            state, more = carried_out(state)
            out += more
        return state, out
    if m.phase == "move" and m.turn is not None and verdict.position != m.partial \
            and m.settings.player(m.turn) == HUMAN:
        state, more = sync(state, verdict.position)  # the computer's moves are played whole
        out += more
    return state, out


def carried_out(state: TableState) -> Stepped:
    """The board shows the move being carried out: it is played."""
    plan, now = state.flow.bot, state.now
    if plan is None:
        return state, []
    applied = apply(replace(state, flow=replace(state.flow, bot=None)),
                    lambda mm: mm.play(plan.side, plan.move, now))
    return applied.state, applied.effects


def carry_out(state: TableState, side: Colour, move: Move, path: tuple[Position, ...]) -> Stepped:
    """The computer's (or the remote player's) chosen move: chosen in the match (no clock
    runs while the person carries it out, RULES.md "Timer"), then carried out on the board
    along `path`, shown on the LEDs."""
    now = state.now
    applied = apply(state, lambda mm: mm.choose(side, move, now))
    state, out = applied.state, applied.effects
    if not applied.ok or state.match.phase != "move":
        return state, out  # not a legal move, or its time ran out while it thought
    state = replace(state, flow=replace(state.flow, bot=BotPlan(side, move, path)), board=state.board.forget())
    out.append(Announce(f"{side} (computer) plays {move.notation}"))
    state, more = reread(state)
    out += more
    verdict = state.board.verdict
    if isinstance(verdict, Matched) and verdict.is_exact and verdict.position == move.result:
        state, more = reconcile(state)
        out += more
    return state, out

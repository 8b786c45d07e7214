"""The steps a settled board shows, played: part of the table's step.

`sync` plays (or takes back) the steps that bring the match's partial position to the one
the board shows, as one transition: however many steps one settled reading implies, the
match is saved once and the board read once more against the result. With confirm
``auto`` and the tutor warning about the move the board completes, the step that would
end the turn is held back (controller.play.tutor) until the player keeps the move.
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_events import Stepped as StepTaken
from controller.engine.position import Position
from controller.events import Announce
from controller.play import facts, tutor
from controller.play.change import Stepped, apply
from controller.play.table_state import TableState


def sync(state: TableState, target: Position, judge: bool = True) -> Stepped:
    """Bring the match to the board's `target` (see the module docstring); `judge`: the
    tutor may hold the move it completes (not when the player keeps a held move)."""
    plan, m = facts.turn_plan(state), state.match
    if plan is None or m.turn is None:
        return state, []
    side, now = m.turn, state.now
    warning = tutor.move_warning(m, target, state.config.tutor) \
        if judge and m.settings.confirm == "auto" and plan.is_complete(target) else None

    def walk(mm: Match) -> Transition:
        events: list[MatchEvent] = []
        path = plan.path(mm.partial, target)
        while path is None and mm.steps:
            mm, said = mm.undo(side, now)
            events += said
            path = plan.path(mm.partial, target)
        for step in path or ():
            if mm.phase != "move":
                break  # the turn ended (the last step completed the move)
            after, said = mm.step(side, step, now)
            if warning is not None and any(isinstance(e, StepTaken) and e.complete for e in said):
                break  # the tutor holds the move before it is confirmed
            mm = after
            events += said
        return Transition(mm, tuple(events))

    applied = apply(state, walk)
    state, out = applied.state, applied.effects
    if warning is not None and state.match.phase == "move" and state.match.turn == side:
        state = replace(state, tutor=tutor.held_move(state.match, target, warning))
        out.append(Announce(f"tutor: {side}'s move loses {warning.loss:.3f} ({warning.mark}): keep or undo"))
    return state, out

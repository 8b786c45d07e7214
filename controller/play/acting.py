"""The players' actions at the table: checked, refused with the reason, held by the tutor,
or carried out. Part of the table's step.

What each player may do now is controller.play.possible's list (facts.possible_actions); an
action not on it is refused with the table's reason (the computer plays that side, the board
is not right, a move is being carried out) or else the match's own. An action the tutor
warns about waits (controller.play.tutor) until the player keeps or undoes it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from controller.engine.board_view import Colour
from controller.engine.errors import MatchStateError
from controller.engine.match import Match, Transition
from controller.engine.match_settings import HUMAN
from controller.events import Announce, Buzz, Effect, Refused
from controller.play import facts, possible, tutor
from controller.play.change import Stepped, apply
from controller.play.rolling import reveal, roll
from controller.play.stepping import sync
from controller.play.table_state import TableState
from controller.play.tutor import TutorState


def match_command(side: Colour, action: str, level: str | None,
                  now: float) -> Callable[[Match], Transition] | None:
    """The match command of a player's action (None: no such action); a roll here is
    only a probe of whether rolling is allowed (the real dice come from the dice)."""
    commands: dict[str, Callable[[Match], Transition]] = {
        "roll": lambda mm: mm.roll(side, (1, 2), now),
        "done": lambda mm: mm.done(side, now),
        "double": lambda mm: mm.double(side, now),
        "take": lambda mm: mm.take(side, now),
        "drop": lambda mm: mm.drop(side, now),
        "accept": lambda mm: mm.accept(side, now),
        "decline": lambda mm: mm.decline(side, now),
        "forfeit": lambda mm: mm.forfeit(side, now),
        "rematch": lambda mm: mm.rematch(side, now),
        "resign": lambda mm: mm.resign(side, level or "single", now),
    }
    return commands.get(action)


def act(state: TableState, side: Colour, action: str, level: str | None, by_bot: bool = False) -> Stepped:
    """Carry out a player's action if it is possible now (the computer's own answers
    go straight to the match, which checks them); otherwise refuse it with the reason.
    Revealing the dice's seed is the table's, not the match's: either player may."""
    if action == "reveal":
        return reveal(state)
    if not by_bot and possible.find(facts.possible_actions(state), side, action, level) is None:
        return state, [refusal(state, side, action, level), Buzz("error")]
    if action in ("keep", "undo"):
        return _answer_tutor(state, side, action == "keep")
    if not by_bot and not (action == "roll" and state.dice.entered):
        # a roll of real dice keyed in is never held: those dice are already out
        held = tutor.cube_hold(state.match, side, action, state.config.tutor)
        if held is not None:
            warning = held.warning
            return replace(state, tutor=TutorState(held)), [
                Announce(f"tutor: {side}'s {action} loses {warning.loss:.3f} ({warning.mark}): keep or undo")]
    if action == "roll":
        return roll(state, side)
    command = match_command(side, action, level, state.now)
    if command is None:
        return state, [Refused.of(f"unknown action {action!r}", "unknown_action")]
    applied = apply(state, command)
    return applied.state, applied.effects


def _answer_tutor(state: TableState, side: Colour, keep: bool) -> Stepped:
    """Keep the action the tutor holds (it counts as pressed) or undo it (a cube
    action: nothing happened; a move is undone by moving its checkers back)."""
    held = facts.tutor_hold(state)
    state = replace(state, tutor=TutorState())
    if held is None:
        return state, []
    action = held.warning.action
    out: list[Effect] = [Announce(f"{side} {'keeps' if keep else 'takes back'} the {action} the tutor warned about")]
    if not keep:
        return state, out
    now = state.now
    if action == "roll":
        state, more = roll(state, side)
    elif not held.is_move:
        command = match_command(side, action, None, now)
        assert command is not None
        applied = apply(state, command)
        state, more = applied.state, applied.effects
    elif state.match.move_complete:
        applied = apply(state, lambda mm: mm.done(side, now))  # confirm button: done
        state, more = applied.state, applied.effects
    elif held.target is not None:
        state, more = sync(state, held.target, judge=False)
    else:
        more = []
    return state, out + more


def refusal(state: TableState, side: Colour, action: str, level: str | None) -> Refused:
    """Why `side` may not `action` now: the table's reason, else the match's own."""
    m = state.match
    if action not in possible.ACTION_NAMES:
        return Refused.of(f"unknown action {action!r}", "unknown_action")
    if facts.player(state, side) != HUMAN:
        return Refused.of(f"{side} is played by the computer", "computer_plays", side=side)
    if state.flow.bot is not None:
        return Refused.of(f"{side} cannot {action} now: the computer's move is being carried out", "carrying_out")
    if action == "roll" and m.phase in ("opening", "roll") and not facts.board_ready(state):
        return Refused.of(f"{side} cannot roll: put the board right first", "board_not_ready")
    if action in ("keep", "undo"):
        held = facts.tutor_hold(state)
        if held is not None and held.side == side and held.is_move:
            return Refused.of(f"{side} undoes the move by moving the checkers back", "undo_by_hand")
        return Refused.of(f"{side} cannot {action}: the tutor holds no action of {side}'s", "tutor_holds_none")
    if action == "done" and m.phase == "move" and m.turn == side and m.move_complete:
        return Refused.of(f"{side} cannot end the turn: the board is not right", "board_not_right")
    probe = match_command(side, action, level, state.now)
    try:
        if probe is not None:
            probe(m)
    except MatchStateError as exc:
        return Refused.from_error(exc)
    return Refused.of(f"{side} cannot {action} now", "not_now")

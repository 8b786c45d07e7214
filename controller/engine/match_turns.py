"""A turn of the match: the roll (the opening roll included), checker steps and undo, a
whole move played or chosen, the confirmation, and the turn passing to the opponent."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour, other
from controller.engine.dice import check_dice
from controller.engine.errors import InvalidDiceError, MatchStateError
from controller.engine.match_end import begin, end_game, game_result, record, timed_out
from controller.engine.match_events import (
    Event,
    GameStarted,
    Moved,
    MoveChosen,
    NoMove,
    OpeningTie,
    Rolled,
    Stepped,
    TurnStarted,
    Undone,
)
from controller.engine.match_guard import need_phase, need_turn
from controller.engine.match_history import TurnRecord
from controller.engine.match_state import LEVELS, LastMove, M, Outcome
from controller.engine.move_text import format_move
from controller.engine.moves import Move, Step
from controller.engine.position import BAR, Position


def start_turn(m: M, side: Colour, position: Position, now: float, events: tuple[Event, ...],
               last_move: LastMove) -> Outcome[M]:
    """`side` is on turn at `position`, to roll (or double, or resign)."""
    nxt = replace(m, phase="roll", turn=side, position=position, partial=position, dice=None,
                  steps=(), resign_level=None, declined=0, resume=None, resume_used=0.0,
                  clock=begin(m, side, now), last_move=last_move)
    return nxt, events + (TurnStarted(side, nxt.auto_roll),)


def start_move(m: M, side: Colour, dice: tuple[int, int], now: float,
               events: tuple[Event, ...]) -> Outcome[M]:
    """Dice are showing for `side`: move, or pass at once when nothing can be played."""
    nxt = replace(m, phase="move", turn=side, dice=dice, steps=(), partial=m.position)
    if not nxt.legal_moves():
        return end_turn(nxt, (), now, events + (NoMove(side, dice),), moved=False)
    return nxt, events


def end_turn(m: M, steps: tuple[Step, ...], now: float, events: tuple[Event, ...],
             moved: bool = True) -> Outcome[M]:
    """The side on turn has played `steps` (possibly none): record, then game end or
    the opponent's turn."""
    side = m.turn
    assert side is not None and m.dice is not None
    opening = not any(isinstance(a, TurnRecord) for a in m.history[-1].actions)
    history = record(m, TurnRecord(side, m.dice, steps, opening))
    after = m.position
    for s in steps:
        after = after.after(s)
    if moved:
        events = events + (Moved(side, m.dice, steps),)
    clock = None if m.clock is None else m.clock.finish(now, moved)
    played = replace(m, history=history, clock=clock, partial=after, steps=steps)
    if sum(after.mine) == 0:
        result = game_result(after)
        return end_game(played, side, "bearoff", result, (LEVELS.index(result) + 1) * m.cube, now, events)
    # what the next player sees as the opponent's last move (no steps: a pass)
    return start_turn(played, other(side), after.swap(), now, events, LastMove(side, m.dice, steps))


def roll(m: M, side: Colour, dice: tuple[int, int], now: float) -> Outcome[M]:
    """The opening roll (either side; `dice` are White's die then Black's) or the side on
    turn's roll before moving."""
    try:
        dice = check_dice(tuple(dice))  # type: ignore[arg-type]
    except InvalidDiceError as exc:
        raise MatchStateError(str(exc), "bad_dice") from None
    if (t := timed_out(m, now)) is not None:
        return t
    need_phase(m, "roll", "opening", "roll")
    if m.phase == "opening":
        white_die, black_die = dice
        if white_die == black_die:
            return m, (OpeningTie(white_die),)
        starter: Colour = "white" if white_die > black_die else "black"
        fresh = Position.initial()
        opened = replace(m, turn=starter, position=fresh, partial=fresh,
                         clock=begin(m, starter, now), rematch_offer=None)
        return start_move(opened, starter, dice, now, (GameStarted(m.game, starter, dice, m.crawford),))
    need_turn(m, side, "roll")
    return start_move(replace(m, clock=begin(m, side, now)), side, dice, now, (Rolled(side, dice),))


def step(m: M, side: Colour, wanted: Step, now: float) -> Outcome[M]:
    """One checker step of the roll (mover's numbering; `wanted.die` chooses between dice
    that make the same step, else the lowest die that is legal)."""
    if (t := timed_out(m, now)) is not None:
        return t
    need_phase(m, "move a checker", "move")
    need_turn(m, side, "move")
    plan = m.plan
    assert plan is not None and m.dice is not None
    choices = [s for s in plan.next_steps(m.partial) if s.frm == wanted.frm and s.to == wanted.to]
    if not choices:
        done = " (the move is complete: done or undo)" if m.move_complete else ""
        raise MatchStateError(f"{side} cannot move {format_move((Step(wanted.frm, wanted.to, wanted.die),))} with "
                              f"{m.dice[0]}-{m.dice[1]} here{done}",
                              "move_complete" if done else "illegal_step", dice=tuple(m.dice))
    exact = [s for s in choices if s.die == wanted.die]
    chosen = exact[0] if exact else min(choices, key=lambda s: s.die)
    nxt = replace(m, steps=m.steps + (chosen,), partial=m.partial.after(chosen))
    complete = nxt.move_complete
    events: tuple[Event, ...] = (Stepped(side, chosen, complete),)
    if complete and (m.settings.confirm == "auto" or sum(nxt.partial.mine) == 0):
        return end_turn(nxt, nxt.steps, now, events)
    return nxt, events


def undo(m: M, side: Colour, now: float) -> Outcome[M]:
    """Take back the last step of this turn."""
    if (t := timed_out(m, now)) is not None:
        return t
    need_phase(m, "undo", "move")
    need_turn(m, side, "undo")
    if not m.steps:
        raise MatchStateError(f"{side} has no step to undo this turn", "nothing_to_undo")
    steps = m.steps[:-1]
    partial = m.position
    for s in steps:
        partial = partial.after(s)
    return replace(m, steps=steps, partial=partial), (Undone(side, m.steps[-1]),)


def _whole_move(m: M, side: Colour, move: Move, action: str) -> tuple[Step, ...]:
    """The steps that play `move`, a whole legal move of the side on turn before any
    single step (MatchStateError naming why not)."""
    need_phase(m, action, "move")
    need_turn(m, side, "move")
    assert m.dice is not None
    if m.steps:
        raise MatchStateError(f"{side} has already moved checkers this turn: finish with steps or undo them",
                              "steps_played")
    if any(x is move for x in m.legal_moves()):  # one of ours: legal by construction
        return move.steps
    legal = m.cached("results", lambda: {x.result: x for x in m.legal_moves()})
    found = legal.get(move.result)
    if found is None:
        raise MatchStateError(f"{side} cannot play {move.notation} with {m.dice[0]}-{m.dice[1]}: not a legal move",
                              "illegal_move", notation=move.notation, dice=tuple(m.dice))
    return move.steps if _replays(m.position, move) else found.steps


def play(m: M, side: Colour, move: Move, now: float) -> Outcome[M]:
    """Play a whole legal move at once (a typed move, the computer's); ends the turn in
    either confirm mode. Not after single steps: finish or undo those."""
    if (t := timed_out(m, now)) is not None:
        return t
    return end_turn(m, _whole_move(m, side, move, "play a move"), now, ())


def choose(m: M, side: Colour, move: Move, now: float) -> Outcome[M]:
    """The move is decided (the computer's, a remote player's) but not yet on the board:
    the mover's action ends as a completed move (the timer's bank grows as for any move)
    and no clock runs until ``play`` carries it out."""
    if (t := timed_out(m, now)) is not None:
        return t
    steps = _whole_move(m, side, move, "choose a move")
    assert m.dice is not None
    clock = None if m.clock is None else m.clock.finish(now, moved=True)
    return replace(m, clock=clock), (MoveChosen(side, m.dice, steps),)


def done(m: M, side: Colour, now: float) -> Outcome[M]:
    """Confirm a complete move (confirm mode ``button``): the turn ends."""
    if (t := timed_out(m, now)) is not None:
        return t
    need_phase(m, "confirm a move", "move")
    need_turn(m, side, "confirm a move")
    if not m.move_complete:
        raise MatchStateError(f"{side} cannot end the turn: the move is not complete", "move_incomplete")
    return end_turn(m, m.steps, now, ())


def _replays(position: Position, move: Move) -> bool:
    """Whether `move.steps` really lead from `position` to `move.result` (steps given by a
    caller are kept in the history only when they are true)."""
    at = position
    try:
        for s in move.steps:
            if s.frm == 25:
                if not at.mine[BAR]:
                    return False
            elif not 1 <= s.frm <= 24 or not at.mine[s.frm - 1]:
                return False
            at = at.after(s)
    except (IndexError, ValueError):
        return False
    return at == move.result

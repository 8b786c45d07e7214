"""The doubling cube's commands (RULES.md "Doubling cube"): offer a double before rolling,
take it (the cube doubles and goes to the taker) or drop it (the game ends)."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour, other
from controller.engine.errors import MatchStateError, ReasonParam
from controller.engine.match_end import begin, end_game, record, timed_out
from controller.engine.match_events import DoubleDropped, DoubleOffered, DoubleTaken, TurnStarted
from controller.engine.match_guard import need_phase, need_turn
from controller.engine.match_history import CubeRecord
from controller.engine.match_settings import CUBE_CAP
from controller.engine.match_state import M, MatchState, Outcome


def _why_not(m: MatchState, side: Colour) -> MatchStateError:
    """Why `side`, on turn to roll, may not double (in the order a player would ask)."""
    params: dict[str, ReasonParam] = {}
    if not m.settings.cube:
        why, key = "the cube is off in this match", "cube_off"
    elif m.settings.length == 1:
        why, key = "there is no cube in a 1-point match", "cube_one_point"
    elif m.crawford:
        why, key = "there is no doubling in the Crawford game", "cube_crawford"
    elif m.cube >= CUBE_CAP:
        why, key, params = f"the cube is at {CUBE_CAP}, as high as it goes", "cube_cap", {"value": CUBE_CAP}
    elif m.cube_owner not in (None, side):
        why, key, params = f"{m.cube_owner} owns the cube", "cube_owned", {"side": m.cube_owner}
    else:
        why, key, params = f"{side} plays with auto-roll", "cube_auto_roll", {"side": side}
    return MatchStateError(f"{side} cannot double: {why}", key, **params)


def double(m: M, side: Colour, now: float) -> Outcome[M]:
    """Offer a double before rolling."""
    if (t := timed_out(m, now)) is not None:
        return t
    need_phase(m, "double", "roll")
    need_turn(m, side, "double")
    if not m.may_double(side):
        raise _why_not(m, side)
    nxt = replace(m, phase="doubled", history=record(m, CubeRecord(side, "double", m.cube * 2)),
                  clock=begin(m, other(side), now))
    return nxt, (DoubleOffered(side, m.cube * 2),)


def _need_answer(m: MatchState, side: Colour, action: str) -> None:
    need_phase(m, action, "doubled")
    if side == m.turn:
        raise MatchStateError(f"{side} cannot {action}: {side} doubled, {other(side)} must answer",
                              "answers_double", side=other(side))


def take(m: M, side: Colour, now: float) -> Outcome[M]:
    """Take the double: the cube doubles and goes to the taker."""
    if (t := timed_out(m, now)) is not None:
        return t
    _need_answer(m, side, "take")
    value = m.cube * 2
    nxt = replace(m, phase="roll", cube=value, cube_owner=side,
                  history=record(m, CubeRecord(side, "take", value)),
                  clock=begin(m, other(side), now))
    return nxt, (DoubleTaken(side, value), TurnStarted(other(side), nxt.auto_roll))


def drop(m: M, side: Colour, now: float) -> Outcome[M]:
    """Drop the double: the doubler wins the cube's value before the double."""
    if (t := timed_out(m, now)) is not None:
        return t
    _need_answer(m, side, "drop")
    dropped = replace(m, history=record(m, CubeRecord(side, "drop", m.cube)))
    return end_game(dropped, other(side), "drop", "single", m.cube, now, (DoubleDropped(side),))

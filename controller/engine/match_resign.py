"""Resigning (RULES.md "Resigning"): offered at the start of one's own turn before
rolling, as single, gammon or backgammon; accepted (the game ends) or declined (play on,
and only a higher level may be offered this turn); a backgammon is accepted at once.
Forfeit gives up the whole match. After the match, accept and decline answer a rematch."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour, other
from controller.engine.errors import MatchStateError
from controller.engine.match_end import begin, end_game, finish_match, record, timed_out
from controller.engine.match_events import Event, Forfeited, ResignAccepted, ResignDeclined, ResignOffered
from controller.engine.match_guard import need_phase, need_turn
from controller.engine.match_history import ResignRecord
from controller.engine.match_rematch import accept as accept_rematch
from controller.engine.match_rematch import decline as decline_rematch
from controller.engine.match_state import LEVELS, M, MatchState, Outcome


def resign(m: M, side: Colour, level: str, now: float) -> Outcome[M]:
    """Offer to resign the game as single, gammon or backgammon (own turn only; after a
    decline only a higher level this turn). A backgammon is accepted at once."""
    if level not in LEVELS:
        raise MatchStateError(f"unknown resignation {level!r}: single, gammon or backgammon", "bad_resignation")
    if (t := timed_out(m, now)) is not None:
        return t
    if m.phase == "move" and m.turn == side:
        raise MatchStateError(f"{side} cannot resign now: a resignation is offered at the start of "
                              f"one's own turn, before rolling, and {side} has rolled "
                              f"{m.dice[0]}-{m.dice[1]}", "resign_before_roll")  # type: ignore[index]
    need_phase(m, "resign", "roll")
    need_turn(m, side, "resign")
    rank = LEVELS.index(level) + 1
    if rank <= m.declined:
        raise MatchStateError(f"{side} cannot offer {level}: {LEVELS[m.declined - 1]} was declined "
                              "this turn, only a higher resignation may be offered", "resign_higher",
                              result=LEVELS[m.declined - 1])
    events: tuple[Event, ...] = (ResignOffered(side, level),)
    offered = replace(m, history=record(m, ResignRecord(side, "offer", level)))
    if level == "backgammon":
        offered = replace(offered, history=record(offered, ResignRecord(other(side), "accept", level)))
        return end_game(offered, other(side), "resign", level, 3 * m.cube, now,
                        events + (ResignAccepted(other(side), level, True),))
    used = 0.0 if m.clock is None else m.clock.used(side, now)
    offered = replace(offered, phase="resigning", resign_level=level, resume=m.phase, resume_used=used,
                      clock=begin(m, other(side), now))
    return offered, events


def _need_answer(m: MatchState, side: Colour, action: str) -> str:
    """The pending level, if `side` is the one to answer it."""
    need_phase(m, action, "resigning")
    if side == m.turn:
        raise MatchStateError(f"{side} cannot {action}: {side} offered the resignation", "answers_resignation",
                              side=other(side))
    assert m.resign_level is not None
    return m.resign_level


def accept(m: M, side: Colour, now: float) -> Outcome[M]:
    """Accept the pending resignation (the game ends), or the other side's rematch."""
    if m.phase == "over":
        return accept_rematch(m, side)
    if (t := timed_out(m, now)) is not None:
        return t
    level = _need_answer(m, side, "accept")
    accepted = replace(m, history=record(m, ResignRecord(side, "accept", level)))
    return end_game(accepted, side, "resign", level, (LEVELS.index(level) + 1) * m.cube, now,
                    (ResignAccepted(side, level, False),))


def decline(m: M, side: Colour, now: float) -> Outcome[M]:
    """Decline the pending resignation (the resigner plays on), or a rematch."""
    if m.phase == "over":
        return decline_rematch(m, side)
    if (t := timed_out(m, now)) is not None:
        return t
    level = _need_answer(m, side, "decline")
    assert m.turn is not None and m.resume is not None
    clock = None if m.clock is None else m.clock.resume(m.turn, now, m.resume_used)
    nxt = replace(m, phase=m.resume, resign_level=None, resume=None, resume_used=0.0,
                  declined=LEVELS.index(level) + 1,
                  history=record(m, ResignRecord(side, "decline", level)), clock=clock)
    return nxt, (ResignDeclined(side, level),)


def forfeit(m: M, side: Colour, now: float) -> Outcome[M]:
    """Give up the whole match: the opponent wins it."""
    if m.phase == "over":
        raise MatchStateError(f"{side} cannot forfeit: the match is already over", "match_over")
    if (t := timed_out(m, now)) is not None:
        return t
    return finish_match(m, other(side), "forfeit", now, (Forfeited(side),))

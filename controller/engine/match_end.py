"""How games and matches end: points, the next game (Crawford), the history's record of
each action, the clock's part (every command first checks that the acting player's time
has not run out), and forfeit or time ending the match."""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour, other
from controller.engine.clock import Clock
from controller.engine.match_events import Event, GameWon, MatchWon, TimedOut
from controller.engine.match_history import Action, GameEnd, GameRecord
from controller.engine.match_state import M, MatchState, Outcome
from controller.engine.position import BAR, CHECKERS, Position


def _index(side: Colour) -> int:
    return 0 if side == "white" else 1


def game_result(after: Position) -> str:
    """single, gammon or backgammon, for a position (seen by the winner, who has just
    borne off their last checker)."""
    loser = after.theirs
    if sum(loser) < CHECKERS:
        return "single"
    # the winner's home board 1..6 is the loser's 19..24 (indices 18..23)
    if loser[BAR] or any(loser[18:24]):
        return "backgammon"
    return "gammon"


def record(m: MatchState, action: Action) -> tuple[GameRecord, ...]:
    """The history with `action` added to the game being played."""
    return m.history[:-1] + (m.history[-1].with_action(action),)


def begin(m: MatchState, side: Colour, now: float) -> Clock | None:
    """The clock with `side`'s action starting at `now`."""
    return None if m.clock is None else m.clock.begin(side, now)


def timed_out(m: M, now: float) -> Outcome[M] | None:
    """The match ended by time, when the running clock has run out at `now`; else None."""
    if m.clock is None or m.phase == "over":
        return None
    loser = m.clock.expired(now)
    if loser is None:
        return None
    return finish_match(m, other(loser), "time", now, (TimedOut(loser),))


def end_game(m: M, winner: Colour, how: str, result: str | None, points: int, now: float,
             events: tuple[Event, ...]) -> Outcome[M]:
    """`winner` wins the game for `points`: the match is over, or the next game waits for
    its opening roll (the Crawford game when the winner reached match point)."""
    score = list(m.score)
    score[_index(winner)] += points
    new_score = (score[0], score[1])
    history = m.history[:-1] + (m.history[-1].ended(GameEnd(winner, how, result, m.cube, points)),)  # type: ignore[arg-type]
    events = events + (GameWon(m.game, winner, how, result, points, new_score),)
    clock = None if m.clock is None else m.clock.finish(now)
    if new_score[_index(winner)] >= m.settings.length:
        over = replace(m, phase="over", score=new_score, history=history, clock=clock,
                       winner=winner, end="score", dice=None, resign_level=None)
        return over, events + (MatchWon(winner, "score", new_score),)
    crawford = (m.settings.crawford and not m.post_crawford
                and new_score[_index(winner)] == m.settings.length - 1)
    fresh = Position.initial()
    nxt = replace(m, phase="opening", score=new_score, game=m.game + 1, crawford=crawford,
                  post_crawford=m.post_crawford or crawford, turn=None, position=fresh,
                  partial=fresh, dice=None, steps=(), cube=1, cube_owner=None,
                  resign_level=None, declined=0, resume=None, last_move=None, clock=clock,
                  history=history + (GameRecord(m.game + 1, new_score, crawford),))
    return nxt, events


def finish_match(m: M, winner: Colour, how: str, now: float, events: tuple[Event, ...]) -> Outcome[M]:
    """Forfeit or time: the current game ends without points and the match is over."""
    last = m.history[-1]
    history = m.history
    if last.end is None:
        history = history[:-1] + (last.ended(GameEnd(winner, how, None, m.cube, 0)),)  # type: ignore[arg-type]
    clock = None if m.clock is None else m.clock.finish(now)
    over = replace(m, phase="over", winner=winner, end=how, history=history, clock=clock,
                   resign_level=None, rematch_offer=None)
    return over, events + (MatchWon(winner, how, m.score),)

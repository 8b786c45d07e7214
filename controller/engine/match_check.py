"""Is a match read back from disk one that play could have reached?

A saved match is rebuilt field by field (``match_json``); a damaged or hand-edited file
can still hold values no game ever makes: a cube of 3 or 2^70, a score of 99-99 in a
5-point match, a `partial` board unrelated to the turn's position, steps no checker can
take, a winner in mid-game. Each of those would raise later, on every snapshot or at
start, so :func:`check_reachable` refuses them at once with one line naming the first
problem (:class:`MatchStateError`), and the caller sets the file aside.

What play guarantees, and is checked here:

- the cube is a power of two up to the cap, centred exactly when it is 1;
- scores are whole, not negative, below the length until the match is over, and are
  the starting score (0-0, or the one a match was started from) plus the games' points
  (each game's ``score_before`` and its end's points);
- the game number is the last game of the history; only the last game may be unfinished;
- ``winner``, ``end`` and a rematch offer exist exactly when the match is over, a
  resignation level exactly while one is offered, a turn exactly after the opening roll;
- the steps of the turn are steps a checker can take, one after the other, from the
  turn's position, legal for the dice when they are showing, and leave `partial`;
- every recorded step has the shape of a step (points 0..25, a die 1..6).
"""
from __future__ import annotations

from controller.engine.errors import MatchStateError
from controller.engine.match import LEVELS, Match
from controller.engine.match_history import CubeRecord, GameRecord, ResignRecord, TurnRecord
from controller.engine.match_settings import CUBE_CAP
from controller.engine.moves import BAR_POINT, OFF, Step
from controller.engine.position import BAR, Position
from controller.engine.wording import counted


def _fail(message: str) -> MatchStateError:
    return MatchStateError(f"saved match is inconsistent: {message}")


def check_step_shape(step: Step) -> None:
    """A step of some checker: from 1..25 (25 the bar) to 0..24 (0 off), forward, by a die."""
    if not (1 <= step.frm <= BAR_POINT and OFF <= step.to < step.frm and 1 <= step.die <= 6):
        raise _fail(f"step {step.frm}/{step.to} with a {step.die} is not a step")
    if step.to != OFF and step.frm - step.to != step.die:
        raise _fail(f"step {step.frm}/{step.to} does not go {step.die} pips")
    if step.to == OFF and step.frm > step.die:
        raise _fail(f"step {step.frm}/off cannot bear off with a {step.die}")


def _check_step_on(position: Position, step: Step) -> None:
    """`step` can be taken on `position` (a checker there, the target open, the hit flag true)."""
    check_step_shape(step)
    if position.mine[BAR if step.frm == BAR_POINT else step.frm - 1] == 0:
        raise _fail(f"step {step.frm}/{step.to}: no checker to move")
    if step.to != OFF:
        blockers = position.opponent_on(step.to)
        if blockers > 1 or step.hit != (blockers == 1):
            raise _fail(f"step {step.frm}/{step.to}: the point is not open as recorded")


def _check_turn(m: Match) -> None:
    board = m.position
    plan = m.plan if m.dice is not None else None
    for step in m.steps:
        _check_step_on(board, step)
        if plan is not None and step not in plan.next_steps(board):
            raise _fail(f"step {step.frm}/{step.to} is not legal with {m.dice[0]}-{m.dice[1]}")  # type: ignore[index]
        board = board.after(step)
    if board != m.partial:
        raise _fail("the board after the turn's steps is not the board saved")


def _check_cube(m: Match) -> None:
    cube = m.cube
    if isinstance(cube, bool) or not isinstance(cube, int) or not 1 <= cube <= CUBE_CAP or cube & (cube - 1):
        raise _fail(f"cube {cube!r} is not a power of two up to {CUBE_CAP}")
    if (cube == 1) != (m.cube_owner is None):
        raise _fail(f"cube {cube} with owner {m.cube_owner}")


def _check_games(m: Match) -> None:
    history = m.history
    if m.game != len(history):
        raise _fail(f"game {m.game} with {len(history)} games in the history")
    score = _starting_score(m)
    for number, game in enumerate(history, 1):
        if game.number != number or game.score_before != score:
            raise _fail(f"game {game.number} of the history starts at {game.score_before}, not {score}")
        _check_actions(game)
        if game.end is None:
            if number != len(history):
                raise _fail(f"game {number} never ended")
            continue
        end = game.end
        if not 0 <= end.points <= 3 * CUBE_CAP or end.result not in (None, *LEVELS):
            raise _fail(f"game {number} ended with {counted(end.points, 'point')}, {end.result!r}")
        white, black = score
        score = (white + end.points, black) if end.winner == "white" else (white, black + end.points)
    if score != m.score:
        raise _fail(f"score {m.score[0]}-{m.score[1]} is not the {score[0]}-{score[1]} the games add up to")


def _starting_score(m: Match) -> tuple[int, int]:
    """The score the match began at: (0, 0), or the one it was started from (`bgboard run
    --score`, a practice position), which play never takes below zero or to the length."""
    start = m.history[0].score_before if m.history else (0, 0)
    if (not isinstance(start, tuple) or len(start) != 2
            or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < m.length for s in start)):
        raise _fail(f"the match starts at a score of {start!r}, not one below the length {m.length}")
    return start


def _check_actions(game: GameRecord) -> None:
    for action in game.actions:
        if isinstance(action, TurnRecord):
            for step in action.steps:
                check_step_shape(step)
        elif isinstance(action, CubeRecord):
            value = action.value
            if not 1 <= value <= CUBE_CAP or value & (value - 1):
                raise _fail(f"a cube action at {value} in game {game.number}")
        elif isinstance(action, ResignRecord) and action.level not in LEVELS:
            raise _fail(f"a resignation {action.level!r} in game {game.number}")


def _check_score(m: Match) -> None:
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in m.score):
        raise _fail(f"score {m.score!r}")
    _check_end(m)
    if m.rematch_offer is not None and m.phase != "over":
        raise _fail("a rematch offered in mid-match")
    _check_crawford(m)


def _check_end(m: Match) -> None:
    """A winner and an end exactly when the match is over; a match that goes on has no
    score at its length, one won on score has the winner there and the loser short of it."""
    length = m.length
    over = m.phase == "over"
    if (m.winner is not None, m.end is not None) != (over, over):
        raise _fail(f"winner {m.winner} and end {m.end} in phase {m.phase}")
    if not over and max(m.score) >= length:
        raise _fail(f"score {m.score[0]}-{m.score[1]} in a {length}-point match that goes on")
    if over and m.end == "score":
        mine = m.score[0 if m.winner == "white" else 1]
        theirs = m.score[1 if m.winner == "white" else 0]
        if mine < length or theirs >= length:
            raise _fail(f"{m.winner} won a {length}-point match at {m.score[0]}-{m.score[1]}")


def _check_crawford(m: Match) -> None:
    """A Crawford game going on only when the rule is on and a player stands one point
    from the match, and never before the Crawford game has been reached."""
    length = m.length
    if m.crawford and m.phase != "over" and not (m.settings.crawford and length - 1 in m.score):
        raise _fail(f"a Crawford game at {m.score[0]}-{m.score[1]} of {length}")
    if m.crawford and not m.post_crawford:
        raise _fail("a Crawford game before the Crawford game")


def check_reachable(m: Match) -> Match:
    """`m` if play could have reached it; else MatchStateError naming the first problem."""
    _check_cube(m)
    _check_score(m)
    _check_games(m)
    if (m.phase == "resigning") != (m.resign_level is not None):
        raise _fail(f"resignation {m.resign_level} in phase {m.phase}")
    if m.phase in ("opening", "roll", "doubled") and m.steps:
        raise _fail(f"steps played in phase {m.phase}")
    if m.last_move is not None:
        for step in m.last_move.steps:
            check_step_shape(step)
    _check_turn(m)
    return m

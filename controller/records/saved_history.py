"""A loaded match's history played again through the rules, before anything uses it.

``match_check`` holds a saved match's fields to what play makes, but each game's history
is a list anything can be written into: a file whose checksum is right (an edit by hand,
a bug) can repeat a game's turns, swap two, or change a step or a roll. The review walks
that history into GNU Backgammon's network, which crashed the process on the impossible
boards it reached (SIGSEGV at every start). So every game is played again here, turn by
turn, with the engine's own turn plan: the sides alternate, each turn is a whole legal
move for its dice, cube actions follow the cube, a game that ended by bearing off did,
and the game in progress reaches the board saved. The first problem is one line
(:class:`MatchStateError`); the caller sets the file aside as damaged.

Games start from the opening position, except the first game of a match started from a
set position (``bgboard run --position``, an online match taken over from the server's
board). While that game is in progress its start is found by taking its steps back from
the board saved, then it is played forward as any other; once it is over and other games
follow, its start is known nowhere: if its first roll is one an opening cannot be (a
double, or the lower die moving) only its steps' shape is held (``match_check``), else it
is held to the opening position as any game.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.engine import legal_moves
from controller.engine.errors import MatchStateError
from controller.engine.match import Match
from controller.engine.match_check import check_step_shape
from controller.engine.match_history import CubeRecord, GameRecord, TurnRecord
from controller.engine.moves import BAR_POINT, OFF, Step
from controller.engine.position import BAR, Position


def _fail(game: int, message: str) -> MatchStateError:
    return MatchStateError(f"saved match is inconsistent: game {game}: {message}")


@dataclass
class _Play:
    """One game played again: the board seen by the side on turn, and the cube."""

    position: Position
    turn: str | None = None
    cube: int = 1
    owner: str | None = None
    offered: bool = False
    borne_off: str | None = None  # the side that bore off its last checker
    cube_known: bool = True  # False for a game started from a set position (its cube unknown)


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


def _results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """The boards a whole legal move of `dice` leaves (the start when none can be played)."""
    return {move.result for move in legal_moves(position, dice)} or {position}


def _turn(number: int, play: _Play, turn: TurnRecord, at: int) -> None:
    where = f"turn {at} ({turn.side} {turn.dice[0]}-{turn.dice[1]})"
    if play.borne_off is not None:
        raise _fail(number, f"{where} after {play.borne_off} bore off the last checker")
    if play.turn is not None and turn.side != play.turn:
        raise _fail(number, f"{where} out of turn: {play.turn} was to play")
    if play.offered:
        raise _fail(number, f"{where} before the double was answered")
    board = play.position
    for step in turn.steps:
        check_step_shape(step)
        board = board.after(step)
        if board.problems():
            raise _fail(number, f"{where}: step {step.frm}/{step.to} cannot be played here")
    if board not in _results(play.position, turn.dice):
        raise _fail(number, f"{where}: not a whole legal move")
    if sum(board.mine) == 0:
        play.position, play.borne_off = board, turn.side
        return
    play.position, play.turn = board.swap(), _other(turn.side)


def _cube(number: int, play: _Play, cube: CubeRecord, at: int) -> None:
    where = f"action {at} ({cube.side} {cube.action}s)"
    if cube.action == "double":
        if play.turn not in (None, cube.side) or play.offered or play.owner not in (None, cube.side) \
                or (play.cube_known and cube.value != 2 * play.cube):
            raise _fail(number, f"{where} a cube of {play.cube} it may not double to {cube.value}")
        play.turn, play.offered, play.cube = cube.side, True, cube.value // 2
        return
    if not play.offered or cube.side == play.turn:
        raise _fail(number, f"{where} without a double to answer")
    play.offered = False
    if cube.action == "take":
        play.cube, play.owner = 2 * play.cube, cube.side


def _replay(number: int, game: GameRecord, play: _Play) -> _Play:
    for at, action in enumerate(game.actions, 1):
        if isinstance(action, TurnRecord):
            _turn(number, play, action, at)
        elif isinstance(action, CubeRecord):
            _cube(number, play, action, at)
    end = game.end
    if end is not None and end.how == "bearoff" and play.borne_off != end.winner:
        raise _fail(number, f"{end.winner} won by bearing off, which the game's turns do not do")
    if play.borne_off is not None and (end is None or end.how != "bearoff"):
        raise _fail(number, f"{play.borne_off} bore off the last checker but the game did not end so")
    return play


def _taken_back(number: int, position: Position, steps: tuple[Step, ...]) -> Position:
    """The board before `steps` were played onto `position` (the mover's view)."""
    mine, theirs = list(position.mine), list(position.theirs)
    for step in reversed(steps):
        mine[BAR if step.frm == BAR_POINT else step.frm - 1] += 1
        if step.to != OFF:
            mine[step.to - 1] -= 1
            if step.hit:
                theirs[BAR] -= 1
                theirs[24 - step.to] += 1
    before = Position(tuple(mine), tuple(theirs))
    if before.problems():
        raise _fail(number, "its turns cannot be taken back from the board saved")
    return before


def _set_start(m: Match, game: GameRecord) -> Position:
    """The board the first game of a match in progress started from, seen by its first
    mover: the saved board with every turn taken back."""
    turns = [a for a in game.actions if isinstance(a, TurnRecord)]
    position = m.position
    for turn in reversed(turns):
        position = _taken_back(1, position.swap(), turn.steps)
    return position


def _opening_like(game: GameRecord) -> bool:
    """Whether the game's first turn is an opening roll as the table makes it (one die
    each, White's first: the higher one moves), not a roll from a set position."""
    first = next((a for a in game.actions if isinstance(a, TurnRecord)), None)
    if first is None:
        return True
    white, black = first.dice
    return white != black and first.side == ("white" if white > black else "black")


def check_history(m: Match) -> Match:
    """`m` when every game of its history plays again by the rules and the game in
    progress reaches the board saved; else MatchStateError naming the first problem."""
    last = len(m.history)
    for number, game in enumerate(m.history, 1):
        in_progress = number == last and m.phase != "over" and m.turn is not None
        try:
            play = _replay(number, game, _Play(Position.initial()))
        except MatchStateError:
            if number != 1:
                raise
            if not in_progress:
                if _opening_like(game):
                    raise
                continue  # a first game from a set position, over: its start is known nowhere
            play = _replay(number, game, _Play(_set_start(m, game), cube_known=False))
        else:
            if number == 1 and in_progress and play.position != m.position:
                play = _replay(number, game, _Play(_set_start(m, game), cube_known=False))
        if in_progress and (play.position != m.position or play.turn not in (None, m.turn)):
            raise _fail(number, "its turns do not reach the board saved")
    return m

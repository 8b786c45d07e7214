"""A game the server scored otherwise than the rule book: its score taken, the record kept.

bgammon's `resign` (pkg/server/server_command.go) scores `winPoints(winner) x DoubleValue`
for a resignation and for a declined double alike: a double dropped by a player who would
lose a gammon counts as a gammon at the cube's value, where the rule book (and the engine)
gives the cube's value only. The server keeps the match's score, so the table takes it;
before issue 22.15 the table then played on from the server's bare state and bgboard's own
record of the match (every game, turn by turn) was gone.

`as_server_scored` keeps the record: the game ends as the server scored it (its points and
level), with a note in the game's end saying what the rule book gives and why the server's
differs; the next game starts at the server's score (or the match is over, if that score
ends it). The note is written into the `.mat` record (a `; [Note ...]` tag). A resignation
of ours is scored the same way (the server counts the board, not the level we offered).

In a 1-point match the server's `win` event carries no points (`Points` only when the
match is longer): `server_win_level` reads the level from the board as bgammon's
`winPoints` does, so a resignation there is scored as the server scores it (issue 35.4).
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.errors import EngineError
from controller.engine.match import LEVELS, Match
from controller.engine.match_history import GameRecord
from controller.engine.match_start import crawford_state
from controller.online.facts import REMOTE


def server_win_level(board: tuple[int, ...], winner: int) -> str:
    """The level bgammon's `winPoints` gives a game won by `winner` (1: the receiver of
    `board`, 2: the other player) on that board, whatever the game ended by: a backgammon
    when a loser's checker is on the bar or in the winner's home board, a gammon when the
    loser has borne none off, else a single game. `board` is the receiver's view
    (events.BOARD_SPACES: its checkers positive, home on 1..6, off 0, bar 26; the other
    player's negative, home on 19..24, off 25, bar 27)."""
    sign, bar, off, home = (-1, 27, 25, range(1, 7)) if winner == 1 else (1, 26, 0, range(19, 25))
    if board[bar] * sign > 0 or any(board[space] * sign > 0 for space in home):
        return "backgammon"
    return "gammon" if board[off] == 0 else "single"


def as_server_scored(m: Match, score: tuple[int, int]) -> Match | None:
    """`m` (a game just ended at the table by a drop) with that game scored as the server's
    `score` says, the record kept; None when the difference is not the dropped game's points
    alone (a different winner, fewer points, a level no game has)."""
    index = len(m.history) - (1 if m.is_over else 2)
    if index < 0 or m.phase not in ("opening", "over"):
        return None
    last = m.history[index]
    end = last.end
    if end is None or end.how not in ("drop", "resign") or (end.how == "resign" and end.winner != REMOTE):
        return None  # the remote player's resignation has the server's own level (RemoteResigned)
    w = 0 if end.winner == "white" else 1
    got = score[w] - last.score_before[w]
    if score[1 - w] != last.score_before[1 - w] or got == end.points or (end.how == "drop" and got < end.points) \
            or got % end.cube or not 1 <= got // end.cube <= len(LEVELS):
        return None
    level = LEVELS[got // end.cube - 1]
    if end.how == "drop":
        why = (f"the server scored the drop as a {level} ({got} points: bgammon counts a declined "
               f"double as a resignation, the board's result x cube); the rule book gives {end.points}")
    else:
        why = (f"the server scored the resignation as a {level} ({got} points: bgammon scores a "
               f"resignation by the board, whatever was offered); the offer was worth {end.points}")
    ended = replace(last, end=replace(end, points=got, result=level, note=why))
    history = m.history[:index] + (ended,)
    if score[w] >= m.length:
        return replace(m, phase="over", score=score, turn=None, winner=end.winner, end="score",
                       rematch_offer=None, history=history)
    played = last.crawford or m.length - 1 in last.score_before
    try:
        crawford, reached = crawford_state(m.length, score, m.settings.crawford, played or None)
    except EngineError:
        return None
    return replace(m, score=score, crawford=crawford, post_crawford=reached,
                   history=history + (GameRecord(last.number + 1, score, crawford),))


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
ends it). The note is written into the `.mat` record (a `; [Note ...]` tag).
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.errors import EngineError
from controller.engine.match import LEVELS, Match
from controller.engine.match_history import GameRecord
from controller.engine.match_start import crawford_state


def as_server_scored(m: Match, score: tuple[int, int]) -> Match | None:
    """`m` (a game just ended at the table by a drop) with that game scored as the server's
    `score` says, the record kept; None when the difference is not the dropped game's points
    alone (a different winner, fewer points, a level no game has)."""
    index = len(m.history) - (1 if m.is_over else 2)
    if index < 0 or m.phase not in ("opening", "over"):
        return None
    last = m.history[index]
    end = last.end
    if end is None or end.how != "drop":
        return None  # a resignation's level is the server's own already (RemoteResigned)
    w = 0 if end.winner == "white" else 1
    got = score[w] - last.score_before[w]
    if score[1 - w] != last.score_before[1 - w] or got <= end.points or got % end.cube \
            or not 1 <= got // end.cube <= len(LEVELS):
        return None
    level = LEVELS[got // end.cube - 1]
    why = (f"the server scored the drop as a {level} ({got} points: bgammon counts a declined "
           f"double as a resignation, the board's result x cube); the rule book gives {end.points}")
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


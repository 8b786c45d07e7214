"""The match as `.mat` text, for the page's "Download .mat" link.

The records package owns the `.mat` layout (`controller.records.mat_writer.write_mat`)
and, once written, the conversion from a live match (`controller.records.from_match`).
Until that module exists this file converts `Match.history` to a `MatchRecord` itself,
so the download works either way; white is player 1 (the left column), black player 2.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from controller.engine.match import Match
from controller.engine.match_history import (
    CubeRecord,
    GameRecord,
    ResignRecord,
    TurnRecord,
)
from controller.records.mat_writer import write_mat
from controller.records.model import (
    Action,
    Double,
    Drop,
    Game,
    MatchRecord,
    Resign,
    Roll,
    Take,
)

_INDEX = {"white": 0, "black": 1}
_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
_CANDIDATES = ("record_of_match", "record_from_match", "match_record", "from_match")


def mat_text(match: Match) -> str:
    """The match so far as `.mat` text (an unfinished game is written as far as played)."""
    return write_mat(_converter()(match))


def _converter() -> Callable[[Match], MatchRecord]:
    """The records package's converter when it has one, else ours."""
    try:
        module: Any = importlib.import_module("controller.records.from_match")
    except ImportError:
        return record_of_match
    for name in _CANDIDATES:
        fn = getattr(module, name, None)
        if callable(fn):
            return fn  # type: ignore[no-any-return]
    return record_of_match


def record_of_match(match: Match) -> MatchRecord:
    """`Match.history` as a `MatchRecord` (the engine's steps kept as they are)."""
    names = (getattr(match.settings, "white", "") or "White", getattr(match.settings, "black", "") or "Black")
    games = tuple(_game(g) for g in match.history if g.actions or g.end is not None)
    return MatchRecord(length=match.settings.length, players=(str(names[0]), str(names[1])),
                       games=games, crawford_rule=match.settings.crawford)


def _game(g: GameRecord) -> Game:
    actions: list[Action] = []
    cube = 1
    for a in g.actions:
        if isinstance(a, TurnRecord):
            actions.append(Roll(_INDEX[a.side], (a.dice[0], a.dice[1]), tuple(a.steps)))
        elif isinstance(a, CubeRecord):
            if a.action == "double":
                actions.append(Double(_INDEX[a.side], a.value))
            elif a.action == "take":
                actions.append(Take(_INDEX[a.side]))
                cube = a.value
            else:
                actions.append(Drop(_INDEX[a.side]))
        elif isinstance(a, ResignRecord) and a.action == "accept":
            # the resigner is the other side of the one who accepted
            actions.append(Resign(1 - _INDEX[a.side], _LEVELS.get(a.level, 1)))
    winner = points = 0
    end = None
    if g.end is not None:
        winner, points, cube = _INDEX[g.end.winner], g.end.points, g.end.cube
        end = {"bearoff": "bearoff", "drop": "drop", "resign": "resign"}.get(g.end.how)
    return Game(number=g.number, score=g.score_before, crawford=g.crawford, actions=tuple(actions),
                winner=winner if g.end is not None else None, points=points, end=end,  # type: ignore[arg-type]
                cube=cube)

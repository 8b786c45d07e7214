"""Turn a played match (the state machine's history) into a match record for `.mat` export.

`Match.history` (controller/engine/match_history.py) names players by colour; a record
puts White in the left column (player 1) and Black in the right one (player 2), as the
match's settings name them. What a `.mat` file cannot hold is left out: a declined
resignation offer, and the dice of a turn that ended in a resignation before its move.
A game that ended the match by forfeit or by time is kept unfinished (no `.mat` line
says "forfeit"; its points are 0 in the history too). A game end's note (points scored
otherwise than by the rule book, online) is a `Note` tag.
"""
from __future__ import annotations

from controller.engine.match import Match
from controller.engine.match_history import (
    CubeRecord,
    GameRecord,
    ResignRecord,
    TurnRecord,
)
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

_LEVEL = {"single": 1, "gammon": 2, "backgammon": 3}


def _player(side: str) -> int:
    return 0 if side == "white" else 1


def _actions(game: GameRecord) -> tuple[Action, ...]:
    out: list[Action] = []
    offered: dict[int, int] = {}
    for action in game.actions:
        if isinstance(action, TurnRecord):
            out.append(Roll(_player(action.side), action.dice, action.steps))
        elif isinstance(action, CubeRecord):
            p = _player(action.side)
            if action.action == "double":
                out.append(Double(p, action.value))
            elif action.action == "take":
                out.append(Take(p))
            else:
                out.append(Drop(p))
        elif isinstance(action, ResignRecord):
            p = _player(action.side)
            if action.action == "offer":
                offered[p] = _LEVEL[action.level]
            elif action.action == "accept":
                resigner = 1 - p  # the opponent of the resigner accepts
                out.append(Resign(resigner, offered.pop(resigner, _LEVEL.get(action.level, 1))))
            else:
                offered.pop(1 - p, None)
    return tuple(out)


def record_from_match(match: Match, tags: tuple[tuple[str, str], ...] = ()) -> MatchRecord:
    """The match so far as a record: every game with its score before, Crawford flag,
    actions and result."""
    games: list[Game] = []
    for game in match.history:
        actions = _actions(game)
        end = game.end
        if end is None or end.how in ("forfeit", "time"):
            if not actions and end is None:
                continue  # a game not yet begun
            games.append(Game(game.number, game.score_before, game.crawford, actions))
            continue
        games.append(Game(game.number, game.score_before, game.crawford, actions,
                          _player(end.winner), end.points, end.how, end.cube))  # type: ignore[arg-type]
    notes = tuple(("Note", f"Game {g.number}: {g.end.note}") for g in match.history if g.end is not None and g.end.note)
    return MatchRecord(match.length, (match.settings.white, match.settings.black), tuple(games),
                       tags + notes, match.settings.crawford)

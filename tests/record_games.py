"""A record's games as comparable tuples, for the round-trip tests.

Moves are written in GNU Backgammon's notation (`13/9`, not which die went first, nor
which die bore a checker off), so they are compared as written: player, dice and the
move's notation."""
from __future__ import annotations

from controller.engine.notation import format_move
from controller.records.model import Action, MatchRecord, Roll

GameKey = tuple[object, ...]


def games_of(record: MatchRecord) -> list[GameKey]:
    """Each game's number, score, Crawford flag, winner, points, end and actions."""
    def action(a: Action) -> object:
        if isinstance(a, Roll):
            return ("roll", a.player, a.dice, format_move(a.steps))
        return a
    return [(g.number, g.score, g.crawford, g.winner, g.points, g.end, tuple(map(action, g.actions)))
            for g in record.games]

"""The match a table starts with when the player names a start: a score, a position."""
from __future__ import annotations

from controller.engine.errors import EngineError
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.position import Position
from controller.errors import UsageError


def starting_match(settings: MatchSettings, position_id: str | None = None,
                   turn: str = "white", score: tuple[int, int] = (0, 0),
                   crawford_played: bool | None = None) -> Match:
    """A new match from `score` (``Match.from_score``: the Crawford game played or not,
    inferred where the score allows one answer); with `position_id` its first game starts
    from that position with `turn` to roll (the board is then set up to it cell by cell).
    UsageError with one line for a bad ID, a finished position or an impossible score."""
    try:
        start = Position.for_play(position_id) if position_id else None
        return Match.from_score(settings, score, crawford_played, start, turn)
    except EngineError as exc:
        raise UsageError(str(exc)) from None

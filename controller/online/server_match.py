"""The engine's match from the server's state: what a resumed, corrected or watched
table plays on from (remote.py, seat.py, watch.py).
"""
from __future__ import annotations

from dataclasses import replace

from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.match_history import GameRecord
from controller.engine.match_settings import MatchSettings
from controller.online.events import GameState
from controller.online.facts import LOCAL, REMOTE
from controller.online.perspective import Seat, position_of_board


def match_from_state(state: GameState, settings: MatchSettings) -> Match:
    """The engine's match as the server's state has it (score, cube, Crawford, whose turn,
    the dice and the board): what a resumed or corrected table plays on from."""
    seat = {1: LOCAL, 2: REMOTE}
    settings = replace(settings, length=state.points, cube=True, crawford=True)
    score = (state.player1.points, state.player2.points)
    base = Match.new(settings)
    turn: Colour | None = seat.get(state.turn)
    mover: Seat = "local" if turn in (None, LOCAL) else "remote"
    position = position_of_board(state.board, mover)
    crawford = state.crawford == 1
    fields: dict[str, object] = dict(
        score=score, crawford=crawford, post_crawford=state.crawford >= 1, turn=turn,
        position=position, partial=position, cube=state.double_value,
        cube_owner=seat.get(state.double_player),
        history=(GameRecord(1, score, crawford),))
    if state.winner:
        fields.update(phase="over", winner=seat[state.winner], end="score")
    elif state.turn == 0:
        fields.update(phase="opening", turn=None)
    elif state.double_offered:
        fields.update(phase="doubled")
    elif state.roll1 == 0:
        fields.update(phase="roll")
    else:
        fields.update(phase="move", dice=(state.roll1, state.roll2))
    return replace(base, **fields)  # type: ignore[arg-type]

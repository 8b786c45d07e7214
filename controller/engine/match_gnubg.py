"""A match state as GNU Backgammon sees it: the fields of its Match ID.

GNU Backgammon numbers the players 0 and 1; here White, who moves from 24 towards 1 like
gnubg's bottom player X, is player 1 and Black is player 0. Between games (phase
``opening``) the game state is "no game" with the score and Crawford flag of the coming
game; when the match is over it is "game over", "resigned" or "dropped" as the last game
ended. While a double or a resignation waits for an answer, the turn is the answering
player's and the dice owner the offering player's, as in gnubg. The Jacoby rule is off
(match play), so bit 66 is set, as in the IDs gnubg prints for matches.

A score above the match length (a gammon won with more points than were needed) is
written as it is, as gnubg does.
"""
from __future__ import annotations

from controller.engine.match_state import LEVELS, MatchState
from controller.engine.match_id import (
    CENTRE,
    GameState,
    MatchIdFields,
    Resignation,
    encode_match_id,
)

_END_STATE = {"bearoff": GameState.OVER, "resign": GameState.RESIGNED, "drop": GameState.DROPPED,
              "forfeit": GameState.OVER, "time": GameState.OVER}


def player(colour: str | None) -> int:
    """gnubg's player number of a colour (White 1, Black 0)."""
    return 1 if colour == "white" else 0


def match_id_fields(match: MatchState) -> MatchIdFields:
    """The Match ID's fields of a match state (see the module doc)."""
    turn = match.turn
    answering = match.phase in ("doubled", "resigning")
    if match.phase == "opening":
        state = GameState.NONE
    elif match.phase == "over":
        end = match.history[-1].end
        state = _END_STATE[end.how] if end is not None else GameState.OVER
    else:
        state = GameState.PLAYING
    dice = (0, 0)
    if match.dice is not None and match.phase in ("move", "resigning"):
        dice = (max(match.dice), min(match.dice))
    resign = Resignation.NONE
    if match.phase == "resigning" and match.resign_level is not None:
        resign = Resignation(LEVELS.index(match.resign_level) + 1)
    length = match.settings.length
    return MatchIdFields(
        cube=match.cube,
        cube_owner=CENTRE if match.cube_owner is None else player(match.cube_owner),
        dice_owner=player(turn),
        crawford=match.crawford,
        game_state=state,
        turn=player(turn) ^ 1 if answering else player(turn),
        double_offered=match.phase == "doubled",
        resignation=resign,
        dice=dice,
        match_length=length,
        score=(match.score[1], match.score[0]),  # (black, white)
        jacoby=False,
    )


def match_id_of(match: MatchState) -> str:
    """GNU Backgammon Match ID of a match state."""
    return encode_match_id(match_id_fields(match))

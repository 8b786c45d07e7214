"""A match state as GNU Backgammon sees it: the fields of its Match ID.

GNU Backgammon numbers the players 0 and 1; here White, who moves from 24 towards 1 like
gnubg's bottom player X, is player 1 and Black is player 0. Between games (phase
``opening``) the game state is "no game" with the score and Crawford flag of the coming
game; when the match is over it is "game over", "resigned" or "dropped" as the last game
ended. While a double or a resignation waits for an answer, the turn is the answering
player's and the dice owner the offering player's, as in gnubg.
"""
from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.engine.match import Match

#: gnubg's game states
GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)
_END_STATE = {"bearoff": GAME_OVER, "resign": GAME_RESIGNED, "drop": GAME_DROP,
              "forfeit": GAME_OVER, "time": GAME_OVER}


def player(colour: str | None) -> int:
    """gnubg's player number of a colour (White 1, Black 0)."""
    return 1 if colour == "white" else 0


def match_id_fields(match: Match) -> dict[str, Any]:
    """The Match ID's fields of a match state, by gnubg's names (see module doc)."""
    turn = match.turn
    answering = match.phase in ("doubled", "resigning")
    if match.phase == "opening":
        state = GAME_NONE
    elif match.phase == "over":
        end = match.history[-1].end
        state = _END_STATE[end.how] if end is not None else GAME_OVER
    else:
        state = GAME_PLAYING
    dice = match.dice if match.dice is not None and match.phase in ("move", "resigning") else (0, 0)
    resign = 0
    if match.phase == "resigning" and match.resign_level is not None:
        resign = ("single", "gammon", "backgammon").index(match.resign_level) + 1
    return {
        "cube": match.cube,
        "cube_owner": -1 if match.cube_owner is None else player(match.cube_owner),
        "dice_owner": player(turn),
        "crawford": match.crawford,
        "game_state": state,
        "turn": player(turn) ^ 1 if answering else player(turn),
        "double_offered": match.phase == "doubled",
        "resignation": resign,
        "dice": (dice[0], dice[1]),
        "match_length": match.settings.length,
        "score": (match.score[1], match.score[0]),  # (player 0 = black, player 1 = white)
    }


def _bits(fields: dict[str, Any]) -> list[tuple[int, int]]:
    owner = 3 if fields["cube_owner"] == -1 else fields["cube_owner"]
    return [
        (fields["cube"].bit_length() - 1, 4), (owner, 2), (fields["dice_owner"], 1),
        (int(fields["crawford"]), 1), (fields["game_state"], 3), (fields["turn"], 1),
        (int(fields["double_offered"]), 1), (fields["resignation"], 2),
        (fields["dice"][0], 3), (fields["dice"][1], 3), (fields["match_length"], 15),
        (fields["score"][0], 15), (fields["score"][1], 15),
    ]


def encode_fields(fields: dict[str, Any]) -> str:
    """The 12-character Match ID of these fields (bits least significant first, as
    gnubg's matchid.c writes them)."""
    key = bytearray(9)
    at = 0
    for value, width in _bits(fields):
        for b in range(width):
            if value >> b & 1:
                key[at >> 3] |= 1 << (at & 7)
            at += 1
    return base64.b64encode(bytes(key)).decode("ascii")


def match_id_of(match: Match) -> str:
    """GNU Backgammon Match ID of a match state."""
    return encode_fields(match_id_fields(match))

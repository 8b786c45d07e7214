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
    key = 0
    at = 0
    for value, width in _bits(fields):
        if not 0 <= value < 1 << width:
            raise ValueError(f"Match ID field value {value} does not fit in {width} bits")
        key |= value << at
        at += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def match_id_of(match: Match) -> str:
    """GNU Backgammon Match ID of a match state."""
    return encode_fields(match_id_fields(match))


def decode_fields(match_id: str) -> dict[str, Any]:
    """The fields of a 12-character Match ID (the inverse of :func:`encode_fields`);
    ValueError if it is not one."""
    try:
        key = base64.b64decode(match_id, validate=True)
    except ValueError as exc:
        raise ValueError(f"malformed Match ID {match_id!r}") from exc
    if len(match_id) != 12 or len(key) != 9:
        raise ValueError(f"malformed Match ID {match_id!r}: 12 base64 characters are needed")
    bits = int.from_bytes(key, "little")
    values = []
    for width in (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15):
        values.append(bits & ((1 << width) - 1))
        bits >>= width
    cube, owner, dice_owner, crawford, state, turn, double, resign, d1, d2, length, s0, s1 = values
    return {
        "cube": 1 << cube, "cube_owner": -1 if owner == 3 else owner, "dice_owner": dice_owner,
        "crawford": bool(crawford), "game_state": state, "turn": turn, "double_offered": bool(double),
        "resignation": resign, "dice": (d1, d2), "match_length": length, "score": (s0, s1),
    }

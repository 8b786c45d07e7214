"""GNU Backgammon's Match ID: the match state in 12 base64 characters.

The key is 72 bits, filled from the least significant bit of the first byte up (as the
Position ID), in the order of gnubg's matchid.c:

    bits  0-3   log2 of the cube value          bits 15-17  first die (0 = not rolled)
    bits  4-5   cube owner (0, 1; 3 = centre)   bits 18-20  second die
    bit   6     player on roll / who rolled     bits 21-35  match length (0 = money)
    bit   7     Crawford game                   bits 36-50  player 0's score
    bits  8-10  game state                      bits 51-65  player 1's score
    bit   11    player to decide now            bit  66     1 when the Jacoby rule is OFF
    bit   12    double offered                  bits 67-71  zero
    bits 13-14  resignation offered (0..3)

The players are gnubg's 0 and 1; which of them is White is the match's business. The
encoder writes the higher die first, as gnubg does, so every ID gnubg prints round-trips
exactly; IDs that no gnubg would print (unknown owner 2, junk in the unused bits, dice of
7, a score no game could reach) are refused with InvalidMatchIdError. A score may exceed the match length: a gammon
won with more points than were needed ends a 7-point match 9-3, and gnubg shows 9.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from controller.engine.errors import InvalidMatchIdError

_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
MAX_SCORE = 0x7FFF


def _most_one_game(length: int) -> int:
    """The most one game can score: a backgammon at the cube's cap (no cube at 1 point)."""
    return 3 if length == 1 else 3 * 64


class GameState(IntEnum):
    """gnubg's game state (bits 8-10)."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4  # ended by a dropped double


class Resignation(IntEnum):
    """A resignation on offer (bits 13-14)."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


CENTRE = -1  # cube_owner of a centred cube


@dataclass(frozen=True, slots=True)
class MatchIdFields:
    """Everything a Match ID holds. Players are 0 and 1 as in gnubg; `cube` is the
    cube's value (1, 2, 4, ...), `dice` (0, 0) before the roll, `match_length` 0 for
    money play."""

    cube: int = 1
    cube_owner: int = CENTRE
    dice_owner: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    @property
    def cube_log2(self) -> int:
        """The cube as gnubg stores it: log2 of its value."""
        return self.cube.bit_length() - 1

    def problems(self) -> list[str]:
        """Why these fields cannot be a Match ID; empty when they can."""
        return [*self._cube_problems(), *self._turn_problems(), *self._score_problems()]

    def _cube_problems(self) -> list[str]:
        """The cube's value must fit gnubg's 4 bits of log2, its owner a player or the centre."""
        found: list[str] = []
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            found.append(f"cube {self.cube} is not a power of two up to 32768")
        if self.cube_owner not in (CENTRE, 0, 1):
            found.append(f"cube owner {self.cube_owner} is not -1 (centre), 0 or 1")
        return found

    def _turn_problems(self) -> list[str]:
        """Who rolls and who is on turn, the game's state, the resignation and the dice."""
        found: list[str] = []
        for name in ("dice_owner", "turn"):
            if getattr(self, name) not in (0, 1):
                found.append(f"{name} {getattr(self, name)} is not player 0 or 1")
        if int(self.game_state) not in range(5):
            found.append(f"game state {self.game_state} is not 0..4")
        if int(self.resignation) not in range(4):
            found.append(f"resignation {self.resignation} is not 0..3")
        d1, d2 = self.dice
        if not (d1 == d2 == 0 or (1 <= d1 <= 6 and 1 <= d2 <= 6)):
            found.append(f"dice {self.dice} are not (0, 0) or two numbers 1-6")
        return found

    def _score_problems(self) -> list[str]:
        """The match length, each player's score within it, and Crawford only in a match."""
        found: list[str] = []
        if not 0 <= self.match_length <= MAX_SCORE:
            found.append(f"match length {self.match_length} is not 0..{MAX_SCORE}")
        for player, points in enumerate(self.score):
            problem = self._points_problem(player, points)
            if problem is not None:
                found.append(problem)
        if not self.match_length and self.crawford:
            found.append("a Crawford game in money play")
        return found

    def _points_problem(self, player: int, points: int) -> str | None:
        """Why one player's score cannot be: out of range, already the match's end while a
        game is played, or more than the last game could have brought."""
        if not 0 <= points <= MAX_SCORE:
            return f"player {player}'s score {points} is not 0..{MAX_SCORE}"
        if self.match_length and self.game_state is GameState.PLAYING and points >= self.match_length:
            return (f"player {player}'s score {points} ends a {self.match_length}-point "
                    "match, yet a game is being played")
        if self.match_length and points > self.match_length - 1 + _most_one_game(self.match_length):
            return (f"player {player}'s score {points} cannot be reached in a "
                    f"{self.match_length}-point match")
        return None


def _put(bits: list[int], start: int, width: int, value: int) -> None:
    for i in range(width):
        bits[start + i] = value >> i & 1


def _get(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + i] << i for i in range(width))


def encode_match_id(fields: MatchIdFields) -> str:
    """The 12-character Match ID of `fields` (raises InvalidMatchIdError if impossible)."""
    problems = fields.problems()
    if problems:
        raise InvalidMatchIdError(f"cannot encode a Match ID: {problems[0]}")
    bits = [0] * 72
    _put(bits, 0, 4, fields.cube_log2)
    _put(bits, 4, 2, 3 if fields.cube_owner == CENTRE else fields.cube_owner)
    _put(bits, 6, 1, fields.dice_owner)
    _put(bits, 7, 1, int(fields.crawford))
    _put(bits, 8, 3, int(fields.game_state))
    _put(bits, 11, 1, fields.turn)
    _put(bits, 12, 1, int(fields.double_offered))
    _put(bits, 13, 2, int(fields.resignation))
    hi, lo = max(fields.dice), min(fields.dice)
    _put(bits, 15, 3, hi)
    _put(bits, 18, 3, lo)
    _put(bits, 21, 15, fields.match_length)
    _put(bits, 36, 15, fields.score[0])
    _put(bits, 51, 15, fields.score[1])
    _put(bits, 66, 1, int(not fields.jacoby))
    key = bytes(sum(bits[8 * k + i] << i for i in range(8)) for k in range(9))
    return base64.b64encode(key).decode("ascii")


def decode_match_id(text: str) -> MatchIdFields:
    """The fields of a Match ID such as 'cAgAAAAAAAAA'; raises InvalidMatchIdError."""
    match_id = text.strip()
    if len(match_id) != 12 or not set(match_id) <= _CHARS:
        raise InvalidMatchIdError(
            f"malformed Match ID {text!r}: expected 12 base64 characters like 'cAgAAAAAAAAA'")
    try:
        key = base64.b64decode(match_id, validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - filtered above
        raise InvalidMatchIdError(f"malformed Match ID {text!r}") from exc
    bits = [key[k] >> i & 1 for k in range(9) for i in range(8)]
    if any(bits[67:]):
        raise InvalidMatchIdError(f"Match ID {text!r} has bits set that gnubg never uses")
    owner = _get(bits, 4, 2)
    if owner == 2:
        raise InvalidMatchIdError(f"Match ID {text!r} names cube owner 2 (only 0, 1 or centred exist)")
    state = _get(bits, 8, 3)
    if state > 4:
        raise InvalidMatchIdError(f"Match ID {text!r} has unknown game state {state}")
    fields = MatchIdFields(
        cube=1 << _get(bits, 0, 4),
        cube_owner=CENTRE if owner == 3 else owner,
        dice_owner=bits[6],
        crawford=bool(bits[7]),
        game_state=GameState(state),
        turn=bits[11],
        double_offered=bool(bits[12]),
        resignation=Resignation(_get(bits, 13, 2)),
        dice=(_get(bits, 15, 3), _get(bits, 18, 3)),
        match_length=_get(bits, 21, 15),
        score=(_get(bits, 36, 15), _get(bits, 51, 15)),
        jacoby=not bits[66],
    )
    problems = fields.problems()
    if problems:
        raise InvalidMatchIdError(f"Match ID {text!r} is not a match state: {problems[0]}")
    if fields.dice[0] < fields.dice[1]:
        raise InvalidMatchIdError(f"Match ID {text!r} stores the lower die first, which gnubg never does")
    return fields

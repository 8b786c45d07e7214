"""eXtreme Gammon's XGID: read and written beside GNU Backgammon's Position and Match IDs.

XG users paste and copy XGIDs such as
`XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10` (the start, White to play 5-2 in a
5-point match). Ten fields separated by colons:

1. the checkers, 26 characters: [0] the top player's bar, [1..24] the points in the bottom
   player's numbering, [25] the bottom player's bar; `A`..`O` the bottom player's count,
   `a`..`o` the top player's, `-` none. The string does not depend on who is on roll.
2. the cube's value as a power of two (0: 1, 1: 2, ...);
3. the cube's owner: 1 the bottom player, -1 the top player, 0 centred;
4. the side on turn: 1 the bottom player, -1 the top player;
5. the dice: `00` not rolled yet, `D` a double offered (also `B`, `R`: beaver, raccoon),
   else the two dice;
6. and 7. the scores of the bottom and the top player;
8. Crawford (match play: 1 in the Crawford game) or Jacoby (money play);
9. the match length (0: money play);
10. the largest cube as a power of two (often left out).

bgboard's White is XG's bottom player (the upper-case checkers, numbered 1..24 towards
its home) and Black the top. Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.engine.board_view import Colour, CubeOwner
from controller.engine.errors import InvalidPositionError
from controller.engine.position import BAR, CHECKERS, Position

if TYPE_CHECKING:
    from controller.engine.match import Match

_OWNERS: dict[str, CubeOwner] = {"1": "white", "-1": "black", "0": "center"}
_TURNS: dict[str, Colour] = {"1": "white", "-1": "black"}


@dataclass(frozen=True)
class Xgid:
    """An XGID's facts; `position` is seen by the side on turn (as `Position` always is)."""

    position: Position
    turn: Colour
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: CubeOwner = "center"
    doubled: bool = False
    score: tuple[int, int] = (0, 0)  # (White, Black)
    crawford: bool = False
    length: int = 0
    max_cube: int = 1024

    @classmethod
    def parse(cls, text: str) -> "Xgid":
        """Read an XGID (with or without `XGID=`); InvalidPositionError names what is wrong."""
        body = text.strip()
        if body[:5].upper() == "XGID=":
            body = body[5:]
        fields = body.split(":")
        if len(fields) not in (9, 10):
            raise InvalidPositionError(f"XGID {text!r}: 9 or 10 fields separated by ':', not {len(fields)}")
        board, cube, owner, turn, dice, s1, s2, rules, length = fields[:9]
        if turn not in _TURNS:
            raise InvalidPositionError(f"XGID {text!r}: the turn must be 1 or -1, not {turn!r}")
        if owner not in _OWNERS:
            raise InvalidPositionError(f"XGID {text!r}: the cube's owner must be 1, 0 or -1, not {owner!r}")
        numbers = (cube, s1, s2, rules, length, *fields[9:])
        if not all(n.isdigit() and len(n) <= 2 for n in numbers):
            raise InvalidPositionError(f"XGID {text!r}: cube, scores, rules and length must be small whole numbers")
        side = _TURNS[turn]
        position = _position(board, side, text)
        rolled, doubled = _dice(dice, text)
        return cls(position, side, rolled, 2 ** int(cube), _OWNERS[owner], doubled,
                   (int(s1), int(s2)), int(length) > 0 and rules == "1", int(length),
                   2 ** int(fields[9]) if len(fields) == 10 else 1024)

    def __str__(self) -> str:
        white, black = (self.position.mine, self.position.theirs) if self.turn == "white" \
            else (self.position.theirs, self.position.mine)
        chars = [_char(black[BAR], upper=False)]
        for point in range(1, 25):
            w, b = white[point - 1], black[24 - point]
            chars.append(_char(w, upper=True) if w else _char(b, upper=False))
        chars.append(_char(white[BAR], upper=True))
        owner = {v: k for k, v in _OWNERS.items()}[self.cube_owner]
        dice = "D" if self.doubled else f"{self.dice[0]}{self.dice[1]}" if self.dice else "00"
        return ("XGID=" + "".join(chars) + f":{self.cube.bit_length() - 1}:{owner}:"
                f"{1 if self.turn == 'white' else -1}:{dice}:{self.score[0]}:{self.score[1]}:"
                f"{1 if self.crawford else 0}:{self.length}:{self.max_cube.bit_length() - 1}")


def match_xgid(match: "Match") -> str:
    """The XGID of the match as it stands (the board as it stands, the dice, the cube, a
    double offered, the score), as XG shows it beside gnubg's Position and Match IDs."""
    position, side = match.board()
    return str(Xgid(position, side, match.dice if match.phase == "move" else None, match.cube,
                    match.cube_owner or "center", match.phase == "doubled", match.score,
                    match.crawford, match.length))


def _char(n: int, upper: bool) -> str:
    if n == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + n - 1)


def _position(board: str, side: Colour, text: str) -> Position:
    if len(board) != 26:
        raise InvalidPositionError(f"XGID {text!r}: the checkers take 26 characters, not {len(board)}")
    white, black = [0] * 25, [0] * 25
    for i, c in enumerate(board):
        if c == "-":
            continue
        if not ("A" <= c <= "O" or "a" <= c <= "o"):
            raise InvalidPositionError(f"XGID {text!r}: {c!r} is not a checker count (A-O, a-o or -)")
        n = ord(c.lower()) - ord("a") + 1
        if c.isupper():
            if i == 0:
                raise InvalidPositionError(f"XGID {text!r}: the top player's bar holds a bottom checker")
            white[BAR if i == 25 else i - 1] += n
        else:
            if i == 25:
                raise InvalidPositionError(f"XGID {text!r}: the bottom player's bar holds a top checker")
            black[BAR if i == 0 else 24 - i] += n
    if sum(white) > CHECKERS or sum(black) > CHECKERS:
        raise InvalidPositionError(f"XGID {text!r}: more than {CHECKERS} checkers a side")
    mine, theirs = (white, black) if side == "white" else (black, white)
    return Position.checked(mine, theirs)


def _dice(field: str, text: str) -> tuple[tuple[int, int] | None, bool]:
    if field == "00":
        return None, False
    if field in ("D", "B", "R"):
        return None, True
    if len(field) == 2 and all(c in "123456" for c in field):
        return (int(field[0]), int(field[1])), False
    raise InvalidPositionError(f"XGID {text!r}: the dice must be 00, D or two dice 1-6, not {field!r}")

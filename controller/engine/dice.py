"""Dice: a roll is two numbers 1..6, written `31`, `3-1` or `3 1`."""
from __future__ import annotations

import re

from controller.engine.errors import InvalidDiceError

Dice = tuple[int, int]
_DICE = re.compile(r"^\s*([1-6])\s*[-,: ]?\s*([1-6])\s*$")

#: every distinct roll, higher die first: 15 non-doubles and 6 doubles
ALL_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


def parse_dice(text: str) -> Dice:
    """`'31'`, `'3-1'` -> (3, 1); anything else raises InvalidDiceError."""
    match = _DICE.match(text)
    if not match:
        raise InvalidDiceError(f"bad dice {text!r}: give two numbers 1-6 such as 31 or 3-1")
    return int(match.group(1)), int(match.group(2))


def check_dice(dice: tuple[int, int] | list[int]) -> Dice:
    """Validate a pair of dice given as numbers."""
    if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise InvalidDiceError(f"bad dice {dice!r}: two numbers 1-6 are needed")
    return dice[0], dice[1]

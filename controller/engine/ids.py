"""GNU Backgammon's Position ID: 80 bits, base64 without padding (14 characters).

The key lists, for the player not on roll and then the player on roll, each of their
points 1..24 and the bar as that many 1-bits followed by a 0-bit; bits fill bytes from
the least significant bit up (gnubg's PositionKey/oldPositionKey).
"""
from __future__ import annotations

import base64
import binascii

from controller.engine.errors import InvalidPositionError

_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def encode_position_id(mine: tuple[int, ...], theirs: tuple[int, ...]) -> str:
    """Position ID of a board whose player on roll has `mine`."""
    key = bytearray(10)
    bit = 0
    for side in (theirs, mine):
        for count in side:
            bit += count  # `count` one-bits ...
            for b in range(bit - count, bit):
                key[b >> 3] |= 1 << (b & 7)
            bit += 1  # ... then a zero-bit
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def decode_position_id(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mine, theirs) of a Position ID; raises InvalidPositionError for anything malformed."""
    text = position_id.strip()
    if len(text) != 14 or not set(text) <= _ID_CHARS:
        raise InvalidPositionError(
            f"malformed Position ID {position_id!r}: expected 14 base64 characters like '4HPwATDgc/ABMA'"
        )
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError) as exc:  # pragma: no cover - filtered above
        raise InvalidPositionError(f"malformed Position ID {position_id!r}") from exc
    sides: list[list[int]] = [[], []]
    side, count = 0, 0
    for b in range(80):
        if key[b >> 3] >> (b & 7) & 1:
            count += 1
            continue
        sides[side].append(count)
        count = 0
        if len(sides[side]) == 25:
            side += 1
            if side == 2:
                break
    if side != 2:
        raise InvalidPositionError(f"malformed Position ID {position_id!r}: too many checkers")
    theirs, mine = sides
    for name, counts in (("player on roll", mine), ("opponent", theirs)):
        if sum(counts) > 15:
            raise InvalidPositionError(
                f"Position ID {position_id!r} gives the {name} {sum(counts)} checkers, more than 15"
            )
    return tuple(mine), tuple(theirs)

"""gnubg's position key (gnubg-nn's `key_of_board`): each side's checkers as a string of
bits (point by point from its ace point, bar last: one 1 per checker, then a 0), packed
least significant bit first, both sides in one string, into ten bytes, each byte written as two letters
'A'..'P' (high nibble first): twenty letters, the side not on roll first."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

_BITS = 80  # 30 checkers and 50 point ends: ten bytes


def keys_of_boards(boards: np.ndarray) -> list[str]:
    """The keys of a batch of boards (n x 2 x 25): the bit string laid out at once (a 0
    ends each point's run of 1s, so the 0s sit at the running sums of count + 1)."""
    counts = boards.reshape(len(boards), 50)
    ends = np.cumsum(counts + 1, axis=1) - 1
    bits = np.arange(_BITS)[None] <= ends[:, -1:]
    rows = np.repeat(np.arange(len(boards)), 50)
    inside = ends.ravel() < _BITS
    bits[rows[inside], ends.ravel()[inside]] = False
    packed = np.packbits(bits, axis=1, bitorder="little")
    letters = np.empty((len(boards), 20), dtype=np.uint8)
    letters[:, 0::2] = 65 + (packed >> 4)
    letters[:, 1::2] = 65 + (packed & 0xF)
    text = letters.tobytes().decode("ascii")
    return [text[i:i + 20] for i in range(0, len(text), 20)]


def key_of_board(board: Sequence[Sequence[int]]) -> str:
    """The key of one board (`keys_of_boards` for a batch)."""
    bits, at = 0, 0
    for side in board:
        for count in side:
            bits |= ((1 << count) - 1) << at
            at += count + 1
    letters = []
    for byte in (bits >> (8 * i) & 0xFF for i in range(10)):
        letters.append(chr(65 + (byte >> 4)))
        letters.append(chr(65 + (byte & 0xF)))
    return "".join(letters)


@lru_cache(maxsize=1 << 13)
def board_from_key(key: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board a key names; ValueError when it is not one."""
    if len(key) != 20 or any(not "A" <= c <= "P" for c in key):
        raise ValueError(f"not a gnubg position key: {key!r}")
    bits = 0
    for i in range(10):
        bits |= ((ord(key[2 * i]) - 65) << 4 | (ord(key[2 * i + 1]) - 65)) << (8 * i)
    sides = [[0] * 25, [0] * 25]
    point = 0
    while point < 50 and bits:
        if bits & 1:
            sides[point // 25][point % 25] += 1
        else:
            point += 1
        bits >>= 1
    return tuple(sides[0]), tuple(sides[1])

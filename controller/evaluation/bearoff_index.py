"""gnubg's numbering of one side's bear-off positions (`PositionBearoff`): checkers on
its six home points, numbered by the combinations before it; the same numbering with
six checkers or fifteen (the two database files)."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

POINTS = 6


@lru_cache(maxsize=1 << 13)
def _index(home: tuple[int, ...], checkers: int) -> int:
    j = POINTS - 1 + sum(home)
    bits = 1 << j
    for i in range(POINTS - 1):
        j -= home[i] + 1
        bits |= 1 << j
    n, r, total = checkers + POINTS, POINTS, 0
    while n != r:
        if bits & (1 << (n - 1)):
            total += comb(n - 1, r)
            r -= 1
        n -= 1
    return total


def bearoff_index(side: Sequence[int], checkers: int) -> int:
    """The index of `side`'s home board among positions of up to `checkers` checkers."""
    return _index(tuple(side[:POINTS]), checkers)


def one_sided_index(side: Sequence[int]) -> int:
    """The index in gnubg's one-sided database (fifteen checkers on six points)."""
    return _index(tuple(side[:POINTS]), 15)

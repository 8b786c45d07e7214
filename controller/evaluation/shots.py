"""gnubg's shot count (`pipLossP1P2` in gnubg-nn's inputs.c) for a batch of boards at once:
the pips a side's hits cost the opponent's blots on average, and the chances to hit at least
one and at least two of them. One row per board; every step is a numpy operation over the
whole batch (gnubg's loops over points and rolls are unrolled into fixed index tables),
because the analysis asks it of every legal move of all 21 rolls of every turn.

`side` hits, `opp` owns the blots; both are n x 25 counts from their own ace point, bar last.
"""
from __future__ import annotations

import numpy as np

# The ways to hit (gnubg's aIntermediate): (all intermediate points needed, the points
# passed on the way, dice faces used, pips).
WAYS: tuple[tuple[bool, tuple[int, ...], int, int], ...] = (
    (True, (), 1, 1), (True, (), 1, 2), (True, (1,), 2, 2), (True, (), 1, 3), (False, (1, 2), 2, 3),
    (True, (1, 2), 3, 3), (True, (), 1, 4), (False, (1, 3), 2, 4), (True, (2,), 2, 4), (True, (1, 2, 3), 4, 4),
    (True, (), 1, 5), (False, (1, 4), 2, 5), (False, (2, 3), 2, 5), (True, (), 1, 6), (False, (1, 5), 2, 6),
    (False, (2, 4), 2, 6), (True, (3,), 2, 6), (True, (2, 4), 3, 6), (False, (1, 6), 2, 7), (False, (2, 5), 2, 7),
    (False, (3, 4), 2, 7), (False, (2, 6), 2, 8), (False, (3, 5), 2, 8), (True, (4,), 2, 8), (True, (2, 4, 6), 4, 8),
    (False, (3, 6), 2, 9), (False, (4, 5), 2, 9), (True, (3, 6), 3, 9), (False, (4, 6), 2, 10), (True, (5,), 2, 10),
    (False, (5, 6), 2, 11), (True, (6,), 2, 12), (True, (4, 8), 3, 12), (True, (3, 6, 9), 4, 12),
    (True, (5, 10), 3, 15), (True, (4, 8, 12), 4, 16), (True, (6, 12), 3, 18), (True, (5, 10, 15), 4, 20),
    (True, (6, 12, 18), 4, 24))
# For a distance of d+1 pips, the ways that hit from there (indices into WAYS).
BY_DISTANCE: tuple[tuple[int, ...], ...] = (
    (0,), (1, 2), (3, 4, 5), (6, 7, 8, 9), (10, 11, 12), (13, 14, 15, 16, 17), (18, 19, 20), (21, 22, 23, 24),
    (25, 26, 27), (28, 29), (30,), (31, 32, 33), (), (), (34,), (35,), (), (36,), (), (37,), (), (), (), (38,))
# For each of the 21 rolls (11, 21, 22, 31, ... 66), the ways it hits.
BY_ROLL: tuple[tuple[int, ...], ...] = (
    (0, 2, 5, 9), (0, 1, 4), (1, 8, 17, 24), (0, 3, 7), (1, 3, 12), (3, 16, 27, 33), (0, 6, 11), (1, 6, 15),
    (3, 6, 20), (6, 23, 32, 35), (0, 10, 14), (1, 10, 19), (3, 10, 22), (6, 10, 26), (10, 29, 34, 37),
    (0, 13, 18), (1, 13, 21), (3, 13, 25), (6, 13, 28), (10, 13, 30), (13, 31, 36, 38))
_DISTANCE = tuple(next(d for d, ways in enumerate(BY_DISTANCE) if way in ways) for way in range(len(WAYS)))
_BELOW_BAR = (1 << 24) - 1


def _bits(mask: np.ndarray) -> np.ndarray:
    """Each row of a boolean n x k mask as an integer (bit i: column i)."""
    return (mask.astype(np.int64) << np.arange(mask.shape[1])).sum(axis=1)


def _top_bit(bits: np.ndarray) -> np.ndarray:
    """The highest bit set of each (non-negative, below 2**53) integer; -1 for 0."""
    return np.where(bits > 0, np.frexp(bits.astype(np.float64))[1] - 1, -1)


def _hits(side: np.ndarray, opp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """gnubg's `aHit` per way (n x 39), as what the second loop reads of its bits: whether
    any and more than one of the hitters' points are set, the highest one below the bar
    (-1: none), whether the bar's is set.

    Worked out on bit masks in the hitter's numbering: a blot on the opponent's point i is
    on the hitter's point 23 - i, so the blots reversed and shifted by a way's distance are
    the hitters' points that reach them; a point passed on the way, p pips from the blot,
    is the opponent's i - p, the reversed made points shifted by the distance less p."""
    reversed_blots = _bits(opp[:, 23::-1] == 1)
    home_points = (side[:, :6] >= 2).sum(axis=1)
    reversed_blots &= np.where(home_points > 2, -1, ~np.int64(3))  # gnubg looks at blots i <= 21 only then
    reversed_made = _bits(opp[:, 23::-1] > 1)
    hitters = _bits((side > 0) & ~((np.arange(25) < 6) & (side == 2)))
    hit = np.empty((len(side), len(WAYS)), dtype=np.int64)
    for way, (all_needed, passed, faces, _pips) in enumerate(WAYS):
        shift = _DISTANCE[way] + 1
        mask = (reversed_blots << shift) & hitters
        if passed and (faces > 1 or not all_needed):
            blocked = [reversed_made << (shift - p) for p in passed]
            closed = blocked[0]
            for b in blocked[1:]:
                closed = (closed | b) if all_needed else (closed & b)
            mask &= ~closed
        hit[:, way] = mask
    below = hit & _BELOW_BAR
    return hit != 0, (hit & (hit - 1)) != 0, _top_bit(below), (hit >> 24) & 1 == 1


def pip_loss(side: np.ndarray, opp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """gnubg's `pipLossP1P2` of each row: (pips lost / 432, P(hit one), P(hit two)), float64.
    Rows without a shot are 0; the others go through gnubg's second loop by what the
    hitting side has on the bar (none, one, more), each case on its own rows."""
    n = len(side)
    pips = np.zeros(n, dtype=np.int64)
    one = np.zeros(n, dtype=np.int64)
    two = np.zeros(n, dtype=np.int64)
    some, several, top, bar = _hits(side, opp)
    shot = some.any(axis=1)
    on_bar = side[:, 24]
    for case, rows in ((_none_on_bar, shot & (on_bar == 0)), (_one_on_bar, shot & (on_bar == 1)),
                       (_more_on_bar, shot & (on_bar >= 2))):
        at = np.flatnonzero(rows)
        if len(at):
            hits = _Hits(side[at], opp[at], some[at].T, several[at].T, top[at].T, bar[at].T)
            p_sum, one_sum, two_sum = (np.zeros(len(at), dtype=np.int64) for _ in range(3))
            for ways, (p, c) in zip(BY_ROLL, case(hits)):
                weight = 1 if len(ways) == 4 else 2
                p_sum += p * weight
                one_sum += (c > 0) * weight
                two_sum += (c > 1) * weight
            pips[at], one[at], two[at] = p_sum, one_sum, two_sum
    return pips / (12.0 * 36.0), one / 36.0, two / 36.0


class _Hits:
    """The rows of one case: boards and gnubg's `aHit` read per way (way-major arrays)."""

    def __init__(self, side: np.ndarray, opp: np.ndarray, some: np.ndarray, several: np.ndarray,
                 top: np.ndarray, bar: np.ndarray) -> None:
        self.opp, self.some, self.several, self.top, self.bar = opp, some, several, top, bar
        self.made = _bits(side > 1)
        self.blots = _bits(opp == 1)
        self.n = len(side)


Case = list[tuple[np.ndarray, np.ndarray]]


def _none_on_bar(h: _Hits) -> Case:
    """Each roll's (pips, checkers hit) when the hitting side has nothing on the bar."""
    out = []
    for ways in BY_ROLL:
        pips = np.zeros(h.n, dtype=np.int64)
        chequers = np.zeros(h.n, dtype=np.int64)
        last = np.full(h.n, -1)
        for way in ways:
            _all, passed, faces, way_pips = WAYS[way]
            has, k = h.some[way], h.top[way]
            pips = np.maximum(pips, has * (k - way_pips + 1))
            if faces == 1:
                chequers += has & ((last != k) | ((h.made >> np.maximum(k, 0)) & 1 == 1))
                last = np.where(has, k, last)
                if len(ways) == 4:
                    chequers += has & h.several[way]
            else:
                chequers += has & (chequers == 0)
                second = np.zeros(h.n, dtype=bool)
                for p in passed:
                    second |= (h.blots >> (23 - k + p)) & 1 == 1
                chequers += has & second
        out.append((pips, chequers))
    return out


def _one_on_bar(h: _Hits) -> Case:
    """... with one checker on the bar: it hits from the bar, or one checker of the board
    with the other die where that die can enter."""
    out = []
    for ways in BY_ROLL:
        pips = np.zeros(h.n, dtype=np.int64)
        chequers = np.zeros(h.n, dtype=np.int64)
        entered = np.zeros(h.n, dtype=bool)
        for j, way in enumerate(ways):
            _all, passed, faces, way_pips = WAYS[way]
            at_bar = h.bar[way]
            pips = np.maximum(pips, at_bar * (25 - way_pips))
            if faces == 1:
                chequers += at_bar
                k = h.top[way]
                inner = (k > 0) & ~entered & ~(h.opp[:, WAYS[ways[1 - j]][3] - 1] > 1)
                entered |= inner
                chequers += inner
                pips = np.maximum(pips, inner * (k - way_pips + 1))
            else:
                chequers += at_bar & (chequers == 0)
                second = np.zeros(h.n, dtype=bool)
                for p in passed:
                    second |= h.opp[:, p + 1] == 1
                chequers += at_bar & second
        out.append((pips, chequers))
    return out


def _more_on_bar(h: _Hits) -> Case:
    """... with two or more on the bar: only a single die's hit from the bar counts."""
    out = []
    for ways in BY_ROLL:
        pips = np.zeros(h.n, dtype=np.int64)
        chequers = np.zeros(h.n, dtype=np.int64)
        for way in ways[:2]:
            if WAYS[way][2] == 1:
                chequers += h.bar[way]
                pips = np.maximum(pips, h.bar[way] * (25 - WAYS[way][3]))
        out.append((pips, chequers))
    return out

"""gnubg's shot count (the PIPLOSS, P1 and P2 inputs of `CalculateHalfInputs`, eval.c) for a
batch of boards at once: the pips a side's hits cost the opponent's blots on average, and the
chances to hit at least one and at least two of them. One row per board; every step is a
numpy operation over the whole batch (gnubg's loops over points and rolls are unrolled into
fixed index tables), because the analysis asks it of every legal move of all 21 rolls of
every turn.

Blots on the hitter's ace and deuce points count only once the hitter has three home
points: gnubg 1.07 counts points holding any checker, 1.08 made points only
(`generation.Generation.counts_made_home_points`; gnubg-nn's `pipLossP1P2` has 1.08's rule).

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


def home_points(side: np.ndarray, made_home: bool) -> np.ndarray:
    """Per row, the side's home points as gnubg counts them before it looks for shots:
    made points (`made_home`, gnubg 1.08) or points holding any checker (1.07)."""
    return ((side[:, :6] >= 2) if made_home else (side[:, :6] > 0)).sum(axis=1)


def rules_differ(side: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Per row, whether 1.07's and 1.08's counts of home points can give `side` different
    shot inputs: three or more points holding a checker but fewer than three made, and an
    opponent's blot on `side`'s ace or deuce point (the opponent's 23 or 22)."""
    return ((home_points(side, False) > 2) & (home_points(side, True) <= 2)
            & ((opp[:, 22] == 1) | (opp[:, 23] == 1)))


def _hits(side: np.ndarray, opp: np.ndarray, made_home: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """gnubg's `aHit` per way (n x 39), as what the second loop reads of its bits: whether
    any and more than one of the hitters' points are set, the highest one below the bar
    (-1: none), whether the bar's is set. `made_home`: how home points are counted (`home_points`).

    Worked out on bit masks in the hitter's numbering: a blot on the opponent's point i is
    on the hitter's point 23 - i, so the blots reversed and shifted by a way's distance are
    the hitters' points that reach them; a point passed on the way, p pips from the blot,
    is the opponent's i - p, the reversed made points shifted by the distance less p."""
    reversed_blots = _bits(opp[:, 23::-1] == 1)
    # gnubg looks at blots on the opponent's points up to 21 only (not the hitter's ace and
    # deuce points, the opponent's 22 and 23) with fewer than three home points
    reversed_blots &= np.where(home_points(side, made_home) > 2, -1, ~np.int64(3))
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


def _roll_tables() -> tuple[np.ndarray, ...]:
    """gnubg's ways of each of the 21 rolls laid out as columns (roll) by slot (the way's
    place in the roll's list, up to four): the way, whether the slot is used, whether it
    uses one die, its pips, the points passed (up to three, and which are used), and for
    a one-die way the point the other die enters on (gnubg's `aaRoll[r][1 - j]`)."""
    way = np.zeros((21, 4), dtype=np.int64)
    used = np.zeros((21, 4), dtype=bool)
    single = np.zeros((21, 4), dtype=bool)
    pips = np.zeros((21, 4), dtype=np.int64)
    passed = np.zeros((21, 4, 3), dtype=np.int64)
    passed_used = np.zeros((21, 4, 3), dtype=bool)
    other = np.zeros((21, 4), dtype=np.int64)
    for r, ways in enumerate(BY_ROLL):
        for slot, w in enumerate(ways):
            _all, points, faces, way_pips = WAYS[w]
            way[r, slot], used[r, slot], single[r, slot], pips[r, slot] = w, True, faces == 1, way_pips
            passed[r, slot, :len(points)] = points
            passed_used[r, slot, :len(points)] = True
            if slot < 2:
                other[r, slot] = WAYS[ways[1 - slot]][3] - 1
    return way, used, single, pips, passed, passed_used, other


_WAY, _USED, _SINGLE, _PIPS, _PASSED, _PASSED_USED, _OTHER = _roll_tables()
_DOUBLES = np.array([len(ways) == 4 for ways in BY_ROLL])
_WEIGHT = np.where(_DOUBLES, 1, 2)


def pip_loss(side: np.ndarray, opp: np.ndarray, made_home: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """gnubg's shot inputs of each row: (pips lost / 432, P(hit one), P(hit two)), float64,
    with home points counted as `home_points(side, made_home)` does.
    Rows without a shot are 0; the others go through gnubg's second loop by what the
    hitting side has on the bar (none, one, more), each case on its own rows, all 21
    rolls at once (n x 21), a roll's ways one slot at a time as gnubg takes them."""
    n = len(side)
    pips = np.zeros(n, dtype=np.int64)
    one = np.zeros(n, dtype=np.int64)
    two = np.zeros(n, dtype=np.int64)
    some, several, top, bar = _hits(side, opp, made_home)
    shot = some.any(axis=1)
    on_bar = side[:, 24]
    for case, rows in ((_none_on_bar, shot & (on_bar == 0)), (_one_on_bar, shot & (on_bar == 1)),
                       (_more_on_bar, shot & (on_bar >= 2))):
        at = np.flatnonzero(rows)
        if len(at):
            lost, chequers = case(_Hits(side[at], opp[at], some[at], several[at], top[at], bar[at]))
            pips[at] = (lost * _WEIGHT).sum(axis=1)
            one[at] = ((chequers > 0) * _WEIGHT).sum(axis=1)
            two[at] = ((chequers > 1) * _WEIGHT).sum(axis=1)
    return pips / (12.0 * 36.0), one / 36.0, two / 36.0


class _Hits:
    """The rows of one case: boards, gnubg's `aHit` read per way (n x 39) and the
    side's made points and the opponent's blots as bits."""

    def __init__(self, side: np.ndarray, opp: np.ndarray, some: np.ndarray, several: np.ndarray,
                 top: np.ndarray, bar: np.ndarray) -> None:
        self.opp, self.some, self.several, self.top, self.bar = opp, some, several, top, bar
        self.made = _bits(side > 1)[:, None]
        self.blots = _bits(opp == 1)[:, None]
        self.shape = (len(side), 21)


def _none_on_bar(h: _Hits) -> tuple[np.ndarray, np.ndarray]:
    """Each roll's (pips, checkers hit) when the hitting side has nothing on the bar."""
    pips = np.zeros(h.shape, dtype=np.int64)
    chequers = np.zeros(h.shape, dtype=np.int64)
    last = np.full(h.shape, -1)
    for slot in range(4):
        way, single = _WAY[:, slot], _SINGLE[:, slot]
        has = h.some[:, way] & _USED[:, slot]
        k = h.top[:, way]
        pips = np.maximum(pips, has * (k - _PIPS[:, slot] + 1))
        one_die = (has & ((last != k) | ((h.made >> np.maximum(k, 0)) & 1 == 1))).astype(np.int64)
        one_die += has & h.several[:, way] & _DOUBLES
        last = np.where(has & single, k, last)
        second = np.zeros(h.shape, dtype=bool)
        for i in range(3):
            second |= _PASSED_USED[:, slot, i] & ((h.blots >> (23 - k + _PASSED[:, slot, i])) & 1 == 1)
        more_dice = (has & (chequers == 0)).astype(np.int64)
        more_dice += has & second
        chequers += np.where(single, one_die, more_dice)
    return pips, chequers


def _one_on_bar(h: _Hits) -> tuple[np.ndarray, np.ndarray]:
    """... with one checker on the bar: it hits from the bar, or one checker of the board
    with the other die where that die can enter."""
    pips = np.zeros(h.shape, dtype=np.int64)
    chequers = np.zeros(h.shape, dtype=np.int64)
    entered = np.zeros(h.shape, dtype=bool)
    for slot in range(4):
        way, single = _WAY[:, slot], _SINGLE[:, slot]
        at_bar = h.bar[:, way] & _USED[:, slot]
        pips = np.maximum(pips, at_bar * (25 - _PIPS[:, slot]))
        k = h.top[:, way]
        inner = single & (k > 0) & ~entered & ~(h.opp[:, _OTHER[:, slot]] > 1)
        entered |= inner
        pips = np.maximum(pips, inner * (k - _PIPS[:, slot] + 1))
        second = np.zeros(h.shape, dtype=bool)
        for i in range(3):
            second |= _PASSED_USED[:, slot, i] & (h.opp[:, _PASSED[:, slot, i] + 1] == 1)
        more_dice = (at_bar & (chequers == 0)).astype(np.int64)
        more_dice += at_bar & second
        chequers += np.where(single, at_bar.astype(np.int64) + inner, more_dice)
    return pips, chequers


def _more_on_bar(h: _Hits) -> tuple[np.ndarray, np.ndarray]:
    """... with two or more on the bar: only a single die's hit from the bar counts."""
    pips = np.zeros(h.shape, dtype=np.int64)
    chequers = np.zeros(h.shape, dtype=np.int64)
    for slot in range(2):
        at_bar = h.bar[:, _WAY[:, slot]] & _SINGLE[:, slot]
        chequers += at_bar
        pips = np.maximum(pips, at_bar * (25 - _PIPS[:, slot]))
    return pips, chequers

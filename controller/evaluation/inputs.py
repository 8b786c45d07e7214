"""gnubg's neural network inputs (gnubg-nn's inputs.c, the encodings gnubg 1.07's
weights were trained with): the 200 base inputs of the pruning networks, the 214 race
inputs, and the 250 contact/crashed inputs (base inputs plus 25 hand-made features per
side: men off, contact to break, free pips, timing, anchors, shots and the pips they
cost, escapes, containment, mobility, the bar, backbone, back game).

Boards are gnubg's: `board[0]` the side not on roll, `board[1]` the side on roll, 25
counts each from that side's ace point, the bar last.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Side = Sequence[int]
Board = Sequence[Side]

BASE_INPUTS, RACE_INPUTS, CONTACT_INPUTS = 200, 214, 250
HALF_RACE, RACE_OFF, RACE_CROSS = 107, 92, 106
MORE = 25
(I_OFF1, I_BREAK_CONTACT, I_BACK_CHEQUER, I_BACK_ANCHOR, I_FORWARD_ANCHOR, I_PIPLOSS, I_P1, I_P2,
 I_BACKESCAPES, I_ACONTAIN, I_ACONTAIN2, I_CONTAIN, I_CONTAIN2, I_MOBILITY, I_MOMENT2, I_ENTER, I_ENTER2,
 I_TIMING, I_BACKBONE, I_BACKG, I_BACKG1, I_FREEPIP, I_BACKRESCAPES) = (0, *range(3, 25))


def _escape_tables() -> tuple[list[int], list[int]]:
    """Rolls (of 36) that carry a checker past a stretch of 12 points, for every pattern
    of blocked points (bit i: the i-th point ahead is made); the second table counts only
    rolls that get beyond the first blocked point."""
    plain, beyond = [0] * 0x1000, [0] * 0x1000
    for pattern in range(0x1000):
        low = next((b for b in range(12) if pattern & (1 << b)), 12)
        for n0 in range(6):
            for n1 in range(n0 + 1):
                if pattern & (1 << (n0 + n1 + 1)) or (pattern & (1 << n0) and pattern & (1 << n1)):
                    continue
                weight = 1 if n0 == n1 else 2
                plain[pattern] += weight
                if pattern and n0 + n1 + 1 > low:
                    beyond[pattern] += weight
    return plain, beyond


_ESCAPES, _ESCAPES_BEYOND = _escape_tables()


def made_points(side: Side) -> int:
    """Bit i set where `side` holds point i (two checkers or more)."""
    return sum(1 << i for i in range(25) if side[i] > 1)


def escapes(made: int, n: int) -> int:
    """Rolls that let a checker n points in front of `made`'s points (from its own point
    24 - n) past the next twelve points (gnubg's `Escapes`)."""
    return _ESCAPES[(made >> (24 - n)) & ((1 << min(12, n)) - 1)]


def escapes_beyond(made: int, n: int) -> int:
    return _ESCAPES_BEYOND[(made >> (24 - n)) & ((1 << min(12, n)) - 1)]


# The ways to hit (gnubg's aIntermediate): (all intermediate points needed, the points
# passed on the way, dice faces used, pips).
_WAYS: tuple[tuple[bool, tuple[int, ...], int, int], ...] = (
    (True, (), 1, 1), (True, (), 1, 2), (True, (1,), 2, 2), (True, (), 1, 3), (False, (1, 2), 2, 3),
    (True, (1, 2), 3, 3), (True, (), 1, 4), (False, (1, 3), 2, 4), (True, (2,), 2, 4), (True, (1, 2, 3), 4, 4),
    (True, (), 1, 5), (False, (1, 4), 2, 5), (False, (2, 3), 2, 5), (True, (), 1, 6), (False, (1, 5), 2, 6),
    (False, (2, 4), 2, 6), (True, (3,), 2, 6), (True, (2, 4), 3, 6), (False, (1, 6), 2, 7), (False, (2, 5), 2, 7),
    (False, (3, 4), 2, 7), (False, (2, 6), 2, 8), (False, (3, 5), 2, 8), (True, (4,), 2, 8), (True, (2, 4, 6), 4, 8),
    (False, (3, 6), 2, 9), (False, (4, 5), 2, 9), (True, (3, 6), 3, 9), (False, (4, 6), 2, 10), (True, (5,), 2, 10),
    (False, (5, 6), 2, 11), (True, (6,), 2, 12), (True, (4, 8), 3, 12), (True, (3, 6, 9), 4, 12),
    (True, (5, 10), 3, 15), (True, (4, 8, 12), 4, 16), (True, (6, 12), 3, 18), (True, (5, 10, 15), 4, 20),
    (True, (6, 12, 18), 4, 24))
# For a distance of d+1 pips, the ways that hit from there (indices into _WAYS).
_BY_DISTANCE: tuple[tuple[int, ...], ...] = (
    (0,), (1, 2), (3, 4, 5), (6, 7, 8, 9), (10, 11, 12), (13, 14, 15, 16, 17), (18, 19, 20), (21, 22, 23, 24),
    (25, 26, 27), (28, 29), (30,), (31, 32, 33), (), (), (34,), (35,), (), (36,), (), (37,), (), (), (), (38,))
# For each of the 21 rolls (11, 21, 22, 31, ... 66), the ways it hits.
_BY_ROLL: tuple[tuple[int, ...], ...] = (
    (0, 2, 5, 9), (0, 1, 4), (1, 8, 17, 24), (0, 3, 7), (1, 3, 12), (3, 16, 27, 33), (0, 6, 11), (1, 6, 15),
    (3, 6, 20), (6, 23, 32, 35), (0, 10, 14), (1, 10, 19), (3, 10, 22), (6, 10, 26), (10, 29, 34, 37),
    (0, 13, 18), (1, 13, 21), (3, 13, 25), (6, 13, 28), (10, 13, 30), (13, 31, 36, 38))


def pip_loss(side: Side, opp: Side) -> tuple[float, float, float]:
    """gnubg's shot count (`pipLossP1P2`): the pips the opponent's hit blots lose on
    average (/ 432), the chance to hit at least one and at least two checkers."""
    n_board = sum(1 for i in range(6) if side[i] >= 2)
    hit = [0] * 39
    for i in range(23 if n_board > 2 else 21, -1, -1):
        if opp[i] != 1:
            continue
        for j in range(24 - i, 25):
            if not side[j] or (j < 6 and side[j] == 2):
                continue
            for way in _BY_DISTANCE[j - 24 + i]:
                all_needed, passed, faces, _pips = _WAYS[way]
                if all_needed:
                    if faces > 1 and any(opp[i - p] > 1 for p in passed):
                        continue
                elif opp[i - passed[0]] > 1 and opp[i - passed[1]] > 1:
                    continue
                hit[way] |= 1 << j
    pips = [0] * 21
    chequers = [0] * 21
    if not side[24]:
        for r in range(21):
            n = -1
            for way in _BY_ROLL[r]:
                if not hit[way]:
                    continue
                _all, passed, faces, way_pips = _WAYS[way]
                if faces == 1:
                    for k in range(23, 0, -1):
                        if hit[way] & (1 << k):
                            if n != k or side[k] > 1:
                                chequers[r] += 1
                            n = k
                            pips[r] = max(pips[r], k - way_pips + 1)
                            if len(_BY_ROLL[r]) == 4 and hit[way] & ~(1 << k):
                                chequers[r] += 1
                            break
                else:
                    if not chequers[r]:
                        chequers[r] = 1
                    k = 23
                    while k >= 0 and not hit[way] & (1 << k):
                        k -= 1
                    pips[r] = max(pips[r], k - way_pips + 1)
                    for p in passed:
                        if opp[23 - k + p] == 1:
                            chequers[r] += 1
                            break
    elif side[24] == 1:
        for r in range(21):
            n = 0
            ways = _BY_ROLL[r]
            for j, way in enumerate(ways):
                if not hit[way]:
                    continue
                _all, passed, faces, way_pips = _WAYS[way]
                if faces == 1:
                    for k in range(24, 0, -1):
                        if hit[way] & (1 << k):
                            if n and k != 24:
                                break
                            if k != 24:
                                if opp[_WAYS[ways[1 - j]][3] - 1] > 1:
                                    break
                                n = 1
                            chequers[r] += 1
                            pips[r] = max(pips[r], k - way_pips + 1)
                else:
                    if not hit[way] & (1 << 24):
                        continue
                    if not chequers[r]:
                        chequers[r] = 1
                    pips[r] = max(pips[r], 25 - way_pips)
                    for p in passed:
                        if opp[p + 1] == 1:
                            chequers[r] += 1
                            break
    else:
        for r in range(21):
            for way in _BY_ROLL[r][:2]:
                if not hit[way] & (1 << 24) or _WAYS[way][2] != 1:
                    continue
                chequers[r] += 1
                pips[r] = max(pips[r], 25 - _WAYS[way][3])
    np_, n1, n2 = 0, 0, 0
    for r in range(21):
        w = 1 if len(_BY_ROLL[r]) == 4 else 2
        np_ += pips[r] * w
        if chequers[r] > 0:
            n1 += w
            if chequers[r] > 1:
                n2 += w
    return np_ / (12.0 * 36.0), n1 / 36.0, n2 / 36.0


def _enter_loss(opp: Side, two: bool) -> int:
    loss = 0
    for i in range(6):
        if opp[i] > 1:
            loss += 4 * (i + 1)
            for j in range(i + 1, 6):
                if opp[j] > 1:
                    loss += 2 * (i + j + 2)
                elif two:
                    loss += 2 * (i + 1)
        elif two:
            for j in range(i + 1, 6):
                if opp[j] > 1:
                    loss += 2 * (j + 1)
    return loss


def _men_off_all(off: int) -> tuple[float, float, float]:
    if off > 10:
        return 1.0, 1.0, (off - 10) / 5.0
    if off > 5:
        return 1.0, (off - 5) / 5.0, 0.0
    return (off / 5.0 if off else 0.0), 0.0, 0.0


def _men_off_contact(off: int) -> tuple[float, float, float]:
    if off > 5:
        return 1.0, 1.0, (off - 6) / 3.0
    if off > 2:
        return 1.0, (off - 3) / 3.0, 0.0
    return (off / 3.0 if off else 0.0), 0.0, 0.0


def half_inputs(side: Side, opp: Side, out: np.ndarray) -> None:
    """gnubg's 25 extra inputs of `side` against `opp` (`CalculateHalfInputs`)."""
    out[0:3] = _men_off_all(15 - sum(side))
    top_opp = next((i for i in range(24, -1, -1) if opp[i]), -1)
    opp_back = 23 - top_opp
    out[I_BREAK_CONTACT] = sum((i + 1 - opp_back) * side[i] for i in range(opp_back + 1, 25) if side[i]) / (15 + 152.0)
    out[I_FREEPIP] = sum((i + 1) * side[i] for i in range(opp_back) if side[i]) / 100.0
    # timing
    t = 24 * side[24]
    no = side[24]
    i = 23
    while i >= 12 and i > opp_back:
        if side[i] and side[i] != 2:
            n = side[i] - 2 if side[i] > 2 else 1
            no += n
            t += i * n
        i -= 1
    while i >= 6:
        if side[i]:
            no += side[i]
            t += i * side[i]
        i -= 1
    for i in range(5, -1, -1):
        if side[i] > 2:
            t += i * (side[i] - 2)
            no += side[i] - 2
        elif side[i] < 2:
            n = 2 - side[i]
            if no >= n:
                t -= i * n
                no -= n
    out[I_TIMING] = max(t, 0) / 100.0
    back = next((i for i in range(24, -1, -1) if side[i]), -1)
    out[I_BACK_CHEQUER] = back / 24.0
    anchor = next((i for i in range(23 if back == 24 else back, -1, -1) if side[i] >= 2), -1)
    out[I_BACK_ANCHOR] = anchor / 24.0
    n = next((24 - j for j in range(18, anchor + 1) if side[j] >= 2), 0)
    if n == 0:
        n = next((24 - j for j in range(17, 11, -1) if side[j] >= 2), 0)
    out[I_FORWARD_ANCHOR] = 2.0 if n == 0 else n / 6.0
    out[I_PIPLOSS], out[I_P1], out[I_P2] = pip_loss(side, opp)
    made, opp_made = made_points(side), made_points(opp)
    out[I_BACKESCAPES] = escapes(made, 23 - opp_back) / 36.0
    out[I_BACKRESCAPES] = escapes_beyond(made, 23 - opp_back) / 36.0
    n = min([36] + [escapes(made, i) for i in range(15, 24 - opp_back)])
    out[I_ACONTAIN] = (36 - n) / 36.0
    out[I_ACONTAIN2] = out[I_ACONTAIN] * out[I_ACONTAIN]
    n = min([36] + [escapes(made, i) for i in range(15, 24)])
    out[I_CONTAIN] = (36 - n) / 36.0
    out[I_CONTAIN2] = out[I_CONTAIN] * out[I_CONTAIN]
    out[I_MOBILITY] = sum((i - 5) * side[i] * escapes(opp_made, i) for i in range(6, 25) if side[i]) / 3600.0
    # one-sided moment
    j = sum(side)
    n = sum(i * side[i] for i in range(25))
    if j:
        n = (n + j - 1) // j
    j = k = 0
    for i in range(n + 1, 25):
        if side[i]:
            j += side[i]
            k += side[i] * (i - n) * (i - n)
    if j:
        k = (k + j - 1) // j
    out[I_MOMENT2] = k / 400.0
    out[I_ENTER] = _enter_loss(opp, side[24] > 1) / (36.0 * (49.0 / 6.0)) if side[24] > 0 else 0.0
    made = sum(1 for i in range(6) if opp[i] > 1)
    out[I_ENTER2] = (36 - (made - 6) * (made - 6)) / 36.0
    # backbone
    pa, w, tot = -1, 0, 0
    for np_ in range(23, 0, -1):
        if side[np_] >= 2:
            if pa == -1:
                pa = np_
                continue
            d = pa - np_
            c = 11 if d <= 6 else 13 - d if d <= 11 else 0
            w += c * side[pa]
            tot += side[pa]
    out[I_BACKBONE] = 1 - (w / (tot * 11.0)) if tot else 0.0
    anchors = sum(1 for i in range(18, 24) if side[i] > 1)
    back_men = sum(side[18:24]) + side[24]
    out[I_BACKG] = (back_men - 3) / 4.0 if anchors > 1 else 0.0
    out[I_BACKG1] = back_men / 8.0 if anchors == 1 else 0.0


_BASE_ROWS = np.zeros((16, 4), dtype=np.float32)
for _n in range(16):
    _BASE_ROWS[_n] = (_n == 1, _n == 2, _n >= 3, (_n - 3) / 2.0 if _n > 3 else 0.0)
_BAR_ROWS = np.zeros((16, 4), dtype=np.float32)
for _n in range(16):
    _BAR_ROWS[_n] = (_n >= 1, _n >= 2, _n >= 3, (_n - 3) / 2.0 if _n > 3 else 0.0)


def base_inputs(boards: np.ndarray) -> np.ndarray:
    """The 200 base inputs of a batch of boards (n x 2 x 25 counts) -> n x 200."""
    counts = np.minimum(boards, 15)
    out = np.empty((len(boards), 2, 25, 4), dtype=np.float32)
    out[:, :, :24] = _BASE_ROWS[counts[:, :, :24]]
    out[:, :, 24] = _BAR_ROWS[counts[:, :, 24]]
    return out.reshape(len(boards), BASE_INPUTS)


def race_inputs(boards: np.ndarray) -> np.ndarray:
    """The 214 race inputs of a batch of race boards -> n x 214."""
    n = len(boards)
    counts = np.minimum(boards, 15)
    out = np.zeros((n, 2, HALF_RACE), dtype=np.float32)
    out[:, :, :RACE_OFF] = _BASE_ROWS[counts[:, :, :23]].reshape(n, 2, RACE_OFF)
    off = 15 - boards[:, :, :23].sum(axis=2)
    for k in range(14):
        out[:, :, RACE_OFF + k] = off == k + 1
    cross = (boards[:, :, 6:12].sum(axis=2) + 2 * boards[:, :, 12:18].sum(axis=2)
             + 3 * boards[:, :, 18:24].sum(axis=2))
    out[:, :, RACE_CROSS] = cross / np.float32(10.0)
    return out.reshape(n, RACE_INPUTS)


def contact_inputs(boards: np.ndarray, crashed: bool) -> np.ndarray:
    """The 250 inputs of a batch of contact (or crashed) boards -> n x 250. The contact
    network counts men off on its own scale, and gnubg-nn writes them crosswise: the
    first half's men off are those of the side not on roll."""
    out = np.zeros((len(boards), CONTACT_INPUTS), dtype=np.float32)
    out[:, :BASE_INPUTS] = base_inputs(boards)
    for row, board in enumerate(boards.tolist()):
        half_inputs(board[1], board[0], out[row, BASE_INPUTS:BASE_INPUTS + MORE])
        half_inputs(board[0], board[1], out[row, BASE_INPUTS + MORE:])
        if not crashed:
            for s in (0, 1):
                at = BASE_INPUTS + (MORE if s else 0)
                out[row, at:at + 3] = _men_off_contact(15 - sum(board[s]))
    return out

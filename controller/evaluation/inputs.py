"""gnubg's neural network inputs (eval.c's `CalculateHalfInputs` and its neighbours, which
gnubg-nn's inputs.c copies): the 200 base inputs of the pruning networks, the 214 race
inputs, and the 250 contact/crashed inputs (base inputs plus 25 hand-made features per
side: men off, contact to break, free pips, timing, anchors, shots and the pips they
cost, escapes, containment, mobility, the bar, backbone, back game). The shot inputs
follow the release the weights belong to (`made_home`: gnubg 1.08's count of home points,
else 1.07's; `shots`).

Boards are gnubg's: `board[0]` the side not on roll, `board[1]` the side on roll, 25
counts each from that side's ace point, the bar last.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from controller.evaluation.shots import pip_loss, rules_differ

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


_ESCAPE_TABLE = np.array(_ESCAPES, dtype=np.int64)
_ESCAPE_BEYOND_TABLE = np.array(_ESCAPES_BEYOND, dtype=np.int64)


def made_points(side: np.ndarray) -> np.ndarray:
    """Per row, bit i set where the side holds point i (two checkers or more)."""
    return ((side > 1).astype(np.int64) << np.arange(25)).sum(axis=1)


def escapes(made: np.ndarray, n: np.ndarray | int, table: np.ndarray = _ESCAPE_TABLE) -> np.ndarray:
    """Rolls that let a checker n points in front of `made`'s points (from its own point
    24 - n) past the next twelve points (gnubg's `Escapes`), per row; with
    `_ESCAPE_BEYOND_TABLE` only those that get beyond the first blocked point."""
    n = np.asarray(n)
    return table[(made >> (24 - n)) & ((np.int64(1) << np.minimum(12, n)) - 1)]


def _highest(mask: np.ndarray) -> np.ndarray:
    """Per row, the highest column where `mask` is set, -1 where none is."""
    width = mask.shape[1]
    return np.where(mask.any(axis=1), width - 1 - np.argmax(mask[:, ::-1], axis=1), -1)


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


def _enter_table() -> np.ndarray:
    """`_enter_loss` of every home board of the opponent (bit i: point i made), with one
    checker on the bar (column 0) or more (column 1)."""
    table = np.zeros((64, 2))
    for bits in range(64):
        opp = [2 if bits >> i & 1 else 0 for i in range(6)]
        table[bits] = _enter_loss(opp, False), _enter_loss(opp, True)
    return table


_ENTER = _enter_table()
_BACKBONE = np.array([0] + [11 if d <= 6 else 13 - d if d <= 11 else 0 for d in range(1, 24)])


def half_inputs(side: np.ndarray, opp: np.ndarray, made_home: bool) -> np.ndarray:
    """gnubg's 25 extra inputs of `side` against `opp` (`CalculateHalfInputs`), a row per
    board (n x 25 counts each) -> n x 25, every figure worked out in double precision as
    gnubg-nn does and stored as float32; `made_home`: the shot inputs count made home points
    (gnubg 1.08) rather than points holding a checker (1.07)."""
    n = len(side)
    out = np.zeros((n, MORE))
    points = np.arange(25)
    off = 15 - side.sum(axis=1)
    out[:, 0] = np.minimum(off, 5) / 5.0
    out[:, 1] = np.clip(off - 5, 0, 5) / 5.0
    out[:, 2] = np.clip(off - 10, 0, 5) / 5.0
    top_opp = _highest(opp > 0)
    opp_back = 23 - top_opp
    beyond = points[None] > opp_back[:, None]
    out[:, I_BREAK_CONTACT] = ((points + 1 - opp_back[:, None]) * side * beyond).sum(axis=1) / (15 + 152.0)
    out[:, I_FREEPIP] = ((points + 1) * side * (points[None] < opp_back[:, None])).sum(axis=1) / 100.0
    out[:, I_TIMING] = _timing(side, opp_back) / 100.0
    back = _highest(side > 0)
    out[:, I_BACK_CHEQUER] = back / 24.0
    held = side >= 2
    anchor = _highest(held[:, :24])
    out[:, I_BACK_ANCHOR] = anchor / 24.0
    forward = np.where(held[:, 18:24].any(axis=1), 24 - (18 + np.argmax(held[:, 18:24], axis=1)),
                       np.where(held[:, 12:18].any(axis=1), 24 - (12 + _highest(held[:, 12:18])), 0))
    out[:, I_FORWARD_ANCHOR] = np.where(forward == 0, 2.0, forward / 6.0)
    out[:, I_PIPLOSS], out[:, I_P1], out[:, I_P2] = pip_loss(side, opp, made_home)
    made, opp_made = made_points(side), made_points(opp)
    out[:, I_BACKESCAPES] = escapes(made, top_opp) / 36.0
    out[:, I_BACKRESCAPES] = escapes(made, top_opp, _ESCAPE_BEYOND_TABLE) / 36.0
    ahead = np.arange(15, 25)
    ahead_escapes = escapes(made[:, None], ahead[None])
    out[:, I_ACONTAIN] = (36 - np.minimum(36, np.where(ahead[None] <= top_opp[:, None], ahead_escapes, 36)
                                          .min(axis=1))) / 36.0
    out[:, I_CONTAIN] = (36 - np.minimum(36, ahead_escapes[:, :-1].min(axis=1))) / 36.0
    outfield = np.arange(6, 25)
    out[:, I_MOBILITY] = ((outfield - 5) * side[:, 6:] * escapes(opp_made[:, None], outfield[None])).sum(axis=1) / 3600.0
    out[:, I_MOMENT2] = _moment2(side) / 400.0
    home = ((opp[:, :6] > 1).astype(np.int64) << np.arange(6)).sum(axis=1)
    out[:, I_ENTER] = np.where(side[:, 24] > 0, _ENTER[home, (side[:, 24] > 1).astype(np.int64)], 0.0) \
        / (36.0 * (49.0 / 6.0))
    home_made = (opp[:, :6] > 1).sum(axis=1)
    out[:, I_ENTER2] = (36 - (home_made - 6) * (home_made - 6)) / 36.0
    out[:, I_BACKBONE] = _backbone(side)
    anchors = (side[:, 18:24] > 1).sum(axis=1)
    back_men = side[:, 18:25].sum(axis=1)
    out[:, I_BACKG] = np.where(anchors > 1, (back_men - 3) / 4.0, 0.0)
    out[:, I_BACKG1] = np.where(anchors == 1, back_men / 8.0, 0.0)
    half = out.astype(np.float32)
    half[:, I_ACONTAIN2] = half[:, I_ACONTAIN] * half[:, I_ACONTAIN]
    half[:, I_CONTAIN2] = half[:, I_CONTAIN] * half[:, I_CONTAIN]
    return half


def _timing(side: np.ndarray, opp_back: np.ndarray) -> np.ndarray:
    """gnubg's timing: the pips the side can play before it must break its home board."""
    outer = side[:, 6:24]
    points = np.arange(6, 24)
    first = (points[None] >= 12) & (points[None] > opp_back[:, None])  # gnubg's first loop keeps two a point
    moved = np.where(first, np.where(outer > 2, outer - 2, (outer == 1).astype(np.int64)), outer)
    spare = side[:, 24] + moved.sum(axis=1)
    t = 24 * side[:, 24] + (points * moved).sum(axis=1)
    for i in range(5, -1, -1):
        s = side[:, i]
        extra = s > 2
        t += np.where(extra, i * (s - 2), 0)
        spare += np.where(extra, s - 2, 0)
        need = 2 - s
        fill = (s < 2) & (spare >= need)
        t -= np.where(fill, i * need, 0)
        spare -= np.where(fill, need, 0)
    return np.maximum(t, 0)


def _moment2(side: np.ndarray) -> np.ndarray:
    """gnubg's one-sided second moment of the checkers behind the mean (rounded up)."""
    points = np.arange(25)
    total = side.sum(axis=1)
    mean = (side * points).sum(axis=1)
    mean = np.where(total > 0, (mean + total - 1) // np.maximum(total, 1), mean)
    behind = points[None] > mean[:, None]
    count = (side * behind).sum(axis=1)
    k = (side * behind * (points[None] - mean[:, None]) ** 2).sum(axis=1)
    return np.where(count > 0, (k + count - 1) // np.maximum(count, 1), k)


def _backbone(side: np.ndarray) -> np.ndarray:
    """gnubg's backbone: how far the side's points are spread behind its rearmost point
    (from point 23 down), 0 without two such points."""
    held = side[:, 1:24] >= 2
    rear = _highest(held) + 1
    rear_count = np.where(rear > 0, side[np.arange(len(side)), np.maximum(rear, 0)], 0)
    points = np.arange(1, 24)
    others = held & (points[None] < rear[:, None])
    w = (_BACKBONE[np.clip(rear[:, None] - points[None], 0, 23)] * others).sum(axis=1) * rear_count
    tot = others.sum(axis=1) * rear_count
    return np.where(tot > 0, 1 - w / np.maximum(tot * 11.0, 1.0), 0.0)


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


def contact_inputs(boards: np.ndarray, crashed: bool, made_home: bool) -> np.ndarray:
    """The 250 inputs of a batch of contact (or crashed) boards -> n x 250 (`made_home`: as
    `half_inputs`). The contact network counts men off on its own scale, and gnubg writes
    them crosswise: the first half's men off are those of the side not on roll."""
    out = np.empty((len(boards), CONTACT_INPUTS), dtype=np.float32)
    out[:, :BASE_INPUTS] = base_inputs(boards)
    out[:, BASE_INPUTS:BASE_INPUTS + MORE] = half_inputs(boards[:, 1], boards[:, 0], made_home)
    out[:, BASE_INPUTS + MORE:] = half_inputs(boards[:, 0], boards[:, 1], made_home)
    if not crashed:
        for s in (0, 1):
            at = BASE_INPUTS + (MORE if s else 0)
            off = 15 - boards[:, s].sum(axis=1)
            out[:, at] = np.where(off > 2, 1.0, off / 3.0)
            out[:, at + 1] = np.where(off > 5, 1.0, np.where(off > 2, (off - 3) / 3.0, 0.0))
            out[:, at + 2] = np.where(off > 5, (off - 6) / 3.0, 0.0)
    return out


def releases_differ(boards: np.ndarray) -> np.ndarray:
    """Per board (n x 2 x 25), whether gnubg 1.07's and 1.08's contact inputs can differ on
    it (`shots.rules_differ` for either side): elsewhere the two are the same inputs."""
    return rules_differ(boards[:, 1], boards[:, 0]) | rules_differ(boards[:, 0], boards[:, 1])

"""gnubg's position classes and its sanity checks on a network's five outputs.

Classes (gnubg-nn's numbering, which `gnubg_nn.classify` returns): 0 game over, 1 small
bear-off (both sides within the two-sided database: six points, six checkers), 2 bear-off
(both sides home: the one-sided database), 3 race, 4 crashed, 5 contact.
"""
from __future__ import annotations

from collections.abc import Sequence

from controller.evaluation.bearoff_index import one_sided_index

OVER, BEAROFF2, BEAROFF1, RACE, CRASHED, CONTACT = range(6)
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
Board = Sequence[Sequence[int]]


def _crashed_side(side: Sequence[int]) -> bool:
    """gnubg's test that a side has (nearly) no checkers left to play with: at most six
    besides those stacked deep on its ace (and deuce) point."""
    tot = sum(side)
    if tot <= 6:
        return True
    if side[0] > 1:
        if tot - side[0] <= 6:
            return True
        return side[1] > 1 and 1 + tot - (side[0] + side[1]) <= 6
    return tot - (side[1] - 1) <= 6


def classify(board: Board) -> int:
    """gnubg's class of the board (`ClassifyPosition`)."""
    opp_back = next((i for i in range(24, -1, -1) if board[0][i]), -1)
    back = next((i for i in range(24, -1, -1) if board[1][i]), -1)
    if back < 0 or opp_back < 0:
        return OVER
    if back + opp_back > 22:
        return CRASHED if _crashed_side(board[0]) or _crashed_side(board[1]) else CONTACT
    if back > 5 or opp_back > 5:
        return RACE
    if one_sided_index(board[0]) > 923 or one_sided_index(board[1]) > 923:
        return BEAROFF1
    return BEAROFF2


def sanity_check(board: Board, out: list[float]) -> None:
    """gnubg's `SanityCheck`, in place: no gammons once a side has borne off, no
    backgammons once it is out of the other's home board (without contact), outputs
    ordered (backgammons <= gammons <= wins), and gammon chances under 1e-4 are zero."""
    back = [-1, -1]
    count = [0, 0]
    for j in (0, 1):
        for i in range(25):
            if board[j][i]:
                back[j] = i
                count[j] += board[j][i]
    contact = back[0] + back[1] >= 24
    if count[0] < 15:
        out[WIN_GAMMON] = out[WIN_BACKGAMMON] = 0.0
    elif not contact and back[0] < 18:
        out[WIN_BACKGAMMON] = 0.0
    if count[1] < 15:
        out[LOSE_GAMMON] = out[LOSE_BACKGAMMON] = 0.0
    elif not contact and back[1] < 18:
        out[LOSE_BACKGAMMON] = 0.0
    out[WIN] = min(max(out[WIN], 0.0), 1.0)
    out[WIN_GAMMON] = min(out[WIN_GAMMON], out[WIN])
    out[LOSE_GAMMON] = min(out[LOSE_GAMMON], _f32(1.0 - out[WIN]))
    out[WIN_BACKGAMMON] = min(out[WIN_BACKGAMMON], out[WIN_GAMMON])
    out[LOSE_BACKGAMMON] = min(out[LOSE_BACKGAMMON], out[LOSE_GAMMON])
    for i in range(WIN_GAMMON, 5):
        if out[i] < 1e-4:
            out[i] = 0.0


def _f32(x: float) -> float:
    import struct
    return float(struct.unpack("f", struct.pack("f", x))[0])


def game_over(board: Board) -> list[float]:
    """gnubg's `EvalOver`: the result of a finished game for the side on roll."""
    out = [0.0] * 5
    if not any(board[0]):
        if sum(board[1]) > 14:
            out[LOSE_GAMMON] = 1.0
            out[LOSE_BACKGAMMON] = 1.0 if any(board[1][18:25]) else 0.0
        return out
    if not any(board[1]):
        out[WIN] = 1.0
        if sum(board[0]) > 14:
            out[WIN_GAMMON] = 1.0
            out[WIN_BACKGAMMON] = 1.0 if any(board[0][18:25]) else 0.0
    return out

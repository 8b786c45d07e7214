"""gnubg's position classes, and the result of a finished game.

Classes (gnubg-nn's numbering, which `gnubg_nn.classify` returns): 0 game over, 1 small
bear-off (both sides within the two-sided database: six points, six checkers), 2 bear-off
(both sides home: the one-sided database), 3 race, 4 crashed, 5 contact.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from controller.evaluation.bearoff_index import one_sided_index

OVER, BEAROFF2, BEAROFF1, RACE, CRASHED, CONTACT = range(6)
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
Board = Sequence[Sequence[int]]


def _highest(boards: np.ndarray) -> np.ndarray:
    """Per row of counts (n x 25), the highest point with a checker, -1 for none."""
    occupied = boards > 0
    return np.where(occupied.any(axis=1), 24 - np.argmax(occupied[:, ::-1], axis=1), -1)


def _crashed_side(side: np.ndarray) -> np.ndarray:
    """gnubg's test that a side has (nearly) no checkers left to play with: at most six
    besides those stacked deep on its ace (and deuce) point (per row)."""
    tot = side.sum(axis=1)
    ace, deuce = side[:, 0], side[:, 1]
    stacked = (tot - ace <= 6) | ((deuce > 1) & (1 + tot - (ace + deuce) <= 6))
    return (tot <= 6) | np.where(ace > 1, stacked, tot - (deuce - 1) <= 6)


def classify_many(boards: np.ndarray) -> np.ndarray:
    """`classify` of each board of a batch (n x 2 x 25) at once."""
    opp_back, back = _highest(boards[:, 0]), _highest(boards[:, 1])
    contact = back + opp_back > 22
    crashed = _crashed_side(boards[:, 0]) | _crashed_side(boards[:, 1])
    out = np.where(contact, np.where(crashed, CRASHED, CONTACT), np.where((back > 5) | (opp_back > 5), RACE, BEAROFF2))
    for i in np.flatnonzero(out == BEAROFF2):
        if one_sided_index(boards[i, 0].tolist()) > 923 or one_sided_index(boards[i, 1].tolist()) > 923:
            out[i] = BEAROFF1
    out[(back < 0) | (opp_back < 0)] = OVER
    return out


def _crashed(side: Sequence[int]) -> bool:
    """`_crashed_side` of one side (gnubg's own test, for one board at a time)."""
    tot = sum(side)
    if tot <= 6:
        return True
    if side[0] > 1:
        if tot - side[0] <= 6:
            return True
        return side[1] > 1 and 1 + tot - (side[0] + side[1]) <= 6
    return tot - (side[1] - 1) <= 6


def classify(board: Board) -> int:
    """gnubg's class of one board (`ClassifyPosition`; `classify_many` for a batch)."""
    opp_back = next((i for i in range(24, -1, -1) if board[0][i]), -1)
    back = next((i for i in range(24, -1, -1) if board[1][i]), -1)
    if back < 0 or opp_back < 0:
        return OVER
    if back + opp_back > 22:
        return CRASHED if _crashed(board[0]) or _crashed(board[1]) else CONTACT
    if back > 5 or opp_back > 5:
        return RACE
    if one_sided_index(board[0]) > 923 or one_sided_index(board[1]) > 923:
        return BEAROFF1
    return BEAROFF2


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

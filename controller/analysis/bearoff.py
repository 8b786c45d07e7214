"""The two-sided bear-off database (`gnubg_ts0.bd`): exact money equities of small bear-offs.

Where both sides have at most six checkers, all in their home boards, gnubg knows the
exact cubeless and cubeful money equities and uses them to pick the cube efficiency of
its match-play cube formula (eval.c, CLASS_BEAROFF2). The file (shipped with gnubg-nn and
the gnubg program) is a 40-byte header, then per position pair four little-endian
unsigned shorts, equity = value / 32767.5 - 1: cubeless, cube owned by the player on
roll, centred, owned by the opponent. Positions are numbered as gnubg's
`PositionBearoff` does.
"""
from __future__ import annotations

from math import comb

from controller.analysis.cubeful import CENTRE, Chances, CubeInfo, cubeful_mwc

POINTS = CHECKERS = 6
TWO_SIDED_EFFICIENCY = 0.6
"""gnubg's `rTSCubeX`, the most the cube efficiency of a small bear-off may be (1.07 and 1.08)."""
_PAIRS = comb(POINTS + CHECKERS, POINTS)


def _database() -> bytes | None:
    from controller.evaluation.bearoff_db import two_sided

    return two_sided()


def is_small_bearoff(board: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    """Both sides home with at most six checkers each (gnubg's isBearoff for this db)."""
    return all(sum(side) <= CHECKERS and not any(side[POINTS:]) and sum(side) > 0 for side in board)


def _index(side: tuple[int, ...]) -> int:
    """gnubg's PositionBearoff for 6 points and 6 checkers."""
    j = POINTS - 1 + sum(side[:POINTS])
    bits = 1 << j
    for i in range(POINTS - 1):
        j -= side[i] + 1
        bits |= 1 << j

    def position_f(n: int, r: int) -> int:
        if n == r:
            return 0
        if bits & (1 << (n - 1)):
            return comb(n - 1, r) + position_f(n - 1, r - 1)
        return position_f(n - 1, r)

    return position_f(CHECKERS + POINTS, POINTS)


def money_equities(board: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[float, float, float, float] | None:
    """(cubeless, owned, centred, opponent owns) money equities for the side on roll
    (`board[1]`), or None without the database."""
    data = _database()
    if data is None:
        return None
    pos = _index(board[1]) * _PAIRS + _index(board[0])
    at = 40 + 8 * pos
    return tuple(int.from_bytes(data[at + 2 * i:at + 2 * i + 2], "little") / 32767.5 - 1.0  # type: ignore[return-value]
                 for i in range(4))


def _money_live(p: float, owner: int, mover: int) -> float:
    """gnubg's MoneyLive for a bear-off (no gammons: W = L = 1)."""
    w = lose = 1.0
    if owner == CENTRE:
        tp = (lose - 0.5) / (w + lose + 0.5)
        cp = (lose + 1.0) / (w + lose + 0.5)
        if p < tp:
            return -lose + (-1.0 + lose) * p / tp
        if p < cp:
            return -1.0 + 2.0 * (p - tp) / (cp - tp)
        return 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
    if owner == mover:
        cp = (lose + 1.0) / (w + lose + 0.5)
        if p < cp:
            return -lose + (1.0 + lose) * p / cp
        return 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
    tp = (lose - 0.5) / (w + lose + 0.5)
    if p < tp:
        return -lose + (-1.0 + lose) * p / tp
    return -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)


def bearoff_cubeful_mwc(p: Chances, ci: CubeInfo, board: tuple[tuple[int, ...], tuple[int, ...]]) -> float:
    """gnubg's match-play cubeful chance in a small bear-off: the efficiency is the one
    that makes Janowski's money formula give the database's exact cubeful equity."""
    eq = money_equities(board)
    x = TWO_SIDED_EFFICIENCY
    if eq is not None:
        cubeless = eq[0]
        win = p[0]
        if 1e-7 < win < 0.9999999:
            live = _money_live(win, ci.owner, ci.mover)
            janowski = live  # x = 1: all live
        else:
            janowski = 2.0 * win - 1.0
        exact = eq[2] if ci.owner == CENTRE else eq[1] if ci.owner == ci.mover else eq[3]
        if abs(cubeless - janowski) > 0.0001:
            x = (exact - cubeless) / (janowski - cubeless)
        x = min(max(x, 0.0), TWO_SIDED_EFFICIENCY)
    return cubeful_mwc(p, ci, x)

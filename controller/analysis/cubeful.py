"""Cubeful match equity at 0-ply, as GNU Backgammon computes it from cubeless chances (the
same formulas in 1.07 and 1.08; the cube efficiency `x` they take differs: `efficiency`).

gnubg turns the network's five cubeless chances into a cubeful match winning chance by
Janowski's interpolation generalised to match play (Jørn Thyssen): a mix, by the cube
efficiency `x` of the position's class, of the dead-cube chance and a live-cube chance
that is linear between the take and cash points worked out from the match equity table.
This module follows gnubg's `Cl2CfMatch`, `GetPoints`, `getME` and the gammon prices of
`SetCubeInfoMatch` step by step (same formulas, same branches), because the analysis
must agree with gnubg's own numbers; double precision instead of gnubg's floats changes
figures by about 1e-6.

Chances are always those of the player on roll in a `CubeInfo`, as gnubg's `arOutput`:
(win, win gammon, win backgammon, lose gammon, lose backgammon), gammons including
backgammons. Scores are match scores (points won so far), players 0 and 1.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from controller.analysis.met_table import LENGTH, POST_CRAWFORD, PRE_CRAWFORD
from controller.evaluation.backend import Board, Chances

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
CENTRE = -1


class CubeInfo(NamedTuple):
    """gnubg's `cubeinfo` for match play: who is on roll, the cube and who owns it
    (-1 centred), the score and whether this is the Crawford game."""

    match_to: int
    score: tuple[int, int]
    cube: int
    owner: int
    mover: int
    crawford: bool

    def flipped(self) -> "CubeInfo":
        """The same cube with the other player on roll."""
        return self._replace(mover=1 - self.mover)

    def doubled(self) -> "CubeInfo":
        """After the player on roll doubles and the opponent takes (opponent owns it)."""
        return self._replace(cube=2 * self.cube, owner=1 - self.mover)


@lru_cache(maxsize=4096)
def flipped(ci: CubeInfo) -> CubeInfo:
    """`ci.flipped()`, kept: a look-ahead asks for the same few cubes at every node."""
    return ci.flipped()


@lru_cache(maxsize=4096)
def doubled(ci: CubeInfo) -> CubeInfo:
    """`ci.doubled()`, kept likewise."""
    return ci.doubled()


def _mwc0(n0: int, n1: int, post_crawford: bool) -> float:
    """Player 0's match winning chance when players need `n0 + 1`, `n1 + 1` points
    (negative: that player has won); `post_crawford` uses the post-Crawford table."""
    if n0 < 0:
        return 1.0
    if n1 < 0:
        return 0.0
    if post_crawford:
        if n0 == 0:
            return 1.0 - POST_CRAWFORD[n1]
        return POST_CRAWFORD[n0]
    return PRE_CRAWFORD[n0][n1]


def match_equity(match_to: int, score: tuple[int, int], player: int, points: int, winner: int,
                 crawford: bool) -> float:
    """gnubg's `getME`: `player`'s chance to win the match after `winner` wins `points`."""
    n0 = match_to - (score[0] + (winner == 0) * points) - 1
    n1 = match_to - (score[1] + (winner == 1) * points) - 1
    post = crawford or match_to - score[0] == 1 or match_to - score[1] == 1
    p0 = _mwc0(n0, n1, post)
    return 1.0 - p0 if player else p0


def check_length(match_to: int) -> None:
    """The table covers matches up to LENGTH points."""
    if not 1 <= match_to <= LENGTH:
        raise ValueError(f"the match equity table covers matches of 1 to {LENGTH} points, not {match_to}")


@lru_cache(maxsize=4096)
def gammon_prices(n0: int, n1: int, cube: int) -> tuple[float, float, float, float]:
    """gnubg's `getGammonPrice` (players needing `n0 + 1`, `n1 + 1` points): the extra
    value of a gammon for player 0 and player 1, and of a backgammon over a gammon, in
    units of a single game at this cube."""
    big = 64  # gnubg tabulates the prices as if the match were to 64 points
    s = (big - 1 - n0, big - 1 - n1)

    def me(points: int, winner: int) -> float:
        return match_equity(big, s, 0, points, winner, False)

    win, win_g, win_bg = me(cube, 0), me(2 * cube, 0), me(3 * cube, 0)
    lose, lose_g, lose_bg = me(cube, 1), me(2 * cube, 1), me(3 * cube, 1)
    centre = (win + lose) / 2.0
    if abs(win - centre) <= 1e-7:
        return (0.0, 0.0, 0.0, 0.0)
    g0 = (win_g - centre) / (win - centre) - 1.0
    g1 = (centre - lose_g) / (win - centre) - 1.0
    b0 = (win_bg - centre) / (win - centre) - (g0 + 1.0)
    b1 = (centre - lose_bg) / (win - centre) - (g1 + 1.0)
    return (max(g0, 0.0), max(g1, 0.0), max(b0, 0.0), max(b1, 0.0))


@lru_cache(maxsize=4096)
def _win_lose(ci: CubeInfo) -> tuple[float, float]:
    """The mover's match chance if they win / lose a single game at this cube."""
    me = match_equity(ci.match_to, ci.score, ci.mover, ci.cube, ci.mover, ci.crawford)
    other = match_equity(ci.match_to, ci.score, ci.mover, ci.cube, 1 - ci.mover, ci.crawford)
    return me, other


def mwc_to_emg(mwc: float, ci: CubeInfo) -> float:
    """gnubg's `mwc2eq`: a match winning chance as normalised money equity (EMG)."""
    win, lose = _win_lose(ci)
    return (2.0 * mwc - (win + lose)) / (win - lose)


def emg_to_mwc(emg: float, ci: CubeInfo) -> float:
    """gnubg's `eq2mwc`, the inverse of `mwc_to_emg`."""
    win, lose = _win_lose(ci)
    return 0.5 * (emg * (win - lose) + (win + lose))


def _prices(ci: CubeInfo) -> tuple[float, float, float, float]:
    return gammon_prices(ci.match_to - ci.score[0] - 1, ci.match_to - ci.score[1] - 1, ci.cube)


@lru_cache(maxsize=4096)
def mover_prices(ci: CubeInfo) -> tuple[float, float, float, float]:
    """The gammon prices `utility` weighs the mover's gammon wins, losses, backgammon
    wins and losses by (for code that inlines `utility` where it runs for every move)."""
    gp = _prices(ci)
    m = ci.mover
    return gp[m], gp[1 - m], gp[2 + m], gp[3 - m]


def utility(p: Chances, ci: CubeInfo) -> float:
    """gnubg's `Utility`: the cubeless equity of the mover's chances at the score."""
    gp = _prices(ci)
    m = ci.mover
    return (p[WIN] * 2.0 - 1.0 + p[WIN_GAMMON] * gp[m] - p[LOSE_GAMMON] * gp[1 - m]
            + p[WIN_BACKGAMMON] * gp[2 + m] - p[LOSE_BACKGAMMON] * gp[3 - m])


def may_double(ci: CubeInfo) -> bool:
    """gnubg's `GetDPEq` for match play: the mover has access to a live cube."""
    post = not ci.crawford and (ci.score[0] == ci.match_to - 1 or ci.score[1] == ci.match_to - 1)
    return (not ci.crawford and ci.score[ci.mover] + ci.cube < ci.match_to
            and not (post and ci.score[ci.mover] == ci.match_to - 1)
            and ci.owner in (CENTRE, ci.mover))


def double_pass_mwc(ci: CubeInfo) -> float:
    """The mover's match chance when they double and the opponent passes."""
    return _win_lose(ci)[0]


def _cube_is_live(ci: CubeInfo) -> bool:
    """gnubg's `fDoCubeful`: False for a dead cube, at -2/-2 and in the Crawford game."""
    if ci.score[0] + ci.cube >= ci.match_to and ci.score[1] + ci.cube >= ci.match_to:
        return False
    if ci.score[0] == ci.match_to - 2 and ci.score[1] == ci.match_to - 2:
        return False
    return not ci.crawford


_MULTIPLES = (1, 2, 3, 4, 6)


@lru_cache(maxsize=8192)
def _results(match_to: int, score: tuple[int, int], cube: int, crawford: bool) -> tuple[tuple[float, ...], ...]:
    """gnubg's `getMEMultiple` for one cube value: per player k, k's match chance when k
    wins 1, 2, 3, 4, 6 cubes (indices 0..4) and loses them (5..9)."""
    n0, n1 = match_to - score[0] - 1, match_to - score[1] - 1
    post = crawford or n0 == 0 or n1 == 0
    out = []
    for k in (0, 1):
        row = []
        for winner in (k, 1 - k):
            for mult in _MULTIPLES:
                pts = mult * cube
                p0 = _mwc0(n0 - pts * (winner == 0), n1 - pts * (winner == 1), post)
                row.append(p0 if k == 0 else 1.0 - p0)
        out.append(tuple(row))
    return tuple(out)


def _ratios(p: Chances) -> tuple[float, float, float, float]:
    """Gammon (without backgammons) and backgammon ratios of the mover's wins and losses."""
    w = p[WIN]
    if w > 0.0:
        g0, b0 = (p[WIN_GAMMON] - p[WIN_BACKGAMMON]) / w, p[WIN_BACKGAMMON] / w
    else:
        g0 = b0 = 0.0
    if w < 1.0:
        g1, b1 = (p[LOSE_GAMMON] - p[LOSE_BACKGAMMON]) / (1.0 - w), p[LOSE_BACKGAMMON] / (1.0 - w)
    else:
        g1 = b1 = 0.0
    return g0, b0, g1, b1


def _prime(i: int, j: int, cube: int) -> int:
    """gnubg's `GetCubePrimeValue`: the cube after an automatic redouble."""
    return 2 * cube if i < 2 * cube and j >= 2 * cube else cube


@lru_cache(maxsize=8192)
def _cash_plan(match_to: int, score: tuple[int, int], cube: int, crawford: bool
               ) -> tuple[tuple[bool, tuple[tuple[float, ...], tuple[float, ...]]], ...]:
    """The match-table entries `cash_points` needs at each cube level, from the level
    where the cube would be dead down to `cube` (they depend on the score only)."""
    i, j = match_to - score[0] - 1, match_to - score[1] - 1
    dead = cube
    while i >= 2 * dead and j >= 2 * dead:
        dead *= 2
    plan = []
    value = dead
    while value >= cube:
        primes = (_prime(i, j, value), _prime(j, i, value))
        base = _results(match_to, score, value, crawford)
        dead_branch = i < 2 * value or j < 2 * value
        rows: list[tuple[float, ...]] = []
        for k in (0, 1):
            res = base[k]
            if dead_branch:
                pr = _results(match_to, score, primes[k], crawford)[k]
                rows.append((pr[6], pr[8], pr[9], res[0], pr[1], pr[3], pr[4]))
            else:
                rows.append((res[6], res[0], res[1], res[3], res[4]))
        plan.append((dead_branch, (tuple(rows[0]), tuple(rows[1]))))
        value //= 2
    return tuple(plan)


def _cash_levels(gam: tuple[float, float], bg: tuple[float, float],
                 plan: tuple[tuple[bool, tuple[tuple[float, ...], tuple[float, ...]]], ...]) -> tuple[float, float]:
    """`cash_points` from the gammon and backgammon ratios of players 0 and 1 (both
    players written out: this runs for every move of every node of a look-ahead)."""
    g0, g1 = gam
    b0, b1 = bg
    single0, single1 = 1.0 - g0 - b0, 1.0 - g1 - b1
    above0 = above1 = 0.0
    for dead_branch, (r, q) in plan:
        if dead_branch:
            dtl = single1 * r[0] + g1 * r[1] + b1 * r[2]
            dtw = single0 * r[4] + g0 * r[5] + b0 * r[6]
            level0 = (dtl - r[3]) / (dtl - dtw)
            dtl = single0 * q[0] + g0 * q[1] + b0 * q[2]
            dtw = single1 * q[4] + g1 * q[5] + b1 * q[6]
            level1 = (dtl - q[3]) / (dtl - dtw)
        else:
            dtw = single0 * r[2] + g0 * r[3] + b0 * r[4]
            level0 = 1.0 - above1 * (r[1] - dtw) / (r[0] - dtw)
            dtw = single1 * q[2] + g1 * q[3] + b1 * q[4]
            level1 = 1.0 - above0 * (q[1] - dtw) / (q[0] - dtw)
        above0, above1 = level0, level1
    return above0, above1


def cash_points(p: Chances, ci: CubeInfo) -> tuple[float, float]:
    """gnubg's `GetPoints`: each player's live-cube cash point (as a win chance)."""
    g0, b0, g1, b1 = _ratios(p)
    if ci.mover == 0:
        gam, bg = (g0, g1), (b0, b1)
    else:
        gam, bg = (g1, g0), (b1, b0)
    return _cash_levels(gam, bg, _cash_plan(ci.match_to, ci.score, ci.cube, ci.crawford))


class _Prepared(NamedTuple):
    """What `cubeful_mwc` needs of a cube position, worked out once per position: the
    formulas run for every move of every node of a look-ahead."""

    win: float
    lose: float
    prices: tuple[float, float, float, float]
    live: bool
    row: tuple[float, ...]
    plan: tuple[tuple[bool, tuple[tuple[float, ...], tuple[float, ...]]], ...]


@lru_cache(maxsize=8192)
def _prepared(ci: CubeInfo) -> _Prepared:
    m = ci.mover
    win, lose = _win_lose(ci)
    return _Prepared(win, lose, mover_prices(ci), _cube_is_live(ci),
                     _results(ci.match_to, ci.score, ci.cube, ci.crawford)[m],
                     _cash_plan(ci.match_to, ci.score, ci.cube, ci.crawford))


def cubeful_mwc(p: Chances, ci: CubeInfo, x: float) -> float:
    """gnubg's `Cl2CfMatch`: the mover's cubeful match winning chance at efficiency `x`."""
    pre = _prepared(ci)
    gm, go, bm, bo = pre.prices
    w = p[WIN]
    u = (w * 2.0 - 1.0 + p[WIN_GAMMON] * gm - p[LOSE_GAMMON] * go
         + p[WIN_BACKGAMMON] * bm - p[LOSE_BACKGAMMON] * bo)  # `utility`, inline
    dead = 0.5 * (u * (pre.win - pre.lose) + (pre.win + pre.lose))  # `emg_to_mwc`
    if not pre.live:
        return dead
    g0, b0, g1, b1 = _ratios(p)
    mover = ci.mover
    cp = _cash_levels((g0, g1), (b0, b1), pre.plan) if mover == 0 else _cash_levels((g1, g0), (b1, b0), pre.plan)
    res = pre.row
    cash, opp_cash = res[0], res[5]
    owner = ci.owner
    if owner == CENTRE or owner == mover:
        tg = cp[mover]
    else:
        tg = 1.0
    if owner == CENTRE or owner != mover:
        opp_tg = 1.0 - cp[1 - mover]
    else:
        opp_tg = 0.0
    lose_all = (1.0 - g1 - b1) * res[5] + g1 * res[6] + b1 * res[7]
    win_all = (1.0 - g0 - b0) * res[0] + g0 * res[1] + b0 * res[2]
    if owner == CENTRE:
        if w <= opp_tg:
            live_mwc = lose_all + (opp_cash - lose_all) * w / opp_tg if opp_tg > 0.0 else lose_all
        elif w < tg:
            live_mwc = opp_cash + (cash - opp_cash) * (w - opp_tg) / (tg - opp_tg)
        else:
            live_mwc = cash + (win_all - cash) * (w - tg) / (1.0 - tg) if tg < 1.0 else win_all
    elif owner == mover:
        if w <= tg:
            live_mwc = lose_all + (cash - lose_all) * w / tg if tg > 0.0 else lose_all
        else:
            live_mwc = cash + (win_all - cash) * (w - tg) / (1.0 - tg) if tg < 1.0 else win_all
    else:
        if w <= opp_tg:
            live_mwc = lose_all + (opp_cash - lose_all) * w / opp_tg if opp_tg > 0.0 else lose_all
        else:
            live_mwc = opp_cash + (win_all - opp_cash) * (w - opp_tg) / (1.0 - opp_tg)
    return dead * (1.0 - x) + live_mwc * x

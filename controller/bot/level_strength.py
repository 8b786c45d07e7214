"""How well each computer level plays, as `bgboard analyze` judges it: PR over self-play.

Each level plays itself (the first game of a 5-point match, with the cube) and the
analysis rates every decision of both sides; the PR is 500 x the EMG lost per unforced
move or close cube decision, pooled over all games (`stats.error_and_count`).

The judge must be stronger than every level it ranks, or a level that plays as the
judge does gets a PR of 0 whatever it is worth (`expert` is gnubg's 0-ply evaluation
itself). So the judge is the analysis at 2 plies, cubeful at every node as gnubg 1.07
evaluates (the "world class" setting gnubg analyses with): deeper than the five 0-ply
levels, and as deep as `worldclass`, which plays gnubg-nn's own 2-ply search (its own
move filter, ranking and cube decision, not the analysis's code). World class's PR is
how far its play is from the analysis's: a lower bound of its distance from perfect
play, since no judge this machine can afford is deeper than it.

A 2-ply judgement costs about 0.3 s of a core per decision in Python, too much for
thousands of decisions, so the judge samples (two-phase sampling with a difference
estimator): every decision is judged at 0-ply (cheap), a random `fraction` of the
turns again at 2 plies, and the 2-ply total is estimated as the 0-ply total plus the
mean 2-ply - 0-ply difference of the sampled turns times the number of turns. The
difference is small next to the losses themselves, which is what makes few deep
judgements enough; with `fraction` 1 the estimate is the full 2-ply figure. The
standard error covers both the sample of games and the sample of turns judged deep,
with each game one independent unit (`estimate_pr`): the turns of a game are not
independent, and an error that took them so came out too small.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from controller.analysis.evaluator import Evaluator
from controller.analysis.match import Decision, MatchAnalyser
from controller.analysis.stats import error_and_count
from controller.bot.base import Bot
from controller.bot.gnubg_strength import NOISE, STRENGTH_LEVELS, StrengthBot
from controller.bot.recorded_game import play_recorded_game
from controller.records.model import MatchRecord

MEASURED_LEVELS: tuple[str, ...] = STRENGTH_LEVELS
JUDGE_PLIES = 2
DEEP_FRACTION: dict[str, float] = {
    "beginner": 0.1, "casual": 0.1, "intermediate": 0.1, "advanced": 0.1, "expert": 0.3, "worldclass": 0.3,
}
"""The share of each level's turns judged at 2 plies in `bgboard bench --only bot`: the
noisy levels' PRs lie 5 or more apart, expert's and world class's a fraction of one."""

Unit = tuple[int, int, int]
"""A turn as the analysis numbers it: (game, move number, player on turn)."""


@dataclass(frozen=True, slots=True)
class TurnLoss:
    """What one turn of game `game` adds to PR's numerator (EMG lost) and denominator
    (decisions), by the 0-ply judge and, for a sampled turn, by the deep judge. The
    game matters for the standard error: turns of one game are not independent."""

    game: int
    shallow: tuple[float, int]
    deep: tuple[float, int] | None = None


@dataclass(frozen=True, slots=True)
class LevelStrength:
    """A level's PR with its standard errors (`estimate_pr`), from `turns` turns of
    `games` games."""

    level: str
    games: int
    turns: int
    deep_turns: int
    decisions: int
    pr: float
    se: float
    se_turns_independent: float
    shallow_pr: float


def level_bot(level: str, evaluator: Evaluator) -> Bot:
    """The level's player; world class is the `gnubg` level at 2 plies (gnubg-nn), which
    plays with the weights the evaluator loaded into gnubg-nn."""
    if level in NOISE:
        return StrengthBot(level, evaluator)
    if level == "worldclass":
        from controller.bot.gnubg_level import make_gnubg_bot

        return make_gnubg_bot(plies=2, backend="nn")
    raise ValueError(f"no strength level {level!r}")


def play_games(level: str, games: int, seed: int) -> list[MatchRecord]:
    """`games` self-play games of the level, the dice from `seed`."""
    ev = Evaluator()
    bot = level_bot(level, ev)
    rng = random.Random(seed)
    return [play_recorded_game((bot, bot), rng) for _ in range(games)]


def _units(decisions: tuple[Decision, ...]) -> dict[Unit, tuple[float, int]]:
    """Each turn's (EMG lost, decisions counted), for the turns that can add to PR: an
    unforced move or any cube decision (a take or pass belongs to its double's turn)."""
    out: dict[Unit, tuple[float, int]] = {}
    unit: Unit = (0, 0, 0)
    for d in decisions:
        if d.kind not in ("take", "pass"):
            unit = (d.game, d.move, d.player)
        if d.kind == "move" and not d.unforced:
            continue
        loss, count = error_and_count(d)
        old = out.get(unit, (0.0, 0))
        out[unit] = (old[0] + loss, old[1] + count)
    return out


def turn_losses(records: list[MatchRecord], fraction: float, seed: int,
                plies: int = JUDGE_PLIES, first_game: int = 0) -> list[TurnLoss]:
    """Every turn that can add to PR, judged at 0-ply, a `fraction` of them (chosen by
    `seed`) also at `plies`; the games are numbered from `first_game`."""
    shallow = Evaluator()
    deep = Evaluator(plies=plies)
    out: list[TurnLoss] = []
    for index, record in enumerate(records):
        units = _units(MatchAnalyser(shallow, luck=False).analyse(record).decisions)
        chosen = {u for u in units if random.Random(f"{seed}:{index}:{u}").random() < fraction}
        deep_units: dict[Unit, tuple[float, int]] = {}
        if chosen:
            judge = MatchAnalyser(shallow, luck=False, deeper=(deep, lambda g, m, p: (g, m, p) in chosen))
            deep_units = _units(judge.analyse(record).decisions)
        for u, value in units.items():
            out.append(TurnLoss(first_game + index, value, deep_units.get(u, (0.0, 0)) if u in chosen else None))
    return out


def _variance(values: list[float]) -> float:
    if len(values) < 2:
        return math.inf
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


@dataclass(frozen=True, slots=True)
class PrEstimate:
    """A PR from judged turns: the two-phase estimate, its standard error clustered by
    game (`se`, the honest one), the error the same turns would have if they were
    independent (`se_turns_independent`: kept to show how much the games' correlation
    matters; over the bench's 100 games a level it was 0.79-1.15 times `se`, beginner's
    the smallest, where the deep sample's chance does not dominate), and the PR by the
    0-ply judge alone."""

    pr: float
    se: float
    se_turns_independent: float
    shallow_pr: float


def estimate_pr(turns: list[TurnLoss]) -> PrEstimate:
    """The PR of the turns by the two-phase difference estimator, with its errors.

    The estimate: with N turns, n of them judged deep, y a turn's EMG lost and x its
    decisions (0: at 0-ply, 2: deep), the deep totals are estimated as
    Y = sum(y0) + (N/n) sum_sampled(y2 - y0), X likewise, and PR = 500 Y / X.

    The clustered error (`se`): the turns of one game are not independent (one game's
    positions, one level's style in them, and a blunder changes the positions after
    it), but the games are: each is played with its own dice. So each game g is one
    unit, with its share of the estimated totals linearised (the mean deep - shallow
    difference D = sum_sampled(y2 - y0) / n is itself estimated, so a game's share
    is not its turns' count of deep judgements times N/n):

        y_g = sum_g(y0) + m_g D + (N/n) sum_g,sampled(y2 - y0 - D),   x_g likewise,

    m_g the game's turns (the y_g add up to Y, the x_g to X), and the ratio's variance
    over the G games is

        Var(PR / 500) = G / (G - 1) * sum_g (y_g - R x_g)^2 / X^2,   R = Y / X,

    the cluster-robust ("ultimate cluster") estimator: a game's share carries both the
    game's own chance and the chance of which of its turns were judged deep, and the
    games are independent, so their spread covers both stages of sampling.

    The per-turn error (`se_turns_independent`) is the same estimator with every turn a
    unit of its own (the figure this module reported first): right only if turns were
    independent, too small otherwise.
    """
    n_all = len(turns)
    loss0 = sum(t.shallow[0] for t in turns)
    count0 = sum(t.shallow[1] for t in turns)
    if not count0:
        return PrEstimate(0.0, math.inf, math.inf, 0.0)
    shallow_pr = 500.0 * loss0 / count0
    sampled = [(t.shallow, t.deep) for t in turns if t.deep is not None]
    n = len(sampled)
    if not n:
        return PrEstimate(shallow_pr, math.inf, math.inf, shallow_pr)
    scale = n_all / n
    loss = loss0 + scale * sum(d[0] - s[0] for s, d in sampled)
    count = count0 + scale * sum(d[1] - s[1] for s, d in sampled)
    ratio = loss / count
    # each game's share of Y and X, linearised: the mean differences D are estimated too
    mean_diff = ((loss - loss0) / n_all, (count - count0) / n_all)
    games: dict[int, list[float]] = {}
    for t in turns:
        y, x = t.shallow[0] + mean_diff[0], t.shallow[1] + mean_diff[1]
        if t.deep is not None:
            y += scale * (t.deep[0] - t.shallow[0] - mean_diff[0])
            x += scale * (t.deep[1] - t.shallow[1] - mean_diff[1])
        game = games.setdefault(t.game, [0.0, 0.0])
        game[0] += y
        game[1] += x
    residuals = [y - ratio * x for y, x in games.values()]
    g = len(residuals)
    clustered = math.sqrt(g / (g - 1) * sum(r * r for r in residuals)) / count if g > 1 else math.inf
    return PrEstimate(500.0 * ratio, 500.0 * clustered, 500.0 * _se_turns_independent(sampled, n_all, ratio, count),
                      shallow_pr)


def _se_turns_independent(sampled: list[tuple[tuple[float, int], tuple[float, int]]], n_all: int,
                          ratio: float, count: float) -> float:
    """The ratio's error if every turn were an independent draw: the variance of the
    deep residuals y2 - R x2 (estimated on the sampled turns) for the N turns, plus the
    second phase's, from the spread of the sampled deep - shallow differences."""
    n = len(sampled)
    u_deep = [d[0] - ratio * d[1] for _s, d in sampled]
    u_diff = [(d[0] - ratio * d[1]) - (s[0] - ratio * s[1]) for s, d in sampled]
    var = n_all * n_all * (_variance(u_deep) / n_all + (1.0 / n - 1.0 / n_all) * (_variance(u_diff) if n > 1 else 0.0))
    return math.sqrt(var) / count


def level_strength(level: str, games: int, turns: list[TurnLoss]) -> LevelStrength:
    """The level's figures from its turns."""
    e = estimate_pr(turns)
    return LevelStrength(level, games, len(turns), sum(t.deep is not None for t in turns),
                         sum(t.shallow[1] for t in turns), e.pr, e.se, e.se_turns_independent, e.shallow_pr)

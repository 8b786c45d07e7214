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
standard error covers both the sample of games (turns taken as independent) and the
sample of turns judged deep.
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
    """What one turn adds to PR's numerator (EMG lost) and denominator (decisions), by
    the 0-ply judge and, for a sampled turn, by the deep judge."""

    shallow: tuple[float, int]
    deep: tuple[float, int] | None = None


@dataclass(frozen=True, slots=True)
class LevelStrength:
    """A level's PR with its standard error, from `turns` turns of `games` games."""

    level: str
    games: int
    turns: int
    deep_turns: int
    decisions: int
    pr: float
    se: float
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
                plies: int = JUDGE_PLIES) -> list[TurnLoss]:
    """Every turn that can add to PR, judged at 0-ply, a `fraction` of them (chosen by
    `seed`) also at `plies`."""
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
            out.append(TurnLoss(value, deep_units.get(u, (0.0, 0)) if u in chosen else None))
    return out


def _variance(values: list[float]) -> float:
    if len(values) < 2:
        return math.inf
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def estimate_pr(turns: list[TurnLoss]) -> tuple[float, float, float]:
    """(PR, its standard error, the 0-ply PR) from the turns (two-phase difference
    estimator of the deep judge's totals; the ratio's error by linearisation)."""
    n_all = len(turns)
    loss0 = sum(t.shallow[0] for t in turns)
    count0 = sum(t.shallow[1] for t in turns)
    if not count0:
        return 0.0, math.inf, 0.0
    sampled = [(t.shallow, t.deep) for t in turns if t.deep is not None]
    n = len(sampled)
    if not n:
        return 500.0 * loss0 / count0, math.inf, 500.0 * loss0 / count0
    scale = n_all / n
    loss = loss0 + scale * sum(d[0] - s[0] for s, d in sampled)
    count = count0 + scale * sum(d[1] - s[1] for s, d in sampled)
    ratio = loss / count
    u_deep = [d[0] - ratio * d[1] for _s, d in sampled]
    u_diff = [(d[0] - ratio * d[1]) - (s[0] - ratio * s[1]) for s, d in sampled]
    var = n_all * n_all * (_variance(u_deep) / n_all + (1.0 / n - 1.0 / n_all) * (_variance(u_diff) if n > 1 else 0.0))
    return 500.0 * ratio, 500.0 * math.sqrt(var) / count, 500.0 * loss0 / count0


def level_strength(level: str, games: int, turns: list[TurnLoss]) -> LevelStrength:
    """The level's figures from its turns."""
    pr, se, shallow_pr = estimate_pr(turns)
    return LevelStrength(level, games, len(turns), sum(t.deep is not None for t in turns),
                         sum(t.shallow[1] for t in turns), pr, se, shallow_pr)

"""The levels' PR error (controller.bot.level_strength.estimate_pr) is honest: the turns
of one game are correlated, the games are independent, so the error is the spread of
whole games (clustered by game), and it covers the second phase too (which turns were
judged deep). Written from sampling theory on synthetic games, where the truth is known:
no gnubg needed."""
from __future__ import annotations

import math
import random
import statistics

import pytest

from controller.bot.level_strength import TurnLoss, estimate_pr


def _same_loss_games(rng: random.Random, games: int, turns_each: int) -> tuple[list[TurnLoss], list[float]]:
    """Games in which every turn loses the game's own amount (one decision a turn),
    every turn judged deep with the same loss: all of the spread is between games."""
    out: list[TurnLoss] = []
    levels = []
    for game in range(games):
        loss = rng.expovariate(1 / 0.02)
        levels.append(loss)
        out += [TurnLoss(game, (loss, 1), (loss, 1)) for _ in range(turns_each)]
    return out, levels


def test_when_a_game_is_one_loss_repeated_the_error_is_that_of_the_games_means() -> None:
    rng = random.Random(5)
    turns, levels = _same_loss_games(rng, games=60, turns_each=25)
    estimate = estimate_pr(turns)
    assert estimate.pr == pytest.approx(500.0 * statistics.fmean(levels))
    # 60 independent game means: the PR's error is theirs, sd / sqrt(60), times the 500
    assert estimate.se == pytest.approx(500.0 * statistics.stdev(levels) / math.sqrt(60), rel=1e-9)
    # 25 copies of one draw are not 25 draws: counting them so shrinks the error by ~5
    assert estimate.se > 4.0 * estimate.se_turns_independent


def test_games_of_unequal_length_weigh_by_their_decisions() -> None:
    # the PR is a ratio over all decisions, so a long game weighs more: its error is the
    # ratio estimator's over the games, sqrt(G/(G-1) sum m_g^2 (L_g - R)^2) / sum m_g
    rng = random.Random(8)
    turns: list[TurnLoss] = []
    sizes, levels = [], []
    for game in range(40):
        size, loss = rng.randint(10, 60), rng.uniform(0.0, 0.05)
        sizes.append(size)
        levels.append(loss)
        turns += [TurnLoss(game, (loss, 1), (loss, 1)) for _ in range(size)]
    ratio = sum(m * x for m, x in zip(sizes, levels)) / sum(sizes)
    expected = math.sqrt(40 / 39 * sum((m * (x - ratio)) ** 2 for m, x in zip(sizes, levels))) / sum(sizes)
    estimate = estimate_pr(turns)
    assert estimate.pr == pytest.approx(500.0 * ratio)
    assert estimate.se == pytest.approx(500.0 * expected, rel=1e-9)


def test_with_independent_turns_both_errors_agree() -> None:
    # no game effect at all: grouping the turns by game must not change the error beyond
    # its own sampling error (about 1/sqrt(2 x 300) = 4% here)
    rng = random.Random(13)
    turns: list[TurnLoss] = []
    for game in range(300):
        for _ in range(rng.randint(15, 45)):
            count = rng.choice((1, 1, 2))
            shallow = rng.expovariate(1 / 0.03) * count
            deep = (max(0.0, shallow + rng.gauss(0.0, 0.01)), count) if rng.random() < 0.3 else None
            turns.append(TurnLoss(game, (shallow, count), deep))
    estimate = estimate_pr(turns)
    assert estimate.se == pytest.approx(estimate.se_turns_independent, rel=0.15)


def _correlated_level(rng: random.Random, games: int, fraction: float) -> list[TurnLoss]:
    """A level whose games differ (each has its own mean loss, as a game of blunders
    after a blunder does), the deep judge finding 20% more plus noise on a random
    `fraction` of the turns."""
    out: list[TurnLoss] = []
    for game in range(games):
        mean = rng.expovariate(1 / 0.02)
        for _ in range(rng.randint(15, 35)):
            shallow = rng.expovariate(1 / mean) if mean else 0.0
            deep = (1.2 * shallow + abs(rng.gauss(0.0, 0.01)), 1) if rng.random() < fraction else None
            out.append(TurnLoss(game, (shallow, 1), deep))
    return out


def test_the_error_is_the_spread_of_the_estimate_over_repeated_runs() -> None:
    # the definition of a standard error: run the same measurement many times (new games,
    # new deep sample each time) and the PRs spread by it; the per-turn error misses the
    # games' correlation and comes out far too small
    rng = random.Random(21)
    runs = [estimate_pr(_correlated_level(rng, games=40, fraction=0.3)) for _ in range(200)]
    spread = statistics.stdev(e.pr for e in runs)
    # (the ratio's linearised error runs a few percent low over 40 games)
    assert statistics.fmean(e.se for e in runs) == pytest.approx(spread, rel=0.2)
    assert statistics.fmean(e.se_turns_independent for e in runs) < 0.5 * spread


def test_the_deep_sample_adds_its_own_error() -> None:
    # every game alike at 0-ply, the deep judge's extra loss random: only the second phase
    # is uncertain, and judging fewer turns deep makes the error larger
    def level(fraction: float, rng: random.Random) -> list[TurnLoss]:
        return [TurnLoss(game, (0.01, 1), (0.01 + rng.expovariate(1 / 0.01), 1) if rng.random() < fraction else None)
                for game in range(50) for _ in range(20)]

    rng = random.Random(34)
    few, many = estimate_pr(level(0.1, rng)), estimate_pr(level(0.5, rng))
    assert few.se > 1.5 * many.se > 0.0
    runs = [estimate_pr(level(0.1, rng)) for _ in range(200)]
    assert statistics.fmean(e.se for e in runs) == pytest.approx(statistics.stdev(e.pr for e in runs), rel=0.15)


def test_one_game_or_no_deep_judgement_has_no_finite_error() -> None:
    one_game = [TurnLoss(0, (0.01 * i, 1), (0.01 * i, 1)) for i in range(30)]
    assert estimate_pr(one_game).se == math.inf
    no_deep = [TurnLoss(i, (0.01, 1)) for i in range(30)]
    assert estimate_pr(no_deep).se == math.inf

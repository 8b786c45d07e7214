"""Computer levels by strength (gnubg's own player settings): they play legal moves, the
same way every time (gnubg's noise is fixed by the board), and their PR is what the
analysis at 2 plies finds, estimated from a sample of turns (level_strength)."""
from __future__ import annotations

import random

import pytest

from controller.analysis.evaluator import Evaluator
from controller.analysis.match import MatchAnalyser
from controller.analysis.stats import player_stats
from bgboard.bench.bot_bench import level_figures
from controller.bot.base import OFFERED_LEVELS, MatchContext, make_bot
from controller.bot.gnubg_strength import NOISE, STRENGTH_LEVELS, noisy
from controller.bot.level_strength import TurnLoss, estimate_pr, play_games, turn_losses
from bgboard.cli import main
from controller.engine import Position, legal_moves

from network_backends import needs_network, network_backend, with_each_network  # noqa: F401
pytestmark = needs_network


@with_each_network
def test_every_strength_level_is_offered_and_plays_legal_moves() -> None:
    assert set(NOISE) | {"worldclass"} <= set(OFFERED_LEVELS)
    rng = random.Random(3)
    context = MatchContext(length=5, bot_away=5, opponent_away=5)
    for level in NOISE:
        bot = make_bot(level)
        position = Position.initial()
        for _ in range(30):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            move = bot.choose_move(position, dice, context)
            legal = legal_moves(position, dice)
            assert (move is None) == (not legal)
            if move is None:
                position = position.swap()
                continue
            assert move in legal
            position = move.result.swap()
            if not sum(position.theirs):
                break


@with_each_network
def test_noise_is_fixed_by_the_board_as_gnubgs() -> None:
    board = (Position.initial().theirs, Position.initial().mine)
    p = (0.5, 0.15, 0.01, 0.13, 0.01)
    assert noisy(p, board, 0.06) == noisy(p, board, 0.06)
    assert noisy(p, board, 0.0) == p
    assert noisy(p, board, 0.06) != p


def test_the_judge_with_every_turn_deep_gives_the_deep_analysis_pr() -> None:
    # two-phase sampling with every turn sampled is the deep analysis itself (1-ply here:
    # the same code as 2 plies, quicker)
    records = play_games("beginner", 2, seed=3)
    turns = turn_losses(records, fraction=1.0, seed=3, plies=1)
    estimate = estimate_pr(turns)
    analyser = MatchAnalyser(Evaluator(plies=1), luck=False)
    stats = [player_stats(analyser.analyse(r), p) for r in records for p in (0, 1)]
    error = sum(s.checker_error + s.cube_error for s in stats)
    assert estimate.pr == pytest.approx(500.0 * error / sum(s.decisions for s in stats), abs=1e-9)
    assert 0.0 < estimate.se < estimate.pr


def test_a_sample_that_finds_no_difference_leaves_the_shallow_pr() -> None:
    turns = [TurnLoss(i // 10, (0.1 * (i % 3), 1)) for i in range(90)]
    turns += [TurnLoss(0, (0.05, 1), (0.05, 1)), TurnLoss(1, (0.0, 1), (0.0, 1))]
    estimate = estimate_pr(turns)
    shallow = estimate.shallow_pr
    assert estimate.pr == pytest.approx(shallow) and estimate.se > 0.0
    # a deep judge that finds twice the loss on every sampled turn doubles the estimate's excess
    doubled = turns[:90] + [TurnLoss(0, (0.05, 1), (0.10, 1)), TurnLoss(1, (0.0, 1), (0.0, 1))]
    assert estimate_pr(doubled).pr == pytest.approx(shallow + 500.0 * 0.05 * 92 / 2 / 92)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a hang guard: two games at every level took 233 s beside other work
def test_bench_reports_every_level_with_its_error() -> None:
    figures = level_figures(games=2, fraction=0.1)
    for level in STRENGTH_LEVELS:
        # an unbiased estimate from a few deep judgements can dip below 0, within its error;
        # two games are two clusters, whose clustered error has one degree of freedom and can
        # come out near nothing by chance (CI: PR -0.79 with 0.03), so the per-turn error,
        # the larger of the two, is the scale of this check
        scale = max(figures[f"level_{level}_pr_se"], figures[f"level_{level}_pr_se_if_turns_independent"])  # type: ignore[type-var]
        assert figures[f"level_{level}_pr"] > -3.0 * scale  # type: ignore[operator]
        assert figures[f"level_{level}_pr_se"] > 0.0
        assert figures[f"level_{level}_pr_se_if_turns_independent"] > 0.0
        assert figures[f"level_{level}_decisions"] > 20
    assert isinstance(figures["level_pr_falls_with_strength"], bool)
    steps = [value for key, value in figures.items() if key.startswith("level_pr_step_")]
    assert len(steps) == len(STRENGTH_LEVELS) - 1 and figures["level_pr_narrowest_step_se"] == min(steps)
    # over two games only the far-apart levels are ordered for sure: beginner's noise
    # costs about 30 PR, world class a few
    assert figures["level_beginner_pr"] > figures["level_advanced_pr"]
    assert figures["level_beginner_pr"] > figures["level_worldclass_pr"]


def test_bench_games_go_with_the_bot_section_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "engine", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games goes with the computer levels' section" in err

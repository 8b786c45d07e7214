"""Tesauro's pubeval: the published weights, checked against gnubg-nn's own copy."""
from __future__ import annotations

import pytest

from bgboard.bench.bot_bench import sample_positions
from controller.bot.base import MONEY
from controller.bot.pubeval import ALL_OFF_SCORE, PubevalBot, is_race, score
from controller.engine import Position, legal_moves

gnubg_nn = pytest.importorskip("gnubg_nn")


def test_scores_equal_gnubg_nn_pub_eval_score_on_many_results() -> None:
    checked = 0
    for pos, dice in sample_positions(60, seed=3):
        for move in legal_moves(pos, dice):
            after = move.result
            if sum(after.mine) == 0:
                continue
            # gnubg-nn picks the weights from the board it is given; so do we here
            theirs = gnubg_nn.pub_eval_score([list(after.mine), list(after.theirs)])
            assert score(after, is_race(after)) == pytest.approx(theirs, abs=1e-4), (after.id, dice)
            checked += 1
    assert checked > 500


def test_best_move_is_pubevals_best() -> None:
    bot = PubevalBot()
    for pos, dice in sample_positions(80, seed=4):
        move = bot.choose_move(pos, dice, MONEY)
        race = is_race(pos)
        best = max(score(m.result, race) for m in legal_moves(pos, dice))
        assert move is not None and score(move.result, race) == best


def test_opening_three_one_and_all_off() -> None:
    bot = PubevalBot()
    assert bot.choose_move(Position.initial(), (3, 1), MONEY).notation == "8/5 6/5"
    done = Position((0,) * 25, Position.initial().theirs)
    assert score(done, True) == ALL_OFF_SCORE


def test_no_cube_strategy() -> None:
    bot = PubevalBot()
    assert bot.should_double(Position.initial(), MONEY) is False
    assert bot.should_take(Position.initial(), MONEY) is True

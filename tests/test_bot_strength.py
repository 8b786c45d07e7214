"""Issue 7's "Must reach", in small: simple beats pubeval, holds its own against gnubg.

The full-size figures (2,000 games, 400 matches) come from `bgboard bench --only bot`;
here smaller samples with one-sided bounds keep the suite fast but still able to fail:
a `simple` at 55% against pubeval would fail the first test most of the time.
Seeds are fixed, so a run is repeatable.
"""
from __future__ import annotations

import math
import random

import pytest

from bgboard.bench.bot_bench import parallel_duel
from controller.bot.base import make_bot
from controller.bot.duel import game_value, play_game, play_match
from controller.engine import Position


def lower_bound(wins: int, played: int, z: float = 1.645) -> float:
    """One-sided 95% lower bound of a win rate (normal approximation)."""
    p = wins / played
    return p - z * math.sqrt(p * (1 - p) / played)


@pytest.mark.slow
def test_simple_beats_pubeval_in_one_point_games() -> None:
    figures = parallel_duel("simple", "pubeval", 1000, length=1, seed=77)
    assert lower_bound(figures.wins, figures.played) > 0.53, (figures.wins, figures.played)


@pytest.mark.slow
def test_simple_wins_matches_against_gnubg_0ply() -> None:
    pytest.importorskip("gnubg_nn")
    figures = parallel_duel("simple", "gnubg", 300, length=5, seed=78)
    # the bar is 20% over 400 matches; over 300, fail on a clear shortfall
    assert lower_bound(figures.wins, figures.played) > 0.17, (figures.wins, figures.played)


def test_scoring_of_finished_games() -> None:
    empty = (0,) * 25
    single = Position(empty, (1,) + (0,) * 24)  # the loser has borne off 14
    assert game_value(single) == 1
    gammon = Position(empty, (15,) + (0,) * 24)
    assert game_value(gammon) == 2
    backgammon = Position(empty, (14,) + (0,) * 23 + (1,))  # one on the bar
    assert game_value(backgammon) == 3


def test_games_and_matches_end_with_a_winner() -> None:
    rng = random.Random(5)
    bots = (make_bot("simple"), make_bot("pubeval"))
    result = play_game(bots, rng)
    assert result.winner in (0, 1) and result.points == 1
    assert play_match(bots, 3, rng) in (0, 1)

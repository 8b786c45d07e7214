"""Computer levels by strength (gnubg's own player settings): they play legal moves, the
same way every time (gnubg's noise is fixed by the board), and their PR, as the analysis
judges it, falls from beginner to expert."""
from __future__ import annotations

import random

import pytest

from controller.bot.base import OFFERED_LEVELS, MatchContext, make_bot
from controller.bot.gnubg_level import load_gnubg_nn
from controller.bot.gnubg_strength import NOISE, noisy
from controller.bot.level_strength import level_pr
from controller.engine import Position, legal_moves

pytestmark = pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (x86-64; installed by .ci/run)")


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


def test_noise_is_fixed_by_the_board_as_gnubgs() -> None:
    board = (Position.initial().theirs, Position.initial().mine)
    p = (0.5, 0.15, 0.01, 0.13, 0.01)
    assert noisy(p, board, 0.06) == noisy(p, board, 0.06)
    assert noisy(p, board, 0.0) == p
    assert noisy(p, board, 0.06) != p


def test_pr_falls_from_beginner_to_expert() -> None:
    beginner, advanced, expert = (level_pr(level, 6)[0] for level in ("beginner", "advanced", "expert"))
    assert beginner > advanced > expert == 0.0

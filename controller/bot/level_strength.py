"""How well each computer level plays, as `bgboard analyze` judges it: PR over self-play.

Each level plays itself `games` times (the first game of a 5-point match, with the cube),
and the analysis (0-ply, no luck) rates every decision of both sides; the PR is 500 x
the mean EMG lost per unforced move or close cube decision, pooled over all games.
The judge is gnubg's 0-ply evaluation without noise, which is also what the `expert`
level plays: its PR is 0 by construction, and world class (2-ply) cannot be ranked by
a 0-ply judge, so it is left out.
"""
from __future__ import annotations

import random

from controller.analysis.evaluator import Evaluator
from controller.analysis.match import MatchAnalyser
from controller.analysis.stats import player_stats
from controller.bot.gnubg_strength import NOISE, StrengthBot
from controller.bot.recorded_game import play_recorded_game

MEASURED_LEVELS: tuple[str, ...] = tuple(NOISE)


def level_pr(level: str, games: int, seed: int = 7) -> tuple[float, int]:
    """The level's PR over `games` self-play games, and the decisions it is based on."""
    ev = Evaluator()
    bot = StrengthBot(level, ev)
    analyser = MatchAnalyser(ev, luck=False)
    rng = random.Random(seed)
    error = 0.0
    decisions = 0
    for _ in range(games):
        analysis = analyser.analyse(play_recorded_game((bot, bot), rng))
        for player in (0, 1):
            s = player_stats(analysis, player)
            error += s.checker_error + s.cube_error
            decisions += s.decisions
    return (500.0 * error / decisions if decisions else 0.0), decisions

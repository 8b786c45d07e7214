"""`bgboard bench` section "bot": time per move of each computer level, duels, and the PR
of each level by strength (controller.bot.level_strength: self-play judged by the
analysis at 2 plies; issue 14 wants it to fall from beginner to world class), with its
standard error clustered by game (`level_<l>_pr_se`; the smaller error the same turns
would have if they were independent stands beside it) and the narrowest step between
neighbouring levels in that error. `--games N` sets the games per level (default 100;
`--quick` 4). On this 2-core machine, shared, the 100 games a level took 21 minutes (`level_pr_s`
1251) and, under two other sessions' tests, 58 (3463), most of it world class's 2-ply play
and the deep judgements.

Duels answer issue 7's bars: `simple` against Tesauro's pubeval over one-point games
(bar: > 55% of 2,000) and against GNU Backgammon 0-ply over 5-point matches (bar: >= 20%
of 400), each with its 95% margin. They run on every core (multiprocessing); `--quick`
plays a small sample only, enough to see that everything runs.
"""
from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from typing import TYPE_CHECKING

from controller.bot.base import Bot, make_bot
from controller.bot.duel import ONE_POINT, DuelFigures, duel
from controller.engine import Position, legal_moves
from controller.errors import BackendUnavailableError

if TYPE_CHECKING:
    from controller.bot.level_strength import TurnLoss

NAME = "bot"


def sample_positions(count: int, seed: int = 11) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with a roll from random games (the checkers move at random: varied boards)."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < count:
        pos = Position.initial()
        for _ in range(300):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            moves = legal_moves(pos, dice)
            if len(moves) > 1:
                out.append((pos, dice))
            if moves:
                pos = rng.choice(moves).result
                if sum(pos.mine) == 0:
                    break
            pos = pos.swap()
    return out[:count]


def time_moves(bot: Bot, positions: list[tuple[Position, tuple[int, int]]]) -> tuple[float, float]:
    """Median and worst milliseconds of `choose_move` (legal-move generation included)."""
    times = []
    for pos, dice in positions:
        t0 = time.perf_counter()
        bot.choose_move(pos, dice, ONE_POINT)
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times), max(times)


def _duel_part(args: tuple[str, str, int, int, int]) -> int:
    first, second, count, seed, length = args
    return duel(make_bot(first), make_bot(second), count, seed, length).wins


def parallel_duel(first: str, second: str, count: int, length: int, seed: int = 1) -> DuelFigures:
    """`count` games or matches split over the machine's cores; seeds fixed, so repeatable."""
    workers = max(1, multiprocessing.cpu_count())
    chunks = max(workers, 8)
    sizes = [count // chunks + (1 if i < count % chunks else 0) for i in range(chunks)]
    jobs = [(first, second, n, seed * 1000 + i, length) for i, n in enumerate(sizes) if n]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        wins = sum(pool.map(_duel_part, jobs))
    return DuelFigures(wins, count)


LEVEL_CHUNK = 5
"""Games per job of the level figures: small jobs keep every core busy to the end."""


def _level_turns(args: tuple[str, int, int, float]) -> tuple[str, list[TurnLoss]]:
    from controller.bot.level_strength import play_games, turn_losses

    level, games, start, fraction = args
    seed = 1000 + start
    return level, turn_losses(play_games(level, games, seed), fraction, seed, first_game=start)


def level_turns(games: int, fraction: float | None = None) -> dict[str, list[TurnLoss]]:
    """Every strength level's judged turns over `games` self-play games each (the games
    numbered 0 to `games` - 1 within a level), judged at 2 plies on a `fraction` of the
    turns (by default each level's `DEEP_FRACTION`) and at 0-ply on all, on every core."""
    from controller.bot.level_strength import DEEP_FRACTION, MEASURED_LEVELS

    shares = {level: DEEP_FRACTION[level] if fraction is None else fraction for level in MEASURED_LEVELS}
    jobs = [(level, min(LEVEL_CHUNK, games - start), start, shares[level])
            for level in reversed(MEASURED_LEVELS) for start in range(0, games, LEVEL_CHUNK)]
    turns: dict[str, list[TurnLoss]] = {level: [] for level in MEASURED_LEVELS}
    workers = max(1, min(len(jobs), multiprocessing.cpu_count()))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for level, part in pool.imap_unordered(_level_turns, jobs):
            turns[level].extend(part)
    return turns


def level_figures(games: int, fraction: float | None = None) -> dict[str, object]:
    """PR and its standard errors per strength level over `games` self-play games each
    (`level_turns`); whether the PR rises strictly from world class to beginner, and the
    narrowest of those steps in the clustered standard errors."""
    from controller.evaluation.wheel import load_gnubg_nn

    if load_gnubg_nn() is None:
        return {"levels": "unavailable (needs gnubg-nn)"}
    t0 = time.perf_counter()
    turns = level_turns(games, fraction)
    return figures_from_turns(games, turns, time.perf_counter() - t0)


def figures_from_turns(games: int, turns: dict[str, list[TurnLoss]], seconds: float) -> dict[str, object]:
    """The bench figures of the levels' judged turns, measured in `seconds`."""
    from controller.bot.level_strength import JUDGE_PLIES, MEASURED_LEVELS, level_strength

    figures: dict[str, object] = {"level_games_each": games,
                                  "level_judge": f"analysis at {JUDGE_PLIES} plies on a sample of turns, 0-ply on all "
                                                 "(two-phase sampling)"}
    results = [level_strength(level, games, turns[level]) for level in MEASURED_LEVELS]
    for r in results:
        figures[f"level_{r.level}_pr"] = round(r.pr, 2)
        figures[f"level_{r.level}_pr_se"] = round(r.se, 2)
        figures[f"level_{r.level}_pr_se_if_turns_independent"] = round(r.se_turns_independent, 2)
        figures[f"level_{r.level}_decisions"] = r.decisions
        figures[f"level_{r.level}_deep_turns"] = f"{r.deep_turns} of {r.turns}"
        figures[f"level_{r.level}_pr_by_0ply_judge"] = round(r.shallow_pr, 2)
    pairs = list(zip(results, results[1:]))
    figures["level_pr_falls_with_strength"] = all(a.pr > b.pr for a, b in pairs)
    steps = {f"level_pr_step_{a.level}_{b.level}_se": (a.pr - b.pr) / math.hypot(a.se, b.se) for a, b in pairs}
    figures.update((key, round(step, 1)) for key, step in steps.items())  # about 2 or more: a real step
    figures["level_pr_narrowest_step_se"] = round(min(steps.values()), 1)
    figures["level_pr_s"] = round(seconds, 1)
    return figures


def run(quick: bool, games: int | None = None) -> dict[str, object]:
    figures: dict[str, object] = {}
    positions = sample_positions(40 if quick else 300)
    levels: list[tuple[str, Bot]] = [("simple", make_bot("simple")), ("pubeval", make_bot("pubeval"))]
    try:
        levels.append(("gnubg_nn", make_bot("gnubg", backend="nn")))
    except BackendUnavailableError:
        figures["gnubg_nn"] = "unavailable"
    try:
        levels.append(("gnubg_process", make_bot("gnubg", backend="process")))
    except BackendUnavailableError:
        figures["gnubg_process"] = "unavailable"
    for name, bot in levels:
        subset = positions[:30] if name == "gnubg_process" else positions
        median, worst = time_moves(bot, subset)
        figures[f"{name}_move_median_ms"] = round(median, 2)
        figures[f"{name}_move_worst_ms"] = round(worst, 2)
        close = getattr(bot, "close", None)
        if close:
            close()
    one_point, matches = (100, 20) if quick else (2000, 400)
    t0 = time.perf_counter()
    vs_pub = parallel_duel("simple", "pubeval", one_point, 1)
    figures["simple_vs_pubeval_games"] = vs_pub.played
    figures["simple_vs_pubeval_win_pct"] = round(100 * vs_pub.rate, 1)
    figures["simple_vs_pubeval_margin95_pct"] = round(100 * vs_pub.margin95, 1)
    figures["simple_vs_pubeval_s"] = round(time.perf_counter() - t0, 1)
    if "gnubg_nn" not in figures:
        t0 = time.perf_counter()
        vs_gnubg = parallel_duel("simple", "gnubg", matches, 5)
        figures["simple_vs_gnubg0_5pt_matches"] = vs_gnubg.played
        figures["simple_vs_gnubg0_5pt_win_pct"] = round(100 * vs_gnubg.rate, 1)
        figures["simple_vs_gnubg0_5pt_margin95_pct"] = round(100 * vs_gnubg.margin95, 1)
        figures["simple_vs_gnubg0_5pt_s"] = round(time.perf_counter() - t0, 1)
    figures.update(level_figures(games or (4 if quick else 100)))
    return figures

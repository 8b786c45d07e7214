"""`bgboard bench` section "bot": time per move of each computer level, duels, and the PR
of each level by strength (controller.bot.level_strength: self-play judged by the
analysis; issue 14 wants it to fall from beginner to expert).

Duels answer issue 7's bars: `simple` against Tesauro's pubeval over one-point games
(bar: > 55% of 2,000) and against GNU Backgammon 0-ply over 5-point matches (bar: >= 20%
of 400), each with its 95% margin. They run on every core (multiprocessing); `--quick`
plays a small sample only, enough to see that everything runs.
"""
from __future__ import annotations

import multiprocessing
import random
import statistics
import time

from controller.bot.base import Bot, make_bot
from controller.bot.duel import ONE_POINT, DuelFigures, duel
from controller.engine import Position, legal_moves
from controller.errors import BackendUnavailableError

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


def _level_pr(args: tuple[str, int]) -> tuple[str, float, int]:
    from controller.bot.level_strength import level_pr

    level, games = args
    pr, decisions = level_pr(level, games)
    return level, pr, decisions


def level_figures(games: int) -> dict[str, object]:
    """PR per strength level over `games` self-play games each, on every core."""
    from controller.bot.gnubg_level import load_gnubg_nn
    from controller.bot.level_strength import MEASURED_LEVELS

    if load_gnubg_nn() is None:
        return {"levels": "unavailable (needs gnubg-nn)"}
    figures: dict[str, object] = {"level_games_each": games}
    t0 = time.perf_counter()
    workers = max(1, min(len(MEASURED_LEVELS), multiprocessing.cpu_count()))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        results = pool.map(_level_pr, [(level, games) for level in MEASURED_LEVELS])
    for level, pr, decisions in results:
        figures[f"level_{level}_pr"] = round(pr, 2)
        figures[f"level_{level}_decisions"] = decisions
    prs = [pr for _, pr, _ in results]
    figures["level_pr_falls_with_strength"] = all(a > b for a, b in zip(prs, prs[1:]))
    figures["level_pr_s"] = round(time.perf_counter() - t0, 1)
    return figures


def run(quick: bool) -> dict[str, object]:
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
    games, matches = (100, 20) if quick else (2000, 400)
    t0 = time.perf_counter()
    vs_pub = parallel_duel("simple", "pubeval", games, 1)
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
    figures.update(level_figures(10 if quick else 100))
    return figures

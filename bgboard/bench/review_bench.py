"""Figures of the live review (controller.analysis.review, controller.table.review), part
of `bgboard bench`'s "analysis" section: how long the review takes after each game of a
real 7-point match at 0-ply (each finished game is analysed once, so this is one game's
analysis plus the statistics), and how late the event loop's 10 ms ticks run while the
review of the whole match runs in its worker thread (the board is read on that loop).
"""
from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import replace

from controller.records.model import MatchRecord

TICK_S = 0.01


def review_figures(record: MatchRecord) -> dict[str, object]:
    from controller.table.review import default_cache

    cache = default_cache()
    cache.review(replace(record, games=()))  # the network loaded before timing
    per_game = []
    for n in range(1, len(record.games) + 1):
        t0 = time.perf_counter()
        cache.review(replace(record, games=record.games[:n]))
        per_game.append(time.perf_counter() - t0)
    return {"review_games": len(per_game),
            "review_after_a_game_0ply_median_s": round(statistics.median(per_game), 3),
            "review_after_a_game_0ply_worst_s": round(max(per_game), 3),
            "review_loop_tick_late_worst_ms": round(asyncio.run(_loop_lateness(record)), 1)}


async def _loop_lateness(record: MatchRecord) -> float:
    """The worst lateness of a 10 ms tick on the loop while the whole match is reviewed in
    the runner's worker (a fresh cache, its network loaded first: every game is analysed)."""
    from controller.table.review import ReviewRunner, default_cache

    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    cache = await loop.run_in_executor(None, default_cache)
    runner = ReviewRunner(lambda review: done.set(), loop=loop, cache=lambda: cache)
    runner.review(record)
    worst = 0.0
    while not done.is_set():
        t0 = loop.time()
        await asyncio.sleep(TICK_S)
        worst = max(worst, loop.time() - t0 - TICK_S)
    runner.close()
    return worst * 1000.0

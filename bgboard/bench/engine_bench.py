"""`bgboard bench` section `engine`: legal-move generation speed and memory.

Figures (all measured in this run, on this machine):
- `moves_median_us`: median time of one `legal_moves(position, dice)` over positions
  reached by seeded random play, every one of the 21 rolls each;
- `moves_p99_us`, `moves_mean_us`: the same distribution's tail and mean;
- `hard_worst_ms`: the slowest of a fixed set of hard positions (1-1 with checkers spread
  over many points: each has over 2,000 distinct moves), best of several runs each so
  that a context switch is not counted as the engine's time;
- `hard_peak_kib`: peak memory allocated while generating the hardest one (tracemalloc);
- `plan_median_us`, `plan_hard_ms`: building a `TurnPlan` (per-step hints) for positions
  reached by play, and for the hardest position (once);
- `gnubg_*` and `ratio_*`: GNU Backgammon's C generator (gnubg-nn's `moves`) on the same
  positions and rolls, and ours divided by gnubg's (absent when gnubg-nn is not installed).
As `timeit` does, the garbage collector is paused while timing.
"""
from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable

from controller.engine import ALL_ROLLS, Position, TurnPlan, legal_moves, playout

NAME = "engine"

#: 1-1 with 2,209..2,211 distinct moves each (found by a search with gnubg-nn's generator)
HARD: tuple[str, ...] = ("ABEATEqqlJQEAA", "IBCAdFJJUkklAA", "AAgAkpSSVCUBAA", "AhASKJUkqVQSAA")
HARD_DICE = (1, 1)


def played_positions(count: int, seed: int = 2026) -> list[Position]:
    """Positions reached by random play from the start (a new game after each end)."""
    return playout.played_positions(count, seed)


def _times_us(fn: Callable[[Position, int, int], object], positions: list[Position]) -> list[float]:
    clock = time.perf_counter_ns
    times: list[float] = []
    for p in positions:
        for d1, d2 in ALL_ROLLS:
            t0 = clock()
            fn(p, d1, d2)
            times.append((clock() - t0) / 1000)
    return times


def _worst_ms(fn: Callable[[Position, int, int], object], positions: list[Position], repeat: int) -> float:
    clock = time.perf_counter_ns
    worst = 0.0
    for p in positions:
        best = min(_once(fn, p, clock) for _ in range(repeat))
        worst = max(worst, best)
    return worst / 1e6


def _once(fn: Callable[[Position, int, int], object], p: Position, clock: Callable[[], int]) -> int:
    t0 = clock()
    fn(p, *HARD_DICE)
    return clock() - t0


def _ours(p: Position, d1: int, d2: int) -> object:
    return legal_moves(p, (d1, d2))


def _plan(p: Position, d1: int, d2: int) -> object:
    return TurnPlan(p, (d1, d2))


def _gnubg() -> Callable[[Position, int, int], object] | None:
    try:
        import gnubg_nn
    except ImportError:
        return None
    moves = gnubg_nn.moves

    def call(p: Position, d1: int, d2: int) -> object:
        return moves([list(p.theirs), list(p.mine)], d1, d2)

    return call


def run(quick: bool) -> dict[str, object]:
    positions = played_positions(150 if quick else 1500)
    hard = [Position.from_id(h) for h in HARD]
    repeat = 2 if quick else 5
    figures: dict[str, object] = {}
    enabled = gc.isenabled()
    gc.disable()
    try:
        ours = _times_us(_ours, positions)
        figures["positions"] = len(positions)
        figures["rolls_timed"] = len(ours)
        figures["moves_median_us"] = round(statistics.median(ours), 2)
        figures["moves_p99_us"] = round(statistics.quantiles(ours, n=100)[98], 1)
        figures["moves_mean_us"] = round(statistics.fmean(ours), 2)
        figures["hard_positions"] = len(hard)
        figures["hard_min_moves"] = min(len(legal_moves(p, HARD_DICE)) for p in hard)
        figures["hard_worst_ms"] = round(_worst_ms(_ours, hard, repeat), 3)
        plans = _times_us(_plan, positions[: len(positions) // 5])
        figures["plan_median_us"] = round(statistics.median(plans), 1)
        t0 = time.perf_counter()
        _plan(hard[0], *HARD_DICE)
        figures["plan_hard_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        gnubg = _gnubg()
        if gnubg is not None:
            theirs = _times_us(gnubg, positions)
            figures["gnubg_median_us"] = round(statistics.median(theirs), 2)
            figures["gnubg_hard_worst_ms"] = round(_worst_ms(gnubg, hard, repeat), 3)
            figures["ratio_median"] = round(figures["moves_median_us"] / figures["gnubg_median_us"], 2)  # type: ignore[operator]
            figures["ratio_hard_worst"] = round(figures["hard_worst_ms"] / figures["gnubg_hard_worst_ms"], 2)  # type: ignore[operator]
        else:
            figures["gnubg"] = "gnubg-nn not installed: no comparison"
    finally:
        if enabled:
            gc.enable()
    tracemalloc.start()
    try:
        hardest = max(hard, key=lambda p: len(legal_moves(p, HARD_DICE)))
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        kept = legal_moves(hardest, HARD_DICE)
        figures["hard_peak_kib"] = round((tracemalloc.get_traced_memory()[1] - base) / 1024, 1)
        del kept
    finally:
        tracemalloc.stop()
    return figures

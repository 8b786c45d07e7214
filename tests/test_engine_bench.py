"""`bgboard bench` section `engine`: a quick run gives the figures the issue asks for."""
from __future__ import annotations

from bgboard.bench import engine_bench
from controller.engine import ALL_ROLLS, Position, legal_moves


def test_quick_run_reports_every_figure() -> None:
    figures = engine_bench.run(quick=True)
    assert figures["rolls_timed"] == figures["positions"] * len(ALL_ROLLS)
    for key in ("moves_median_us", "moves_p99_us", "moves_mean_us", "hard_worst_ms", "hard_peak_kib"):
        assert isinstance(figures[key], float) and figures[key] > 0, key
    assert figures["moves_median_us"] <= figures["moves_p99_us"]
    assert figures["hard_min_moves"] > 2000
    if "gnubg_median_us" in figures:
        assert figures["ratio_median"] > 0 and figures["ratio_hard_worst"] > 0


def test_hard_positions_really_are_hard() -> None:
    for pid in engine_bench.HARD:
        assert len(legal_moves(Position.from_id(pid), engine_bench.HARD_DICE)) > 2000


def test_played_positions_are_reproducible() -> None:
    assert engine_bench.played_positions(50) == engine_bench.played_positions(50)
    assert len(set(engine_bench.played_positions(200))) > 150

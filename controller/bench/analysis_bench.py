"""`bgboard bench` section "analysis": `bgboard analyze` of a 7-point match at 0-ply against
GNU Backgammon's own `analyse match` of the same file in the same run (issue 14's goal:
at most 1.5x), and the hint's latency (goal: 200 ms at 0-ply).

The match is a real one from shared/matches (4 games, 7 points); gnubg is timed as the
whole program run (start, import, analysis, statistics), ours as loading the network
plus the analysis, both wall-clock, the median of three alternating runs. Both use
every core (gnubg its threads, the analysis one forked process per game).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from controller.errors import BackendUnavailableError

NAME = "analysis"
MATCH = "Llabba__Llabba_-_Pasiphae_7pt_Backgammon_Studio_2023_10_25_08_23_43.txt"
PLACES = (Path(__file__).resolve().parents[3] / "shared" / "matches" / "bglab",
          Path(__file__).resolve().parents[2] / "../shared/matches/bglab")


def _match_file() -> Path | None:
    return next((p / MATCH for p in PLACES if (p / MATCH).is_file()), None)


def run(quick: bool) -> dict[str, object]:
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.gnubg_program import run_gnubg_analysis
    from controller.analysis.hint import hint
    from controller.analysis.match import MatchAnalyser
    from controller.bench.bot_bench import sample_positions
    from controller.records.mat_reader import read_mat

    figures: dict[str, object] = {}
    path = _match_file()
    try:
        evaluator = Evaluator()
        if path is None:
            figures["match_7pt"] = "unavailable (shared/matches not found)"
        else:
            record = read_mat(path.read_text())
            ours, theirs = [], []
            for _ in range(1 if quick else 3):  # alternate, so both meet the same load
                t0 = time.perf_counter()
                analysis = MatchAnalyser(Evaluator()).analyse(record)
                ours.append(time.perf_counter() - t0)
                try:
                    t0 = time.perf_counter()
                    run_gnubg_analysis(path, 0)
                    theirs.append(time.perf_counter() - t0)
                except BackendUnavailableError:
                    pass
            figures["match_7pt_decisions"] = len(analysis.decisions)
            figures["analyze_7pt_0ply_median_s"] = round(statistics.median(ours), 2)
            if theirs:
                figures["gnubg_analyse_7pt_0ply_median_s"] = round(statistics.median(theirs), 2)
                figures["analyze_vs_gnubg_ratio"] = round(statistics.median(ours) / statistics.median(theirs), 2)
            else:
                figures["gnubg_analyse_7pt_0ply_median_s"] = "unavailable"
        times = []
        for position, dice in sample_positions(20 if quick else 100, seed=5):
            t0 = time.perf_counter()
            hint(position, dice, evaluator=evaluator)
            times.append((time.perf_counter() - t0) * 1000.0)
        figures["hint_0ply_median_ms"] = round(statistics.median(times), 2)
        figures["hint_0ply_worst_ms"] = round(max(times), 2)
    except BackendUnavailableError as exc:
        figures["analysis"] = f"unavailable: {exc}"
    return figures

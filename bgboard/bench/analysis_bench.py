"""`bgboard bench` section "analysis": `bgboard analyze` of a 7-point match at 0, 1 and
2 plies against GNU Backgammon's own `analyse match` of the same file at the same ply in
the same run (issue 14's goal: at most 1.5x at 0-ply), the hint's latency (goal: 200 ms at 0-ply), and the tutor's: how long its
judgement of a completed move, a double and the answer to it takes at 0-ply before the
action counts (controller.analysis.tutor; the answer is judged after the double of the
same position, as at the table, so it reuses that position's evaluation), and the live
review's after each game of the same match (bgboard.bench.review_bench).

The match is a real one from shared/matches (4 games, 7 points); gnubg is timed as the
whole program run (start, import, analysis, statistics), ours as loading the network
plus the analysis, both wall-clock. At 0-ply the figure is the median of three
alternating runs (one with `--quick`); 1-ply and 2-ply are one run each (2-ply is left
out with `--quick`: it takes minutes). Both use every core (gnubg its threads, the
analysis one forked process per game).
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from controller.engine.position import Position
from controller.errors import BackendUnavailableError
from controller.records.model import MatchRecord

NAME = "analysis"
MATCH = "Llabba__Llabba_-_Pasiphae_7pt_Backgammon_Studio_2023_10_25_08_23_43.txt"
PLACES = (Path(__file__).resolve().parents[3] / "shared" / "matches" / "bglab",
          Path(__file__).resolve().parents[2] / "../shared/matches/bglab")


def _match_file() -> Path | None:
    return next((p / MATCH for p in PLACES if (p / MATCH).is_file()), None)


def _timed_pair(path: Path, record: MatchRecord, plies: int, runs: int) -> dict[str, object]:
    """Our analysis and gnubg's of the same file at `plies`, alternating so both meet the
    same load; medians and their ratio."""
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.gnubg_program import run_gnubg_analysis
    from controller.analysis.match import MatchAnalyser

    ours, theirs = [], []
    decisions = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        decisions = len(MatchAnalyser(Evaluator(plies=plies)).analyse(record).decisions)
        ours.append(time.perf_counter() - t0)
        try:
            t0 = time.perf_counter()
            run_gnubg_analysis(path, plies)
            theirs.append(time.perf_counter() - t0)
        except BackendUnavailableError:
            pass
    figures: dict[str, object] = {"match_7pt_decisions": decisions,
                                  f"analyze_7pt_{plies}ply_median_s": round(statistics.median(ours), 2)}
    if theirs:
        figures[f"gnubg_analyse_7pt_{plies}ply_median_s"] = round(statistics.median(theirs), 2)
        figures[f"analyze_vs_gnubg_{plies}ply_ratio"] = round(statistics.median(ours) / statistics.median(theirs), 2)
    else:
        figures[f"gnubg_analyse_7pt_{plies}ply_median_s"] = "unavailable"
    return figures


def run(quick: bool) -> dict[str, object]:
    from controller.analysis.evaluator import Evaluator
    from controller.analysis.hint import hint
    from bgboard.bench.bot_bench import sample_positions
    from bgboard.bench.review_bench import review_figures
    from controller.records.mat_reader import read_mat

    figures: dict[str, object] = {}
    path = _match_file()
    try:
        evaluator = Evaluator()
        if path is None:
            figures["match_7pt"] = "unavailable (shared/matches not found)"
        else:
            record = read_mat(path.read_text())
            figures.update(_timed_pair(path, record, 0, 1 if quick else 3))
            figures.update(_timed_pair(path, record, 1, 1))
            if not quick:
                figures.update(_timed_pair(path, record, 2, 1))
            figures.update(review_figures(record))
        times = []
        for position, dice in sample_positions(20 if quick else 100, seed=5):
            t0 = time.perf_counter()
            hint(position, dice, evaluator=evaluator)
            times.append((time.perf_counter() - t0) * 1000.0)
        figures["hint_0ply_median_ms"] = round(statistics.median(times), 2)
        figures["hint_0ply_worst_ms"] = round(max(times), 2)
        figures.update(tutor_figures(sample_positions(20 if quick else 100, seed=7)))
    except BackendUnavailableError as exc:
        figures["analysis"] = f"unavailable: {exc}"
    return figures


def tutor_figures(positions: list[tuple[Position, tuple[int, int]]]) -> dict[str, object]:
    """Median and worst milliseconds of the tutor's judgement of a move (the roll's last
    legal move), a double and a take, at 7-away/7-away with the cube centred. The first
    judgement is made untimed: it imports the modules a running table has loaded long
    before (about 0.3 s once)."""
    from controller.analysis.tutor import cube_warning, move_warning
    from controller.engine.match import Match
    from controller.engine.match_settings import MatchSettings

    times: dict[str, list[float]] = {"move": [], "double": [], "take": []}
    warm = Match.from_score(MatchSettings(length=7), (0, 0), None, Position.initial(), "white")
    cube_warning(warm, "double", "doubtful")
    for position, dice in positions:
        start = Match.from_score(MatchSettings(length=7), (0, 0), None, position, "white")
        rolled = start.roll("white", dice).match
        if start.phase != "roll" or rolled.phase != "move":
            continue
        doubled = start.double("white").match
        judged: dict[str, Callable[[], object]] = {
            "move": lambda: move_warning(rolled, rolled.legal_moves()[-1].result, "doubtful"),
            "double": lambda: cube_warning(start, "double", "doubtful"),
            "take": lambda: cube_warning(doubled, "take", "doubtful"),
        }
        for kind, judge in judged.items():
            t0 = time.perf_counter()
            judge()
            times[kind].append((time.perf_counter() - t0) * 1000.0)
    figures: dict[str, object] = {}
    for kind, found in times.items():
        if found:
            figures[f"tutor_{kind}_0ply_median_ms"] = round(statistics.median(found), 2)
            figures[f"tutor_{kind}_0ply_worst_ms"] = round(max(found), 2)
    return figures

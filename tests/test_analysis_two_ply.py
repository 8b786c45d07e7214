"""`bgboard analyze --ply 2` against GNU Backgammon 1.07's own `analyse match` at 2 plies.

gnubg is run on the real match here (about 6 s of CPU for this one; ours about 35 s) with
the commands of `controller.analysis.gnubg_program.script`: 2-ply chequer play and cube
decisions, the issue's marks, every other setting gnubg's default (pruning nets, the
analysis move filter, 0-ply luck). Besides its statistics it exports the analysed match
as text, so the figures are compared per decision too, and its labels ("Cubeful 2-ply",
"2-ply cubeless equity") show that it looked as deep as it was told.

Tolerances, and why: as at 0-ply (tests/test_analysis.py), gnubg-nn's inputs for
positions with a checker on the bar differ slightly from gnubg 1.07's, and at 2 plies
such positions are among the leaves of almost every decision. Measured: no decision's
loss differs by more than 0.003 EMG on this match (0.004 on lasse__match1043097, 0.002
over the 330 decisions of the bench's 7-point match), so each may differ by 0.01 (gnubg
prints 3 decimals); the counts that depend on no threshold must be equal, each mark
count within one, totals within 0.02 EMG plus 4 %, rates within 1 mEMG. Which moves are
looked at 2 plies deep (gnubg's analysis filter): tests/test_analysis_move_filter.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.analysis.evaluator import Evaluator
from controller.analysis.gnubg_export import GnubgDecision, paired, read_export
from controller.analysis.gnubg_program import run_gnubg_analysis
from controller.analysis.gnubg_statistics import GnubgStats, parse_statistics
from controller.analysis.match import MatchAnalyser, MatchAnalysis
from controller.analysis.stats import player_stats
from controller.bot.gnubg_level import find_gnubg_program, load_gnubg_nn
from controller.records.mat_reader import read_mat

MATCH = Path(__file__).resolve().parent.parent / "../shared/matches/bglab/lasse__match1004844.txt"
"""A 3-point match of two games (94 decisions, cube turned twice: doubles, a take, a
redouble), short enough for a 2-ply analysis in a test."""

needs_gnubg = pytest.mark.skipif(load_gnubg_nn() is None or find_gnubg_program() is None,
                                 reason="needs gnubg-nn and the gnubg program (installed by .ci/run)")


@pytest.fixture(scope="module")
def gnubg_two_ply(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[GnubgStats, GnubgStats],
                                                                      list[GnubgDecision]]:
    first = tmp_path_factory.mktemp("gnubg") / "match.txt"
    text = run_gnubg_analysis(MATCH, plies=2, export=first)
    return parse_statistics(text), read_export(first)


@pytest.fixture(scope="module")
def ours_two_ply() -> MatchAnalysis:
    text = MATCH.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
    return MatchAnalyser(Evaluator(plies=2)).analyse(read_mat(text))


@needs_gnubg
def test_gnubg_really_analysed_at_two_plies(gnubg_two_ply: tuple[object, list[GnubgDecision]]) -> None:
    decisions = gnubg_two_ply[1]
    cube = [d for d in decisions if d.kind != "move"]
    moves = [d for d in decisions if d.kind == "move" and d.loss > 0]
    assert cube and {d.evaluation for d in cube} == {"2-ply"}
    assert moves and {d.evaluation for d in moves} == {"Cubeful 2-ply"}
    assert {d.best_evaluation for d in moves} == {"Cubeful 2-ply"}


@needs_gnubg
def test_two_ply_statistics_agree_with_gnubg(gnubg_two_ply: tuple[tuple[GnubgStats, GnubgStats], object],
                                            ours_two_ply: MatchAnalysis) -> None:
    theirs = gnubg_two_ply[0]
    for player in (0, 1):
        s, g = player_stats(ours_two_ply, player), theirs[player]
        assert (s.unforced, s.close_cube) == (g.unforced, g.close_cube)
        assert abs(s.doubtful - g.doubtful) <= 1 and abs(s.bad - g.bad) <= 1 and abs(s.very_bad - g.very_bad) <= 1
        assert s.checker_error == pytest.approx(g.checker_error, abs=0.02 + 0.04 * g.checker_error)
        assert s.checker_rate == pytest.approx(g.checker_rate, abs=1.0)
        assert s.cube_error == pytest.approx(g.cube_error, abs=0.02 + 0.04 * g.cube_error)
        assert s.cube_rate == pytest.approx(g.cube_rate, abs=1.0)
        assert s.overall_rate == pytest.approx(g.overall_rate, abs=1.0)
        assert s.pr == pytest.approx(g.overall_rate / 2, abs=0.5)
        assert s.rating == g.rating
        assert s.luck == pytest.approx(g.luck, abs=0.06)


@needs_gnubg
def test_each_decision_loses_what_gnubg_says(gnubg_two_ply: tuple[object, list[GnubgDecision]],
                                             ours_two_ply: MatchAnalysis) -> None:
    pairs = paired(ours_two_ply, gnubg_two_ply[1])
    for mine, gnubg in pairs:
        assert mine.loss == pytest.approx(gnubg.loss, abs=0.01), f"game {mine.game} move {mine.move} {mine.kind}"
    marked = [g for _m, g in pairs if g.loss >= 0.04]
    assert len(marked) >= 8  # the comparison covers real errors, not only best moves

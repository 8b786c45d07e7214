"""`bgboard analyze` against the gnubg program's own `analyse match`, for each release the
tests can run: this machine's gnubg (bookworm's 1.07, in CI) with its weights, and
trixie's gnubg 1.08 in its cached root (`.ci/gnubg-1.08-root`; without it these say so in
one line) with that root's weights, so that bgboard on trixie is checked against 1.08 as
on bookworm against 1.07. At 0, 1 and 2 plies, decision by decision (gnubg's `export
match text`) and per player (`show statistics match`).

What differs between the two, and so what these hold (besides the weights and their
inputs, tests/test_evaluation_program.py): 1.08's cube efficiencies are higher at 0 and 1
ply (contact 0.76, races up to 0.8), its 2-ply evaluations keep 1.07's, and its luck, a
0-ply evaluation, takes the 0-ply ones whatever the analysis's depth.

Tolerances: gnubg prints each loss to 3 decimals; beyond its rounding the program's SSE
arithmetic leaves up to about 0.002 EMG on a decision (measured: 0.0015 on this match at
each depth, either release), so 0.005; the marks may differ only where a loss lies within
that of a threshold (none on this match); PR within 0.1, luck within 0.02 EMG.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.analysis.gnubg_export import GnubgDecision, paired, read_export
from controller.analysis.gnubg_program import GnubgProgram, installed_program, run_gnubg_analysis, trixie_program
from controller.analysis.gnubg_statistics import GnubgStats, parse_statistics
from controller.analysis.match import MatchAnalysis
from controller.analysis.stats import player_stats
from controller.evaluation.backend import NetworkBackend
from gnubg_agreement import PR_WITHIN, analyse, network_for

MATCH = Path(__file__).resolve().parent.parent / "../shared/matches/bglab/lasse__match1004844.txt"
"""A 3-point match of two games (94 decisions, the cube turned twice: doubles, a take, a
redouble), short enough for a 2-ply analysis in a test."""
LOSS_WITHIN = 0.005


@pytest.fixture(params=["installed", "trixie"], scope="module")
def judge(request: pytest.FixtureRequest) -> tuple[GnubgProgram, NetworkBackend]:
    """A gnubg program and the network on its own weights."""
    if request.param == "installed":
        program = installed_program()
        if program is None:
            pytest.skip("needs the gnubg program (sudo apt install gnubg; .ci/run installs it)")
    else:
        program, why = trixie_program()
        if program is None:
            pytest.skip(why)
    return program, network_for(program)


def _both(judge: tuple[GnubgProgram, NetworkBackend], plies: int,
          tmp_path: Path) -> tuple[MatchAnalysis, tuple[GnubgStats, GnubgStats], list[GnubgDecision]]:
    program, network = judge
    first = tmp_path / "export.txt"
    stats = parse_statistics(run_gnubg_analysis(MATCH, plies, export=first, program=program))
    return analyse(MATCH, network, plies), stats, read_export(first)


@pytest.mark.parametrize("plies", [0, 1, pytest.param(2, marks=pytest.mark.slow)])
def test_each_decision_and_player_as_the_program_judges(judge: tuple[GnubgProgram, NetworkBackend], plies: int,
                                                         tmp_path: Path) -> None:
    program, _network = judge
    ours, theirs, decisions = _both(judge, plies, tmp_path)
    assert ours.judged_as == f"gnubg {program.release}"
    # gnubg looked as deep as told, at every cube decision and every move it charged
    assert {d.evaluation for d in decisions if d.kind != "move"} == {f"{plies}-ply"}
    assert {d.evaluation for d in decisions if d.kind == "move" and d.loss > 0} == {f"Cubeful {plies}-ply"}
    pairs = paired(ours, decisions)
    assert len(pairs) > 80 and sum(g.loss >= 0.03 for _m, g in pairs) >= 5
    for mine, gnubg in pairs:
        assert mine.loss == pytest.approx(gnubg.loss, abs=LOSS_WITHIN), f"game {mine.game} move {mine.move} {mine.kind}"
    for player in (0, 1):
        s, g = player_stats(ours, player), theirs[player]
        assert (s.unforced, s.close_cube) == (g.unforced, g.close_cube)
        assert (s.doubtful, s.bad, s.very_bad) == (g.doubtful, g.bad, g.very_bad)
        assert abs(s.pr - g.overall_rate / 2) <= PR_WITHIN
        assert s.luck == pytest.approx(g.luck, abs=0.02)

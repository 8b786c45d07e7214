"""The moves a 1- or 2-ply analysis looks at more deeply: gnubg 1.07's analysis filter.

gnubg evaluates every move at 0-ply, keeps the best ones (its analysis filter) and looks
deeper at those only; a move the filter drops can never come out best. gnubg's analysis
keeps 16 within 0.32 (its hint keeps 8 within 0.16): `show analysis` says so, and on a
real match the deeper analysis finds a best move that the hint's narrower filter never
looks at. The 1-ply analysis (cheap) shows it; the 2-ply analysis uses the same filter.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.analysis.cubeful import CubeInfo
from controller.analysis.evaluator import FILTER_EXTRA, FILTER_THRESHOLD, Evaluator
from controller.analysis.gnubg_export import paired, read_export
from controller.analysis.gnubg_program import run_gnubg, run_gnubg_analysis
from controller.analysis.match import MatchAnalyser, MatchAnalysis
from controller.evaluation.program import find_gnubg_program
from controller.evaluation.wheel import load_gnubg_nn
from controller.engine import legal_moves
from controller.records.mat_reader import read_mat

MATCH = (Path(__file__).resolve().parent.parent
         / "../shared/matches/bglab/Llabba__BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt")

needs_gnubg = pytest.mark.skipif(load_gnubg_nn() is None or find_gnubg_program() is None,
                                 reason="needs gnubg-nn and the gnubg program (installed by .ci/run)")


@needs_gnubg
def test_the_move_filter_is_the_one_gnubg_analyses_with() -> None:
    shown = run_gnubg("set analysis chequerplay evaluation plies 2\nshow analysis\n")
    chequer = shown[shown.index("Chequer play:"):shown.index("Cube decisions:")]
    two_ply = chequer[chequer.index("Move filter for 2 ply:"):chequer.index("Move filter for 3 ply:")]
    assert "2-ply evaluation." in chequer and "Using pruning neural nets." in chequer
    found = re.search(r"keep the first 0 0-ply moves and up to (\d+) more moves within equity (\d\.\d+)", two_ply)
    assert found is not None, two_ply
    assert (int(found.group(1)), float(found.group(2))) == (FILTER_EXTRA, FILTER_THRESHOLD)
    assert "Skip pruning for 1-ply moves." in two_ply


@needs_gnubg
def test_a_best_move_only_the_wide_filter_reaches_is_found_as_gnubg_finds_it(tmp_path: Path) -> None:
    first = tmp_path / "match.txt"
    run_gnubg_analysis(MATCH, plies=1, export=first)
    theirs = [d for d in read_export(first) if d.game == 1]
    record = read_mat(MATCH.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    ours = MatchAnalysis(record.length, record.players,
                         tuple(MatchAnalyser(Evaluator(plies=1), luck=False).game(record.length, record.games[0])), 1)
    pairs = paired(ours, theirs)
    for mine, gnubg in pairs:
        assert mine.loss == pytest.approx(gnubg.loss, abs=0.01), f"move {mine.move} {mine.kind}"
    # game 1, BoardLord rolls 41: gnubg charges 9/5 7/6 0.073 against 9/5 8/7, a move
    # that 0-ply ranks outside the best 8 within 0.16 (so the hint's filter gives 0.058)
    mine, gnubg = next((m, g) for m, g in pairs if m.kind == "move" and m.played == "9/5 7/6" and m.dice == (4, 1))
    assert gnubg.best == mine.best == "9/5 8/7"
    assert mine.loss == pytest.approx(gnubg.loss, abs=0.005) and gnubg.loss >= 0.07
    assert mine.position is not None
    ci = CubeInfo(record.length, record.games[0].score, mine.cube, mine.owner, mine.player, False)
    shallow = Evaluator()
    ranked = shallow.candidates((mine.position.theirs, mine.position.mine), (4, 1), ci)
    names = {shallow.key_of((m.result.mine, m.result.theirs)): m.notation for m in legal_moves(mine.position, (4, 1))}
    narrow = [names[c.key] for i, c in enumerate(ranked) if i < 8 and c.equity >= ranked[0].equity - 0.16]
    assert "9/5 8/7" not in narrow

"""`bgboard analyze` against the installed GNU Backgammon's own `analyse match` of the same
files (gnubg 1.07 on this machine and in CI; 1.08 as well: tests/test_analysis_releases.py,
which also compares 0, 1 and 2 plies decision by decision).

Tolerances, and why: the analysis evaluates as the program does (the same inputs for the
same weights, tests/test_evaluation_program.py), but the program sums its networks with
SSE in another order and computes its sigmoid otherwise: the chances differ by up to
about 1.2e-3, a decision's loss by up to about 0.002 EMG. So counts that do not depend on
a threshold (unforced moves, close cube decisions) must be equal; each mark count may
differ by one (a move lying at a threshold); error totals within 0.02 EMG plus 4 %, luck
within 0.06 EMG, the overall error rate within 1 mEMG.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.analysis.cubeful import CubeInfo, match_equity
from controller.analysis.evaluator import Evaluator
from controller.analysis.gnubg_program import run_gnubg, run_gnubg_analysis
from controller.analysis.gnubg_statistics import parse_statistics
from controller.analysis.match import MatchAnalyser, mark_of
from controller.analysis.stats import player_stats
from controller.evaluation.program import find_gnubg_program
from controller.evaluation.wheel import load_gnubg_nn
from controller.engine import Position
from controller.evaluation.numpy_network import NumpyNetwork
from controller.records.mat_reader import read_mat

MATCHES = Path(__file__).resolve().parent.parent / "../shared/matches/bglab"
SHORT = ("lasse__match1043097.txt", "lasse__match1004844.txt", "lasse__match10074339.txt",
         "lasse__match10058734.txt")

needs_gnubg = pytest.mark.skipif(load_gnubg_nn() is None or find_gnubg_program() is None,
                                 reason="needs gnubg-nn and the gnubg program (installed by .ci/run)")
needs_program = pytest.mark.skipif(find_gnubg_program() is None, reason="needs the gnubg program (sudo apt install gnubg)")


def _analyse(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
    return MatchAnalyser(Evaluator()).analyse(read_mat(text))


@needs_gnubg
@pytest.mark.parametrize("name", SHORT)
def test_statistics_agree_with_gnubg_analyse_match(name: str) -> None:
    _assert_agrees_with_gnubg(MATCHES / name)


@needs_program
@pytest.mark.parametrize("name", SHORT[:1])
def test_statistics_agree_with_gnubg_without_the_wheel(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As a Raspberry Pi analyses: gnubg's networks in numpy from the program's weights."""
    monkeypatch.setenv("BGBOARD_NETWORK", "numpy")
    network = Evaluator().network
    assert isinstance(network, NumpyNetwork) and network.wheel is None
    _assert_agrees_with_gnubg(MATCHES / name)


def _assert_agrees_with_gnubg(path: Path) -> None:
    ours = _analyse(path)
    theirs = parse_statistics(run_gnubg_analysis(path, plies=0))
    for player in (0, 1):
        s, g = player_stats(ours, player), theirs[player]
        assert s.unforced == g.unforced
        assert s.close_cube == g.close_cube
        assert abs(s.doubtful - g.doubtful) <= 1
        assert abs(s.bad - g.bad) <= 1
        assert abs(s.very_bad - g.very_bad) <= 1
        assert s.checker_error == pytest.approx(g.checker_error, abs=0.02 + 0.04 * g.checker_error)
        assert s.cube_error == pytest.approx(g.cube_error, abs=0.02 + 0.04 * g.cube_error)
        assert s.luck == pytest.approx(g.luck, abs=0.06)
        assert s.overall_rate == pytest.approx(g.overall_rate, abs=1.0)


@needs_gnubg
@pytest.mark.parametrize("name", SHORT[:2])
def test_one_ply_statistics_agree_with_gnubg(name: str) -> None:
    # gnubg's 1-ply: the 0-ply best sixteen within 0.32 looked at one roll deeper, cubeful
    # at every node, the opponent's replies chosen with the pruning network
    path = MATCHES / name
    text = path.read_text(encoding="utf-8", errors="replace")
    ours = MatchAnalyser(Evaluator(plies=1)).analyse(read_mat(text))
    theirs = parse_statistics(run_gnubg_analysis(path, plies=1))
    for player in (0, 1):
        s, g = player_stats(ours, player), theirs[player]
        assert (s.unforced, s.close_cube) == (g.unforced, g.close_cube)
        assert abs(s.doubtful - g.doubtful) <= 1 and abs(s.bad - g.bad) <= 1 and abs(s.very_bad - g.very_bad) <= 1
        assert s.checker_error == pytest.approx(g.checker_error, abs=0.02 + 0.04 * g.checker_error)
        assert s.cube_error == pytest.approx(g.cube_error, abs=0.02 + 0.04 * g.cube_error)
        assert s.overall_rate == pytest.approx(g.overall_rate, abs=1.0)


@needs_gnubg
def test_cube_decision_as_gnubg_evaluates_it() -> None:
    # gnubg 1.07, 3-point match at 0-0, 0-ply (its analysis of lasse__match1043097 game 1
    # move 2): no double -0.172, double/take -0.679, double/pass +1.000
    position = Position.from_id("mGfwATDgc/ABMA")
    cube = Evaluator().cube((position.theirs, position.mine), CubeInfo(3, (0, 0), 1, -1, 0, False))
    assert cube.no_double == pytest.approx(-0.172, abs=0.0015)
    assert cube.take == pytest.approx(-0.679, abs=0.0015)
    assert cube.drop == pytest.approx(1.0)
    assert cube.action == "No double"


def test_match_equity_table_is_gnubgs_default() -> None:
    # Kazaross XG2 as `show matchequitytable` prints it: 2-away v 3-away 59.947 %,
    # 3-away v 2-away 40.053 %; post-Crawford 2-away trailer 48.803 %
    assert match_equity(5, (3, 2), 0, 0, 0, False) == pytest.approx(0.59947)
    assert match_equity(3, (0, 1), 0, 0, 0, False) == pytest.approx(0.40053)
    assert match_equity(3, (2, 1), 1, 0, 0, False) == pytest.approx(0.48803)


def test_marks_use_gnubgs_thresholds() -> None:
    assert [mark_of(x) for x in (0.0, 0.03, 0.031, 0.06, 0.061, 0.12, 0.121, 0.5)] == [
        "", "", "doubtful", "doubtful", "bad", "bad", "very bad", "very bad"]


@needs_gnubg
def test_marks_are_the_ones_gnubg_gives_with_its_own_settings() -> None:
    """lasse__match1247518 at 0 ply, gnubg 1.07's thresholds left as it ships them: it marks
    three of game 3's moves that lose 0.070 EMG bad (0.04/0.08/0.16 called them doubtful)."""
    shown = run_gnubg("show analysis\n")
    assert [line.split()[0] for line in shown.splitlines() if line.strip().endswith(("doubtful", " bad"))] == \
        ["-0.030", "-0.060", "-0.120"]
    path = MATCHES / "lasse__match1247518.txt"
    theirs = parse_statistics(run_gnubg("set confirm default no\nset analysis chequerplay evaluation plies 0\n"
                                        "set analysis cubedecision evaluation plies 0\n"
                                        f"import mat {path.resolve()}\nanalyse match\nshow statistics match\n"))
    ours = _analyse(path)
    for player in (0, 1):
        s, g = player_stats(ours, player), theirs[player]
        assert (s.doubtful, s.bad, s.very_bad) == (g.doubtful, g.bad, g.very_bad)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard.cli", "analyze", *args],
                          capture_output=True, text=True, timeout=300, check=False)


@needs_gnubg
def test_json_has_the_issue_keys() -> None:
    done = _cli("--json", str(MATCHES / SHORT[1]))
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    assert set(obj) >= {"file", "players", "games"}
    for player in obj["players"]:
        assert set(player) == {"name", "checker", "cube", "overall", "luck"}
        assert set(player["checker"]) == {"unforced", "doubtful", "bad", "very_bad", "error_total_emg",
                                          "error_rate_memg"}
        assert set(player["cube"]) == {"close", "error_total_emg", "error_rate_memg"}
        assert set(player["overall"]) == {"error_rate_memg", "pr", "rating"}
        assert set(player["luck"]) == {"total_emg"}
        assert player["overall"]["pr"] == pytest.approx(player["overall"]["error_rate_memg"] / 2, abs=0.01)
    decision = obj["games"][0]
    assert {"game", "move", "player", "dice", "played", "best", "equity_loss", "mark"} <= set(decision)


@needs_gnubg
def test_text_report_puts_blunders_first() -> None:
    done = _cli(str(MATCHES / SHORT[1]))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Marked decisions")
    marked = [line.replace("very bad", "very_bad").split() for line in lines[2:]
              if line.strip().startswith(("bad", "very", "doubt"))]
    losses = [float(words[1]) for words in marked]
    assert losses and losses == sorted(losses)  # -0.125 (very bad: more than 0.12) before -0.070: worst first
    assert "PR" in done.stdout


def test_a_file_that_does_not_replay_is_refused_with_the_replay_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text("1 point match\n\n Game 1\n a : 0   b : 0\n 1) 31: 8/5 6/5\n 2) 66: 24/18\n")
    done = _cli(str(bad))
    assert done.returncode == 2
    assert done.stderr.strip() == f"{bad}: game 1 move 2: a rolls out of turn"
    assert done.stdout == ""


@needs_gnubg
def test_hint_ranks_moves_as_gnubg_analysis_does() -> None:
    from controller.analysis.hint import cube_hint, hint, move_loss
    from controller.bot.base import MatchContext

    # gnubg 1.07 on lasse__match1043097 game 1 move 2 (3-point match, 0-0), rolled 63:
    # 24/15 -0.295, 24/18 13/10 -0.341 (-0.046), 13/4 -0.421
    position = Position.from_id("mGfwATDgc/ABMA")
    context = MatchContext(length=3, bot_away=3, opponent_away=3)
    ranked = hint(position, (6, 3), context)
    assert [h.move.notation for h in ranked[:3]] == ["24/15", "24/18 13/10", "13/4"]
    assert ranked[0].equity == pytest.approx(-0.295, abs=0.0015)
    assert ranked[1].loss == pytest.approx(0.046, abs=0.0015)
    assert len(ranked) == len({h.move.result for h in ranked})
    assert move_loss(position, (6, 3), ranked[1].move, context) == ranked[1].loss
    assert cube_hint(position, context) == "No double"

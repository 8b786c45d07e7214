"""`bgboard replay FILE... [--json]`: output, exit codes, one line per problem, nothing written."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bgboard.cli import main

DATA = Path(__file__).parent / "data"
GOOD = DATA / "gnubg" / "selfplay_5pt_seed13.mat"
STUDIO = DATA / "mat" / "studio_style.mat"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_files_exit_0_with_one_json_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(GOOD), str(STUDIO), "--json")
    assert code == 0 and err == ""
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first == {
        "file": str(GOOD), "ok": True, "length": 5, "players": ["gnubg", "root"],
        "games": [{"winner": "gnubg", "points": 2, "end": "resign"},  # as the score lines say:
                  {"winner": "gnubg", "points": 2, "end": "resign"},  # 0-0, 2-0, 4-0, 4-1, 4-2, 4-4
                  {"winner": "root", "points": 1, "end": "resign"},
                  {"winner": "root", "points": 1, "end": "drop"},
                  {"winner": "root", "points": 2, "end": "resign"},
                  {"winner": "gnubg", "points": 1, "end": "bearoff"}],
        "final": {"gnubg": 5, "root": 4}, "problem": None, "in_progress": None,
    }
    assert second["players"] == ["carol", "dave"] and second["final"] == {"carol": 4, "dave": 0}


def test_text_output_is_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(GOOD))
    assert code == 0 and err == ""
    assert out == f"{GOOD}: ok, 6 games, gnubg 5 - root 4 (match to 5)\n"


def test_a_record_that_stops_in_its_last_game_is_a_match_in_progress(capsys: pytest.CaptureFixture[str]) -> None:
    """As GNU Backgammon imports it: the finished games, then the game as far as played."""
    path = DATA / "mat" / "truncated.mat"
    code, out, err = run(capsys, str(path))
    assert code == 0 and err == ""
    assert out == f"{path}: in progress at game 1 move 12, 0 games, gnubg 0 - root 0 (match to 3)\n"
    code, out, _ = run(capsys, str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["in_progress"] == {"game": 1, "move": 12}


@pytest.mark.parametrize("name, problem", [
    ("illegal.mat", "game 1 move 4: 13/7 13/7 is not legal for 6-1"),
    ("unknown_command.mat", "game 1 move 9: unknown command 'Beavers'"),
    ("garbled.mat", "game 1 move 27: unreadable entry '27) Losses 1 point Wins 1 point'"),
    ("not_a_match.txt", "not a .mat match record: no 'N point match' line"),
])
def test_bad_input_is_one_line_naming_file_game_and_move_exit_2(
        capsys: pytest.CaptureFixture[str], name: str, problem: str) -> None:
    path = DATA / "mat" / name
    code, out, err = run(capsys, str(path))
    assert code == 2
    assert out == ""
    assert err == f"{path}: {problem}\n"
    code, out, err = run(capsys, str(GOOD), str(path), "--json")
    assert code == 2 and err == f"{path}: {problem}\n"
    lines = [json.loads(line) for line in out.splitlines()]
    assert [x["ok"] for x in lines] == [True, False] and lines[1]["problem"] == problem


def test_json_keeps_the_games_before_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(DATA / "mat" / "illegal.mat"), "--json")
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and data["games"] == [] and data["length"] == 3


def test_unreadable_file_is_a_runtime_error_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.mat"
    code, out, err = run(capsys, str(GOOD), str(missing))
    assert code == 1
    assert err == f"{missing}: cannot read: No such file or directory\n"
    assert out.startswith(f"{GOOD}: ok")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["replay"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(GOOD), "--frobnicate"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 2


def test_replay_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    copy = tmp_path / "m.mat"
    copy.write_bytes((DATA / "mat" / "illegal.mat").read_bytes())
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        run(capsys, "m.mat", "--json")
        run(capsys, "m.mat")
    finally:
        os.chdir(cwd)
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()} == before


def test_damaged_bytes_are_reported_not_raised(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    text = GOOD.read_bytes()
    cut = text.index(b" 12)")
    bad.write_bytes(text[:cut] + b" 12) 6\xff: 13/7\x00 8/7\n")
    code, _, err = run(capsys, str(bad))
    assert code == 2 and err.startswith(f"{bad}: game 1 move 12:") and err.count("\n") == 1

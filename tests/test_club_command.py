"""`bgboard club` from the director's side: each action, and bad input as one line, exit 2,
the club's directory unchanged."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from bgboard.cli import main
from club.state import night, store
from club.state.model import MatchResult
from club_fake_board import decided_match
from controller.records.from_match import record_from_match
from controller.records.mat_writer import write_mat


def _club(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    assert main(["club", "init", str(club), "--name", "Thursday"]) == 0
    assert main(["club", "player", "add", "Anna", "Bjørn", "Carl", "Dora", "--dir", str(club)]) == 0
    return club


def test_a_swiss_is_started_and_its_round_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path)
    capsys.readouterr()
    assert main(["club", "swiss", "--rounds", "2", "--length", "1,3", "--clock", "10", "--dir", str(club),
                 "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "T1-R1-1: Anna (White) v Carl (Black)" in out and "T1-R1-2: Bjørn (White) v Dora (Black)" in out
    tournament = store.load(club).tournaments[0]
    assert [r.length for r in tournament.rules] == [1, 3]
    # the minutes chosen, the rule book's 12 s delay the boards run
    assert tournament.rules[0].clock is not None and (tournament.rules[0].clock.minutes, tournament.rules[0].clock.delay_s) == (10, 12)


@pytest.mark.parametrize("argv", [
    ["player", "add", "Eve", "Ann\x1b[2J"],  # one bad name: neither is entered
    ["player", "add", "anna"],
    ["swiss", "--length", "30"],
    ["swiss", "--length", "x"],
    ["swiss", "--clock", "ten"],
    ["swiss", "--clock", "10/8"],  # a delay the boards would not run
    ["result", "correct", "T1-R1-1", "--winner", "Anna", "--reason", "typo"],
    ["board", "pair", "not a link", "code"],
])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          argv: list[str]) -> None:
    club = _club(tmp_path)
    before = store.state_path(club).read_bytes()
    capsys.readouterr()
    assert main(["club", *argv, "--dir", str(club)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "\x1b" not in err
    assert store.state_path(club).read_bytes() == before


def test_a_damaged_club_file_is_one_line_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path)
    store.state_path(club).write_text("{\"format\": 1")
    assert main(["club", "standings", "--dir", str(club)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert store.state_path(club).read_text() == "{\"format\": 1"


def test_a_correction_and_the_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = _club(tmp_path)
    assert main(["club", "swiss", "--rounds", "1", "--dir", str(club), "--seed", "1"]) == 0
    state = store.load(club)
    for p in state.tournaments[0].rounds[0].pairings:
        m = decided_match(p.white, p.black, 1, "white")
        state = night.record(state, MatchResult(p.match_id, "b", p.white, p.black, 1, m.score, "white",
                                                write_mat(record_from_match(m)), "t"))
    store.save(club, state)
    assert main(["club", "result", "correct", "T1-R1-1", "--winner", "Carl", "--reason",
                 "Carl's checker was on the bar", "--dir", str(club)]) == 0
    capsys.readouterr()
    assert main(["club", "standings", "--dir", str(club)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["rank", "name", "score", "buchholz", "median_buchholz", "sonneborn_berger"]
    assert {line.split()[1] for line in lines[1:3]} == {"Carl", "Bjørn"}  # the winners, Carl by correction
    out = tmp_path / "night.zip"
    assert main(["club", "export", str(out), "--dir", str(club)]) == 0
    with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as archive:
        names = sorted(archive.namelist())
        assert names == ["T1-R1-1-Anna-vs-Carl.mat", "T1-R1-2-Bjørn-vs-Dora.mat", "standings.csv"]
        assert archive.read("standings.csv").decode().splitlines()[0].startswith("tournament,rank,name")
    assert main(["club", "results", "--dir", str(club)]) == 0
    assert "corrected: Carl's checker was on the bar" in capsys.readouterr().out

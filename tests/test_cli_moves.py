"""`bgboard moves`: the listing, JSON, and one-line usage errors with exit 2."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bgboard.cli import main
from controller.engine import Position, legal_moves


def test_start_three_one_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "4HPwATDgc/ABMA", "31", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["moves"]) == 16
    by_notation = {m["notation"]: m["position_id"] for m in data["moves"]}
    expected = {m.notation: m.result.id for m in legal_moves(Position.initial(), (3, 1))}
    assert by_notation == expected
    # 8/5 6/5 seen by the player who moved: their 5 point made, 6 and 8 down to 4 and 2
    after = Position.from_id(by_notation["8/5 6/5"])
    assert after.mine[4] == 2 and after.mine[5] == 4 and after.mine[7] == 2
    assert after.theirs == Position.initial().theirs


def test_text_listing_with_dash_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "4HPwATDgc/ABMA", "6-6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(legal_moves(Position.initial(), (6, 6)))
    assert any(line.split()[:2] == ["24/18(2)", "13/7(2)"] for line in lines)


def test_no_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    closed = [2, 2, 2, 2, 2, 2] + [0] * 19
    stuck = Position.checked([0] * 5 + [14] + [0] * 18 + [1], closed)
    assert main(["moves", stuck.id, "66", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"moves": []}
    assert main(["moves", stuck.id, "66"]) == 0
    assert "no legal move" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["moves", "4HPwATDgc/AB", "31"], "Position ID"),
        (["moves", "4H8AAAD//wAAAA", "31"], "more than 15"),
        (["moves", "4HPwATDgc/ABMA", "07"], "dice"),
        (["moves", "4HPwATDgc/ABMA", "3-x"], "dice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in captured.err


def test_both_colours_on_a_point_via_the_real_command() -> None:
    from controller.engine.ids import encode_position_id

    both = encode_position_id(tuple([0] * 5 + [1] + [0] * 19), tuple([0] * 18 + [1] + [0] * 6))
    out = subprocess.run([sys.executable, "-m", "bgboard.cli", "moves", both, "31"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "both colours" in out.stderr


def test_help_mentions_the_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["moves", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "POSITION_ID" in out and "DICE" in out and "--json" in out


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """`bgboard moves ... | head -c 20` on a roll with 2,209 moves (more than a pipe holds):
    the closed pipe ends the command quietly."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "moves", "ABEATEqqlJQEAA", "11"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(20)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=30)
    assert "Traceback" not in err

"""`bgboard replay` against hostile files on disk: a score line built to make a
backtracking pattern try every split, a file of 5 MB, a line of 1 MB, numbers of
thousands of digits. Each is one short line on stderr and exit 2, at once."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.records.mat_reader import MAX_LINE, check_mat
from controller.records.replay import MAX_BYTES, replay_file

REPO = Path(__file__).resolve().parent.parent
HEAD = " 5 point match\n\n Game 1\n"
GOOD = HEAD + " Alice : 0                          Bob : 0\n  1) 31: 8/5 6/5\n"

pytestmark = pytest.mark.timeout(30)


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=REPO, timeout=30)


def one_short_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr[:300]
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, proc.stderr[:300]
    return lines[0]


def test_a_score_line_of_spaces_and_one_colon_is_read_at_once(tmp_path: Path) -> None:
    """Under the line limit, the worst line for the old pattern (4 KB of spaces around one
    `: 1`: hours of backtracking) is refused in a single pass."""
    third = (MAX_LINE - 2) // 3
    bomb = tmp_path / "bomb.mat"
    bomb.write_text(HEAD + " " * third + ":" + " " * third + "1" + " " * third + "\n")
    assert "no score line after 'Game 1'" in one_short_line(replay(bomb))


def test_score_lines_read_as_before() -> None:
    record, _ = check_mat(GOOD)
    assert record.players == ("Alice", "Bob")
    record, _ = check_mat(HEAD + " a:b : 3   c : 1\n".replace("3", "0").replace("1", "0"))
    assert record.players == ("a:b", "c")


def test_a_file_past_the_size_limit_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "big.mat"
    line = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    big.write_text(GOOD + line * (MAX_BYTES // len(line) + 10))
    assert "larger than 4 MB: not a match record" in one_short_line(replay(big))
    assert not replay_file(big).ok


@pytest.mark.parametrize("where", ["entry", "tag", "before"])
def test_a_long_line_is_never_echoed(tmp_path: Path, where: str) -> None:
    long = "x" * 1_000_000
    text = {"entry": GOOD + f"  2) 31: {long}\n", "tag": f'; [Event "{long}"]\n' + GOOD,
            "before": " 5 point match\n" + long + "\n" + GOOD}[where]
    path = tmp_path / "long.mat"
    path.write_text(text)
    assert "characters long" in one_short_line(replay(path))


def test_an_unreadable_entry_under_the_limit_is_named_briefly(tmp_path: Path) -> None:
    path = tmp_path / "garbled.mat"
    path.write_text(HEAD + " Alice : 0                          Bob : 0\n  1) " + "q" * 3000 + "\n")
    line = one_short_line(replay(path))
    assert "qqqq" in line and "q" * 200 not in line


@pytest.mark.parametrize("text", [
    " " + "9" * 4000 + " point match\n",
    " 99999999999999999999 point match\n" + GOOD[len(" 5 point match\n"):],
    " 5 point match\n\n Game 99999999999999999999\n Alice : 0   Bob : 0\n",
    HEAD + " Alice : 99999999999999999999   Bob : 0\n",
    GOOD + "  2) Doubles => 99999999999999999999\n",
    GOOD + "  2)                                 Wins 99999999999999999999 points\n",
    GOOD + "  99999999999999999999) 31: 8/5 6/5\n",
])
def test_huge_numbers_are_one_clear_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "numbers.mat"
    path.write_text(text)
    one_short_line(replay(path))


def _command(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bgboard.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=60)


@pytest.mark.parametrize("command", ["replay", "analyze", "verify-dice"])
@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "5 MB"])
def test_every_command_reads_a_bounded_regular_file(tmp_path: Path, command: str, kind: str) -> None:
    """Issue 23 item 5: analyze and verify-dice read any file whole (/dev/zero: a
    MemoryError traceback; a FIFO: a hang). One bound and one line for all three."""
    path = tmp_path / "hostile.mat"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "/dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_text(GOOD + " " * (5 * 1024 * 1024))
    proc = _command([command, str(path)])
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and str(path) in lines[0], proc.stderr[:300]
    assert ("larger than 4 MB" if kind == "5 MB" else "not a regular file") in lines[0]


@pytest.mark.parametrize("command", ["replay", "analyze", "verify-dice"])
def test_a_file_name_with_a_newline_and_escapes_is_shown_escaped(tmp_path: Path, command: str) -> None:
    """Issue 23 item 8: a file name is outside text; a newline in it made two lines and
    an ESC acted on the terminal."""
    path = tmp_path / "a\nbgboard: forged\x1b]0;owned\x07.mat"
    path.write_text(HEAD + " Alice : 0                          Bob : 0\n  1) 31: 8/1\n")
    proc = _command([command, str(path)])
    assert proc.returncode in (1, 2), proc.stderr
    assert "\x1b" not in proc.stderr + proc.stdout and "\x07" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "a\\nbgboard: forged\\x1b]0;owned\\x07.mat" in lines[0], proc.stderr


def test_bare_bgboard_is_one_line_on_stderr() -> None:
    """Issue 23 item 10: bare `bgboard` printed the help on stdout and exited 2."""
    proc = _command([])
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "name a command" in proc.stderr


def test_run_on_dev_null_is_one_line(tmp_path: Path) -> None:
    """Issue 23 item 10: `run --port /dev/null` printed five log lines, then the error."""
    proc = _command(["run", "--port", "/dev/null", "--seconds", "2", "--leds", "sim", "--display", "dummy",
                     "--buttons", "rpigpio", "--state-dir", str(tmp_path)])
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == ["bgboard run: /dev/null: not a serial port; pass the board's device, "
                                        "e.g. /dev/ttyACM0"]


def test_verify_dice_refuses_a_record_with_no_rolls_and_two_commitments() -> None:
    """Issue 23 item 9: a commitment and a seed with no game said "all 0 rolls verified"
    (exit 0); with two different commitment tags the first one won."""
    from controller.records.dice_check import verify_dice
    from controller.dice.verifiable import commitment
    from controller.records.mat_reader import parse_mat

    seed = bytes(range(32))
    tags = f'; [Dice commitment "{commitment(seed)}"]\n; [Dice seed "{seed.hex()}"]\n'
    empty = verify_dice(parse_mat(tags + " 5 point match\n"))
    assert not empty.ok and "no rolls" in empty.line
    second = f'; [Dice commitment "{commitment(bytes(32))}"]\n'
    two = verify_dice(parse_mat(tags + second + GOOD))
    assert not two.ok and "two different Dice commitment tags" in two.line


@pytest.mark.parametrize("command", ["replay", "analyze", "verify-dice"])
@pytest.mark.parametrize("kind", ["binary", "5 MB"])
def test_a_file_that_is_not_a_record_is_bad_input_for_every_command(tmp_path: Path, command: str, kind: str) -> None:
    """Issue 35.19: verify-dice exited 1 on a binary file and on a file past the bound
    (analyze too on the latter) where replay exits 2, and only verify-dice put
    "bgboard verify-dice: error:" before its line. A file that is not a record is bad
    input for all three (README: exit 2), one line `FILE: problem`."""
    path = tmp_path / "not-a-record.mat"
    if kind == "binary":
        path.write_bytes(bytes(range(256)) * 64)
    else:
        path.write_text(GOOD + " " * (5 * 1024 * 1024))
    proc = _command([command, str(path)])
    line = one_short_line(proc)
    assert line.startswith(f"{path}: ") and "error:" not in line, line

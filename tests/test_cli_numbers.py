"""Number arguments of every command: NaN, infinities, negatives and values out of range
are one line and exit 2, before anything starts (never a traceback, never a run for ever)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.cli import main

REPO = Path(__file__).resolve().parent.parent

BAD = [
    ["run", "--length", "40000"], ["run", "--length", "0"], ["run", "--length", "1e3"],
    ["run", "--seconds", "nan"], ["run", "--seconds", "inf"], ["run", "--seconds", "-1"],
    ["run", "--seconds", "0"], ["run", "--seconds", "1e400"],
    ["calibrate", "--sim", "--idle-seconds", "nan"], ["calibrate", "--sim", "--idle-seconds", "-inf"],
    ["calibrate", "--sim", "--placements", "0"], ["calibrate", "--sim", "--placements", "9" * 5000],
    ["selftest", "--sim", "--link-seconds", "nan"], ["selftest", "--sim", "--link-seconds", "1e9"],
    ["monitor", "--sim", "--seconds", "nan"], ["monitor", "--sim", "--seconds", "-0.5"],
    ["sim", "--port", "70000"], ["sim", "--port", "-1"], ["sim", "--seed", "-3"],
    ["online", "--points", "500"], ["online", "--seconds", "inf"], ["online", "--port", "1e5"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a)[:40] for a in BAD])
def test_a_bad_number_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < 200 and "Traceback" not in err, err[:300]
    assert argv[-2] in err  # names the option


@pytest.mark.parametrize("argv", [["run", "--length", "40000"], ["run", "--seconds", "nan"],
                                  ["calibrate", "--sim", "--idle-seconds", "nan"]])
def test_the_reported_cases_from_the_shell(argv: list[str], tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "bgboard.cli", *argv, "--port", "/dev/null"]
                          if argv[0] == "run" else [sys.executable, "-m", "bgboard.cli", *argv],
                          capture_output=True, text=True, cwd=REPO, timeout=30)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr

"""`bgboard monitor`: live frames as text or JSON lines, a stats line at exit."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.board.profile import load_profile
from bgboard.cli import main
from bgboard.commands.monitor import OPENING, _Session, format_message
from controller.link.codec import BoardError, Hello, Pong, Scan, pack_sensors

ROOT = Path(__file__).resolve().parents[1]
PROFILE = load_profile()


def test_raw_json_lines_follow_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["monitor", "--sim", "--raw", "--json", "--seconds", "0.7"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"type": "hello", "seq": lines[0]["seq"], "version": 2, "rows": 14,
                        "cols": 13, "firmware": "bgboard-fw 2.0 (virtual)"}
    scans = [x for x in lines if x["type"] == "scan"]
    assert scans and all(len(s["sensors"]) == 182 and set(s["sensors"]) <= {0, 1, 2, 3}
                         for s in scans)
    # the opening position, row-major: point 1 holds two black checkers in slots 0 and 1
    assert scans[-1]["sensors"][0:3] == [2, 2, 0]
    assert lines[-1] == {"type": "stats", "frames": len(lines) - 1, "crc_errors": 0,
                         "framing_errors": 0, "lost": 0, "bad_scans": 0, "dropped": 0}


def test_readings_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["monitor", "--sim", "--json", "--seconds", "0.3"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    readings = [x for x in lines if x["type"] == "reading"]
    assert readings
    cells = readings[-1]["cells"]
    assert {c: (v["white"], v["black"]) for c, v in cells.items()} == OPENING
    assert cells["6"]["saturated"] is False and readings[-1]["faults"] == []
    assert lines[-1]["type"] == "stats"


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["monitor", "--sim", "--seconds", "0.3"]) == 0
    out = capsys.readouterr()
    assert "hello seq=" in out.out and "reading seq=" in out.out and "13:5w" in out.out
    assert out.out.splitlines()[-1].startswith('{"type": "stats"')
    assert "link online" in out.err


def test_format_of_each_message_type() -> None:
    s = _Session(rows_cols=(14, 13))
    assert json.loads(format_message(Pong(4, b"\x01\x02"), PROFILE, s, raw=True, as_json=True)) == \
        {"type": "pong", "seq": 4, "payload": "0102"}
    assert json.loads(format_message(BoardError(5, 2, "CONFIG out of range"), PROFILE, s,
                                     raw=True, as_json=True)) == \
        {"type": "error", "seq": 5, "code": 2, "text": "CONFIG out of range"}
    hello = format_message(Hello(0, 1, 2, 3, "fw"), PROFILE, s, raw=True, as_json=True)
    assert json.loads(hello)["rows"] == 2 and s.rows_cols == (2, 3)
    scan = format_message(Scan(1, pack_sensors([1, 2, 3, 0, 0, 1])), PROFILE, s, raw=True, as_json=False)
    assert scan == "scan seq=1 wbX..w"


@pytest.mark.parametrize("argv,needle", [
    (["--port", "/dev/ttyBGBOARD-none"], "no such device"),
    (["--sim", "--port", "/dev/x"], "exclude each other"),
    (["--sim", "--profile", "/nonexistent.toml"], "no such profile"),
])
def test_bad_input_is_one_line(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["monitor", *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code in (1, 2) and len(err) == 1 and needle in err[0] and "Traceback" not in err[0]


def test_ctrl_c_prints_the_stats_line() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "monitor", "--sim", "--raw",
                             "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first = proc.stdout.readline()  # type: ignore[union-attr]
        assert json.loads(first)["type"] == "hello"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    last = json.loads(out.splitlines()[-1])
    assert last["type"] == "stats" and last["frames"] >= 1
    assert "Traceback" not in err


def test_a_reader_that_stops_early_ends_the_monitor_quietly() -> None:
    """`bgboard monitor --sim --raw --json | head -1`: no traceback, and it ends by itself
    long before --seconds."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.cli", "monitor", "--sim", "--raw", "--json",
                             "--seconds", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[1])
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b'{"type": "hello"')
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=20)
    assert "Traceback" not in err
    assert time.monotonic() - started < 20

"""The table's review judged in a process of its own (issue 34.4: `bgboard run` must not
keep the judgement's memory): the review's content arrives in the table's process, which
never imports numpy for it; a review process that is killed (as the kernel kills one out
of memory) is one log line, the table plays on and the next review judges the game again;
one that hangs is stopped after its allowance and said so.
That the review's figures are still `bgboard analyze`'s is tests/test_review.py's.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.analysis.review import ReviewCache
from controller.analysis.review_process import ProcessJudge, ReviewProcessEnded
from controller.records.mat_reader import read_mat
from controller.records.from_match import record_from_match
from network_backends import BACKENDS
from test_review import _game_won_by_a_drop, _second_opening, _table

REPO = Path(__file__).resolve().parents[1]
MATCH = REPO / "../shared/matches/bglab/lasse__match3264187.txt"

needs_network = pytest.mark.skipif(not BACKENDS, reason="needs the gnubg program's weights (sudo apt install gnubg)")

_REVIEW_IN_A_FRESH_PROCESS = """
import json, sys
from controller.records.mat_reader import read_mat
from controller.table.review import ReviewRunner
record = read_mat(open(sys.argv[1], encoding="utf-8", errors="replace").read().lstrip("\\ufeff"))
got = []
runner = ReviewRunner(got.append)
runner.review(record)
review = got[0]
print(json.dumps({"numpy": "numpy" in sys.modules, "games": review.games, "marked": len(review.marked),
                  "decisions": [p.decisions for p in review.players]}))
"""


@needs_network
def test_the_tables_process_gets_the_review_without_importing_numpy() -> None:
    done = subprocess.run([sys.executable, "-c", _REVIEW_IN_A_FRESH_PROCESS, str(MATCH)], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=True)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["numpy"] is False
    assert got["games"] == 3 and got["marked"] > 0 and all(n > 0 for n in got["decisions"])


def _kill_when_running(judge: ProcessJudge, killed: list[int]) -> None:
    """Kill the judge's review process as soon as there is one (SIGKILL, as the kernel's
    out-of-memory killer does)."""
    end = time.monotonic() + 60.0
    while time.monotonic() < end:
        process = judge.running
        if process is not None:
            os.kill(process.pid, signal.SIGKILL)
            killed.append(process.pid)
            return
        time.sleep(0.005)


@needs_network
def test_a_killed_review_process_is_one_line_and_the_table_plays_on_and_reviews_again(
        caplog: pytest.LogCaptureFixture) -> None:
    table = _table()
    runner = table.review
    assert runner is not None
    judge = ProcessJudge()
    runner._make_cache = lambda: ReviewCache(judge)
    killed: list[int] = []
    killer = threading.Thread(target=_kill_when_running, args=(judge, killed))
    killer.start()
    with caplog.at_level(logging.WARNING, logger="bgboard"):
        _game_won_by_a_drop(table)
    killer.join()
    said = [r.getMessage() for r in caplog.records if "review" in r.getMessage()]
    assert killed and said == ["review of the match unavailable this time: the review's process was killed (SIGKILL)"]
    assert table.controller.status().review is None and not runner.disabled
    _second_opening(table)
    assert table.controller.status().match.phase == "move"  # the second game is under way
    # the next review judges the game the killed one could not
    runner.review(record_from_match(table.controller.status().match))
    review = table.controller.status().review
    assert review is not None and review.games == 1


@needs_network
def test_a_review_process_that_hangs_is_stopped_and_told_in_one_line() -> None:
    # a process still judging after its allowance has hung: stopped, said how, and the next
    # review is not held behind it (the allowance here is far below one game's judgement)
    judge = ProcessJudge(seconds_per_game=0.05)
    record = read_mat(MATCH.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff"))
    with pytest.raises(ReviewProcessEnded, match=r"^the review's process was stopped after 0\.15 s \(3 game\(s\)\): it had hung$"):
        judge.judge(record.length, record.games)
    assert judge.running is None

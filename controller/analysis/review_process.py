"""The table's review judged in a short-lived process of its own, so that `bgboard run`
keeps none of the judgement's memory.

A review loads gnubg's network (numpy, OpenBLAS and the weights: about 32 MB) and fills
the analysis's memos (bounded, up to about 50 MB more over a match): kept in the table's
process, a Pi Zero 2 W's `bgboard run` went from 30 to 80 MB and stayed there (issue
34.4). `ProcessJudge` judges each review's new games in a fresh interpreter
(`python -m controller.analysis.review_process`: nothing of the table's threads, loop or
sockets is copied, as a fork of a threaded process would copy them, and nothing of the
parent's main module is run again, as multiprocessing's "spawn" would), which imports
the analysis, judges the games with the very code `bgboard analyze` runs
(`AnalyserJudge`), writes them back as plain data (pickled frozen dataclasses of str,
int and float: the table's process never imports numpy) and exits, giving all of it
back. It runs at a lower priority (nice +5) so the board's readings and the computer's
play in the table's process come first on a Pi's four cores.

Loading the network again for each review costs about 0.5 s here (a few seconds on a
Zero 2 W) after a game that took minutes. A judgement that fails in the child is raised
here as `ReviewFailed` with the child's one-line reason; a child that ends without an
answer (killed, out of memory), or one still judging after `SECONDS_PER_GAME` a game
(stopped: hung), as `ReviewProcessEnded`, which says how it ended.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from threading import Lock
from typing import BinaryIO

from controller.analysis.review import JudgedGames
from controller.records.model import Game

NICE = 5
"""How much lower than the table's the review's process runs."""
SECONDS_PER_GAME = 300.0
"""The longest a review's process may take per game it judges before it is stopped: a long
game at 0 ply takes seconds on a Pi 4 and under a minute on a Zero 2 W; a process still
judging after this has hung, and a hung one would hold every later review behind it."""


class ReviewFailed(Exception):
    """The judgement failed in the review's process (its reason, one line)."""


class ReviewProcessEnded(Exception):
    """The review's process ended without an answer: killed, or out of memory."""


def peak_rss_mb() -> float | None:
    """This process's peak resident memory so far (VmHWM), in MB; None where /proc lacks it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


def _judge_here(length: int, games: tuple[Game, ...], plies: int) -> JudgedGames | str:
    """The review process's work: `games` judged, or the failure's one line."""
    try:
        os.nice(NICE)
    except OSError:
        pass  # a priority it may not lower is no reason to give up the review
    try:
        from controller.analysis.evaluator import Evaluator
        from controller.analysis.match import MatchAnalyser
        from controller.analysis.review import AnalyserJudge

        judged = AnalyserJudge(MatchAnalyser(Evaluator(plies=plies))).judge(length, games)
        return JudgedGames(judged.decisions, judged.plies, judged.judged_as, peak_rss_mb())
    except Exception as exc:  # noqa: BLE001 - any failure goes back as its one line
        return str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__


def _main(asked: BinaryIO) -> None:
    """Read (length, games, plies) pickled from `asked`, write the judgement pickled to
    standard output; anything else written there meanwhile (by Python or a library's C
    code) goes to standard error instead, so the answer stays whole."""
    length, games, plies = pickle.load(asked)
    with os.fdopen(os.dup(1), "wb") as answer:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        pickle.dump(_judge_here(length, games, plies), answer)


def ended(exitcode: int | None) -> str:
    """How a process that gave no answer ended, in words."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the review's process was killed ({name})"
    return f"the review's process ended without an answer (exit status {exitcode})"


SOURCE = str(Path(__file__).resolve().parents[2])
"""The directory that holds the `controller` package (put first on the child's path, so
that it runs this checkout's code whether or not it is installed)."""


class ProcessJudge:
    """Judges each call's games in a fresh process (see the module docstring); one call
    at a time. `running` is the process judging now, if any."""

    def __init__(self, plies: int = 0, seconds_per_game: float = SECONDS_PER_GAME) -> None:
        self.plies = plies
        self.seconds_per_game = seconds_per_game
        self.running: subprocess.Popen[bytes] | None = None
        self._lock = Lock()

    def judge(self, length: int, games: Sequence[Game]) -> JudgedGames:
        path = os.pathsep.join(p for p in (SOURCE, os.environ.get("PYTHONPATH", "")) if p)
        with self._lock:
            process = subprocess.Popen([sys.executable, "-m", "controller.analysis.review_process"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       env=dict(os.environ, PYTHONPATH=path))
            self.running = process
        limit_s = self.seconds_per_game * max(1, len(games))
        try:
            asked = pickle.dumps((length, tuple(games), self.plies))
            out, _ = process.communicate(asked, timeout=limit_s)
        except BrokenPipeError:
            out = b""
            process.wait()
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise ReviewProcessEnded(f"the review's process was stopped after {limit_s:g} s "
                                     f"({len(games)} game(s)): it had hung") from None
        finally:
            with self._lock:
                self.running = None
        try:
            answer = pickle.loads(out) if out else None
        except (pickle.UnpicklingError, EOFError, ValueError):
            answer = None
        if isinstance(answer, str):
            raise ReviewFailed(answer)
        if not isinstance(answer, JudgedGames):
            raise ReviewProcessEnded(ended(process.returncode))
        return answer

    def stop(self) -> None:
        """End the process judging now, if any (its table is closing; the judge may serve
        another table's reviews later, as the simulator's page keeps its cache)."""
        with self._lock:
            if self.running is not None and self.running.poll() is None:
                self.running.terminate()


if __name__ == "__main__":
    _main(sys.stdin.buffer)

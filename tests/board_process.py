"""The virtual board as a process of its own, as `bgboard run` meets a real board: a
pseudo-terminal to open, a board that stops when its standard input closes."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def board_port() -> Iterator[str]:
    """Start `python -m sim.virtual_board`; yield its port; stop it."""
    board = subprocess.Popen([sys.executable, "-m", "sim.virtual_board"], cwd=REPO,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert board.stdout is not None
        yield board.stdout.readline().strip()
    finally:
        assert board.stdin is not None
        board.stdin.close()
        board.wait(timeout=10)


def run_on_board(port: str, state_dir: Path, seconds: str = "1.5") -> subprocess.CompletedProcess[str]:
    """`bgboard run` on `port` for `seconds` with the simulated LEDs, display and no buttons."""
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--port", port,
                           "--seconds", seconds, "--leds", "sim", "--display", "dummy",
                           "--buttons", "none", "--state-dir", str(state_dir)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)

"""The virtual board as a process of its own, as `bgboard run` meets a real board: a
pseudo-terminal to open, a board that stops when its standard input closes, and that
standard input as the person's hands (`place`, `lift`, `set` lines, one reply each)."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


class BoardProcess:
    """`python -m sim.virtual_board` running: its `port`, and `do(line)` for its commands."""

    def __init__(self, profile: Path | None = None) -> None:
        args = [sys.executable, "-m", "sim.virtual_board"]
        if profile is not None:
            args += ["--profile", str(profile)]
        self._process = subprocess.Popen(args, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None and self._process.stdin is not None
        self._in, self._out = self._process.stdin, self._process.stdout
        self.port = self._out.readline().strip()
        self.done: list[str] = []  # every command line sent

    def do(self, line: str) -> str:
        """One command; its one-line reply (an `error: ...` reply fails the test)."""
        self._in.write(line + "\n")
        self._in.flush()
        self.done.append(line)
        reply = self._out.readline().strip()
        assert reply and not reply.startswith("error"), f"{line!r}: {reply!r}"
        return reply

    def close(self) -> None:
        self._in.close()
        self._process.wait(timeout=10)


@contextmanager
def board_process(profile: Path | None = None) -> Iterator[BoardProcess]:
    board = BoardProcess(profile)
    try:
        yield board
    finally:
        board.close()


@contextmanager
def board_port() -> Iterator[str]:
    """Start `python -m sim.virtual_board`; yield its port; stop it."""
    with board_process() as board:
        yield board.port


def run_on_board(port: str, state_dir: Path, seconds: str = "1.5") -> subprocess.CompletedProcess[str]:
    """`bgboard run` on `port` for `seconds` with the simulated LEDs, display and no buttons."""
    return subprocess.run([sys.executable, "-m", "bgboard.cli", "run", "--port", port,
                           "--seconds", seconds, "--leds", "sim", "--display", "dummy",
                           "--buttons", "none", "--state-dir", str(state_dir)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)

"""`python -m sim.club_boards` as a process of its own, for the club night's test and the
club bench: started on this checkout, its boards' address lines read, stopped with SIGTERM
(each board closes its table and keeps its saved match), killed if it does not stop."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STOP_WITHIN_S = 30.0


def _path() -> str:
    """This checkout first, after any PYTHONPATH given (the launcher is imported from it)."""
    return os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(ROOT)]))


@contextmanager
def club_room(root: Path, count: int, *, seed: int = 36) -> Iterator[list[dict[str, str]]]:
    """`count` virtual boards with their state under `root`/boards; each board's line (its
    name, address, page, club door and pairing code). RuntimeError, one line, if they do
    not start."""
    log = root / "boards.log"  # a file, not a pipe: nobody reads a pipe while they play
    with log.open("w") as errors:
        boards = subprocess.Popen([sys.executable, "-m", "sim.club_boards", "--count", str(count), "--state-dir",
                                   str(root / "boards"), "--seed", str(seed)], cwd=root, stdout=subprocess.PIPE,
                                  stderr=errors, text=True, env={**os.environ, "PYTHONPATH": _path()})
    try:
        assert boards.stdout is not None
        lines = [boards.stdout.readline() for _ in range(count)]
        if not all(lines):
            boards.kill()
            boards.wait()
            raise RuntimeError(f"the virtual boards did not start: {log.read_text()[-500:]}")
        yield [json.loads(line) for line in lines]
    finally:
        boards.send_signal(signal.SIGTERM)
        try:
            boards.communicate(timeout=STOP_WITHIN_S)
        except subprocess.TimeoutExpired:
            boards.kill()
            boards.communicate()

"""Where a simulated table keeps its saved match: the directory given, or a temporary one
removed when the simulator closes.

The browser simulator and the headless script runner each made and removed their own
temporary directory the same way; this is that one piece for both.
"""
from __future__ import annotations

import tempfile
from pathlib import Path


class StateDir:
    """`path` is `given`, or a fresh temporary directory named with `prefix`."""

    def __init__(self, given: Path | None, prefix: str) -> None:
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if given is None:
            self._tmp = tempfile.TemporaryDirectory(prefix=prefix)
            given = Path(self._tmp.name)
        self.path = given

    def cleanup(self) -> None:
        """Remove the temporary directory (a given one is kept)."""
        if self._tmp is not None:
            self._tmp.cleanup()

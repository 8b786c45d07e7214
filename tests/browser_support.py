"""What the simulator tests share: where Debian's Chromium is and how it is started, and
waiting on the controller behind the simulator (the fixtures are in conftest.py)."""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sim.web.harness import ServerThread

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parent / "output"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not shutil.which("chromium"),
                                    reason="Debian's chromium is not installed (apt-get install chromium)")


def ctl(sim: ServerThread, fn: Callable[[Any], Any]) -> Any:
    """`fn(controller)` on the simulator's loop."""
    return sim.inspect(lambda live: fn(live.table.controller))  # type: ignore[union-attr]


def wait_until(cond: Callable[[], Any], timeout: float = 8.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.015)
    raise AssertionError(f"{what} not reached within {timeout} s")

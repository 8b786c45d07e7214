"""A hostile board on a real pseudo-terminal, for the tests of `bgboard run` and `bgboard
monitor` as processes: the port, the program started on it, a flood on a thread of its own,
a reader that stops, and one Ctrl-C timed. Each test says what the board sends; this module
holds the plumbing every such test needs, and cleans it up in the right order (the flood
stopped, the process killed if it still runs, the pty closed last)."""
from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
#: the simulated LEDs and display, no buttons: `bgboard run` with nothing but the port real
RUN_BACKENDS = ("--leds", "sim", "--display", "dummy", "--buttons", "none")


@contextmanager
def pty_port() -> Iterator[tuple[int, str]]:
    """A pseudo-terminal as the board's serial port: (the board's end, the port's name)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def bgboard(*args: str, stdout: int | IO[Any] | None = subprocess.PIPE, text: bool = False) -> subprocess.Popen[Any]:
    """`bgboard ARGS` as a process of its own (stderr piped: the tests read its lines)."""
    return subprocess.Popen([sys.executable, "-m", "bgboard.cli", *args], cwd=ROOT,
                            stdout=stdout, stderr=subprocess.PIPE, text=text)


def run_args(port: str, state_dir: Path, *more: str) -> tuple[str, ...]:
    """`bgboard run`'s arguments on `port` with the simulated backends."""
    return ("run", "--port", port, *more, *RUN_BACKENDS, "--state-dir", str(state_dir))


@contextmanager
def running(proc: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """`proc`, killed at the end of the block if it still runs (a failed test leaves none)."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


@contextmanager
def on_a_thread(target: Callable[[threading.Event], None]) -> Iterator[None]:
    """`target(stop)` on a thread of its own for the block: stopped and joined at its end."""
    stop = threading.Event()
    thread = threading.Thread(target=target, args=(stop,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)


@contextmanager
def stopped_reader(size: int = 4096) -> Iterator[int]:
    """A pipe's writing end whose reader never reads: full after `size` bytes."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, size)
    try:
        yield write_end
    finally:
        os.close(read_end)
        os.close(write_end)


def interrupt(proc: subprocess.Popen[Any], timeout: float) -> tuple[float, Any]:
    """One SIGINT, as Ctrl-C sends it: how long the process took to end, and its stderr."""
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=timeout)
    return time.monotonic() - t0, err

"""The project's exceptions, in one module.

Each error also subclasses the built-in it resembles, so callers can catch either.
The engine has its own (`controller.engine.errors`) because it imports nothing of the
rest of the project; those subclass `ValueError` and are re-exported here.
"""
from __future__ import annotations

import argparse
import sys

from controller.engine.errors import (  # noqa: F401  (re-exported)
    EngineError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidPositionError,
    InvalidMatchIdError,
    MatchStateError,
)


class BgboardError(Exception):
    """Base of every error that the command line reports in one line (exit 1)."""


class UsageError(BgboardError, ValueError):
    """A wrong argument or input from the user (exit 2)."""


class LinkError(BgboardError, ConnectionError):
    """The serial link to the sensor board failed; the message names the device and a hint."""


class ProfileError(BgboardError, ValueError):
    """A hardware profile or settings file that cannot be used."""


class RecordError(BgboardError, ValueError):
    """A match record (.mat) or saved match that cannot be read."""


class BackendUnavailableError(BgboardError, RuntimeError):
    """A hardware backend or computer level that is not installed on this machine."""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line with exit code 2 (`bgboard`, and the
    virtual board's own command line): bad input gets one line, never a usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)

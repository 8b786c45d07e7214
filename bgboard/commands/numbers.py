"""Number arguments of the command line, checked where argparse reads them.

`--seconds nan` ran for ever, `--length 40000` raised deep inside the engine, `inf` and
negative values slipped through. Each number option names its type and range here, so a
bad value is argparse's one line (`bgboard run: error: argument --seconds: ...`) and
exit 2 before anything starts.
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: the longest time any command is asked to run for (about 115 days)
MAX_SECONDS = 10_000_000.0


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""
    def convert(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 20 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number from {low} to {high}")
        return value
    convert.__name__ = "whole number"
    return convert


def seconds(*, zero: bool = False, high: float = MAX_SECONDS) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds, more than 0 (or 0 too, with `zero`),
    up to `high`."""
    def convert(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        above = value >= 0 if zero else value > 0
        if not (math.isfinite(value) and above and value <= high):
            low = "0 or more" if zero else "more than 0"
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds ({low}, up to {high:,.0f})")
        return value
    convert.__name__ = "seconds"
    return convert


PORT = whole(0, 65535)

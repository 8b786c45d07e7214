"""GNU Backgammon's `show statistics match`, read: what its `analyse match` says of each
player, in the same figures as `controller.analysis.stats.PlayerStats` (sign-free totals,
mEMG rates), as it printed them (3 decimals, rates 1)."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GnubgStats:
    """One player's figures as gnubg printed them (its rounding: 3 decimals, rates 1)."""

    unforced: int
    doubtful: int
    bad: int
    very_bad: int
    checker_error: float
    checker_rate: float
    close_cube: int
    cube_error: float
    cube_rate: float
    overall_rate: float
    luck: float
    rating: str


def _pair(text: str, label: str) -> tuple[str, str]:
    for line in text.splitlines():
        if line.startswith(label):
            rest = line[len(label):]
            values = re.findall(r"[-+]?\d+\.?\d*|n/a", rest)
            return values[0], values[2] if label.startswith(("Error", "Luck total", "Luck rate")) else values[1]
    raise ValueError(f"gnubg printed no line {label!r}")


def _ratings(text: str, label: str) -> tuple[str, str]:
    for line in text.splitlines():
        if line.startswith(label):
            return line[41:64].strip(), line[65:].strip()
    raise ValueError(f"gnubg printed no line {label!r}")


def parse_statistics(text: str) -> tuple[GnubgStats, GnubgStats]:
    """Both players' figures from `show statistics match` output."""
    if "Chequerplay statistics" not in text:
        raise ValueError("gnubg printed no statistics")
    checker = text[text.index("Chequerplay statistics"):text.index("Luck statistics")]
    luck = text[text.index("Luck statistics"):text.index("Cube statistics")]
    cube = text[text.index("Cube statistics"):text.index("Overall statistics")]
    overall = text[text.index("Overall statistics"):]
    ints = {k: _pair(checker, k) for k in ("Unforced moves", "Moves marked doubtful", "Moves marked bad",
                                           "Moves marked very bad")}
    err = _pair(checker, "Error total EMG")
    rate = _pair(checker, "Error rate mEMG")
    close = _pair(cube, "Close or actual cube decisions")
    cerr = _pair(cube, "Error total EMG")
    crate = _pair(cube, "Error rate mEMG")
    orate = _pair(overall, "Error rate mEMG")
    lk = _pair(luck, "Luck total EMG")
    rating = _ratings(overall, "Overall rating")
    out = []
    for i in (0, 1):
        out.append(GnubgStats(
            int(ints["Unforced moves"][i]), int(ints["Moves marked doubtful"][i]),
            int(ints["Moves marked bad"][i]), int(ints["Moves marked very bad"][i]),
            abs(float(err[i])), abs(float(rate[i])), int(close[i]), abs(float(cerr[i])),
            abs(float(crate[i])), abs(float(orate[i])), float(lk[i]), rating[i]))
    return out[0], out[1]

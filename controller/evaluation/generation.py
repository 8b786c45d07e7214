"""Which GNU Backgammon a weight file belongs to, and what that changes in its evaluation.

gnubg writes its weights' version into the file (`WEIGHTS_VERSION`, eval.h): "1.00" up
to release 1.07 (Debian bookworm's gnubg 1.07.001), "1.01" from 1.08 (trixie's 1.08.003).
Between the two, read in eval.c of both releases:

- `CalculateHalfInputs` counts a side's home points before it looks for shots (the
  PIPLOSS, P1 and P2 inputs). From three such points a blot on the hitter's ace or deuce
  point counts as a shot; with fewer it does not. 1.07 counts every home point that holds
  a checker (`if (anBoard[i])`); 1.08 (commit 77b524de, bug #65035) counts made points
  only (`>= 2`) and ships contact and crashed networks retrained on that rule. Each set of
  weights must be fed the inputs it was trained on.
- the cube efficiencies of 0- and 1-ply evaluations (`EvalEfficiency`): `analysis.cubeful`.
- a cube decision whose doubler cannot win is no double (`FindBestCubeDecision`'s
  `winAny`): `analysis.evaluator`.

gnubg-nn (the wheel) computes 1.08's inputs whatever weights it is given.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Generation:
    """One gnubg release's evaluation: its name, its weight files' version, and whether
    the shot inputs count made home points (1.08) or home points holding any checker."""

    release: str
    weights_version: str
    counts_made_home_points: bool


GNUBG_107 = Generation("1.07", "1.00", counts_made_home_points=False)
GNUBG_108 = Generation("1.08", "1.01", counts_made_home_points=True)
GENERATIONS = (GNUBG_107, GNUBG_108)


def generation_of(weights_version: str) -> Generation:
    """The gnubg release whose weights carry `weights_version` ("1.00", "1.01"); a
    ValueError (one line) for a version no release known here writes."""
    for generation in GENERATIONS:
        if generation.weights_version == weights_version:
            return generation
    known = ", ".join(f"{g.weights_version} (gnubg {g.release})" for g in GENERATIONS)
    raise ValueError(f"weights of version {weights_version}, not one of {known}")

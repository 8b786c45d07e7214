"""`bgboard bench` section `dice`: how fast verifiable rolls are derived, and how fair.

Figures:
- `derive_rolls_per_s`: `derive_roll` (HMAC-SHA256 and rejection) on one core.
- `rolls`: how many rolls were derived (1,000,000; 100,000 with `--quick`).
- `p_outcomes`, `p_faces`, `p_doubles`: chi-square p-values of those rolls against fair
  dice (36 ordered outcomes, 6 faces, doubles against the rest), with one fixed key, so
  the figures are the same on every machine (the speed is not).
"""
from __future__ import annotations

import time

from controller.dice.fairness import roll_fairness
from controller.dice.verifiable import derive_roll, match_key

NAME = "dice"


def run(quick: bool) -> dict[str, object]:
    n = 100_000 if quick else 1_000_000
    key = match_key(bytes(32), "fairness", "test")
    t0 = time.perf_counter()
    rolls = [derive_roll(key, 1, r) for r in range(n)]
    elapsed = time.perf_counter() - t0
    report = roll_fairness(rolls)
    return {"derive_rolls_per_s": round(n / elapsed), "rolls": n,
            "p_outcomes": round(report.p_outcomes or 0.0, 4), "p_faces": round(report.p_faces or 0.0, 4),
            "p_doubles": round(report.p_doubles or 0.0, 4)}

"""How fair dice look: chi-square statistics and p-values, with no third-party library.

Used by the page's dice statistics (a suspicious player can look rather than argue) and by
the tests and the bench of the verifiable dice. The p-value is the chance that fair dice
give a chi-square at least this large: `chi_square_p(x, dof)` is the upper regularised
incomplete gamma function Q(dof/2, x/2), computed by its series below a + 1 and by its
continued fraction above (as Numerical Recipes does).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_EPS = 1e-15
_TINY = 1e-300


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    """Sum of (observed - expected)^2 / expected over the cells."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def chi_square_p(statistic: float, dof: int) -> float:
    """P(chi-square with `dof` degrees of freedom >= `statistic`)."""
    if dof < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def uniform_p(counts: Sequence[int]) -> float | None:
    """The p-value of `counts` against equally likely cells (None with fewer than 5 per cell
    expected, where the chi-square approximation says little)."""
    total = sum(counts)
    if len(counts) < 2 or total < 5 * len(counts):
        return None
    expected = total / len(counts)
    return chi_square_p(chi_square(counts, [expected] * len(counts)), len(counts) - 1)


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


@dataclass(frozen=True)
class RollFairness:
    """What a series of rolls looks like beside fair dice: how often each number came up
    (each die counted, so a roll adds two), how many doubles, what fair dice give on
    average, and the chi-square p-values of the faces (5 degrees of freedom), of the 36
    ordered outcomes (35) and of doubles against non-doubles (1). A p-value is None while
    there are too few rolls for the test to say anything (under 5 expected per cell)."""

    rolls: int
    faces: tuple[int, int, int, int, int, int]
    doubles: int
    p_faces: float | None
    p_outcomes: float | None
    p_doubles: float | None

    @property
    def expected_face(self) -> float:
        return self.rolls * 2 / 6

    @property
    def expected_doubles(self) -> float:
        return self.rolls / 6

    def to_dict(self) -> dict[str, object]:
        return {"rolls": self.rolls, "faces": list(self.faces), "doubles": self.doubles,
                "expected_face": self.expected_face, "expected_doubles": self.expected_doubles,
                "p_faces": self.p_faces, "p_outcomes": self.p_outcomes, "p_doubles": self.p_doubles}


def roll_fairness(rolls: Iterable[tuple[int, int]]) -> RollFairness:
    """Count `rolls` and test them against fair dice."""
    pairs = Counter(rolls)
    n = sum(pairs.values())
    outcomes = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    faces = tuple(sum(pairs[(a, b)] + pairs[(b, a)] for b in range(1, 7)) for a in range(1, 7))
    doubles = sum(pairs[(a, a)] for a in range(1, 7))
    p_doubles = None
    if n / 6 >= 5:
        p_doubles = chi_square_p(chi_square([doubles, n - doubles], [n / 6, 5 * n / 6]), 1)
    return RollFairness(n, faces, doubles, uniform_p(faces), uniform_p(outcomes), p_doubles)  # type: ignore[arg-type]

"""English counts in the product's own log lines, events and reports: `1 point`, `2 points`.

The display's texts in three languages have their own singular and plural forms
(`controller/show/texts.py`); this is the one place the English lines (match events,
`bgboard replay`, `bgboard selftest`) get theirs, so no line ever says "1 points".
"""
from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`counted(1, "point")` is `1 point`, `counted(3, "point")` is `3 points`;
    `plural` names an irregular plural."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


__all__ = ["counted"]

"""GNU Backgammon move notation (placeholder formatter; the full one replaces it)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _pt(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def format_move(steps: Sequence[Any]) -> str:
    return " ".join(f"{_pt(s.frm)}/{_pt(s.to)}{'*' if s.hit else ''}" for s in steps)

"""The analysis's memory of figures it worked out before, bounded.

A turn's luck asks for all 21 rolls' moves, a look-ahead for the same nodes again and
again, the cube decision for the tree the move's evaluation walked: each is kept, by key,
in a `Memo`. What one game works out is of little use to the next (its positions are
others after the first few moves), so the analysis forgets everything between games
(`Evaluator.forget`), and within a game a memo that reaches its limit forgets everything
too (cheaper than ordering entries by use, and rare: the limits are set so that a 2-ply
analysis of a long game stays within them at about the memory `bgboard bench --only pi`
reports).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """A dict that forgets all it holds before it would hold more than `limit` entries."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Remember `value` under `key` (forgetting all first when full); `value`."""
        if len(self) >= self.limit and key not in self:
            self.clear()
        self[key] = value
        return value

    def keep_all(self, items: Iterable[tuple[K, V]]) -> None:
        """Remember each of `items` as `keep` does, all of them whatever the limit."""
        fresh = dict(items)
        if len(self) + len(fresh) > self.limit:
            self.clear()
        self.update(fresh)

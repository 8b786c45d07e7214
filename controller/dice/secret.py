"""The secret of a match's verifiable dice: the seed, the players' phrases, the reveal.

Saved with the match (``controller/records/saved.py``) so a resumed match goes on with
the same rolls; shown nowhere before :meth:`DiceSecret.revealed_now`. The construction
is ``controller/dice/verifiable.py`` (README beside it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from controller.dice.verifiable import SEED_BYTES, commitment, match_key, normal_phrase
from controller.engine.board_view import Colour

_HEX = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class DiceSecret:
    """A seed (32 bytes), White's and Black's phrases, and whether the seed is revealed."""

    seed: bytes
    phrases: tuple[str, str] = ("", "")
    revealed: bool = False

    def __post_init__(self) -> None:
        if len(self.seed) != SEED_BYTES:
            raise ValueError(f"a dice seed has {SEED_BYTES} bytes, not {len(self.seed)}")

    @cached_property
    def commitment(self) -> str:
        return commitment(self.seed)

    @cached_property
    def key(self) -> bytes:
        return match_key(self.seed, *self.phrases)

    @property
    def short_commitment(self) -> str:
        """The display's form: the commitment's first 8 hex digits in two groups."""
        return f"{self.commitment[:4]} {self.commitment[4:8]}"

    def with_phrase(self, side: Colour, phrase: str) -> DiceSecret:
        text = normal_phrase(phrase)
        phrases = (text, self.phrases[1]) if side == "white" else (self.phrases[0], text)
        return replace(self, phrases=phrases)

    def revealed_now(self) -> DiceSecret:
        return replace(self, revealed=True)

    def record_tags(self) -> tuple[tuple[str, str], ...]:
        """The `.mat` header tags: the commitment always, the seed and phrases once revealed."""
        tags: list[tuple[str, str]] = [("Dice commitment", self.commitment)]
        if self.revealed:
            tags += [("Dice seed", self.seed.hex()), ("Dice phrase white", self.phrases[0]),
                     ("Dice phrase black", self.phrases[1])]
        return tuple(tags)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed.hex(), "phrases": list(self.phrases), "revealed": self.revealed}

    @classmethod
    def from_dict(cls, data: Any) -> DiceSecret:
        """The secret saved by :meth:`to_dict`; ValueError saying what is wrong."""
        if not isinstance(data, dict) or set(data) != {"seed", "phrases", "revealed"}:
            raise ValueError("dice secret: expected seed, phrases and revealed")
        seed, phrases, revealed = data["seed"], data["phrases"], data["revealed"]
        if not isinstance(seed, str) or not _HEX.match(seed):
            raise ValueError("dice secret: the seed must be 64 hex digits")
        if not (isinstance(phrases, list) and len(phrases) == 2 and all(isinstance(p, str) for p in phrases)):
            raise ValueError("dice secret: phrases must be two strings")
        if not isinstance(revealed, bool):
            raise ValueError("dice secret: revealed must be true or false")
        return cls(bytes.fromhex(seed), (phrases[0], phrases[1]), revealed)

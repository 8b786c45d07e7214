"""The secret of a match's verifiable dice: the seed, the players' phrases, the reveal.

Saved with the match (``controller/records/saved.py``) so a resumed match goes on with
the same rolls; shown nowhere before :meth:`DiceSecret.revealed_now`. The construction
is ``controller/dice/verifiable.py`` (README beside it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from controller.dice.verifiable import SEED_BYTES, commitment, match_key, normal_phrase
from controller.engine.board_view import Colour
from controller.json_value import JsonObject

_HEX = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class DiceSecret:
    """A seed (32 bytes), White's and Black's phrases, and whether the seed is revealed.

    `verified_rolls` is set when the seed was revealed before the match was over: the
    rolls made until then (the one being played included) came from the seed; every roll
    after it is an ordinary roll, since anyone who read the seed could compute the
    seed's next ones. None when the seed is still secret or was revealed at the match's end.
    """

    seed: bytes
    phrases: tuple[str, str] = ("", "")
    revealed: bool = False
    verified_rolls: int | None = None

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

    def revealed_now(self, verified_rolls: int | None = None) -> DiceSecret:
        """The seed revealed; `verified_rolls` when the match goes on (see the class)."""
        return replace(self, revealed=True, verified_rolls=verified_rolls)

    @property
    def ended(self) -> bool:
        """The seed no longer gives the match's rolls: revealed while the match went on."""
        return self.revealed and self.verified_rolls is not None

    def record_tags(self) -> tuple[tuple[str, str], ...]:
        """The `.mat` header tags: the commitment always, the seed and phrases once revealed."""
        tags: list[tuple[str, str]] = [("Dice commitment", self.commitment)]
        if self.revealed:
            tags += [("Dice seed", self.seed.hex()), ("Dice phrase white", self.phrases[0]),
                     ("Dice phrase black", self.phrases[1])]
        if self.verified_rolls is not None:
            tags.append(("Dice verifiable rolls", str(self.verified_rolls)))
        return tuple(tags)

    def to_dict(self) -> JsonObject:
        data: JsonObject = {"seed": self.seed.hex(), "phrases": list(self.phrases), "revealed": self.revealed}
        if self.verified_rolls is not None:
            data["verified_rolls"] = self.verified_rolls
        return data

    @classmethod
    def from_dict(cls, data: object) -> DiceSecret:
        """The secret saved by :meth:`to_dict`; ValueError saying what is wrong."""
        if not isinstance(data, dict) or set(data) - {"verified_rolls"} != {"seed", "phrases", "revealed"}:
            raise ValueError("dice secret: expected seed, phrases and revealed")
        seed, phrases, revealed = data["seed"], data["phrases"], data["revealed"]
        verified = data.get("verified_rolls")
        if not isinstance(seed, str) or not _HEX.match(seed):
            raise ValueError("dice secret: the seed must be 64 hex digits")
        if not (isinstance(phrases, list) and len(phrases) == 2 and all(isinstance(p, str) for p in phrases)):
            raise ValueError("dice secret: phrases must be two strings")
        if not isinstance(revealed, bool):
            raise ValueError("dice secret: revealed must be true or false")
        if verified is not None and not (type(verified) is int and verified >= 0 and revealed):
            raise ValueError("dice secret: verified_rolls must be a count of rolls, and only once revealed")
        return cls(bytes.fromhex(seed), (phrases[0], phrases[1]), revealed, verified)

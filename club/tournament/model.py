"""The values the formats take and give: a round's rules, a pairing, a bye."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: the longest match a board plays (the board's New match and the contract's assign)
MAX_LENGTH = 25


@dataclass(frozen=True, slots=True)
class Clock:
    """A match clock as the board's New match sets it: minutes per player and a delay."""

    minutes: int
    delay_s: int


@dataclass(frozen=True, slots=True)
class RoundRules:
    """What every match of one round is played to: its length, clock and Crawford rule."""

    length: int
    clock: Clock | None = None
    crawford: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.length <= MAX_LENGTH:
            raise ValueError(f"a match is 1 to {MAX_LENGTH} points, not {self.length}")
        if self.clock is not None and (self.clock.minutes < 1 or self.clock.delay_s < 0):
            raise ValueError("a clock needs at least 1 minute and a delay of 0 s or more")


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: who plays White (the higher-placed player, as the format says)."""

    match_id: str
    white: str
    black: str


@dataclass(frozen=True, slots=True)
class Round:
    """One round as it was paired: its matches and who had the bye (if anyone)."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()

    def match_ids(self) -> tuple[str, ...]:
        return tuple(p.match_id for p in self.pairings)

    def finished(self, winners: "Winners") -> bool:
        """Whether every match of the round has a winner."""
        return all(p.match_id in winners for p in self.pairings)


#: match_id -> the winner's name: every result known so far (a director's correction applied)
Winners = Mapping[str, str]

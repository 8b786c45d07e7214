"""The club night as one frozen value: what the hub knows and keeps across a restart."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from club.tournament.model import Round, RoundRules

Kind = Literal["swiss", "knockout"]
Side = Literal["white", "black"]


@dataclass(frozen=True, slots=True)
class Board:
    """A board paired with this hub: its address (`http://host:port`) and the key it gave."""

    board_id: str
    name: str
    address: str
    hub_key: str


@dataclass(frozen=True, slots=True)
class Correction:
    """The director's correction of a result, with the reason given (kept, and shown)."""

    winner: str
    reason: str
    at: str


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match as its board reported it, with its `.mat` record."""

    match_id: str
    board_id: str
    white: str
    black: str
    length: int
    score: tuple[int, int]
    winner: Side
    record: str
    finished_at: str
    correction: Correction | None = None

    def winner_name(self) -> str:
        """Who won: the director's word when he corrected it, else the board's."""
        if self.correction is not None:
            return self.correction.winner
        return self.white if self.winner == "white" else self.black


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament of the night: its format, players in seeding order, the rules of each
    round (the last repeats), the rounds paired so far, and the lot's seed."""

    kind: Kind
    prefix: str
    players: tuple[str, ...]
    rules: tuple[RoundRules, ...]
    rounds_planned: int
    seed: int
    rounds: tuple[Round, ...] = ()

    def rules_of(self, number: int) -> RoundRules:
        return self.rules[min(number, len(self.rules)) - 1]


@dataclass(frozen=True, slots=True)
class ClubState:
    """Everything the hub keeps (one JSON file in the club's directory)."""

    hub_id: str
    hub_name: str
    players: tuple[str, ...] = ()
    boards: tuple[Board, ...] = ()
    tournaments: tuple[Tournament, ...] = ()
    #: match_id -> board_id: the matches handed to a board (kept after the result)
    assignments: Mapping[str, str] = field(default_factory=dict)
    #: match_id -> the result recorded: keyed so that nothing counts twice
    results: Mapping[str, MatchResult] = field(default_factory=dict)

    def board(self, board_id: str) -> Board | None:
        return next((b for b in self.boards if b.board_id == board_id), None)

    def current(self) -> Tournament | None:
        return self.tournaments[-1] if self.tournaments else None

"""What the server said happened, waiting for the table, and what the runner does next.

The facts and the `Reaction` are shared by `RemoteOpponent` and the small modules it hands
its work to (`outbox.py`, ...): they live here so that those modules need not import the
opponent (no import cycle). The local player is White on the table, the remote one Black.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.events import Event

LOCAL: Colour = "white"
REMOTE: Colour = "black"


# -- facts: what the server said happened, waiting for the table -------------------------

@dataclass(frozen=True)
class OpeningRolled:
    dice: tuple[int, int]  # White's die, Black's die


@dataclass(frozen=True)
class DiceRolled:
    side: Colour
    dice: tuple[int, int]


@dataclass(frozen=True)
class RemoteMoved:
    board: tuple[int, ...]


@dataclass(frozen=True)
class RemoteCube:
    action: Literal["double", "take", "drop", "accept", "rematch"]


@dataclass(frozen=True)
class RemoteResigned:
    level: str


@dataclass(frozen=True)
class ScoreCheck:
    score: tuple[int, int]  # (local, remote) as the server counts


Fact = Union[OpeningRolled, DiceRolled, RemoteMoved, RemoteCube, RemoteResigned, ScoreCheck]


@dataclass
class Reaction:
    """What the runner does next: send `commands`, dispatch `events` to the table, show
    `notes` (chat and news for the page and the log), and, with `adopt`, play on from the
    server's state."""

    commands: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    adopt: Match | None = None
    stopped: str | None = None

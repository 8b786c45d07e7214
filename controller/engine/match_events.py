"""Typed events a match command returns, so the controller, the display and the buzzer
react to what happened without comparing states.

Moves and steps are written in GNU Backgammon's notation (`notation.format_move`, the
one `bgboard moves` prints): `white moved 3-1: 8/5 6/5`, `13/9` rather than `13/10 10/9`.

Every event is a frozen dataclass; ``str(event)`` is a short stable text (``"white rolled
3-1"``) for logs and the scenario runner's ``events`` list.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.engine.board_view import Colour
from controller.engine.moves import Step
from controller.engine.notation import format_move as _steps
from controller.engine.wording import counted


@dataclass(frozen=True, slots=True)
class OpeningTie:
    """Both opening dice showed `die`: the opening roll is made again."""

    die: int

    def __str__(self) -> str:
        return f"opening tie {self.die}-{self.die}, roll again"


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Game `number` starts; `side` won the opening roll and plays `dice`."""

    number: int
    side: Colour
    dice: tuple[int, int]
    crawford: bool

    def __str__(self) -> str:
        return f"game {self.number} starts{' (Crawford)' if self.crawford else ''}: {self.side} plays {self.dice[0]}-{self.dice[1]}"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """`side` is on turn and must roll (or double, or resign); `auto_roll` tells the
    controller to roll at once because this player may not or will not double."""

    side: Colour
    auto_roll: bool

    def __str__(self) -> str:
        return f"{self.side} to roll{' (auto)' if self.auto_roll else ''}"


@dataclass(frozen=True, slots=True)
class Rolled:
    side: Colour
    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.side} rolled {self.dice[0]}-{self.dice[1]}"


@dataclass(frozen=True, slots=True)
class NoMove:
    """The roll cannot be played at all: the turn passes by itself."""

    side: Colour
    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.side} cannot move {self.dice[0]}-{self.dice[1]}"


@dataclass(frozen=True, slots=True)
class Stepped:
    """One checker step of the turn (mover's numbering)."""

    side: Colour
    step: Step
    complete: bool

    def __str__(self) -> str:
        return f"{self.side} step {_steps((self.step,))}{' (complete)' if self.complete else ''}"


@dataclass(frozen=True, slots=True)
class Undone:
    side: Colour
    step: Step

    def __str__(self) -> str:
        return f"{self.side} undid {_steps((self.step,))}"


@dataclass(frozen=True, slots=True)
class Moved:
    """`side`'s turn ended with this move (the steps as played, mover's numbering)."""

    side: Colour
    dice: tuple[int, int]
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return f"{self.side} moved {self.dice[0]}-{self.dice[1]}: {_steps(self.steps)}"


@dataclass(frozen=True, slots=True)
class MoveChosen:
    """`side` (the computer, a remote player) has decided its move; a person carries it
    out on the board, and no clock runs meanwhile."""

    side: Colour
    dice: tuple[int, int]
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return f"{self.side} chose {self.dice[0]}-{self.dice[1]}: {_steps(self.steps)}, no clock runs until it is on the board"


@dataclass(frozen=True, slots=True)
class DoubleOffered:
    side: Colour
    value: int

    def __str__(self) -> str:
        return f"{self.side} doubles to {self.value}"


@dataclass(frozen=True, slots=True)
class DoubleTaken:
    side: Colour
    value: int

    def __str__(self) -> str:
        return f"{self.side} takes, cube {self.value}"


@dataclass(frozen=True, slots=True)
class DoubleDropped:
    side: Colour

    def __str__(self) -> str:
        return f"{self.side} drops"


@dataclass(frozen=True, slots=True)
class ResignOffered:
    side: Colour
    level: str

    def __str__(self) -> str:
        return f"{self.side} offers to resign {self.level}"


@dataclass(frozen=True, slots=True)
class ResignAccepted:
    side: Colour
    level: str
    automatic: bool

    def __str__(self) -> str:
        return f"{self.side} accepts the {self.level} resignation{' (automatic)' if self.automatic else ''}"


@dataclass(frozen=True, slots=True)
class ResignDeclined:
    side: Colour
    level: str

    def __str__(self) -> str:
        return f"{self.side} declines the {self.level} resignation"


@dataclass(frozen=True, slots=True)
class GameWon:
    """A game ended: `how` is bearoff, drop, resign, forfeit or time; `result` single,
    gammon or backgammon (None for forfeit and time); `score` after it (white, black)."""

    number: int
    side: Colour
    how: str
    result: str | None
    points: int
    score: tuple[int, int]

    def __str__(self) -> str:
        what = f" {self.result}" if self.result else ""
        return f"{self.side} wins game {self.number}{what} by {self.how}, {counted(self.points, 'point')}, score {self.score[0]}-{self.score[1]}"


@dataclass(frozen=True, slots=True)
class Forfeited:
    side: Colour

    def __str__(self) -> str:
        return f"{self.side} forfeits the match"


@dataclass(frozen=True, slots=True)
class TimedOut:
    side: Colour

    def __str__(self) -> str:
        return f"{self.side} ran out of time"


@dataclass(frozen=True, slots=True)
class MatchWon:
    """The match is over: `how` is score, forfeit or time."""

    side: Colour
    how: str
    score: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.side} wins the match by {self.how}, {self.score[0]}-{self.score[1]}"


@dataclass(frozen=True, slots=True)
class RematchOffered:
    side: Colour

    def __str__(self) -> str:
        return f"{self.side} offers a rematch"


@dataclass(frozen=True, slots=True)
class RematchDeclined:
    side: Colour

    def __str__(self) -> str:
        return f"{self.side} declines the rematch"


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """A new match with the colours swapped: `white` and `black` are the players' names."""

    white: str
    black: str

    def __str__(self) -> str:
        return f"rematch: {self.white} now plays white, {self.black} black"


Event = (OpeningTie | GameStarted | TurnStarted | Rolled | NoMove | Stepped | Undone | Moved
         | MoveChosen | DoubleOffered | DoubleTaken | DoubleDropped | ResignOffered | ResignAccepted
         | ResignDeclined | GameWon | Forfeited | TimedOut | MatchWon | RematchOffered
         | RematchDeclined | RematchStarted)

"""The history of a match: every game, turn by turn, as plain frozen values.

This is what a match record (`.mat`) is written from, and what a saved match keeps:

- ``Match.history``, a tuple: one :class:`GameRecord` per game,
  the game being played last (its ``end`` is None until it ends).
- A :class:`GameRecord` holds the game number (1-based), the score before it as
  (white, black), whether it is the Crawford game, and its ``actions`` in order.
- Actions are :class:`TurnRecord` (a roll and the move played, steps in the mover's own
  numbering as `Step` values, in the order played; empty steps when the roll could not be
  played; ``opening`` marks the opening roll, whose dice are (white's die, black's die)),
  :class:`CubeRecord` (``double`` with the value offered, ``take`` with the new value,
  ``drop`` with the value dropped at) and :class:`ResignRecord` (``offer``, ``accept``,
  ``decline`` with the level single, gammon or backgammon; an automatically accepted
  backgammon resignation is an ``offer`` then an ``accept``).
- :class:`GameEnd`: the winner; ``how`` the game ended (``bearoff``, ``drop``,
  ``resign``, ``forfeit``, ``time``); the result (``single``, ``gammon``, ``backgammon``;
  None for forfeit and time); the cube value; the points scored (result x cube; the cube
  value before the double for a drop; 0 for forfeit and time, which end the match); a
  ``note`` when the points are another's than the rule book's (a server that scored it).

Players are named by colour; the names belong to the match's settings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.engine.board_view import Colour
from controller.engine.moves import Step


@dataclass(frozen=True, slots=True)
class TurnRecord:
    side: Colour
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    opening: bool = False


@dataclass(frozen=True, slots=True)
class CubeRecord:
    side: Colour
    action: Literal["double", "take", "drop"]
    value: int


@dataclass(frozen=True, slots=True)
class ResignRecord:
    side: Colour
    action: Literal["offer", "accept", "decline"]
    level: str


Action = TurnRecord | CubeRecord | ResignRecord


@dataclass(frozen=True, slots=True)
class GameEnd:
    winner: Colour
    how: Literal["bearoff", "drop", "resign", "forfeit", "time"]
    result: str | None
    cube: int
    points: int
    note: str = ""  # why the points are not the rule book's (online: the server's own scoring)


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    score_before: tuple[int, int]
    crawford: bool
    actions: tuple[Action, ...] = ()
    end: GameEnd | None = None

    def with_action(self, action: Action) -> GameRecord:
        return GameRecord(self.number, self.score_before, self.crawford, self.actions + (action,), self.end)

    def ended(self, end: GameEnd) -> GameRecord:
        return GameRecord(self.number, self.score_before, self.crawford, self.actions, end)

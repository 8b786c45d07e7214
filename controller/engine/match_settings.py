"""The settings a match is played with, checked once when the match is made."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller.engine.board_view import Colour
from controller.engine.clock import CLOCK_MODES
from controller.engine.errors import MatchStateError

CONFIRM_MODES: tuple[str, ...] = ("auto", "button")
#: where the rolls come from (controller/dice/README.md): the board's random source, real
#: dice entered by the players, or the board's committed, verifiable sequence
DICE_MODES: tuple[str, ...] = ("board", "entered", "verifiable")
#: the cube goes no higher (RULES.md "Doubling cube")
CUBE_CAP = 64
#: the longest match, as GNU Backgammon's Match ID can hold it
MAX_LENGTH = 32767


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played.

    `confirm`: ``auto`` ends a turn as soon as a complete legal move is on the board,
    ``button`` waits for ``done``. `auto_roll_white` / `auto_roll_black`: that player's dice
    are rolled without waiting, and they cannot double. `white` / `black`: the players'
    names (a rematch swaps them). `dice`: one of DICE_MODES.
    """

    length: int = 5
    cube: bool = True
    crawford: bool = True
    confirm: str = "auto"
    clock: str = "off"
    auto_roll_white: bool = False
    auto_roll_black: bool = False
    white: str = "White"
    black: str = "Black"
    dice: str = "board"

    def __post_init__(self) -> None:
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise MatchStateError(f"bad match length {self.length!r}: a whole number of points, 1 or more")
        if self.length > MAX_LENGTH:
            raise MatchStateError(f"match length {self.length} is too long (at most {MAX_LENGTH}, as GNU Backgammon)")
        if self.confirm not in CONFIRM_MODES:
            raise MatchStateError(f"bad confirm mode {self.confirm!r}: choose auto or button")
        if self.dice not in DICE_MODES:
            raise MatchStateError(f"bad dice setting {self.dice!r}: choose board, entered or verifiable")
        if self.clock not in CLOCK_MODES:
            raise MatchStateError(f"bad clock mode {self.clock!r}: choose off, timer or tournament")
        for name in ("cube", "crawford", "auto_roll_white", "auto_roll_black"):
            if not isinstance(getattr(self, name), bool):
                raise MatchStateError(f"setting {name} must be true or false, not {getattr(self, name)!r}")

    def auto_roll(self, side: Colour) -> bool:
        return self.auto_roll_white if side == "white" else self.auto_roll_black

    def swapped(self) -> MatchSettings:
        """The settings of a rematch: the players (and their own auto-roll) change colour."""
        return replace(self, white=self.black, black=self.white,
                       auto_roll_white=self.auto_roll_black, auto_roll_black=self.auto_roll_white)

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSettings:
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise MatchStateError(f"unknown match setting {min(unknown)!r}")
        return cls(**data)

"""The settings a match is played with, checked once when the match is made."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from controller.engine.board_view import Colour
from controller.engine.clock import CLOCK_MODES
from controller.engine.errors import MatchStateError
from controller.json_value import JsonObject

CONFIRM_MODES: tuple[str, ...] = ("auto", "button")
#: where the rolls come from (controller/dice/README.md): the board's random source, real
#: dice entered by the players, or the board's committed, verifiable sequence
DICE_MODES: tuple[str, ...] = ("board", "entered", "verifiable")
#: the cube goes no higher (RULES.md "Doubling cube")
CUBE_CAP = 64
#: the longest match, as GNU Backgammon's Match ID can hold it
MAX_LENGTH = 32767
#: the largest reserve a tournament clock may be set to (a day)
MAX_CLOCK_MINUTES = 24 * 60
#: who plays a colour: a person at the table, a remote player (online), or else the name
#: of a computer level (controller.bot.base.LEVELS) whose moves the person carries out
HUMAN = "human"
REMOTE = "remote"
#: the names of players nobody named: their colours' (MatchSettings.white, .black)
DEFAULT_NAMES = {"white": "White", "black": "Black"}
_PLAYER = re.compile(r"[a-z][a-z0-9_-]{0,31}")


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is played.

    `confirm`: ``auto`` ends a turn as soon as a complete legal move is on the board,
    ``button`` waits for ``done``. `auto_roll_white` / `auto_roll_black`: that player's dice
    are rolled without waiting, and they cannot double. `white` / `black`: the players'
    names (a rematch swaps them). `dice`: one of DICE_MODES. `white_player` /
    `black_player`: who plays that colour (HUMAN, REMOTE or a computer level's name): a fact
    of the match, not of the table's settings, so a rematch swaps it with the colours and
    a saved match resumes with it. `clock_minutes`: each player's reserve when the tournament
    clock is set (a club's director chooses it), None for the rule's 2 min a match point.
    """

    length: int = 5
    cube: bool = True
    crawford: bool = True
    confirm: str = "auto"
    clock: str = "off"
    auto_roll_white: bool = False
    auto_roll_black: bool = False
    white: str = "White"  # DEFAULT_NAMES
    black: str = "Black"
    dice: str = "board"
    white_player: str = HUMAN
    black_player: str = HUMAN
    clock_minutes: int | None = None

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
        minutes = self.clock_minutes
        if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                    or not 1 <= minutes <= MAX_CLOCK_MINUTES):
            raise MatchStateError(f"bad clock_minutes {minutes!r}: none, or 1 to {MAX_CLOCK_MINUTES} minutes")
        for name in ("white_player", "black_player"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _PLAYER.fullmatch(value):
                raise MatchStateError(f"bad {name} {str(value)[:40]!r}: human, remote or a computer level")

    def auto_roll(self, side: Colour) -> bool:
        return self.auto_roll_white if side == "white" else self.auto_roll_black

    def player(self, side: Colour) -> str:
        """Who plays `side`: HUMAN, REMOTE or a computer level."""
        return self.white_player if side == "white" else self.black_player

    @property
    def players(self) -> tuple[str, str]:
        """(white_player, black_player)."""
        return (self.white_player, self.black_player)

    def is_computer(self, side: Colour) -> bool:
        """A computer level plays `side` (the person at the table carries out its moves)."""
        return self.player(side) not in (HUMAN, REMOTE)

    def player_name(self, side: Colour) -> str:
        """The name to show and record for `side`: a computer level by its own name
        (`gnubg`, `simple`), anyone else by the match's name for that colour."""
        return self.player(side) if self.is_computer(side) else (self.white if side == "white" else self.black)

    def swapped(self) -> MatchSettings:
        """The settings of a rematch: the players (who they are, their names, their own
        auto-roll) change colour (RULES.md "Match"). A name that is only its colour's
        ("White", "Black": nobody named the player) stays with the colour: the person who
        played White as "White" plays Black as "Black" (issue 35.14: the record named the
        Black player "White")."""
        white = self.black if self.black != DEFAULT_NAMES["black"] else DEFAULT_NAMES["white"]
        black = self.white if self.white != DEFAULT_NAMES["white"] else DEFAULT_NAMES["black"]
        return replace(self, white=white, black=black,
                       white_player=self.black_player, black_player=self.white_player,
                       auto_roll_white=self.auto_roll_black, auto_roll_black=self.auto_roll_white)

    def to_dict(self) -> JsonObject:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: JsonObject) -> MatchSettings:
        """The settings saved by `to_dict`; each value is checked by `__post_init__`."""
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise MatchStateError(f"unknown match setting {min(unknown)!r}")
        fields: dict[str, Any] = dict(data)  # only known names; __post_init__ checks each value
        return cls(**fields)

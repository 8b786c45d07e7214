"""A decision's match, seen from the side that decides: its own score away first, who owns
the cube, whether this is the Crawford game (`MatchContext`, `bot_context`).

The analysis judges every decision in this context and every computer level decides in
it, so it lives here, below the levels (controller/bot imports the analysis; the analysis
never imports a level).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.engine.board_view import Colour
from controller.engine.match_state import MatchState
from controller.errors import UsageError

#: who owns the cube, seen by the computer (the centred cube is "center", as everywhere)
BotCubeOwner = Literal["center", "bot", "opponent"]


@dataclass(frozen=True, slots=True)
class MatchContext:
    """What a decision needs to know about the match, seen by the computer.

    `length` 0 is a money game (`bot_away`/`opponent_away` then ignored). `crawford` is
    True only during the Crawford game itself, when nobody may double.
    """

    length: int = 0
    bot_away: int = 0
    opponent_away: int = 0
    cube: int = 1
    owner: BotCubeOwner = "center"
    crawford: bool = False

    def __post_init__(self) -> None:
        if self.length < 0 or self.cube < 1 or self.cube & (self.cube - 1):
            raise UsageError(f"bad match context: length {self.length}, cube {self.cube}")
        if self.length and not (1 <= self.bot_away <= self.length and 1 <= self.opponent_away <= self.length):
            raise UsageError(f"bad score for a {self.length}-point match: "
                             f"{self.bot_away} and {self.opponent_away} away")
        if self.owner not in ("center", "bot", "opponent"):
            raise UsageError(f"bad cube owner {self.owner!r}")

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def bot_may_double(self) -> bool:
        """The rules allow the computer to double now (cube access, not Crawford, cube alive)."""
        if self.owner == "opponent" or self.crawford:
            return False
        if self.is_money:
            return True
        return self.cube < self.bot_away  # a cube already worth the match is dead

    def opponent_may_double(self) -> bool:
        """The same question for the opponent."""
        if self.owner == "bot" or self.crawford:
            return False
        if self.is_money:
            return True
        return self.cube < self.opponent_away

    def flipped(self) -> MatchContext:
        """The same match seen by the opponent (for duels where both sides are bots)."""
        flip: dict[BotCubeOwner, BotCubeOwner] = {"center": "center", "bot": "opponent", "opponent": "bot"}
        owner = flip[self.owner]
        return MatchContext(self.length, self.opponent_away, self.bot_away, self.cube, owner, self.crawford)


MONEY = MatchContext()


def bot_context(match: MatchState, side: Colour) -> MatchContext:
    """The computer's view of the match: its own score away first, cube ownership."""
    me = 0 if side == "white" else 1
    owner = match.cube_owner
    length = match.length
    seen: BotCubeOwner = "center" if owner is None else ("bot" if owner == side else "opponent")
    return MatchContext(length=length, bot_away=max(1, length - match.score[me]),
                        opponent_away=max(1, length - match.score[1 - me]), cube=match.cube,
                        owner=seen, crawford=match.crawford)

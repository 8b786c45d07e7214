"""The computer opponent's contract: what every level answers (`Bot`) and what it is told
about the match (`MatchContext`).

Every call takes the position *as the engine sees it*, from the player on roll, because
that is what the match has at hand when it asks:

- `choose_move` and `should_double`: the computer is on roll (`position.mine` is its side);
- `should_take`: the opponent has just doubled, so the opponent is on roll;
- `accepts_resignation`: the opponent offers to resign on their turn, so they are on roll.

The `MatchContext` is always from the computer's side (its own score away first), so a
level never has to guess whose score is whose.

The levels and the analysis import this; `base` (which chooses a level by name and so
imports every level) re-exports it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from controller.engine import Move, Position
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


@runtime_checkable
class Bot(Protocol):
    """A computer level. Answers are pure decisions: the match applies them."""

    name: str

    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        """The move to play (one of `legal_moves(position, dice)`), None when none is legal."""
        ...

    def should_double(self, position: Position, context: MatchContext) -> bool:
        """Offer the cube before rolling (only asked when `context.bot_may_double()`)."""
        ...

    def should_take(self, position: Position, context: MatchContext) -> bool:
        """Take the opponent's double (`position` from the doubler, who is on roll)."""
        ...

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        """Accept the opponent's offer to resign `level` (1 single, 2 gammon, 3 backgammon)
        times the cube; `position` from the resigner, who is on roll."""
        ...

    def close(self) -> None:
        """Release what the level holds (the gnubg program's process); safe to call twice."""
        ...


def bot_context(match: MatchState, side: Colour) -> MatchContext:
    """The computer's view of the match: its own score away first, cube ownership."""
    me = 0 if side == "white" else 1
    owner = match.cube_owner
    length = match.length
    seen: BotCubeOwner = "center" if owner is None else ("bot" if owner == side else "opponent")
    return MatchContext(length=length, bot_away=max(1, length - match.score[me]),
                        opponent_away=max(1, length - match.score[1 - me]), cube=match.cube,
                        owner=seen, crawford=match.crawford)

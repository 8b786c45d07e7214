"""The computer opponent's contract: what every level answers, and how a level is chosen.

Every call takes the position *as the engine sees it*, from the player on roll, because
that is what the match has at hand when it asks:

- `choose_move` and `should_double`: the computer is on roll (`position.mine` is its side);
- `should_take`: the opponent has just doubled, so the opponent is on roll;
- `accepts_resignation`: the opponent offers to resign on their turn, so they are on roll.

The `MatchContext` is always from the computer's side (its own score away first), so a
level never has to guess whose score is whose.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from controller.engine import Move, Position
from controller.errors import BackendUnavailableError, UsageError

#: who owns the cube, seen by the computer (the centred cube is "center", as everywhere)
BotCubeOwner = Literal["center", "bot", "opponent"]
LEVELS: tuple[str, ...] = ("simple", "gnubg", "beginner", "casual", "intermediate", "advanced", "expert",
                          "worldclass", "pubeval")
"""Names `make_bot` knows; `pubeval` is the benchmark opponent, not offered to players.
`beginner` .. `worldclass` are GNU Backgammon's own player settings (gnubg_strength)."""
OFFERED_LEVELS: tuple[str, ...] = LEVELS[:-1]
"""The levels a player may choose (settings, the simulator's dialog, scenario scripts)."""


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


def accepts_rematch(bot: object, context: MatchContext) -> bool:
    """Whether the computer takes the person's rematch offer (RULES.md "Match"). A level
    may answer with its own ``accepts_rematch(context)``; by default it accepts: the
    computer is always ready for another match."""
    own = getattr(bot, "accepts_rematch", None)
    return True if own is None else bool(own(context))


def offers_rematch(bot: object, context: MatchContext, lost: bool) -> bool:
    """Whether the computer offers a rematch itself once the match is over. A level may
    decide with its own ``offers_rematch(context, lost)``; by default it offers after
    losing (asking for its revenge) and leaves the winner's offer to the person, who
    then sees the result until they press."""
    own = getattr(bot, "offers_rematch", None)
    return lost if own is None else bool(own(context, lost))


def make_bot(level: str, *, rng: random.Random | None = None, **options: object) -> Bot:
    """The bot for a level name: `simple`, `gnubg` (wheel, else the program), `pubeval`.

    `gnubg` raises BackendUnavailableError when neither gnubg-nn nor the gnubg program is
    installed: choosing a level never falls back to another silently.
    Options: `plies` (gnubg: 0..2), `backend` (gnubg: "nn" or "process").
    """
    if level == "simple":
        from controller.bot.simple import SimpleBot

        return SimpleBot(rng=rng)
    if level == "pubeval":
        from controller.bot.pubeval import PubevalBot

        return PubevalBot()
    if level == "gnubg":
        from controller.bot.gnubg_level import make_gnubg_bot

        return make_gnubg_bot(**options)  # type: ignore[arg-type]
    if level == "worldclass":
        from controller.bot.gnubg_level import make_gnubg_bot

        return make_gnubg_bot(plies=2, backend=options.get("backend"))  # type: ignore[arg-type]
    if level in LEVELS[2:7]:
        from controller.analysis.network import load_network

        load_network()  # one line naming the install command when there is no network at all
        from controller.bot.gnubg_strength import StrengthBot

        return StrengthBot(level)
    raise UsageError(f"unknown computer level {level!r}; choose {', '.join(OFFERED_LEVELS)}")


__all__ = ["LEVELS", "MONEY", "OFFERED_LEVELS", "BackendUnavailableError", "Bot", "BotCubeOwner", "MatchContext", "accepts_rematch",
           "make_bot", "offers_rematch"]

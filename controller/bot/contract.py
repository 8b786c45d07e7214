"""The computer opponent's contract: what every level answers (`Bot`) and what it is told
about the match (`MatchContext`).

Every call takes the position *as the engine sees it*, from the player on roll, because
that is what the match has at hand when it asks:

- `choose_move` and `should_double`: the computer is on roll (`position.mine` is its side);
- `should_take`: the opponent has just doubled, so the opponent is on roll;
- `accepts_resignation`: the opponent offers to resign on their turn, so they are on roll.

The `MatchContext` is always from the computer's side (its own score away first), so a
level never has to guess whose score is whose.

The levels import this; `MatchContext` itself lives with the analysis
(controller/analysis/match_context.py), which judges decisions in it too.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from controller.analysis.match_context import MatchContext
from controller.engine import Move, Position


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

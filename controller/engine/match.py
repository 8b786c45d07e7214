"""A backgammon match as a pure state machine (RULES.md "Who starts" to "Timer").

A :class:`Match` is an immutable value. Every command is a method taking the acting side
(and, where they matter, the dice and the time ``now`` in seconds, as the caller's
monotonic clock gives it) and returning a :class:`Transition`: the new match and the
typed events of what happened (``controller.engine.match_events``). A command that is
not allowed in the current state raises :class:`MatchStateError` with one clear line and,
the match being immutable, changes nothing. Nothing here rolls dice or reads a clock.

Phases (``Match.phase``):

- ``opening``: before a game; either side's ``roll(side, (white_die, black_die))`` makes
  the opening roll (a tie is rolled again); the higher die plays both dice.
- ``roll``: the side on turn may ``double``, ``resign`` or ``roll`` (a resignation only
  here, at the start of one's own turn before rolling: RULES.md "Resigning"). When that player may
  not double (no cube, Crawford game, 1-point match, cube owned by the opponent or at 64,
  or auto-roll chosen) ``auto_roll`` is true and the controller rolls at once.
- ``doubled``: the opponent ``take``s or ``drop``s.
- ``move``: the dice are rolled; ``step``/``undo`` one checker at a time, or ``play`` a
  whole move. A player whose checkers someone else moves (the computer, a remote
  opponent) first ``choose``s the move: their clock stops there, and no clock runs while
  the person carries the move out on the board (RULES.md "Timer": that time is nobody's
  thinking time); ``play`` then ends the turn. With confirm ``auto`` the turn ends as soon as a complete legal move is
  made; with ``button`` it waits for ``done``. A roll that cannot be played passes by
  itself (the ``roll`` command's events say so).
- ``resigning``: the side on turn offered to resign; the opponent ``accept``s or
  ``decline``s (a backgammon resignation is accepted at once). Declined, the player plays
  on and may offer again only at a higher level this turn.
- ``over``: the match is won; ``rematch`` by one side and then the other (or ``accept``)
  starts a new match with the colours swapped.

``forfeit`` by either side ends the match at any time before it is over. With a clock
mode, a command given after the acting player's time ran out ends the match by time
instead of doing what it asks (the events say so); ``tick(now)`` does the same without a
command. The history of every game is in ``Match.history`` (``match_history.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from controller.engine import match_cube, match_rematch, match_resign, match_turns
from controller.engine.board_view import Colour, other
from controller.engine.match_end import game_result, timed_out
from controller.engine.match_events import Event
from controller.engine.match_gnubg import match_id_of
from controller.engine.match_state import LEVELS, PHASES, LastMove, MatchState, Outcome, Phase, check_side
from controller.engine.moves import Move, Step

# imported from here by the rest of the project: the match's words and values
__all__ = ["LEVELS", "PHASES", "LastMove", "Match", "Phase", "Transition", "game_result", "other"]


class Transition(NamedTuple):
    """What a command returns: the new match and what happened, in order."""

    match: Match
    events: tuple[Event, ...]


def _transition(outcome: Outcome[Match]) -> Transition:
    return Transition(*outcome)


@dataclass(frozen=True, slots=True)
class Match(MatchState):
    """The match state (``match_state.py``: its fields and views) with its commands, each
    taking the acting side and returning a :class:`Transition`; the rules of each command
    are in the module that owns that part of the game (see the module doc)."""

    @property
    def match_id(self) -> str:
        """GNU Backgammon Match ID of this state (see ``match_gnubg.py``)."""
        return match_id_of(self)

    def resumed(self, now: float) -> Match:
        """This match on a new time origin, for resuming a saved match: a running clock
        restarts the current action at `now` (see ``Clock.restart``)."""
        if self.clock is None:
            return self
        return replace(self, clock=self.clock.restart(now))

    # -- commands: the rules are in match_turns, match_cube, match_resign, match_rematch --
    def tick(self, now: float) -> Transition:
        """Let time pass: ends the match if the running clock ran out, else no change."""
        return _transition(timed_out(self, now) or (self, ()))

    def roll(self, side: Colour, dice: tuple[int, int], now: float = 0.0) -> Transition:
        """Roll: the opening roll (either side; `dice` are White's die then Black's) or the
        side on turn's roll before moving."""
        return _transition(match_turns.roll(self, check_side(side), dice, now))

    def double(self, side: Colour, now: float = 0.0) -> Transition:
        """Offer a double before rolling."""
        return _transition(match_cube.double(self, check_side(side), now))

    def take(self, side: Colour, now: float = 0.0) -> Transition:
        """Take the double: the cube doubles and goes to the taker."""
        return _transition(match_cube.take(self, check_side(side), now))

    def drop(self, side: Colour, now: float = 0.0) -> Transition:
        """Drop the double: the doubler wins the cube's value before the double."""
        return _transition(match_cube.drop(self, check_side(side), now))

    def resign(self, side: Colour, level: str, now: float = 0.0) -> Transition:
        """Offer to resign the game as single, gammon or backgammon (own turn only; after a
        decline only a higher level this turn). A backgammon is accepted at once."""
        return _transition(match_resign.resign(self, check_side(side), level, now))

    def accept(self, side: Colour, now: float = 0.0) -> Transition:
        """Accept the pending resignation (the game ends), or the other side's rematch."""
        return _transition(match_resign.accept(self, check_side(side), now))

    def decline(self, side: Colour, now: float = 0.0) -> Transition:
        """Decline the pending resignation (the resigner plays on), or a rematch."""
        return _transition(match_resign.decline(self, check_side(side), now))

    def forfeit(self, side: Colour, now: float = 0.0) -> Transition:
        """Give up the whole match: the opponent wins it."""
        return _transition(match_resign.forfeit(self, check_side(side), now))

    def step(self, side: Colour, step: Step, now: float = 0.0) -> Transition:
        """One checker step of the roll (mover's numbering; `step.die` chooses between dice
        that make the same step, else the lowest die that is legal)."""
        return _transition(match_turns.step(self, check_side(side), step, now))

    def undo(self, side: Colour, now: float = 0.0) -> Transition:
        """Take back the last step of this turn."""
        return _transition(match_turns.undo(self, check_side(side), now))

    def play(self, side: Colour, move: Move, now: float = 0.0) -> Transition:
        """Play a whole legal move at once (a typed move, the computer's); ends the turn in
        either confirm mode. Not after single steps: finish or undo those."""
        return _transition(match_turns.play(self, check_side(side), move, now))

    def choose(self, side: Colour, move: Move, now: float = 0.0) -> Transition:
        """The move is decided (the computer's, a remote player's) but not yet on the
        board: no clock runs until ``play`` carries it out."""
        return _transition(match_turns.choose(self, check_side(side), move, now))

    def done(self, side: Colour, now: float = 0.0) -> Transition:
        """Confirm a complete move (confirm mode ``button``): the turn ends."""
        return _transition(match_turns.done(self, check_side(side), now))

    def rematch(self, side: Colour, now: float = 0.0) -> Transition:
        """After the match: offer a rematch, or accept the other side's offer, which starts
        a new match with the colours swapped."""
        return _transition(match_rematch.rematch(self, check_side(side)))

"""The match's state as one frozen value: its fields and what can be read from them.

`Match` (``match.py``) is this value with its commands; the commands live in small modules
beside it (``match_turns``, ``match_cube``, ``match_resign``, ``match_rematch``,
``match_end``) that take the state and return the next one, so each of them, and
``match_gnubg``, reads the state from here without importing the commands.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Self, TypeVar

from controller.engine.board_view import Colour
from controller.engine.clock import Clock, ClockReading, make_clock
from controller.engine.errors import InvalidPositionError, MatchStateError
from controller.engine.match_events import Event
from controller.engine.match_history import GameRecord
from controller.engine.match_settings import CUBE_CAP, MatchSettings
from controller.engine.match_start import crawford_state
from controller.engine.moves import Move, Step, legal_moves
from controller.engine.position import Position
from controller.engine.turn import TurnPlan

Phase = Literal["opening", "roll", "doubled", "move", "resigning", "over"]
PHASES: tuple[Phase, ...] = ("opening", "roll", "doubled", "move", "resigning", "over")
#: resignation levels, lowest first; the level's index + 1 is the points per cube
LEVELS: tuple[str, ...] = ("single", "gammon", "backgammon")
T = TypeVar("T")


def check_side(side: object) -> Colour:
    """`side` as a colour, or the one-line MatchStateError a caller's typo deserves."""
    if side not in ("white", "black"):
        raise MatchStateError(f"unknown side {side!r}: white or black")
    return side


@dataclass(frozen=True, slots=True)
class LastMove:
    """A move just played, in the mover's numbering (``board_view.step_cells`` maps it
    to cells for ``last-from``/``last-to``)."""

    side: Colour
    dice: tuple[int, int]
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class MatchState:
    """One match at one moment; build with :meth:`new`. Fields are read-only state:

    `position` is the board at the start of the current turn seen by the side on turn
    (`turn`); `partial` the board after the `steps` played so far this turn. `score` and
    per-colour tuples are (white, black). `crawford` marks the Crawford game,
    `post_crawford` that it has been reached. `resign_level` is a pending resignation,
    `declined` the highest level declined this turn (0 none, 1..3); `resume` the phase a
    declined offer returns to and `resume_used` the seconds of the resigner's action used
    before the offer (a decline gives back the rest, not a fresh move timer). `winner` and `end`
    (``score``, ``forfeit`` or ``time``) are set when the match is over.
    """

    settings: MatchSettings
    phase: Phase = "opening"
    score: tuple[int, int] = (0, 0)
    game: int = 1
    crawford: bool = False
    post_crawford: bool = False
    turn: Colour | None = None
    position: Position = field(default_factory=Position.initial)
    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    partial: Position = field(default_factory=Position.initial)
    cube: int = 1
    cube_owner: Colour | None = None
    resign_level: str | None = None
    declined: int = 0
    resume: Phase | None = None
    resume_used: float = 0.0
    last_move: LastMove | None = None
    winner: Colour | None = None
    end: str | None = None
    rematch_offer: Colour | None = None
    clock: Clock | None = None
    history: tuple[GameRecord, ...] = ()
    _plans: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, settings: MatchSettings | None = None, **kwargs: object) -> Self:
        """A match before its opening roll; `kwargs` are MatchSettings fields (each value
        checked by `MatchSettings.__post_init__`)."""
        fields: dict[str, Any] = kwargs
        if settings is None:
            settings = MatchSettings(**fields)
        elif fields:
            settings = replace(settings, **fields)
        return cls.from_score(settings)

    @classmethod
    def from_score(cls, settings: MatchSettings, score: tuple[int, int] = (0, 0),
                   crawford_played: bool | None = None, position: Position | None = None,
                   turn: str = "white") -> Self:
        """A match whose next game starts at `score` (white, black): whether its Crawford
        game has been played is `crawford_played`, or inferred where the score allows one
        answer only (``match_start.py``); a tournament clock holds the reserve left at that
        score. With `position` the game starts there, `turn` to roll. A score, answer or
        position that cannot be is a MatchStateError or InvalidPositionError (one line)."""
        crawford, reached = crawford_state(settings.length, score, settings.crawford, crawford_played)
        m = cls(settings, score=score, crawford=crawford, post_crawford=reached,
                clock=make_clock(settings.clock, settings.length, score, settings.clock_minutes),
                history=(GameRecord(1, score, crawford),))
        if position is None:
            return m
        problem = position.game_problem()
        if problem is not None:
            raise InvalidPositionError(f"cannot start from position {position.id}: {problem}")
        side = check_side(turn)
        return replace(m, phase="roll", turn=side, position=position, partial=position)

    # -- views --------------------------------------------------------------------------
    @property
    def length(self) -> int:
        return self.settings.length

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def cube_enabled(self) -> bool:
        """Whether the cube is in play this game (setting on, match longer than 1 point,
        not the Crawford game)."""
        return self.settings.cube and self.settings.length > 1 and not self.crawford

    def may_double(self, side: Colour) -> bool:
        """Whether `side` may offer a double right now."""
        return (self.phase == "roll" and self.turn == side and self.cube_enabled
                and self.cube < CUBE_CAP and self.cube_owner in (None, side)
                and not self.settings.auto_roll(side))

    @property
    def auto_roll(self) -> bool:
        """True when the side on turn must roll and may not (or chose not to) double:
        the controller rolls for them without waiting."""
        return self.phase == "roll" and self.turn is not None and not self.may_double(self.turn)

    def cached(self, kind: str, build: Callable[[], T]) -> T:
        """A value computed from (position, dice), kept in a small cache shared by the
        states of one turn (the cache is not part of the state: no compare, no save)."""
        key = (self.position, self.dice)
        if self._plans.get("key") != key:
            self._plans.clear()
            self._plans["key"] = key
        value: T | None = self._plans.get(kind)
        if value is None:
            value = self._plans[kind] = build()
        return value

    @property
    def plan(self) -> TurnPlan | None:
        """The legal steps of the current roll (phase ``move``), built on first use."""
        if self.phase not in ("move", "resigning") or self.dice is None:
            return None
        dice = self.dice
        return self.cached("plan", lambda: TurnPlan(self.position, dice))

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current roll (empty outside phase ``move``)."""
        if self.phase not in ("move", "resigning") or self.dice is None:
            return []
        dice = self.dice
        return self.cached("moves", lambda: legal_moves(self.position, dice))

    @property
    def move_complete(self) -> bool:
        """In phase ``move``: the steps so far make a complete legal move (button mode
        waits for ``done``)."""
        plan = self.plan
        return (self.phase == "move" and plan is not None and bool(self.steps)
                and len(self.steps) == plan.steps_needed and plan.is_complete(self.partial))

    def pips(self) -> dict[str, int]:
        """Pip counts per colour of the board as it stands (with the steps played)."""
        mine, theirs = self.partial.pips()
        if self.turn in (None, "white"):
            return {"white": mine, "black": theirs}
        return {"white": theirs, "black": mine}

    def board(self) -> tuple[Position, Colour]:
        """The board as it stands and whose view it is (for ``board_view.cell_counts``)."""
        return self.partial, self.turn or "white"

    @property
    def position_id(self) -> str:
        """GNU Backgammon Position ID of the turn's position, the side on turn on roll."""
        return self.position.id

    @property
    def pending_resign(self) -> str | None:
        return self.resign_level if self.phase == "resigning" else None

    @property
    def double_offered(self) -> bool:
        return self.phase == "doubled"

    def clock_reading(self, now: float) -> ClockReading | None:
        return None if self.clock is None else self.clock.reading(now)


#: a match state of whichever class the caller holds (`Match`), and its commands' result:
#: the next state and the events of what happened, in order
M = TypeVar("M", bound=MatchState)
Outcome = tuple[M, tuple[Event, ...]]

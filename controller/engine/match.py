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

from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

from controller.engine.board_view import Colour, other
from controller.engine.clock import Clock, ClockReading, make_clock
from controller.engine.dice import check_dice
from controller.engine.errors import InvalidDiceError, InvalidPositionError, MatchStateError, ReasonParam
from controller.engine.match_events import (
    DoubleDropped,
    DoubleOffered,
    DoubleTaken,
    Event,
    Forfeited,
    GameStarted,
    GameWon,
    MatchWon,
    Moved,
    MoveChosen,
    NoMove,
    OpeningTie,
    RematchDeclined,
    RematchOffered,
    RematchStarted,
    ResignAccepted,
    ResignDeclined,
    ResignOffered,
    Rolled,
    Stepped,
    TimedOut,
    TurnStarted,
    Undone,
)
from controller.engine.match_history import (
    CubeRecord,
    GameEnd,
    GameRecord,
    ResignRecord,
    TurnRecord,
)
from controller.engine.match_settings import CUBE_CAP, MatchSettings
from controller.engine.match_start import crawford_state
from controller.engine.moves import Move, Step, legal_moves
from controller.engine.notation import format_move
from controller.engine.position import BAR, CHECKERS, Position
from controller.engine.turn import TurnPlan

Phase = Literal["opening", "roll", "doubled", "move", "resigning", "over"]
PHASES: tuple[Phase, ...] = ("opening", "roll", "doubled", "move", "resigning", "over")
#: resignation levels, lowest first; the level's index + 1 is the points per cube
LEVELS: tuple[str, ...] = ("single", "gammon", "backgammon")


def _index(side: Colour) -> int:
    return 0 if side == "white" else 1


def _check_side(side: object) -> Colour:
    if side not in ("white", "black"):
        raise MatchStateError(f"unknown side {side!r}: white or black")
    return side


class Transition(NamedTuple):
    """What a command returns: the new match and what happened, in order."""

    match: Match
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LastMove:
    """A move just played, in the mover's numbering (``board_view.step_cells`` maps it
    to cells for ``last-from``/``last-to``)."""

    side: Colour
    dice: tuple[int, int]
    steps: tuple[Step, ...]


def game_result(after: Position) -> str:
    """single, gammon or backgammon, for a position (seen by the winner, who has just
    borne off their last checker)."""
    loser = after.theirs
    if sum(loser) < CHECKERS:
        return "single"
    # the winner's home board 1..6 is the loser's 19..24 (indices 18..23)
    if loser[BAR] or any(loser[18:24]):
        return "backgammon"
    return "gammon"


@dataclass(frozen=True, slots=True)
class Match:
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
    def new(cls, settings: MatchSettings | None = None, **kwargs: Any) -> Match:
        """A match before its opening roll; `kwargs` are MatchSettings fields."""
        if settings is None:
            settings = MatchSettings(**kwargs)
        elif kwargs:
            settings = replace(settings, **kwargs)
        return cls.from_score(settings)

    @classmethod
    def from_score(cls, settings: MatchSettings, score: tuple[int, int] = (0, 0),
                   crawford_played: bool | None = None, position: Position | None = None,
                   turn: str = "white") -> Match:
        """A match whose next game starts at `score` (white, black): whether its Crawford
        game has been played is `crawford_played`, or inferred where the score allows one
        answer only (``match_start.py``); a tournament clock holds the reserve left at that
        score. With `position` the game starts there, `turn` to roll. A score, answer or
        position that cannot be is a MatchStateError or InvalidPositionError (one line)."""
        crawford, reached = crawford_state(settings.length, score, settings.crawford, crawford_played)
        m = cls(settings, score=score, crawford=crawford, post_crawford=reached,
                clock=make_clock(settings.clock, settings.length, score),
                history=(GameRecord(1, score, crawford),))
        if position is None:
            return m
        problem = position.game_problem()
        if problem is not None:
            raise InvalidPositionError(f"cannot start from position {position.id}: {problem}")
        side = _check_side(turn)
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

    def _cached(self, kind: str, build: Any) -> Any:
        """A value computed from (position, dice), kept in a small cache shared by the
        states of one turn (the cache is not part of the state: no compare, no save)."""
        key = (self.position, self.dice)
        if self._plans.get("key") != key:
            self._plans.clear()
            self._plans["key"] = key
        value = self._plans.get(kind)
        if value is None:
            value = self._plans[kind] = build()
        return value

    @property
    def plan(self) -> TurnPlan | None:
        """The legal steps of the current roll (phase ``move``), built on first use."""
        if self.phase not in ("move", "resigning") or self.dice is None:
            return None
        return self._cached("plan", lambda: TurnPlan(self.position, self.dice))

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current roll (empty outside phase ``move``)."""
        if self.phase not in ("move", "resigning") or self.dice is None:
            return []
        return self._cached("moves", lambda: legal_moves(self.position, self.dice))

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

    @property
    def match_id(self) -> str:
        """GNU Backgammon Match ID of this state (see ``match_gnubg.py``)."""
        from controller.engine.match_gnubg import match_id_of

        return match_id_of(self)

    def resumed(self, now: float) -> Match:
        """This match on a new time origin, for resuming a saved match: a running clock
        restarts the current action at `now` (see ``Clock.restart``)."""
        if self.clock is None:
            return self
        return replace(self, clock=self.clock.restart(now))

    # -- helpers ------------------------------------------------------------------------
    def _fail(self, message: str, key: str | None = None, **params: ReasonParam) -> MatchStateError:
        return MatchStateError(message, key, **params)

    def _need_phase(self, action: str, *phases: Phase) -> None:
        if self.phase not in phases:
            key, params = self._moment()
            raise self._fail(f"cannot {action} now: {self._describe()}", key, **params)

    def _need_turn(self, side: Colour, action: str) -> None:
        if side != self.turn:
            raise self._fail(f"{side} cannot {action}: it is {self.turn}'s turn", "not_your_turn",
                             side=self.turn or other(side))

    def _moment(self) -> tuple[str, dict[str, ReasonParam]]:
        """What the match waits for now, as a reason key and its parameters (`_describe`'s
        words for the players)."""
        turn = self.turn or "white"
        if self.phase == "opening":
            return "phase_opening", {"n": self.game}
        if self.phase == "roll":
            return "phase_roll", {"side": turn}
        if self.phase == "doubled":
            return "phase_doubled", {"side": other(turn)}
        if self.phase == "move":
            return "phase_move", {"side": turn, "dice": tuple(self.dice or ())}
        if self.phase == "resigning":
            return "phase_resigning", {"side": other(turn), "result": self.resign_level or "single"}
        return "phase_over", {"side": self.winner or turn}

    def _describe(self) -> str:
        if self.phase == "opening":
            return f"game {self.game} waits for the opening roll"
        if self.phase == "roll":
            return f"{self.turn} is to roll"
        if self.phase == "doubled":
            return f"{other(self.turn)} must take or drop the double"  # type: ignore[arg-type]
        if self.phase == "move":
            return f"{self.turn} is moving {self.dice[0]}-{self.dice[1]}"  # type: ignore[index]
        if self.phase == "resigning":
            return f"{other(self.turn)} must accept or decline the {self.resign_level} resignation"  # type: ignore[arg-type]
        return f"the match is over, {self.winner} won"

    def _timed_out(self, now: float) -> Transition | None:
        if self.clock is None or self.phase == "over":
            return None
        loser = self.clock.expired(now)
        if loser is None:
            return None
        return self._finish_match(other(loser), "time", now, (TimedOut(loser),))

    def _begin(self, side: Colour, now: float) -> Clock | None:
        return None if self.clock is None else self.clock.begin(side, now)

    def _record(self, action: Any) -> tuple[GameRecord, ...]:
        return self.history[:-1] + (self.history[-1].with_action(action),)

    def _start_turn(self, side: Colour, position: Position, now: float,
                    events: tuple[Event, ...], **changes: Any) -> Transition:
        m = replace(self, phase="roll", turn=side, position=position, partial=position, dice=None,
                    steps=(), resign_level=None, declined=0, resume=None, resume_used=0.0,
                    clock=self._begin(side, now), **changes)
        return Transition(m, events + (TurnStarted(side, m.auto_roll),))

    def _start_move(self, side: Colour, dice: tuple[int, int], now: float,
                    events: tuple[Event, ...], **changes: Any) -> Transition:
        """Dice are showing for `side`: move, or pass at once when nothing can be played."""
        m = replace(self, phase="move", turn=side, dice=dice, steps=(), partial=self.position,
                    **changes)
        if not m.legal_moves():
            return m._end_turn((), now, events + (NoMove(side, dice),), moved=False)
        return Transition(m, events)

    def _end_turn(self, steps: tuple[Step, ...], now: float, events: tuple[Event, ...],
                  moved: bool = True) -> Transition:
        """The side on turn has played `steps` (possibly none): record, then game end or
        the opponent's turn."""
        side = self.turn
        assert side is not None and self.dice is not None
        opening = not any(isinstance(a, TurnRecord) for a in self.history[-1].actions)
        history = self._record(TurnRecord(side, self.dice, steps, opening))
        after = self.position
        for s in steps:
            after = after.after(s)
        if moved:
            events = events + (Moved(side, self.dice, steps),)
        clock = None if self.clock is None else self.clock.finish(now, moved)
        m = replace(self, history=history, clock=clock, partial=after, steps=steps)
        if sum(after.mine) == 0:
            result = game_result(after)
            return m._end_game(side, "bearoff", result, (LEVELS.index(result) + 1) * self.cube, now, events)
        # what the next player sees as the opponent's last move (no steps: a pass)
        return m._start_turn(other(side), after.swap(), now, events, last_move=LastMove(side, self.dice, steps))

    def _end_game(self, winner: Colour, how: str, result: str | None, points: int, now: float,
                  events: tuple[Event, ...]) -> Transition:
        score = list(self.score)
        score[_index(winner)] += points
        new_score = (score[0], score[1])
        history = self.history[:-1] + (self.history[-1].ended(GameEnd(winner, how, result, self.cube, points)),)  # type: ignore[arg-type]
        events = events + (GameWon(self.game, winner, how, result, points, new_score),)
        clock = None if self.clock is None else self.clock.finish(now)
        if new_score[_index(winner)] >= self.settings.length:
            m = replace(self, phase="over", score=new_score, history=history, clock=clock,
                        winner=winner, end="score", dice=None, resign_level=None)
            return Transition(m, events + (MatchWon(winner, "score", new_score),))
        crawford = (self.settings.crawford and not self.post_crawford
                    and new_score[_index(winner)] == self.settings.length - 1)
        fresh = Position.initial()
        m = replace(self, phase="opening", score=new_score, game=self.game + 1, crawford=crawford,
                    post_crawford=self.post_crawford or crawford, turn=None, position=fresh,
                    partial=fresh, dice=None, steps=(), cube=1, cube_owner=None,
                    resign_level=None, declined=0, resume=None, last_move=None, clock=clock,
                    history=history + (GameRecord(self.game + 1, new_score, crawford),))
        return Transition(m, events)

    def _finish_match(self, winner: Colour, how: str, now: float,
                      events: tuple[Event, ...]) -> Transition:
        """Forfeit or time: the current game ends without points and the match is over."""
        last = self.history[-1]
        history = self.history
        if last.end is None:
            history = history[:-1] + (last.ended(GameEnd(winner, how, None, self.cube, 0)),)  # type: ignore[arg-type]
        clock = None if self.clock is None else self.clock.finish(now)
        m = replace(self, phase="over", winner=winner, end=how, history=history, clock=clock,
                    resign_level=None, rematch_offer=None)
        return Transition(m, events + (MatchWon(winner, how, self.score),))

    # -- commands -----------------------------------------------------------------------
    def tick(self, now: float) -> Transition:
        """Let time pass: ends the match if the running clock ran out, else no change."""
        return self._timed_out(now) or Transition(self, ())

    def roll(self, side: Colour, dice: tuple[int, int], now: float = 0.0) -> Transition:
        """Roll: the opening roll (either side; `dice` are White's die then Black's) or the
        side on turn's roll before moving."""
        side = _check_side(side)
        try:
            dice = check_dice(tuple(dice))  # type: ignore[arg-type]
        except InvalidDiceError as exc:
            raise self._fail(str(exc), "bad_dice") from None
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("roll", "opening", "roll")
        if self.phase == "opening":
            white_die, black_die = dice
            if white_die == black_die:
                return Transition(self, (OpeningTie(white_die),))
            starter: Colour = "white" if white_die > black_die else "black"
            fresh = Position.initial()
            m = replace(self, turn=starter, position=fresh, partial=fresh,
                        clock=self._begin(starter, now), rematch_offer=None)
            return m._start_move(starter, dice, now, (GameStarted(self.game, starter, dice, self.crawford),))
        self._need_turn(side, "roll")
        return replace(self, clock=self._begin(side, now))._start_move(side, dice, now, (Rolled(side, dice),))

    def double(self, side: Colour, now: float = 0.0) -> Transition:
        """Offer a double before rolling."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("double", "roll")
        self._need_turn(side, "double")
        if not self.may_double(side):
            params: dict[str, ReasonParam] = {}
            if not self.settings.cube:
                why, key = "the cube is off in this match", "cube_off"
            elif self.settings.length == 1:
                why, key = "there is no cube in a 1-point match", "cube_one_point"
            elif self.crawford:
                why, key = "there is no doubling in the Crawford game", "cube_crawford"
            elif self.cube >= CUBE_CAP:
                why, key, params = f"the cube is at {CUBE_CAP}, as high as it goes", "cube_cap", {"value": CUBE_CAP}
            elif self.cube_owner not in (None, side):
                why, key, params = f"{self.cube_owner} owns the cube", "cube_owned", {"side": self.cube_owner}
            else:
                why, key, params = f"{side} plays with auto-roll", "cube_auto_roll", {"side": side}
            raise self._fail(f"{side} cannot double: {why}", key, **params)
        m = replace(self, phase="doubled", history=self._record(CubeRecord(side, "double", self.cube * 2)),
                    clock=self._begin(other(side), now))
        return Transition(m, (DoubleOffered(side, self.cube * 2),))

    def take(self, side: Colour, now: float = 0.0) -> Transition:
        """Take the double: the cube doubles and goes to the taker."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("take", "doubled")
        if side == self.turn:
            raise self._fail(f"{side} cannot take: {side} doubled, {other(side)} must answer", "answers_double",
                             side=other(side))
        value = self.cube * 2
        m = replace(self, phase="roll", cube=value, cube_owner=side,
                    history=self._record(CubeRecord(side, "take", value)),
                    clock=self._begin(other(side), now))
        return Transition(m, (DoubleTaken(side, value), TurnStarted(other(side), m.auto_roll)))

    def drop(self, side: Colour, now: float = 0.0) -> Transition:
        """Drop the double: the doubler wins the cube's value before the double."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("drop", "doubled")
        if side == self.turn:
            raise self._fail(f"{side} cannot drop: {side} doubled, {other(side)} must answer", "answers_double",
                             side=other(side))
        m = replace(self, history=self._record(CubeRecord(side, "drop", self.cube)))
        return m._end_game(other(side), "drop", "single", self.cube, now, (DoubleDropped(side),))

    def resign(self, side: Colour, level: str, now: float = 0.0) -> Transition:
        """Offer to resign the game as single, gammon or backgammon (own turn only; after a
        decline only a higher level this turn). A backgammon is accepted at once."""
        side = _check_side(side)
        if level not in LEVELS:
            raise self._fail(f"unknown resignation {level!r}: single, gammon or backgammon", "bad_resignation")
        if (t := self._timed_out(now)) is not None:
            return t
        if self.phase == "move" and self.turn == side:
            raise self._fail(f"{side} cannot resign now: a resignation is offered at the start of "
                             f"one's own turn, before rolling, and {side} has rolled "
                             f"{self.dice[0]}-{self.dice[1]}", "resign_before_roll")  # type: ignore[index]
        self._need_phase("resign", "roll")
        self._need_turn(side, "resign")
        rank = LEVELS.index(level) + 1
        if rank <= self.declined:
            raise self._fail(f"{side} cannot offer {level}: {LEVELS[self.declined - 1]} was declined "
                             "this turn, only a higher resignation may be offered", "resign_higher",
                             result=LEVELS[self.declined - 1])
        history = self._record(ResignRecord(side, "offer", level))
        events: tuple[Event, ...] = (ResignOffered(side, level),)
        m = replace(self, history=history)
        if level == "backgammon":
            m = replace(m, history=m._record(ResignRecord(other(side), "accept", level)))
            return m._end_game(other(side), "resign", level, 3 * self.cube, now,
                               events + (ResignAccepted(other(side), level, True),))
        used = 0.0 if self.clock is None else self.clock.used(side, now)
        m = replace(m, phase="resigning", resign_level=level, resume=self.phase, resume_used=used,
                    clock=self._begin(other(side), now))
        return Transition(m, events)

    def accept(self, side: Colour, now: float = 0.0) -> Transition:
        """Accept the pending resignation (the game ends), or the other side's rematch."""
        side = _check_side(side)
        if self.phase == "over":
            if self.rematch_offer is None or self.rematch_offer == side:
                raise self._fail(f"{side} cannot accept: no rematch offered by {other(side)}", "no_rematch_offer",
                                 side=other(side))
            return self.rematch(side, now)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("accept", "resigning")
        if side == self.turn:
            raise self._fail(f"{side} cannot accept: {side} offered the resignation", "answers_resignation",
                             side=other(side))
        level = self.resign_level
        assert level is not None
        m = replace(self, history=self._record(ResignRecord(side, "accept", level)))
        return m._end_game(side, "resign", level, (LEVELS.index(level) + 1) * self.cube, now,
                           (ResignAccepted(side, level, False),))

    def decline(self, side: Colour, now: float = 0.0) -> Transition:
        """Decline the pending resignation (the resigner plays on), or a rematch."""
        side = _check_side(side)
        if self.phase == "over":
            if self.rematch_offer is None or self.rematch_offer == side:
                raise self._fail(f"{side} cannot decline: no rematch offered by {other(side)}", "no_rematch_offer",
                                 side=other(side))
            return Transition(replace(self, rematch_offer=None), (RematchDeclined(side),))
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("decline", "resigning")
        if side == self.turn:
            raise self._fail(f"{side} cannot decline: {side} offered the resignation", "answers_resignation",
                             side=other(side))
        level = self.resign_level
        assert level is not None and self.turn is not None and self.resume is not None
        clock = None if self.clock is None else self.clock.resume(self.turn, now, self.resume_used)
        m = replace(self, phase=self.resume, resign_level=None, resume=None, resume_used=0.0,
                    declined=LEVELS.index(level) + 1,
                    history=self._record(ResignRecord(side, "decline", level)), clock=clock)
        return Transition(m, (ResignDeclined(side, level),))

    def forfeit(self, side: Colour, now: float = 0.0) -> Transition:
        """Give up the whole match: the opponent wins it."""
        side = _check_side(side)
        if self.phase == "over":
            raise self._fail(f"{side} cannot forfeit: the match is already over", "match_over")
        if (t := self._timed_out(now)) is not None:
            return t
        return self._finish_match(other(side), "forfeit", now, (Forfeited(side),))

    def step(self, side: Colour, step: Step, now: float = 0.0) -> Transition:
        """One checker step of the roll (mover's numbering; `step.die` chooses between dice
        that make the same step, else the lowest die that is legal)."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("move a checker", "move")
        self._need_turn(side, "move")
        plan = self.plan
        assert plan is not None and self.dice is not None
        choices = [s for s in plan.next_steps(self.partial) if s.frm == step.frm and s.to == step.to]
        if not choices:
            done = " (the move is complete: done or undo)" if self.move_complete else ""
            raise self._fail(f"{side} cannot move {format_move((Step(step.frm, step.to, step.die),))} with "
                             f"{self.dice[0]}-{self.dice[1]} here{done}",
                             "move_complete" if done else "illegal_step", dice=tuple(self.dice))
        exact = [s for s in choices if s.die == step.die]
        chosen = exact[0] if exact else min(choices, key=lambda s: s.die)
        m = replace(self, steps=self.steps + (chosen,), partial=self.partial.after(chosen))
        complete = m.move_complete
        events: tuple[Event, ...] = (Stepped(side, chosen, complete),)
        if complete and (self.settings.confirm == "auto" or sum(m.partial.mine) == 0):
            return m._end_turn(m.steps, now, events)
        return Transition(m, events)

    def undo(self, side: Colour, now: float = 0.0) -> Transition:
        """Take back the last step of this turn."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("undo", "move")
        self._need_turn(side, "undo")
        if not self.steps:
            raise self._fail(f"{side} has no step to undo this turn", "nothing_to_undo")
        steps = self.steps[:-1]
        partial = self.position
        for s in steps:
            partial = partial.after(s)
        return Transition(replace(self, steps=steps, partial=partial), (Undone(side, self.steps[-1]),))

    def _whole_move(self, side: Colour, move: Move, action: str) -> tuple[Step, ...]:
        """The steps that play `move`, a whole legal move of the side on turn before any
        single step (MatchStateError naming why not)."""
        self._need_phase(action, "move")
        self._need_turn(side, "move")
        assert self.dice is not None
        if self.steps:
            raise self._fail(f"{side} has already moved checkers this turn: finish with steps or undo them",
                             "steps_played")
        if any(x is move for x in self.legal_moves()):  # one of ours: legal by construction
            return move.steps
        legal = self._cached("results", lambda: {x.result: x for x in self.legal_moves()})
        found = legal.get(move.result)
        if found is None:
            raise self._fail(f"{side} cannot play {move.notation} with {self.dice[0]}-{self.dice[1]}: not a legal move",
                             "illegal_move", notation=move.notation, dice=tuple(self.dice))
        return move.steps if _replays(self.position, move) else found.steps

    def play(self, side: Colour, move: Move, now: float = 0.0) -> Transition:
        """Play a whole legal move at once (a typed move, the computer's); ends the turn in
        either confirm mode. Not after single steps: finish or undo those."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        return self._end_turn(self._whole_move(side, move, "play a move"), now, ())

    def choose(self, side: Colour, move: Move, now: float = 0.0) -> Transition:
        """The move is decided (the computer's, a remote player's) but not yet on the
        board: the mover's action ends as a completed move (the timer's bank grows as for
        any move) and no clock runs until ``play`` carries it out."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        steps = self._whole_move(side, move, "choose a move")
        assert self.dice is not None
        clock = None if self.clock is None else self.clock.finish(now, moved=True)
        return Transition(replace(self, clock=clock), (MoveChosen(side, self.dice, steps),))

    def done(self, side: Colour, now: float = 0.0) -> Transition:
        """Confirm a complete move (confirm mode ``button``): the turn ends."""
        side = _check_side(side)
        if (t := self._timed_out(now)) is not None:
            return t
        self._need_phase("confirm a move", "move")
        self._need_turn(side, "confirm a move")
        if not self.move_complete:
            raise self._fail(f"{side} cannot end the turn: the move is not complete", "move_incomplete")
        return self._end_turn(self.steps, now, ())

    def rematch(self, side: Colour, now: float = 0.0) -> Transition:
        """After the match: offer a rematch, or accept the other side's offer, which starts
        a new match with the colours swapped."""
        side = _check_side(side)
        self._need_phase("ask for a rematch", "over")
        if self.rematch_offer == side:
            raise self._fail(f"{side} has already offered a rematch; {other(side)} must answer", "answers_rematch",
                             side=other(side))
        if self.rematch_offer is None:
            return Transition(replace(self, rematch_offer=side), (RematchOffered(side),))
        settings = self.settings.swapped()
        return Transition(Match.new(settings), (RematchStarted(settings.player_name("white"), settings.player_name("black")),))


def _replays(position: Position, move: Move) -> bool:
    """Whether `move.steps` really lead from `position` to `move.result` (steps given by a
    caller are kept in the history only when they are true)."""
    at = position
    try:
        for s in move.steps:
            if s.frm == 25:
                if not at.mine[BAR]:
                    return False
            elif not 1 <= s.frm <= 24 or not at.mine[s.frm - 1]:
                return False
            at = at.after(s)
    except (IndexError, ValueError):
        return False
    return at == move.result

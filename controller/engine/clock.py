"""Match clocks as pure values driven by the times the caller passes in.

Two modes (RULES.md "Timer"):

- :class:`SeedsTimer`, the online sites' timer of the seeds: every action (a roll, a move,
  a cube or resignation decision) has 15 s that run first; then the player's bank runs.
  The bank starts at 20 s; after each completed move it grows by 5 s x the unused share of
  the 15 s (5 x unused / 15), capped at 2 min. It warns when it runs and is near zero
  (<= 10 s); a bank that reaches zero loses the match.
- :class:`TournamentClock`, the US/UK tournament clock: each player has a reserve of
  2 min per match point, minus 1 min per point already scored by either player when the
  clock is set (so a clock set on a match resumed at 3-2 of 7 holds 14 - 5 = 9 min);
  each time a player's clock is started (the opponent hits the clock after every play and
  every cube action) a simple delay of 12 s runs before the reserve does. Out of reserve
  loses the match.

Times are seconds from any monotonic origin the caller chooses (floats). Nothing here
reads a clock: the match state machine passes ``now`` with every command, and the
application passes the loop's time when it ticks. Both clocks have the same small
interface, so the match does not care which one it holds:

- ``begin(side, now)``: ``side`` starts a new action. The timer gives every action a
  fresh 15 s (so a roll then a move are two actions); the tournament clock only restarts
  its delay when the clock is hit, i.e. when the running side changes.
- ``finish(now, moved=False)``: the running side's action is over and nobody's time runs
  (``moved=True`` after a completed move: the timer's bank grows).
- ``resume(side, now, used)``: ``side`` takes up an interrupted action (its declined
  resignation offer) with what was left of its allowance, not a fresh one.
- ``reading(now)``, ``expired(now)``, ``expires_at()``: what to show and when time runs out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Self

from controller.engine.board_view import Colour
from controller.json_value import JsonObject

ClockMode = Literal["off", "timer", "tournament"]
CLOCK_MODES: tuple[str, ...] = ("off", "timer", "tournament")

#: the seeds' timer
ACTION_SECONDS = 15.0
BANK_START = 20.0
BANK_CAP = 120.0
BANK_GROWTH = 5.0
#: both clocks warn when the time that runs out is at or below this
WARN_SECONDS = 10.0
#: the tournament clock
RESERVE_PER_POINT = 120.0
RESERVE_LESS_PER_SCORED = 60.0
DELAY_SECONDS = 12.0


@dataclass(frozen=True, slots=True)
class SideReading:
    """One player's time as shown: ``allowance`` is what is left of the 15 s action timer
    (timer) or of the 12 s delay (tournament) while this side runs (0 otherwise);
    ``bank`` is the bank (timer) or the reserve (tournament)."""

    allowance: float
    bank: float


@dataclass(frozen=True, slots=True)
class ClockReading:
    """What a display shows of a clock at one moment."""

    mode: str
    running: Colour | None
    white: SideReading
    black: SideReading
    warning: bool
    expired: Colour | None

    def side(self, colour: Colour) -> SideReading:
        return self.white if colour == "white" else self.black


def _index(side: Colour) -> int:
    return 0 if side == "white" else 1


def _check_time(now: float, since: float) -> None:
    if now < since:
        raise ValueError(f"time went backwards: {now} is before {since}")


class _RunningClock:
    """What both clocks share: each side keeps time at rest (`_store`: the timer's banks,
    the tournament clock's reserves); while a side runs, an allowance (`ALLOWANCE`: the
    15 s action timer, the 12 s delay) is used first, then its stored time."""

    __slots__ = ()
    ALLOWANCE: ClassVar[float]
    mode: ClassVar[str]
    running: Colour | None
    since: float

    @property
    def _store(self) -> tuple[float, float]:
        raise NotImplementedError

    def _used(self, now: float) -> float:
        _check_time(now, self.since)
        return now - self.since

    def _left(self, side: Colour, now: float) -> float:
        """`side`'s stored time at `now` (never below 0)."""
        left = self._store[_index(side)]
        if self.running == side:
            left -= max(0.0, self._used(now) - self.ALLOWANCE)
        return max(0.0, left)

    def restart(self, now: float) -> Self:
        """The same clock on a new time origin (after resuming a saved match the
        program's clock starts again): the running side's action starts afresh at `now`,
        the time lost while the program was down is charged to nobody."""
        return type(self)(self._store, self.running, now)  # type: ignore[call-arg]

    def resume(self, side: Colour, now: float, used: float) -> Self:
        """`side` takes up again an action it had used `used` seconds of (after its
        resignation offer was declined): the running side is charged as by ``begin``, and
        `side` gets what was left of its allowance, not a fresh one."""
        begun = self.begin(side, now)  # type: ignore[attr-defined]
        return type(self)(begun._store, side, now - min(max(0.0, used), self.ALLOWANCE))  # type: ignore[call-arg]

    def used(self, side: Colour, now: float) -> float:
        """Seconds `side`'s current action has run (0 when `side` is not running)."""
        return self._used(now) if self.running == side else 0.0

    def expires_at(self) -> float | None:
        """When the running side's time runs out (None when nothing runs)."""
        if self.running is None:
            return None
        return self.since + self.ALLOWANCE + self._store[_index(self.running)]

    def expired(self, now: float) -> Colour | None:
        """The side whose time has run out at `now`, if any."""
        at = self.expires_at()
        if at is not None and now >= at:
            return self.running
        return None

    def reading(self, now: float) -> ClockReading:
        sides = []
        for colour in ("white", "black"):
            allowance = 0.0
            if self.running == colour:
                allowance = max(0.0, self.ALLOWANCE - self._used(now))
            sides.append(SideReading(allowance, self._left(colour, now)))
        warning = (self.running is not None and sides[_index(self.running)].allowance == 0.0
                   and sides[_index(self.running)].bank <= WARN_SECONDS)
        return ClockReading(self.mode, self.running, sides[0], sides[1], warning, self.expired(now))


@dataclass(frozen=True, slots=True)
class SeedsTimer(_RunningClock):
    """The seeds' move timer plus bank; ``banks`` are (white, black) seconds at rest."""

    banks: tuple[float, float] = (BANK_START, BANK_START)
    running: Colour | None = None
    since: float = 0.0

    mode: ClassVar[str] = "timer"
    ALLOWANCE: ClassVar[float] = ACTION_SECONDS

    @property
    def _store(self) -> tuple[float, float]:
        return self.banks

    def bank(self, side: Colour, now: float) -> float:
        """The bank of `side` at `now` (never below 0)."""
        return self._left(side, now)

    def _charged(self, now: float, moved: bool) -> tuple[float, float]:
        if self.running is None:
            return self.banks
        used = self._used(now)
        bank = self.banks[_index(self.running)] - max(0.0, used - ACTION_SECONDS)
        if bank > 0 and moved:
            bank = min(BANK_CAP, bank + BANK_GROWTH * max(0.0, ACTION_SECONDS - used) / ACTION_SECONDS)
        banks = list(self.banks)
        banks[_index(self.running)] = max(0.0, bank)
        return banks[0], banks[1]

    def begin(self, side: Colour, now: float) -> SeedsTimer:
        """`side` starts a new action with a fresh 15 s (the running side is charged)."""
        return SeedsTimer(self._charged(now, False), side, now)

    def finish(self, now: float, moved: bool = False) -> SeedsTimer:
        """The running action ends; after a completed move (`moved`) the bank grows."""
        return SeedsTimer(self._charged(now, moved), None, now)

    def to_dict(self) -> JsonObject:
        return {"mode": "timer", "banks": list(self.banks), "running": self.running, "since": self.since}


@dataclass(frozen=True, slots=True)
class TournamentClock(_RunningClock):
    """A chess-style clock with a simple delay; ``reserves`` are (white, black) at rest."""

    reserves: tuple[float, float]
    running: Colour | None = None
    since: float = 0.0

    mode: ClassVar[str] = "tournament"
    ALLOWANCE: ClassVar[float] = DELAY_SECONDS

    @property
    def _store(self) -> tuple[float, float]:
        return self.reserves

    @classmethod
    def new(cls, length: int, score: tuple[int, int] = (0, 0), minutes: int | None = None) -> TournamentClock:
        """A clock set for a match to `length` at `score` (white, black): 2 min per match
        point minus 1 min per point already scored by either player (never below 1 min),
        or `minutes` each when the match's director chose them."""
        reserve = max(60.0, RESERVE_PER_POINT * length - RESERVE_LESS_PER_SCORED * sum(score))
        return cls((reserve, reserve) if minutes is None else (60.0 * minutes, 60.0 * minutes))

    def reserve(self, side: Colour, now: float) -> float:
        """The reserve of `side` at `now` (never below 0)."""
        return self._left(side, now)

    def _charged(self, now: float) -> tuple[float, float]:
        if self.running is None:
            return self.reserves
        reserves = list(self.reserves)
        reserves[_index(self.running)] = self.reserve(self.running, now)
        return reserves[0], reserves[1]

    def begin(self, side: Colour, now: float) -> TournamentClock:
        """Hit the clock so that `side`'s runs (a fresh 12 s delay); if `side`'s clock
        already runs nothing changes (rolling is not a clock hit)."""
        if self.running == side:
            _check_time(now, self.since)
            return self
        return TournamentClock(self._charged(now), side, now)

    def finish(self, now: float, moved: bool = False) -> TournamentClock:
        """Stop both clocks (after the last play of a game, or to pause)."""
        return TournamentClock(self._charged(now), None, now)

    def to_dict(self) -> JsonObject:
        return {"mode": "tournament", "reserves": list(self.reserves), "running": self.running,
                "since": self.since}


Clock = SeedsTimer | TournamentClock


def make_clock(mode: str, length: int, score: tuple[int, int] = (0, 0), minutes: int | None = None) -> Clock | None:
    """The clock of a clock mode (`off` gives None; a tournament clock of `minutes` each,
    when given); raises ValueError for another mode."""
    if mode == "off":
        return None
    if mode == "timer":
        return SeedsTimer()
    if mode == "tournament":
        return TournamentClock.new(length, score, minutes)
    raise ValueError(f"unknown clock mode {mode!r}: choose one of {', '.join(CLOCK_MODES)}")


def clock_from_dict(data: JsonObject | None) -> Clock | None:
    """Rebuild a clock saved with ``to_dict()`` (None stays None)."""
    if data is None:
        return None
    running = data.get("running")
    if running not in (None, "white", "black"):
        raise ValueError(f"bad running side {running!r} in a saved clock")
    since = _seconds(data["since"])
    if data.get("mode") == "timer":
        return SeedsTimer(_pair(data["banks"]), running, since)
    if data.get("mode") == "tournament":
        return TournamentClock(_pair(data["reserves"]), running, since)
    raise ValueError(f"unknown saved clock mode {data.get('mode')!r}")


def _seconds(value: object) -> float:
    """A saved number of seconds (JSON's int or float, or a numeric string as `float` reads)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"bad seconds {str(value)[:20]!r} in a saved clock")
    return float(value)


def _pair(value: object) -> tuple[float, float]:
    """White's and black's seconds, saved as a list of two."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"bad seconds {str(value)[:20]!r} in a saved clock: white's and black's")
    return _seconds(value[0]), _seconds(value[1])


__all__ = [
    "ACTION_SECONDS",
    "BANK_CAP",
    "BANK_GROWTH",
    "BANK_START",
    "CLOCK_MODES",
    "DELAY_SECONDS",
    "WARN_SECONDS",
    "Clock",
    "ClockReading",
    "SeedsTimer",
    "SideReading",
    "TournamentClock",
    "clock_from_dict",
    "make_clock",
]

"""The table's dice as one frozen value, and where each roll comes from: a `DiceSource`
chosen by name.

`DiceState` is the dice's part of the table's state (controller.play.table_state): the
source's name (`mode`), the verifiable secret, rolls queued, the count of verifiable opening
rolls shown, the random generator's state and whether the server was asked for a roll. Every
change gives a new value: `draw(match)` returns the roll and the dice after it, so the next
random roll is a fact of the state too and the table is a function of it. Where the rolls
come from is the source's, looked up by name in `SOURCES`:

- ``board``: queued rolls first (a scenario script's `dice` lines), then the generator
  (the operating system's, ``random.SystemRandom``, when the state holds none: the one roll
  that is not a function of the state);
- ``entered``: queued rolls only; with none queued `DiceNeeded`, and the table asks the
  player for the real dice;
- ``verifiable``: the roll derived from the match's committed seed
  (``controller/dice/verifiable.py``); nothing can be queued. Once the seed is revealed
  before the match is over, the rest of the match rolls as ``board`` does;
- ``server``: online the server rolls: the roll it sent (`delivered`), else `DiceNeeded`
  and `asked` counts that the person wants to roll (the online seat sends ``roll``).

A new source is one class with the four methods of `DiceSource` and its entry in `SOURCES`
(and its name in `DiceMode`).
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, get_args

from controller.dice.secret import DiceSecret
from controller.dice.verifiable import PHRASE_MAX, SEED_BYTES, derive_roll, opening_roll, phrase_problem
from controller.engine.board_view import Colour
from controller.engine.dice import check_dice
from controller.engine.errors import InvalidDiceError
from controller.engine.match import Match
from controller.engine.match_history import TurnRecord
from controller.errors import BgboardError

Dice = tuple[int, int]
#: where the rolls come from: the match settings name the first three, online play the fourth
DiceMode = Literal["board", "entered", "verifiable", "server"]
DICE_SOURCES: tuple[DiceMode, ...] = get_args(DiceMode)


class DiceError(BgboardError, ValueError):
    """A dice request the current setting does not allow (one line saying why); `key` and
    `params` name the reason for the players (`refused.<key>` in controller.show.texts)."""

    def __init__(self, message: str, key: str = "not_now", **params: int) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class DiceNeeded(DiceError):
    """No roll to give yet: entered dice wait for the player, server dice for the server.
    `dice` is the dice after asking (the server's source counts the ask)."""

    def __init__(self, message: str, dice: DiceState) -> None:
        super().__init__(message)
        self.dice = dice


def next_roll_number(match: Match, key: bytes) -> int:
    """The number of the next roll of the match's current game after its opening roll
    (README step 4): the opening's own number plus the rolls played since."""
    game = match.history[-1]
    turns = [a for a in game.actions if isinstance(a, TurnRecord)]
    if not turns:
        return 0
    start = opening_roll(key, match.game)[0] if turns[0].opening else 0
    return start + len(turns)


def rolls_made(match: Match) -> int:
    """The rolls of the match so far as its record counts them: every turn played, and
    the roll of the turn being played (opening ties are not recorded, so not counted)."""
    played = sum(isinstance(a, TurnRecord) for game in match.history for a in game.actions)
    return played + (1 if match.phase in ("move", "resigning") and match.dice is not None else 0)


@dataclass(frozen=True)
class DiceState:
    """The table's dice (see the module docstring). `rng` is the random generator's state
    (None: the operating system's source, which has none); `ties` is (game, verifiable
    opening rolls shown in it); `entropy` draws a new verifiable seed (not compared: a
    function, the operating system's unless a test gives its own)."""

    mode: DiceMode = "board"
    secret: DiceSecret | None = None
    queue: tuple[Dice, ...] = ()
    ties: tuple[int, int] = (0, 0)
    rng: tuple[object, ...] | None = None
    asked: int = 0
    entropy: Callable[[int], bytes] = field(default=os.urandom, compare=False, repr=False)

    @classmethod
    def seeded(cls, rng: random.Random | None = None, entropy: Callable[[int], bytes] = os.urandom) -> DiceState:
        """Board dice rolling from `rng`'s state (None or a ``SystemRandom``: the system's)."""
        state = None if rng is None or isinstance(rng, random.SystemRandom) else tuple(rng.getstate())
        return cls(rng=state, entropy=entropy)

    @property
    def source(self) -> DiceSource:
        return SOURCES[self.mode]

    @property
    def entered(self) -> bool:
        return self.mode == "entered"

    @property
    def from_seed(self) -> bool:
        """The next roll comes from the committed seed (verifiable dice, not ended by a reveal)."""
        return self.mode == "verifiable" and not (self.secret is not None and self.secret.ended)

    # -- the match --------------------------------------------------------------------
    def adopt(self, match: Match, secret: DiceSecret | None = None) -> DiceState:
        """Dice for `match` (new or resumed, with its saved secret): its setting decides the
        source (the server's stays the server's); a verifiable match without a secret gets
        a fresh one."""
        mode: DiceMode = "server" if self.mode == "server" else _match_mode(match)
        dice = replace(self, mode=mode, ties=(0, 0))
        if mode != "verifiable":
            return replace(dice, secret=None)
        if secret is not None:
            return replace(dice, secret=secret)
        return dice if dice.secret is not None else replace(dice, secret=DiceSecret(self.entropy(SEED_BYTES)))

    def begin(self, match: Match) -> DiceState:
        """A new match (or rematch): a verifiable one gets a new seed and no phrases."""
        return replace(self, secret=None).adopt(match)

    # -- rolls ------------------------------------------------------------------------
    def push(self, roll: Dice) -> DiceState:
        """The next roll queued (a script's `dice` line, real dice keyed in); a die that is
        not 1-6, or a source nobody may choose a roll of, raises DiceError and queues nothing."""
        try:
            roll = check_dice(roll)
        except InvalidDiceError as exc:
            raise DiceError(str(exc), "bad_dice") from None
        return self.source.queue(self, roll)

    def draw(self, match: Match) -> tuple[Dice, DiceState]:
        """The next roll of `match` (opening: White's die, then Black's) and the dice after
        it; DiceNeeded when there is none yet."""
        return self.source.draw(self, match)

    def delivered(self, roll: Dice) -> DiceState:
        """The server's roll: the one the next roll gives (server dice only)."""
        if self.mode != "server":
            raise DiceError("only online play's server delivers rolls", "not_now")
        return replace(self, queue=(check_dice(roll),))

    def drawn_randomly(self) -> tuple[Dice, DiceState]:
        """A roll of the generator (the system's when the state holds none)."""
        if self.rng is None:
            system = random.SystemRandom()
            return (system.randint(1, 6), system.randint(1, 6)), self
        rng = random.Random()
        rng.setstate(self.rng)
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        return roll, replace(self, rng=tuple(rng.getstate()))

    def drawn_from_queue(self) -> tuple[Dice, DiceState] | None:
        return (self.queue[0], replace(self, queue=self.queue[1:])) if self.queue else None

    # -- phrases and reveal ----------------------------------------------------------------
    def with_phrase(self, side: Colour, phrase: str, match: Match) -> DiceState:
        """A player's phrase, mixed into the dice; only before the match's first roll."""
        if self.mode != "verifiable" or self.secret is None:
            raise DiceError("a dice phrase needs verifiable dice (match setting dice = verifiable)",
                            "phrase_needs_verifiable")
        if self.secret.revealed:
            raise DiceError("the dice seed is revealed: a phrase would change nothing now", "phrase_revealed")
        if match.settings.is_computer(side):
            raise DiceError(f"{side} is the computer: only a person's phrase keeps the board from choosing the dice",
                            "phrase_computer")
        if match.game != 1 or match.phase != "opening" or any(
                isinstance(a, TurnRecord) for a in match.history[-1].actions) or self.ties[1]:
            raise DiceError("the dice phrases are fixed once the first roll is made", "phrase_fixed")
        problem = phrase_problem(phrase)
        if problem is not None:
            raise DiceError(problem, "bad_phrase", n=PHRASE_MAX)
        return replace(self, secret=self.secret.with_phrase(side, phrase))

    def revealed(self, match: Match | None = None) -> DiceState | None:
        """The seed revealed (into the record and on the page); None if already revealed
        or there is none. Revealed while `match` goes on, the seed has given its last roll:
        the rolls made so far (the one being played included) stay verifiable, the rest
        of the match rolls ordinary dice (the module docstring)."""
        if self.secret is None or self.secret.revealed:
            return None
        going_on = match is not None and not match.is_over
        return replace(self, secret=self.secret.revealed_now(rolls_made(match) if going_on and match else None))

    def record_tags(self) -> tuple[tuple[str, str], ...]:
        """The record's `; [Dice ...]` tags: the setting, and the commitment and (once
        revealed) the seed and phrases of verifiable dice."""
        tags: tuple[tuple[str, str], ...] = (("Dice", self.mode),)
        return tags + (self.secret.record_tags() if self.secret is not None else ())


def _match_mode(match: Match) -> DiceMode:
    mode = match.settings.dice
    return mode if mode in ("board", "entered", "verifiable") else "board"  # type: ignore[return-value]


class DiceSource(Protocol):
    """Where the rolls of one dice setting come from (see the module docstring)."""

    def queue(self, dice: DiceState, roll: Dice) -> DiceState:
        """`roll` queued as the next (DiceError: nobody may choose this source's rolls)."""

    def draw(self, dice: DiceState, match: Match) -> tuple[Dice, DiceState]:
        """The next roll of `match` and the dice after it (DiceNeeded: none yet)."""


class BoardDice:
    """The board's random dice: queued rolls first, then the generator."""

    def queue(self, dice: DiceState, roll: Dice) -> DiceState:
        return replace(dice, queue=dice.queue + (roll,))

    def draw(self, dice: DiceState, match: Match) -> tuple[Dice, DiceState]:
        return dice.drawn_from_queue() or dice.drawn_randomly()


class EnteredDice(BoardDice):
    """Real dice keyed in: queued rolls only."""

    def draw(self, dice: DiceState, match: Match) -> tuple[Dice, DiceState]:
        found = dice.drawn_from_queue()
        if found is None:
            raise DiceNeeded("enter the dice first: roll the real dice and key them in", dice)
        return found


class VerifiableDice(BoardDice):
    """The committed seed's rolls; once the seed is revealed early, the board's dice."""

    def queue(self, dice: DiceState, roll: Dice) -> DiceState:
        if dice.from_seed:
            raise DiceError("the dice are verifiable in this match: nobody can choose a roll", "dice_verifiable")
        return super().queue(dice, roll)

    def draw(self, dice: DiceState, match: Match) -> tuple[Dice, DiceState]:
        if not dice.from_seed or dice.secret is None:
            return super().draw(dice, match)
        key = dice.secret.key
        if match.phase != "opening":
            return derive_roll(key, match.game, next_roll_number(match, key)), dice
        game, shown = dice.ties
        shown = shown if game == match.game else 0
        return derive_roll(key, match.game, shown), replace(dice, ties=(match.game, shown + 1))


class ServerDice:
    """Online the server rolls: the roll it delivered, else the ask is counted."""

    def queue(self, dice: DiceState, roll: Dice) -> DiceState:
        raise DiceError("online the server rolls the dice", "dice_server")

    def draw(self, dice: DiceState, match: Match) -> tuple[Dice, DiceState]:
        found = dice.drawn_from_queue()
        if found is None:
            raise DiceNeeded("the server rolls the dice", replace(dice, asked=dice.asked + 1))
        return found


#: every dice source by the name a match setting (or online play) gives it
SOURCES: dict[DiceMode, DiceSource] = {
    "board": BoardDice(), "entered": EnteredDice(), "verifiable": VerifiableDice(), "server": ServerDice()}

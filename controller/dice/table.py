"""The table's dice: where each roll comes from, for the three `dice` settings.

`TableDice.roll(match)` gives the next roll of `match`:

- ``board``: queued rolls first (a scenario script's `dice` lines, dice entered from the
  menu), then the injected random source (``random.SystemRandom`` unless a test seeds
  one);
- ``entered``: queued rolls only; with none queued it raises :class:`DiceNeeded` and the
  controller asks the player for the real dice;
- ``verifiable``: the roll derived from the match's committed seed
  (``controller/dice/verifiable.py``); nothing can be queued. Once the seed is revealed
  before the match is over, the rest of the match rolls as ``board`` does: the seed's
  next rolls are known to anyone who read it, so they can no longer be the match's dice.

The verifiable roll's number is counted from the match itself (rolls in the current game's
history, the opening roll's number from the seed), so a match resumed from its save goes on
with the same sequence; only the count of opening ties shown is kept here, in memory.
"""
from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Callable

from controller.dice.secret import DiceSecret
from controller.dice.verifiable import PHRASE_MAX, SEED_BYTES, derive_roll, opening_roll, phrase_problem
from controller.engine.board_view import Colour
from controller.engine.dice import check_dice
from controller.engine.errors import InvalidDiceError
from controller.engine.match import Match
from controller.engine.match_history import TurnRecord
from controller.errors import BgboardError

Dice = tuple[int, int]


class DiceError(BgboardError, ValueError):
    """A dice request the current setting does not allow (one line saying why); `key` and
    `params` name the reason for the players (`refused.<key>` in controller.show.texts)."""

    def __init__(self, message: str, key: str = "not_now", **params: int) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class DiceNeeded(DiceError):
    """Entered dice: the player must enter the roll first."""


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


class TableDice:
    """The dice of one table (see the module docstring)."""

    def __init__(self, rng: random.Random | None = None,
                 entropy: Callable[[int], bytes] = os.urandom) -> None:
        self.rng = rng or random.SystemRandom()
        self.entropy = entropy
        self.queue: deque[Dice] = deque()
        self.mode = "board"
        self.secret: DiceSecret | None = None
        self._ties: tuple[int, int] = (0, 0)  # (game, opening rolls shown in it)

    # -- the match --------------------------------------------------------------------
    def adopt(self, match: Match, secret: DiceSecret | None = None) -> None:
        """Play `match` (new or resumed, with its saved secret): its setting decides; a
        verifiable match without a secret gets a fresh one."""
        self.mode = match.settings.dice
        self._ties = (0, 0)
        if self.mode != "verifiable":
            self.secret = None
        elif secret is not None:
            self.secret = secret
        elif self.secret is None:
            self.secret = DiceSecret(self.entropy(SEED_BYTES))

    def begin(self, match: Match) -> None:
        """A new match (or rematch): a verifiable one gets a new seed and no phrases."""
        self.secret = None
        self.adopt(match)

    # -- rolls ------------------------------------------------------------------------
    @property
    def from_seed(self) -> bool:
        """The next roll comes from the committed seed (verifiable dice, not ended by a reveal)."""
        return self.mode == "verifiable" and not (self.secret is not None and self.secret.ended)

    def push(self, dice: Dice) -> None:
        """Queue the next roll (a script's `dice` line, dice entered from real dice); a die
        that is not 1-6 is refused here, before anything is queued, said or rolled."""
        if self.from_seed:
            raise DiceError("the dice are verifiable in this match: nobody can choose a roll", "dice_verifiable")
        try:
            self.queue.append(check_dice(dice))
        except InvalidDiceError as exc:
            raise DiceError(str(exc), "bad_dice") from None

    def roll(self, match: Match) -> Dice:
        """The next roll of `match` (opening: White's die, then Black's)."""
        if self.from_seed:
            assert self.secret is not None
            return self._derived(match, self.secret.key)
        if self.queue:
            return self.queue.popleft()
        if self.mode == "entered":
            raise DiceNeeded("enter the dice first: roll the real dice and key them in")
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def _derived(self, match: Match, key: bytes) -> Dice:
        if match.phase == "opening":
            game, shown = self._ties
            shown = shown if game == match.game else 0
            self._ties = (match.game, shown + 1)
            return derive_roll(key, match.game, shown)
        return derive_roll(key, match.game, next_roll_number(match, key))

    @property
    def entered(self) -> bool:
        return self.mode == "entered"

    # -- as a value (controller.play.table_state.DiceReading) -------------------------------
    @property
    def ties(self) -> tuple[int, int]:
        """(game, opening rolls shown in it): which verifiable opening roll comes next."""
        return self._ties

    def rng_state(self) -> tuple[object, ...] | None:
        """The random generator's state (a hashable tuple: the same state gives the same
        rolls), or None for the operating system's source, which has none to copy."""
        if isinstance(self.rng, random.SystemRandom):
            return None
        return tuple(self.rng.getstate())

    @classmethod
    def restored(cls, mode: str, secret: DiceSecret | None, queued: tuple[Dice, ...], ties: tuple[int, int],
                 rng_state: tuple[object, ...] | None) -> TableDice:
        """Dice standing exactly as these facts say (a controller rebuilt from its state);
        with no generator state they roll from the operating system's source."""
        rng: random.Random | None = None
        if rng_state is not None:
            rng = random.Random()
            rng.setstate(rng_state)
        dice = cls(rng)
        dice.mode, dice.secret, dice._ties = mode, secret, ties
        dice.queue.extend(queued)
        return dice

    # -- phrases and reveal ----------------------------------------------------------------
    def set_phrase(self, side: Colour, phrase: str, match: Match) -> None:
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
                isinstance(a, TurnRecord) for a in match.history[-1].actions) or self._ties[1]:
            raise DiceError("the dice phrases are fixed once the first roll is made", "phrase_fixed")
        problem = phrase_problem(phrase)
        if problem is not None:
            raise DiceError(problem, "bad_phrase", n=PHRASE_MAX)
        self.secret = self.secret.with_phrase(side, phrase)

    def reveal(self, match: Match | None = None) -> bool:
        """Reveal the seed (into the record and on the page); False if already revealed
        or there is none. Revealed while `match` goes on, the seed has given its last roll:
        the rolls made so far (the one being played included) stay verifiable, the rest
        of the match rolls ordinary dice (the module docstring)."""
        if self.secret is None or self.secret.revealed:
            return False
        going_on = match is not None and not match.is_over
        self.secret = self.secret.revealed_now(rolls_made(match) if going_on and match is not None else None)
        return True

    def record_tags(self) -> tuple[tuple[str, str], ...]:
        """The record's `; [Dice ...]` tags: the setting, and the commitment and (once
        revealed) the seed and phrases of verifiable dice."""
        tags: tuple[tuple[str, str], ...] = (("Dice", self.mode),)
        return tags + (self.secret.record_tags() if self.secret is not None else ())

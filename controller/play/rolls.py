"""The dice at the table: drawing a roll, real dice keyed in, a dice phrase, the seed's
reveal. One job of the controller.

The dice themselves (random, verifiable, entered or the server's) are controller.dice's
`TableDice`; this job owns the table's `TableDice` for the match being played (another
seating brings its own: `seat`) and turns the players' dice events into rolls of the
match. A roll that waits for real dice opens the menu on the dice's entry.

The job has no state of its own besides the dice; `TableDice` is an owned, mutable
resource (a random generator, the dice keyed in, the verifiable secret), not a frozen
slice: the table's state holds a copy of its facts (table_state.DiceReading).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.dice import DiceError, DiceNeeded, TableDice
from controller.engine.board_view import Colour
from controller.engine.match import Match, Transition
from controller.engine.match_settings import HUMAN
from controller.events import Announce, Buzz, Effect, Refused
from controller.play.seat import MatchSeat
from controller.play.table_menu import TableMenu


class RollSeat(MatchSeat, Protocol):
    """What the dice read of the table."""

    @property
    def menu_job(self) -> TableMenu: ...
    def player(self, side: Colour) -> str: ...


Apply = Callable[[Callable[[Match], Transition], list[Effect]], bool]
Act = Callable[[Colour, str, "str | None", list[Effect]], None]


class Rolls:
    """The table's dice and the rolls made with them (see the module docstring). `apply`
    runs a match command, `act` a player's checked action, `save` saves the match (the dice's
    secret changed)."""

    def __init__(self, seat: RollSeat, dice: TableDice, *, apply: Apply, act: Act,
                 save: Callable[[list[Effect]], None]) -> None:
        self._seat, self._dice = seat, dice
        self._apply, self._act, self._save = apply, act, save

    @property
    def dice(self) -> TableDice:
        return self._dice

    def seat(self, dice: TableDice) -> None:
        """Another seating's dice (online play taking the table or leaving it)."""
        self._dice = dice

    def roll(self, side: Colour, out: list[Effect]) -> None:
        """`side` rolls (the match checks that it may)."""
        dice = self._draw(side, out)
        if dice is not None:
            now = self._seat.now
            self._apply(lambda mm: mm.roll(side, dice, now), out)

    def _draw(self, side: Colour, out: list[Effect]) -> tuple[int, int] | None:
        """The next roll; with entered dice and none keyed in yet, None and the menu asks
        `side` for them (at the opening, White's die then Black's)."""
        match = self._seat.match
        try:
            return self._dice.roll(match)
        except DiceNeeded as exc:
            if self._dice.entered:  # real dice to key in (online, the server sends them)
                self._seat.menu_job.ask_dice(side, match.phase == "opening")
            out.append(Announce(f"waiting: {exc}"))
            return None

    def entered(self, side: Colour, dice: tuple[int, int], out: list[Effect]) -> None:
        """Real dice keyed in (menu or page): queued, then rolled for whoever rolls now."""
        seat, m = self._seat, self._seat.match
        if m.phase not in ("opening", "roll"):
            out.append(Refused.of("dice can be entered only before a roll", "dice_not_now"))
            out.append(Buzz("error"))
            return
        try:
            self._dice.push(dice)
        except DiceError as exc:
            out.append(Refused.from_error(exc))
            out.append(Buzz("error"))
            return
        seat.menu_job.close()
        out.append(Announce(f"dice entered: {dice[0]}-{dice[1]}"))
        roller = side if m.phase == "opening" else (m.turn or side)
        if seat.player(roller) == HUMAN or m.phase == "opening":
            self._act(roller, "roll", None, out)
        elif not seat.setting_up:
            self.roll(roller, out)  # the computer's roll, made with real dice for it
        self._dice.queue.clear()  # a roll refused (the board not right) does not keep them

    def phrase(self, side: Colour, phrase: str, out: list[Effect]) -> None:
        """A player's dice phrase (verifiable dice): part of the seed, said before it is used."""
        try:
            self._dice.set_phrase(side, phrase, self._seat.match)
        except DiceError as exc:
            out.append(Refused.from_error(exc))
            return
        out.append(Announce(f"{side} gave a dice phrase"))
        self._save(out)

    def reveal(self, out: list[Effect]) -> None:
        """Reveal the verifiable dice's seed on demand (the guarantee ends)."""
        if self._dice.secret is None:
            out.append(Refused.of("this match has no verifiable dice to reveal", "no_secret"))
        elif not self._dice.reveal(self._seat.match):
            out.append(Refused.of("the dice seed is already revealed", "seed_revealed"))
        elif self._dice.secret is not None and self._dice.secret.ended:
            out.append(Announce("dice seed revealed: the rest of the match rolls ordinary dice, no longer verifiable"))
        else:
            out.append(Announce("dice seed revealed: the match is over"))
            self._save(out)

"""The players' actions at the table: checked, refused with the reason, held by the tutor,
or carried out. One job of the controller.

What each player may do now is controller.play.possible's list; an action not on it is
refused with the table's reason (the computer plays that side, the board is not right, a
move is being carried out) or else the match's own. An action the tutor warns about waits
(controller.play.tutor) until the player keeps or undoes it. The job keeps no state of its
own: it reads the table through `ActionSeat` and changes the match through the injected
`apply` (a match command) and `sync` (the steps to a position the board shows).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.engine.board_view import Colour
from controller.engine.errors import MatchStateError
from controller.engine.match import Match, Transition
from controller.engine.match_settings import HUMAN
from controller.engine.position import Position
from controller.events import Announce, Buzz, Effect, Refused
from controller.play import possible
from controller.play.rolls import Apply, Rolls
from controller.play.seat import MatchSeat
from controller.play.tutor import Tutor
from controller.show.content import Scene


class ActionSeat(MatchSeat, Protocol):
    """What the actions read of the table."""

    @property
    def watching(self) -> Scene | None: ...
    @property
    def tutor(self) -> Tutor: ...
    @property
    def rolls(self) -> Rolls: ...
    def board_ready(self) -> bool: ...


def match_command(side: Colour, action: str, level: str | None,
                  now: float) -> Callable[[Match], Transition] | None:
    """The match command of a player's action (None: no such action); a roll here is
    only a probe of whether rolling is allowed (the real dice come from controller.play.rolls)."""
    commands: dict[str, Callable[[Match], Transition]] = {
        "roll": lambda mm: mm.roll(side, (1, 2), now),
        "done": lambda mm: mm.done(side, now),
        "double": lambda mm: mm.double(side, now),
        "take": lambda mm: mm.take(side, now),
        "drop": lambda mm: mm.drop(side, now),
        "accept": lambda mm: mm.accept(side, now),
        "decline": lambda mm: mm.decline(side, now),
        "forfeit": lambda mm: mm.forfeit(side, now),
        "rematch": lambda mm: mm.rematch(side, now),
        "resign": lambda mm: mm.resign(side, level or "single", now),
    }
    return commands.get(action)


class PlayerActions:
    """The players' actions (see the module docstring)."""

    def __init__(self, seat: ActionSeat, *, apply: Apply,
                 sync: Callable[[Position, list[Effect]], None]) -> None:
        self._seat = seat
        self._apply, self._sync = apply, sync

    def button(self, side: Colour, button: str) -> str | None:
        """What a side's main or cube button means at this moment."""
        found = possible.for_button(self.possible(), side, button)
        return None if found is None else found.action

    def act(self, side: Colour, action: str, level: str | None, out: list[Effect],
            by_bot: bool = False) -> None:
        """Carry out a player's action if it is possible now (the computer's own answers
        go straight to the match, which checks them); otherwise refuse it with the reason.
        Revealing the dice's seed is the table's, not the match's: either player may."""
        seat = self._seat
        if action == "reveal":
            seat.rolls.reveal(out)
            return
        if not by_bot and possible.find(self.possible(), side, action, level) is None:
            out.append(self.refusal(side, action, level))
            out.append(Buzz("error"))
            return
        if action in ("keep", "undo"):
            self._answer_tutor(side, action == "keep", out)
            return
        if not by_bot and self._tutor_holds(side, action, out):
            return
        if action == "roll":
            seat.rolls.roll(side, out)
            return
        command = match_command(side, action, level, seat.now)
        if command is None:
            out.append(Refused.of(f"unknown action {action!r}", "unknown_action"))
            return
        self._apply(command, out)

    def _tutor_holds(self, side: Colour, action: str, out: list[Effect]) -> bool:
        """Whether the tutor holds `side`'s roll, double, take or drop back (it loses the
        mark). A roll of real dice keyed in is never held: those dice are already out."""
        seat = self._seat
        if action == "roll" and seat.rolls.dice.entered:
            return False
        held = seat.tutor.cube(seat.match, side, action)
        if held is not None:
            warning = held.warning
            out.append(Announce(f"tutor: {side}'s {action} loses {warning.loss:.3f} ({warning.mark}): keep or undo"))
        return held is not None

    def _answer_tutor(self, side: Colour, keep: bool, out: list[Effect]) -> None:
        """Keep the action the tutor holds (it counts as pressed) or undo it (a cube
        action: nothing happened; a move is undone by moving its checkers back)."""
        seat = self._seat
        held = seat.tutor.hold(seat.match)
        seat.tutor.release()
        if held is None:
            return
        action = held.warning.action
        out.append(Announce(f"{side} {'keeps' if keep else 'takes back'} the {action} the tutor warned about"))
        if not keep:
            return
        if action == "roll":
            seat.rolls.roll(side, out)
        elif not held.is_move:
            command = match_command(side, action, None, seat.now)
            assert command is not None
            self._apply(command, out)
        elif seat.match.move_complete:
            self._apply(lambda mm: mm.done(side, seat.now), out)  # confirm button: done
        elif held.target is not None:
            self._sync(held.target, out)

    def refusal(self, side: Colour, action: str, level: str | None) -> Refused:
        """Why `side` may not `action` now: the table's reason, else the match's own."""
        seat = self._seat
        if action not in possible.ACTION_NAMES:
            return Refused.of(f"unknown action {action!r}", "unknown_action")
        if seat.player(side) != HUMAN:
            return Refused.of(f"{side} is played by the computer", "computer_plays", side=side)
        if seat.bot is not None:
            return Refused.of(f"{side} cannot {action} now: the computer's move is being carried out",
                              "carrying_out")
        if action == "roll" and seat.match.phase in ("opening", "roll") and not seat.board_ready():
            return Refused.of(f"{side} cannot roll: put the board right first", "board_not_ready")
        if action in ("keep", "undo"):
            held = seat.tutor.hold(seat.match)
            if held is not None and held.side == side and held.is_move:
                return Refused.of(f"{side} undoes the move by moving the checkers back", "undo_by_hand")
            return Refused.of(f"{side} cannot {action}: the tutor holds no action of {side}'s", "tutor_holds_none")
        if action == "done" and seat.match.phase == "move" and seat.match.turn == side \
                and seat.match.move_complete:
            return Refused.of(f"{side} cannot end the turn: the board is not right", "board_not_right")
        probe = match_command(side, action, level, seat.now)
        try:
            if probe is not None:
                probe(seat.match)
        except MatchStateError as exc:
            return Refused.from_error(exc)
        return Refused.of(f"{side} cannot {action} now", "not_now")

    def possible(self) -> tuple[possible.PossibleAction, ...]:
        """What each player at the table may do now (controller.play.possible): nothing
        while watching."""
        seat = self._seat
        if seat.watching is not None:
            return ()
        held = seat.tutor.hold(seat.match)
        facts = possible.TableFacts(at_table=lambda side: seat.player(side) == HUMAN,
                                    board_ready=seat.board_ready(),
                                    carrying_out=seat.bot is not None,
                                    held=held.held if held is not None else None)
        return possible.possible_actions(seat.match, facts)

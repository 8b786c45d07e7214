"""The computer's turn (and a remote player's): one job of the controller.

The computer is asked once per state of the match whatever it must decide now (a move,
whether to double, take or accept a resignation, a rematch), as an `AskBot` effect with a
fresh token; its answer (`BotMoved`, `BotCube`) counts only with the token of the last
question, so an answer to a match that has since changed is dropped. A remote player's
action (`RemoteActed`, reported by the server) is carried out the same way. The job keeps
the token and the match last asked about (one frozen `ComputerState`); what an answer does
to the match, the controller's injected callables do.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from controller.engine.board_view import COLOURS, Colour, other
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, REMOTE
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.events import AskBot, BotCube, BotMoved, Effect, Refused, RemoteActed
from controller.play.seat import MatchSeat


class ComputerSeat(MatchSeat, Protocol):
    """What the computer's turn reads of the table."""

    def player(self, side: Colour) -> str: ...


Roll = Callable[[Colour, list[Effect]], None]
Act = Callable[[Colour, str, "str | None", list[Effect]], None]
CarryOut = Callable[[Colour, Move, tuple[Position, ...], list[Effect]], None]


@dataclass(frozen=True)
class ComputerState:
    """The computer's turn's slice of the table's state: the last question's token (an
    answer with another is stale) and the match it asked about (asked once per state)."""

    token: int = 0
    asked: Match | None = None


class ComputerTurn:
    """Questions to the computer and its answers (see the module docstring). `roll` rolls
    for a side, `act` carries out a side's action unchecked (the match checks it),
    `carry_out` has the person carry out a chosen move along its path."""

    def __init__(self, seat: ComputerSeat, *, roll: Roll, act: Act, carry_out: CarryOut) -> None:
        self._seat = seat
        self._roll, self._act, self._carry_out = roll, act, carry_out
        self._state = ComputerState()

    @property
    def state(self) -> ComputerState:
        """The computer's turn's slice of the table's state (a frozen value)."""
        return self._state

    @property
    def token(self) -> int:
        """The last question's token: an answer with another is stale."""
        return self._state.token

    def forget(self) -> None:
        """Another match is played: its first state is asked about again."""
        if self._state.asked is not None:
            self._state = ComputerState(self._state.token, None)

    def ask(self, out: list[Effect]) -> None:
        """Ask the computer whatever it must decide now (once per state)."""
        seat, m = self._seat, self._seat.match
        side = m.turn
        if m.is_over:
            self._ask_rematch(out)
            return
        if side is None or seat.setting_up:
            return
        bot_side = side if seat.player(side) != HUMAN else other(side)
        if seat.player(bot_side) == HUMAN:
            return
        kind: str | None = None
        if m.phase == "move" and side == bot_side and seat.bot is None:
            kind = "move"
        elif m.phase == "roll" and side == bot_side and m.may_double(side):
            kind = "cube"
        elif m.phase == "doubled" and side != bot_side:
            kind = "take"
        elif m.phase == "resigning" and side != bot_side:
            kind = "resign"
        if kind is not None:
            self._ask(kind, bot_side, out)

    def _ask_rematch(self, out: list[Effect]) -> None:
        """After the match (RULES.md "Match"): the computer answers the other side's
        rematch offer, or is asked once whether it offers one itself."""
        seat, m = self._seat, self._seat.match
        if m.rematch_offer is not None:
            side: Colour | None = other(m.rematch_offer)
            kind = "rematch"
        else:
            side = next((s for s in COLOURS if seat.player(s) != HUMAN), None)
            kind = "offer_rematch"
        if side is not None and seat.player(side) != HUMAN:
            self._ask(kind, side, out)

    def _ask(self, kind: str, side: Colour, out: list[Effect]) -> None:
        m = self._seat.match
        if self._state.asked is m:
            return
        self._state = ComputerState(self._state.token + 1, m)
        out.append(AskBot(kind, self.token, side, m))  # type: ignore[arg-type]

    def moved(self, event: BotMoved, out: list[Effect]) -> None:
        """The computer's move, to be carried out on the board."""
        m = self._seat.match
        if event.turn_token != self.token or m.phase != "move" or m.turn is None:
            return
        move = event.move
        if move is None:
            return
        path = [m.position]
        for step in move.steps:
            path.append(path[-1].after(step))
        self._carry_out(m.turn, move, tuple(path), out)

    def cube(self, event: BotCube, out: list[Effect]) -> None:
        """The computer's cube action, answer or roll (or its rematch, after the match)."""
        m = self._seat.match
        side = m.turn
        if m.is_over and event.side in ("white", "black") and event.turn_token == self.token:
            self._act(event.side, event.action, None, out)  # type: ignore[arg-type]
            return
        if side is None or event.turn_token != self.token:
            return
        if event.action == "roll":
            self._roll(side, out)
            return
        actor = side if event.action == "double" else other(side)
        self._act(actor, event.action, None, out)

    def remote(self, event: RemoteActed, out: list[Effect]) -> None:
        """The remote player's action, as the server reported it."""
        if self._seat.player(event.side) != REMOTE:
            out.append(Refused.of(f"{event.side} is not a remote player", "not_remote", side=event.side))
        elif event.action == "roll":
            self._roll(event.side, out)
        else:
            self._act(event.side, event.action, event.level, out)

"""The computer's turn (and a remote player's): one job of the controller.

The computer is asked once per state of the match whatever it must decide now (a move,
whether to double, take or accept a resignation, a rematch), as an `AskBot` effect with a
fresh token; its answer (`BotMoved`, `BotCube`) counts only with the token of the last
question, so an answer to a match that has since changed is dropped. A remote player's
action (`RemoteActed`, reported by the server) is carried out the same way. The job keeps
the token and the match last asked about (one frozen `ComputerState`); an answer is turned
into what the table does with it (a roll, an action), which the table's step carries out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.engine.board_view import COLOURS, Colour, other
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, REMOTE
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.events import AskBot, BotCube, BotMoved, Effect, Refused, RemoteActed

QuestionKind = Literal["move", "cube", "take", "resign", "rematch", "offer_rematch"]


@dataclass(frozen=True)
class ComputerState:
    """The computer's turn's slice of the table's state: the last question's token (an
    answer with another is stale) and the match it asked about (asked once per state)."""

    token: int = 0
    asked: Match | None = None

    def forget(self) -> ComputerState:
        """Another match is played: its first state is asked about again."""
        return self if self.asked is None else ComputerState(self.token, None)


#: what an answer asks the table to do: a side's roll, or a side's action (checked by the match)
Roll = tuple[Literal["roll"], Colour]
Act = tuple[Literal["act"], Colour, str, "str | None"]
Answer = Roll | Act


def ask(computer: ComputerState, match: Match, *, setting_up: bool,
        carrying_out: bool) -> tuple[ComputerState, tuple[Effect, ...]]:
    """Ask the computer whatever it must decide now (once per state)."""
    m, side = match, match.turn
    if m.is_over:
        return _ask_rematch(computer, m)
    if side is None or setting_up:
        return computer, ()
    bot_side = side if m.settings.player(side) != HUMAN else other(side)
    if m.settings.player(bot_side) == HUMAN:
        return computer, ()
    kind: QuestionKind | None = None
    if m.phase == "move" and side == bot_side and not carrying_out:
        kind = "move"
    elif m.phase == "roll" and side == bot_side and m.may_double(side):
        kind = "cube"
    elif m.phase == "doubled" and side != bot_side:
        kind = "take"
    elif m.phase == "resigning" and side != bot_side:
        kind = "resign"
    return (computer, ()) if kind is None else _ask(computer, m, kind, bot_side)


def _ask_rematch(computer: ComputerState, m: Match) -> tuple[ComputerState, tuple[Effect, ...]]:
    """After the match (RULES.md "Match"): the computer answers the other side's
    rematch offer, or is asked once whether it offers one itself."""
    kind: QuestionKind
    if m.rematch_offer is not None:
        side: Colour | None = other(m.rematch_offer)
        kind = "rematch"
    else:
        side = next((s for s in COLOURS if m.settings.player(s) != HUMAN), None)
        kind = "offer_rematch"
    if side is None or m.settings.player(side) == HUMAN:
        return computer, ()
    return _ask(computer, m, kind, side)


def _ask(computer: ComputerState, m: Match, kind: QuestionKind, side: Colour) -> tuple[ComputerState, tuple[Effect, ...]]:
    if computer.asked is m:
        return computer, ()
    computer = ComputerState(computer.token + 1, m)
    return computer, (AskBot(kind, computer.token, side, m),)


def move_path(computer: ComputerState, match: Match, event: BotMoved) -> tuple[Colour, Move, tuple[Position, ...]] | None:
    """The computer's move to carry out on the board, along its path (None: a stale
    answer, no move, or no move now)."""
    m = match
    if event.turn_token != computer.token or m.phase != "move" or m.turn is None or event.move is None:
        return None
    path = [m.position]
    for step in event.move.steps:
        path.append(path[-1].after(step))
    return m.turn, event.move, tuple(path)


def cube_answer(computer: ComputerState, match: Match, event: BotCube) -> Answer | None:
    """The computer's cube action, answer or roll (or its rematch, after the match), as
    what the table does with it; None for a stale answer."""
    m, side = match, match.turn
    if m.is_over and event.side in ("white", "black") and event.turn_token == computer.token:
        return ("act", event.side, event.action, None)  # type: ignore[return-value]
    if side is None or event.turn_token != computer.token:
        return None
    if event.action == "roll":
        return ("roll", side)
    actor = side if event.action == "double" else other(side)
    return ("act", actor, event.action, None)


def remote_answer(match: Match, event: RemoteActed) -> Answer | Refused:
    """The remote player's action, as the server reported it, as what the table does with it."""
    if match.settings.player(event.side) != REMOTE:
        return Refused.of(f"{event.side} is not a remote player", "not_remote", side=event.side)
    if event.action == "roll":
        return ("roll", event.side)
    return ("act", event.side, event.action, event.level)

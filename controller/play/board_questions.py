"""The board's questions to the player: one job of the controller.

Two readings the board cannot decide alone are asked about on the display, answered with
the buttons (main: yes; cube: no). A saturated reading that fits several legal positions of
this turn asks "Was it 8/6 8/6?", one option at a time; a board that stands where fewer
steps leave a die to play asks whether it was the whole move ("Was it 5/4/off?",
controller.play.tracker.whole_move_reading) until the player says no or plays on. The job
keeps which option is asked and the match the whole move was declined for (one frozen
`QuestionState`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from controller.board.reconcile import Ambiguous
from controller.engine.board_view import Colour
from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_settings import HUMAN
from controller.engine.moves import Move
from controller.engine.notation import format_path
from controller.engine.position import Position
from controller.events import Announce, Effect
from controller.play.board_sync import BoardSync
from controller.play.match_flow import MatchFlow
from controller.play.seat import MatchSeat
from controller.play.tracker import BoardTracker, whole_move_reading


class QuestionSeat(MatchSeat, Protocol):
    """What the board's questions read of the table."""

    @property
    def board(self) -> BoardTracker: ...
    @property
    def flow(self) -> MatchFlow: ...
    @property
    def board_sync(self) -> BoardSync: ...
    def player(self, side: Colour) -> str: ...


@dataclass(frozen=True)
class QuestionState:
    """The board's questions' slice of the table's state: which of an ambiguous reading's
    options is asked, and the match for which the player said the board is not the whole move."""

    ask_index: int = 0
    whole_declined: Match | None = None


class BoardQuestions:
    """The question asked about the board now, and its answer (see the module docstring)."""

    def __init__(self, seat: QuestionSeat) -> None:
        self._seat = seat
        self._state = QuestionState()

    @property
    def state(self) -> QuestionState:
        """The questions' slice of the table's state (a frozen value)."""
        return self._state

    def asking(self) -> bool:
        """A question is asked now (the buttons answer it)."""
        return self.ambiguous_choice() is not None or self.whole_move_choice() is not None

    def ambiguous_choice(self) -> Position | None:
        """While a saturated reading fits several legal positions of this turn: the one
        the player is asked about ("Was it 8/6 8/6?")."""
        seat = self._seat
        verdict = seat.board.verdict
        if not isinstance(verdict, Ambiguous) or seat.match.phase != "move":
            return None
        options = [p for p in verdict.positions if p != seat.match.partial]
        if not options:
            return None
        return options[self._state.ask_index % len(options)]

    def whole_move_choice(self) -> Move | None:
        """The complete move the player is asked about ("Was it 5/4/off?") while the board
        stands where fewer steps leave a die to play (controller.play.tracker
        .whole_move_reading), until the player says no or plays on."""
        seat = self._seat
        m = seat.match
        if seat.bot is not None or seat.setting_up or m.turn is None or seat.player(m.turn) != HUMAN \
                or self._state.whole_declined is m or not seat.board.is_right():
            return None
        return whole_move_reading(m)

    def _play_whole(self, move: Move, out: list[Effect]) -> None:
        """The player confirmed the whole move: its steps replace those read (one transition)."""
        seat = self._seat
        side, now = seat.match.turn, seat.now
        assert side is not None

        def walk(mm: Match) -> Transition:
            events: list[MatchEvent] = []
            while mm.steps:
                mm, said = mm.undo(side, now)
                events += said
            for step in move.steps:
                if mm.phase != "move":
                    break
                mm, said = mm.step(side, step, now)
                events += said
            return Transition(mm, tuple(events))

        out.append(Announce(f"the player confirmed the whole move {format_path(move.steps)}"))
        seat.flow.apply(walk, out)

    def answer(self, yes: bool, out: list[Effect]) -> None:
        """The player's answer to the question asked (main: yes, cube: no, the next option)."""
        seat = self._seat
        choice = self.ambiguous_choice()
        whole = self.whole_move_choice() if choice is None else None
        if whole is not None:
            if yes:
                self._play_whole(whole, out)
            else:
                self._state = replace(self._state, whole_declined=seat.match)  # a die is still to play: play on
            return
        if choice is None:
            return
        if not yes:
            self._state = replace(self._state, ask_index=self._state.ask_index + 1)
            return
        self._state = replace(self._state, ask_index=0)
        seat.board_sync.confirm(choice, out)

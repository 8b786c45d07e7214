"""The board's questions to the player: one job of the controller.

Two readings the board cannot decide alone are asked about on the display, answered with
the buttons (main: yes; cube: no). A saturated reading that fits several legal positions of
this turn asks "Was it 8/6 8/6?", one option at a time; a board that stands where fewer
steps leave a die to play asks whether it was the whole move ("Was it 5/4/off?",
controller.play.tracker.whole_move_reading) until the player says no or plays on. The job
keeps which option is asked and the match the whole move was declined for (one frozen
`QuestionState`); the answers are carried out by the table's step (controller/play/pressing.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from controller.board.reconcile import Ambiguous, Verdict
from controller.engine.board_view import Colour
from controller.engine.match import Match, Transition
from controller.engine.match_events import Event as MatchEvent
from controller.engine.match_settings import HUMAN
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.play.match_flow import Command
from controller.play.tracker import whole_move_reading


@dataclass(frozen=True)
class QuestionState:
    """The board's questions' slice of the table's state: which of an ambiguous reading's
    options is asked, and the match for which the player said the board is not the whole move."""

    ask_index: int = 0
    whole_declined: Match | None = None

    def next_option(self) -> QuestionState:
        """No: the next of the reading's options is asked."""
        return replace(self, ask_index=self.ask_index + 1)

    def first_option(self) -> QuestionState:
        return replace(self, ask_index=0)

    def declined(self, match: Match) -> QuestionState:
        """The board is not the whole move: a die is still to play, so play on."""
        return replace(self, whole_declined=match)


def ambiguous_choice(questions: QuestionState, verdict: Verdict | None, match: Match) -> Position | None:
    """While a saturated reading fits several legal positions of this turn: the one
    the player is asked about ("Was it 8/6 8/6?")."""
    if not isinstance(verdict, Ambiguous) or match.phase != "move":
        return None
    options = [p for p in verdict.positions if p != match.partial]
    if not options:
        return None
    return options[questions.ask_index % len(options)]


def whole_move_choice(questions: QuestionState, match: Match, *, carrying_out: bool, setting_up: bool,
                      board_right: bool) -> Move | None:
    """The complete move the player is asked about ("Was it 5/4/off?") while the board
    stands where fewer steps leave a die to play (controller.play.tracker
    .whole_move_reading), until the player says no or plays on."""
    m = match
    if carrying_out or setting_up or m.turn is None or m.settings.player(m.turn) != HUMAN \
            or questions.whole_declined is m or not board_right:
        return None
    return whole_move_reading(m)


def whole_move(move: Move, side: Colour, now: float) -> Command:
    """The player confirmed the whole move: its steps replace those read (one transition)."""
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

    return walk

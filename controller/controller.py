"""The controller: events in, effects out; the match, the board and the scene kept in step.

The controller holds exactly one value, the table's `TableState`
(controller/play/table_state.py), and every event replaces it:
`self.state, effects = step(self.state, event)` (controller/play/step.py). The effects are
plain values the table carries out (the scene to show, the match to save, a buzz, log
lines, a question for the computer); the controller does no I/O and reads no clock. What
the outside may know of the table is `status()`, one frozen `TableStatus`.

The match is `controller.engine.match.Match` (pure, immutable); it changes only through its
commands (controller/play/change.py), so a refused action ("rejected: ...") changes nothing.
"""
from __future__ import annotations

from controller.dice.state import DiceState
from controller.engine.match import Match
from controller.events import Effect, Event
from controller.play import showing
from controller.play.config import ControllerConfig
from controller.play.status import TableStatus
from controller.play.step import step
from controller.play.table_state import TableState

__all__ = ["Controller", "ControllerConfig", "TableState", "step"]


class Controller:
    """The table's brain (see the module docstring). Build with a match (new or resumed)."""

    def __init__(self, match: Match, *, config: ControllerConfig | None = None,
                 dice: DiceState | None = None, now: float = 0.0, save: bool = True) -> None:
        #: the table's one state; only `handle` replaces it
        self.state = TableState.new(match, config=config, dice=dice, now=now, save=save)

    def handle(self, event: Event) -> list[Effect]:
        """React to one event; return what the table must do."""
        self.state, effects = step(self.state, event)
        return effects

    def status(self) -> TableStatus:
        """The table as the outside may read it (a frozen value)."""
        return showing.status(self.state)

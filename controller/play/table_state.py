"""The table's state as one frozen value: the one model of the table, and the live one.

The controller holds exactly one `TableState` and every event replaces it:
`state, effects = step(state, event)` (controller/play/step.py). Each job of the controller
(controller/play/*.py) has its slice here, a frozen dataclass that only the job's own
functions make: the match flow's `FlowState`, the board's `BoardReading`, the dice's
`DiceState` (the random generator's state included, so the next roll is a fact of the
state), the menu's `MenuState`, the hint's, the tutor's, the computer's turn's, the board's
questions' and watching's. The table's own part is `TableSetting`; beside them the board's
pages' links and the scene sent last. So the whole is hashable, equal when nothing changed,
and a state held before an event is never changed by it. `TableStatus` (status.py) is what
the front ends read of it.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.dice.state import DiceState
from controller.engine.match import Match
from controller.inputs.menu import LinkName, MenuState
from controller.play import match_flow
from controller.play.board_questions import QuestionState
from controller.play.computer import ComputerState
from controller.play.config import ControllerConfig
from controller.play.hint import HintState
from controller.play.match_flow import FlowState
from controller.play.tracker import BoardReading
from controller.play.tutor import TutorState
from controller.play.watching import WatchState
from controller.show.content import PairingView, Prompt, Scene
from controller.show.review_notes import ReviewFigures


@dataclass(frozen=True)
class TableSetting:
    """The table's own slice of its state: its configuration, its time (the latest
    event's), whether the board is online and the board session's line, the review's
    figures, the key of the decision practised (controller/table/practice.py), the
    tutor's hold last seen (the menu closes once when it starts holding), and whether the
    match is saved (`SaveMatch` effects; off for a table that must not write a save)."""

    config: ControllerConfig = ControllerConfig()
    now: float = 0.0
    online: bool = True
    board_prompt: Prompt | None = None
    review: ReviewFigures | None = None
    practising: str | None = None
    held_seen: tuple[object, ...] | None = None
    save: bool = True


@dataclass(frozen=True)
class TableState:
    """One moment of the whole table (see the module docstring)."""

    flow: FlowState
    board: BoardReading
    dice: DiceState
    table: TableSetting
    menu: MenuState = MenuState()
    hint: HintState = HintState()
    tutor: TutorState = TutorState()
    computer: ComputerState = ComputerState()
    questions: QuestionState = QuestionState()
    watch: WatchState = WatchState()
    links: tuple[tuple[LinkName, PairingView], ...] = ()
    scene_sent: Scene | None = None

    @classmethod
    def new(cls, match: Match, *, config: ControllerConfig | None = None, dice: DiceState | None = None,
            now: float = 0.0, save: bool = True) -> TableState:
        """A table sitting down to `match` (new or resumed) at `now`: the board not read yet,
        to be set up to the match first; `dice` adopted for it."""
        config = config or ControllerConfig()
        return cls(flow=match_flow.started(match, now, config.auto_roll_delay_s), board=BoardReading(raw_since=now),
                   dice=(dice or DiceState()).adopt(match), table=TableSetting(config, now, save=save))

    @property
    def match(self) -> Match:
        """The match being played."""
        return self.flow.match

    @property
    def now(self) -> float:
        """The table's time: the latest event's (the clock is read at it)."""
        return self.table.now

    @property
    def config(self) -> ControllerConfig:
        return self.table.config

    def link(self, name: LinkName) -> PairingView | None:
        """The board's page `name`'s link, when that page is on."""
        return dict(self.links).get(name)

"""The table's state as one frozen value: each job's slice, composed.

Each job of the controller (controller/play/*.py) keeps its own part of the table's state as
one frozen dataclass that only it replaces, a new value at each change: the match flow's
`FlowState`, the menu's `MenuState`, the board tracker's `BoardReading` (board sync's), the
hint's, the tutor's, the computer's turn's, the board's questions' and watching's.
`TableState` puts them side by side with the table's own setting and a frozen copy of the
dice's facts (`TableDice` is a mutable resource: it holds a random generator), so the whole
is hashable, equal when nothing changed, and a copy taken before an event is never changed
by it. `Controller.state()` builds it; `TableStatus` (status.py) is read from it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.dice import DiceSecret, TableDice
from controller.inputs.menu import LinkName, MenuState
from controller.play.board_questions import QuestionState
from controller.play.computer import ComputerState
from controller.play.hint import HintState
from controller.play.match_flow import FlowState
from controller.play.tracker import BoardReading
from controller.play.tutor import TutorState
from controller.play.watching import WatchState
from controller.show.content import PairingView, Prompt, Scene
from controller.show.review_notes import ReviewFigures


@dataclass(frozen=True)
class ControllerConfig:
    """How this table plays: the display's language, the settling time of a reading, the
    pause before an automatic roll, the tutor. Who plays each colour is the match's own
    (`MatchSettings.player`): a rematch swaps it, a saved match keeps it."""

    language: str = "en"
    settle_s: float = 0.3
    auto_roll_delay_s: float = 2.0
    tutor: str = "off"  # or the least mark it warns about (controller.analysis.tutor.TUTOR_MARKS)


@dataclass(frozen=True)
class DiceReading:
    """The table's dice (controller.dice.TableDice), copied: their mode, their verifiable
    secret (itself frozen) and real dice keyed in but not yet rolled. The random generator
    is left out: it is a resource, not a fact of the table."""

    mode: str
    secret: DiceSecret | None
    queued: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, dice: TableDice) -> DiceReading:
        return cls(dice.mode, dice.secret, tuple(dice.queue))


@dataclass(frozen=True)
class TableSetting:
    """The controller's own part: its configuration, its time, whether the board is online
    and the board session's line, the review's figures, the decision practised, the board's
    pages' links (a sorted copy), the tutor's hold last seen, the scene sent last."""

    config: ControllerConfig
    now: float
    online: bool
    board_prompt: Prompt | None
    review: ReviewFigures | None
    practising: str | None
    links: tuple[tuple[LinkName, PairingView], ...]
    held_seen: tuple[object, ...] | None
    scene_sent: Scene | None

    @staticmethod
    def links_of(links: Mapping[LinkName, PairingView]) -> tuple[tuple[LinkName, PairingView], ...]:
        return tuple(sorted(links.items()))


@dataclass(frozen=True)
class TableState:
    """One moment of the whole table (see the module docstring): every job's slice, the
    table's setting, and copies of the board and the dice."""

    flow: FlowState
    menu: MenuState
    hint: HintState
    tutor: TutorState
    computer: ComputerState
    questions: QuestionState
    watch: WatchState
    board: BoardReading
    dice: DiceReading
    table: TableSetting

"""The table's state as one frozen value: each job's slice, composed.

Each job of the controller (controller/play/*.py) keeps its own part of the table's state as
one frozen dataclass that only it replaces, a new value at each change: the match flow's
`FlowState`, the menu's `MenuState`, the board tracker's `BoardReading` (board sync's), the
hint's, the tutor's, the computer's turn's, the board's questions' and watching's.
The controller's own part is `TableSetting`, kept the same way. `TableState` puts them side
by side with frozen copies of what is not kept so: the dice's facts (`TableDice` is a
mutable resource: it holds a random generator, copied as its state), the board's pages'
links (a mapping the page sets) and the scene sent last (the showing's). So the whole is
hashable, equal when nothing changed, and a copy taken before an event is never changed by
it. `Controller.state()` builds it; `TableStatus` (status.py) reads the same slices; and it is
whole enough to rebuild the controller (`Controller.from_state`, controller/play/restore.py),
so the controller is also a function of it (`controller.controller.step`).
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
    secret (itself frozen), real dice keyed in but not yet rolled, the count of verifiable
    opening rolls shown, and the random generator's state (a tuple; None for the operating
    system's source, which has none), so the next random roll is a fact of the state too
    and `dice()` rebuilds dice that roll the same. Not copied: the entropy source a new
    verifiable seed is drawn from (a function; rebuilt dice use the operating system's)."""

    mode: str
    secret: DiceSecret | None
    queued: tuple[tuple[int, int], ...]
    ties: tuple[int, int] = (0, 0)
    rng: tuple[object, ...] | None = None

    @classmethod
    def of(cls, dice: TableDice) -> DiceReading:
        return cls(dice.mode, dice.secret, tuple(dice.queue), dice.ties, dice.rng_state())

    def dice(self) -> TableDice:
        """Dice standing as this reading says (a fresh generator in the same state)."""
        return TableDice.restored(self.mode, self.secret, self.queued, self.ties, self.rng)


@dataclass(frozen=True)
class TableSetting:
    """The controller's own slice of the table's state: its configuration, its time (the
    latest event's), whether the board is online and the board session's line, the review's
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


def links_of(links: Mapping[LinkName, PairingView]) -> tuple[tuple[LinkName, PairingView], ...]:
    """The board's pages' links as a value (sorted by page)."""
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
    links: tuple[tuple[LinkName, PairingView], ...]
    scene_sent: Scene | None

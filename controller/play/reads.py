"""What the outside and the jobs read of the table: one read-only face over the jobs.

The controller (controller/controller.py) routes events to its jobs, each the one writer of
its own state (controller/play/*.py). The front ends, the tests and the jobs' own seats
(each job reads the table through a narrow Protocol) read that state here: the match, the
board, the menu, what is shown. Every member only reads (the match's setter and
`online_offered`'s are the two edits tests make, each a call to the job that owns it).
The outside should read `status()`, one frozen `TableStatus`, or `state()`, the whole
table's state as one frozen `TableState` (each job's slice, controller/play/table_state.py);
the rest is the face the front ends and tests still use, kept in this one place until they
move to it, and it reads the jobs' slices.
"""
from __future__ import annotations

from dataclasses import replace

from controller.board.reconcile import BoardState, Verdict
from controller.dice import TableDice
from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.match_settings import REMOTE
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.inputs import menu as menus
from controller.play import possible
from controller.play.actions import PlayerActions
from controller.play.board_questions import BoardQuestions
from controller.play.board_sync import BoardSync
from controller.play.computer import ComputerTurn
from controller.play.hint import HintJob
from controller.play.match_flow import MatchFlow
from controller.play.rolls import Rolls
from controller.play.showing import TableShow
from controller.play.status import BotPlan, TableStatus
from controller.play.table_state import ControllerConfig, DiceReading, TableSetting, TableState, links_of
from controller.play.table_menu import TableMenu
from controller.play.tracker import BoardTracker
from controller.play.tutor import Tutor
from controller.play.watching import Watching
from controller.show.content import DisplayContent, PairingView, Prompt, Scene
from controller.show.review_notes import ReviewFigures
from controller.show.scene import ControllerView


class TableReads:
    """The table's state as read (see the module docstring); the controller sets the jobs."""

    flow: MatchFlow
    board_sync: BoardSync
    actions: PlayerActions
    rolls: Rolls
    computer: ComputerTurn
    menu_job: TableMenu
    questions: BoardQuestions
    show: TableShow
    watch: Watching
    hints: HintJob
    tutor: Tutor
    links: dict[menus.LinkName, PairingView]
    _setting: TableSetting  # the controller's own slice (only the controller replaces it)

    def state(self) -> TableState:
        """The whole table's state now, one frozen value (controller/play/table_state.py):
        equal while nothing changes, and never changed by what happens after."""
        return TableState(self.flow.state, self.menu_job.state, self.hints.state, self.tutor.state,
                          self.computer.state, self.questions.state, self.watch.state,
                          self.board.reading, DiceReading.of(self.dice), self._setting, links_of(self.links),
                          self.show.sent)

    @property
    def config(self) -> ControllerConfig:
        """How this table plays (the controller's slice holds it)."""
        return self._setting.config

    @config.setter
    def config(self, config: ControllerConfig) -> None:
        self._setting = replace(self._setting, config=config)  # tests/test_browser.py sets it

    @property
    def now(self) -> float:
        """The controller's time: the latest event's (the clock is read at it)."""
        return self._setting.now

    @property
    def online(self) -> bool:
        """The board's link is up."""
        return self._setting.online

    @property
    def board_prompt(self) -> Prompt | None:
        """The board session's line, when it has one."""
        return self._setting.board_prompt

    @property
    def review(self) -> ReviewFigures | None:
        """PR and ratings of the finished games."""
        return self._setting.review

    @property
    def practising(self) -> str | None:
        """The key of the marked decision practised here (controller/table/practice.py), or None."""
        return self._setting.practising

    def turn_plan(self) -> TurnPlan | None:
        """The engine's plan of the roll being played (the match builds it once per roll)."""
        m = self.match
        if m.turn is None:
            return None
        return m.plan

    def possible(self) -> tuple[possible.PossibleAction, ...]:
        """What each player at the table may do now (controller.play.possible)."""
        return self.actions.possible()

    def board_ready(self) -> bool:
        """The board stands as the match says (or has not been read yet)."""
        return not self.setting_up and self.board.is_right()

    def ambiguous_choice(self) -> Position | None:
        return self.questions.ambiguous_choice()

    _ambiguous_choice = ambiguous_choice  # the name tests/test_controller.py asks

    def whole_move_choice(self) -> Move | None:
        return self.questions.whole_move_choice()

    def _menu_items(self) -> tuple[menus.MenuItem, ...]:
        return self.menu_job.items()

    @property
    def match(self) -> Match:
        """The match being played (controller.play.match_flow keeps it)."""
        return self.flow.state.match

    @match.setter
    def match(self, match: Match) -> None:
        self.flow.swap(match)  # a test's or a tool's edit of the match, nothing else changes

    @property
    def setting_up(self) -> bool:
        return self.flow.state.setting_up

    @property
    def show_last(self) -> bool:
        return self.flow.state.show_last

    @property
    def bot(self) -> BotPlan | None:
        return self.flow.state.bot

    @property
    def opening_tie(self) -> int | None:
        return self.flow.state.opening_tie

    @property
    def roll_due(self) -> float | None:
        return self.flow.state.roll_due

    @property
    def board(self) -> BoardTracker:
        """The board as read, settled and reconciled (controller.play.board_sync keeps it)."""
        return self.board_sync.board

    @property
    def watching(self) -> Scene | None:
        """While a server match is watched from the menu: its scene, shown in place of the
        match's (the local match is set aside by `Table.seat`)."""
        return self.watch.state.scene

    @property
    def banner(self) -> Prompt | None:
        """A prompt that outranks the match's own (online: "connection lost, rejoining")."""
        return self.watch.state.banner

    @property
    def online_offered(self) -> bool:
        return self.watch.offered("play")

    @online_offered.setter
    def online_offered(self, offered: bool) -> None:
        self.watch.offer("play", offered)  # tests/test_online_menu.py sets it

    @property
    def watch_offered(self) -> bool:
        return self.watch.offered("watch")

    @property
    def dice(self) -> TableDice:
        """The match's dice (controller.play.rolls keeps them)."""
        return self.rolls.dice

    @property
    def menu(self) -> menus.MenuState:
        """Where the menu stands (controller.play.table_menu keeps it)."""
        return self.menu_job.state

    @property
    def playing_online(self) -> bool:
        """A remote player sits at this table (an online match is being played)."""
        return REMOTE in self.match.settings.players

    def player(self, side: Colour) -> str:
        """Who plays `side` in the match now (HUMAN, REMOTE or a computer level)."""
        return self.match.settings.player(side)

    @property
    def bot_token(self) -> int:
        """The token of the computer's last question (its answer must carry it)."""
        return self.computer.state.token

    @property
    def verdict(self) -> Verdict | None:
        """What the settled board means now (read-only; `status()` has it too)."""
        return self.board.verdict

    @property
    def raw(self) -> BoardState | None:
        """The board as last read (read-only)."""
        return self.board.raw

    @property
    def settled(self) -> BoardState | None:
        """The board as last settled (read-only)."""
        return self.board.settled

    def status(self) -> TableStatus:
        """The controller's state as the outside may read it (a frozen value)."""
        return self.show.status()

    def view(self) -> ControllerView:
        return self.show.view()

    def scene(self) -> Scene:
        return self.show.scene()

    @property
    def last_scene(self) -> Scene:
        """The scene sent last (built now if none was sent yet)."""
        return self.show.last_scene

    def table(self) -> DisplayContent:
        return self.show.table()

    def phase_prompt(self) -> Prompt | None:
        """The display's prompt line now (controller.play.prompt decides it)."""
        return self.show.phase_prompt()

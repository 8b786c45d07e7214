"""What the table shows and what the outside may read of it: one job of the controller.

From the table's state this builds the scene (controller.show.scene: the LEDs, the
display's table and prompt), the display's prompt line (controller.play.prompt decides it)
and `TableStatus`, the frozen value the page, the headless runner and the Pi's loop read
instead of the controller's attributes, read from the same frozen slices that make the
table's `TableState` (controller/play/table_state.py) and what is derived from them. It writes nothing of the
table's; it keeps only the scene sent last, so the controller sends a scene only when it
changed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from controller.dice import TableDice
from controller.engine.board_view import COLOURS, Colour, cell_counts, other, step_cells
from controller.engine.match_settings import REMOTE
from controller.engine.moves import Move, Step
from controller.engine.notation import format_path
from controller.engine.position import Position
from controller.engine.turn import TurnPlan
from controller.inputs.menu import LinkName, MenuState
from controller.play import prompt as prompts
from controller.play.hint import HintJob
from controller.play.possible import PossibleAction
from controller.play.seat import MatchSeat
from controller.play.status import TableStatus
from controller.play.tracker import BoardTracker, steps_carried
from controller.play.tutor import Tutor, warning_prompt
from controller.show.announce import announcements
from controller.show.content import DisplayContent, PairingView, Prompt, Scene
from controller.show.match_content import match_content
from controller.show.review_notes import ReviewFigures, review_display
from controller.show.scene import ControllerView, build_scene


class ShowSeat(MatchSeat, Protocol):
    """What the table shows, as the showing reads it."""

    @property
    def language(self) -> str: ...
    @property
    def online(self) -> bool: ...
    @property
    def board(self) -> BoardTracker: ...
    @property
    def board_prompt(self) -> Prompt | None: ...
    @property
    def banner(self) -> Prompt | None: ...
    @property
    def show_last(self) -> bool: ...
    @property
    def opening_tie(self) -> int | None: ...
    @property
    def roll_due(self) -> float | None: ...
    @property
    def menu(self) -> MenuState: ...
    @property
    def links(self) -> Mapping[LinkName, PairingView]: ...
    @property
    def hints(self) -> HintJob: ...
    @property
    def tutor(self) -> Tutor: ...
    @property
    def dice(self) -> TableDice: ...
    @property
    def review(self) -> ReviewFigures | None: ...
    @property
    def practising(self) -> str | None: ...
    @property
    def watching(self) -> Scene | None: ...
    def possible(self) -> tuple[PossibleAction, ...]: ...
    def board_ready(self) -> bool: ...
    def turn_plan(self) -> TurnPlan | None: ...
    def ambiguous_choice(self) -> Position | None: ...
    def whole_move_choice(self) -> Move | None: ...


class TableShow:
    """The scene, the prompt and the status of the table (see the module docstring)."""

    def __init__(self, seat: ShowSeat) -> None:
        self._seat = seat
        self._last: Scene | None = None  # the scene sent last

    def changed(self) -> Scene | None:
        """The scene now if it is not the one sent last (it is then the one sent last)."""
        scene = self.scene()
        if scene == self._last:
            return None
        self._last = scene
        return scene

    @property
    def sent(self) -> Scene | None:
        """The scene sent last, None before the first (nothing is built)."""
        return self._last

    @property
    def last_scene(self) -> Scene:
        """The scene sent last (built now if none was sent yet)."""
        if self._last is None:
            self._last = self.scene()
        return self._last

    def scene(self) -> Scene:
        """The scene now: the match's, or while watching the watched match's with the
        menu's line while it is open."""
        seat = self._seat
        if seat.watching is not None:
            prompt = seat.menu.prompt
            return seat.watching if prompt is None else \
                replace(seat.watching, display=replace(seat.watching.display, prompt=prompt))
        scene = build_scene(self.view())
        link = seat.links.get(seat.menu.link) if seat.menu.mode == "link" else None  # the whole screen
        return scene if link is None else replace(scene, display=replace(scene.display, pairing=link))

    def status(self) -> TableStatus:
        """The controller's state as the outside may read it (a frozen value)."""
        # read from the slices it needs, not the whole state(): that copies the dice's
        # generator (some 20 us), and the page asks for the status at every frame
        seat = self._seat
        board, menu, m, bot = seat.board.reading, seat.menu, seat.match, seat.bot
        return TableStatus(
            match=m, mover=bot.side if bot is not None else m.turn, online=seat.online,
            setting_up=seat.setting_up, settling=board.settling,
            reading=board.raw, reading_since=board.raw_since, board=board.settled, verdict=board.verdict,
            board_ready=seat.board_ready(),
            carried_out=bot, roll_due=seat.roll_due,
            clock_running=m.clock is not None and not m.is_over, menu_open=menu.is_open,
            entering_dice=seat.dice.mode == "entered" and menu.mode == "dice",
            actions=seat.possible(), now=seat.now, opening_tie=seat.opening_tie,
            asking_dice=menu.mode == "dice", held_steps=self._held_steps())

    def _held_steps(self) -> tuple[Step, ...]:
        """The steps of a move the tutor holds that the match does not have yet."""
        seat = self._seat
        held, plan = seat.tutor.hold(seat.match), seat.turn_plan()
        if held is None or not held.is_move or held.target is None or plan is None:
            return ()
        return plan.path(seat.match.partial, held.target) or ()

    def view(self) -> ControllerView:
        """What the scene is built from (controller.show.scene)."""
        seat = self._seat
        m = seat.match
        mover: Colour | None = m.turn
        if seat.bot is not None:
            mover = seat.bot.side
        last: tuple[tuple[str, str], ...] = ()
        if m.last_move is not None and m.phase in ("roll", "move", "doubled"):
            last = tuple(step_cells(s, m.last_move.side) for s in m.last_move.steps)
        bot_cells: tuple[tuple[str, str], ...] = ()
        if seat.bot is not None:  # the steps still to carry out (the done ones are dark)
            done = steps_carried(seat.bot, seat.board.verdict)
            bot_cells = tuple(step_cells(s, seat.bot.side) for s in seat.bot.move.steps[done:])
        setup_counts = None
        if seat.setting_up:
            position, colour = m.board()
            setup_counts = cell_counts(position, colour)
        return ControllerView(
            table=self.table(), language=seat.language, online=seat.online, mover=mover,
            verdict=seat.board.in_air or seat.board.verdict, plan=seat.turn_plan() if seat.bot is None else None,
            current=m.partial, last_move=last, show_last=seat.show_last, bot_move=bot_cells,
            setup=seat.setting_up, setup_counts=setup_counts, prompt=self.phase_prompt(),
            faults=seat.board.raw.faults if seat.board.raw is not None else frozenset(),
            board_prompt=seat.board_prompt,
            hint_move=seat.hints.cells(), banner=None if seat.menu.is_open else seat.banner)

    def table(self) -> DisplayContent:
        """The display's table: the match's, with the pips of a held move and the review's figures."""
        seat = self._seat
        m = seat.match
        pips = None
        held = seat.tutor.hold(m)
        if held is not None and held.target is not None and m.turn is not None:
            mine, theirs = held.target.pips()  # the held move stands on the board, not yet in the match
            pips = {m.turn: mine, other(m.turn): theirs}
        review = review_display(m, seat.review if seat.practising is None else None)  # the match's figures
        return replace(match_content(m, seat.now, pips), notes=review.notes, pr_white=review.pr_white,
                       pr_black=review.pr_black)

    def _announcement(self) -> Prompt | None:
        """An opening tie, the won game (until the next opening roll) or the computer's take
        (until the doubler rolls) in place of the phase's own prompt, which the buttons' lights
        say too."""
        seat = self._seat
        m = seat.match
        if m.phase not in ("opening", "roll"):
            return None
        computer = [s for s in COLOURS if m.settings.is_computer(s)]
        said = announcements(m, computer, seat.opening_tie)
        return said[-1] if said else None  # the outcome: they come in the order they happened

    def phase_prompt(self) -> Prompt | None:
        """The display's prompt line now (controller.play.prompt decides it)."""
        return prompts.phase_prompt(self._prompt_facts())

    def _prompt_facts(self) -> prompts.PromptFacts:
        seat = self._seat
        overlay = seat.hints.prompt()
        if overlay is None and seat.menu.is_open:
            overlay = seat.menu.prompt
        choice = seat.ambiguous_choice()
        graph = seat.turn_plan()
        path = graph.path(graph.start, choice) if choice is not None and graph is not None else None
        secret = seat.dice.secret
        held = seat.tutor.hold(seat.match)
        whole = seat.whole_move_choice() if choice is None else None
        return prompts.PromptFacts(
            match=seat.match, now=seat.now, overlay=overlay or seat.banner,
            confirm=Move(path, choice).notation if choice is not None and path is not None else
            format_path(whole.steps) if whole is not None else None,
            setting_up=seat.setting_up, announcement=self._announcement() or seat.tutor.notice(seat.match),
            commitment=secret.short_commitment if secret is not None and not secret.revealed else None,
            carried_out=seat.bot,
            by_remote=seat.bot is not None and seat.player(seat.bot.side) == REMOTE,
            tutor=None if held is None else warning_prompt(held.warning))

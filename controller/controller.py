"""The controller: events in, effects out; the match, the board and the scene kept in step.

`Controller.handle(event)` is the only entry. It routes each event to the job that owns
it and returns effects: the scene to show, the match to save, a buzz, log lines, a question
for the computer. It does no I/O and reads no clock: the application (or a test) carries
the effects out. Each job is a small module of controller/play/, the one writer of its own
state, reading the table through a narrow Protocol:

- board_sync: readings settled on the event's time, reconciled, the steps they show played
- board_questions: an ambiguous reading or a whole move asked about
- match_flow: the match's commands, setting up, the move carried out, auto-roll, the clock
- actions: a player's action checked, refused with the reason, held by the tutor, done
- computer: the questions to the computer (and a remote player's actions) and its answers
- rolls: the dice; hint: the hint and whom the tutor judges; table_menu: the menu
- buttons: where a press goes; watching: a watched server match, the door's offers, the banner
- showing: the scene, the prompt line and `TableStatus`; reads: the read-only face

The match is `controller.engine.match.Match` (pure, immutable); it changes only through its
commands (match_flow), so a refused action ("rejected: ...") changes nothing.
"""
from __future__ import annotations

from dataclasses import replace

from controller.board.reconcile import Matched
from controller.dice import TableDice
from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.match_settings import MatchSettings
from controller.engine.moves import Move
from controller.engine.position import Position
from controller.events import (ActionRequested, AdoptMatch, Announce, BotCube, BotMoved, ButtonPressed,
                               DiceEntered, DicePhraseGiven, DieChosen, Effect, Event, HintRequested, LanguageChosen,
                               LinkChanged, MatchChosen, MatchSeated, ReadingReceived, Refused, RemoteActed,
                               ReviewReady, SaveMatch, ShowScene, Tick, TutorChosen)
from controller.inputs import menu as menus
from controller.play.actions import PlayerActions
from controller.play.board_questions import BoardQuestions
from controller.play.board_sync import BoardSync
from controller.play.buttons import Buttons
from controller.play.computer import ComputerTurn
from controller.play.hint import HintJob
from controller.play.match_flow import MatchFlow
from controller.play.reads import TableReads
from controller.play.rolls import Rolls
from controller.play.showing import TableShow
from controller.play.restore import restore
from controller.play.table_state import ControllerConfig, TableSetting, TableState
from controller.play.table_menu import TableMenu
from controller.play.tutor import Tutor
from controller.play.watching import Watching
from controller.show.content import PairingView
from controller.show.texts import LANGUAGES
from controller.analysis.tutor import TUTOR_MARKS


class Controller(TableReads):
    """The table's brain (see the module docstring). Build with a match (new or resumed)."""

    def __init__(self, match: Match, *, config: ControllerConfig | None = None,
                 dice: TableDice | None = None, now: float = 0.0,
                 save: bool = True) -> None:
        #: the controller's own slice of the table's state (controller.play.table_state): its
        #: configuration, time, link, the review's figures, the decision practised
        self._setting = TableSetting(config or ControllerConfig(), now, save=save)
        #: the board kept in step with the match (controller.play.board_sync)
        self.board_sync = BoardSync(self, now, settle_s=lambda: self.config.settle_s)
        #: the match and the table's flow around it (controller.play.match_flow)
        self.flow = MatchFlow(self, match, save=self._save, reread=self.board_sync.reread,
                              forget=self.board_sync.forget, auto_roll_delay=lambda: self.config.auto_roll_delay_s)
        #: the players' actions: checked, refused, held by the tutor or carried out (controller.play.actions)
        self.actions = PlayerActions(self, apply=self.flow.apply,
                                     sync=lambda target, out: self.board_sync.sync(target, out, judge=False))
        #: the table's dice and the rolls made with them (controller.play.rolls)
        self.rolls = Rolls(self, dice or TableDice(), apply=self.flow.apply, act=self.actions.act, save=self._save)
        self.rolls.dice.adopt(match)
        #: the questions to the computer and its answers (controller.play.computer)
        self.computer = ComputerTurn(self, roll=self.rolls.roll, carry_out=self._carry_out,
                                     act=lambda side, action, level, out: self.actions.act(side, action, level, out,
                                                                                      by_bot=True))
        #: the menu's state and items (controller.play.table_menu)
        self.menu_job = TableMenu(self)
        #: the hint shown, and whom the tutor judges (controller.play.hint)
        self.hints = HintJob(self, lambda: self.config.tutor)
        #: what the tutor holds back until it is kept or undone (controller.play.tutor)
        self.tutor = Tutor(self.hints.tutor_mark)
        #: the board's questions to the player (controller.play.board_questions)
        self.questions = BoardQuestions(self)
        #: where each button's press goes (controller.play.buttons)
        self.buttons = Buttons(self, lambda length, out: self.new_match(replace(self.match.settings, length=length),
                                                                       out))
        #: the scene, the prompt and the status (controller.play.showing)
        self.show = TableShow(self)
        #: a watched server match's scene, the online door's offers, the banner (controller.play.watching)
        self.watch = Watching()
        #: the board's pages' links, which the menu shows as QR codes (controller/web/board_page.py sets them)
        self.links: dict[menus.LinkName, PairingView] = {}

    @classmethod
    def from_state(cls, state: TableState) -> Controller:
        """A controller standing exactly at `state` (controller/play/restore.py says what is
        rebuilt rather than restored): `Controller.from_state(c.state())` handles every event
        as `c` would."""
        controller = cls(state.flow.match, config=state.table.config, now=state.table.now, save=state.table.save)
        restore(controller, state)
        return controller

    # -- the one entry ---------------------------------------------------------------------
    def handle(self, event: Event) -> list[Effect]:
        """React to one event; return what the application must do."""
        out: list[Effect] = []
        if event.at > self.now:
            self._setting = replace(self._setting, now=event.at)
        self._react(event, out)
        self._tutor_first()
        if self.watching is None:  # the local match waits while a server match is watched
            self.computer.ask(out)
        scene = self.show.changed()
        if scene is not None:
            out.append(ShowScene(scene))
        return out

    def _tutor_first(self) -> None:
        """The tutor's warning is seen before the action it holds is kept: when it starts
        holding one, the open menu closes (the main button then keeps, not the menu's
        item) and a hint shown gives way to the warning and its better move. Once only:
        a menu opened again while it holds stays open."""
        held = self.tutor.hold(self.match)
        key = None if held is None else (held.side, held.warning.action, held.match, held.target)
        if key is not None and key != self._setting.held_seen:
            self.menu_job.close()
            self.hints.clear()
        if key != self._setting.held_seen:
            self._setting = replace(self._setting, held_seen=key)

    def _react(self, event: Event, out: list[Effect]) -> None:
        """The part of `handle` that depends on the kind of event."""
        if self._watch_event(event, out) or self._chosen(event, out):
            return
        if isinstance(event, ReadingReceived):
            self.board_sync.reading(event)
            self.board_sync.tick(out)
        elif isinstance(event, Tick):
            self.board_sync.tick(out)
            self.flow.clock(out)
            self.flow.auto(out)
        elif isinstance(event, LinkChanged):
            self._link_changed(event, out)
        elif isinstance(event, ActionRequested):
            self.actions.act(event.side, event.action, event.level, out)
        elif isinstance(event, ButtonPressed):
            self.buttons.press(event, out)
        elif isinstance(event, DicePhraseGiven):
            self.rolls.phrase(event.side, event.phrase, out)
        elif isinstance(event, DiceEntered):
            self.rolls.entered(event.side, event.dice, out)
        elif isinstance(event, DieChosen):
            self.menu_job.first_die(event.die)
        elif isinstance(event, RemoteActed):
            self.computer.remote(event, out)
        elif isinstance(event, AdoptMatch):
            self.adopt_match(event.match, out)
            self.board_sync.reconcile(out)  # a board already standing so is set up at once
        elif isinstance(event, MatchSeated):
            self._seated(event, out)
        elif isinstance(event, BotMoved):
            self.computer.moved(event, out)
        elif isinstance(event, BotCube):
            self.computer.cube(event, out)
        elif isinstance(event, ReviewReady):
            self._setting = replace(self._setting, review=event.figures)

    def _watch_event(self, event: Event, out: list[Effect]) -> bool:
        """Watching's own events, the online door's offers (play, watch), the banner, and
        every event while watching but the table's settings (True: handled here)."""
        if self.watch.news(event):
            return True
        if self.watching is None or isinstance(event, (LanguageChosen, TutorChosen)):
            return False
        self._while_watching(event, out)
        return True

    def _chosen(self, event: Event, out: list[Effect]) -> bool:
        """What a page chooses at the table besides the buttons (True: handled here): the
        language, the tutor, a new match with all its settings, a hint; each as the
        menu's item of the same name acts, refused where the menu would not offer it."""
        if isinstance(event, LanguageChosen):
            self._language(event.language, out)
        elif isinstance(event, TutorChosen):
            if event.mark not in TUTOR_MARKS:
                out.append(Refused.of(f"unknown tutor setting {event.mark[:20]!r}; choose {', '.join(TUTOR_MARKS)}",
                                      "not_now"))
            else:
                self._setting = replace(self._setting, config=replace(self.config, tutor=event.mark))
        elif isinstance(event, MatchChosen):
            if self.playing_online:
                out.append(Refused.of("online the server starts the match: leave online play first", "online_match"))
            else:
                self.start_match(event.match, out)
        elif isinstance(event, HintRequested):
            if not self.hints.allowed():
                out.append(Refused.of("no hint now: a hint is for the person who moves, doubles or answers a double",
                                      "no_hint"))
            self.hints.show(out)
        else:
            return False
        return True

    def _while_watching(self, event: Event, out: list[Effect]) -> None:
        """While watching the board is not used: readings are kept (to set the board up
        afterwards) but not played, no clock runs, only the menu's buttons count."""
        if isinstance(event, ReadingReceived):
            self.board_sync.keep(event)
        elif isinstance(event, Tick):
            self.board_sync.keep(event)
        elif isinstance(event, LinkChanged):
            self._link_changed(event, out)
        elif isinstance(event, ButtonPressed) and (event.button == "menu" or self.menu.is_open):
            self.buttons.press(event, out)
        elif isinstance(event, (ButtonPressed, ActionRequested, DicePhraseGiven, DiceEntered, MatchChosen,
                                HintRequested)):
            out.append(Refused.of("watching online: the board plays nothing (the menu leaves watching)",
                                  "watching"))
        elif isinstance(event, ReviewReady):
            self._setting = replace(self._setting, review=event.figures)

    def _language(self, language: str, out: list[Effect]) -> None:
        """Speak `language` from now on (the match is not touched, so nothing is saved)."""
        if language not in LANGUAGES:
            out.append(Refused.of(f"unknown language {language!r}; choose {', '.join(LANGUAGES)}", "not_now"))
            return
        self._setting = replace(self._setting, config=replace(self.config, language=language))

    def _link_changed(self, event: LinkChanged, out: list[Effect]) -> None:
        self._setting = replace(self._setting, board_prompt=event.prompt)
        if event.online != self.online:
            self._setting = replace(self._setting, online=event.online)
            out.append(Announce("board online" if event.online else "board offline"))

    # -- the match ----------------------------------------------------------------------
    # -- actions and buttons ----------------------------------------------------------------
    def _save(self, out: list[Effect]) -> None:
        if self._setting.save:
            out.append(SaveMatch(self.match, self.dice.secret))

    @property
    def language(self) -> str:
        return self.config.language

    def new_match(self, settings: MatchSettings, out: list[Effect]) -> None:
        """Start a new match; the board is first set up to the starting position."""
        self.start_match(Match.new(settings), out)

    def start_match(self, match: Match, out: list[Effect]) -> None:
        """Start `match` (new, or from a score) with new dice; the board is first set up to it."""
        self.dice.begin(match)
        out.append(Announce(f"new match to {match.settings.length}"))
        self.adopt_match(match, out)

    def adopt_match(self, match: Match, out: list[Effect]) -> None:
        """Play on from `match`; the board is first set up to its position."""
        self.flow.adopt(match)
        self.board_sync.forget()
        self.computer.forget()
        self._save(out)
        self.board_sync.reread(out)

    def _seated(self, event: MatchSeated, out: list[Effect]) -> None:
        """Another seating's match and dice (online play taking the table or leaving it)."""
        self.rolls.seat(event.dice)
        self.watch.lift_banner()
        self._setting = replace(self._setting, practising=event.practice)
        self.adopt_match(event.match, out)
        self.board_sync.reconcile(out)

    # -- the computer (or a remote player) ------------------------------------------------
    def _carry_out(self, side: Colour, move: Move, path: tuple[Position, ...], out: list[Effect]) -> None:
        """The computer's (or the remote player's) chosen move: the person carries it out
        along `path`, shown on the LEDs."""
        if not self.flow.choose(side, move, path, out):
            return  # not a legal move, or its time ran out while it thought
        self.board_sync.forget()
        out.append(Announce(f"{side} (computer) plays {move.notation}"))
        self.board_sync.reread(out)
        verdict = self.board.verdict
        if isinstance(verdict, Matched) and verdict.is_exact and verdict.position == move.result:
            self.board_sync.reconcile(out)

    # -- what is shown ----------------------------------------------------------------------


def step(state: TableState, event: Event) -> tuple[TableState, list[Effect]]:
    """The controller as a function, (state, event) -> (state, effects), the shape of
    python-chess's, h11's and zigpy-znp's state machines: a controller rebuilt from `state`
    handles `event` and its state after is returned with the effects; `state` itself is never
    changed. The front ends keep one live `Controller` (rebuilding it at every event would
    cost for nothing); the step is for tests, replays and reasoning about the table, and
    gives what the live controller gives from the same state (tests/test_table_step.py)."""
    controller = Controller.from_state(state)
    effects = controller.handle(event)
    return controller.state(), effects

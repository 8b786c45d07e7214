"""The table's read-only status: what the front ends may know of it.

The page, the headless runner, online play and the Pi's loop read this one frozen value
(`Controller.status()`, built by controller.play.showing from the table's one state), so
nothing outside the controller depends on how it keeps its state, and nothing outside
can change it.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.board.reconcile import BoardState, Matched, Verdict
from controller.dice.secret import DiceSecret
from controller.dice.state import DiceMode
from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.match_settings import REMOTE
from controller.engine.moves import Move, Step
from controller.engine.position import Position
from controller.inputs.menu import MenuState
from controller.play.config import ControllerConfig
from controller.play.possible import PossibleAction
from controller.show.content import Prompt, Scene
from controller.show.review_notes import ReviewFigures


@dataclass(frozen=True)
class BotPlan:
    """A move the person carries out for the computer (or a remote player): its side, the
    move (mover's numbering) and the positions along it."""

    side: Colour
    move: Move
    path: tuple[Position, ...]


@dataclass(frozen=True)
class DiceView:
    """The table's dice as the outside sees them: where the rolls come from, the
    verifiable secret (its commitment; the seed once revealed), and how many times the
    server was asked for a roll (online play sends `roll` for each)."""

    mode: DiceMode = "board"
    secret: DiceSecret | None = None
    asked: int = 0

    def record_tags(self) -> tuple[tuple[str, str], ...]:
        """The record's `; [Dice ...]` tags (controller.dice.state.DiceState.record_tags)."""
        tags: tuple[tuple[str, str], ...] = (("Dice", self.mode),)
        return tags + (self.secret.record_tags() if self.secret is not None else ())


@dataclass(frozen=True)
class TableStatus:
    """One moment of the table, as the outside sees it.

    `mover` is the side whose checkers may move now (the side on turn, or the side whose
    move is being carried out); `reading` the board as last read (unchanged since
    `reading_since`), `board` as last settled,
    `settling` whether the reading still waits for its settling time; `board_ready`
    whether the board stands as the match says; `actions` what each player at the table
    may do now; `carried_out` the move shown on the LEDs, if any; `menu` where the menu
    stands; `entering_dice` whether the board waits for real dice to be keyed in (entered
    dice); `now` the table's time (the clock is read at it); `opening_tie` the die both
    sides showed at the last opening roll, until the next action; `held_steps` see the
    field; `scene` what the LEDs and the display show; `config` how the table plays (its
    language, the tutor); `dice` the dice; `hint_allowed` whether a hint can be asked now;
    `watching` whether a server match is watched (its scene shown); `play_offered`,
    `watch_offered` whether the menu offers online play and watching; `banner` online
    play's line over the prompt; `practising` the marked decision practised; `review` the
    finished games' figures; `bot_token` the token the computer's next answer must carry;
    `menu_items` what the menu button would offer now.
    """

    match: Match
    mover: Colour | None
    online: bool
    setting_up: bool
    settling: bool
    reading: BoardState | None
    reading_since: float
    board: BoardState | None
    verdict: Verdict | None
    board_ready: bool
    carried_out: BotPlan | None
    roll_due: float | None
    clock_running: bool
    entering_dice: bool
    actions: tuple[PossibleAction, ...]
    menu: MenuState = MenuState()
    now: float = 0.0
    opening_tie: int | None = None
    #: the steps of a move the tutor holds that stand on the board but are not in the match
    #: yet (the move waits for keep): what shows pips, dice and steps shows them too
    held_steps: tuple[Step, ...] = ()
    scene: Scene = Scene()
    config: ControllerConfig = ControllerConfig()
    dice: DiceView = DiceView()
    hint_allowed: bool = False
    watching: bool = False
    play_offered: bool = False
    watch_offered: bool = False
    banner: Prompt | None = None
    practising: str | None = None
    review: ReviewFigures | None = None
    bot_token: int = 0
    #: what the board's menu offers now (controller.play.table_menu), in its order
    menu_items: tuple[str, ...] = ()

    @property
    def menu_open(self) -> bool:
        return self.menu.is_open

    @property
    def asking_dice(self) -> bool:
        """The menu asks for real dice now (in any dice mode)."""
        return self.menu.mode == "dice"

    @property
    def language(self) -> str:
        return self.config.language

    @property
    def playing_online(self) -> bool:
        """A remote player sits at this table (an online match is being played)."""
        return REMOTE in self.match.settings.players

    @property
    def awaits_landing(self) -> bool:
        """The mover's checker may stand unseen on a full point or tray (every sensor there
        covered: controller.board.reconcile `Matched.unseen`), and the table waits for the
        main button to say it has landed ("White: on 6? Press the button"). Every hand that
        put a checker down there presses it: the person's, the computer level's online
        (controller.online.hands), the page's helping hands, the soak's."""
        v, m = self.verdict, self.match
        return (isinstance(v, Matched) and bool(v.unseen) and v.in_hand is not None and self.carried_out is None
                and m.phase == "move" and m.turn is not None and v.in_hand[1] == m.turn)

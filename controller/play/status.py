"""The controller's read-only status: what the front ends may know of it.

The page, the headless runner and the Pi's loop read this one frozen value instead of
the controller's attributes, so nothing outside the controller depends on how it keeps
its state, and nothing outside can change it.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.board.reconcile import BoardState, Matched, Verdict
from controller.engine.board_view import Colour
from controller.engine.match import Match
from controller.engine.moves import Move, Step
from controller.engine.position import Position
from controller.play.possible import PossibleAction


@dataclass(frozen=True)
class BotPlan:
    """A move the person carries out for the computer (or a remote player): its side, the
    move (mover's numbering) and the positions along it."""

    side: Colour
    move: Move
    path: tuple[Position, ...]


@dataclass(frozen=True)
class TableStatus:
    """One moment of the table, as the outside sees it.

    `mover` is the side whose checkers may move now (the side on turn, or the side whose
    move is being carried out); `reading` the board as last read (unchanged since
    `reading_since`), `board` as last settled,
    `settling` whether the reading still waits for its settling time; `board_ready` whether the board stands as the match says; `actions` what each
    player at the table may do now; `carried_out` the move shown on the LEDs, if any;
    `entering_dice` whether the board waits for real dice to be keyed in (entered dice),
    `asking_dice` whether the menu asks for them now (in any dice mode); `now` the
    controller's time (the clock is read at it); `opening_tie` the die both sides showed at
    the last opening roll, until the next action; `held_steps` see the field.
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
    menu_open: bool
    entering_dice: bool
    actions: tuple[PossibleAction, ...]
    now: float = 0.0
    opening_tie: int | None = None
    asking_dice: bool = False
    #: the steps of a move the tutor holds that stand on the board but are not in the match
    #: yet (the move waits for keep): what shows pips, dice and steps shows them too
    held_steps: tuple[Step, ...] = ()

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

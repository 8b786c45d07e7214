"""The hint shown on the board: one job of the controller.

A hint (controller.analysis.board_hint) is asked from the menu for the human who decides
now; it stands for the match it was asked for and is gone once anything changes. The next
ask shows the next-ranked move. The job's slice of the table's state is the hint shown
(one frozen `HintState`); the functions here read the match and the facts they name.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from controller.analysis.board_hint import ShownHint
from controller.engine.board_view import other
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, REMOTE
from controller.events import Announce, Effect
from controller.inputs.menu import MenuState
from controller.play.tutor import TutorHold
from controller.show.content import Prompt


@dataclass(frozen=True)
class HintState:
    """The hint's slice of the table's state: the hint shown, and the match it was asked
    for (it stands only while the match is that one)."""

    shown: ShownHint | None = None
    shown_for: Match | None = None

    def current(self, match: Match) -> ShownHint | None:
        """The hint shown for the match as it stands (None once anything has changed)."""
        return self.shown if self.shown is not None and self.shown_for is match else None

    def cleared(self) -> HintState:
        """The hint gives way (to the tutor's warning and its better move)."""
        return replace(self, shown=None) if self.shown is not None else self


def allowed(match: Match, *, carrying_out: bool, setting_up: bool) -> bool:
    """A hint for the human who decides now (the side on turn; to a double, the doubled
    side: take or pass?), never in online play (a remote player); where gnubg's network
    is not installed, the hint names the command that installs it."""
    m = match
    side = other(m.turn) if m.phase == "doubled" and m.turn is not None else m.turn  # who decides
    if side is None or carrying_out or setting_up or m.is_over:
        return False
    if REMOTE in m.settings.players or m.settings.player(side) != HUMAN:
        return False
    return m.phase in ("move", "doubled") or (m.phase == "roll" and m.may_double(side))


def cells(hint: HintState, match: Match, held: TutorHold | None) -> tuple[tuple[str, str], ...]:
    """What the `hint` role lights: the hinted move, or the tutor's better move."""
    shown = hint.current(match)
    if shown is not None:
        return shown.cells
    return held.warning.better if held is not None else ()


def show(hint: HintState, match: Match) -> tuple[HintState, tuple[Effect, ...]]:
    """The menu's Hint (when `allowed`): the best move, or the next-ranked one if a hint
    is shown."""
    from controller.analysis.board_hint import board_hint

    shown = hint.current(match)
    hint = HintState(board_hint(match, shown.rank + 1 if shown is not None else 1), match)
    return hint, (Announce(hint.shown.said),) if hint.shown is not None else ()


def prompt(hint: HintState, match: Match, menu: MenuState) -> Prompt | None:
    """The hint's line on the display (while the menu is closed or on its Hint)."""
    shown = hint.current(match)
    if shown is None or (menu.is_open and menu.item != "hint"):
        return None
    if shown.missing is not None:
        return Prompt.of("hint_missing", command=shown.missing)
    if shown.action_key is not None:
        return Prompt.of("hint_cube", action_key=shown.action_key)
    return Prompt.of("hint", rank=shown.rank, of=shown.of, notation=shown.notation, equity=f"{shown.equity:+.3f}")

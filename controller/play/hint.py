"""The hint shown on the board, and whom the tutor judges: one job of the controller.

A hint (controller.analysis.board_hint) is asked from the menu for the human who decides
now; it stands for the match it was asked for and is gone once anything changes. The next
ask shows the next-ranked move. The tutor (controller.play.tutor) judges the same people
with the same network, so the mark it warns about is decided here too. The job keeps the
hint shown and nothing else (one frozen `HintState`); it reads the table through `HintSeat`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from controller.analysis.board_hint import ShownHint
from controller.engine.board_view import Colour, other
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, REMOTE
from controller.events import Announce, Effect
from controller.inputs.menu import MenuState
from controller.play.seat import MatchSeat
from controller.play.tutor import Tutor
from controller.show.content import Prompt


class HintSeat(MatchSeat, Protocol):
    """What the hint reads of the table."""

    @property
    def playing_online(self) -> bool: ...
    @property
    def menu(self) -> MenuState: ...
    @property
    def tutor(self) -> Tutor: ...
    def player(self, side: Colour) -> str: ...


@dataclass(frozen=True)
class HintState:
    """The hint's slice of the table's state: the hint shown, and the match it was asked
    for (it stands only while the match is that one)."""

    shown: ShownHint | None = None
    shown_for: Match | None = None


class HintJob:
    """The hint shown for one match (see the module docstring); `tutor_setting` is the
    table's tutor setting (the least mark, or "off"), read when asked."""

    def __init__(self, seat: HintSeat, tutor_setting: Callable[[], str]) -> None:
        self._seat = seat
        self._tutor_setting = tutor_setting
        self._state = HintState()

    @property
    def state(self) -> HintState:
        """The hint's slice of the table's state (a frozen value)."""
        return self._state

    def allowed(self) -> bool:
        """A hint for the human who decides now (the side on turn; to a double, the doubled
        side: take or pass?), never in online play (a remote player); where gnubg's network
        is not installed, the hint names the command that installs it."""
        seat, m = self._seat, self._seat.match
        side = other(m.turn) if m.phase == "doubled" and m.turn is not None else m.turn  # who decides
        if side is None or seat.bot is not None or seat.setting_up or m.is_over:
            return False
        if seat.playing_online:
            return False
        if seat.player(side) != HUMAN:
            return False
        return m.phase in ("move", "doubled") or (m.phase == "roll" and m.may_double(side))

    def cells(self) -> tuple[tuple[str, str], ...]:
        """What the `hint` role lights: the hinted move, or the tutor's better move."""
        shown = self.current()
        if shown is not None:
            return shown.cells
        held = self._seat.tutor.hold(self._seat.match)
        return held.warning.better if held is not None else ()

    def current(self) -> ShownHint | None:
        """The hint shown for the match as it stands (None once anything has changed)."""
        shown = self._state.shown
        return shown if shown is not None and self._state.shown_for is self._seat.match else None

    def show(self, out: list[Effect]) -> None:
        """The menu's Hint: the best move, or the next-ranked one if a hint is shown."""
        from controller.analysis.board_hint import board_hint

        if not self.allowed():
            return
        shown = self.current()
        match = self._seat.match
        self._state = HintState(board_hint(match, shown.rank + 1 if shown is not None else 1), match)
        if self._state.shown is not None:
            out.append(Announce(self._state.shown.said))

    def clear(self) -> None:
        """The hint gives way (to the tutor's warning and its better move)."""
        if self._state.shown is not None:
            self._state = replace(self._state, shown=None)

    def tutor_mark(self, side: Colour) -> str:
        """The least mark the tutor warns `side` about: the setting for a person at the
        table; "off" for the computer, and for everyone in online play (a remote player).
        Where gnubg's network is not installed the tutor says so (`Tutor.notice`)."""
        mark = self._tutor_setting()
        if mark == "off" or self._seat.player(side) != HUMAN or REMOTE in self._seat.match.settings.players:
            return "off"
        return mark

    def prompt(self) -> Prompt | None:
        """The hint's line on the display (while the menu is closed or on its Hint)."""
        shown, menu = self.current(), self._seat.menu
        if shown is None or (menu.is_open and menu.item != "hint"):
            return None
        if shown.missing is not None:
            return Prompt.of("hint_missing", command=shown.missing)
        if shown.action_key is not None:
            return Prompt.of("hint_cube", action_key=shown.action_key)
        return Prompt.of("hint", rank=shown.rank, of=shown.of, notation=shown.notation, equity=f"{shown.equity:+.3f}")

"""The tutor's hold: an action of a person at the table that loses at least the chosen
mark waits, warned about, until the player keeps it or undoes it.

A double, take or drop, or a roll where a double was right, is held before it reaches the
match: kept, it is carried out as pressed (the dice are drawn only then); undone, nothing
happened. A completed move is held before it is confirmed: with
confirm ``button`` the match waits for the button anyway; with ``auto`` the step that
would end the turn is held back (the board shows it, the match does not have it yet), and
the player keeps the move or moves the checkers back. The judgement itself is
controller.analysis.tutor's (gnubg's network, loaded when first asked); `Tutor` keeps what
is held (one frozen `TutorState`) and asks it, `warning_prompt` says it. Whom it judges (a person at the table,
never the computer, never online) the controller decides: its `mark_for(side)` says
"off" for everyone else.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.analysis.tutor import CUBE_ACTIONS, TutorWarning
from controller.engine.board_view import COLOURS, Colour
from controller.engine.match import Match
from controller.engine.position import Position
from controller.play.possible import Held
from controller.show.content import Prompt


@dataclass(frozen=True)
class TutorHold:
    """`side`'s action the tutor warns about (`warning.action`: move, roll, double, take, drop),
    judged on `match`: the hold lasts only while the match stays as it was. A held move's
    `target` is the complete move the board shows."""

    side: Colour
    warning: TutorWarning
    match: Match
    target: Position | None = None

    @property
    def held(self) -> Held:
        """What controller.play.possible needs to know of it."""
        return Held(self.side, self.warning.action)

    @property
    def is_move(self) -> bool:
        return self.warning.action == "move"


def warning_prompt(warning: TutorWarning) -> Prompt:
    """The display's line: "Bad: -0.09. Undo?" for a move; "Bad double: -0.13 (no double).
    Undo?" for a cube action, with the right cube action."""
    loss = f"{-warning.loss:.2f}"
    if warning.action == "move":
        return Prompt.of("tutor", mark_key=f"tutor.{warning.mark}", loss=loss)
    return Prompt.of("tutor_cube", mark_key=f"tutor.{warning.action}.{warning.mark}", loss=loss,
                     right_key=warning.right_key or "")


@dataclass(frozen=True)
class TutorState:
    """The tutor's slice of the table's state: the action it holds back now (a cube action,
    or a move confirmed automatically), or None."""

    held: TutorHold | None = None


class Tutor:
    """The table's tutor: what it holds now, and its judgements (a move's is kept for the
    position it was asked about, as the board asks again at every reading: a memo of the
    network's answer, owned here and not part of the table's state)."""

    def __init__(self, mark_for: Callable[[Colour], str]) -> None:
        self._mark_for = mark_for  # the least mark judged for a side, "off": not judged
        self._state = TutorState()
        self._judged: tuple[tuple[object, ...], TutorWarning | None] | None = None

    @property
    def state(self) -> TutorState:
        """The tutor's slice of the table's state (a frozen value)."""
        return self._state

    def hold(self, match: Match) -> TutorHold | None:
        """The action held now: one held back while the match stays as it was judged, or,
        with confirm ``button``, the completed move on the board if it loses the mark."""
        held = self._state.held
        if held is not None and held.match is not match:
            self._state = TutorState()
        elif held is not None:
            return held
        if match.settings.confirm == "button" and match.move_complete and match.turn is not None:
            warning = self.move(match, match.partial)
            if warning is not None:
                return TutorHold(match.turn, warning, match, match.partial)
        return None

    def notice(self, match: Match) -> Prompt | None:
        """The one line saying the tutor cannot judge here and the command that installs
        what it needs, while a game waits for its opening roll with the tutor on for a
        person at the table (it then judges nothing: play goes on unwarned)."""
        if match.phase != "opening" or all(self._mark_for(side) == "off" for side in COLOURS):
            return None
        from controller.analysis.board_hint import judgement_missing

        missing = judgement_missing()
        return None if missing is None else Prompt.of("tutor_missing", command=missing)

    def _judges(self, side: Colour | None) -> str:
        """The least mark judged for `side`: "off" also where no judgement is installed."""
        mark = "off" if side is None else self._mark_for(side)
        if mark == "off":
            return mark
        from controller.analysis.board_hint import judgement_missing

        return "off" if judgement_missing() is not None else mark

    def move(self, match: Match, result: Position) -> TutorWarning | None:
        """The warning for the roll's complete move leaving `result`, or None."""
        side = match.turn
        mark = self._judges(side)
        if mark == "off":
            return None
        key = (match.position, match.dice, side, match.score, match.length, match.cube,
               match.cube_owner, match.crawford, result, mark)
        if self._judged is None or self._judged[0] != key:
            from controller.analysis.tutor import move_warning

            self._judged = (key, move_warning(match, result, mark))
        return self._judged[1]

    def hold_move(self, match: Match, target: Position, warning: TutorWarning) -> TutorHold:
        """Hold the move completed on the board (`target`) while `match` waits for its
        last step."""
        assert match.turn is not None
        held = TutorHold(match.turn, warning, match, target)
        self._state = TutorState(held)
        return held

    def cube(self, match: Match, side: Colour, action: str) -> TutorHold | None:
        """Judge `side`'s roll, double, take or drop before it counts: a bad one is held
        (and returned); None lets it count now."""
        mark = self._judges(side)
        if mark == "off" or action not in CUBE_ACTIONS:
            return None
        from controller.analysis.tutor import cube_warning

        warning = cube_warning(match, action, mark)
        if warning is None:
            return None
        held = TutorHold(side, warning, match)
        self._state = TutorState(held)
        return held

    def board_shows(self, position: Position | None) -> None:
        """The settled board stands so (None: not a position of the turn, or a checker in
        hand): a held move whose checkers were moved away is no longer held."""
        held = self._state.held
        if held is not None and held.target is not None and position != held.target:
            self._state = TutorState()

    def release(self) -> None:
        """The held action is kept or undone: nothing is held any more."""
        self._state = TutorState()

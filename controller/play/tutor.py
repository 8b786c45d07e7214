"""The tutor's hold: an action of a person at the table that loses at least the chosen
mark waits, warned about, until the player keeps it or undoes it.

A double, take or drop, or a roll where a double was right, is held before it reaches the
match: kept, it is carried out as pressed (the dice are drawn only then); undone, nothing
happened. A completed move is held before it is confirmed: with
confirm ``button`` the match waits for the button anyway; with ``auto`` the step that
would end the turn is held back (the board shows it, the match does not have it yet), and
the player keeps the move or moves the checkers back. The judgement itself is
controller.analysis.tutor's (gnubg's network, loaded when first asked); the tutor's slice of
the table's state is what it holds (one frozen `TutorState`), the functions here judge and
`warning_prompt` says it. Whom it judges (a person at the table, never the computer, never
online) `mark_for` says: "off" for everyone else.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.analysis.tutor import CUBE_ACTIONS, TutorWarning
from controller.engine.board_view import COLOURS, Colour
from controller.engine.match import Match
from controller.engine.match_settings import HUMAN, REMOTE
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

    def fresh(self, match: Match) -> TutorState:
        """Nothing is held any more once the match is not the one the hold was judged on."""
        return self if self.held is None or self.held.match is match else TutorState()

    def board_shows(self, position: Position | None) -> TutorState:
        """The settled board stands so (None: not a position of the turn, or a checker in
        hand): a held move whose checkers were moved away is no longer held."""
        held = self.held
        return TutorState() if held is not None and held.target is not None and position != held.target else self


def mark_for(setting: str, match: Match, side: Colour | None) -> str:
    """The least mark the tutor warns `side` about: the table's setting for a person at
    the table; "off" for the computer, and for everyone in online play (a remote player)."""
    if side is None or setting == "off" or match.settings.player(side) != HUMAN \
            or REMOTE in match.settings.players:
        return "off"
    return setting


def _judges(setting: str, match: Match, side: Colour | None) -> str:
    """`mark_for`, and "off" also where gnubg's network is not installed (`notice` says so)."""
    mark = mark_for(setting, match, side)
    if mark == "off":
        return mark
    from controller.analysis.board_hint import judgement_missing

    return "off" if judgement_missing() is not None else mark


def hold(tutor: TutorState, match: Match, setting: str) -> TutorHold | None:
    """The action held now: one held back while the match stays as it was judged, or,
    with confirm ``button``, the completed move on the board if it loses the mark."""
    held = tutor.fresh(match).held
    if held is not None:
        return held
    if match.settings.confirm == "button" and match.move_complete and match.turn is not None:
        warning = move_warning(match, match.partial, setting)
        if warning is not None:
            return TutorHold(match.turn, warning, match, match.partial)
    return None


def notice(match: Match, setting: str) -> Prompt | None:
    """The one line saying the tutor cannot judge here and the command that installs
    what it needs, while a game waits for its opening roll with the tutor on for a
    person at the table (it then judges nothing: play goes on unwarned)."""
    if match.phase != "opening" or all(mark_for(setting, match, side) == "off" for side in COLOURS):
        return None
    from controller.analysis.board_hint import judgement_missing

    missing = judgement_missing()
    return None if missing is None else Prompt.of("tutor_missing", command=missing)


_judged: dict[str, tuple[tuple[object, ...], TutorWarning | None]] = {}


def move_warning(match: Match, result: Position, setting: str) -> TutorWarning | None:
    """The warning for the roll's complete move leaving `result`, or None. The network's
    answer is kept for the last position asked about (the board asks again at every
    reading): a memo of a pure function, not part of the table's state."""
    side = match.turn
    mark = _judges(setting, match, side)
    if mark == "off":
        return None
    key = (match.position, match.dice, side, match.score, match.length, match.cube,
           match.cube_owner, match.crawford, result, mark)
    last = _judged.get("move")
    if last is None or last[0] != key:
        from controller.analysis.tutor import move_warning as judge

        last = _judged["move"] = (key, judge(match, result, mark))
    return last[1]


def held_move(match: Match, target: Position, warning: TutorWarning) -> TutorState:
    """The move completed on the board (`target`) held while `match` waits for its last step."""
    assert match.turn is not None
    return TutorState(TutorHold(match.turn, warning, match, target))


def cube_hold(match: Match, side: Colour, action: str, setting: str) -> TutorHold | None:
    """Judge `side`'s roll, double, take or drop before it counts: a bad one is held (the
    hold returned); None lets it count now."""
    mark = _judges(setting, match, side)
    if mark == "off" or action not in CUBE_ACTIONS:
        return None
    from controller.analysis.tutor import cube_warning

    warning = cube_warning(match, action, mark)
    return None if warning is None else TutorHold(side, warning, match)

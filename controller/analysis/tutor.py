"""The tutor's judgement: does a completed move or a cube action lose at least the chosen
mark? The same judgement as `bgboard analyze` (controller.analysis.match): a move's loss
against gnubg's best move of the roll, a double's and an answer's from gnubg's cube
decision of the doubler's position (`double_loss`, `answer_loss`), cubeful at the match
score, 0-ply, marked with the analysis's thresholds. A roll where a double was right is a
cube action too (the analysis's "no double" decision, `no_double_loss`).

Pure apart from the network. The controller asks before the action counts and holds it
back while the player keeps or undoes it (controller.play.tutor); which players are
judged at all (a person at the table, never the computer or a remote player, never
online) is the controller's decision, not this module's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from controller.engine.board_view import step_cells

if TYPE_CHECKING:
    from controller.engine.match import Match
    from controller.engine.position import Position

TUTOR_MARKS: tuple[str, ...] = ("off", "doubtful", "bad", "very_bad")
"""The tutor setting: off, or the least serious mark it warns about (the analysis's marks)."""
Judged = Literal["move", "roll", "double", "take", "drop"]
"""What the tutor judges: a completed move, or a cube action (a roll: not doubling)."""
CubeAction = Literal["roll", "double", "take", "drop"]
CUBE_ACTIONS: tuple[CubeAction, ...] = ("roll", "double", "take", "drop")
CUBE_ACTION_KEYS: dict[str, str] = {
    "No double": "hint.no_double", "Double, take": "hint.double_take", "Double, pass": "hint.double_pass",
    "Too good to double": "hint.too_good",
}
"""gnubg's cube action (CubeEval.action) as a message key of the display."""
RIGHT_CUBE_KEYS: dict[str, str] = {
    "No double": "tutor.right.no_double", "Double, take": "tutor.right.double_take",
    "Double, pass": "tutor.right.double_pass", "Too good to double": "tutor.right.too_good",
}
"""gnubg's cube action as the tutor names the right one: shorter words than the hint's, as
the whole warning must fit the display's two lines."""


@dataclass(frozen=True)
class TutorWarning:
    """An action that loses `loss` EMG (mark `mark`, a TUTOR_MARKS word). For a move:
    the better move's (from, to) cells to light; for a cube action: `action` (roll,
    double, take, drop) and `right_key`, the message key of the right cube action."""

    mark: str
    loss: float
    better: tuple[tuple[str, str], ...] = ()
    action: Judged = "move"
    right_key: str | None = None


def _reaches(loss: float, threshold: str) -> str | None:
    """The loss's mark as a TUTOR_MARKS word if it is at least `threshold`, else None."""
    from controller.analysis.match import mark_of

    mark = mark_of(loss).replace(" ", "_")
    if threshold == "off" or not mark or TUTOR_MARKS.index(mark) < TUTOR_MARKS.index(threshold):
        return None
    return mark


def move_warning(match: Match, result: Position, threshold: str) -> TutorWarning | None:
    """The tutor's warning for the roll's complete move that leaves `result` (the mover's
    view), if it loses at least the `threshold` mark; None for a good or forced move, a
    position that is no complete move of the roll, or outside a move."""
    from controller.analysis.hint import hint
    from controller.analysis.match_context import bot_context

    side = match.turn
    if threshold == "off" or side is None or match.phase != "move" or match.dice is None:
        return None
    ranked = hint(match.position, match.dice, bot_context(match, side))
    played = next((h for h in ranked if h.move.result == result), None)
    if played is None:
        return None
    mark = _reaches(played.loss, threshold)
    if mark is None:
        return None
    better = tuple(step_cells(s, side) for s in ranked[0].move.steps)
    return TutorWarning(mark, played.loss, better)


def cube_warning(match: Match, action: CubeAction, threshold: str) -> TutorWarning | None:
    """The tutor's warning for the side on turn's roll or double (phase ``roll``) or the
    doubled side's take or drop (phase ``doubled``), if it loses at least the `threshold`
    mark; None for a good action, or an action the match is not at."""
    from controller.analysis.hint import cube_decision
    from controller.analysis.match import answer_loss, double_loss, no_double_loss, right_answer
    from controller.engine.position import Position
    from controller.analysis.match_context import bot_context

    doubler = match.turn
    at = "roll" if action in ("roll", "double") else "doubled"
    if threshold == "off" or doubler is None or match.phase != at:
        return None
    if action == "roll" and (not match.may_double(doubler) or match.position == Position.initial()):
        return None  # no cube decision (the analysis has none in a game's first position)
    cube = cube_decision(match.position, bot_context(match, doubler))
    if action == "roll":
        loss, right_key = no_double_loss(cube), RIGHT_CUBE_KEYS[cube.action]
    elif action == "double":
        loss, right_key = double_loss(cube), RIGHT_CUBE_KEYS[cube.action]
    else:
        loss, right_key = answer_loss(cube, took=action == "take"), f"tutor.right.{right_answer(cube)}"
    mark = _reaches(loss, threshold)
    return None if mark is None else TutorWarning(mark, loss, action=action, right_key=right_key)

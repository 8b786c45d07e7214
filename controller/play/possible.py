"""What is possible now: the one list every front end renders.

`possible_actions` answers, for one moment of a match at the table, which match actions
each player at the table may take, and which of their buttons takes it. The buttons,
the menu, the prompt's offers, the simulator page and the headless runner all read this
list; the controller refuses anything not on it. It is a pure function of the match and
a few facts of the table (who sits at the table, whether the board is right, whether a
move shown on the LEDs is being carried out, an action the tutor holds back), so it is
tested on its own against the match's own checks: every action listed is one the match
accepts. While the tutor holds a player's action (controller.play.tutor), that player's
main button keeps it (`keep`: it then counts as pressed) and, for a cube action, the cube
button undoes it (`undo`: nothing happened); a held move is undone by moving the
checkers back, so only `keep` is listed for it. Keeping a held move or roll needs the
board right, as the move's `done` and a roll do.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from controller.engine.board_view import COLOURS, Colour, other
from controller.engine.match import LEVELS, Match

if TYPE_CHECKING:
    from controller.analysis.tutor import Judged

ActionName = Literal["roll", "done", "double", "take", "drop", "accept", "decline",
                     "resign", "forfeit", "rematch", "keep", "undo"]
ACTION_NAMES: tuple[ActionName, ...] = ("roll", "done", "double", "take", "drop", "accept",
                                        "decline", "resign", "forfeit", "rematch", "keep", "undo")
Button = Literal["main", "cube"]


@dataclass(frozen=True, slots=True)
class Held:
    """An action of `side` the tutor holds back until it is kept or undone."""

    side: Colour
    action: Judged


@dataclass(frozen=True, slots=True)
class PossibleAction:
    """One action a player may take now; `button` is the player's button that takes it
    (None: only through the menu, the page's list or a script)."""

    side: Colour
    action: ActionName
    level: str | None = None
    button: Button | None = None

    @property
    def command(self) -> str:
        """As a script line says it: `white double`, `black resign gammon`."""
        return " ".join(x for x in (self.side, self.action, self.level) if x)


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the table adds to the match: which sides a person plays at this table, the
    board standing as the match says, a move on the LEDs being carried out, an action
    the tutor holds back."""

    at_table: Callable[[Colour], bool]
    board_ready: bool
    carrying_out: bool = False
    held: Held | None = None


def possible_actions(match: Match, facts: TableFacts) -> tuple[PossibleAction, ...]:
    """Every action possible now (see the module docstring), in a stable order."""
    people = [side for side in COLOURS if facts.at_table(side)]
    held = facts.held
    if held is not None and held.side in people and match.phase != "over":
        found = _held(held, facts)
    else:
        found = _BY_PHASE[match.phase](match, facts, people)
    if match.phase != "over":
        found += [PossibleAction(side, "forfeit") for side in people]
    return tuple(found)


def _held(held: Held, facts: TableFacts) -> list[PossibleAction]:
    """An action the tutor holds back: keep it (as `done` and `roll` need, on a board that
    stands right), or undo it (a held move is undone by moving the checkers back)."""
    found = []
    if held.action not in ("move", "roll") or facts.board_ready:
        found.append(PossibleAction(held.side, "keep", button="main"))
    if held.action != "move":
        found.append(PossibleAction(held.side, "undo", button="cube"))
    return found


def _opening(m: Match, facts: TableFacts, people: list[Colour]) -> list[PossibleAction]:
    if not facts.board_ready:
        return []
    return [PossibleAction(side, "roll", button="main") for side in people]


def _roll(m: Match, facts: TableFacts, people: list[Colour]) -> list[PossibleAction]:
    turn = m.turn
    if turn is None or turn not in people or facts.carrying_out:
        return []
    found = [PossibleAction(turn, "roll", button="main")] if facts.board_ready else []
    if m.may_double(turn):
        found.append(PossibleAction(turn, "double", button="cube"))
    return found + [PossibleAction(turn, "resign", level) for level in _offerable(m)]


def _answer(yes: ActionName, no: ActionName) -> Callable[[Match, TableFacts, list[Colour]], list[PossibleAction]]:
    """The answer to the side on turn's offer (a double, a resignation), by its opponent."""
    def answers(m: Match, facts: TableFacts, people: list[Colour]) -> list[PossibleAction]:
        if m.turn is None or other(m.turn) not in people:
            return []
        return [PossibleAction(other(m.turn), yes, button="main"),
                PossibleAction(other(m.turn), no, button="cube")]
    return answers


def _move(m: Match, facts: TableFacts, people: list[Colour]) -> list[PossibleAction]:
    turn = m.turn
    if turn is None or turn not in people or facts.carrying_out or not (m.move_complete and facts.board_ready):
        return []
    return [PossibleAction(turn, "done", button="main")]


def _over(m: Match, facts: TableFacts, people: list[Colour]) -> list[PossibleAction]:
    return _rematch(m, people)


_BY_PHASE: dict[str, Callable[[Match, TableFacts, list[Colour]], list[PossibleAction]]] = {
    "opening": _opening, "roll": _roll, "doubled": _answer("take", "drop"), "move": _move,
    "resigning": _answer("accept", "decline"), "over": _over,
}


def _offerable(match: Match) -> tuple[str, ...]:
    """The resignations still open this turn (after a decline only higher ones)."""
    return LEVELS[match.declined:]


def _rematch(match: Match, people: list[Colour]) -> list[PossibleAction]:
    offer = match.rematch_offer
    if offer is None:
        return [PossibleAction(side, "rematch", button="main") for side in people]
    answer = other(offer)
    if answer not in people:
        return []
    return [PossibleAction(answer, "accept", button="main"),
            PossibleAction(answer, "decline", button="cube")]


def find(actions: tuple[PossibleAction, ...], side: Colour | None, action: str,
         level: str | None = None) -> PossibleAction | None:
    """The listed action matching `side`, `action` (and the resignation `level`)."""
    for possible in actions:
        if possible.side == side and possible.action == action and \
                (action != "resign" or possible.level == (level or "single")):
            return possible
    return None


def for_button(actions: tuple[PossibleAction, ...], side: Colour | None,
               button: str) -> PossibleAction | None:
    """What `side`'s `button` does now, or None."""
    for possible in actions:
        if possible.side == side and possible.button == button:
            return possible
    return None

"""The hint the board shows: gnubg's n-th best move of the roll (lit with the `hint` role,
the move and its equity on the display), before rolling the proper cube action, and to a
double offered the proper answer, take or pass (the tutor's warnings are
controller.analysis.tutor).

Pure apart from the network: the controller asks `board_hint(match, rank)` when the
menu's hint is chosen and shows what it gets; a second choice asks for the next rank.
Hints are refused where a player is remote (online play); where no network is installed
the hint answers with the command that installs it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.analysis.tutor import CUBE_ACTION_KEYS
from controller.engine.board_view import step_cells
from controller.evaluation.backend import INSTALL_HINT

if TYPE_CHECKING:
    from controller.engine.match import Match



@dataclass(frozen=True)
class ShownHint:
    """What the board shows for a hint: a move (`rank` of `of`, its notation, equity and
    the (from, to) cells of its steps), a cube action (`action_key`, a message key), or,
    where no judgement is installed, the command that installs it (`missing`)."""

    rank: int = 1
    of: int = 1
    notation: str = ""
    equity: float = 0.0
    cells: tuple[tuple[str, str], ...] = ()
    action_key: str | None = None
    missing: str | None = None

    @property
    def said(self) -> str:
        """The log's line for it."""
        return f"hint: needs {self.missing}" if self.missing else f"hint: {self.notation or self.action_key}"


def judgement_missing() -> str | None:
    """None where hints and the tutor can judge (gnubg's network is installed); else the
    command that installs it, for the one line the hint and the tutor answer with."""
    from controller.analysis.network import network_available

    return None if network_available() else INSTALL_HINT


def board_hint(match: Match, rank: int) -> ShownHint | None:
    """The `rank`-th best move (1 = best; wraps round) of the roll on the board, or the
    cube action before rolling, or what to install for either; None when there is
    nothing to hint."""
    from controller.analysis.hint import cube_hint, hint
    from controller.analysis.match_context import bot_context

    side = match.turn
    if side is None:
        return None
    missing = judgement_missing()
    if missing is not None:
        return ShownHint(missing=missing)
    context = bot_context(match, side)
    if match.phase == "move" and match.dice is not None:
        ranked = hint(match.position, match.dice, context)
        if not ranked:
            return None
        chosen = ranked[(rank - 1) % len(ranked)]
        cells = tuple(step_cells(s, side) for s in chosen.move.steps)
        return ShownHint((rank - 1) % len(ranked) + 1, len(ranked), chosen.move.notation, chosen.equity, cells)
    if match.phase == "roll":
        return ShownHint(action_key=CUBE_ACTION_KEYS[cube_hint(match.position, context)])
    if match.phase == "doubled":  # the doubled side asks: take or pass (the tutor's words)
        from controller.analysis.hint import cube_decision
        from controller.analysis.match import right_answer

        return ShownHint(action_key=f"tutor.right.{right_answer(cube_decision(match.position, context))}")
    return None

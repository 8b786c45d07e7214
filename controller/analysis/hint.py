"""Hints: GNU Backgammon's best moves and cube action for the player on roll.

The board's hint button, the page and the tutor ask this module (no I/O beyond the
network): `hint` ranks every legal move of a roll by cubeful equity at the match score,
`cube_hint` says "No double", "Double, take", "Double, pass" (or "Too good to double"),
and `move_loss` is what a chosen move gives away, for the tutor's warning. Money play is
judged as at 7-away/7-away (the analysis's cube formulas are match play only), as the
`gnubg` computer level does.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.analysis.cubeful import CENTRE, CubeInfo
from controller.analysis.evaluator import CubeEval, Evaluator
from controller.analysis.network import load_network
from controller.analysis.match_context import MatchContext
from controller.engine import Move, Position, legal_moves

MONEY_STAND_IN = 7
_shared: list[Evaluator] = []


@dataclass(frozen=True, slots=True)
class Hint:
    """A legal move with its cubeful equity (EMG) and how much worse than the best it is."""

    move: Move
    equity: float
    loss: float

    @property
    def text(self) -> str:
        """`13/7 8/7  +0.123` or with the loss for lower ranks: `24/18 13/10  -0.341 (-0.046)`."""
        head = f"{self.move.notation}  {self.equity:+.3f}"
        return head if self.loss == 0.0 else f"{head} ({-self.loss:+.3f})"


def _evaluator(evaluator: Evaluator | None) -> Evaluator:
    if evaluator is not None:
        return evaluator
    network = load_network()  # the one BGBOARD_NETWORK chooses now
    if not _shared or _shared[0].network is not network:
        _shared[:] = [Evaluator(network)]
    return _shared[0]


def cube_info(context: MatchContext) -> CubeInfo:
    """The mover's (the `bot` side of `context`) cube and score as gnubg's cubeinfo."""
    if context.is_money:
        length, mine, theirs = MONEY_STAND_IN, MONEY_STAND_IN, MONEY_STAND_IN
    else:
        length, mine, theirs = context.length, context.bot_away, context.opponent_away
    owner = {"center": CENTRE, "bot": 0, "opponent": 1}[context.owner]
    return CubeInfo(length, (length - mine, length - theirs), context.cube, owner, 0, context.crawford)


def hint(position: Position, dice: tuple[int, int], context: MatchContext | None = None,
         evaluator: Evaluator | None = None) -> list[Hint]:
    """Every legal move of `dice` for the player on roll in `position`, best first.
    `context` is the match seen by that player (default: a money game)."""
    ev = _evaluator(evaluator)
    ci = cube_info(context or MatchContext())
    board = (position.theirs, position.mine)
    ranked = ev.candidates(board, dice, ci)
    by_key = {ev.key_of((m.result.mine, m.result.theirs)): m for m in legal_moves(position, dice)}
    if not ranked:
        return []
    best = ranked[0].equity
    return [Hint(by_key[c.key], c.equity, best - c.equity) for c in ranked if c.key in by_key]


def cube_decision(position: Position, context: MatchContext | None = None,
                  evaluator: Evaluator | None = None) -> CubeEval:
    """gnubg's cube decision (no double, double/take, double/pass) for the player on roll
    before rolling, in EMG for that player: the hint names its action, the tutor judges
    a double and its answer by it as the analysis does."""
    ev = _evaluator(evaluator)
    return ev.cube((position.theirs, position.mine), cube_info(context or MatchContext()))


def cube_hint(position: Position, context: MatchContext | None = None, evaluator: Evaluator | None = None) -> str:
    """The proper cube action for the player on roll before rolling."""
    return cube_decision(position, context, evaluator).action


def move_loss(position: Position, dice: tuple[int, int], move: Move, context: MatchContext | None = None,
              evaluator: Evaluator | None = None) -> float:
    """EMG that `move` gives away against the best move (0.0 for the best or a forced one)."""
    for h in hint(position, dice, context, evaluator):
        if h.move.result == move.result:
            return h.loss
    raise ValueError(f"{move.notation} is not a legal move of {dice[0]}-{dice[1]} here")

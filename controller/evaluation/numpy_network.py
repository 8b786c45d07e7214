"""gnubg's 0-ply evaluation in numpy: the primitives of the `gnubg-nn` wheel the analysis
and the levels use, from the gnubg program's own weight file.

All moves of a roll are evaluated together: the boards are classified, each class's
inputs stacked, and every network runs once per class as one matrix product.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from controller.engine import Position, legal_moves
from controller.evaluation import bearoff_db, classify as cl, inputs, keys
from controller.evaluation.backend import Board, BoardLike, Chances
from controller.evaluation.net import forward
from controller.evaluation.race import race_improvement
from controller.evaluation.weights import NetWeights, read_binary

P_PRUNE = -4
"""gnubg-nn's ply number for the pruning networks (`gnubg_nn.p_prune`)."""
_NETS = {cl.CONTACT: "contact", cl.CRASHED: "crashed", cl.RACE: "race"}


class RankedMove(NamedTuple):
    """A legal move as `ranked_moves` gives it: the key of the board it leaves (the
    opponent on roll), their chances, the mover's cubeless equity, that board, its class."""

    key: str
    chances: Chances
    equity: float
    board: Board
    cls: int


class RankedRolls(NamedTuple):
    """`ranked_moves`: the chances of the side on roll before rolling, each roll's moves."""

    before: Chances
    rolls: list[list[RankedMove]]


def _inverted(p: Sequence[float]) -> Chances:
    return (1.0 - p[0], p[3], p[4], p[1], p[2])


class NumpyNetwork:
    """gnubg's networks from a weight file, behind gnubg-nn's function names."""

    p_prune = P_PRUNE

    def __init__(self, weights: Path) -> None:
        self.nets: dict[str, NetWeights] = read_binary(weights.read_bytes())
        self.weights = weights

    # -- evaluation -------------------------------------------------------------------
    def evaluate_many(self, boards: Sequence[BoardLike] | np.ndarray, prune: bool = False) -> list[Chances]:
        """0-ply chances of the side on roll (`board[1]`) of each board (gnubg's
        `EvaluatePosition` with its sanity check; with `prune`, `evalPrune`)."""
        if not len(boards):
            return []
        batch = np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25)
        return self._evaluate(batch, cl.classify_many(batch), prune)

    def _evaluate(self, batch: np.ndarray, classes: np.ndarray, prune: bool) -> list[Chances]:
        out = np.zeros((len(batch), 5))
        for cls, name in _NETS.items():
            rows = np.flatnonzero(classes == cls)
            if not len(rows):
                continue
            group = batch[rows]
            if prune:
                values = forward(self.nets["prune " + name], inputs.base_inputs(group))
            elif cls == cl.RACE:
                values = forward(self.nets[name], inputs.race_inputs(group))
            else:
                values = forward(self.nets[name], inputs.contact_inputs(group, crashed=cls == cl.CRASHED))
            out[rows] = values
            if cls == cl.RACE:
                for i in rows:
                    improved = out[i].tolist()
                    race_improvement(batch[i].tolist(), improved)
                    out[i] = improved
        for i in np.flatnonzero(classes < cl.RACE):
            board = batch[i].tolist()
            if classes[i] == cl.OVER:
                out[i] = cl.game_over(board)
            elif classes[i] == cl.BEAROFF2:
                out[i] = bearoff_db.two_sided_eval(board) or bearoff_db.one_sided_eval(board)
            else:
                out[i] = bearoff_db.one_sided_eval(board)
        if not prune:
            cl.sanity_check(batch, out)
        return [(a, b, c, d, e) for a, b, c, d, e in out.tolist()]

    def probabilities(self, board: BoardLike, plies: int) -> Chances:
        """gnubg-nn's `probabilities` at 0 ply or with the pruning networks."""
        if plies not in (0, P_PRUNE):
            raise ValueError("the numpy network evaluates at 0 ply only; look further with analysis.lookahead")
        return self.evaluate_many([board], prune=plies == P_PRUNE)[0]

    def classify(self, board: BoardLike) -> int:
        return cl.classify(board)

    def classify_many(self, boards: Sequence[BoardLike]) -> list[int]:
        if not len(boards):
            return []
        return [int(c) for c in cl.classify_many(np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25))]

    # -- keys and moves ---------------------------------------------------------------
    def keys_of_boards(self, boards: Sequence[BoardLike]) -> list[str]:
        if not len(boards):
            return []
        return keys.keys_of_boards(np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25))

    def key_of_board(self, board: BoardLike) -> str:
        return keys.key_of_board(board)

    def board_from_position_key(self, key: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return keys.board_from_key(key)

    def moves(self, board: BoardLike, d1: int, d2: int) -> tuple[str, ...]:
        """Keys of the boards every legal move of the roll leaves, as gnubg-nn's `moves`
        gives them: still seen by the mover (`[opponent, mover]`)."""
        position = Position(tuple(board[1]), tuple(board[0]))
        return tuple(keys.key_of_board((m.result.theirs, m.result.mine)) for m in legal_moves(position, (d1, d2)))

    def after_boards(self, board: BoardLike, rolls: Sequence[tuple[int, int]]) -> list[list[Board]]:
        """Each roll's legal moves as the boards they leave, `(mover, opponent)`: the
        opponent on roll, in the order `moves` gives their keys."""
        position = Position(tuple(board[1]), tuple(board[0]))
        return [[(m.result.mine, m.result.theirs) for m in legal_moves(position, roll)] for roll in rolls]

    def best_move(self, board: BoardLike, d1: int, d2: int, n: int = 0, list: int = 0,  # noqa: A002 (gnubg-nn's name)
                  **_ignored: object) -> tuple[tuple[()], tuple[tuple[str, tuple[()], Chances, float], ...]]:
        """The roll's moves ranked by 0-ply cubeless equity, as gnubg-nn's
        `best_move(..., list=1)[1]`: (key, steps (not kept), the opponent's chances
        after the move, the mover's equity), best first."""
        if n != 0:
            raise ValueError("the numpy network ranks moves at 0 ply only")
        return (), tuple((m.key, (), m.chances, m.equity) for m in self.ranked_moves(board, [(d1, d2)]).rolls[0])

    def ranked_moves(self, board: BoardLike, rolls: Sequence[tuple[int, int]]) -> RankedRolls:
        """For each roll, its moves ranked as `best_move` ranks them, best first, and the
        chances of the side on roll before rolling. Every roll's moves and the board
        itself go through the networks as one batch: a turn's luck asks for all 21 rolls,
        its cube decision for the board."""
        afters = self.after_boards(board, rolls)
        flat = [(tuple(board[0]), tuple(board[1]))] + [a for roll_afters in afters for a in roll_afters]
        batch = np.asarray(flat, dtype=np.int64)
        found = keys.keys_of_boards(batch)
        classes = cl.classify_many(batch)
        chances = self._evaluate(batch, classes, prune=False)
        out = []
        at = 1
        for roll_afters in afters:
            ranked = []
            for i in range(at, at + len(roll_afters)):
                p = chances[i]
                ranked.append(RankedMove(found[i], p, -(2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]),
                                         (flat[i][0], flat[i][1]), int(classes[i])))
            at += len(roll_afters)
            ranked.sort(key=lambda r: r.equity, reverse=True)
            out.append(ranked)
        return RankedRolls(chances[0], out)

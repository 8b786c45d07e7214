"""gnubg's 0-ply evaluation in numpy: the primitives of the `gnubg-nn` wheel the analysis
and the levels use, from the gnubg program's own weight file.

All moves of a roll are evaluated together: the boards are classified, each class's
inputs stacked, and every network runs once per class as one matrix product.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from controller.engine import Position, legal_moves
from controller.evaluation import bearoff_db, classify as cl, inputs, keys
from controller.evaluation.net import forward
from controller.evaluation.race import race_improvement
from controller.evaluation.weights import NetWeights, read_binary

P_PRUNE = -4
"""gnubg-nn's ply number for the pruning networks (`gnubg_nn.p_prune`)."""
Chances = tuple[float, float, float, float, float]
BoardLike = Sequence[Sequence[int]]
_NETS = {cl.CONTACT: "contact", cl.CRASHED: "crashed", cl.RACE: "race"}


def _inverted(p: Sequence[float]) -> Chances:
    return (1.0 - p[0], p[3], p[4], p[1], p[2])


class NumpyNetwork:
    """gnubg's networks from a weight file, behind gnubg-nn's function names."""

    p_prune = P_PRUNE

    def __init__(self, weights: Path) -> None:
        self.nets: dict[str, NetWeights] = read_binary(weights.read_bytes())
        self.weights = weights

    # -- evaluation -------------------------------------------------------------------
    def evaluate_many(self, boards: Sequence[BoardLike], prune: bool = False) -> list[Chances]:
        """0-ply chances of the side on roll (`board[1]`) of each board (gnubg's
        `EvaluatePosition` with its sanity check; with `prune`, `evalPrune`)."""
        classes = [cl.classify(b) for b in boards]
        out: list[list[float]] = [[0.0] * 5 for _ in boards]
        for cls, name in _NETS.items():
            rows = [i for i, c in enumerate(classes) if c == cls]
            if not rows:
                continue
            batch = np.array([boards[i] for i in rows], dtype=np.int64)
            if prune:
                values = forward(self.nets["prune " + name], inputs.base_inputs(batch))
            elif cls == cl.RACE:
                values = forward(self.nets[name], inputs.race_inputs(batch))
            else:
                values = forward(self.nets[name], inputs.contact_inputs(batch, crashed=cls == cl.CRASHED))
            for i, v in zip(rows, values.tolist()):
                out[i] = v
                if cls == cl.RACE:
                    race_improvement(boards[i], out[i])
        for i, cls in enumerate(classes):
            if cls == cl.OVER:
                out[i] = cl.game_over(boards[i])
            elif cls == cl.BEAROFF2:
                out[i] = bearoff_db.two_sided_eval(boards[i]) or bearoff_db.one_sided_eval(boards[i])
            elif cls == cl.BEAROFF1:
                out[i] = bearoff_db.one_sided_eval(boards[i])
            if not prune:
                cl.sanity_check(boards[i], out[i])
        return [(o[0], o[1], o[2], o[3], o[4]) for o in out]

    def probabilities(self, board: BoardLike, plies: int) -> Chances:
        """gnubg-nn's `probabilities` at 0 ply or with the pruning networks."""
        if plies not in (0, P_PRUNE):
            raise ValueError("the numpy network evaluates at 0 ply only; look further with analysis.lookahead")
        return self.evaluate_many([board], prune=plies == P_PRUNE)[0]

    def classify(self, board: BoardLike) -> int:
        return cl.classify(board)

    # -- keys and moves ---------------------------------------------------------------
    def key_of_board(self, board: BoardLike) -> str:
        return keys.key_of_board(board)

    def board_from_position_key(self, key: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return keys.board_from_key(key)

    def moves(self, board: BoardLike, d1: int, d2: int) -> tuple[str, ...]:
        """Keys of the boards every legal move of the roll leaves, as gnubg-nn's `moves`
        gives them: still seen by the mover (`[opponent, mover]`)."""
        position = Position(tuple(board[1]), tuple(board[0]))
        return tuple(keys.key_of_board((m.result.theirs, m.result.mine)) for m in legal_moves(position, (d1, d2)))

    def best_move(self, board: BoardLike, d1: int, d2: int, n: int = 0, list: int = 0,  # noqa: A002 (gnubg-nn's name)
                  **_ignored: object) -> tuple[tuple[()], tuple[tuple[str, tuple[()], Chances, float], ...]]:
        """The roll's moves ranked by 0-ply cubeless equity, as gnubg-nn's
        `best_move(..., list=1)[1]`: (key, steps (not kept), the opponent's chances
        after the move, the mover's equity), best first."""
        if n != 0:
            raise ValueError("the numpy network ranks moves at 0 ply only")
        position = Position(tuple(board[1]), tuple(board[0]))
        afters = [(m.result.mine, m.result.theirs) for m in legal_moves(position, (d1, d2))]
        found = [keys.key_of_board(a) for a in afters]
        chances = self.evaluate_many(afters)
        ranked = []
        for key, p in zip(found, chances):
            equity = -(2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4])
            ranked.append((key, (), p, equity))
        ranked.sort(key=lambda r: r[3], reverse=True)
        return (), tuple(ranked)

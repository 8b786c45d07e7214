"""gnubg's 0-ply evaluation as the gnubg program makes it, in numpy: the primitives of the
`gnubg-nn` wheel the analysis and the levels use, from a weight file (the program's own).

The release the weights belong to (`generation`) chooses the shot inputs they were trained
on; the race network's backgammons come from the bear-off databases (`race`), and every
network's outputs go through gnubg's sanity check (`sanity`), as the program does. All
moves of a roll are evaluated together: the boards are classified, each class's inputs
stacked, and every network runs once per class for the whole batch.

The networks compute as one build of gnubg does (`arithmetic`, `net.Arithmetic`): by
default this machine's program's (x86-64: Debian's SSE build). Given the wheel loaded with
the same weights (`wheel`) and gnubg's plain C arithmetic, which is the wheel's, its C
network evaluates the contact and crashed boards whose inputs it computes as the program
does (all of them with 1.08's weights; with 1.07's all but `inputs.releases_differ`), and
the pruning networks' raw outputs of those classes: the same figures, several times
faster. Everything else (races, whose post-processing gnubg-nn does its own way,
bear-offs) stays here, and so does everything with the SSE build's arithmetic.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from controller.engine import Position, legal_results
from controller.evaluation import bearoff_db, classify as cl, inputs, keys
from controller.evaluation.backend import Board, BoardLike, Chances
from controller.evaluation.generation import Generation, generation_of
from controller.evaluation.net import PROGRAM_ARITHMETIC, Arithmetic, forward
from controller.evaluation.race import race_backgammons
from controller.evaluation.sanity import sanity_check
from controller.evaluation.weights import NetWeights, Weights, read_binary
from controller.evaluation.wheel_net import WheelNet

BATCH = 512
"""About how many boards `ranked_moves` sends through the networks at once."""
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
    """gnubg's networks from a weight file (a path to the program's binary file, or weights
    already read), behind gnubg-nn's function names, computed as the gnubg build
    `arithmetic` names; `wheel`: gnubg-nn with these very weights loaded, to evaluate what
    it evaluates as the program does (with the plain C arithmetic, its own)."""

    p_prune = P_PRUNE

    def __init__(self, weights: Path | Weights, wheel: WheelNet | None = None,
                 arithmetic: Arithmetic = PROGRAM_ARITHMETIC) -> None:
        read = read_binary(weights.read_bytes()) if isinstance(weights, Path) else weights
        self.nets: dict[str, NetWeights] = read.nets
        self.generation: Generation = generation_of(read.version)
        self.wheel = wheel
        self.arithmetic: Arithmetic = arithmetic

    # -- evaluation -------------------------------------------------------------------
    def evaluate_many(self, boards: Sequence[BoardLike] | np.ndarray, prune: bool = False) -> list[Chances]:
        """0-ply chances of the side on roll (`board[1]`) of each board (gnubg's
        `EvaluatePosition` with its sanity check; with `prune`, the pruning networks as
        the program's `FindBestMoveInEval` evaluates them, backgammons and sanity check
        included)."""
        if not len(boards):
            return []
        batch = np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25)
        return self._evaluate(batch, cl.classify_many(batch), prune)

    def evaluate_array(self, boards: Sequence[BoardLike] | np.ndarray, prune: bool = False) -> np.ndarray:
        """`evaluate_many` as an n x 5 array (for a caller that computes on all rows at once)."""
        batch = np.asarray(boards, dtype=np.int64).reshape(-1, 2, 25)
        return self._evaluate_array(batch, cl.classify_many(batch), prune)

    def _evaluate(self, batch: np.ndarray, classes: np.ndarray, prune: bool) -> list[Chances]:
        return [(a, b, c, d, e) for a, b, c, d, e in self._evaluate_array(batch, classes, prune).tolist()]

    def _evaluate_array(self, batch: np.ndarray, classes: np.ndarray, prune: bool) -> np.ndarray:
        out = np.zeros((len(batch), 5))
        for cls, name in _NETS.items():
            rows = np.flatnonzero(classes == cls)
            if len(rows):
                out[rows] = self._network(cls, name, batch[rows], prune)
            if cls == cl.RACE:
                for i in rows:
                    improved = out[i].tolist()
                    race_backgammons(batch[i].tolist(), improved)
                    out[i] = improved
        nn_rows = np.flatnonzero(classes >= cl.RACE)
        if len(nn_rows):
            checked = out[nn_rows]
            sanity_check(batch[nn_rows], checked)
            out[nn_rows] = checked
        for i in np.flatnonzero(classes < cl.RACE):
            board = batch[i].tolist()
            if classes[i] == cl.OVER:
                out[i] = cl.game_over(board)
            elif classes[i] == cl.BEAROFF2:
                out[i] = bearoff_db.two_sided_eval(board) or bearoff_db.one_sided_eval(board)
            else:
                out[i] = bearoff_db.one_sided_eval(board)
        return out

    def _network(self, cls: int, name: str, group: np.ndarray, prune: bool) -> np.ndarray:
        """The outputs of class `cls`'s network (or its pruning network) for `group`: the
        wheel's where it computes the same (see the module), the rest in numpy."""
        out = np.zeros((len(group), 5))
        todo = np.ones(len(group), dtype=bool)
        if self.wheel is not None and cls != cl.RACE and self.arithmetic == "scalar":
            todo = np.zeros(len(group), dtype=bool) if self.generation.counts_made_home_points or prune \
                else inputs.releases_differ(group)
            if not todo.all():
                out[~todo] = self.wheel.probabilities(group[~todo], P_PRUNE if prune else 0)
        rows = np.flatnonzero(todo)
        if len(rows):
            if prune:
                values = forward(self.nets["prune " + name], inputs.base_inputs(group[rows]), self.arithmetic)
            elif cls == cl.RACE:
                values = forward(self.nets[name], inputs.race_inputs(group[rows]), self.arithmetic)
            else:
                values = forward(self.nets[name], inputs.contact_inputs(
                    group[rows], crashed=cls == cl.CRASHED, made_home=self.generation.counts_made_home_points),
                    self.arithmetic)
            out[rows] = values
        return out

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
        return tuple(keys.key_of_board((theirs, mine)) for mine, theirs in legal_results(position, (d1, d2)))

    def after_boards(self, board: BoardLike, rolls: Sequence[tuple[int, int]]) -> list[list[Board]]:
        """Each roll's legal moves as the boards they leave, `(mover, opponent)`: the
        opponent on roll, in the order `moves` gives their keys."""
        position = Position(tuple(board[1]), tuple(board[0]))
        return [legal_results(position, roll) for roll in rolls]

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
        chances of the side on roll before rolling. The board and the rolls' moves go
        through the networks together, in batches of about `BATCH` boards: a turn's luck
        asks for all 21 rolls (a few hundred boards), its cube decision for the board; a
        wild position's thousands of moves are worked out a batch at a time, which bounds
        the memory they take."""
        start = (tuple(board[0]), tuple(board[1]))
        before: Chances | None = None
        out: list[list[RankedMove]] = []
        group: list[list[Board]] = []
        for index, roll in enumerate(rolls):
            group.append(self.after_boards(board, [roll])[0])
            if sum(map(len, group)) >= BATCH or index == len(rolls) - 1:
                first, ranked = self._ranked_group(start if before is None else None, group)
                before = first if before is None else before
                out += ranked
                group = []
        if before is None:
            before = self.evaluate_many([start])[0]
        return RankedRolls(before, out)

    def _ranked_group(self, start: Board | None,
                      afters: list[list[Board]]) -> tuple[Chances | None, list[list[RankedMove]]]:
        """`ranked_moves` of some rolls' moves (`afters`), with the chances of `start` too."""
        flat = ([start] if start is not None else []) + [a for roll_afters in afters for a in roll_afters]
        if not flat:  # rolls without a legal move
            return None, [[] for _ in afters]
        batch = np.asarray(flat, dtype=np.int64).reshape(-1, 2, 25)
        found = keys.keys_of_boards(batch)
        classes = cl.classify_many(batch)
        chances = self._evaluate(batch, classes, prune=False)
        out = []
        at = 1 if start is not None else 0
        for roll_afters in afters:
            ranked = []
            for i in range(at, at + len(roll_afters)):
                p = chances[i]
                ranked.append(RankedMove(found[i], p, -(2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]),
                                         (flat[i][0], flat[i][1]), int(classes[i])))
            at += len(roll_afters)
            ranked.sort(key=lambda r: r.equity, reverse=True)
            out.append(ranked)
        return (chances[0] if start is not None else None), out

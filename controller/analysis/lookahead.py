"""gnubg's n-ply cubeful evaluation (eval.c `EvaluatePositionCubeful4`), for `--ply 1|2`.

At an inner node gnubg rolls all 21 rolls for the side on roll, plays each roll's best
move as its analysis does (with pruning: the pruning network shortlists 5 + log2(moves)
moves, gnubg's 0-ply cubeful evaluation picks among them), and evaluates the position
after it one ply shallower for every cube position still in play: the cube as it is,
and (below the top) the cube the side on roll could turn now. The averages, seen by
the other side, are turned back and the side on roll's best cube action is taken
(`GetECF3`). At the leaves the 0-ply cubeful formulas of `cubeful` apply. Every value
here is a match winning chance of the side on roll of the board it belongs to.
"""
from __future__ import annotations

from math import floor, log2
from typing import TYPE_CHECKING

from controller.analysis.cubeful import CubeInfo, double_pass_mwc, may_double

if TYPE_CHECKING:
    from controller.analysis.evaluator import Board, Evaluator

ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1))
MIN_PRUNE_MOVES = 5
RACE_CLASS = 3
"""gnubg-nn's `classify`: 0 over, 1 two-sided bear-off, 2 one-sided, 3 race, 4 crashed, 5 contact."""


def _expand(positions: list[CubeInfo | None], top: bool, invert: bool) -> list[CubeInfo | None]:
    """gnubg's `MakeCubePos`: for each cube position, itself and (below the top, when the
    side on roll may double) the cube doubled and owned by the other side."""
    out: list[CubeInfo | None] = []
    for ci in positions:
        if ci is None:
            out += [None, None]
            continue
        out.append(ci.flipped() if invert else ci)
        if not top and may_double(ci):
            doubled = ci.doubled()
            out.append(doubled.flipped() if invert else doubled)
        else:
            out.append(None)
    return out


def _best_cube(positions: list[CubeInfo | None], values: list[float | None],
               expanded: list[CubeInfo | None]) -> list[float | None]:
    """gnubg's `GetECF3`: per cube position, no double or the better of double/take and
    double/pass for the side on roll."""
    out: list[float | None] = []
    for i, ci in enumerate(positions):
        nd = values[2 * i]
        if ci is None or nd is None:
            out.append(None)
            continue
        dt = values[2 * i + 1]
        if expanded[2 * i + 1] is not None and dt is not None:
            dp = double_pass_mwc(ci)
            if dt >= nd and dp >= nd:
                out.append(dp if dt >= dp else dt)
                continue
        out.append(nd)
    return out


class Lookahead:
    """n-ply cubeful values on top of an Evaluator's network and 0-ply formulas."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator
        self._g = evaluator.network

    def values(self, board: Board, positions: list[CubeInfo | None], mover: CubeInfo, plies: int,
               top: bool) -> list[float | None]:
        """The side on roll's cubeful match chance for each cube position (None: absent)."""
        from controller.analysis.evaluator import board_cubeful, position_class

        if plies <= 0 or position_class(board) == "over":
            p = self.ev.chances(board)
            expanded = _expand(positions, top, invert=False)
            leaf = [None if ci is None else board_cubeful(p, ci, board) for ci in expanded]
            return _best_cube(positions, leaf, expanded)
        expanded = _expand(positions, top, invert=True)
        sums = [0.0] * len(expanded)
        other = mover.flipped()
        for a, b, weight in ROLLS:
            nxt = self.best_after(board, (a, b), mover)
            vals = self.values(nxt, expanded, other, plies - 1, top=False)
            for i, v in enumerate(vals):
                if v is not None:
                    sums[i] += weight * v
        back = [None if ci is None else ci.flipped() for ci in expanded]
        mine: list[float | None] = [None if ci is None else 1.0 - sums[i] / 36.0 for i, ci in enumerate(expanded)]
        return _best_cube(positions, mine, back)

    def best_after(self, board: Board, dice: tuple[int, int], ci: CubeInfo) -> Board:
        """The board after gnubg's in-evaluation best move of the side on roll
        (`FindBestMoveInEval`), the other side now on roll; without a legal move the
        same checkers with the other side on roll."""
        listed = self.ev.moves(board, dice[0], dice[1])
        if not listed:
            return (board[1], board[0])
        if len(listed) == 1:
            return self.ev.board_of_key(listed[0][0])
        shortlist = MIN_PRUNE_MOVES + floor(log2(len(listed)))
        keys = [key for key, _p in listed]
        if len(listed) > shortlist:
            pruned = self._pruned(keys, ci, shortlist)
            if pruned is not None:
                keys = pruned
        best = self.ev.candidates(board, dice, ci, only=set(keys))
        return self.ev.board_of_key(best[0].key)

    def _pruned(self, keys: list[str], ci: CubeInfo, shortlist: int) -> list[str] | None:
        """The moves the pruning network likes best (lowest equity for the opponent), or
        None where gnubg scores them all (bear-offs, or moves leaving different classes)."""
        from controller.analysis.cubeful import utility

        opp = ci.flipped()
        scored = []
        first_class = None
        for key in keys:
            after = self.ev.board_of_key(key)
            cls = self._g.classify([list(after[0]), list(after[1])])
            if first_class is None:
                if cls < RACE_CLASS:
                    return None
                first_class = cls
            elif cls != first_class:
                return None
            raw = self._g.probabilities([list(after[0]), list(after[1])], self._g.p_prune)
            scored.append((utility((raw[0], raw[1], raw[2], raw[3], raw[4]), opp), key))
        scored.sort()
        return [key for _u, key in scored[:shortlist]]

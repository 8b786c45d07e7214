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

from collections.abc import Sequence, Sized
from math import floor, log2
from typing import Protocol

from controller.analysis.cubeful import (Board, Chances, CubeInfo, double_pass_mwc, doubled, flipped, may_double,
                                        mover_prices, mwc_to_emg)
from controller.analysis.memo import Memo
from controller.evaluation.backend import (BoardLike, NetworkBackend, afters_of, chances_of, classes_of, keys_of, lowest,
                                          rows_of, stacked, utilities_of)

ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1))
MIN_PRUNE_MOVES = 5
NODES_KEPT = 12_000
"""How many nodes' best moves a look-ahead keeps (`memo`): a 2-ply decision walks about 7,000."""
RACE_CLASS = 3
"""gnubg-nn's `classify`: 0 over, 1 two-sided bear-off, 2 one-sided, 3 race, 4 crashed, 5 contact."""


def _shortlist(afters: Sized) -> int:
    """How many moves gnubg keeps from the pruning network: 5 + log2(moves)."""
    return MIN_PRUNE_MOVES + floor(log2(len(afters)))


def _prunable(classes: list[int]) -> bool:
    """Whether gnubg prunes moves leaving these classes: not bear-offs, nor moves leaving
    different classes (it scores them all then)."""
    return classes[0] >= RACE_CLASS and all(c == classes[0] for c in classes)


def _expand(positions: list[CubeInfo | None], top: bool, invert: bool) -> list[CubeInfo | None]:
    """gnubg's `MakeCubePos`: for each cube position, itself and (below the top, when the
    side on roll may double) the cube doubled and owned by the other side."""
    out: list[CubeInfo | None] = []
    for ci in positions:
        if ci is None:
            out += [None, None]
            continue
        out.append(flipped(ci) if invert else ci)
        if not top and may_double(ci):
            dbl = doubled(ci)
            out.append(flipped(dbl) if invert else dbl)
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


Node = tuple[str, Board, tuple[str, float], Chances]
"""A node of the look-ahead: gnubg's key of the board (side on roll second), the board,
its class with the cube efficiency, and the cubeless chances of the side on roll."""


class Evaluator(Protocol):
    """What the look-ahead asks of `evaluator.Evaluator`, which makes a `Lookahead` for
    itself (so this module does not import it)."""

    @property
    def network(self) -> NetworkBackend: ...

    def chances(self, board: Board, plies: int = 0) -> Chances: ...

    def after_of_key(self, key: str, given: Sequence[Sequence[int]] | None = None,
                     cls: int | None = None) -> tuple[Board, tuple[str, float], int]: ...

    def keyed_cubeful(self, key: str, p: Chances, ci: CubeInfo, board: Board, kind: tuple[str, float]) -> float: ...

    def key_of(self, board: Board) -> str: ...

    def keyed_after_moves_mwc(self, keys: Sequence[str], opp_chances: Sequence[Chances], ci: CubeInfo,
                              boards: Sequence[Sequence[Sequence[int]]], classes: Sequence[int]) -> list[float]: ...


class Lookahead:
    """n-ply cubeful values on top of an Evaluator's network and 0-ply formulas.

    The same boards come back again and again (a decision's cube evaluation walks the tree
    the previous move's evaluation walked; leaves ask what the move choice before them
    worked out), so the move each node plays for each roll is kept by board key, dice
    and cube (`best_afters`), and leaf values by key and cube (`Evaluator.keyed_cubeful`).
    """

    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator
        self._g = evaluator.network
        self._best: Memo[tuple[str, int, int, CubeInfo], Node] = Memo(NODES_KEPT)

    def forget(self) -> None:
        """Forget the moves worked out so far (between games)."""
        self._best.clear()

    def kept(self) -> int:
        return len(self._best)

    def node(self, key: str, chances: Chances | None = None) -> Node:
        """The node of the board `key` names (its chances from the network unless given)."""
        board, kind, _cls = self.ev.after_of_key(key)
        return (key, board, kind, chances if chances is not None else self.ev.chances(board))

    def values(self, node: Node, positions: list[CubeInfo | None], mover: CubeInfo, plies: int,
               top: bool) -> list[float | None]:
        """The side on roll's cubeful match chance for each cube position (None: absent)."""
        key, board, kind, p = node
        if plies <= 0 or kind[0] == "over":
            expanded = _expand(positions, top, invert=False)
            cubeful = self.ev.keyed_cubeful
            leaf = [None if ci is None else cubeful(key, p, ci, board, kind) for ci in expanded]
            return _best_cube(positions, leaf, expanded)
        expanded = _expand(positions, top, invert=True)
        sums = [0.0] * len(expanded)
        other = flipped(mover)
        for (_a, _b, weight), nxt in zip(ROLLS, self.best_afters(node, mover)):
            vals = self.values(nxt, expanded, other, plies - 1, top=False)
            for i, v in enumerate(vals):
                if v is not None:
                    sums[i] += weight * v
        back = [None if ci is None else flipped(ci) for ci in expanded]
        mine: list[float | None] = [None if ci is None else 1.0 - sums[i] / 36.0 for i, ci in enumerate(expanded)]
        return _best_cube(positions, mine, back)

    def best_afters(self, node: Node, ci: CubeInfo) -> list[Node]:
        """For each roll (ROLLS' order) the node after gnubg's in-evaluation best move of
        the side on roll (`FindBestMoveInEval`), the other side now on roll; without a
        legal move the same checkers with the other side on roll. The rolls not yet known
        are worked out together: the network evaluates all their moves in two batches."""
        wanted = [(node[0], a, b, ci) for a, b, _w in ROLLS]
        known = {m: self._best[m] for m in wanted if m in self._best}
        todo = [(a, b) for (a, b, _w), m in zip(ROLLS, wanted) if m not in known]
        if todo:
            found = self._best_after_rolls(node[1], todo, ci)
            fresh = {(node[0], a, b, ci): after for (a, b), after in zip(todo, found)}
            self._best.keep_all(fresh.items())
            known.update(fresh)
        return [known[m] for m in wanted]

    def _best_after_rolls(self, board: Board, rolls: list[tuple[int, int]], ci: CubeInfo) -> list[Node]:
        # each move's result as the board pair gnubg-nn takes, opponent on roll, in the move
        # generator's order (gnubg-nn's own where it is the network: ties go to the first);
        # without a legal move the same checkers, the other side on roll. All rolls' boards
        # go to the network as one array (`stacked`), each step taking rows of it by index.
        g = self._g
        flat: list[BoardLike] = []
        every: list[range] = []
        for afters in afters_of(g, board, rolls):
            every.append(range(len(flat), len(flat) + max(len(afters), 1)))
            flat += afters or [(board[1], board[0])]
        stack = stacked(g, flat)
        # gnubg runs the full network on the pruning network's shortlist only
        evaluated = self._pruned_all(stack, every, ci)
        picked = [i for rows in evaluated for i in rows]
        wanted = rows_of(stack, picked)
        chances, keys, classes = iter(chances_of(g, wanted, 0)), iter(keys_of(g, wanted)), iter(classes_of(g, wanted))
        out = []
        for rows in evaluated:
            found = [next(chances) for _ in rows]
            named = [next(keys) for _ in rows]
            kinds = [next(classes) for _ in rows]
            if len(rows) == 1:
                p = found[0]
                self.ev.after_of_key(named[0], flat[rows[0]], kinds[0])
                out.append(self.node(named[0], (p[0], p[1], p[2], p[3], p[4])))
            else:
                out.append(self._chosen([flat[i] for i in rows], named, found, kinds, ci))
        return out

    def _chosen(self, afters: list[BoardLike], named: list[str], chances: list[tuple[float, ...]],
                classes: list[int], ci: CubeInfo) -> Node:
        """gnubg's 0-ply cubeful choice among the moves (their keys `named`, the network's
        `classes` of them), ties to the better cubeless equity and then to the move
        generated first."""
        g0, g1, b0, b1 = mover_prices(ci)
        found = [(r[0], r[1], r[2], r[3], r[4]) for r in chances]
        theirs = self.ev.keyed_after_moves_mwc(named, found, ci, afters, classes)
        best: tuple[float, float] | None = None
        chosen: tuple[str, Chances] = ("", (0.0, 0.0, 0.0, 0.0, 0.0))
        for key, p, their_mwc in zip(named, found, theirs):
            score = (mwc_to_emg(1.0 - their_mwc, ci),
                     1.0 - 2.0 * p[0] + p[3] * g0 - p[1] * g1 + p[4] * b0 - p[2] * b1)
            if best is None or score > best:
                best, chosen = score, (key, p)
        return self.node(chosen[0], chosen[1])

    def _pruned_all(self, stack: Sequence[BoardLike], every: list[range], ci: CubeInfo) -> list[Sequence[int]]:
        """Each roll's moves (rows of `stack`) the pruning network likes best (lowest
        equity for the opponent: gnubg's `Utility` at their gammon prices), the first
        5 + log2(moves) in the generator's order, where they are more than that (a single
        move stays as it is: it is not evaluated); the pruning network run once for all."""
        long = [rows for rows in every if len(rows) > 1 and len(rows) > _shortlist(rows)]
        if not long:
            return list(every)
        classes = iter(classes_of(self._g, rows_of(stack, [i for rows in long for i in rows])))
        asked = [rows for rows in long if _prunable([next(classes) for _ in rows])]
        if not asked:
            return list(every)
        picked = [i for rows in asked for i in rows]
        scores = utilities_of(self._g, rows_of(stack, picked), self._g.p_prune, mover_prices(flipped(ci)))
        shortlisted, at = {}, 0
        for rows in asked:
            shortlisted[rows.start] = [picked[i] for i in lowest(scores, range(at, at + len(rows)), _shortlist(rows))]
            at += len(rows)
        return [shortlisted.get(rows.start, rows) for rows in every]

"""GNU Backgammon's judgement of positions, moves and cube actions at the match score.

The network (`analysis.network`) gives cubeless chances as the gnubg program whose weights
it reads; `cubeful` turns them into cubeful match winning chances as that release's
evaluation does (its cube efficiencies at this depth: `efficiency`), and every equity
here is gnubg's normalised money equity (EMG) for the player on roll, as its analysis
reports.

Boards go to gnubg-nn as `[side not on roll, side on roll]`, 25 counts each (bar last):
a `Position` seen from the mover is `[theirs, mine]`; after the mover's move, with the
opponent on roll, `[mine, theirs]`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.analysis.cubeful import (
    WIN,
    Board,  # imported from here too (the boards the evaluator takes)
    Chances,
    CubeInfo,
    cubeful_mwc,
    double_pass_mwc,
    doubled,
    flipped,
    may_double,
    mover_prices,
    mwc_to_emg,
)
from controller.analysis.bearoff import bearoff_cubeful_mwc
from controller.analysis.efficiency import Efficiencies, board_kind, efficiencies
from controller.analysis.lookahead import RACE_CLASS, Lookahead
from controller.analysis.memo import Memo
from controller.analysis.network import load_network
from controller.engine.position import Position
from controller.evaluation.backend import NetworkBackend
from controller.evaluation.generation import GNUBG_108

FILTER_EXTRA, FILTER_THRESHOLD = 16, 0.32
"""gnubg 1.07's move filter of an n-ply analysis (gnubg.c `aamfAnalysis`, MOVEFILTER_LARGE,
as `show analysis` prints it: "keep the first 0 0-ply moves and up to 16 more moves within
equity 0.32", then at 2 plies "skip pruning for 1-ply moves"). Its hint and `eval` use the
narrower MOVEFILTER_NORMAL (8 within 0.16); the analysis is what is compared."""
NO_DOUBLE_WITHOUT_A_WIN = frozenset({GNUBG_108})
"""The releases whose `FindBestCubeDecision` calls a double/take "no double" when the
doubler cannot win (1.08's `winAny`)."""
CHANCES_KEPT, ROLLS_KEPT, BOARDS_KEPT, KINDS_KEPT, CUBEFUL_KEPT = 10_000, 256, 5_000, 12_000, 30_000
"""How many figures each memo of an evaluator keeps (`memo`): a game's luck asks for about
1,300 rolls' moves (a turn's 21 rolls leave a few hundred boards, thousands in a wild
position), and a 2-ply evaluation walks about 7,000 nodes per decision."""
PRUNE_MARGIN = 0.16
"""Luck needs the best move of all 21 rolls: only moves whose cubeless equity is within
this much of the best one's get the (slower) cubeful evaluation. Near the cash points
the cube can reorder moves: over 7,000 rolls of real matches the best cubeful move was
at most 0.13 behind the best cubeless one."""


def legal_board(board: Board) -> list[list[int]]:
    """`board` as the network takes it, once it is a position play can reach (25 whole
    counts a side, at most 15 checkers, no point held by both): the network is C code that
    crashed the process (SIGSEGV) on the impossible boards a forged match history gave it,
    so every board from outside the network is held to the rules here, at its edge, and an
    impossible one is a ValueError (one line) instead."""
    if len(board) == 2:
        problems = Position(tuple(board[1]), tuple(board[0])).problems()
        if not problems:
            return [list(board[0]), list(board[1])]
    else:
        problems = ["not two sides"]
    raise ValueError(f"not a legal board for the network: {problems[0]}")


def board_cubeful(p: Chances, ci: CubeInfo, board: Board, kind: tuple[str, float]) -> float:
    """gnubg's 0-ply cubeful match chance of the side on roll of `board` (chances `p`,
    `kind`: the board's class and cube efficiency, `efficiency.board_kind`)."""
    name, x = kind
    if name == "bearoff2":
        return bearoff_cubeful_mwc(p, ci, board)
    return cubeful_mwc(p, ci, x)


def _passed(ci: CubeInfo) -> float | None:
    """The match chance of the side on roll in `ci` when they double and are passed; None
    when they may not double (`_with_cube`'s first argument)."""
    return double_pass_mwc(ci) if may_double(ci) else None


def _with_cube(passed: float | None, keep: float, taken: Callable[[], float]) -> float:
    """The match chance of the side on roll, who may double first (`passed`: `_passed` of
    their cube): `keep` (no double) unless doubling gains, then the worse for them of the
    take (`taken`, worked out only when it matters) and the pass."""
    if passed is not None and passed >= keep:  # else no double, whatever a take would be worth
        value = taken()
        if value >= keep:
            return passed if value >= passed else value
    return keep


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal move of a roll: gnubg's key of the result and its equity for the mover
    (`equity` cubeful; `cubeless` for ordering ties and pruning)."""

    key: str
    equity: float
    cubeless: float


@dataclass(frozen=True, slots=True)
class CubeEval:
    """A cube decision as gnubg's `FindCubeDecision` leaves it, in EMG for the doubler:
    no double, double/take, double/pass, and the best of them (`optimal`)."""

    no_double: float
    take: float
    drop: float
    optimal: float
    available: bool
    can_win: bool = True
    """False where gnubg 1.08 calls a double/take "no double": the doubler cannot win
    (its `winAny`; 1.07 has no such rule). The equities, and so the losses, are the same."""

    @property
    def action(self) -> str:
        """The proper action in words: "No double", "Double, take", "Double, pass", or
        "Too good to double" (playing on beats cashing); "Redouble" when owned."""
        if not self.available:
            return "No double"
        if self.take >= self.no_double and self.drop >= self.no_double:
            if self.take >= self.drop:
                return "Double, pass"
            return "Double, take" if self.can_win else "No double"
        if self.no_double > self.drop:
            return "Too good to double"
        return "No double"


class Evaluator:
    """Equities of moves and cube actions at the match score with gnubg's network, as the
    release whose weights it reads evaluates them `plies` deep.

    `share`: an evaluator on the same network whose cubeless figures (chances, move
    lists) this one reads and adds to, where the two differ only in depth (`for_luck`)."""

    def __init__(self, gnubg: NetworkBackend | None = None, plies: int = 0, share: Evaluator | None = None) -> None:
        self._g = gnubg if gnubg is not None else (share.network if share is not None else load_network())
        self.plies = plies
        self.generation = self._g.generation
        self.efficiency: Efficiencies = efficiencies(self.generation, plies)
        self._chances: Memo[tuple[Board, int], Chances] = share._chances if share else Memo(CHANCES_KEPT)
        self._rolls: Memo[tuple[Board, int, int], tuple[tuple[str, Chances], ...]] = \
            share._rolls if share else Memo(ROLLS_KEPT)
        self._boards: Memo[str, tuple[Board, int]] = share._boards if share else Memo(BOARDS_KEPT)
        self._kinds: Memo[str, tuple[Board, tuple[str, float], int]] = Memo(KINDS_KEPT)
        self._cubeful: Memo[tuple[str, CubeInfo], float] = Memo(CUBEFUL_KEPT)
        self._lookahead = Lookahead(self)
        self._batched = getattr(self._g, "ranked_moves", None)
        self._luck: Evaluator | None = None

    @property
    def judged_as(self) -> str:
        """The gnubg release this evaluator judges as: "gnubg 1.07" or "gnubg 1.08"."""
        return f"gnubg {self.generation.release}"

    def for_luck(self) -> Evaluator:
        """The evaluator of gnubg's luck, which it evaluates at 0 ply whatever the
        analysis's depth: this one where its cube efficiencies are the 0-ply ones, else
        one that shares its network's figures (gnubg 1.08 deeper than one ply)."""
        if efficiencies(self.generation, 0) == self.efficiency:
            return self
        if self._luck is None:
            self._luck = Evaluator(self._g, 0, share=self)
        return self._luck

    def forget(self) -> None:
        """Forget every figure kept so far (`memo`: between games)."""
        for memo in (self._chances, self._rolls, self._boards, self._kinds, self._cubeful):
            memo.clear()
        self._lookahead.forget()
        if self._luck is not None:
            self._luck.forget()

    def memory(self) -> dict[str, int]:
        """How many figures each memo holds now (`bgboard bench --only pi`)."""
        return {"chances": len(self._chances), "rolls": len(self._rolls), "boards": len(self._boards),
                "kinds": len(self._kinds), "cubeful": len(self._cubeful), "lookahead": self._lookahead.kept()}

    def kind_of(self, board: Board) -> tuple[str, float]:
        """The board's class and its cube efficiency at this evaluator's depth."""
        return board_kind(board, self.efficiency)

    # -- the network ------------------------------------------------------------------
    def chances(self, board: Board, plies: int = 0) -> Chances:
        """Cubeless chances of the side on roll (`board[1]`), looking `plies` rolls ahead."""
        found = self._chances.get((board, plies))
        if found is None:
            raw = self._g.probabilities(legal_board(board), plies)
            found = self._chances.keep((board, plies), (raw[0], raw[1], raw[2], raw[3], raw[4]))
        return found

    def moves(self, board: Board, d1: int, d2: int) -> tuple[tuple[str, Chances], ...]:
        """Every legal move of the roll for the side on roll: (key of the result, the
        opponent's cubeless chances after it). Empty when no move is legal."""
        found = self._rolls.get((board, d1, d2))
        if found is None and self._batched is not None:
            found = self.prefetch(board, ((d1, d2),))[0]
        if found is None:
            ranked = self._g.best_move(legal_board(board), d1, d2, n=0, list=1)
            listed = ranked[1] if isinstance(ranked, tuple) and len(ranked) == 2 else ()
            found = tuple((key, p) for key, _steps, p, _eq in listed)
            if found:  # gnubg-nn reports stale chances for its first move: evaluate it again
                key = found[0][0]
                found = ((key, self.chances(self.board_of_key(key))),) + found[1:]
            self._rolls.keep((board, d1, d2), found)
        return found

    def prefetch(self, board: Board, rolls: Sequence[tuple[int, int]]) -> list[tuple[tuple[str, Chances], ...]]:
        """`moves` of several rolls, the rolls not yet known worked out together where the
        network ranks many rolls' moves in one batch (the numpy network: a turn's luck
        asks for all 21 rolls, and the board's own chances come in the same batch); one
        roll at a time (the wheel) it leaves them to `moves`."""
        todo = [r for r in rolls if (board, r[0], r[1]) not in self._rolls]
        fresh = {}
        if todo and self._batched is not None:
            found = self._batched(legal_board(board), todo)
            if (board, 0) not in self._chances:
                self._chances.keep((board, 0), found.before)
            for (d1, d2), ranked in zip(todo, found.rolls):
                fresh[d1, d2] = tuple((m.key, m.chances) for m in ranked)
            self._boards.keep_all((m.key, (m.board, m.cls)) for ranked in found.rolls for m in ranked)
            self._rolls.keep_all(((board, d1, d2), found) for (d1, d2), found in fresh.items())
        return [fresh.get(r) or self._rolls.get((board, r[0], r[1])) or () for r in rolls]

    def board_of_key(self, key: str) -> Board:
        """The board a move list key names (opponent on roll)."""
        board: Board = self._g.board_from_position_key(key)  # a pair of tuples already
        return board

    def after_of_key(self, key: str, given: Sequence[Sequence[int]] | None = None,
                     cls: int | None = None) -> tuple[Board, tuple[str, float], int]:
        """The board a key names (or `given`), its class with the cube efficiency and gnubg-nn's
        class number (`cls` if known), cached by key: the look-ahead asks it of every move."""
        found = self._kinds.get(key)
        if found is None:
            known = self._boards.get(key)  # the board and class `prefetch` had at hand
            if known is not None:
                board, cls = known
            else:
                board = self._g.board_from_position_key(key) if given is None \
                    else (tuple(given[0]), tuple(given[1]))  # a pair of tuples either way
                cls = self._g.classify([list(board[0]), list(board[1])]) if cls is None else cls
            eff = self.efficiency
            if cls >= RACE_CLASS:
                kind = self.kind_of(board) if cls == RACE_CLASS else ("contact", eff.contact)
            else:
                kind = ("over", 0.0) if cls == 0 else (("bearoff2" if cls == 1 else "bearoff"), eff.bearoff)
            found = self._kinds.keep(key, (board, kind, cls))
        return found

    def keyed_cubeful(self, key: str, p: Chances, ci: CubeInfo, board: Board, kind: tuple[str, float]) -> float:
        """`board_cubeful` of the board `key` names, cached by key and cube: a look-ahead's
        leaf asks again for what the choice of the move before it worked out."""
        found = self._cubeful.get((key, ci))
        if found is None:
            found = self._cubeful.keep((key, ci), board_cubeful(p, ci, board, kind))
        return found

    def key_of(self, board: Board) -> str:
        return str(self._g.key_of_board(legal_board(board)))

    # -- equities ---------------------------------------------------------------------
    def after_move_equity(self, opp_chances: Chances, board_after: Board, ci: CubeInfo,
                          kind: tuple[str, float] | None = None) -> float:
        """The mover's cubeful EMG once their move leaves `board_after` (opponent on roll,
        who may double at once: gnubg's leaf with both cube positions)."""
        opp = flipped(ci)
        found = kind or self.kind_of(board_after)
        keep = board_cubeful(opp_chances, opp, board_after, found)
        value = _with_cube(_passed(opp), keep, lambda: board_cubeful(opp_chances, doubled(opp), board_after, found))
        return mwc_to_emg(1.0 - value, ci)

    def keyed_after_moves_mwc(self, keys: Sequence[str], opp_chances: Sequence[Chances], ci: CubeInfo,
                              boards: Sequence[Sequence[Sequence[int]]], classes: Sequence[int]) -> list[float]:
        """Per move of a roll (key, board, the network's class), the opponent's match chance after
        it, on roll and free to double (`after_move_equity` before the EMG), from cached leaf
        values; the cube's part worked out once for all the moves."""
        opp = flipped(ci)
        dbl, passed = doubled(opp), _passed(opp)
        cubeful, kept, out = self.keyed_cubeful, self._cubeful, []
        for key, p, board, cls in zip(keys, opp_chances, boards, classes):
            after, kind, _cls = self.after_of_key(key, board, cls)
            keep = cubeful(key, p, opp, after, kind) if (known := kept.get((key, opp))) is None else known
            out.append(_with_cube(passed, keep, lambda: cubeful(key, p, dbl, after, kind)))  # called at once
        return out

    @property
    def network(self) -> NetworkBackend:
        return self._g

    def candidates(self, board: Board, dice: tuple[int, int], ci: CubeInfo,
                   prune: bool = False, keep: str | None = None, deep: bool = False,
                   only: set[str] | None = None) -> list[Candidate]:
        """The roll's moves with their equities, best first (gnubg's order: cubeful, then
        cubeless). With `prune`, moves far behind on cubeless equity are left out, except
        `keep`; with `deep`, the best are evaluated again at the evaluator's plies."""
        listed = self.moves(board, dice[0], dice[1])
        if only is not None:
            listed = tuple(m for m in listed if m[0] in only)
        if not listed:
            return []
        g0, g1, b0, b1 = mover_prices(ci)
        # the mover's cubeless `utility` from the opponent's chances, inline: it runs for every move
        scored = [(key, 1.0 - 2.0 * p[0] + p[3] * g0 - p[1] * g1 + p[4] * b0 - p[2] * b1, p) for key, p in listed]
        floor = max(s[1] for s in scored) - PRUNE_MARGIN if prune else -99.0
        out = []
        for key, cubeless, p in scored:
            if cubeless >= floor or key == keep:
                after, kind, _cls = self.after_of_key(key)
                out.append(Candidate(key, self.after_move_equity(p, after, ci, kind), cubeless))
        out.sort(key=lambda c: (c.equity, c.cubeless), reverse=True)
        if self.plies and deep and len(out) > 1:
            out = self._deeper(out, ci, keep)
        return out

    def _deeper(self, ranked: list[Candidate], ci: CubeInfo, keep: str | None) -> list[Candidate]:
        """gnubg's move filter for an n-ply analysis: the 0-ply best and the next ones, 16
        in all within 0.32 of it (and the move played), are evaluated again looking
        `plies` rolls ahead; they rank above the rest
        (cubeful at every node of the look-ahead, as gnubg: `lookahead`)."""
        best = ranked[0].equity
        chosen = [c for i, c in enumerate(ranked) if i < FILTER_EXTRA and c.equity >= best - FILTER_THRESHOLD]
        chosen += [c for c in ranked if c.key == keep and c not in chosen]
        deep = []
        opp = flipped(ci)
        for c in chosen:
            value = self._lookahead.values(self._lookahead.node(c.key), [opp], opp, self.plies, top=False)[0]
            assert value is not None
            deep.append(Candidate(c.key, mwc_to_emg(1.0 - value, ci), c.cubeless))
        deep.sort(key=lambda c: (c.equity, c.cubeless), reverse=True)
        keys = {c.key for c in deep}
        return deep + [c for c in ranked if c.key not in keys]

    def best_equity(self, board: Board, dice: tuple[int, int], ci: CubeInfo) -> float:
        """The equity of the roll's best move; without a legal move, of the position as it
        stands with the opponent on roll (gnubg's luck uses this for every roll)."""
        listed = self.moves(board, dice[0], dice[1])
        if listed:
            g0, g1, b0, b1 = mover_prices(ci)
            scored = [(1.0 - 2.0 * p[0] + p[3] * g0 - p[1] * g1 + p[4] * b0 - p[2] * b1, key, p)
                      for key, p in listed]
            floor = max(scored)[0] - PRUNE_MARGIN
            best = (-99.0, -99.0)
            for cubeless, key, p in scored:
                if cubeless >= floor:
                    after, kind, _cls = self.after_of_key(key)
                    best = max(best, (self.after_move_equity(p, after, ci, kind), cubeless))
            return best[0]
        swapped = (board[1], board[0])
        return self.after_move_equity(self.chances(swapped), swapped, ci)

    def cube(self, board: Board, ci: CubeInfo, chances: Chances | None = None) -> CubeEval:
        """gnubg's 0-ply cube decision for the side on roll (`board[1]`), from the network's
        chances or the ones given (a computer level's, with noise)."""
        if self.plies and chances is None:
            root = self._lookahead.node(self.key_of(board))
            nd_mwc, dt_mwc = self._lookahead.values(root, [ci, doubled(ci)], ci, self.plies, top=True)
            assert nd_mwc is not None and dt_mwc is not None
            nd, dt = mwc_to_emg(nd_mwc, ci), mwc_to_emg(dt_mwc, ci)
        else:
            p = chances or self.chances(board)
            kind = self.kind_of(board)
            nd = mwc_to_emg(board_cubeful(p, ci, board, kind), ci)
            dt = mwc_to_emg(board_cubeful(p, doubled(ci), board, kind), ci)
        dp = mwc_to_emg(double_pass_mwc(ci), ci)
        available = may_double(ci)
        if not available:
            optimal = nd
        elif dt >= nd and dp >= nd:
            optimal = dt if dp > dt else dp
        else:
            optimal = nd
        can_win = self.generation not in NO_DOUBLE_WITHOUT_A_WIN or (chances or self.chances(board))[WIN] > 0.0
        return CubeEval(nd, dt, dp, optimal, available, can_win)

    def win_chance(self, board: Board) -> float:
        """The cubeless chance that the side on roll wins the game."""
        return self.chances(board)[WIN]

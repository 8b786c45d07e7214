"""Computer levels by strength, modelled on GNU Backgammon's own player settings.

gnubg's predefined players (eval.c `aecSettings`) are its 0-ply evaluation with noise
added to each of the network's five outputs: beginner 0.060, casual play 0.050,
intermediate 0.040, advanced 0.015, expert none; world class is 2-ply without noise.
The noise is deterministic, as gnubg's: drawn from a hash of the board and the output,
so a level always plays the same position the same way. Moves and cube actions are
chosen by cubeful equity at the match score with the analysis's evaluator
(`controller.analysis`), so these levels play what `bgboard analyze` judges, blurred.
World class is the `gnubg` level at 2 plies.
"""
from __future__ import annotations

import hashlib
from typing import Any

from controller.analysis.cubeful import Chances
from controller.analysis.evaluator import Board, CubeEval, Evaluator
from controller.analysis.hint import cube_info
from controller.analysis.match_context import MatchContext
from controller.engine import Move, Position, legal_moves

NOISE: dict[str, float] = {
    "beginner": 0.060, "casual": 0.050, "intermediate": 0.040, "advanced": 0.015, "expert": 0.0,
}
"""The 0-ply levels, weakest first, with gnubg's noise (standard deviation per output)."""
STRENGTH_LEVELS: tuple[str, ...] = (*NOISE, "worldclass")


def _unit_noise(board: Board, output: int) -> float:
    """A standard-normal-ish number fixed by the board (gnubg's `Noise`, deterministic:
    the sum of the 16 bytes of an MD5 of the board, centred and scaled)."""
    raw = bytearray(50)
    for i in range(25):
        raw[2 * i] = board[0][i]
        raw[2 * i + 1] = board[1][i]
    raw[0] = (raw[0] + output) & 0xFF
    digest = hashlib.md5(bytes(raw)).digest()
    return (sum(digest) - 2040.0) / 295.6


def noisy(p: Chances, board: Board, sigma: float) -> Chances:
    """The chances with the level's noise, each kept in 0..1."""
    if sigma == 0.0:
        return p
    out = [min(1.0, max(0.0, p[i] + sigma * _unit_noise(board, i))) for i in range(5)]
    return (out[0], out[1], out[2], out[3], out[4])


class StrengthBot:
    """A gnubg-style 0-ply player with noise."""

    def __init__(self, level: str, evaluator: Evaluator | None = None) -> None:
        if level not in NOISE:
            raise ValueError(f"no 0-ply strength level {level!r}")
        self.name = level
        self.sigma = NOISE[level]
        self._ev = evaluator or Evaluator()

    def choose_move(self, position: Position, dice: tuple[int, int], context: MatchContext) -> Move | None:
        moves = legal_moves(position, dice)
        if len(moves) <= 1:
            return moves[0] if moves else None
        ev, ci = self._ev, cube_info(context)
        best_key, best_eq = "", -99.0
        for key, p in ev.moves((position.theirs, position.mine), dice[0], dice[1]):
            after = ev.board_of_key(key)
            eq = ev.after_move_equity(noisy(p, after, self.sigma), after, ci, ev.kind_of(after))
            if eq > best_eq:
                best_key, best_eq = key, eq
        for move in moves:
            if ev.key_of((move.result.mine, move.result.theirs)) == best_key:
                return move
        raise RuntimeError(f"gnubg's move list for {position.id} {dice} does not match the engine's")

    def _cube(self, position: Position, context: MatchContext) -> Any:  # gnubg_nn's CubeEval (untyped)
        board = (position.theirs, position.mine)
        return self._ev.cube(board, cube_info(context), noisy(self._ev.chances(board), board, self.sigma))

    def should_double(self, position: Position, context: MatchContext) -> bool:
        if not context.bot_may_double():
            return False
        cube = self._cube(position, context)
        return cube.take >= cube.no_double and cube.drop >= cube.no_double

    def should_take(self, position: Position, context: MatchContext) -> bool:
        # the doubler is on roll: take when the doubler gains less by the take than by a pass
        cube = self._cube(position, context.flipped())
        return cube.take <= cube.drop

    def accepts_resignation(self, position: Position, level: int, context: MatchContext) -> bool:
        # the resigner is on roll: accept what is at least the cubeless worth of playing on
        board = (position.theirs, position.mine)
        p = noisy(self._ev.chances(board), board, self.sigma)
        w, wg, wbg, lg, lbg = p
        # the computer's expected points per cube from the resigner's chances
        expected = (1 - w) + (lg - lbg) * 1 + lbg * 2 - (w + (wg - wbg) + wbg * 2)
        return level >= expected - 1e-9

    def close(self) -> None:
        """Nothing to release."""

"""gnubg's cube efficiency (`EvalEfficiency`, eval.c): how live the cube is in a position's
class, the `x` that mixes the dead-cube and live-cube match chances in `cubeful`.

gnubg 1.07 uses one table at every depth: contact and crashed 0.68; a race 0.00125 x the
pips of the side on roll + 0.55, within 0.6 to 0.7; a one-sided bear-off 0.6 (the
two-sided one works its own out: `bearoff`); a finished game 0. gnubg 1.08 keeps that
table for evaluations of two plies and more and raises it for 0 and 1 ply
(`i = ply >= 2 ? 0 : 1`): contact and crashed 0.76, a race 0.0025 x pips + 0.60 within
0.6 to 0.8. The ply is the whole evaluation's (its `evalcontext`), so every node of a
2-ply evaluation, its 0-ply screening of moves included, uses the 2-ply table, and the
luck, which gnubg evaluates at 0 ply, the 0-ply one.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller.analysis.bearoff import is_small_bearoff
from controller.evaluation.backend import Board
from controller.evaluation.generation import GNUBG_107, GNUBG_108, Generation


@dataclass(frozen=True)
class Efficiencies:
    """One table of gnubg's cube efficiencies (its `rContactX` = `rCrashedX`,
    `rRaceFactorX`, `rRaceCoefficientX`, `rRaceMin`, `rRaceMax`, `rOSCubeX`)."""

    contact: float
    race_factor: float
    race_coefficient: float
    race_min: float
    race_max: float
    bearoff: float = 0.6

    def of(self, kind: str, pips_on_roll: int) -> float:
        """The efficiency of a class ("over", "bearoff", "bearoff2", "race", "contact")."""
        if kind == "over":
            return 0.0
        if kind in ("bearoff", "bearoff2"):
            return self.bearoff
        if kind == "race":
            return min(self.race_max, max(self.race_min, pips_on_roll * self.race_factor + self.race_coefficient))
        return self.contact


GNUBG_107_TABLE = Efficiencies(0.68, 0.00125, 0.55, 0.6, 0.7)
GNUBG_108_SHALLOW = Efficiencies(0.76, 0.0025, 0.60, 0.6, 0.8)
_TABLES = {GNUBG_107: (GNUBG_107_TABLE, GNUBG_107_TABLE), GNUBG_108: (GNUBG_107_TABLE, GNUBG_108_SHALLOW)}


def efficiencies(generation: Generation, plies: int) -> Efficiencies:
    """The table `generation`'s gnubg uses in an evaluation `plies` deep."""
    deep, shallow = _TABLES[generation]
    return deep if plies >= 2 else shallow


def position_class(board: Board) -> str:
    """gnubg's position class, as far as the cube efficiency tells them apart:
    "over", "contact" (also crashed), "bearoff2" (both home, at most six checkers each:
    the two-sided database), "bearoff" (both sides home) or "race"."""
    b0, b1 = board
    back0 = next((i for i in range(24, -1, -1) if b0[i]), -1)
    back1 = next((i for i in range(24, -1, -1) if b1[i]), -1)
    if back0 < 0 or back1 < 0:
        return "over"
    if back0 + back1 > 22:
        return "contact"
    if back0 < 6 and back1 < 6:
        return "bearoff2" if is_small_bearoff(board) else "bearoff"
    return "race"


def board_kind(board: Board, table: Efficiencies) -> tuple[str, float]:
    """The board's class and its cube efficiency in `table` (a race: by the pips of the
    side on roll; the two-sided bear-off works its efficiency out per cube, `bearoff`)."""
    kind = position_class(board)
    pips = sum(n * (i + 1) for i, n in enumerate(board[1])) if kind == "race" else 0
    return kind, table.of(kind, pips)

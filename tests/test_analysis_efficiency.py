"""gnubg's cube efficiencies (`EvalEfficiency`, eval.c) as each release sets them, and the
depth whose table each evaluation takes: 1.07 one table everywhere; 1.08 higher ones for
0- and 1-ply evaluations (`rContactX[2] = {0.68f, 0.76f}`, `rRaceFactorX[2] = {0.00125f,
0.00250f}`, `rRaceCoefficientX[2] = {0.55f, 0.60f}`, `rRaceMax[2] = {0.7f, 0.8f}`,
`rRaceMin[2] = {0.6f, 0.6f}`, indexed `ply >= 2 ? 0 : 1` by the evaluation's own depth),
and its luck, a 0-ply evaluation (`ecLuck`), with the 0-ply table at any depth of analysis.
Also 1.08's `winAny`: a double/take the doubler cannot win is called no double."""
from __future__ import annotations

import pytest

from controller.analysis.efficiency import board_kind, efficiencies
from controller.analysis.evaluator import CubeEval, Evaluator
from controller.evaluation.generation import GNUBG_107, GNUBG_108, Generation, generation_of


class _Weights:
    """A stand-in network: the evaluator reads only which release its weights are."""

    p_prune = -4

    def __init__(self, generation: Generation) -> None:
        self.generation = generation


def _race(points: dict[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A race: the side on roll's checkers on `points` (its numbering), the other's all
    on its ace point."""
    mine = [0] * 25
    for point, count in points.items():
        mine[point - 1] = count
    theirs = (15,) + (0,) * 24
    return theirs, tuple(mine)


def test_the_weights_version_names_the_release() -> None:
    assert generation_of("1.00") is GNUBG_107 and generation_of("1.01") is GNUBG_108
    with pytest.raises(ValueError, match="weights of version 1.02, not one of 1.00 .gnubg 1.07., 1.01 .gnubg 1.08."):
        generation_of("1.02")


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_gnubg_107_has_one_table_at_every_depth(plies: int) -> None:
    table = efficiencies(GNUBG_107, plies)
    assert table.contact == 0.68
    assert (table.race_factor, table.race_coefficient, table.race_min, table.race_max) == (0.00125, 0.55, 0.6, 0.7)
    assert table.of("over", 0) == 0.0 and table.of("bearoff", 0) == 0.6


def test_gnubg_108_raised_the_shallow_evaluations_only() -> None:
    for plies in (0, 1):
        table = efficiencies(GNUBG_108, plies)
        assert table.contact == 0.76
        assert (table.race_factor, table.race_coefficient, table.race_min, table.race_max) == (0.0025, 0.60, 0.6, 0.8)
    assert efficiencies(GNUBG_108, 2) == efficiencies(GNUBG_107, 2)


def test_a_races_efficiency_follows_the_pips_on_roll_within_the_bounds() -> None:
    old, new = efficiencies(GNUBG_107, 0), efficiencies(GNUBG_108, 0)
    pips_37, pips_97, pips_21 = _race({13: 1, 6: 2, 1: 12}), _race({13: 1, 6: 14}), _race({7: 1, 1: 14})
    assert board_kind(pips_37, new) == ("race", pytest.approx(0.6925))  # 0.0025 x 37 + 0.60
    assert board_kind(pips_37, old) == ("race", 0.6)  # 0.00125 x 37 + 0.55 = 0.596: the floor
    assert board_kind(pips_97, new)[1] == 0.8  # 0.8425: the ceiling
    assert board_kind(pips_97, old)[1] == pytest.approx(0.67125)
    assert board_kind(pips_21, new)[1] == pytest.approx(0.6525)
    assert board_kind(pips_21, old)[1] == 0.6


def test_each_evaluator_takes_its_depths_table_and_luck_the_0_ply_one() -> None:
    deep = Evaluator(_Weights(GNUBG_108), plies=2)  # type: ignore[arg-type]
    assert deep.efficiency == efficiencies(GNUBG_108, 2) and deep.judged_as == "gnubg 1.08"
    luck = deep.for_luck()
    assert luck is not deep and luck.plies == 0 and luck.efficiency == efficiencies(GNUBG_108, 0)
    assert deep.for_luck() is luck  # made once, and it reads what the deep one worked out
    assert luck._chances is deep._chances and luck._rolls is deep._rolls
    shallow = Evaluator(_Weights(GNUBG_108), plies=1)  # type: ignore[arg-type]
    assert shallow.for_luck() is shallow
    old = Evaluator(_Weights(GNUBG_107), plies=2)  # type: ignore[arg-type]
    assert old.for_luck() is old


def test_a_double_take_the_doubler_cannot_win_is_no_double_in_108() -> None:
    # double/take best (take below pass), no double worse: "Double, take" unless sure to lose
    assert CubeEval(-1.0, -0.9, 1.0, -0.9, True).action == "Double, take"
    assert CubeEval(-1.0, -0.9, 1.0, -0.9, True, can_win=False).action == "No double"

"""The batch helpers gnubg's move pruning runs on in a look-ahead (`analysis.lookahead`):
each move's cubeless `Utility` at the score's gammon prices, and the shortlist of the
moves with the lowest, ties to the move generated first (gnubg keeps the first it meets)."""
from __future__ import annotations

import pytest

from controller.analysis.cubeful import CubeInfo, mover_prices, utility
from controller.analysis.network import load_network
from controller.errors import BackendUnavailableError
from controller.evaluation.backend import chances_of, lowest, utilities_of
from tests.random_play import random_positions


def test_the_lowest_rows_come_in_their_own_order_ties_to_the_earlier() -> None:
    values = [9.0, 3.0, 1.0, 1.0, 2.0, 0.5]
    assert lowest(values, range(1, 6), 2) == [2, 5]
    assert lowest(values, range(1, 6), 3) == [2, 3, 5]
    assert lowest([1.0, 1.0, 1.0, 1.0], range(0, 4), 2) == [0, 1]
    assert lowest(values, range(0, 2), 5) == [0, 1]


@pytest.mark.parametrize("plies", [0, -4])
def test_each_utility_is_gnubgs_at_the_score(plies: int) -> None:
    try:
        network = load_network()
    except BackendUnavailableError as why:
        pytest.skip(str(why))
    boards = random_positions(3, seed=5, turns=60)[:150]
    ci = CubeInfo(7, (2, 4), 2, 1, 0, False)  # gammons worth differently to each side
    found = utilities_of(network, boards, plies, mover_prices(ci))
    assert [float(u) for u in found] == [utility((p[0], p[1], p[2], p[3], p[4]), ci)
                                             for p in chances_of(network, boards, plies)]

"""The soak section, briefly: the whole stack as a process, computer against computer,
every fault of the schedule injected once (the kill and restart included). The real
figures come from `bgboard bench --only soak --seconds S`."""
from __future__ import annotations

import pytest

from bgboard.bench import SECTIONS, soak_bench


@pytest.mark.timeout(240)
def test_a_short_soak_plays_through_every_fault_and_resumes_exactly() -> None:
    figures = soak_bench.run(quick=True, seconds=14)
    assert "soak" in SECTIONS
    assert figures["faults"] == len(soak_bench.SCHEDULE)
    assert figures["resumes"] == 1 and figures["resumes_exact"] == 1
    assert figures["errors"] == 0
    assert figures["actions"] > 10  # type: ignore[operator]
    assert 0 < figures["rss_end_mb"] < 200  # type: ignore[operator]


def test_the_memory_trend_tells_a_cache_filled_early_from_a_leak() -> None:
    filled = [73.2, 74.4, 75.8, 76.0, 76.1, 76.0, 76.1, 76.1]  # grows, then flat
    leaking = [73.2 + 0.2 * game for game in range(8)]  # the same amount every game
    assert soak_bench.memory_trend(filled) == (1.7, pytest.approx(0.02, abs=0.01))
    after_game_2, slope = soak_bench.memory_trend(leaking)
    assert after_game_2 == pytest.approx(1.2) and slope == pytest.approx(0.2)
    assert soak_bench.memory_trend([73.0, 74.0]) == (0.0, 0.0)
    assert soak_bench.memory_trend([]) == (0.0, 0.0)

"""`bgboard bench --only club` measures the club room's page in Chromium following its boards:
every figure is there and they hang together (the samples it took, p95 not under the median,
the Pi 4 estimate the pi factor times this machine's CPU); no figure is held to a time."""
from __future__ import annotations

from browser_support import needs_chromium
from bgboard.bench import SECTIONS, club_bench


@needs_chromium
def test_the_club_section_measures_the_room_following_8_and_32_boards() -> None:
    assert "club" in SECTIONS
    figures = club_bench.run(quick=True)
    for boards in (8, 32):
        name = f"fake_boards_{boards}_snapshot_to_room"
        assert figures[f"{name}_count"] == boards * 2  # every move of the quick run's 2 s reached the page
        assert 0 <= figures[f"{name}_median_ms"] <= figures[f"{name}_p95_ms"]  # type: ignore[operator]
        assert figures[f"{name}_goal_ms"] == 1000.0
    played = "virtual_boards_2_move_to_room"
    assert figures[f"{played}_count"] >= 1  # type: ignore[operator]  # the virtual boards played moves the page showed
    assert figures[f"{played}_median_ms"] <= figures[f"{played}_p95_ms"]  # type: ignore[operator]
    cpu = figures["fake_boards_32_hub_cpu_percent"]
    assert 0 < cpu <= 200  # type: ignore[operator]  # one thread of a 2-core machine, at most
    estimate = figures["fake_boards_32_hub_cpu_percent_pi4_estimate"]
    factor = figures["pi4_factor"]
    assert abs(estimate - cpu * factor) <= 0.06 * factor + 0.1  # type: ignore[operator]  # both rounded
    assert isinstance(figures["fake_boards_32_rss_growth_mb"], float)

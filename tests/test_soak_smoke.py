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

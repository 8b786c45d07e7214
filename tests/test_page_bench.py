"""`bgboard bench --only page` measures the page in Chromium: every figure is there, from the
samples it says it took, and the page's own lift never waits for the server's answer."""
from __future__ import annotations

from browser_support import needs_chromium
from bgboard.bench import SECTIONS, page_bench


@needs_chromium
def test_the_page_section_measures_the_hand_and_the_buttons() -> None:
    assert "page" in SECTIONS
    figures = page_bench.run(quick=True)
    for name, samples in (("click_to_lifted", 3), ("click_to_targets", 3), ("button_to_page", 1)):
        assert figures[f"{name}_samples"] >= samples  # type: ignore[operator]
        assert 0 <= figures[f"{name}_median_ms"] <= figures[f"{name}_max_ms"]  # type: ignore[operator]
    assert figures["button_to_page_samples"] + figures["button_taps_unanswered"] == 4  # type: ignore[operator]
    assert figures["controller_to_page_samples"] >= 1  # type: ignore[operator]
    # the lift is drawn by the page at the click; the targets come back from the controller
    assert figures["click_to_lifted_median_ms"] <= figures["click_to_targets_median_ms"]  # type: ignore[operator]

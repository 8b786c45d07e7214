"""`bgboard bench` section `link`: the figures exist and make sense."""
from __future__ import annotations

from controller.bench import link_bench


def test_quick_link_bench_figures() -> None:
    figures = link_bench.run(quick=True)
    assert set(figures) == {"decode_frames_per_s", "salvage_kb_per_s", "pty_frames_per_s", "change_to_reading_median_ms",
                            "change_to_reading_p99_ms", "change_to_reading_samples",
                            "session_handshake_median_ms", "ping_rtt_median_ms"}
    assert figures["decode_frames_per_s"] > 5_000          # type: ignore[operator]
    assert figures["pty_frames_per_s"] > 100                # type: ignore[operator]
    # debounce 3 scans at 10 ms: never faster than 20 ms, and inside the 100 ms budget
    assert 15 <= figures["change_to_reading_median_ms"] < 100  # type: ignore[operator]
    assert figures["change_to_reading_p99_ms"] >= figures["change_to_reading_median_ms"]  # type: ignore[operator]
    assert figures["change_to_reading_samples"] == 20
    # the handshake is a HELLO? and a PING answered by a board that ticks every 2 ms
    assert 0 < figures["session_handshake_median_ms"] < 1000  # type: ignore[operator]
    assert 0 < figures["ping_rtt_median_ms"] < 100             # type: ignore[operator]

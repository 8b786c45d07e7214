"""A headless day: `wait 86400` passes on simulated time (the board's quiet time is
skipped, not stepped through 20 ms at a time), and what happens in it still happens: a
running clock runs out."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sim.headless import run_script_sync


# stepped through 20 ms at a time this took 14 minutes; skipped a second at a time about 20 s
# here, a minute beside three other workers: the limit tells the two apart on a loaded machine
@pytest.mark.timeout(300)
def test_a_day_of_waiting_runs_out_the_clock(tmp_path: Path) -> None:
    script = tmp_path / "day.txt"
    script.write_text("match length=3 clock=timer\ndice 3 1\nwhite roll\nmove 8 5\nmove 6 5\n"
                      "wait 86400\n")
    out = io.StringIO()
    run_script_sync(str(script), out=out, state_dir=tmp_path / "state")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    day = next(line for line in lines if line.get("action") == "wait 86400")
    assert day["match"]["state"] == "over"
    assert any("black ran out of time" in str(event) for event in day["events"]), day["events"]

"""The tutor on the simulator page (issue 14): the New match dialog turns it on; a marked
move made on the (virtual) board waits with the warning as the page's prompt, `keep` in
the page's list of what is possible (with the main button), the better move lit `hint`,
and the helper that takes the last step back; keep confirms it. The page renders
`state.possible` and `state.prompt`, so the snapshot is what it shows."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import wait_until
from controller.analysis.hint import hint
from controller.bot.gnubg_level import load_gnubg_nn
from controller.engine.board_view import step_cells
from controller.table.computer import bot_context
from sim.web.harness import ServerThread, fast_profile
from sim.web.protocol import PageAction

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (x86-64; installed by .ci/run)")]


@pytest.fixture()
def sim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "state").mkdir()
    server = ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "config" / "simulator.json",
                          profile=fast_profile(tmp_path), seed=5)
    with server:
        yield server


def act(sim: ServerThread, action: PageAction) -> Any:
    live = sim.inspect(lambda live: live)
    return sim.run(live.act(action))


def snap(sim: ServerThread) -> dict[str, Any]:
    return sim.inspect(lambda live: live.snapshot())


def test_the_page_shows_the_tutors_warning_and_offers_keep(sim: ServerThread) -> None:
    assert act(sim, PageAction("new_match", settings={"length": 5, "tutor": "doubtful"})) is not None
    assert snap(sim)["settings"]["tutor"] == "doubtful"
    act(sim, PageAction("setup"))
    wait_until(lambda: not sim.inspect(lambda live: live.table.controller.setting_up))  # type: ignore[union-attr]
    act(sim, PageAction("button", name="white_main"))  # the opening roll
    wait_until(lambda: snap(sim)["match"]["state"] == "move")
    match = sim.inspect(lambda live: live.table.controller.match)  # type: ignore[union-attr]
    side = match.turn
    ranked = hint(match.position, match.dice, bot_context(match, side))
    marked = next(h for h in ranked if 0.04 <= h.loss < 0.5)  # a doubtful move or worse
    for step in marked.move.steps:
        frm, to = step_cells(step, side)
        before = snap(sim)["match"]["position_id"], snap(sim)["possible"]
        act(sim, PageAction("lift", cell=frm))
        act(sim, PageAction("place", cell=to))
        wait_until(lambda before=before: (snap(sim)["match"]["position_id"], snap(sim)["possible"]) != before
                   or any(a["action"] == "keep" for a in snap(sim)["possible"]))
    wait_until(lambda: any(a["action"] == "keep" for a in snap(sim)["possible"]))
    state = snap(sim)
    assert state["match"]["turn"] == side and state["match"]["state"] == "move"  # not confirmed yet
    assert {"side": side, "action": "keep", "level": None, "button": "main"} in state["possible"]
    assert state["prompt"].endswith("Undo?") and f"-{marked.loss:.2f}" in state["prompt"]
    assert state["hint"] == {"key": "tutor_move", "side": side}
    assert "undo" in state["helpers"]
    assert any(light["role"] == "hint" for light in state["leds"].values())
    act(sim, PageAction("undo"))  # the helper takes the held step back, as a hand would
    wait_until(lambda: not any(a["action"] == "keep" for a in snap(sim)["possible"]))
    assert snap(sim)["match"]["turn"] == side
    frm, to = step_cells(marked.move.steps[-1], side)
    act(sim, PageAction("lift", cell=frm))
    act(sim, PageAction("place", cell=to))
    wait_until(lambda: any(a["action"] == "keep" for a in snap(sim)["possible"]))
    act(sim, PageAction("button", name=f"{side}_main"))  # keep
    wait_until(lambda: snap(sim)["match"]["turn"] != side)

"""The tutor on the simulator page (issue 14): the New match dialog turns it on; a marked
move made on the (virtual) board waits with the warning as the page's prompt, `keep` in
the page's list of what is possible (with the main button), the better move lit `hint`,
and the helper that takes the last step back; keep confirms it. The page renders
`state.possible` and `state.prompt`: the first test reads the snapshot the page gets,
the second the page itself in Chromium."""
from __future__ import annotations

from typing import Any

import pytest

from browser_support import Page, ctl, needs_chromium, wait_until
from controller.analysis.hint import Hint, hint
from controller.analysis.match import MARKS
from controller.bot.gnubg_level import load_gnubg_nn
from controller.engine.board_view import step_cells
from controller.table.computer import bot_context
from sim.page.harness import ServerThread
from controller.web.protocol import PageAction
from browser_support import queue_roll

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(load_gnubg_nn() is None, reason="needs gnubg-nn (x86-64; installed by .ci/run)")]


def act(sim: ServerThread, action: PageAction) -> Any:
    live = sim.inspect(lambda live: live)
    return sim.run(live.act(action))


def snap(sim: ServerThread) -> dict[str, Any]:
    return sim.inspect(lambda live: live.snapshot())


def held(sim: ServerThread) -> bool:
    return any(a["action"] == "keep" for a in snap(sim)["possible"])


def play_a_marked_move(sim: ServerThread, mark: str = "doubtful") -> tuple[str, Hint]:
    """After the opening roll: the side on turn plays a move that earns at least `mark`
    (controller.analysis.match.MARKS), one checker at a time on the virtual board, as a hand would."""
    least = {name: value for value, name in MARKS}[mark]
    wait_until(lambda: snap(sim)["match"]["state"] == "move")
    match = ctl(sim, lambda c: c.status().match)
    side = match.turn
    ranked = hint(match.position, match.dice, bot_context(match, side))
    marked = next((h for h in ranked if least < h.loss < 0.5), None)
    assert marked is not None, f"the opening roll {match.dice} has no such move: choose another seed"
    for step in marked.move.steps:
        frm, to = step_cells(step, side)
        before = ctl(sim, lambda c: c.status().match.partial)
        act(sim, PageAction("lift", cell=frm))
        act(sim, PageAction("place", cell=to))
        wait_until(lambda before=before: ctl(sim, lambda c: c.status().match.partial) != before or held(sim))
    wait_until(lambda: held(sim))
    return side, marked


def test_the_page_state_shows_the_tutors_warning_and_offers_keep(sim: ServerThread) -> None:
    assert act(sim, PageAction("new_match", settings={"length": 5, "tutor": "doubtful"})) is not None
    assert snap(sim)["settings"]["tutor"] == "doubtful"
    act(sim, PageAction("setup"))
    wait_until(lambda: not ctl(sim, lambda c: c.status().setting_up))
    act(sim, PageAction("button", name="white_main"))  # the opening roll
    side, marked = play_a_marked_move(sim)
    state = snap(sim)
    assert state["match"]["turn"] == side and state["match"]["state"] == "move"  # not confirmed yet
    assert {"side": side, "action": "keep", "level": None, "button": "main"} in state["possible"]
    assert state["prompt"].endswith("Undo?") and f"-{marked.loss:.2f}" in state["prompt"]
    assert state["hint"] == {"key": "tutor_move", "side": side}
    assert "undo" in state["helpers"]
    assert any(light["role"] == "hint" for light in state["leds"].values())
    act(sim, PageAction("undo"))  # the helper takes the held step back, as a hand would
    wait_until(lambda: not held(sim))
    assert snap(sim)["match"]["turn"] == side
    frm, to = step_cells(marked.move.steps[-1], side)
    act(sim, PageAction("lift", cell=frm))
    act(sim, PageAction("place", cell=to))
    wait_until(lambda: held(sim))
    act(sim, PageAction("button", name=f"{side}_main"))  # keep
    wait_until(lambda: snap(sim)["match"]["turn"] != side)


@needs_chromium
def test_the_page_turns_the_tutor_on_and_keeps_a_held_move(page: Page, sim: ServerThread) -> None:
    p = page.page
    p.click("#new-match-open")
    p.locator("#new-match-form [name=tutor]").select_option("bad")
    p.click("#new-match-start")
    p.wait_for_function("window.bgboard.state.settings.tutor === 'bad'", timeout=8000)
    assert ctl(sim, lambda c: c.status().config.tutor) == "bad"
    act(sim, PageAction("setup"))
    wait_until(lambda: not ctl(sim, lambda c: c.status().setting_up))
    page.click_button("white_main")  # the opening roll
    side, _ = play_a_marked_move(sim, "bad")
    keep = p.locator(f'#actions button[data-command="{side} keep"]')
    keep.wait_for(timeout=8000)
    name = "White" if side == "white" else "Black"
    assert keep.inner_text() == f"{name}: keep it"
    assert p.locator("#prompt").inner_text().endswith("Undo?")
    # issue 35.11: the facts table's pips are the board's with the held move, as the display's
    held_pips = snap(sim)["pips_view"]
    assert held_pips != snap(sim)["match"]["pips"]  # the match itself has not counted the move
    shown = f"White {held_pips['white']} · Black {held_pips['black']}"
    wait_until(lambda: p.locator("#pips").inner_text() == shown, 10, f"{shown} in {p.locator('#pips').inner_text()}")
    keep.click()
    wait_until(lambda: ctl(sim, lambda c: c.status().match.turn) != side)


def test_the_simulators_page_sets_the_tutor_and_asks_a_hint_as_the_phone_does(sim: ServerThread) -> None:
    """One page for the simulator and the board: the page's Tutor choice is the table's
    `TutorChosen` (and the next dialog's), its Hint button the menu's Hint."""
    assert act(sim, PageAction("tutor", name="bad")) is None
    assert ctl(sim, lambda c: c.status().config.tutor) == "bad" and snap(sim)["settings"]["tutor"] == "bad"
    assert snap(sim)["hint_ask"] is False  # before the opening roll
    assert act(sim, PageAction("hint")).text.startswith("rejected: no hint now")
    act(sim, PageAction("setup"))
    wait_until(lambda: not ctl(sim, lambda c: c.status().setting_up), what="the board set up")
    sim.inspect(lambda live: queue_roll(live, (3, 1)))
    assert act(sim, PageAction("command", name="white roll")) is None
    wait_until(lambda: snap(sim)["hint_ask"], what="a hint offered")
    assert act(sim, PageAction("hint")) is None
    assert ctl(sim, lambda c: c.state.hint.current(c.state.match)) is not None

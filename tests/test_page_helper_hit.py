"""Issue 35.12: the computer's hit started by hand and taken back, then "Play the computer's
move for me".

The person lifted the computer's hitting checker, put the hit blot on the bar, and put the
hitting checker back where it came from. The helper then tried to lift the blot from its
point again: "ignored: no white checker on cell 20", in English on a Danish page, with
the blot left on the bar. A blot already on the bar is the hit done; the helper finishes
the move. A move the board cannot carry out any more is told in the page's language, and
nothing is moved.

Black (the computer, `simple`) has one checker outside its home, on its 8-point, and a 3-3:
every move starts 8/5*, hitting White's blot on Black's 5-point (White's 20).
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.engine.board_view import CELLS
from controller.engine.match_settings import HUMAN, MatchSettings
from controller.engine.position import Position
from controller.events import AdoptMatch
from controller.table.start import starting_match
from sim.page.live import LiveSim
from controller.web.protocol import Notice, PageAction
from tests.online_double import until

BLACK_TO_HIT = Position.from_points({8: 1, 1: 14}, {20: 1, 6: 14})


async def _computer_to_hit(tmp: Path) -> LiveSim:
    live = LiveSim(state_dir=tmp / "sim", settings_file=tmp / "dialog.json", seed=3)
    await live.start()
    assert live.table is not None
    settings = MatchSettings(length=7, white_player=HUMAN, black_player="simple", confirm="auto")
    match = starting_match(settings, BLACK_TO_HIT.id, turn="black").roll("black", (3, 3), now=0.0).match
    live.table.dispatch(AdoptMatch(match, live.table.clock()))
    await live.act(PageAction("language", name="da"))
    await live.act(PageAction("setup"))
    c = live.table.controller
    await until("the computer's move shown", lambda: c.status().carried_out is not None and not c.status().setting_up, 30)
    steps = c.status().carried_out.move.steps  # type: ignore[union-attr]
    assert (steps[0].frm, steps[0].to, steps[0].hit) == (8, 5, True)
    return live


def test_a_hit_started_and_taken_back_is_finished_by_the_helper(tmp_path: Path) -> None:
    async def go() -> None:
        live = await _computer_to_hit(tmp_path)
        try:
            c = live.table.controller  # type: ignore[union-attr]
            for action in (PageAction("lift", cell="17", colour="black"), PageAction("lift", cell="20", colour="white"),
                           PageAction("place", cell="bar", colour="white"), PageAction("place", cell="17", colour="black")):
                assert await live.act(action) is None, action  # the hit started, the hitter put back
            assert live.vb.counts("bar") == (1, 0) and live.vb.counts("20") == (0, 0)
            assert await live.act(PageAction("bot_move")) is None  # once: "ignored: no white checker on cell 20"
            await until("the computer's move counted", lambda: c.status().match.turn == "white", 30)
            assert live.vb.counts("bar") == (1, 0)  # the hit blot, once
        finally:
            await live.close()
    asyncio.run(go())


def test_a_computer_move_the_board_can_no_longer_give_is_told_and_nothing_moves(tmp_path: Path) -> None:
    async def go() -> None:
        live = await _computer_to_hit(tmp_path)
        try:
            live.vb.lift("17", "black")  # the hitting checker taken off the board altogether
            before = {cell: live.vb.counts(cell) for cell in CELLS}
            said = await live.act(PageAction("bot_move"))
            assert isinstance(said, Notice) and said.key == "bot_move_off"  # the page says it in Danish
            assert {cell: live.vb.counts(cell) for cell in CELLS} == before
        finally:
            await live.close()
    asyncio.run(go())

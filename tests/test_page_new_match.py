"""New match on the simulator's page is the table's `MatchChosen`, as on the phone and the
board's menu (issue 33.3): the table stays the one it was (it was closed and another
opened), the match is the dialog's with all its settings, checkers in the air go back, the
virtual board is laid out as the new match starts and the table reads it set up over the
link, and the dialog keeps the choices for the next session."""
from __future__ import annotations

import asyncio
from pathlib import Path

from controller.engine.board_view import cell_counts
from controller.engine.position import Position
from controller.web.protocol import Notice, PageAction
from sim.page.live import LiveSim
from tests.online_double import until


def test_the_simulators_new_match_is_one_match_chosen_at_the_same_table(tmp_path: Path) -> None:
    async def go() -> None:
        live = LiveSim(state_dir=tmp_path / "sim", settings_file=tmp_path / "dialog.json", seed=3)
        await live.start()
        try:
            table = live.table
            assert table is not None
            await until("the board set up", lambda: not table.controller.status().setting_up)
            assert await live.act(PageAction("lift", cell="1", colour="black")) is None
            assert live.hand
            answer = await live.act(PageAction("new_match", settings={
                "length": 3, "cube": "off", "clock": "timer", "opponent": "human", "score": "1-0"}))
            assert isinstance(answer, Notice) and answer.key == "new_match", answer
            assert live.table is table and "new match to 3" in table.log_lines
            m = table.controller.status().match
            assert (m.settings.length, m.settings.cube, m.settings.clock, m.score) == (3, False, "timer", (1, 0))
            assert live.hand == []
            initial = cell_counts(Position.initial(), "white")
            assert {c: live.vb.counts(c) for c in initial} == initial
            await until("the new match's board read set up", lambda: not table.controller.status().setting_up)
            assert table.controller.status().match.phase == "opening"
            assert (live.dialog["length"], live.dialog["cube"], live.dialog["clock"]) == (3, "off", "timer")
        finally:
            await live.close()

    asyncio.run(go())

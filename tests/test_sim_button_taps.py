"""The page's buttons are pressed as a finger does: a second click that comes just after
the first tap came up still counts (the button panel takes a press closer than its
bounce time to the last edge for bounce, so the simulator's finger waits that long)."""
from __future__ import annotations

import asyncio
from pathlib import Path

from browser_support import wait_until
from sim.finger import TAP_S
from sim.page.harness import ServerThread


def test_quick_taps_on_the_menu_button_each_count(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    with ServerThread(state_dir=tmp_path / "state", settings_file=tmp_path / "s.json", seed=3) as server:
        wait_until(lambda: server.inspect(lambda live: live.table.controller.status().online  # type: ignore[union-attr]
                                          and not live.table.controller.status().setting_up), 20, "the board set up")
        live = server.live
        assert live is not None

        async def taps() -> None:
            for _ in range(4):  # each click 10 ms after the last tap came up
                await live.fingers.press("menu")
                await asyncio.sleep(TAP_S + 0.01)
        asyncio.run_coroutine_threadsafe(taps(), server.loop).result(30)
        # the first tap opens the menu, each further one steps to the next item
        wait_until(lambda: server.inspect(lambda live: (live.table.controller.status().menu.mode,  # type: ignore[union-attr]
                                                        live.table.controller.status().menu.index)) == ("items", 3),
                   20, "four taps taken")

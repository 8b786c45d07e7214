"""Online play's state reads "over" from the moment the match is over on the table (issue
15, a race seen by hand): the page's `online_play.state` and the door's state went on
reading "playing" after the table's match had ended, until the seat's 50 ms pump had seen
the server agree, so a page drawn at that moment said "playing" under a finished match.

The simulator (`LiveSim`, the virtual board behind a real pseudo-terminal) plays a
1-point match on the protocol double over loopback TCP against a plain protocol client;
the person gives up the match (forfeit) from the page. Every page update is recorded:
none shows the table's match over while the state says "playing".
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.bgammon import commands
from controller.online.client import Connection
from controller.web.protocol import PageAction
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port
from tests.test_online_page import _local_match_begun, _sim

pytestmark = pytest.mark.timeout(120)


def test_the_state_is_over_as_soon_as_the_match_is_over_on_the_table(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port()) as double:
            live = _sim(tmp_path, double)
            await live.start()
            bert = await Connection.open(address(double))
            try:
                await _local_match_begun(live)
                answer = await live.act(PageAction("online", settings={
                    "server": str(address(double)), "login": "guest", "match": "public", "points": "1"}))
                assert answer is not None
                door = live.door
                assert door is not None and live.table is not None
                table = live.table
                await until("waiting", lambda: door.state == "waiting")
                await bert.login("bert")
                await bert.send(commands.join(str(door.view()["match"])))
                await until("playing", lambda: door.state == "playing")

                seen: list[tuple[bool, str]] = []  # (the table's match over, the page's state)

                def record() -> None:
                    seen.append((table.controller.status().match.is_over, live.snapshot()["online_play"]["state"]))

                live.subscribe(record)
                assert await live.act(PageAction("command", name="white forfeit")) is None
                await until("over", lambda: door.state == "over")
                assert table.controller.status().match.is_over and table.controller.status().match.winner == "black"
                assert seen and seen[-1] == (True, "over")
                assert [state for over, state in seen if over] == ["over"] * sum(over for over, _ in seen), seen
            finally:
                await bert.close()
                await live.close()
    asyncio.run(go())

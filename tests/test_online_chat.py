"""Chat sent from the page while playing online (issue 15).

The simulator's page starts an online match on the protocol double over loopback TCP, a
plain protocol client joins it as the opponent; the page's chat line reaches the double
as one `say` command and the opponent as a `say` event, and is shown on the page under
the player's name. An empty line, a line break, an escape sequence or an over-long line
is refused with one line and nothing is sent; with no online match nothing is sent.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.bgammon import commands
from controller.online.client import Connection
from controller.online.events import Say
from sim.page.live import LiveSim
from controller.web.protocol import BadMessage, PageAction, parse_message
from tests.online_double import BgammonDouble, until
from tests.test_online_client import address, free_port
from tests.test_online_page import _sim

pytestmark = pytest.mark.timeout(120)


def _says(double: BgammonDouble, name: str) -> list[str]:
    return [line for line in double.received.get(name, []) if line.startswith("say")]


def test_a_chat_line_from_the_page_reaches_the_opponent_and_bad_lines_are_refused(tmp_path: Path) -> None:
    async def go() -> None:
        async with BgammonDouble(free_port(), seed=5) as double:
            live: LiveSim = _sim(tmp_path, double)
            await live.start()
            try:
                # not online: one line, nothing sent
                answer = await live.act(PageAction("say", name="hello"))
                assert answer == "ignored: not playing online: no chat line sent"
                assert not any(_says(double, n) for n in double.received)

                await live.act(PageAction("online", settings={
                    "server": str(address(double)), "login": "guest", "match": "private", "points": "1",
                    "match_password": "pw"}))
                door = live.door
                assert door is not None
                await until("waiting for an opponent", lambda: door.state == "waiting")
                me = live.snapshot()["online_play"]["me"]
                opponent = await Connection.open(address(double))
                await opponent.login("bert")
                await opponent.send(commands.join(me, "pw"))
                await until("the opponent seated", lambda: door.state == "playing")

                assert await live.act(parse_message('{"type": "say", "text": "  good luck  "}')) is None
                async with asyncio.timeout(20):
                    while not isinstance(event := await opponent.next_event(), Say):
                        pass
                assert (event.player, event.message) == (me, "good luck")
                assert _says(double, me) == ["say good luck"]
                assert f"{me}: good luck" in live.snapshot()["chat"]

                for bad in ("", "   ", "two\nlines", "\x1b[2Jcleared", "x" * (commands.CHAT_CHARS + 1)):
                    answer = await live.act(PageAction("say", name=bad))
                    assert isinstance(answer, str) and answer.startswith("ignored: ") and "\n" not in answer, bad
                    assert "nothing sent" in answer
                assert _says(double, me) == ["say good luck"]  # none of them went out
                with pytest.raises(BadMessage):
                    parse_message('{"type": "say", "text": ["a list"]}')
                await opponent.close()
            finally:
                await live.close()
    asyncio.run(go())


def test_a_bad_chat_line_is_refused_with_one_line() -> None:
    for bad in ("", "a\rb", "a\u2028b", "x" * 500):
        with pytest.raises(ValueError) as refused:
            commands.check_chat(bad)
        assert "\n" not in str(refused.value)
    assert commands.check_chat(" hi there ") == "hi there"

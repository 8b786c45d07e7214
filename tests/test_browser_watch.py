"""The watch page in Chromium: `bgboard online --watch ID --sim`'s page (controller.web.watch_page).

Two protocol clients play a match on the double over loopback TCP; the real `Spectator`
watches it behind `WatchPage`, served by the simulator's own server on a thread. The tab
shows the server's checkers (all thirty), the spectator's state and the two players, the
display's frame, the match's chat line; it offers no action, and a checker clicked is
answered with one "watching" line while nothing is sent to the server.
"""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import Page, needs_chromium, wait_until
from controller.online.watch import Spectator
from controller.web.server import SimServer
from controller.web.watch_page import WatchPage
from tests.online_double import BgammonDouble
from tests.test_online_client import address, free_port
from tests.test_online_watch import _match

pytestmark = [needs_chromium, pytest.mark.timeout(480)]  # 13 s idle, over 60 beside other jobs


class WatchThread:
    """The double, a match played on it, and the watch page served, on a loop of their own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.url = ""
        self._page: WatchPage | None = None
        self._double: BgammonDouble | None = None
        self._watching: asyncio.Task[None] | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: self.loop.run_until_complete(self._main()), daemon=True)

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        async with BgammonDouble(free_port(), seed=5) as double:
            self._double = double
            players = await _match(double, 3)
            self._page = WatchPage(Spectator(address(double), "Guest_anna"))
            server = SimServer(self._page)
            runner = await server.start("127.0.0.1", 0)
            assert server.guard is not None
            self.url = server.guard.url()
            self._watching = asyncio.create_task(self._page.run(120))
            self._ready.set()
            try:
                await self._stop.wait()
            finally:
                for task in [*players, self._watching]:
                    task.cancel()
                await asyncio.gather(*players, self._watching, return_exceptions=True)
                await runner.cleanup()

    @property
    def page(self) -> WatchPage:
        assert self._page is not None
        return self._page

    @property
    def double(self) -> BgammonDouble:
        assert self._double is not None
        return self._double

    @property
    def watching(self) -> asyncio.Task[None]:
        assert self._watching is not None
        return self._watching

    def call(self, fn: Any) -> Any:
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def __enter__(self) -> WatchThread:
        self._thread.start()
        assert self._ready.wait(20), "the watch page did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._stop is not None
        self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)


@pytest.fixture()
def watched() -> Iterator[WatchThread]:
    with WatchThread() as w:
        yield w


def _text(page: Page, selector: str) -> str:
    return page.page.locator(selector).inner_text()


def test_the_watch_page_shows_the_match_and_offers_no_play(browser: Any, watched: WatchThread) -> None:
    page = Page(browser, watched.url)
    p = page.page
    wait_until(lambda: _text(page, "#online-state") in ("watching (read-only)", "the match is over"), 15, "watching")
    facts = _text(page, "#online-facts")
    assert "watching Guest_anna - Guest_bert" in facts or "watching Guest_bert - Guest_anna" in facts, facts
    assert p.locator("#actions button").count() == 0  # nothing to do but look
    assert p.locator("#chat-form").is_hidden()  # a spectator does not chat

    def anna_says() -> bool:
        """Anna's chat line, as the server passes it on, while the game is still on (so the
        spectator reads it before the match's end); False when it was over already."""
        game = watched.double.games[0]
        if game.winner or not game.spectators:
            return False
        for x in game.everyone():
            x.send({"Type": "say", "Player": "Guest_anna", "Message": "hello watchers"})
        return True
    if watched.call(anna_says):
        wait_until(lambda: "Guest_anna: hello watchers" in _text(page, "#chat"), 10, "the chat line")

    wait_until(lambda: _text(page, "#online-state") == "the match is over", 240, "the match over")
    assert p.locator("#chat-form").is_hidden()  # nor once the match is over
    board = page.state()["board"]  # the server's last position, as the tab received it
    assert board == watched.call(lambda: watched.page.snapshot()["board"])
    on_points = {c: w + b for c, (w, b) in board.items() if c.isdigit() and w + b}
    assert sum(w + b for w, b in board.values()) == 30 and on_points
    # the page draws a stack of more than five as five checkers, the fifth carrying the count
    shown = {c: min(n, 5) for c, n in on_points.items()}
    wait_until(lambda: {c: p.locator(f'#checkers [data-cell="{c}"]').count() for c in on_points} == shown,
               5, "the checkers drawn where the server has them")
    counts = sorted(int(x) for x in p.locator("#checkers text.count").all_text_contents())
    assert counts == sorted(n for n in on_points.values() if n > 5), counts
    cell, colour = next((c, "white" if w else "black") for c, (w, b) in board.items() if c.isdigit() and w + b)
    p.mouse.click(*page.checker(cell, colour))  # a hand would lift it: here nothing is taken
    assert "this page plays nothing" in page.wait_notice("watching a match online")
    assert page.state()["hand"] == [] and watched.call(lambda: watched.page.snapshot()["board"]) == board
    spectator = watched.call(lambda: watched.page.spectator.names[0])
    sent = watched.call(lambda: list(watched.double.received[spectator]))
    assert [line.split()[0] for line in sent if not line.startswith("pong")][:1] == ["join"]
    assert not any(line.startswith(("roll", "move", "ok", "double")) for line in sent)
    assert watched.call(lambda: watched.watching.done())  # the match over, the spectator gone
    assert page.errors == [], page.errors
    page.close()

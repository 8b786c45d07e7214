"""The spectators' page in Chromium (sim.web.spectators), on a phone's viewport.

Against `bgboard sim`'s table: a player plays on the simulator's page while a spectator's
tab (390 x 844, its own token) follows the match; a checker the spectator clicks is
refused in one line and nothing changes at the table; the live record downloads; a wrong
token, or none, is refused before anything is served; the spectators' cap and pacing hold.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import OUTPUT, Page, ctl, needs_chromium, progress_key, roll, wait_until
from sim.web.harness import ServerThread
from sim.web.spectators import SPECTATOR_COOKIE, SpectatorServer, live_view, serve_spectators
from tests.test_browser import play_step

pytestmark = [needs_chromium, pytest.mark.timeout(240)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture()
def spectators(sim: ServerThread) -> Iterator[SpectatorServer]:
    """The spectators' server on the simulator's table, on a port of its own."""
    async def start() -> Any:
        assert sim.live is not None
        return await serve_spectators(live_view(sim.live), "127.0.0.1", 0)

    runner, server = sim.run(start())
    yield server
    sim.run(runner.cleanup())


def _status(url: str, **headers: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_a_spectator_follows_the_match_and_can_do_nothing(browser: Any, page: Page, sim: ServerThread,
                                                           spectators: SpectatorServer) -> None:
    guard = spectators.guard
    assert guard is not None and guard.token and guard.cookie == SPECTATOR_COOKIE
    base = guard.url().split("?")[0]
    watcher = Page(browser, guard.url(), **PHONE)
    state = watcher.state()
    assert state["spectator"] is True and state["actions"] == [] and "debug" not in state.get("settings", {})
    assert "sensors" not in state["debug"] and set(state["settings"]) == {"language"}
    # the player rolls and plays a whole turn on the simulator's page
    roll(page, sim)
    mover = ctl(sim, lambda c: c.match.turn)
    n = 0
    while ctl(sim, lambda c: c.match.turn == mover and c.match.phase == "move"):
        play_step(page, sim, n)
        n += 1
    wait_until(lambda: ctl(sim, lambda c: c.match.turn != mover or c.match.phase != "move"), 10, "the turn over")
    position = ctl(sim, lambda c: c.match.partial.id)
    wait_until(lambda: watcher.state()["match"]["position_id"] == position, 10, "the spectator following")
    assert watcher.state()["last_move"], watcher.state()["moves"]
    wait_until(lambda: watcher.page.locator("#move-list").inner_text().strip(), 10, "the move list")
    # nothing to press on the spectator's page; a checker clicked is refused in one line
    assert watcher.page.locator("button.hw").first.is_hidden()
    assert watcher.page.locator("#new-match-open").is_hidden()
    assert watcher.page.locator("#actions button").count() == 0
    before = progress_key(sim)
    board = watcher.state()["board"]
    cell, colour = next((c, "white" if w else "black") for c, (w, b) in board.items() if c.isdigit() and w + b)
    watcher.page.mouse.click(*watcher.checker(cell, colour))
    assert "only watches" in watcher.wait_notice("spectator")
    sent = watcher.page.evaluate("""() => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify({type: "button", name: "white_main"}));
        ws.onmessage = (ev) => { const m = JSON.parse(ev.data); if (m.type === "notice") { ws.close(); done(m.text); } };
    })""")
    assert "only watches" in sent
    assert progress_key(sim) == before and sim.inspect(lambda live: live.hand) == []
    # the live record at any moment, through the spectator's cookie
    record = watcher.page.evaluate("async () => { const r = await fetch('/match.mat'); return [r.status, await r.text()]; }")
    assert record[0] == 200 and "Game 1" in record[1], record
    OUTPUT.mkdir(exist_ok=True)
    watcher.page.screenshot(path=str(OUTPUT / "spectator-phone.png"), full_page=True)
    # a wrong token, or none, is refused before anything is served; the player's page is not the spectators'
    host = base.split("/")[2]
    assert _status(base + "?token=wrong")[0] == 403
    assert _status(base)[0] == 403
    code, text = _status(base + "?token=" + str(guard.token), Host="evil.example:" + host.split(":")[1])
    assert code == 403 and "Host" in text
    tab = browser.new_page(viewport=PHONE)
    response = tab.goto(base + "?token=" + "x" * 24)
    assert response is not None and response.status == 403 and "refused" in tab.content()
    tab.close()
    assert watcher.errors == [], watcher.errors
    watcher.close()


class Ticking:
    """A backend whose snapshot changes on every `tick()` (a table as busy as can be)."""

    def __init__(self) -> None:
        self.n = 0
        self.callbacks: list[Any] = []

    def tick(self) -> None:
        self.n += 1
        for callback in self.callbacks:
            callback()

    def subscribe(self, callback: Any) -> Any:
        self.callbacks.append(callback)
        return lambda: None

    def on_notice(self, callback: Any) -> Any:
        return lambda: None

    def snapshot(self) -> dict[str, Any]:
        return {"n": self.n}


def test_the_spectators_are_capped_and_paced() -> None:
    """At most `max_clients` spectators; each gets at most `per_s` snapshots a second
    however often the table changes, the latest one last."""
    import asyncio

    import aiohttp

    async def check() -> tuple[int, list[int], int]:
        backend = Ticking()
        server = SpectatorServer(backend, max_clients=2, per_s=2.0)  # type: ignore[arg-type]
        runner = await server.start("127.0.0.1", 0)
        assert server.guard is not None
        url = server.guard.url().replace("http://", "ws://").replace("/?", "/ws?")
        got: list[int] = []
        refused = 0
        try:
            async with aiohttp.ClientSession() as session:
                one = await session.ws_connect(url)
                two = await session.ws_connect(url)
                try:
                    await session.ws_connect(url)
                except aiohttp.WSServerHandshakeError as exc:
                    refused = exc.status
                got.append((await one.receive_json())["n"])
                for _ in range(40):  # 40 changes in about a second
                    backend.tick()
                    await asyncio.sleep(0.025)
                while True:
                    try:
                        msg = await one.receive(timeout=1.0)
                    except TimeoutError:
                        break
                    got.append(json.loads(msg.data)["n"])
                await one.close()
                await two.close()
        finally:
            await runner.cleanup()
        return refused, got, backend.n

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # a thread of its own: Playwright's loop runs in this one
        refused, got, last = pool.submit(asyncio.run, check()).result(60)
    assert refused == 503
    assert got[-1] == last, got  # the latest state reaches every spectator
    assert len(got) <= 6, got  # about 2 a second over 1.5 s (a loaded machine sends fewer), never 40

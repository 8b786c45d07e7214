"""The spectators' page in Chromium (controller.web.spectators), on a phone's viewport.

Against `bgboard sim`'s table: a player plays on the simulator's page while a spectator's
tab (390 x 844, its own token) follows the match; a checker the spectator clicks is
refused in one line and nothing changes at the table; the live record downloads; a wrong
token, or none, is refused before anything is served; the spectators' cap and pacing hold.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.engine import Position
from controller.engine.board_view import cell_counts, cell_of_point
from controller.engine.moves import Step
from controller.engine.turn import TurnPlan
from controller.events import ActionRequested, Refused
from controller.online.door import OnlineDoor, offer_online
from controller.settings import Settings
from controller.table import Table
from controller.play.showing import phase_prompt
from controller.events import RollQueued
from browser_support import OUTPUT, Page, ctl, needs_chromium, progress_key, roll, wait_until
from controller.web.board_page import PlayerServer, pair_table
from sim.page.live import live_view
from sim.page.harness import ServerThread, fast_profile
from controller.web.spectators import SPECTATOR_COOKIE, SpectatorServer, serve_spectators, spectate_table
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
    mover = ctl(sim, lambda c: c.status().match.turn)
    n = 0
    while ctl(sim, lambda c: c.status().match.turn == mover and c.status().match.phase == "move"):
        play_step(page, sim, n)
        n += 1
    wait_until(lambda: ctl(sim, lambda c: c.status().match.turn != mover or c.status().match.phase != "move"), 10, "the turn over")
    position = ctl(sim, lambda c: c.status().match.partial.id)
    wait_until(lambda: watcher.state()["match"]["position_id"] == position, 30, "the spectator following")
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
    # issue 35.7: a spectator is nobody's "You" (the header said "You vs Computer")
    line = watcher.page.evaluate(
        "async () => (await import('/static/views.js')).playersLine('en', {white: 'human', black: 'simple'}, true)")
    assert line == "White vs Computer (simple)"
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


class PiThread:
    """`bgboard run`'s main loop (`controller.app.run_table`) on the virtual board with the
    simulated backends and mock pins, its spectators' page opened the way `bgboard run
    --spectators 0` opens it, on a loop of its own."""

    def __init__(self, tmp: Path, online: Callable[[], Settings] | None = None) -> None:
        """`online`: the settings online play reads; with them the table gets its online
        door, as `bgboard run` opens it, and the phone's page plays through it."""
        from sim.virtual_board import VirtualBoard

        self.profile = fast_profile(tmp)
        self.state_dir = tmp / "state"
        self.vb = VirtualBoard(self.profile)
        for cell, (w, b) in cell_counts(Position.initial(), "white").items():
            self.vb.set_cell(cell, w, b)
        self.loop = asyncio.new_event_loop()
        self.table: Table | None = None
        self.urls: list[str] = []
        self.page_urls: list[str] = []
        self.player: PlayerServer | None = None
        self.online = online
        self.door: OnlineDoor | None = None
        self.failed: BaseException | None = None
        self._task: asyncio.Task[Any] | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from controller.app import run_table

        def on_table(table: Table) -> None:
            self.table = table
            if self.online is not None:
                self.door = offer_online(table, self.online, self.state_dir / "online")
            spectate_table(table, self.profile, "127.0.0.1", 0, on_url=self.urls.append)
            self.player = pair_table(table, self.profile, "127.0.0.1", 0, on_url=self.page_urls.append,
                                     door=self.door)

        async def main() -> None:
            self._task = asyncio.ensure_future(run_table(
                self.vb.port, profile=self.profile, state_dir=self.state_dir, strip_name="sim",
                display_driver="dummy", pin_factory="mock", on_table=on_table))
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            except BaseException as exc:  # noqa: BLE001 - told by __enter__
                self.failed = exc

        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(main())

    def call(self, fn: Any) -> Any:
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        """`coroutine` on the table's loop (a server double beside the table)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def ctl(self, fn: Any) -> Any:
        return self.call(lambda: fn(self.table.controller))  # type: ignore[union-attr]

    def __enter__(self) -> PiThread:
        self.vb.start()
        self._thread.start()
        wait_until(lambda: (self.urls and self.page_urls) or self.failed, 60, "the pages of bgboard run")
        assert self.failed is None, repr(self.failed)
        wait_until(lambda: self.ctl(lambda c: c.status().online and not c.status().setting_up
                                    and any(a.action == "roll" for a in c.status().actions)), 60, "the roll offered")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self.loop.call_soon_threadsafe(self._task.cancel)
        self._thread.join(15)
        self.vb.close()

    def roll(self) -> None:
        """The mover's roll button (either player's at the opening), again after an opening tie."""
        while self.ctl(lambda c: c.status().match.phase) != "move":
            side = self.ctl(lambda c: c.status().match.turn or "white")
            effects = self.call(lambda: self.table.dispatch(  # type: ignore[union-attr]
                ActionRequested(side, "roll", self.loop.time())))
            assert not any(isinstance(e, Refused) for e in effects), effects
            wait_until(lambda: self.ctl(lambda c: c.status().match.phase in ("move", "opening")), 30, "the roll")

    def play_a_step(self) -> None:
        """Move one checker by hand on the board: a legal step, without a hit if one exists."""
        def read(c: Any) -> tuple[str, list[Step]]:
            m = c.status().match
            return m.turn, TurnPlan(m.position, m.dice).next_steps(m.partial)
        side, steps = self.ctl(read)
        step = min(steps, key=lambda s: (s.hit, -s.frm))
        before = self.ctl(lambda c: c.status().match.partial.id)
        self.vb.lift(cell_of_point(step.frm, side), side)
        # as a player's hand: the lift seen (its targets lit), then the place
        wait_until(lambda: self.ctl(lambda c: getattr(c.status().verdict, "in_hand", None) is not None), 30,
                   f"the lift of {step}")
        self.vb.place(cell_of_point(step.to, side), side)
        if step.hit:
            other = "black" if side == "white" else "white"
            self.vb.lift(cell_of_point(step.to, side), other)
            self.vb.place("bar", other)
        placed_at = self.call(lambda: self.loop.time())
        target = cell_of_point(step.to, side)

        def taken() -> bool:
            return bool(self.ctl(lambda c: c.status().match.partial.id) != before)

        def unseen_on_full_point(c: Any) -> bool:
            """A checker put on a full point is not seen landing (reconcile.py): once the
            board has read and settled after the place, the display asks the mover to press."""
            status, prompt = c.status(), phase_prompt(c.state)
            return (not status.settling and status.reading_since >= placed_at and prompt is not None
                    and prompt.key == "on_full_point" and target in getattr(status.verdict, "unseen", ()))

        try:
            wait_until(lambda: taken() or self.ctl(unseen_on_full_point), 30, f"the step {step}")
            if not taken():
                self.press(f"{side}_main")  # as the player does: it has landed
                wait_until(taken, 30, f"the step {step} on the full point {target}")
        except AssertionError:
            print("table:", side, self.ctl(lambda c: (c.status().match.phase, c.status().match.turn, c.status().match.dice, c.status().verdict)))
            print("\n".join(self.call(lambda: list(self.table.log_lines))[-30:]))
            raise

    def press(self, key: str) -> None:
        """A tap of the board's button `key` on gpiozero's mock pins, as a finger does."""
        from sim.finger import TAP_S, Finger

        finger = self.call(lambda: Finger.on(self.table))  # type: ignore[arg-type]
        self.call(lambda: finger.down(key))
        time.sleep(TAP_S)
        self.call(lambda: finger.up(key))
        time.sleep(TAP_S)  # released as long as pressed: the next press is not a bounce of this one


def test_a_spectator_follows_moves_made_on_the_board_under_bgboard_run(browser: Any, tmp_path: Path) -> None:
    with PiThread(tmp_path) as pi:
        watcher = Page(browser, pi.urls[0], **PHONE)
        assert watcher.state()["spectator"] is True
        watcher.page.wait_for_function("document.title === 'bgboard — spectator'")  # the tab says whose page it is
        pi.ctl(lambda c: c.handle(RollQueued((2, 2), c.status().now)))  # an opening tie first (1 in 6 by chance): rolled again
        for _ in range(2):  # the opening, then the next turn: rolled by the mover's button, moved by hand
            wait_until(lambda: pi.ctl(lambda c: any(a.action == "roll" for a in c.status().actions)), 30, "the roll offered")
            pi.roll()
            mover = pi.ctl(lambda c: c.status().match.turn)
            while pi.ctl(lambda c: c.status().match.turn == mover and c.status().match.phase == "move"):
                pi.play_a_step()
            position = pi.ctl(lambda c: c.status().match.partial.id)
            wait_until(lambda: watcher.state()["match"]["position_id"] == position, 30, "the spectator following")
            assert watcher.state()["last_move"]
        assert watcher.page.locator("#move-list tr").count() >= 1
        before = pi.ctl(lambda c: (c.status().match.partial.id, c.status().match.phase))
        board = watcher.state()["board"]
        cell, colour = next((c, "white" if w else "black") for c, (w, b) in board.items() if c.isdigit() and w + b)
        # a checker still gliding to where the last move put it lets the pointer through
        watcher.page.wait_for_function("document.getAnimations().length === 0")
        watcher.page.mouse.click(*watcher.checker(cell, colour))
        assert "only watches" in watcher.wait_notice("spectator")
        assert pi.ctl(lambda c: (c.status().match.partial.id, c.status().match.phase)) == before
        record = watcher.page.evaluate("async () => { const r = await fetch('/match.mat'); return [r.status, await r.text()]; }")
        assert record[0] == 200 and "1)" in record[1], record
        base = pi.urls[0].split("?")[0]
        assert _status(base + "?token=wrong")[0] == 403
        OUTPUT.mkdir(exist_ok=True)
        watcher.page.screenshot(path=str(OUTPUT / "spectator-pi-phone.png"), full_page=True)
        assert watcher.errors == [], watcher.errors
        watcher.close()


def test_a_phone_paired_with_the_board_presses_its_buttons(browser: Any, tmp_path: Path) -> None:
    """`bgboard run --page`: the pairing address opens the board's page (a wrong token or
    none does not); a button pressed on the phone rolls as the physical one does; a checker
    dragged on the page is refused (they are moved by hand); revoked, the cookie no longer
    opens anything."""
    with PiThread(tmp_path) as pi:
        url = pi.page_urls[0]
        base = url.split("?")[0]
        assert "token=" in url and url.split("token=")[1] not in pi.urls[0]  # not the spectators' token
        assert _status(base)[0] == 403 and _status(base + "?token=wrong")[0] == 403
        # issue 35.7: the board's refusals name the board, not "the simulator"
        assert _status(base)[1].strip() == "refused: open the address the board printed (it carries a token)"
        phone = Page(browser, url, **PHONE)
        assert phone.state()["spectator"] is False
        wait_until(lambda: phone.page.locator('button.hw.live[data-button="white_main"]').count(), 10,
                   "the roll offered on the phone")
        for dice in ((2, 2), (3, 1)):  # an opening tie (1 in 6 by chance), then White's 3-1
            pi.ctl(lambda c: c.handle(RollQueued(dice, c.status().now)))
        phone.click_button("white_main")  # the opening roll, as the physical button rolls it
        wait_until(lambda: any(line.startswith("opening tie 2-2") for line in pi.call(lambda: list(pi.table.log_lines))),
                   10, "the opening tie")
        phone.click_button("black_main")  # rolled again by either player
        wait_until(lambda: pi.ctl(lambda c: c.status().match.phase == "move"), 10, f"the roll from the phone {phone.notices} {phone.page.evaluate('window.bgboard.sent')} {pi.ctl(lambda c: (c.status().match.phase, c.status().match.turn))}")
        mover = pi.ctl(lambda c: c.status().match.turn)
        # issue 35.7: the board's page says checkers move on the board (no helper, no dragging)
        hint = phone.page.locator("#hint")
        wait_until(lambda: "on the board with the dice shown" in (hint.text_content() or ""), 10, "the board's hint")
        board = phone.state()["board"]
        cell = next(c for c, (w, b) in board.items() if c.isdigit() and (w if mover == "white" else b))
        before = pi.ctl(lambda c: c.status().match.partial.id)
        phone.page.mouse.click(*phone.checker(cell, mover))
        assert "moved by hand" in phone.wait_notice("by hand")
        assert pi.ctl(lambda c: c.status().match.partial.id) == before
        pi.play_a_step()  # by hand on the board: the phone draws the sensors' reading
        wait_until(lambda: phone.state()["board"] == pi.call(lambda: {c: list(pi.vb.counts(c)) for c in board}), 10,
                   "the phone drawing the board as read")
        assert pi.player is not None
        pi.call(pi.player.rotate)  # revoked: the paired cookie opens nothing any more
        status = phone.page.evaluate("async () => (await fetch('/match.mat')).status")
        assert status == 403
        # issue 35.5: the phone is told its link was replaced and what to do, and stops retrying
        banner = phone.page.locator("#stopped-banner")
        wait_until(lambda: "scan the board's display again" in (banner.text_content() or ""), 10,
                   "the phone told its link was replaced")
        assert banner.is_visible() and "reconnecting" not in (phone.page.locator("#status").text_content() or "")
        refused = phone.page.evaluate("async () => { const r = await fetch('/'); return [r.status, await r.text()]; }")
        assert refused[0] == 403 and "this link was replaced" in refused[1]  # a reload says so too
        assert "this link was replaced" in _status(url)[1]  # and the old link itself
        assert phone.errors == [], phone.errors
        phone.close()


def _press(pi: PiThread, key: str) -> None:
    """A tap of the board's button `key` (gpiozero's mock pins), seen by the menu."""
    before = pi.ctl(lambda c: c.status().menu)
    pi.press(key)
    wait_until(lambda: pi.ctl(lambda c: c.status().menu) != before, 10, f"the menu moved by {key}")


def _choose(pi: PiThread, item: str) -> None:
    """Open the menu, step to `item` with the menu button, choose it with White's main."""
    _press(pi, "menu")
    for _ in pi.ctl(lambda c: c.status().menu.items):
        if pi.ctl(lambda c: c.status().menu.item) == item:
            break
        _press(pi, "menu")
    assert pi.ctl(lambda c: c.status().menu.item) == item
    _press(pi, "white_main")


def _scanned(pi: PiThread) -> str:
    """The link a phone's camera reads off the display's frame (ZBar)."""
    from tests.test_page_links import read_png

    read = read_png(pi.call(lambda: pi.table.display.frame_png()))  # type: ignore[union-attr]
    assert len(read) == 1, read
    return read[0]


def test_a_phone_pairs_by_the_displays_qr_code_and_the_menu_revokes_it(browser: Any, tmp_path: Path) -> None:
    """The menu's "phone page" shows the link as a QR code (read back off the display's
    frame, as a camera does) that pairs Chromium; "spectators' page" shows the spectators'
    own, which a spectator's copy of the display never carries; "new page links" closes
    both tabs at once, refuses their cookies, and the display's new code pairs again."""
    with PiThread(tmp_path) as pi:
        _choose(pi, "phone_link")
        phone_url = _scanned(pi)
        assert phone_url == pi.page_urls[-1]
        phone = Page(browser, phone_url, **PHONE)
        assert phone.state()["spectator"] is False
        _press(pi, "black_cube")  # any button closes it
        assert pi.ctl(lambda c: c.status().scene.display.pairing) is None
        _choose(pi, "spectators_link")
        watcher_url = _scanned(pi)
        assert watcher_url == pi.urls[-1] and watcher_url != phone_url
        watcher = Page(browser, watcher_url, **PHONE)
        assert watcher.state()["spectator"] is True
        shown = watcher.page.evaluate("async () => Array.from(new Uint8Array(await (await fetch('/display.png')).arrayBuffer()))")
        from tests.test_page_links import read_png
        assert read_png(bytes(shown)) == []  # the link is the owner's, never on a spectator's screen
        _press(pi, "menu")
        _choose(pi, "new_links")
        for tab in (phone, watcher):  # closed at once (1008: policy), their cookies refused
            wait_until(lambda: 1008 in tab.page.evaluate("window.bgboard.closed"), 10, "the tab closed")
            assert tab.page.evaluate("async () => (await fetch('/match.mat')).status") == 403
        _choose(pi, "phone_link")
        again = _scanned(pi)
        assert again != phone_url and again == pi.page_urls[-1]
        paired = Page(browser, again, **PHONE)
        assert paired.state()["spectator"] is False
        assert phone.errors == [] and watcher.errors == [] and paired.errors == []
        for tab in (phone, watcher, paired):
            tab.close()

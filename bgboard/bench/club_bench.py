"""`bgboard bench` section `club`: the club room's page in Chromium following the boards.

Issue 36's goals: the room's page follows a move within 1 s, and one hub carries 32 boards.
The hub's room server and live relay run here as `bgboard club serve` runs them, in a thread
of their own; the boards are in-process stand-ins for a board's `/club/v1/live` socket (its
`BoardClient.live`), each sending a spectators'-style snapshot whose last move changes, so
the figures are the hub's and the page's share, not a board's or the network's; the names
say so (`fake_boards`). 32 virtual boards (`sim.club_boards`) do not fit this 2-core machine
beside the page (two do, in figures named `virtual_boards`).

Figures:
- `virtual_boards_2_move_to_room_ms`: two virtual boards of `sim.club_boards` (headless
  tables, computer hands) play the club Swiss of 7-point matches the hub assigned them; each
  move's time from leaving the board's own live socket (a watch of the bench's own beside the
  hub's) to its last move written on the room's page (median, p95, count; the goal beside);
- `fake_boards_N_snapshot_to_room_ms`: a board's snapshot handed to the relay -> its last
  move written on the room's page in Chromium (median, p95, count; the goal beside);
- `fake_boards_32_hub_cpu_percent`: the hub thread's CPU time over the wall time while 32
  boards each change once a second and the page follows; its Pi 4 estimate by the pi
  section's n-body factor (measured in the same run);
- `fake_boards_32_rss_growth_mb`: this process's resident memory gained from before the
  hub started to the end (the hub's state, relay and sockets, and Playwright's client).

Needs Playwright and Debian's Chromium, as the page section does; without them it says so.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING

from controller.json_value import JsonObject

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from club.room.server import RoomServer
    from club.hub.hub import Hub
    from club.state.model import Board, ClubState

NAME = "club"
GOAL_MS = 1000.0

#: The page's own record of when each last move first appeared on it (wall clock, ms).
SEEN_PROBE = """() => {
  window.__seen = {};
  const look = () => {
    for (const line of document.querySelectorAll('#boards section.board .line')) {
      const text = line.textContent;
      if (text !== 'last move: ' && !(text in window.__seen)) window.__seen[text] = Date.now();
    }
  };
  new MutationObserver(look).observe(document.getElementById('boards'), { childList: true, subtree: true, characterData: true });
}"""


class FakeLiveBoard:
    """A board's live socket as the relay reads it: a snapshot whenever one is put."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[JsonObject] = asyncio.Queue()

    async def live(self) -> AsyncIterator[JsonObject]:
        while True:
            yield await self.queue.get()


def snapshot(move: str) -> JsonObject:
    """About the size of a board's spectators' snapshot: 26 points, score, cube, clock, move."""
    board: JsonObject = {str(cell): [cell % 3, (cell + 1) % 3] for cell in range(26)}
    return {"board": board, "hand": [], "match": {"length": 3, "score": {"white": 1, "black": 0}, "cube": 2,
                                                  "cube_enabled": True, "crawford": False},
            "clock": {"white_s": 412, "black_s": 388}, "names": {"white": "Anna", "black": "Bjørn"}, "last_move": move}


def club_night(root: Path, boards: int) -> "ClubState":
    from club.state import night, store
    from club.state.model import Board
    from club.tournament.model import RoundRules

    state = store.create(root, "Bench club")
    for i in range(2 * boards):
        state = night.add_player(state, f"Player {i + 1}")
    for i in range(boards):
        state = night.add_board(state, Board(f"b-{i + 1}", f"Table {i + 1}", f"http://10.0.0.{i + 1}:8080", "k" * 32))
    state = night.start(state, "swiss", (RoundRules(3),), 3, seed=1)
    for board_id, pairing in zip((b.board_id for b in state.boards), state.tournaments[0].rounds[0].pairings):
        state = night.assign(state, pairing.match_id, board_id)
    return state


class RoomThread:
    """The room server and relay on an event loop of their own thread, as `bgboard club serve`."""

    def __init__(self, state: "ClubState", *, current: Callable[[], "ClubState"] | None = None,
                 clients: Callable[["Board"], object] | None = None,
                 background: Callable[["RoomServer"], Coroutine[object, object, None]] | None = None) -> None:
        self.state = state
        self.current = current or (lambda: self.state)
        self.clients = clients or (lambda board: self._fake())
        self.background = background
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="club-hub", daemon=True)
        self.boards: list[FakeLiveBoard] = []
        self._job: asyncio.Future[None] | None = None

    def __enter__(self) -> "RoomThread":
        self.thread.start()
        self.url = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(30)
        return self

    async def _start(self) -> str:
        from aiohttp import web

        from club.room.live import LiveRelay
        from club.room.server import RoomServer, room_guard

        self.relay = LiveRelay()
        room: RoomServer = RoomServer(lambda: self.current(), self.relay, room_guard("127.0.0.1", 0))
        self.room = room
        self.runner = web.AppRunner(room.app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()
        port = self.runner.addresses[0][1]
        room.guard = room_guard("127.0.0.1", port)
        for board in self.current().boards:
            self.relay.follow(board, self.clients(board))  # type: ignore[arg-type]  # its live socket
        if self.background is not None:
            self._job = asyncio.ensure_future(self.background(room))
        return f"http://127.0.0.1:{port}/"

    def _fake(self) -> FakeLiveBoard:
        fake = FakeLiveBoard()
        self.boards.append(fake)
        return fake

    def push(self, index: int, move: str) -> float:
        """Hand board `index` a snapshot with `move`; when it was handed (wall clock, ms)."""
        changed = snapshot(move)
        sent = time.time() * 1000
        self.loop.call_soon_threadsafe(self.boards[index].queue.put_nowait, changed)
        return sent

    def cpu_s(self) -> float:
        assert self.thread.ident is not None
        return time.clock_gettime(time.pthread_getcpuclockid(self.thread.ident))

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            if self._job is not None:
                self._job.cancel()
                await asyncio.gather(self._job, return_exceptions=True)
            await self.relay.stop()
            await self.runner.cleanup()
        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    import os
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def _round(hub: RoomThread, page: "Page", tag: str, pushes: int, per_s: float) -> list[float]:
    """`pushes` moves, spread over the boards in turn at `per_s` a second; each one's delay
    from the relay to the page (moves the page never showed within 10 s are left out)."""
    sent: dict[str, float] = {}
    for n in range(pushes):
        move = f"m{tag}-{n}: 31: 8/5 6/5"
        sent[f"last move: {move}"] = hub.push(n % len(hub.boards), move)
        time.sleep(1.0 / per_s)  # the boards' pace, not a wait for the page
    page.wait_for_function("(n) => Object.keys(window.__seen).length >= n", arg=len(sent), timeout=10_000)
    seen: dict[str, float] = page.evaluate("window.__seen")
    return [seen[text] - t for text, t in sent.items() if text in seen]


def _figures(name: str, samples: list[float]) -> dict[str, object]:
    ordered = sorted(samples)
    return {f"{name}_median_ms": round(statistics.median(ordered), 1),
            f"{name}_p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            f"{name}_count": len(ordered), f"{name}_goal_ms": GOAL_MS}


def _measure(browser: "Browser", boards: int, seconds: float, root: Path) -> tuple[list[float], float, float]:
    """(delays, hub CPU percent, RSS growth MB) of `boards` boards, each changing once a second."""
    before = _rss_mb()
    with RoomThread(club_night(root, boards)) as hub:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(hub.url)
        page.wait_for_function(f"document.querySelectorAll('#boards section.board').length === {boards}")
        page.evaluate(SEEN_PROBE)
        cpu0, wall0 = hub.cpu_s(), time.monotonic()
        delays = _round(hub, page, str(boards), int(boards * seconds), float(boards))
        cpu = (hub.cpu_s() - cpu0) / (time.monotonic() - wall0) * 100
        page.close()
        grown = _rss_mb() - before
    return delays, cpu, grown


async def _watch(hub: "Hub", board: "Board", first_seen: dict[str, float]) -> None:
    """When each last move first came out of `board`'s own live socket (wall clock, ms)."""
    from club.hub.client import BoardProblem, BoardUnreachable

    while True:
        try:
            async for live in hub.client(board).live():
                move = live.get("last_move")
                if isinstance(move, str) and move:
                    first_seen.setdefault(f"last move: {move}", time.time() * 1000)
        except (BoardUnreachable, BoardProblem):
            await asyncio.sleep(0.2)


async def _direct(hub: "Hub", room: "RoomServer", first_seen: dict[str, float]) -> None:
    """The hub's job as `bgboard club serve` runs it, and a watch on every board's own socket."""
    watches = [asyncio.ensure_future(_watch(hub, board, first_seen)) for board in hub.state.boards]
    try:
        while True:
            before = hub.state
            await hub.step()
            if hub.state is not before:
                room.changed()
            await asyncio.sleep(0.5)
    finally:
        for watch in watches:
            watch.cancel()
        await asyncio.gather(*watches, return_exceptions=True)


def _measure_virtual(browser: "Browser", count: int, seconds: float, root: Path) -> list[float]:
    """Delays from a move leaving a virtual board's live socket to the room page showing it,
    while the boards play a club Swiss of 7-point matches assigned by the hub."""
    from club.hub.hub import Hub
    from club.hub.http_client import HttpBoardClient
    from club.state import night, store
    from club.tournament.model import RoundRules

    from sim.club_room_process import club_room

    with club_room(root, count) as lines:
        state = store.create(root / "club", "Bench club")
        for i in range(2 * count):
            state = night.add_player(state, f"Player {i + 1}")
        store.save(root / "club", state)
        hub = Hub(root / "club", HttpBoardClient)
        with ThreadPoolExecutor(1) as pairing:  # Playwright's own loop runs on this thread
            for line in lines:
                pairing.submit(asyncio.run, hub.pair(line["url"], None)).result(60)
        hub.commit(night.start(hub.state, "swiss", (RoundRules(7),), 3, seed=36))
        first_seen: dict[str, float] = {}
        with RoomThread(hub.state, current=lambda: hub.state, clients=hub.client,
                        background=lambda room: _direct(hub, room, first_seen)) as thread:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(thread.url)
            page.wait_for_function(f"document.querySelectorAll('#boards section.board').length === {count}")
            page.evaluate(SEEN_PROBE)
            time.sleep(seconds)  # the boards play on: the page's own clock times what it shows
            seen: dict[str, float] = page.evaluate("window.__seen")
            page.close()
        sent = dict(first_seen)
        return [seen[text] - t for text, t in sent.items() if text in seen and seen[text] >= t - 50]


def run(quick: bool) -> dict[str, object]:
    from bgboard.bench.page_bench import _chromium
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"club": "unavailable (needs Playwright: pip install 'bgboard[test]')"}
    chromium = _chromium()
    if chromium is None:
        return {"club": "unavailable (needs Debian's chromium: apt-get install chromium)"}
    from bgboard.bench.pi_bench import pi4_factor
    from sim.page.page_spy import CHROMIUM_ARGS

    seconds = 2.0 if quick else 15.0
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            (Path(tmp) / "8").mkdir()
            (Path(tmp) / "32").mkdir()
            eight, _cpu8, _rss8 = _measure(browser, 8, seconds, Path(tmp) / "8")
            many, cpu, grown = _measure(browser, 32, seconds, Path(tmp) / "32")
            (Path(tmp) / "virtual").mkdir()
            played = _measure_virtual(browser, 2, 20.0 if quick else 90.0, Path(tmp) / "virtual")
        finally:
            browser.close()
    factor, _here = pi4_factor(20_000 if quick else 100_000)
    figures: dict[str, object] = {}
    if played:
        figures.update(_figures("virtual_boards_2_move_to_room", played))
    else:
        figures["virtual_boards_2_move_to_room_count"] = 0
    figures.update(_figures("fake_boards_8_snapshot_to_room", eight))
    figures.update(_figures("fake_boards_32_snapshot_to_room", many))
    figures["fake_boards_32_changes_per_s"] = 32
    figures["fake_boards_32_hub_cpu_percent"] = round(cpu, 1)
    figures["fake_boards_32_hub_cpu_percent_pi4_estimate"] = round(cpu * factor, 1)
    figures["pi4_factor"] = round(factor, 2)
    figures["fake_boards_32_rss_growth_mb"] = round(grown, 1)
    return figures

"""`bgboard bench` section `page`: how quickly the simulator page answers a hand, in Chromium.

Issue 13's goals are a checker lifted on the page within 50 ms of the click and the targets
lit within 100 ms, and every change of the controller on the page within 100 ms. They are
figures of this machine, so they are measured here, not asserted by the tests (which check
that the page lifts before the server answers and that it follows the controller).

Figures (milliseconds, median and largest of the samples):
- `click_to_lifted`: pointer up on a checker -> the checker drawn in the hand (the page's own);
- `click_to_targets`: pointer up -> the controller's targets lit on the page (a round trip,
  with the default profile's settling time, which the targets must not wait for);
- `button_to_page`: the menu button clicked on the page -> the display's new frame on it
  (`button_taps_unanswered`: taps whose frame did not come within 10 s, left out);
- `controller_to_page`: the controller's display changed -> that frame announced on the page.

It needs Playwright and Debian's Chromium (the `test` extra, `apt-get install chromium`);
without them the section says so and measures nothing.
"""
from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from controller.events import RollQueued

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from sim.page.harness import ServerThread
    from sim.page.live import LiveSim
    from controller.play.status import TableStatus

NAME = "page"

#: Armed before a click: when the hand and the targets appear after the pointer goes up.
LIFT_PROBE = """() => {
  const svg = document.getElementById('board');
  const t = {};
  window.__lift = new Promise((resolve) => {
    svg.addEventListener('pointerup', () => { t.up = performance.now(); }, { capture: true, once: true });
    const seen = () => {
      if (t.up === undefined) return;
      if (t.lifted === undefined && document.querySelector('#hand circle')) t.lifted = performance.now() - t.up;
      if (t.targets === undefined && document.querySelector('#leds circle[data-role="target"]')) t.targets = performance.now() - t.up;
      if (t.lifted !== undefined && t.targets !== undefined) { obs.disconnect(); resolve(t); }
    };
    const obs = new MutationObserver(seen);
    obs.observe(svg, { childList: true, subtree: true, attributes: true });
    setTimeout(() => { obs.disconnect(); resolve(t); }, 10000);
  });
}"""


#: When the spy saw the first snapshot with display version `v` (wall clock, ms).
ARRIVED = "(v) => window.bgboard.log.find((e) => e.version === v)?.t"


def _chromium() -> str | None:
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def _within(check: Callable[[], object], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def _until(check: Callable[[], object], seconds: float = 30.0) -> None:
    if not _within(check, seconds):
        raise RuntimeError("the simulator did not get there in time")


def _status(live: "LiveSim") -> "TableStatus":
    assert live.table is not None, "the simulator has no table"
    return live.table.controller.status()


def _queue_roll(live: "LiveSim", dice: tuple[int, int]) -> None:
    assert live.table is not None, "the simulator has no table"
    live.table.dispatch(RollQueued(dice, live.table.clock()))


def _centre(page: "Page", selector: str) -> tuple[float, float]:
    box = page.locator(selector).last.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _lifts(page: "Page", server: "ServerThread", n: int) -> tuple[list[float], list[float]]:
    lifted: list[float] = []
    targets: list[float] = []
    checker = '#checkers [data-cell="13"][data-colour="white"]'
    for _ in range(n):
        page.evaluate(LIFT_PROBE)
        page.mouse.click(*_centre(page, checker))
        got = page.evaluate("window.__lift")
        lifted.append(got["lifted"])
        targets.append(got["targets"])
        page.wait_for_timeout(450)  # not a double-click: the next click puts it back
        page.mouse.click(*_centre(page, '#hits rect[data-cell="13"]'))
        _until(lambda: server.inspect(lambda live: not live.hand))
        page.wait_for_function("!document.querySelector('#leds circle[data-role=\"target\"]')")
    return lifted, targets


def _buttons(page: "Page", server: "ServerThread", n: int) -> tuple[list[float], list[float], int]:
    """Taps of the board's menu button: each gives a new display frame. Also how many taps
    the display did not answer within 10 s."""
    clicks: list[float] = []
    changes: list[tuple[float, str]] = []

    def hook(live: "LiveSim") -> None:
        def changed() -> None:
            version = live.display_version()
            if not changes or changes[-1][1] != version:
                changes.append((time.time() * 1000, version))
        live.subscribe(changed)
    server.inspect(hook)
    unanswered = 0
    for _ in range(n):
        # the menu button opens the menu, then steps through its items: a new frame each time
        before = server.inspect(lambda live: live.display_version())
        t0 = page.evaluate("""() => { const t = Date.now();
            document.querySelector('button.hw[data-button="menu"]').click(); return t; }""")
        if not _within(lambda: server.inspect(lambda live: live.display_version()) != before, 10.0):
            unanswered += 1  # counted, not hidden: a tap the table did not show
            continue
        after = server.inspect(lambda live: live.display_version())
        arrived = page.wait_for_function(ARRIVED, arg=after).json_value()
        clicks.append(arrived - t0)
    seen: dict[str, float] = {}
    for entry in page.evaluate("window.bgboard.log"):
        seen.setdefault(entry["version"], entry["t"])
    lags = [seen[v] - t for t, v in changes if v in seen]
    return clicks, lags, unanswered


def _figures(name: str, samples: list[float]) -> dict[str, object]:
    return {f"{name}_median_ms": round(statistics.median(samples), 1), f"{name}_max_ms": round(max(samples), 1),
            f"{name}_samples": len(samples)}


def run(quick: bool) -> dict[str, object]:
    chromium = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"page": "unavailable (needs Playwright: pip install 'bgboard[test]')"}
    if chromium is None:
        return {"page": "unavailable (needs Debian's chromium: apt-get install chromium)"}
    from sim.page.harness import ServerThread
    from sim.page.page_spy import CHROMIUM_ARGS, PAGE_SPY

    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        root = Path(tmp)
        (root / "state").mkdir()
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            with ServerThread(state_dir=root / "state", settings_file=root / "settings.json", seed=3) as server:
                _until(lambda: server.inspect(lambda live: _status(live).online and not _status(live).setting_up))
                page = browser.new_page(viewport={"width": 1320, "height": 980})
                page.add_init_script(PAGE_SPY)
                page.goto(server.url)
                page.wait_for_function("document.querySelector('button.hw[data-button=\"white_main\"]')")
                server.inspect(lambda live: _queue_roll(live, (5, 2)))
                page.click('button.hw[data-button="white_main"]')  # the opening roll, 5-2 to White
                _until(lambda: server.inspect(lambda live: _status(live).match.phase == "move"))
                lifted, targets = _lifts(page, server, 3 if quick else 10)
                clicks, lags, unanswered = _buttons(page, server, 4 if quick else 20)
                page.close()
        finally:
            browser.close()
    figures.update(_figures("click_to_lifted", lifted))
    figures.update(_figures("click_to_targets", targets))
    figures.update(_figures("button_to_page", clicks))
    figures["button_taps_unanswered"] = unanswered
    figures.update(_figures("controller_to_page", lags))
    return figures

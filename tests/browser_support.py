"""What the simulator tests share: where Debian's Chromium is and how it is started, a tab
on the page (`Page`, with the test's own WebSocket spy) and the hand's gestures through it,
and waiting on the controller behind the simulator (the fixtures are in conftest.py)."""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sim.page.harness import ServerThread
from sim.page.page_spy import CHROMIUM_ARGS, PAGE_SPY
from controller.events import RollQueued

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parent / "output"
ARGS = CHROMIUM_ARGS

needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not shutil.which("chromium"),
                                    reason="Debian's chromium is not installed (apt-get install chromium)")


#: The tab's spy (`window.bgboard`): the last snapshot, when each arrived, notices, what it sent.
SPY = PAGE_SPY


def ctl(sim: ServerThread, fn: Callable[[Any], Any]) -> Any:
    """`fn(controller)` on the simulator's loop."""
    return sim.inspect(lambda live: fn(live.table.controller))  # type: ignore[union-attr]


def queue_roll(live: Any, dice: tuple[int, int]) -> None:
    """The next roll of the simulator's table is `dice` (as a script's `dice` line queues it)."""
    table = live.table
    table.dispatch(RollQueued(dice, table.clock()))


#: The least any wait here allows. A wait's timeout is a fail-safe, never a figure (speed is
#: `bgboard bench`'s): a loaded 2-core machine running CI may take seconds for what takes
#: milliseconds when it is quiet, and a passing test waits only as long as it needs.
LEAST_WAIT_S = 20.0


def wait_until(cond: Callable[[], Any], timeout: float = LEAST_WAIT_S, what: str = "condition") -> Any:
    """`cond()` once it is true; an AssertionError naming `what` if it is not within
    `timeout` seconds (at least `LEAST_WAIT_S`)."""
    timeout = max(timeout, LEAST_WAIT_S)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.015)
    raise AssertionError(f"{what} not reached within {timeout} s")


class Page:
    """One tab on the simulator, with the notices it logged."""

    def __init__(self, browser: Any, url: str, width: int = 1320, height: int = 980) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.add_init_script(SPY)
        self.page.goto(url)
        self.page.wait_for_function("window.bgboard && window.bgboard.state !== null")

    @property
    def notices(self) -> list[str]:
        """The notices the server sent this tab, in order."""
        return self.page.evaluate("window.bgboard.notices")  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        return self.page.evaluate("window.bgboard.state")  # type: ignore[no-any-return]

    def box_centre(self, selector: str, index: int = -1) -> tuple[float, float]:
        """The centre of the element; the page redraws its checkers on every snapshot, so
        an element counted may be replaced, or be gone (one checker fewer on the point),
        before it is measured: count and measure again then."""
        from playwright.sync_api import TimeoutError as NotThere

        end = time.monotonic() + 30.0  # as long as Playwright's own wait for one element
        while True:
            found = self.page.locator(selector)
            n = found.count()
            assert n > 0, f"nothing on the page matches {selector}"
            try:  # without a timeout a checker counted and then moved away was awaited 30 s
                box = found.nth(index if index >= 0 else n - 1).bounding_box(timeout=500)
            except NotThere:
                box = None
            if box is not None:
                return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            assert time.monotonic() < end, f"{selector} never stayed on the page to be measured"

    def checker(self, cell: str, colour: str) -> tuple[float, float]:
        """The top checker of `colour` on `cell` (the one a hand would take)."""
        return self.box_centre(f'#checkers [data-cell="{cell}"][data-colour="{colour}"]')

    def cell(self, cell: str) -> tuple[float, float]:
        return self.box_centre(f'#hits rect[data-cell="{cell}"]')

    def click_button(self, name: str) -> None:
        self.page.click(f'button.hw[data-button="{name}"]')

    def wait_notice(self, words: str, timeout: float = LEAST_WAIT_S) -> str:
        end = time.monotonic() + max(timeout, LEAST_WAIT_S)
        while time.monotonic() < end:
            for text in self.notices:
                if words in text:
                    return text
            self.page.wait_for_timeout(20)
        raise AssertionError(f"no notice with {words!r}; got {self.notices}")

    def close(self) -> None:
        self.page.close()


def progress_key(sim: ServerThread) -> tuple[Any, ...]:
    return ctl(sim, lambda c: (c.status().match.match_id, c.status().match.partial.id, c.status().match.phase, len(c.status().match.steps)))


def lift_by_click(page: Page, cell: str, colour: str) -> None:
    page.page.mouse.click(*page.checker(cell, colour))
    page.page.wait_for_function("(window.bgboard.state.hand ?? []).length > 0")


def place_by_click(page: Page, cell: str) -> None:
    page.page.mouse.click(*page.cell(cell))
    page.page.wait_for_function("(window.bgboard.state.hand ?? []).length === 0")


def drag(page: Page, frm: tuple[float, float], to: tuple[float, float]) -> None:
    mouse = page.page.mouse
    mouse.move(*frm)
    mouse.down()
    mouse.move(frm[0] + (to[0] - frm[0]) / 3, frm[1] + (to[1] - frm[1]) / 3, steps=3)
    mouse.move(*to, steps=3)
    mouse.up()


def roll(page: Page, sim: ServerThread) -> None:
    side = ctl(sim, lambda c: c.status().match.turn or "white")
    before = progress_key(sim)
    page.click_button(f"{side}_main")
    try:
        wait_until(lambda: progress_key(sim) != before, 5, "a roll")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; notices {page.notices[-3:]}") from None

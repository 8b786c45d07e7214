"""What the simulator tests share: where Debian's Chromium is and how it is started, and
waiting on the controller behind the simulator (the fixtures are in conftest.py)."""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sim.web.harness import ServerThread

CHROMIUM = "/usr/bin/chromium"
OUTPUT = Path(__file__).resolve().parent / "output"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not shutil.which("chromium"),
                                    reason="Debian's chromium is not installed (apt-get install chromium)")


#: Put into each test's page before the page's own scripts (Playwright `add_init_script`):
#: it watches the page's WebSocket and keeps `window.bgboard` for the tests: the last
#: snapshot, when each snapshot arrived (wall clock, ms) with the match it showed, the
#: notices (English text, as the server logs them), every message the page sent, and the
#: page's language. The production page has no such hook.
SPY = """(() => {
  const spy = { state: null, updates: 0, log: [], sent: [], notices: [], get language() { return document.documentElement.lang; } };
  window.bgboard = spy;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        let msg; try { msg = JSON.parse(ev.data); } catch { return; }
        if (msg.type === "notice") { spy.notices.push(msg.text); return; }
        if (msg.type !== "state") return;
        spy.state = msg; spy.updates++;
        const m = msg.match ?? {};
        spy.log.push({ t: Date.now(), match_id: m.match_id, position_id: m.position_id, hand: (msg.hand ?? []).length });
        if (spy.log.length > 5000) spy.log.splice(0, 1000);
      });
    }
    send(data) {
      try { spy.sent.push(JSON.parse(data)); } catch { spy.sent.push(data); }
      if (spy.sent.length > 500) spy.sent.splice(0, 100);
      super.send(data);
    }
  };
})();"""


def ctl(sim: ServerThread, fn: Callable[[Any], Any]) -> Any:
    """`fn(controller)` on the simulator's loop."""
    return sim.inspect(lambda live: fn(live.table.controller))  # type: ignore[union-attr]


def wait_until(cond: Callable[[], Any], timeout: float = 8.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.015)
    raise AssertionError(f"{what} not reached within {timeout} s")

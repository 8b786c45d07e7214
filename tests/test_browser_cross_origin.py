"""A page of another origin, in Chromium, trying to drive the simulator: its WebSocket is
refused at the handshake and nothing changes; the simulator's own page still connects."""
from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import ctl, needs_chromium
from sim.page.harness import ServerThread

pytestmark = [needs_chromium, pytest.mark.timeout(120)]

EVIL = """<!doctype html><title>evil</title><script>
window.result = "pending";
const ws = new WebSocket("ws://127.0.0.1:PORT/ws");
ws.onopen = () => { window.result = "open";
  ws.send(JSON.stringify({type: "new_match", settings: {length: 1}}));
  ws.send(JSON.stringify({type: "button", name: "white_main"})); };
ws.onerror = () => { if (window.result === "pending") window.result = "refused"; };
ws.onclose = () => { if (window.result === "pending") window.result = "refused"; };
</script>"""


@pytest.fixture()
def evil_site(tmp_path: Path, sim: ServerThread) -> Iterator[str]:
    """A web site on another port of loopback (another origin) serving the page above."""
    root = tmp_path / "evil"
    root.mkdir()
    port = sim.url.rsplit(":", 1)[1].strip("/")
    (root / "index.html").write_text(EVIL.replace("PORT", port))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_of_another_origin_cannot_open_the_websocket(browser: Any, sim: ServerThread,
                                                             evil_site: str) -> None:
    before = ctl(sim, lambda c: (c.status().match, c.status().setting_up))
    tab = browser.new_page()
    try:
        tab.goto(evil_site)
        tab.wait_for_function("window.result !== 'pending'", timeout=10_000)
        assert tab.evaluate("window.result") == "refused"
        own = tab.evaluate(f"""() => new Promise((done) => {{
            const ws = new WebSocket("{sim.url.replace('http', 'ws')}ws");
            ws.onopen = () => done("open"); ws.onerror = () => done("refused"); }})""")
        assert own == "refused"  # still this page's origin, whatever it asks for
    finally:
        tab.close()
    assert ctl(sim, lambda c: (c.status().match, c.status().setting_up)) == before
    own_tab = browser.new_page()
    try:
        own_tab.goto(sim.url)
        own_tab.wait_for_function("document.getElementById('prompt').textContent.length > 0", timeout=10_000)
    finally:
        own_tab.close()

"""What the tests and `bgboard bench --only page` need to drive the simulator page in
Chromium: the browser's flags, and the spy they put into a tab before the page's own
scripts (Playwright's `add_init_script`). The production page has no such hook, and
nothing here is ever served.
"""
from __future__ import annotations

#: Chromium's flags for a headless run on a machine without a GPU or a desktop session.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

#: It watches the page's WebSocket and keeps `window.bgboard` for the tests: the last
#: snapshot, when each snapshot arrived (wall clock, ms) with the match it showed, the
#: notices (English text, as the server logs them), every message the page sent, the close
#: codes of its sockets, and the page's language. The production page has no such hook.
PAGE_SPY = """(() => {
  const spy = { state: null, updates: 0, log: [], sent: [], notices: [], closed: [], get language() { return document.documentElement.lang; } };
  window.bgboard = spy;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("close", (ev) => spy.closed.push(ev.code));
      this.addEventListener("message", (ev) => {
        let msg; try { msg = JSON.parse(ev.data); } catch { return; }
        if (msg.type === "notice") { spy.notices.push(msg.text); return; }
        if (msg.type !== "state") return;
        spy.state = msg; spy.updates++;
        const m = msg.match ?? {};
        spy.log.push({ t: Date.now(), match_id: m.match_id, position_id: m.position_id, hand: (msg.hand ?? []).length,
                       version: msg.display?.version });
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

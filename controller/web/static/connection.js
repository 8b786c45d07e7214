// The page's one WebSocket to the simulator: snapshots and notices in, actions out, and a
// reconnect every second while the simulator is stopped (a restarted server resumes); a page
// the server refuses (its link replaced) says why and stops trying.

//: the close code of a tab whose link was replaced ("New page links": controller/web/page_links.py)
export const LINK_REPLACED = 1008;
//: the server's refusal of a replaced link or cookie (controller/web/guard.py REPLACED)
export const REPLACED = "refused: this link was replaced (New page links): scan the board's display again";

export class Connection {
  /**
   * @param {string} url  the ws:// address of /ws
   * @param {{state: (msg: object) => void, notice: (msg: {text: string, key?: string, params?: object}) => void,
   *          up: (open: boolean) => void, shut: (why: string) => void}} on  what to call on each
   *          message, on open/close, and when the server refuses this page for good
   */
  constructor(url, on) {
    this.url = url;
    this.on = on;
    this.ws = null;
  }

  open() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.on.up(true);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") this.on.state(msg);
      else if (msg.type === "notice") this.on.notice(msg);
    };
    ws.onclose = (ev) => {
      this.on.up(false);
      if (ev.code === LINK_REPLACED) {
        this.on.shut(REPLACED);  // "New page links": this tab's link opens nothing any more
        return;
      }
      this.retry();
    };
  }

  /** Try again in a second, unless the server refuses this page: a refused handshake looks
   *  like a stopped server to the page, so the page's own address is asked why (a 403 says
   *  it in one line: a replaced link, a missing token), and then nothing is tried again. */
  retry() {
    const again = () => setTimeout(() => this.open(), 1000);
    fetch(location.pathname, { cache: "no-store" }).then(async (answer) => {
      if (answer.status === 403) this.on.shut((await answer.text()).trim());
      else again();
    }, again);
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send one action; false when the simulator cannot hear it (stopped, reconnecting). */
  send(msg) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}

/** The /ws address of the server that served this page. */
export function socketUrl(location) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

// The page's one WebSocket to the simulator: snapshots and notices in, actions out, and a
// reconnect every second while the simulator is stopped (a restarted server resumes).

export class Connection {
  /**
   * @param {string} url  the ws:// address of /ws
   * @param {{state: (msg: object) => void, notice: (msg: {text: string, key?: string, params?: object}) => void,
   *          up: (open: boolean) => void}} on  what to call on each message and on open/close
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
    ws.onclose = () => {
      this.on.up(false);
      setTimeout(() => this.open(), 1000);
    };
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

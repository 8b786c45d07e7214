// One view per panel beside the board. Each `render(state, lang)` draws its panel from the
// snapshot alone and skips the work when what it shows did not change; none decides what
// the rules allow (the snapshot says what is possible now).

import { actionCaption, hintText, noticeText, sideName, t } from "./i18n.js";
import { REPLACED } from "./connection.js";

const $ = (id) => document.getElementById(id);
const set = (id, text) => { const node = $(id); if (node.textContent !== text) node.textContent = text; };

/** A button with `text`, data-* attributes and what a click does. */
function button(text, data, onclick) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text; b.onclick = onclick;
  Object.assign(b.dataset, data);
  return b;
}

/** Skip a render whose input is the same as last time. */
class Keyed {
  constructor() { this.key = null; }
  changed(...parts) {
    const key = JSON.stringify(parts);
    if (key === this.key) return false;
    this.key = key;
    return true;
  }
}

/** "board online" in the header, and a banner over everything while the simulator is stopped,
 *  or for good when the server refuses this page (`shut`: its link replaced, in the page's language). */
export class StatusView {
  render(online, connected, lang, shut = null) {
    const status = $("status");
    const key = connected ? (online ? "status.online" : "status.offline") : "status.stopped";
    const why = shut === null ? null : shut === REPLACED ? t(lang, "status.replaced") : shut;
    status.textContent = why ?? t(lang, key);
    status.className = "status " + (connected && online ? "online" : "offline");
    const banner = $("stopped-banner");
    banner.hidden = connected && why === null;
    banner.textContent = why ?? t(lang, "status.stopped");
  }
}

/** The display's prompt, the hint for a newcomer and the announcement of the moment. */
export class PromptView {
  constructor() { this.keyed = new Keyed(); }
  render(state, lang) {
    if (!this.keyed.changed(state.prompt, state.hint, state.announcement, state.board_page, lang)) return;
    set("prompt", state.prompt ?? "");
    set("hint", hintText(lang, state.hint, Boolean(state.board_page)));
    const said = state.announcement ?? [];
    const box = $("announcement");
    box.hidden = said.length === 0;
    box.replaceChildren(...said.map((a) => {
      const p = document.createElement("p");
      p.textContent = a.text; p.dataset.key = a.key;
      return p;
    }));
  }
}

/** Score (with the winner once there is one), players, pips, cube, dice, turn, ids. */
export class FactsView {
  constructor() { this.keyed = new Keyed(); }
  render(state, lang) {
    const m = state.match ?? {};
    const o = state.online_play ?? {};
    const watched = o.spectator ? [o.me, o.opponent] : null;  // a watched match: its players by name, White first
    const spectator = Boolean(state.spectator);
    // the pips as the board stands, a move the tutor holds included (as the display and the
    // board's own figures count them: issue 35.11, the facts lagged by the held move)
    const pips = state.pips_view ?? m.pips;
    const practice = state.review?.practice ?? null;  // one person plays both sides (issue 35.15)
    if (!this.keyed.changed(m, state.winner, state.players, state.xgid, watched, spectator, pips, practice, lang)) return;
    const names = { white: sideName(lang, "white"), black: sideName(lang, "black") };
    set("players", watched ? t(lang, "players", { a: watched[0] || names.white, b: watched[1] || names.black })
                           : practice ? t(lang, "players.practice") : playersLine(lang, state.players ?? {}, spectator));
    if (m.score) {
      let score = t(lang, "score", { ...names, w: m.score.white, b: m.score.black, n: m.length });
      if (state.winner) score += " · " + t(lang, "winner", { s: sideName(lang, state.winner) });
      set("score", score);
      $("score").classList.toggle("won", Boolean(state.winner));
    }
    if (pips) set("pips", t(lang, "pips", { ...names, w: pips.white, b: pips.black }));
    const owner = m.cube_owner && m.cube_owner !== "center" ? sideName(lang, m.cube_owner) : t(lang, "cube.center");
    const offered = m.state === "doubled" && m.turn  // a double waiting for its answer: the cube offered
      ? " · " + t(lang, "cube.offered", { v: (m.cube ?? 1) * 2, s: sideName(lang, m.turn === "white" ? "black" : "white") }) : "";
    set("cube", m.cube_enabled === false ? t(lang, "cube.none") : `${m.cube ?? 1} (${owner})${offered}${m.crawford ? " · Crawford" : ""}`);
    set("dice", m.dice && m.dice.length ? m.dice.join(" – ") : "–");
    const phase = m.state ? t(lang, `state.${m.state}`) : "";
    set("turn", m.turn ? `${sideName(lang, m.turn)} · ${phase}` : (phase || "–"));
    set("match-id", m.match_id ?? "–");
    set("position-id", m.position_id ?? "–");
    set("xgid", state.xgid ?? "–");
  }
}

/** "You vs Computer (simple)", or both players' names; a spectator is nobody's "You"
 *  (issue 35.7: the spectators' header said "You vs Computer"). */
export function playersLine(lang, players, spectator = false) {
  const who = (side) => {
    const p = players[side] ?? "human";
    const alone = players.white !== "human" || players.black !== "human";
    if (p === "human") return alone && !spectator ? t(lang, "player.you") : sideName(lang, side);
    if (p === "remote") return t(lang, "player.remote");
    return t(lang, "player.computer", { level: t(lang, `level.${p}`) });
  };
  return t(lang, "players", { a: who("white"), b: who("black") });
}

/** Both players' clocks: the move timer and the bank (or the delay and the reserve), the
 * running side marked, flashing when its time is short. */
export class ClockView {
  constructor() { this.keyed = new Keyed(); }
  render(state, lang) {
    const clock = state.clock;
    if (!this.keyed.changed(clock, lang)) return;
    const box = $("clock");
    box.hidden = !clock;
    if (!clock) return;
    const main = t(lang, clock.mode === "timer" ? "clock.timer" : "clock.delay");
    const store = t(lang, clock.mode === "timer" ? "clock.bank" : "clock.reserve");
    box.replaceChildren(...["white", "black"].map((side) => {
      const c = clock[side];
      const row = document.createElement("div");
      row.className = `clock-side ${side}${c.running ? " running" : ""}${c.warning ? " warning" : ""}`;
      row.dataset.side = side;
      row.innerHTML = `<span class="who"></span><span class="main"></span><span class="store"></span>`;
      row.querySelector(".who").textContent = (c.running ? "▶ " : "") + sideName(lang, side);
      row.querySelector(".main").textContent = `${main} ${seconds(c.main)}`;
      row.querySelector(".store").textContent = `${store} ${seconds(c.store)}`;
      return row;
    }));
  }
}

function seconds(s) {
  const whole = Math.ceil(s);
  return whole >= 60 ? `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}` : `${whole} s`;
}

/** The game's moves, gnubg style: one numbered row per pair of turns, dice then move, in
 * the mover's own numbering (the board shows both sides' numbers). */
export class MoveListView {
  constructor() { this.keyed = new Keyed(); }
  render(state, lang) {
    const moves = state.moves ?? [];
    if (!this.keyed.changed(moves, lang)) return;
    const rows = [];
    let row = null;
    for (const e of moves) {
      if (!row || row[e.side] || (e.side === "white" && row.black)) {
        row = { white: null, black: null };
        rows.push(row);
      }
      row[e.side] = e;
    }
    const body = $("move-list");
    body.replaceChildren(...rows.map((r, i) => {
      const tr = document.createElement("tr");
      const n = document.createElement("th");
      n.textContent = `${i + 1})`;
      tr.append(n);
      for (const side of ["white", "black"]) {
        const td = document.createElement("td");
        td.dataset.side = side;
        if (r[side]) {
          td.textContent = entryText(lang, r[side]);
          td.classList.toggle("current", r[side].current);
        }
        tr.append(td);
      }
      return tr;
    }));
    $("moves-box").hidden = rows.length === 0;
    showCurrent($("moves-box"), body.querySelector("td.current")?.closest("tr") ?? body.lastElementChild);
  }
}

/** Scroll the move list (and only it, never the page) so that `row` shows: the current move
 *  stayed below the list's fold in a long game (issue 35.13). */
function showCurrent(box, row) {
  if (!row || box.hidden) return;
  const b = box.getBoundingClientRect(), r = row.getBoundingClientRect();
  if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  else if (r.top < b.top) box.scrollTop -= b.top - r.top;
}

function entryText(lang, e) {
  if (e.kind === "move") return `${e.dice}: ${e.notation || (e.current ? "…" : t(lang, "moves.none"))}`;
  return t(lang, `moves.${e.kind}`, { v: e.value, level: e.notation ? t(lang, `result.${e.notation}`) : "" });
}

/** The Actions list: what the snapshot says may be done now, captioned in the language.
 * Actions that end a match ask first. */
export class ActionsView {
  constructor(run) { this.run = run; this.keyed = new Keyed(); }
  render(state, lang) {
    const actions = state.actions ?? [];
    if (!this.keyed.changed(actions, lang)) return;
    $("actions").replaceChildren(...actions.map((a) => button(actionCaption(lang, a), { command: a }, () => this.run(a))));
  }
}

/** Which hardware button carries out which action now: the controller's own list says
 *  (`state.possible`, each with the button that takes it). */
export function markLiveButtons(possible) {
  const live = new Set(possible.filter((a) => a.button).map((a) => `${a.side}_${a.button}`));
  document.querySelectorAll("button.hw[data-button]").forEach((b) => {
    b.classList.toggle("live", live.has(b.dataset.button));
  });
}

/** The simulator's helping hands (set up the board, play the computer's move, take back). */
export class HelpersView {
  constructor(send) { this.send = send; this.keyed = new Keyed(); }
  render(state, lang) {
    const helpers = state.helpers ?? [];
    if (!this.keyed.changed(helpers, lang)) return;
    $("helpers").replaceChildren(...helpers.map((h) => button(t(lang, `helper.${h}`), { helper: h }, () => this.send({ type: h }))));
  }
}

/** Chat lines from an online opponent (`state.chat`, oldest first), as they came, and a
 * line to send (`say`) while in an online match; the server checks and answers a bad one. */
export class ChatView {
  constructor(send) {
    this.keyed = new Keyed();
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("chat-input");
      if (send({ type: "say", text: input.value })) input.value = "";
    });
  }
  render(state) {
    const o = state.online_play ?? { state: "off" };
    // a spectator only reads: bgammon ignores a spectator's `say` ("Command ignored: You are spectating")
    $("chat-form").hidden = Boolean(o.spectator) || !["waiting", "playing", "over"].includes(o.state);
    const lines = state.chat ?? [];
    if (!this.keyed.changed(lines)) return;
    $("chat").replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
  }
}

/** Online play (`state.online_play`): what the server says of it (connecting, waiting for
 * an opponent, playing, connection lost and rejoining, over), the match and the players,
 * a private match's password to pass on, the last news or the one line of an error, and a
 * way to leave. Hidden when there is nothing to say. */
export class OnlineView {
  constructor(leave) {
    this.keyed = new Keyed();
    $("online-leave").addEventListener("click", () => leave());
  }
  render(state, lang) {
    const o = state.online_play ?? { state: "off", line: "" };
    if (!this.keyed.changed(o.state, o.line, o.failed, o.match, o.me, o.opponent, o.match_password, o.server, o.spectator, lang)) return;
    const on = o.state !== "off";
    $("online").hidden = !on && !o.line;
    $("online").dataset.state = o.state;
    set("online-state", t(lang, `online.state.${o.state}`));
    const facts = !(on && o.match) ? "" : o.spectator  // watching: me and opponent are the two players
      ? t(lang, "online.watching", { match: o.match, server: o.server, a: o.me, b: o.opponent || "–" })
      : t(lang, "online.facts", { match: o.match, server: o.server, me: o.me, opponent: o.opponent || "–" });
    const secret = on && o.match_password ? " " + t(lang, "online.password", { p: o.match_password }) : "";
    set("online-facts", facts + secret);
    set("online-line", o.line ?? "");
    $("online-line").classList.toggle("failed", Boolean(o.failed));
    $("online-leave").hidden = !on;
  }
}

/** Notices: the newest first, in the match's language; they fade, and the next action
 * clears them. */
export class NoticesView {
  constructor() { this.list = $("notices"); }
  add(msg, lang) {
    const li = document.createElement("li");
    li.textContent = noticeText(lang, msg);
    li.dataset.key = msg.key ?? "";
    this.list.prepend(li);
    while (this.list.children.length > 4) this.list.lastChild.remove();
    setTimeout(() => li.classList.add("fading"), 6000);
    setTimeout(() => li.remove(), 8000);
  }
  clear() { this.list.replaceChildren(); }
}

/** The Debug panel: the sensor matrix (rows and columns labelled, each sensor named by its
 * cell, a flickering one marked), the link's counters and when they were read. */
export class DebugView {
  constructor() { this.keyed = new Keyed(); }
  render(d, lang) {
    const panel = $("debug");
    if (panel.hidden) return;
    const grid = $("sensor-grid");
    const cols = d.cols ?? 13, rows = d.rows ?? 1;
    const sensors = d.sensors ?? [];
    if (this.keyed.changed(cols, rows, sensors.length, d.sensor_cells)) {
      grid.style.gridTemplateColumns = `2.2em repeat(${cols}, 16px)`;
      const cells = [document.createElement("b")];
      for (let c = 0; c < cols; c++) { const h = document.createElement("b"); h.textContent = String(c); cells.push(h); }
      sensors.forEach((_, i) => {
        if (i % cols === 0) { const h = document.createElement("b"); h.textContent = `r${i / cols}`; cells.push(h); }
        const s = document.createElement("span");
        s.dataset.sensor = String(i);
        s.title = `${i}: ${d.sensor_cells?.[i] ?? ""}`;
        cells.push(s);
      });
      grid.replaceChildren(...cells);
    }
    grid.querySelectorAll("span[data-sensor]").forEach((s) => {
      const i = Number(s.dataset.sensor);
      s.className = `s${sensors[i]}${d.flickering === i ? " flickering" : ""}`;
    });
    const rowsShown = [["link.online", d.online], ["link.fps", d.fps], ["link.frames", d.frames], ["link.crc", d.crc_errors],
                       ["link.framing", d.framing_errors], ["link.lost", d.lost]]
      .map(([k, v]) => [t(lang, k), typeof v === "boolean" ? t(lang, `bool.${v}`) : v]);
    const table = $("link-stats");
    table.replaceChildren(...rowsShown.map(([k, v]) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th"); th.textContent = k;
      const td = document.createElement("td"); td.textContent = v ?? "–";
      tr.append(th, td);
      return tr;
    }));
    set("debug-read", t(lang, "debug.read", { time: new Date().toLocaleTimeString() }));
    set("flicker-note", d.flickering !== null && d.flickering !== undefined
      ? t(lang, "debug.flickering", { i: d.flickering, cell: d.sensor_cells?.[d.flickering] ?? "" }) : "");
  }
}

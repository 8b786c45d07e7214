// The simulator page: draws the server's snapshots and turns pointer and keyboard input
// into the physical actions a hand makes (lift a checker, place it), sent over one WebSocket.
import { CELLS, cellAt, cellRect, drawBoard, drawCheckers, drawHand, drawLeds, toBoardCoords } from "./board.js";
import { actionCaption, applyLanguage, normalise, sideName, t, hintText } from "./i18n.js";

const svg = document.getElementById("board");
const layers = drawBoard(svg);
let state = null;
let ws = null;
let pointer = { x: 350, y: 260 };
let drag = null;          // {cell, colour, startX, startY, lifted}
let clickTimer = null;
let cursorIndex = 0;      // keyboard cursor over CELLS_ORDER
let lang = "en";          // the match's language (settings.language): the page speaks it too

// For tests and curious people: the last snapshot, and when each one arrived (wall clock,
// ms) with the match it showed, so "the page is in step within 100 ms" can be measured.
window.bgboard = { get state() { return state; }, get language() { return lang; }, send, updates: 0, log: [], sent: [] };

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  const sent = window.bgboard.sent;
  sent.push(msg);
  if (sent.length > 500) sent.splice(0, 100);
}

function notice(text) {
  const li = document.createElement("li");
  li.textContent = text;
  const list = document.getElementById("notices");
  list.prepend(li);
  while (list.children.length > 6) list.lastChild.remove();
}

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { lastDisplayVersion = -1; };  // a restarted server counts from 0 again
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      state = msg; render(); window.bgboard.updates++;
      const m = msg.match ?? {};
      const log = window.bgboard.log;
      log.push({ t: Date.now(), match_id: m.match_id, position_id: m.position_id, hand: (msg.hand ?? []).length });
      if (log.length > 5000) log.splice(0, 1000);
    }
    else if (msg.type === "notice") { notice(msg.text); console.log("notice: " + msg.text); }
  };
  ws.onclose = () => {
    const s = document.getElementById("status");
    s.textContent = t(lang, "status.stopped"); s.className = "status offline";
    setTimeout(connect, 1000);
  };
}

let lastDisplayVersion = -1;
function render() {
  const wanted = normalise(state.settings?.language);
  if (wanted !== lang) {
    lang = wanted;
    applyLanguage(lang);
    document.getElementById("actions").dataset.key = "";  // captions are in the old language
    document.getElementById("helpers").dataset.key = "";
  }
  drawCheckers(layers.checkers, state.board);
  drawLeds(layers.leds, state.leds, state.led_counts ?? {});
  drawHand(layers.hand, state.hand ?? [], pointer);
  const status = document.getElementById("status");
  const online = state.debug?.online;
  status.textContent = t(lang, online ? "status.online" : "status.offline");
  status.className = "status " + (online ? "online" : "offline");
  if (state.display?.version !== lastDisplayVersion) {
    lastDisplayVersion = state.display?.version;
    document.getElementById("oled").src = `/display.png?v=${lastDisplayVersion}`;
  }
  document.getElementById("prompt").textContent = state.prompt ?? "";
  const m = state.match ?? {};
  const set = (id, text) => { document.getElementById(id).textContent = text; };
  const names = { white: sideName(lang, "white"), black: sideName(lang, "black") };
  if (m.score) set("score", t(lang, "score", { ...names, w: m.score.white, b: m.score.black, n: m.length }));
  if (m.pips) set("pips", t(lang, "pips", { ...names, w: m.pips.white, b: m.pips.black }));
  const owner = m.cube_owner && m.cube_owner !== "center" ? sideName(lang, m.cube_owner) : t(lang, "cube.center");
  set("cube", m.cube_enabled === false ? t(lang, "cube.none") : `${m.cube ?? 1} (${owner})${m.crawford ? " · Crawford" : ""}`);
  set("dice", m.dice && m.dice.length ? m.dice.join(" – ") : "–");
  const phase = m.state ? t(lang, `state.${m.state}`) : "";
  set("turn", m.turn ? `${sideName(lang, m.turn)} · ${phase}` : (phase || "–"));
  set("match-id", m.match_id ?? "–");
  set("position-id", m.position_id ?? "–");
  renderActions(state.actions ?? []);
  renderHelpers(state.helpers ?? []);
  set("hint", hintText(lang, state.hint));
  markLiveButtons(state.actions ?? []);
  renderDebug(state.debug ?? {});
  svg.dataset.ready = "1";
}

function renderActions(actions) {
  const box = document.getElementById("actions");
  const key = actions.join("|");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...actions.map((a) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = actionCaption(lang, a); b.dataset.command = a;
    b.onclick = () => send({ type: "command", name: a });
    return b;
  }));
}

// Which hardware button carries out which action now (as the controller maps them).
const MAIN = new Set(["roll", "take", "accept", "done", "rematch"]);
const CUBE = new Set(["double", "drop", "decline"]);
function markLiveButtons(actions) {
  const live = new Set();
  for (const a of actions) {
    const [side, verb] = a.split(" ");
    if (MAIN.has(verb)) live.add(`${side}_main`);
    if (CUBE.has(verb)) live.add(`${side}_cube`);
  }
  document.querySelectorAll("button.hw[data-button]").forEach((b) => {
    b.classList.toggle("live", live.has(b.dataset.button));
  });
}

const HELPERS = new Set(["setup", "bot_move"]);  // captions in i18n.js
function renderHelpers(helpers) {
  const box = document.getElementById("helpers");
  const key = helpers.join("|");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...helpers.map((h) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = HELPERS.has(h) ? t(lang, `helper.${h}`) : h; b.dataset.helper = h;
    b.onclick = () => send({ type: h });
    return b;
  }));
}

function renderDebug(d) {
  const panel = document.getElementById("debug");
  if (panel.hidden) return;
  const grid = document.getElementById("sensor-grid");
  grid.style.gridTemplateColumns = `repeat(${d.cols ?? 13}, 14px)`;
  const sensors = d.sensors ?? [];
  if (grid.children.length !== sensors.length) {
    grid.replaceChildren(...sensors.map(() => document.createElement("span")));
  }
  sensors.forEach((v, i) => { grid.children[i].className = `s${v}`; });
  const rows = [["link.online", d.online], ["link.fps", d.fps], ["link.frames", d.frames], ["link.crc", d.crc_errors],
                ["link.framing", d.framing_errors], ["link.lost", d.lost]].map(([k, v]) => [t(lang, k), typeof v === "boolean" ? t(lang, `bool.${v}`) : v]);
  document.getElementById("link-stats").innerHTML =
    rows.map(([k, v]) => `<tr><th>${k}</th><td>${v ?? "–"}</td></tr>`).join("");
}

// ---- pointer input: drag, click-to-lift, double-click, cover ----------------------------
function topColourAt(cell) {
  const [w, b] = state?.board?.[cell] ?? [0, 0];
  if (cell === "bar" && w && b) return state.match?.turn === "black" ? "black" : "white";
  return w ? "white" : b ? "black" : null;
}

svg.addEventListener("pointerdown", (ev) => {
  if (!state) return;
  const p = toBoardCoords(svg, ev.clientX, ev.clientY);
  pointer = p;
  const target = ev.target;
  const cell = target.dataset?.cell ?? cellAt(p.x, p.y);
  const colour = target.dataset?.colour ?? null;
  if ((state.hand ?? []).length === 0 && colour && cell) {
    drag = { cell, colour, startX: p.x, startY: p.y, lifted: false };
    svg.setPointerCapture(ev.pointerId);
  }
});

svg.addEventListener("pointermove", (ev) => {
  pointer = toBoardCoords(svg, ev.clientX, ev.clientY);
  if (drag && !drag.lifted && Math.hypot(pointer.x - drag.startX, pointer.y - drag.startY) > 6) {
    drag.lifted = true;
    drag.slide = ev.shiftKey;  // Shift: slide over the board instead of lifting
    drag.over = drag.slide ? drag.cell : null;
    if (!drag.slide) send({ type: "lift", cell: drag.cell, colour: drag.colour });
  }
  if (drag && drag.lifted && drag.slide) {
    // a slide keeps the checker on the board: it lies on each point it crosses
    const cell = cellAt(pointer.x, pointer.y);
    if (cell !== drag.over) {
      if (drag.over) send({ type: "lift", cell: drag.over, colour: drag.colour });
      if (cell) send({ type: "place", cell, colour: drag.colour });
      drag.over = cell;
    }
  }
  if (state) drawHand(layers.hand, state.hand ?? [], pointer);
});

svg.addEventListener("pointerup", (ev) => {
  const p = toBoardCoords(svg, ev.clientX, ev.clientY);
  pointer = p;
  if (drag && drag.lifted && drag.slide) {
    if (!drag.over) send({ type: "drop_outside" });  // slid off the board: back it goes
    drag = null;
    return;
  }
  if (drag && drag.lifted) {
    const cell = cellAt(p.x, p.y);
    if (cell) send({ type: "place", cell, colour: drag.colour });
    else send({ type: "drop_outside" });
    drag = null;
    return;
  }
  const wasDrag = drag;
  drag = null;
  clickAt(p, wasDrag);
});

function clickAt(p, pressed) {
  if (!state) return;
  const cell = cellAt(p.x, p.y);
  const hand = state.hand ?? [];
  if (hand.length > 0) {
    if (cell) send({ type: "place", cell, colour: hand[hand.length - 1].colour });
    else send({ type: "drop_outside" });
    return;
  }
  if (!cell) return;
  if (pressed && pressed.colour) {
    // a click on a checker: lift it, unless a second click makes it a double-click
    if (clickTimer) {
      clearTimeout(clickTimer); clickTimer = null;
      send({ type: "auto_step", cell, colour: pressed.colour });
      return;
    }
    clickTimer = setTimeout(() => {
      clickTimer = null;
      send({ type: "lift", cell: pressed.cell, colour: pressed.colour });
    }, 250);
    return;
  }
  const [w, b] = state.board[cell] ?? [0, 0];
  if (w === 0 && b === 0) send({ type: "cover", cell });
}

// ---- keyboard: arrows over the points, Enter lifts or places ---------------------------
const ROW_TOP = ["13", "14", "15", "16", "17", "18", "bar", "19", "20", "21", "22", "23", "24", "off-black"];
const ROW_BOTTOM = ["12", "11", "10", "9", "8", "7", "bar", "6", "5", "4", "3", "2", "1", "off-white"];
let row = 1, col = 12;

function showCursor() {
  const cell = (row === 0 ? ROW_TOP : ROW_BOTTOM)[col];
  const r = cellRect(cell);
  Object.entries({ x: r.x, y: r.y, width: r.w, height: r.h }).forEach(([k, v]) => layers.cursor.setAttribute(k, v));
  layers.cursor.setAttribute("visibility", "visible");
  layers.cursor.dataset.cell = cell;
  const c = { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  pointer = c;
  if (state) drawHand(layers.hand, state.hand ?? [], pointer);
  return cell;
}

svg.addEventListener("keydown", (ev) => {
  if (!state) return;
  if (layers.cursor.getAttribute("visibility") !== "visible" && ev.key.startsWith("Arrow")) {
    showCursor();  // the first arrow only shows where the cursor is
    ev.preventDefault();
    return;
  }
  if (ev.key === "ArrowLeft") col = Math.max(0, col - 1);
  else if (ev.key === "ArrowRight") col = Math.min(ROW_TOP.length - 1, col + 1);
  else if (ev.key === "ArrowUp") row = 0;
  else if (ev.key === "ArrowDown") row = 1;
  else if (ev.key === "Enter" || ev.key === " ") {
    const cell = showCursor();
    const hand = state.hand ?? [];
    if (hand.length) send({ type: "place", cell, colour: hand[hand.length - 1].colour });
    else {
      const colour = topColourAt(cell);
      if (colour) send({ type: "lift", cell, colour });
    }
  } else if (ev.key === "Escape") {
    send({ type: "drop_outside" });
  } else return;
  ev.preventDefault();
  showCursor();
});
// the cursor shows only while the keyboard is used: a mouse click hides it again
svg.addEventListener("pointerdown", () => layers.cursor.setAttribute("visibility", "hidden"), true);

// ---- buttons, dialog, debug --------------------------------------------------------------
document.querySelectorAll("button.hw").forEach((b) => {
  b.addEventListener("click", () => {
    send({ type: "button", name: b.dataset.button });
    if (b.dataset.button === "menu") {
      // the simulator's menu is the Actions list: open it and bring it into view
      const box = document.getElementById("actions-box");
      box.open = true;
      box.scrollIntoView({ block: "nearest" });
      document.querySelector("#actions button")?.focus();
    }
  });
});
document.querySelectorAll("[data-fault]").forEach((b) => {
  b.addEventListener("click", () => send({ type: "fault", name: b.dataset.fault }));
});
document.getElementById("debug-toggle").addEventListener("click", () => {
  const panel = document.getElementById("debug");
  panel.hidden = !panel.hidden;
  if (state) renderDebug(state.debug ?? {});
  if (!panel.hidden) panel.scrollIntoView({ behavior: "smooth", block: "start" });
});
const dialog = document.getElementById("new-match");
document.getElementById("new-match-open").addEventListener("click", () => {
  const s = state?.settings ?? {};
  const form = document.getElementById("new-match-form");
  // by name, not form.elements[k]: "length" there is the number of fields, not the input
  for (const [k, v] of Object.entries(s)) {
    const field = form.querySelector(`[name="${k}"]`);
    if (field) field.value = String(v);
  }
  dialog.showModal();
});
dialog.addEventListener("close", () => {
  if (dialog.returnValue !== "start") return;
  const form = document.getElementById("new-match-form");
  const settings = Object.fromEntries(new FormData(form).entries());
  settings.length = Number(settings.length);
  send({ type: "new_match", settings });
});

connect();

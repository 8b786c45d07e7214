// The board drawn to scale in SVG: points, checkers, LED strips, trays, bar, and what a
// player reads off a real table: the dice, the cube, the pip counts and whose turn it is.
// Geometry and drawing only; input.js turns pointer and keys into a hand's actions.
// Every point carries two numbers: White's (light, as the board is printed) and Black's
// (dark chip, 25 minus White's), so a move written for either side can be found.

// The cells, where each lies and the numbers printed by each point are the product's own
// (DESIGN.md "Cells"), laid out once by the server (controller/web/board_layout.py, as /cells.js).
import { LAYOUT } from "/cells.js";

export const SVG_NS = "http://www.w3.org/2000/svg";
export const { POINT_W, R, STEP, TOP, BOTTOM, MID_TOP, MID_BOTTOM, BAR_X, BAR_W, TRAY_X, TRAY_W } = LAYOUT.sizes;
/** The drawing's extent (board units): a margin above and below for Black's numbers. */
export const VIEW = LAYOUT.view;
const BY_CELL = new Map(LAYOUT.cells.map((c) => [c.cell, c]));

/** Left edge of a point's triangle and whether it hangs from the top edge. */
export function pointBox(p) {
  return BY_CELL.get(String(p)).point;
}

/** The rectangle of a cell where a pointer counts as "on" it. */
export function cellRect(cell) {
  return BY_CELL.get(cell).rect;
}

export const CELLS = LAYOUT.cells.map((c) => c.cell);

/** The cells in two rows as they lie across the board, left to right (the keyboard walks
 * them): the top half, then the bottom; the bar, which spans both, is in each. */
export const ROWS = [true, false].map((top) => LAYOUT.cells
  .filter((c) => (c.point ? c.point.top === top : c.cell === "bar" || (c.rect.y < MID_TOP) === top))
  .sort((a, b) => a.rect.x - b.rect.x)
  .map((c) => c.cell));

/** The cell under board coordinates (x, y), or null outside every cell. */
export function cellAt(x, y) {
  for (const cell of CELLS) {
    const r = cellRect(cell);
    if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h) return cell;
  }
  return null;
}

/** Centre of the i-th checker in a cell (i from 0). */
export function checkerCentre(cell, i, colour) {
  if (cell === "bar") {
    const k = Math.min(i, 4);
    return colour === "white" ? { x: BAR_X + BAR_W / 2, y: MID_TOP - R - k * STEP + 20 }
                              : { x: BAR_X + BAR_W / 2, y: MID_BOTTOM + R + k * STEP - 20 };
  }
  const { x, top } = pointBox(Number(cell));
  const k = Math.min(i, 4);
  return { x: x + POINT_W / 2, y: top ? TOP + R + 1 + k * STEP : BOTTOM - R - 1 - k * STEP };
}

/** Where an arrow to or from a cell points: the middle of its checkers. */
function cellMiddle(cell) {
  if (cell === "bar") return { x: BAR_X + BAR_W / 2, y: (MID_TOP + MID_BOTTOM) / 2 };
  const r = cellRect(cell);
  if (cell.startsWith("off-")) return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
  const { top } = pointBox(Number(cell));
  return { x: r.x + r.w / 2, y: top ? TOP + 70 : BOTTOM - 70 };
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Draw the static board once; returns the layers the views fill. On a narrow (portrait)
 * screen the whole drawing turns a quarter so the points are long and wide enough to touch;
 * the cells, and so the input, stay in board units (`toBoardCoords`). */
export function drawBoard(svg, { portrait = false } = {}) {
  svg.replaceChildren();
  const { x: vx, y: vy, w: vw, h: vh } = VIEW;
  svg.setAttribute("viewBox", portrait ? `${vy} ${vx} ${vh} ${vw}` : `${vx} ${vy} ${vw} ${vh}`);
  svg.classList.toggle("portrait", portrait);
  // portrait: board x runs down the screen, board y runs right to left
  const world = el("g", { id: "world", transform: portrait ? `translate(${vh + 2 * vy} 0) rotate(90)` : "" }, svg);
  const upright = (x, y) => (portrait ? { transform: `rotate(-90 ${x} ${y})` } : {});
  const defs = el("defs", {}, world);
  const marker = el("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5,
                                markerHeight: 5, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" }, marker);
  el("rect", { x: 20, y: 20, width: 560, height: 480, fill: "var(--felt)", rx: 4 }, world);
  el("rect", { x: BAR_X, y: 20, width: BAR_W, height: 480, fill: "var(--wood)" }, world);
  el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: MID_TOP - TOP, fill: "var(--felt-dark)", rx: 3 }, world);
  el("rect", { x: TRAY_X, y: MID_BOTTOM, width: TRAY_W, height: BOTTOM - MID_BOTTOM, fill: "var(--felt-dark)", rx: 3 }, world);
  const points = el("g", { id: "points" }, world);
  for (const { cell, point, labels } of LAYOUT.cells) {
    if (!point) continue;  // the bar and the trays are drawn above
    const { x, top } = point;
    const tipY = top ? MID_TOP - 20 : MID_BOTTOM + 20;
    const baseY = top ? TOP : BOTTOM;
    el("polygon", {
      points: `${x},${baseY} ${x + POINT_W},${baseY} ${x + POINT_W / 2},${tipY}`,
      class: Number(cell) % 2 ? "point-a" : "point-b", "data-cell": cell,
    }, points);
    const cx = x + POINT_W / 2;
    const wy = top ? 12 : 516, by = top ? -4 : 532;
    el("text", { x: cx, y: wy, class: "label white-number", "data-label-cell": cell, ...upright(cx, wy) }, points).textContent = labels.white;
    el("rect", { x: cx - 11, y: by - 8, width: 22, height: 15, rx: 4, class: "black-chip" }, points);
    el("text", { x: cx, y: by, class: "label black-number", "data-label-cell": cell, ...upright(cx, by) }, points).textContent = labels.black;
  }
  // the trays' names: between the trays, or (turned, where that gap is too narrow for two
  // lines of text) inside each tray
  const tx = TRAY_X + TRAY_W / 2;
  const [by, wy] = portrait ? [TOP + 30, BOTTOM - 30] : [MID_TOP + 18, MID_BOTTOM - 8];
  // between the trays an arrow points at each; turned, the name stands inside its own tray
  const [offBlack, offWhite] = portrait ? ["board.tray_black", "board.tray_white"] : ["board.off_black", "board.off_white"];
  el("text", { x: tx, y: by, class: "label", "data-i18n": offBlack, ...upright(tx, by) }, world).textContent = portrait ? "off black" : "off black ↑";
  el("text", { x: tx, y: wy, class: "label", "data-i18n": offWhite, ...upright(tx, wy) }, world).textContent = portrait ? "off white" : "off white ↓";
  const glow = el("g", { id: "glow" }, world);
  const hits = el("g", { id: "hits" }, world);
  const leds = el("g", { id: "leds" }, world);
  const table = el("g", { id: "table-facts" }, world);
  const checkers = el("g", { id: "checkers" }, world);
  const arrows = el("g", { id: "arrows" }, world);
  for (const cell of CELLS) {
    const r = cellRect(cell);
    el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, class: "cell-hit", "data-cell": cell }, hits);
  }
  const cursor = el("rect", { class: "cursor", visibility: "hidden" }, world);
  const hand = el("g", { id: "hand" }, world);
  return { world, glow, leds, table, checkers, arrows, hits, cursor, hand, upright, portrait };
}

/** Where each cell's LEDs sit: 3 beside a point's base, 4 on the bar, 3 beside a tray. */
export function ledSpots(cell, count) {
  const spots = [];
  if (cell === "bar") {
    for (let i = 0; i < count; i++) spots.push({ x: BAR_X + BAR_W / 2, y: 200 + i * 40 });
  } else if (cell === "off-white" || cell === "off-black") {
    const y = cell === "off-white" ? 506 : 14;
    for (let i = 0; i < count; i++) spots.push({ x: TRAY_X + 20 + i * 20, y });
  } else {
    const { x, top } = pointBox(Number(cell));
    for (let i = 0; i < count; i++) spots.push({ x: x + 8 + i * 12, y: top ? 24 : 496 });
  }
  return spots;
}

/** Where a lit cell glows: its touch area, but a point's only a little past its tip (the
 * touch area reaches far into the middle, where the dice lie: lit 4 covered a die). */
function glowRect(cell) {
  const r = cellRect(cell);
  const point = cell === "bar" || cell.startsWith("off-") ? null : pointBox(Number(cell));
  if (!point) return r;
  const PAST_TIP = 8;
  return point.top ? { ...r, h: MID_TOP + PAST_TIP - r.y }
                   : { ...r, y: MID_BOTTOM - PAST_TIP, h: r.y + r.h - (MID_BOTTOM - PAST_TIP) };
}

/** The LEDs as the strip shows them, and a wide glow around every lit cell so a light is
 * seen from across the room (and on a phone) and not only as a 5 px dot. */
export function drawLeds(layers, ledMap, ledCounts) {
  layers.leds.replaceChildren();
  layers.glow.replaceChildren();
  for (const cell of CELLS) {
    const lit = ledMap[cell];
    if (lit) {
      const r = glowRect(cell);
      const g = el("rect", { x: r.x + 2, y: r.y + 2, width: r.w - 4, height: r.h - 4, rx: 6,
                             class: `glow ${lit.pattern}`, "data-glow-cell": cell, "data-role": lit.role }, layers.glow);
      g.style.stroke = lit.color;
      g.style.fill = lit.color;
    }
    for (const s of ledSpots(cell, ledCounts[cell] ?? 3)) {
      const c = el("circle", { cx: s.x, cy: s.y, r: 5.5, class: "led", "data-led-cell": cell }, layers.leds);
      if (lit) {
        c.style.fill = lit.color;
        c.classList.add(lit.pattern);
        c.setAttribute("data-role", lit.role);
      }
    }
  }
}

/** The checkers; where both colours share a point (a hit in progress) they stack, the side
 * not on turn first, so neither hides the other. */
export function drawCheckers(layer, board, turn) {
  layer.replaceChildren();
  for (const cell of CELLS) {
    const [white, black] = board[cell] ?? [0, 0];
    if (cell === "off-white" || cell === "off-black") {
      const n = cell === "off-white" ? white : black;
      const colour = cell === "off-white" ? "white" : "black";
      const r = cellRect(cell);
      for (let i = 0; i < n; i++) {
        const y = cell === "off-white" ? r.y + r.h - 13 - i * 12.5 : r.y + 2 + i * 12.5;
        el("rect", { x: r.x + 6, y, width: r.w - 12, height: 11, rx: 3, class: `checker ${colour}`,
                     "data-cell": cell, "data-colour": colour }, layer);
      }
      continue;
    }
    const order = turn === "white" ? [["black", black], ["white", white]] : [["white", white], ["black", black]];
    let below = 0;
    for (const [colour, n] of order) {
      const offset = cell === "bar" ? 0 : below;
      for (let i = 0; i < Math.min(n, 5 - Math.min(offset, 4)); i++) {
        const { x, y } = checkerCentre(cell, i + offset, colour);
        el("circle", { cx: x, cy: y, r: R, class: `checker ${colour}`, "data-cell": cell, "data-colour": colour }, layer);
      }
      if (n > 5 - Math.min(offset, 4)) {
        const { x, y } = checkerCentre(cell, 4, colour);
        el("text", { x, y, class: `count ${colour}` }, layer).textContent = String(n);
      }
      below += n;
    }
  }
}

/** The checkers that went from one cell to another between two boards (one colour losing a
 * checker here and gaining one there: a hit blot sent to the bar, a step the page's hand
 * played), as {colour, from, to}; lifts and placements by hand change one side only. */
export function flights(before, after) {
  const found = [];
  for (const [colour, k] of [["white", 0], ["black", 1]]) {
    const lost = [], gained = [];
    for (const cell of CELLS) {
      const d = (after[cell]?.[k] ?? 0) - (before[cell]?.[k] ?? 0);
      for (let i = 0; i < -d; i++) lost.push(cell);
      for (let i = 0; i < d; i++) gained.push(cell);
    }
    for (let i = 0; i < Math.min(lost.length, gained.length); i++) found.push({ colour, from: lost[i], to: gained[i] });
  }
  return found;
}

/** Let each flown checker glide from where it was to where it is now (both stay in view).
 * A hit checker on its way to the bar is nobody's to take: the hand that hit it is still laying
 * it there, so it lets the pointer through to the board beneath until it has landed. */
export function animateFlights(layer, list, board, ms = 220) {
  for (const f of list) {
    const shown = layer.querySelectorAll(`[data-cell="${f.to}"][data-colour="${f.colour}"]`);
    const node = shown[shown.length - 1];
    if (!node || f.from.startsWith("off-") || f.to.startsWith("off-")) continue;
    const [w, b] = board[f.from] ?? [0, 0];
    const a = checkerCentre(f.from, f.colour === "white" ? w : b, f.colour);
    const z = { x: Number(node.getAttribute("cx")), y: Number(node.getAttribute("cy")) };
    if (f.to === "bar") node.classList.add("flying");  // a hit blot in the hand: not to be taken
    const flight = node.animate([{ transform: `translate(${a.x - z.x}px, ${a.y - z.y}px)` }, { transform: "translate(0, 0)" }],
                                { duration: ms, easing: "ease-out" });
    flight.onfinish = flight.oncancel = () => node.classList.remove("flying");
  }
}

export function drawHand(layer, hand, at) {
  layer.replaceChildren();
  hand.forEach((h, i) => {
    el("circle", { cx: at.x + i * 8, cy: at.y - i * 8, r: R, class: `checker ${h.colour} in-hand` }, layer);
  });
}

/** Arrows from each of the computer's from-cells to its to-cell (the move to carry out). */
export function drawArrows(layer, pairs, color) {
  layer.replaceChildren();
  for (const [frm, to] of pairs) {
    const a = cellMiddle(frm), b = cellMiddle(to);
    const line = el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "bot-arrow", "marker-end": "url(#arrow-head)",
                              "data-from": frm, "data-to": to }, layer);
    line.style.stroke = color;
  }
}

/**
 * What a player reads off the table: the dice (used ones faded and struck), the cube on its
 * owner's side or in the middle, each side's pip count by its own side of the board, and an
 * arrow at the side on turn.
 * @param {{dice: {value: number, colour: string, used: boolean}[], cube: {value: number, owner: string}|null,
 *          pips: {white: number, black: number}|null, turn: string|null, names: {white: string, black: string}}} t
 */
export function drawTableFacts(layers, t) {
  const layer = layers.table;
  const up = layers.upright;
  layer.replaceChildren();
  const midY = (MID_TOP + MID_BOTTOM) / 2;
  t.dice.forEach((d, i) => {
    const x = 395 + i * 36 + (4 - t.dice.length) * 18, y = midY - 14;
    const g = el("g", { class: `die ${d.colour}${d.used ? " used" : ""}`, "data-die": String(d.value),
                        "data-used": String(d.used), ...up(x + 14, y + 14) }, layer);
    el("rect", { x, y, width: 28, height: 28, rx: 5 }, g);
    el("text", { x: x + 14, y: y + 15, class: "pips-text" }, g).textContent = String(d.value);
    if (d.used) el("line", { x1: x + 3, y1: y + 25, x2: x + 25, y2: y + 3, class: "used-mark" }, g);
  });
  if (t.cube) {
    const y = t.cube.owner === "white" ? BOTTOM - 34 : t.cube.owner === "black" ? TOP + 4 : midY - 15;
    const g = el("g", { class: "cube", "data-owner": t.cube.owner, ...up(679, y + 15) }, layer);
    el("rect", { x: 664, y, width: 30, height: 30, rx: 4 }, g);
    el("text", { x: 679, y: y + 16 }, g).textContent = String(t.cube.value === 1 ? 64 : t.cube.value);  // a centred cube reads 64
  }
  if (t.pips) {
    for (const side of ["black", "white"]) {
      // two lines across the middle, or (turned) side by side along it
      const [x, y] = layers.portrait ? [side === "black" ? 90 : 200, midY + 4]
                                     : [145, side === "black" ? midY - 12 : midY + 14];
      const on = t.turn === side;
      const text = el("text", { x, y, class: `pip-count ${side}${on ? " on-turn" : ""}`, "data-side": side,
                                ...up(x, y) }, layer);
      text.textContent = `${on ? "▶ " : ""}${t.names[side]} ${t.pips[side]}`;
    }
  }
}

/** Board units under a pointer (through every transform, a turned board's too). */
export function toBoardCoords(svg, clientX, clientY) {
  const world = svg.querySelector("#world") ?? svg;
  const pt = svg.createSVGPoint();
  pt.x = clientX; pt.y = clientY;
  const m = world.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

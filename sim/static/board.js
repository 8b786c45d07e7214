// The board drawn to scale in SVG: points, checkers, LED strips, trays, bar.
// Geometry only; app.js decides what happens on input.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const POINT_W = 40, R = 18, STEP = 37;
export const TOP = 30, BOTTOM = 490, MID_TOP = 230, MID_BOTTOM = 290;
export const BAR_X = 270, BAR_W = 50, TRAY_X = 580, TRAY_W = 80;

/** Left edge of a point's triangle and whether it hangs from the top edge. */
export function pointBox(p) {
  if (p <= 6) return { x: 320 + (6 - p) * POINT_W, top: false };
  if (p <= 12) return { x: 30 + (12 - p) * POINT_W, top: false };
  if (p <= 18) return { x: 30 + (p - 13) * POINT_W, top: true };
  return { x: 320 + (p - 19) * POINT_W, top: true };
}

/** The rectangle of a cell where a pointer counts as "on" it. */
export function cellRect(cell) {
  if (cell === "bar") return { x: BAR_X, y: TOP, w: BAR_W, h: BOTTOM - TOP };
  if (cell === "off-white") return { x: TRAY_X, y: MID_BOTTOM, w: TRAY_W, h: BOTTOM - MID_BOTTOM };
  if (cell === "off-black") return { x: TRAY_X, y: TOP, w: TRAY_W, h: MID_TOP - TOP };
  const { x, top } = pointBox(Number(cell));
  return top ? { x, y: TOP, w: POINT_W, h: MID_TOP - TOP + 25 } : { x, y: MID_BOTTOM - 25, w: POINT_W, h: BOTTOM - MID_BOTTOM + 25 };
}

export const CELLS = [...Array.from({ length: 24 }, (_, i) => String(i + 1)), "bar", "off-white", "off-black"];

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

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Draw the static board once; returns the layers app.js fills. */
export function drawBoard(svg) {
  svg.replaceChildren();
  el("rect", { x: 20, y: 20, width: 560, height: 480, fill: "var(--felt)", rx: 4 }, svg);
  el("rect", { x: BAR_X, y: 20, width: BAR_W, height: 480, fill: "var(--wood)" }, svg);
  el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: MID_TOP - TOP, fill: "var(--felt-dark)", rx: 3 }, svg);
  el("rect", { x: TRAY_X, y: MID_BOTTOM, width: TRAY_W, height: BOTTOM - MID_BOTTOM, fill: "var(--felt-dark)", rx: 3 }, svg);
  const points = el("g", { id: "points" }, svg);
  for (let p = 1; p <= 24; p++) {
    const { x, top } = pointBox(p);
    const tipY = top ? MID_TOP - 20 : MID_BOTTOM + 20;
    const baseY = top ? TOP : BOTTOM;
    el("polygon", {
      points: `${x},${baseY} ${x + POINT_W},${baseY} ${x + POINT_W / 2},${tipY}`,
      class: p % 2 ? "point-a" : "point-b", "data-cell": String(p),
    }, points);
    el("text", { x: x + POINT_W / 2, y: top ? 12 : 516, class: "label" }, points).textContent = String(p);
  }
  el("text", { x: TRAY_X + TRAY_W / 2, y: MID_TOP + 18, class: "label", "data-i18n": "board.off_black" }, svg).textContent = "off black ↑";
  el("text", { x: TRAY_X + TRAY_W / 2, y: MID_BOTTOM - 8, class: "label", "data-i18n": "board.off_white" }, svg).textContent = "off white ↓";
  const hits = el("g", { id: "hits" }, svg);
  const leds = el("g", { id: "leds" }, svg);
  const checkers = el("g", { id: "checkers" }, svg);
  for (const cell of CELLS) {
    const r = cellRect(cell);
    el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, class: "cell-hit", "data-cell": cell }, hits);
  }
  const cursor = el("rect", { class: "cursor", visibility: "hidden" }, svg);
  const hand = el("g", { id: "hand" }, svg);
  return { leds, checkers, hits, cursor, hand };
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

export function drawLeds(layer, ledMap, ledCounts) {
  layer.replaceChildren();
  for (const cell of CELLS) {
    const lit = ledMap[cell];
    for (const s of ledSpots(cell, ledCounts[cell] ?? 3)) {
      const c = el("circle", { cx: s.x, cy: s.y, r: 4.5, class: "led", "data-led-cell": cell }, layer);
      if (lit) {
        c.style.fill = lit.color;
        c.classList.add(lit.pattern);
        c.setAttribute("data-role", lit.role);
      }
    }
  }
}

export function drawCheckers(layer, board) {
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
    for (const [colour, n] of [["white", white], ["black", black]]) {
      for (let i = 0; i < Math.min(n, 5); i++) {
        const { x, y } = checkerCentre(cell, i, colour);
        el("circle", { cx: x, cy: y, r: R, class: `checker ${colour}`, "data-cell": cell, "data-colour": colour }, layer);
        if (i === 4 && n > 5) {
          el("text", { x, y, class: `count ${colour}` }, layer).textContent = String(n);
        }
      }
    }
  }
}

export function drawHand(layer, hand, at) {
  layer.replaceChildren();
  hand.forEach((h, i) => {
    el("circle", { cx: at.x + i * 8, cy: at.y - i * 8, r: R, class: `checker ${h.colour} in-hand` }, layer);
  });
}

export function toBoardCoords(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX; pt.y = clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

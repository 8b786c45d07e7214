// Pointer and keyboard on the board, turned into what a hand does: lift a checker, place
// it, put it back, slide it, or one of the page's conveniences (its highest single step,
// covering a point with two). Nothing here waits: a click lifts at once; a second click on
// the lifted checker's own point within DOUBLE_MS plays its highest step instead of putting
// it back (so a double-click still means "play it", without delaying every click). The
// browser's own click count (the person's double-click setting) counts too: a page busy
// drawing a snapshot between the two clicks must not turn a double-click into two clicks.

import { cellAt, cellRect, ROWS, toBoardCoords } from "./board.js";

const DOUBLE_MS = 400;
const DRAG_PX = 6;
const [ROW_TOP, ROW_BOTTOM] = ROWS;

export class BoardInput {
  /**
   * @param {SVGSVGElement} svg
   * @param {import("./model.js").Model} model
   * @param {{lift, place, dropOutside, autoStep, cover, slideLift, slidePlace, pointer, cursor}} intents
   */
  constructor(svg, model, intents) {
    this.svg = svg;
    this.model = model;
    this.intents = intents;
    this.press = null;     // {cell, colour, x, y, lifted, slide, over}
    this.lastLift = null;  // {cell, at}: the click that lifted, for the double-click
    this.clicks = 0;       // the browser's click count of the press being handled
    this.row = 1;
    this.col = 12;
    this.cursorShown = false;
    svg.addEventListener("pointerdown", (ev) => this.down(ev));
    svg.addEventListener("pointermove", (ev) => this.move(ev));
    svg.addEventListener("pointerup", (ev) => this.up(ev));
    // a mouse's compatibility mousedown follows its pointerdown and precedes its pointerup
    svg.addEventListener("mousedown", (ev) => { this.clicks = ev.detail; });
    svg.addEventListener("keydown", (ev) => this.key(ev));
  }

  at(ev) {
    const p = toBoardCoords(this.svg, ev.clientX, ev.clientY);
    this.intents.pointer(p);
    return p;
  }

  down(ev) {
    this.clicks = 0;  // a touch sends its mousedown only after the pointerup
    if (!this.model.state) return;
    this.hideCursor();
    const p = this.at(ev);
    const cell = ev.target.dataset?.cell ?? cellAt(p.x, p.y);
    const colour = ev.target.dataset?.colour ?? null;
    if (this.model.hand().length === 0 && colour && cell) {
      this.press = { cell, colour, x: p.x, y: p.y, lifted: false, slide: false, over: null };
      this.svg.setPointerCapture?.(ev.pointerId);
    }
  }

  move(ev) {
    const p = this.at(ev);
    const press = this.press;
    if (press && !press.lifted && Math.hypot(p.x - press.x, p.y - press.y) > DRAG_PX) {
      press.lifted = true;
      press.slide = ev.shiftKey;  // Shift: slide over the board instead of lifting
      press.over = press.slide ? press.cell : null;
      if (!press.slide) this.intents.lift(press.cell, press.colour);
    }
    if (press?.lifted && press.slide) {
      // a slide keeps the checker on the board: it lies on each point it crosses
      const cell = cellAt(p.x, p.y);
      if (cell !== press.over) {
        if (press.over) this.intents.slideLift(press.over, press.colour);
        if (cell) this.intents.slidePlace(cell, press.colour);
        press.over = cell;
      }
    }
  }

  up(ev) {
    const p = this.at(ev);
    const press = this.press;
    this.press = null;
    if (press?.lifted && press.slide) {
      if (!press.over) this.intents.dropOutside();  // slid off the board: back it goes
      return;
    }
    if (press?.lifted) {
      const cell = cellAt(p.x, p.y);
      if (cell) this.intents.place(cell, press.colour);
      else this.intents.dropOutside();
      return;
    }
    this.click(p, press, ev.timeStamp);
  }

  click(p, press, when) {
    const cell = cellAt(p.x, p.y);
    const hand = this.model.hand();
    if (hand.length > 0) {
      const held = hand[hand.length - 1];
      const last = this.lastLift;
      this.lastLift = null;
      const double = this.clicks >= 2 || (last && when - last.at < DOUBLE_MS);
      if (last && cell === last.cell && held.from === cell && double) {
        this.intents.autoStep(cell, held.colour);  // the second click of a double-click
      } else if (cell) this.intents.place(cell, held.colour);
      else this.intents.dropOutside();
      return;
    }
    if (!cell) return;
    if (press?.colour) {
      this.lastLift = { cell: press.cell, at: when };
      this.intents.lift(press.cell, press.colour);
      return;
    }
    const [w, b] = this.model.board()[cell] ?? [0, 0];
    if (w === 0 && b === 0) this.intents.cover(cell);
  }

  // ---- keyboard: arrows over the points, Enter lifts or places, Esc puts back ----------
  cursorCell() {
    return (this.row === 0 ? ROW_TOP : ROW_BOTTOM)[this.col];
  }

  showCursor() {
    this.cursorShown = true;
    const cell = this.cursorCell();
    const r = cellRect(cell);
    this.intents.cursor(cell, r);
    this.intents.pointer({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
    return cell;
  }

  hideCursor() {
    this.cursorShown = false;
    this.intents.cursor(null, null);
  }

  key(ev) {
    if (!this.model.state) return;
    if (!this.cursorShown && ev.key.startsWith("Arrow")) {
      this.showCursor();  // the first arrow only shows where the cursor is
      ev.preventDefault();
      return;
    }
    if (ev.key === "ArrowLeft") this.col = Math.max(0, this.col - 1);
    else if (ev.key === "ArrowRight") this.col = Math.min(ROW_TOP.length - 1, this.col + 1);
    else if (ev.key === "ArrowUp") this.row = 0;
    else if (ev.key === "ArrowDown") this.row = 1;
    else if (ev.key === "Enter" || ev.key === " ") {
      const cell = this.showCursor();
      const hand = this.model.hand();
      if (hand.length) this.intents.place(cell, hand[hand.length - 1].colour);
      else {
        const colour = this.model.topColourAt(cell);
        if (colour) this.intents.lift(cell, colour);
      }
    } else if (ev.key === "Escape") {
      this.intents.dropOutside();
    } else return;
    ev.preventDefault();
    this.showCursor();
  }
}

// The simulator page: wires the connection (snapshots in, actions out), the board's input
// (a hand's gestures), and one view per panel. All state lives in one Page object; the
// snapshot decides what is shown, the page only shows a lifted checker before the server
// has confirmed it (model.js).

import { animateFlights, drawArrows, drawBoard, drawCheckers, drawHand, drawLeds, drawTableFacts, flights } from "./board.js";
import { Connection, socketUrl } from "./connection.js";
import { confirmAsk, NewMatchDialog } from "./dialogs.js";
import { render as renderDice } from "./dice.js";
import { applyLanguage, normalise, sideName, t } from "./i18n.js";
import { BoardInput } from "./input.js";
import { Model } from "./model.js";
import { ReviewView } from "./review.js";
import { ActionsView, ChatView, ClockView, DebugView, FactsView, HelpersView, markLiveButtons, MoveListView,
         NoticesView, OnlineView, PromptView, StatusView } from "./views.js";

/** Portrait phones get the board turned a quarter (long points, wide enough to touch). */
const PORTRAIT = window.matchMedia("(max-width: 600px) and (orientation: portrait)");

class Page {
  constructor() {
    this.svg = document.getElementById("board");
    this.model = new Model();
    this.lang = "en";
    this.connected = false;
    this.shut = null;  // the server's refusal of this page for good (a replaced link), else null
    this.pointer = { x: 350, y: 260 };
    this.keys = {};  // what each board layer last drew, so an unchanged layer is not redrawn
    this.served = null;  // the server's board last drawn: checkers that moved since glide
    this.layers = drawBoard(this.svg, { portrait: PORTRAIT.matches });
    PORTRAIT.addEventListener("change", () => {
      this.layers = drawBoard(this.svg, { portrait: PORTRAIT.matches });
      this.keys = {};
      applyLanguage(this.lang, this.svg);
      this.render();
    });
    this.status = new StatusView();
    this.prompt = new PromptView();
    this.facts = new FactsView();
    this.clock = new ClockView();
    this.moves = new MoveListView();
    this.actions = new ActionsView((a) => this.command(a));
    this.helpers = new HelpersView((msg) => this.act(msg));
    this.notices = new NoticesView();
    this.chat = new ChatView((msg) => this.act(msg));
    this.debug = new DebugView();
    // the language can change in the middle of a match: the table speaks it from now on
    document.getElementById("language")?.addEventListener("change", (ev) => this.act({ type: "language", name: ev.target.value }));
    // the tutor too, and the menu's Hint as a button of its own
    document.getElementById("tutor")?.addEventListener("change", (ev) => this.act({ type: "tutor", name: ev.target.value }));
    document.getElementById("hint-ask")?.addEventListener("click", () => this.act({ type: "hint" }));
    this.review = new ReviewView((msg) => this.act(msg), () => this.model.state, () => this.lang);
    this.connection = new Connection(socketUrl(location), {
      state: (msg) => this.onState(msg),
      notice: (msg) => this.onNotice(msg),
      up: (open) => { this.connected = open; this.keys.display = null; this.renderStatus(); },
      shut: (why) => { this.shut = why; this.renderStatus(); },
    });
    this.input = new BoardInput(this.svg, this.model, this.intents());
    this.wireButtons();
    new NewMatchDialog(() => this.model.state, () => this.lang,
                       (settings) => this.act({ type: "new_match", settings }),
                       (settings) => this.act({ type: "online", settings }));
    this.onlineView = new OnlineView(() => this.act({ type: "online_leave" }));
    this.connection.open();
  }

  // ---- actions out ------------------------------------------------------------------
  /** Send one action; the next action clears the notices of the last. */
  act(msg) {
    this.notices.clear();
    if (!this.connection.send(msg)) {
      this.notices.add({ key: "stopped", text: "" }, this.lang);
      return false;
    }
    return true;
  }

  intents() {
    const now = () => performance.now();
    return {
      lift: (cell, colour) => {
        if (this.act({ type: "lift", cell, colour })) this.model.lift(cell, colour, now());
        this.drawBoardLayers();
      },
      place: (cell, colour) => {
        if (this.act({ type: "place", cell, colour })) this.model.place(cell, colour, now());
        this.drawBoardLayers();
      },
      dropOutside: () => this.convenience({ type: "drop_outside" }),
      autoStep: (cell, colour) => this.convenience({ type: "auto_step", cell, colour }),
      cover: (cell) => this.convenience({ type: "cover", cell }),
      slideLift: (cell, colour) => this.act({ type: "lift", cell, colour }),
      slidePlace: (cell, colour) => this.act({ type: "place", cell, colour, slide: true }),
      pointer: (p) => { this.pointer = p; drawHand(this.layers.hand, this.model.hand(), p); },
      cursor: (cell, r) => {
        const c = this.layers.cursor;
        if (!cell) { c.setAttribute("visibility", "hidden"); return; }
        Object.entries({ x: r.x, y: r.y, width: r.w, height: r.h }).forEach(([k, v]) => c.setAttribute(k, v));
        c.setAttribute("visibility", "visible");
        c.dataset.cell = cell;
      },
    };
  }

  /** A gesture whose outcome the server works out: the page shows its snapshot, not a guess. */
  convenience(msg) {
    this.model.forget();
    this.act(msg);
    this.drawBoardLayers();
  }

  /** An action of the Actions list; giving up the whole match, or a game by resigning,
   *  asks first (one tap on a phone must not lose a game: issue 35.8). */
  async command(action) {
    const [side, verb, level] = action.split(" ");
    const who = sideName(this.lang, side);
    const asked = verb === "forfeit" ? [t(this.lang, "ask.forfeit", { s: who }), t(this.lang, "ask.forfeit_yes")]
      : verb === "resign" ? [t(this.lang, "ask.resign", { s: who, level: t(this.lang, `result.${level}`) }),
                             t(this.lang, "ask.resign_yes")]
        : null;
    if (asked !== null && !(await confirmAsk(this.lang, ...asked))) return;
    this.act({ type: "command", name: action });
  }

  wireButtons() {
    document.querySelectorAll("button.hw").forEach((b) => {
      b.addEventListener("click", () => {
        // the real button panel behind it: the menu opens on the display, as on the board
        this.act({ type: "button", name: b.dataset.button });
      });
    });
    document.querySelectorAll("[data-fault]").forEach((b) => {
      b.addEventListener("click", () => this.act({ type: "fault", name: b.dataset.fault }));
    });
    document.getElementById("debug-toggle").addEventListener("click", () => {
      const panel = document.getElementById("debug");
      panel.hidden = !panel.hidden;
      if (this.model.state) this.debug.render(this.model.state.debug ?? {}, this.lang);
      if (!panel.hidden) panel.scrollIntoView({ behavior: "smooth", block: "start" });
    });
  }

  // ---- snapshots in -----------------------------------------------------------------
  onState(msg) {
    this.model.update(msg, performance.now());
    this.render();
  }

  onNotice(msg) {
    this.model.forget();
    this.drawBoardLayers();
    this.notices.add(msg, this.lang);
  }

  render() {
    const state = this.model.state;
    if (!state) return;
    const wanted = normalise(state.settings?.language);
    if (wanted !== this.lang) {
      this.lang = wanted;
      applyLanguage(this.lang);
      this.keys = {};
    }
    const chooser = document.getElementById("language");
    if (chooser && chooser.value !== this.lang) chooser.value = this.lang;
    const tutor = document.getElementById("tutor");
    if (tutor && state.settings?.tutor && tutor.value !== state.settings.tutor) tutor.value = state.settings.tutor;
    document.getElementById("hint-ask").hidden = !state.hint_ask;
    document.body.classList.toggle("spectator", Boolean(state.spectator));  // a spectator's page: nothing to press
    // the board's own page (a phone at the real board): no virtual board's debug panel or helping hands
    document.body.classList.toggle("board-page", Boolean(state.board_page));
    const sub = document.querySelector("header .sub");
    // which page this is: the board's own (a phone at the real board), a spectator's, or the simulator
    const kind = state.board_page ? ".board" : state.spectator ? ".spectator" : "";
    const subKey = "sub" + kind;
    if (sub.dataset.i18n !== subKey) { sub.dataset.i18n = subKey; sub.textContent = t(this.lang, subKey); }
    const title = t(this.lang, "title" + kind);  // the tab says it too
    if (document.title !== title) document.title = title;
    this.drawBoardLayers();
    this.renderStatus();
    this.renderDisplay(state);
    for (const view of [this.prompt, this.facts, this.clock, this.moves, this.actions, this.helpers, this.chat,
                        this.review, this.onlineView]) {
      view.render(state, this.lang);
    }
    markLiveButtons(state.possible ?? []);
    renderDice(state, this.lang, (msg) => this.act(msg));
    this.debug.render(state.debug ?? {}, this.lang);
    this.svg.dataset.ready = "1";
  }

  renderStatus() {
    this.status.render(Boolean(this.model.state?.debug?.online), this.connected, this.lang, this.shut);
  }

  /** The display's image, fetched only when the display drew a new frame. */
  renderDisplay(state) {
    const version = state.display?.version;
    if (version === undefined || this.keys.display === version) return;
    this.keys.display = version;
    document.getElementById("oled").src = `/display.png?v=${version}`;
  }

  /** Redraw the board layers whose input changed (the whole SVG is not rebuilt per snapshot). */
  drawBoardLayers() {
    const state = this.model.state;
    if (!state) return;
    const layers = this.layers;
    const board = this.model.board();
    const turn = state.match?.turn ?? null;
    if (this.changed("checkers", board, turn)) {
      drawCheckers(layers.checkers, board, turn);
      const served = state.board ?? {};
      if (this.served) animateFlights(layers.checkers, flights(this.served, served), served);
      this.served = served;
    }
    if (this.changed("leds", state.leds)) drawLeds(layers, state.leds ?? {}, state.led_counts ?? {});
    const botColour = Object.values(state.leds ?? {}).find((l) => l.role === "bot-to")?.color ?? "#00e0ff";
    if (this.changed("arrows", state.bot_move, botColour)) drawArrows(layers.arrows, state.bot_move ?? [], botColour);
    const m = state.match ?? {};
    const facts = { dice: state.dice_view ?? [], cube: state.cube_view ?? null, pips: state.pips_view ?? m.pips ?? null, turn,
                    names: { white: sideName(this.lang, "white"), black: sideName(this.lang, "black") } };
    if (this.changed("table", facts)) drawTableFacts(layers, facts);
    drawHand(layers.hand, this.model.hand(), this.pointer);
  }

  changed(layer, ...parts) {
    const key = JSON.stringify(parts);
    if (this.keys[layer] === key) return false;
    this.keys[layer] = key;
    return true;
  }
}

new Page();

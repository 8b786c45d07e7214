// The review panel: after each finished game, each player's PR and rating, the graph of
// White's chance to win the game before each move (a line per game, the games side by
// side, a dashed line between two games), and the marked decisions in match order, each
// with "Set up on the board". The snapshot says only whether the review changed
// (`review.version`); the panel then fetches /review.json (controller/web/review_page.py).

import { confirmAsk, matchRunning } from "./dialogs.js";
import { sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const W = 600, H = 160, PAD = 18;
//: the plot starts right of the axis labels ("100%" is about 25 px of 10 px type: at PAD it
//: ran into the plot and "50%" sat on the even line, issue 35.13)
const LEFT = 34;
/** gnubg's ratings (as `bgboard analyze` names them) -> page keys */
const RATINGS = { "Supernatural": "supernatural", "World class": "world_class", "Expert": "expert",
                  "Advanced": "advanced", "Intermediate": "intermediate", "Casual player": "casual",
                  "Beginner": "beginner", "Awful!": "awful", "n/a": "none" };

/** Two moves written gnubg's way are the same move when they have the same parts in any order
 * ("24/18 13/11" is "13/11 24/18"). */
function sameMove(a, b) {
  const parts = (x) => String(x ?? "").trim().toLowerCase().split(/\s+/).sort().join(" ");
  return parts(a) !== "" && parts(a) === parts(b);
}

function svgEl(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The graph: x = each point in match order, y = White's chance (top 100 %). */
export function drawGraph(svg, series, lang) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const x = (i) => LEFT + (series.length > 1 ? (i * (W - LEFT - PAD)) / (series.length - 1) : 0);
  const y = (p) => PAD + (1 - p) * (H - 2 * PAD);
  svg.append(svgEl("line", { x1: LEFT, x2: W - PAD, y1: y(0.5), y2: y(0.5), class: "even" }));
  for (const [p, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
    const text = svgEl("text", { x: LEFT - 4, y: y(p) + 4, class: "axis", "text-anchor": "end" });
    text.textContent = label;
    svg.append(text);
  }
  let path = "";
  series.forEach((point, i) => {
    const next = series[i + 1];
    path += `${path && series[i - 1]?.game === point.game ? "L" : "M"}${x(i).toFixed(1)},${y(point.white).toFixed(1)} `;
    if (next && next.game !== point.game) {  // a game boundary
      const bx = (x(i) + x(i + 1)) / 2;
      svg.append(svgEl("line", { x1: bx, x2: bx, y1: PAD / 2, y2: H - PAD / 2, class: "game-boundary",
                                 "data-game": next.game }));
    }
  });
  svg.append(svgEl("path", { d: path.trim(), class: "chance" }));
  const title = svgEl("title", {});
  title.textContent = t(lang, "review.graph_title");
  svg.append(title);
}

export class ReviewView {
  /** @param {(msg: object) => void} act  sends a page action */
  constructor(act, getState, getLang) {
    this.act = act;
    this.getState = getState;
    this.getLang = getLang;
    this.version = null;
    this.data = null;
    this.lang = null;
    $("review-back").addEventListener("click", () => this.act({ type: "back_to_match" }));
    $("practice-back").addEventListener("click", () => this.act({ type: "back_to_match" }));
    this.practising = null;
  }

  render(state, lang) {
    const summary = state.review ?? null;
    $("review-box").hidden = !summary;
    const version = summary?.version ?? null;
    if (version !== this.version) {
      this.version = version;
      if (version !== null) this.fetch(version);
    }
    $("review-back").hidden = !summary?.practice;
    if (this.data && this.lang !== lang) this.draw(lang);
    this.banner(state, lang);
  }

  /** A practice says so over the board: which decision, then (once it is answered on the
   * board) the answer beside gnubg's best and what was played in the match. A practice
   * just started brings the board into view (the Set up button is far below it). */
  banner(state, lang) {
    const key = state.review?.practice ?? null;
    const started = key !== null && key !== this.practising;
    this.practising = key;
    const d = key === null ? null : (this.data?.marked ?? []).find((m) => m.key === key);
    $("practice-banner").hidden = !d;
    if (!d) return;
    const dice = d.dice ? ` ${d.dice.join("-")}` : "";
    $("practice-what").textContent = t(lang, "practice.what", { g: d.game, m: d.move, s: sideName(lang, d.player), d: dice });
    const done = (state.moves ?? []).find((e) => !e.current && e.side === d.player);
    const box = $("practice-answer");
    box.hidden = !done;
    if (done) {
      const yours = done.kind === "move" ? done.notation || t(lang, "moves.none") : t(lang, `moves.${done.kind}`, { v: done.value, level: "" });
      const right = sameMove(yours, d.best);
      box.className = right ? "right" : "";
      box.textContent = t(lang, right ? "practice.right" : "practice.answer",
                          { yours, best: d.best, played: d.played, loss: d.equity_loss.toFixed(3) });
    }
    if (started) document.querySelector(".table")?.scrollIntoView({ block: "start" });
  }

  async fetch(version) {
    try {
      const response = await fetch(`/review.json?v=${encodeURIComponent(version)}`, { cache: "no-store" });
      if (!response.ok || this.version !== version) return;
      this.data = await response.json();
      this.draw(this.getLang());
    } catch (err) {
      // the simulator stopped meanwhile: the next snapshot asks again
    }
  }

  draw(lang) {
    this.lang = lang;
    const data = this.data;
    const players = (data.players ?? []).map((p, i) => {
      const side = i === 0 ? "white" : "black";
      const pr = p.checker.unforced + p.cube.close > 0 ? p.overall.pr.toFixed(1) : "–";
      return t(lang, "review.player", { s: sideName(lang, side), pr, rating: t(lang, `review.rating.${RATINGS[p.overall.rating] ?? "none"}`) });
    });
    $("review-players").textContent = players.join(" · ");
    $("review-games").textContent = t(lang, data.games === 1 ? "review.games_one" : "review.games",
                                      { n: data.games, judge: data.judged_as ?? "gnubg" });
    drawGraph($("review-graph"), data.series ?? [], lang);
    const rows = (data.marked ?? []).map((d) => this.row(d, data.practice, lang));
    $("review-list").replaceChildren(...rows);
    $("review-none").hidden = rows.length > 0;
  }

  row(d, practice, lang) {
    const tr = document.createElement("tr");
    tr.dataset.key = d.key;
    tr.className = `mark-${d.mark.replace(" ", "-")}` + (practice === d.key ? " practising" : "");
    const dice = d.dice ? d.dice.join("") : "";
    const cells = [`${d.game}.${d.move}`, sideName(lang, d.player), dice, d.played, d.best,
                   `−${d.equity_loss.toFixed(3)}`, t(lang, `review.mark.${d.mark}`)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const td = document.createElement("td");
    const b = document.createElement("button");
    b.type = "button"; b.className = "review-setup"; b.textContent = t(lang, "review.setup");
    b.dataset.key = d.key;
    b.onclick = () => this.setUp(d);
    td.append(b);
    tr.append(td);
    return tr;
  }

  /** Asks first while a match is being played (it is saved and can be gone back to). */
  async setUp(d) {
    const lang = this.getLang();
    const state = this.getState();
    if (!state?.review?.practice && matchRunning(state)) {
      const ok = await confirmAsk(lang, t(lang, "ask.practice", { g: d.game, m: d.move }), t(lang, "ask.practice_yes"));
      if (!ok) return;
    }
    this.act({ type: "practice", key: d.key });
  }
}

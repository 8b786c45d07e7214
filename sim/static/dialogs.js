// The page's two dialogs: New match (filled with the current settings) and a yes/no
// question asked before anything that throws a running match away (a forfeit, a new match
// over one that is being played).

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** Ask `question`; resolves true when the player says yes. */
export function confirmAsk(lang, question, yes) {
  const dialog = $("confirm");
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = t(lang, "dlg.cancel");
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

/** Whether a match is being played (a new one would discard it). */
export function matchRunning(state) {
  const m = state?.match;
  if (!m || m.state === "over") return false;
  const scored = (m.score?.white ?? 0) + (m.score?.black ?? 0) > 0;
  const begun = (state.moves ?? []).length > 0 || !["setup", "opening"].includes(m.state);
  return scored || begun;
}

export class NewMatchDialog {
  /** @param {(settings: object) => void} start  called with the chosen settings */
  constructor(getState, getLang, start) {
    this.dialog = $("new-match");
    this.form = $("new-match-form");
    $("new-match-open").addEventListener("click", () => this.open(getState()));
    this.dialog.addEventListener("close", async () => {
      if (this.dialog.returnValue !== "start") return;
      const settings = Object.fromEntries(new FormData(this.form).entries());
      settings.length = Number(settings.length);
      const state = getState();
      if (matchRunning(state)) {
        const m = state.match;
        const lang = getLang();
        const ok = await confirmAsk(lang, t(lang, "ask.new_match", { w: m.score?.white ?? 0, b: m.score?.black ?? 0, n: m.length }),
                                    t(lang, "ask.new_match_yes"));
        if (!ok) return;
      }
      start(settings);
    });
  }

  open(state) {
    const s = state?.settings ?? {};
    // by name, not form.elements[k]: "length" there is the number of fields, not the input
    for (const [k, v] of Object.entries(s)) {
      const field = this.form.querySelector(`[name="${k}"]`);
      if (field) field.value = String(v);
    }
    this.dialog.showModal();
  }
}

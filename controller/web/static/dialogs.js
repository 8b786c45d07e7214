// The page's two dialogs: New match (filled with the current settings; a match here, or
// online on bgammon.org) and a yes/no question asked before anything that throws a running
// match away (a forfeit, a new match over one that is being played).

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

/** The Opponent choices: a person, then every computer level the machine offers
 * (`state.levels`); a level whose backend this machine lacks is shown, disabled, with
 * what it lacks, so nobody wonders where world class went. */
function fillOpponents(select, levels, lang) {
  if (!select || !levels) return;
  const person = select.querySelector('option[value="human"]');
  select.replaceChildren(person);
  for (const { name, missing } of levels) {
    const option = document.createElement("option");
    option.value = name;
    const level = t(lang, `level.${name}`);
    // what a level is, where its name does not say it (expert is GNU Backgammon itself)
    const about = t(lang, `about.${name}`);
    option.textContent = t(lang, "opt.computer", { level }) + (about === `about.${name}` ? "" : ` (${about})`);
    if (missing) {
      option.disabled = true;
      option.textContent = t(lang, "opt.computer", { level: t(lang, "opt.missing", { level }) });
      option.title = missing;
    }
    select.append(option);
  }
}

/** The named fields of one fieldset of the form, as {name: value} (numbers stay text). */
function fieldsOf(fieldset) {
  const out = {};
  for (const field of fieldset.querySelectorAll("[name]")) out[field.name] = field.value;
  return out;
}

export class NewMatchDialog {
  /** @param {(settings: object) => void} start  called with the chosen settings of a match here
   *  @param {(settings: object) => void} startOnline  called with the online choice (server, login, match...) */
  constructor(getState, getLang, start, startOnline) {
    this.dialog = $("new-match");
    this.form = $("new-match-form");
    this.where = $("dlg-where");
    this.local = $("local-fields");
    this.online = $("online-fields");
    $("new-match-open").addEventListener("click", () => this.open(getState(), getLang()));
    this.where.addEventListener("change", () => this.showFields());
    $("dlg-online-match").addEventListener("change", () => this.showFields());
    this.dialog.addEventListener("close", async () => {
      if (this.dialog.returnValue !== "start") return;
      if (this.where.value === "online") {
        // the match played here is saved first and comes back on leaving: nothing to ask
        startOnline(fieldsOf(this.online));
        return;
      }
      const settings = fieldsOf(this.local);
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

  /** Only the fields of the chosen kind of match (and of the chosen online match) show. */
  showFields() {
    const online = this.where.value === "online";
    this.local.hidden = online;
    this.online.hidden = !online;
    const match = $("dlg-online-match").value;
    if (match === "resume" && this.saved) this.online.querySelector('[name="server"]').value = this.saved.server;
    this.online.querySelector(".online-create").hidden = ["join", "watch", "resume"].includes(match);
    this.online.querySelector(".online-join").hidden = match !== "join" && match !== "watch";
    this.online.querySelector(".online-private").hidden = match === "public" || match === "resume";
  }

  open(state, lang) {
    const s = state?.settings ?? {};
    fillOpponents(this.local.querySelector('[name="opponent"]'), state?.levels, lang);
    // by name, not form.elements[k]: "length" there is the number of fields, not the input
    for (const [k, v] of Object.entries(s)) {
      const field = this.local.querySelector(`[name="${k}"]`);
      if (field) field.value = String(v);
    }
    const online = state?.online_play ?? {};
    const server = this.online.querySelector('[name="server"]');
    if (!server.dataset.edited && online.default_server) server.value = online.default_server;
    server.oninput = () => { server.dataset.edited = "1"; };
    const user = $("dlg-login-user");
    user.disabled = !online.user;
    user.textContent = online.user ? t(lang, "opt.user", { u: online.user }) : t(lang, "opt.no_user");
    if (user.disabled) this.online.querySelector('[name="login"]').value = "guest";
    // a match a restart interrupted (its server, its number) can be rejoined
    const [savedServer, savedMatch] = (online.saved || "").split(" ");
    this.saved = savedMatch ? { server: savedServer, match: savedMatch } : null;
    const resume = $("dlg-resume");
    resume.hidden = resume.disabled = !this.saved;
    if (this.saved) resume.textContent = t(lang, "opt.resume", { n: savedMatch, server: savedServer });
    else if ($("dlg-online-match").value === "resume") $("dlg-online-match").value = "public";
    this.showFields();
    this.dialog.showModal();
  }
}

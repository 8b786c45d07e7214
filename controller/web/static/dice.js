// The dice panel: which dice the match uses, the verifiable dice's commitment (whole and as
// a QR code) and reveal, the players' phrases, two rows of die faces for real dice entered
// at the board, and each player's dice statistics beside fair dice. Its words are its own
// (English, Danish, Swedish), so the panel is one module beside app.js.

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

const WORDS = {
  en: {
    title: "Dice", "mode.board": "Dice: the board's random dice (nothing to verify).",
    "mode.entered": "Dice: real dice, entered at the board.",
    "mode.server": "Dice: rolled by the online server.",
    "mode.verifiable": "Dice: verifiable. The board committed to its seed before the match:",
    revealed: "Seed revealed: check it with bgboard verify-dice on the record.",
    reveal: "Reveal the seed now (ends the guarantee)", seed: "Seed", phrase: "phrase",
    "phrase.give": "Give", "phrase.hint": "Each player may add a phrase before the first roll.",
    "entry.first": "First die", "entry.second": "Second die", "entry.white": "White's die",
    "entry.black": "Black's die", "entry.hint": "Rolled real dice? Click each die's face.",
    stats: "Dice statistics", fair: "fair", doubles: "doubles", rolls: "rolls",
    "p.faces": "p (numbers)", "p.doubles": "p (doubles)", white: "White", black: "Black",
    "reveal.ask": "Reveal the seed? The rolls so far can then be checked, but the rest of this match rolls ordinary dice: the seed's next rolls would be known to anyone.",
    "reveal.yes": "Reveal the seed", "reveal.no": "Keep it secret",
    ended: "Revealed during the match: the first {n} rolls can be checked; the rest of the match rolls ordinary dice.",
    "phrase.given": "phrase mixed in ✓", "p.none": "– until there are enough rolls: 15 for the numbers, 30 for the doubles.",
    "stats.hint": "p is the chance that fair dice look at least this uneven; opening rolls are not counted.",
  },
  da: {
    title: "Terninger", "mode.board": "Terninger: brættets tilfældige terninger (intet at efterprøve).",
    "mode.entered": "Terninger: rigtige terninger, indtastet ved brættet.",
    "mode.server": "Terninger: slået af onlineserveren.",
    "mode.verifiable": "Terninger: efterprøvelige. Brættet bandt sig til sit frø før matchen:",
    revealed: "Frøet er afsløret: efterprøv det med bgboard verify-dice på referatet.",
    reveal: "Afslør frøet nu (garantien ophører)", seed: "Frø", phrase: "frase",
    "phrase.give": "Giv", "phrase.hint": "Hver spiller kan tilføje en frase før første slag.",
    "entry.first": "Første terning", "entry.second": "Anden terning", "entry.white": "Hvids terning",
    "entry.black": "Sorts terning", "entry.hint": "Slået med rigtige terninger? Klik hver terning.",
    stats: "Terningstatistik", fair: "retfærdig", doubles: "dobbeltslag", rolls: "slag",
    "p.faces": "p (tal)", "p.doubles": "p (dobbeltslag)", white: "Hvid", black: "Sort",
    "reveal.ask": "Afslør frøet? Slagene indtil nu kan efterprøves, men resten af matchen slås med almindelige terninger: frøets næste slag ville være kendt af alle.",
    "reveal.yes": "Afslør frøet", "reveal.no": "Hold det hemmeligt",
    ended: "Afsløret under matchen: de første {n} slag kan efterprøves; resten af matchen slås med almindelige terninger.",
    "phrase.given": "frase blandet ind ✓", "p.none": "– indtil der er slag nok: 15 for tallene, 30 for dobbeltslagene.",
    "stats.hint": "p er chancen for at retfærdige terninger ser mindst så skæve ud; åbningsslag tælles ikke.",
  },
  sv: {
    title: "Tärningar", "mode.board": "Tärningar: brädets slumptärningar (inget att kontrollera).",
    "mode.entered": "Tärningar: riktiga tärningar, inmatade vid brädet.",
    "mode.server": "Tärningar: slagna av onlineservern.",
    "mode.verifiable": "Tärningar: verifierbara. Brädet band sig vid sitt frö före matchen:",
    revealed: "Fröet är avslöjat: kontrollera det med bgboard verify-dice på protokollet.",
    reveal: "Avslöja fröet nu (garantin upphör)", seed: "Frö", phrase: "fras",
    "phrase.give": "Ge", "phrase.hint": "Var spelare får lägga till en fras före första slaget.",
    "entry.first": "Första tärningen", "entry.second": "Andra tärningen", "entry.white": "Vits tärning",
    "entry.black": "Svarts tärning", "entry.hint": "Slog du riktiga tärningar? Klicka på varje tärning.",
    stats: "Tärningsstatistik", fair: "rättvis", doubles: "dubbelslag", rolls: "slag",
    "p.faces": "p (tal)", "p.doubles": "p (dubbelslag)", white: "Vit", black: "Svart",
    "reveal.ask": "Avslöja fröet? Slagen hittills kan kontrolleras, men resten av matchen slås med vanliga tärningar: fröets nästa slag skulle vara kända för alla.",
    "reveal.yes": "Avslöja fröet", "reveal.no": "Håll det hemligt",
    ended: "Avslöjat under matchen: de första {n} slagen kan kontrolleras; resten av matchen slås med vanliga tärningar.",
    "phrase.given": "fras inblandad ✓", "p.none": "– tills det finns slag nog: 15 för talen, 30 för dubbelslagen.",
    "stats.hint": "p är chansen att rättvisa tärningar ser minst så skeva ut; öppningsslag räknas inte.",
  },
};

function w(lang, key) { return (WORDS[lang] ?? WORDS.en)[key] ?? WORDS.en[key] ?? key; }

let chosen = [null, null];  // the die faces clicked in the two entry rows
let shownKey = "";

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(e.dataset, v); else if (k === "on") e.onclick = v; else e[k] = v;
  }
  e.append(...children);
  return e;
}

function pText(p) { return p === null || p === undefined ? "–" : p < 0.001 ? p.toExponential(1) : p.toFixed(3); }

function entryRows(lang, opening, send) {
  const labels = opening ? [w(lang, "entry.white"), w(lang, "entry.black")] : [w(lang, "entry.first"), w(lang, "entry.second")];
  return labels.map((label, row) => el("div", { className: "die-row", dataset: { dieRow: String(row) } },
    el("span", { className: "die-label", textContent: label }),
    ...FACES.map((face, i) => el("button", {
      type: "button", className: "die-face" + (chosen[row] === i + 1 ? " chosen" : ""), textContent: face,
      title: String(i + 1), dataset: { face: String(i + 1) },
      on: () => {
        chosen[row] = i + 1;
        if (chosen[0] && chosen[1]) { send({ type: "dice", dice: [chosen[0], chosen[1]] }); chosen = [null, null]; }
        // the first die alone: the display, asking for the dice, asks for the second now
        else if (row === 0) send({ type: "die", die: chosen[0] });
        shownKey = "";  // redraw the rows with the choice marked
        render(lastState, lastLang, send);
      },
    }))));
}

function statsTable(lang, stats) {
  const sides = ["white", "black"];
  const head = el("tr", {}, el("th"), ...sides.map((s) => el("th", { textContent: w(lang, s) })), el("th", { textContent: w(lang, "fair") }));
  const rows = [head];
  const fair = (side, key) => stats[side]?.[key] ?? 0;
  for (let face = 1; face <= 6; face++) {
    rows.push(el("tr", {}, el("th", { textContent: FACES[face - 1] }),
      ...sides.map((s) => el("td", { textContent: String(stats[s]?.faces?.[face - 1] ?? 0) })),
      el("td", { textContent: sides.map((s) => fair(s, "expected_face").toFixed(1)).join(" / ") })));
  }
  rows.push(el("tr", {}, el("th", { textContent: w(lang, "doubles") }),
    ...sides.map((s) => el("td", { textContent: String(stats[s]?.doubles ?? 0) })),
    el("td", { textContent: sides.map((s) => fair(s, "expected_doubles").toFixed(1)).join(" / ") })));
  rows.push(el("tr", {}, el("th", { textContent: w(lang, "rolls") }), ...sides.map((s) => el("td", { textContent: String(stats[s]?.rolls ?? 0) })), el("td")));
  rows.push(el("tr", { className: "p-faces" }, el("th", { textContent: w(lang, "p.faces") }), ...sides.map((s) => el("td", { textContent: pText(stats[s]?.p_faces) })), el("td")));
  rows.push(el("tr", { className: "p-doubles" }, el("th", { textContent: w(lang, "p.doubles") }), ...sides.map((s) => el("td", { textContent: pText(stats[s]?.p_doubles) })), el("td")));
  return el("table", { className: "facts dice-stats", id: "dice-stats" }, ...rows);
}

function phraseRows(lang, send, dice) {
  // only the people give phrases (the computer's would be the board's own choice); a phrase
  // given is acknowledged beside its row (its words are shown with the seed, at the reveal)
  return (dice.phrase_sides ?? ["white", "black"]).map((side) => {
    const input = el("input", { type: "text", maxLength: 60, id: `dice-phrase-${side}` });
    const given = dice.phrases_given?.[side]
      ? [el("span", { className: "dice-phrase-given", id: `dice-phrase-given-${side}`, textContent: ` ${w(lang, "phrase.given")}` })] : [];
    return el("div", { className: "dice-phrase" }, el("label", { textContent: `${w(lang, side)} ${w(lang, "phrase")} ` }, input),
      el("button", { type: "button", textContent: w(lang, "phrase.give"), dataset: { phrase: side },
        on: () => send({ type: "phrase", side, text: input.value }) }), ...given);
  });
}

let lastState = null;
let lastLang = "en";
let askingReveal = false;  // the reveal's question is on the panel: the seed ends the guarantee

function revealParts(lang, send) {
  const ask = () => { askingReveal = true; shownKey = ""; render(lastState, lastLang, send); };
  if (!askingReveal) return [el("button", { type: "button", id: "dice-reveal", textContent: w(lang, "reveal"), on: ask })];
  const answer = (yes) => () => {
    askingReveal = false; shownKey = "";
    if (yes) send({ type: "reveal" }); else render(lastState, lastLang, send);
  };
  return [el("div", { id: "dice-reveal-ask", className: "dice-reveal-ask" }, el("p", { textContent: w(lang, "reveal.ask") }),
    el("button", { type: "button", id: "dice-reveal-yes", textContent: w(lang, "reveal.yes"), on: answer(true) }),
    el("button", { type: "button", id: "dice-reveal-no", textContent: w(lang, "reveal.no"), on: answer(false) }))];
}

/** Draw the panel for snapshot `state` in `lang`; `send` sends a message to the server. */
export function render(state, lang, send) {
  lastState = state; lastLang = lang;
  const box = document.getElementById("dice-panel");
  const dice = state?.dice_panel;
  if (!box || !dice) return;
  const m = state.match ?? {};
  const entering = dice.mode === "entered" && (m.state === "opening" || m.state === "roll");
  const key = JSON.stringify([lang, dice, entering, m.state, askingReveal]);
  if (key === shownKey) return;
  shownKey = key;
  const parts = [el("h3", { textContent: w(lang, "title") }), el("p", { id: "dice-mode", textContent: w(lang, `mode.${dice.mode}`) })];
  const c = dice.commitment;
  if (c) {
    const qr = el("div", { id: "dice-qr", className: "dice-qr" });
    qr.innerHTML = c.qr_svg;  // made by the server (segno) from the commitment's hex digits
    parts.push(el("code", { id: "dice-commitment", className: "mono dice-hex", textContent: c.hex }), qr);
    if (c.revealed) {
      askingReveal = false;
      parts.push(el("p", { id: "dice-revealed", textContent: w(lang, "revealed") }),
        el("code", { id: "dice-seed", className: "mono dice-hex", textContent: `${w(lang, "seed")}: ${c.seed}` }));
      for (const side of ["white", "black"]) {
        if (c.phrases?.[side]) parts.push(el("p", { className: "dice-phrase-shown", textContent: `${w(lang, side)}: “${c.phrases[side]}”` }));
      }
      if (c.verified_rolls !== null && c.verified_rolls !== undefined) {
        parts.push(el("p", { id: "dice-ended", textContent: w(lang, "ended").replace("{n}", String(c.verified_rolls)) }));
      }
    } else {
      if (dice.phrases_open) parts.push(el("p", { textContent: w(lang, "phrase.hint") }), ...phraseRows(lang, send, dice));
      parts.push(...revealParts(lang, send));
    }
  }
  if (entering) {
    parts.push(el("div", { id: "dice-entry" }, el("p", { textContent: w(lang, "entry.hint") }), ...entryRows(lang, m.state === "opening", send)));
  }
  parts.push(el("h3", { textContent: w(lang, "stats") }), statsTable(lang, dice.stats ?? {}),
    el("p", { className: "hint", textContent: w(lang, "stats.hint") }),
    el("p", { className: "hint", id: "dice-p-none", textContent: w(lang, "p.none") }));
  box.replaceChildren(...parts);
}

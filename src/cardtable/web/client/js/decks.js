// The deck builder: Zeta decks of 25 cards within the copy limits (live validation by the server's
// checks, ZETA-R6), card names as skins (cost and effect stay), deck files (TOML) saved and loaded;
// and Utahime option-card loadouts within the budget of 28 (UTA-R2), saved and loaded the same way.
import { download, h, readFile, render } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { api, draft, keepDecks, keepDraft, keepOptionSetups, savedDecks, savedOptionSetups } from "./api.js";
import { button, errorBox, field, openRules } from "./ui.js";

const D = {
  container: null, tab: "zeta", cards: [], presets: [], error: null, notice: null,
  deck: { name: "my deck", cards: {}, names: {} }, rules: { deck_size: 25, construction_limits: true }, check: null, timer: null,
  importText: "", importResult: null,
  sets: [], budget: 28, maxCopies: 2, setName: "designer_example", customToml: "", customSet: null,
  loadouts: [[], []], heroes: [null, null], optCheck: null, setupName: "my setup", optImport: "", optImportResult: null,
};

function saveDraft() {
  keepDraft("decks", { deck: D.deck, rules: D.rules, setName: D.setName, customToml: D.customToml, loadouts: D.loadouts,
    heroes: D.heroes, setupName: D.setupName, tab: D.tab });
}

async function start(container, params, query) {
  D.container = container;
  const saved = draft("decks");
  if (saved) Object.assign(D, saved);
  if (query.get("tab")) D.tab = query.get("tab") === "utahime" ? "utahime" : "zeta";
  draw();
  try {
    const [cards, decks, options] = await Promise.all([api("GET", "/web/cards"), api("GET", "/web/decks/zeta"), api("GET", "/web/options/utahime")]);
    D.cards = cards.zeta;
    D.presets = decks.presets;
    D.sets = options.sets;
    D.budget = options.budget;
    D.maxCopies = options.max_copies;
  } catch (e) {
    D.error = e;
  }
  if (!saved && D.sets.length) {
    D.loadouts = D.sets[0].loadouts.map((x) => [...x]);
    D.heroes = [...D.sets[0].heroes_chosen];
  }
  await checkDeck();
  await checkOptions();
  draw();
}

// -- Zeta ----------------------------------------------------------------------------------------------
function cardName(c) { return language() === "ja" ? c.japanese : c.english; }

function total() { return Object.values(D.deck.cards).reduce((a, b) => a + Number(b || 0), 0); }

async function checkDeck() {
  try {
    const deck = { name: D.deck.name || "deck", cards: D.deck.cards, names: Object.fromEntries(Object.entries(D.deck.names || {}).filter(([, v]) => v && v.trim())) };
    D.check = await api("POST", "/web/decks/zeta/check", { deck, rules: D.rules });
  } catch (e) {
    D.check = { ok: false, problems: [{ code: "shape", message: e.message }], size: total() };
  }
}

function changed() {
  saveDraft();
  clearTimeout(D.timer);
  D.timer = setTimeout(async () => { await checkDeck(); draw(); }, 120);
  draw();
}

function setCount(id, n) {
  const next = Math.max(0, Math.min(60, n));
  if (next) D.deck.cards[id] = next;
  else delete D.deck.cards[id];
  changed();
}

/** A deck problem in the page language (the server's message for what has no words here). */
function problemText(p) {
  const card = D.cards.find((c) => c.id === p.card);
  const name = card ? cardName(card) : p.card;
  if (p.code === "size") {
    const diff = p.count - p.limit;
    return diff > 0 ? tn("{count} cards, but a deck holds exactly {size}: remove {n}.", "{count} cards, but a deck holds exactly {size}: remove {n}.", diff,
      { count: p.count, size: p.limit })
      : tn("{count} cards, but a deck holds exactly {size}: add {n}.", "{count} cards, but a deck holds exactly {size}: add {n}.", -diff,
        { count: p.count, size: p.limit });
  }
  if (p.code === "limit") return t("{card}: {count} copies, the limit is {limit}: remove {n}.", { card: name, count: p.count, limit: p.limit, n: p.count - p.limit });
  return p.message;
}

function loadDeck(deck) {
  D.deck = { name: deck.name || "deck", cards: { ...(deck.cards || {}) }, names: { ...(deck.names || {}) } };
  changed();
}

function saveDeck() {
  const list = savedDecks().filter((d) => d.name !== D.deck.name);
  list.push({ name: D.deck.name, cards: D.deck.cards, names: D.check && D.check.deck ? D.check.deck.names : {} });
  keepDecks(list);
  D.notice = t("Saved in this browser as “{name}”.", { name: D.deck.name });
  draw();
  return list.length - 1;
}

function useDeck() {
  const index = saveDeck();
  const lobby = draft("lobby") || {};
  keepDraft("lobby", { ...lobby, game: "zeta", decks: ["saved:" + index, (lobby.decks || [])[1] || "classic"], seats: lobby.seats || ["me", "bot:normal"],
    players: 2, flags: D.rules.construction_limits && D.rules.deck_size === 25 ? lobby.flags || {} : { ...(lobby.flags || {}),
      ...(D.rules.construction_limits ? {} : { construction_limits: false }), ...(D.rules.deck_size !== 25 ? { deck_size: D.rules.deck_size } : {}) } });
  location.href = "/";
}

async function importDeck(text) {
  try {
    D.importResult = await api("POST", "/web/decks/zeta/check", { toml: text, rules: D.rules });
    if (D.importResult.deck) loadDeck(D.importResult.deck);
  } catch (e) {
    D.importResult = { ok: false, problems: [{ message: e.message }] };
  }
  draw();
}

function zetaTab() {
  const size = total();
  const limitOn = D.rules.construction_limits;
  const rows = D.cards.map((c) => {
    const n = Number(D.deck.cards[c.id] || 0);
    const skin = h("input", { class: "input skin", maxlength: 40, value: (D.deck.names || {})[c.id] || "", placeholder: cardName(c),
      dataset: { key: "skin-" + c.id }, "aria-label": t("Name for {card}", { card: cardName(c) }) });
    skin.addEventListener("input", () => {
      D.deck.names = D.deck.names || {};
      if (skin.value.trim()) D.deck.names[c.id] = skin.value;
      else delete D.deck.names[c.id];
      saveDraft();
      clearTimeout(D.timer);
      D.timer = setTimeout(async () => { await checkDeck(); drawSummary(); }, 300);
    });
    const over = limitOn && n > c.limit;
    return h("tr", { class: [n ? "has" : "", over ? "over" : ""], dataset: { card: c.id } },
      h("td", null, h("span", { class: "cost" }, String(c.cost))),
      h("td", null, h("strong", null, cardName(c)), h("div", { class: "small muted" }, language() === "ja" ? c.english : c.japanese, " · ",
        c.fanfare ? t("Fanfare") : c.continuous ? t("continuous") : t("no effect"), " · ",
        h("button", { type: "button", class: "rule-link", on: { click: () => openRules("zeta", c.rule) } }, c.rule))),
      h("td", { class: "effect-col small" }, t(c.effect)),
      h("td", null, h("span", { class: "stepper" },
        h("button", { type: "button", "aria-label": t("One fewer {card}", { card: cardName(c) }), disabled: n === 0, dataset: { key: "minus-" + c.id },
          on: { click: () => setCount(c.id, n - 1) } }, "−"),
        h("output", { "aria-live": "polite" }, String(n)),
        h("button", { type: "button", "aria-label": t("One more {card}", { card: cardName(c) }),
          dataset: { key: "plus-" + c.id }, on: { click: () => setCount(c.id, n + 1) } }, "+")),
      h("div", { class: ["small", over ? "" : "muted"] }, t("limit {n}", { n: c.limit }))),
      h("td", null, skin));
  });
  return h("div", { class: "deck-grid" },
    h("section", { class: "card" },
      h("h2", null, t("Cards")),
      h("p", { class: "muted small" }, t("Pick {size} cards. Names are skins: a renamed card keeps its cost and effect.", { size: D.rules.deck_size })),
      h("div", { class: "table-wrap" }, h("table", { class: "deck-table" },
        h("thead", null, h("tr", null, h("th", null, t("Cost")), h("th", null, t("Card")), h("th", { class: "effect-col" }, t("Effect")),
          h("th", null, t("Copies")), h("th", null, t("Your name for it")))),
        h("tbody", null, rows)))),
    h("div", { class: "sticky", id: "deck-summary" }, summary(size)));
}

function summary(size) {
  const check = D.check;
  const ok = check && check.ok;
  const name = h("input", { class: "input", maxlength: 64, value: D.deck.name, dataset: { key: "deck-name" }, id: "deck-name" });
  name.addEventListener("input", () => { D.deck.name = name.value; saveDraft(); });
  name.addEventListener("change", () => changed());
  const preset = h("select", { class: "input", dataset: { key: "preset" }, "aria-label": t("Start from a preset") },
    h("option", { value: "" }, t("Start from a preset…")),
    D.presets.map((p) => h("option", { value: p.name }, p.name)));
  preset.addEventListener("change", () => {
    const p = D.presets.find((x) => x.name === preset.value);
    if (p) loadDeck({ ...p.deck, name: p.name + " copy" });
  });
  const limits = h("input", { type: "checkbox", checked: D.rules.construction_limits, dataset: { key: "limits" } });
  limits.addEventListener("change", () => { D.rules.construction_limits = limits.checked; changed(); });
  const deckSize = h("input", { type: "number", class: "input narrow", min: 1, max: 60, value: D.rules.deck_size, dataset: { key: "deck-size" } });
  deckSize.addEventListener("change", () => { D.rules.deck_size = Math.max(1, Math.min(60, Number(deckSize.value) || 25)); changed(); });
  const area = h("textarea", { class: "input mono", rows: 5, placeholder: 'name = "mine"\nchant_practice = 8', dataset: { key: "import" },
    "aria-label": t("Deck file (TOML)") });
  area.value = D.importText;
  area.addEventListener("input", () => { D.importText = area.value; });
  const upload = h("input", { type: "file", accept: ".toml,text/plain", "aria-label": t("Upload a deck file"), class: "file" });
  upload.addEventListener("change", async () => { if (upload.files[0]) { D.importText = await readFile(upload.files[0]); await importDeck(D.importText); } });
  const saved = savedDecks();
  return h("div", null,
    h("section", { class: "card", "aria-live": "polite" },
      field(t("Deck name"), name),
      h("p", { class: ["deck-total", ok ? "ok" : "bad"], id: "deck-total" }, `${size} / ${D.rules.deck_size}`),
      h("div", { class: ["progress", size > D.rules.deck_size ? "over" : ""] }, h("span", { style: { width: Math.min(100, (100 * size) / D.rules.deck_size) + "%" } })),
      check ? (ok ? h("p", { class: "checks ok", id: "deck-problems" }, t("A legal deck: ready to play."), " ",
        h("button", { type: "button", class: "rule-link", on: { click: () => openRules("zeta", "ZETA-R6") } }, "ZETA-R6"))
        : h("ul", { class: "checks bad", id: "deck-problems" }, check.problems.map((p) => h("li", { dataset: { code: p.code } }, problemText(p))))) : null,
      D.notice ? h("p", { class: "small", role: "status" }, D.notice) : null,
      h("div", { class: "actions" },
        button(t("Save in this browser"), saveDeck, { kind: "primary", dataset: { key: "save" } }),
        button(t("Download the deck file"), () => download(`${(D.deck.name || "deck").replace(/[^\w.-]+/g, "_")}.toml`, check && check.toml ? check.toml : "", "application/toml"),
          { disabled: !(check && check.toml), dataset: { key: "download" } }),
        button(t("Print this deck (PDF)"), printDeck, { disabled: !ok, dataset: { key: "print" } }),
        button(t("Play it in a new room"), useDeck, { disabled: !ok, dataset: { key: "use" } }),
        button(t("Empty the deck"), () => loadDeck({ name: D.deck.name, cards: {}, names: {} }), { kind: "ghost", dataset: { key: "clear" } }),
        button(t("A random legal deck"), async () => {
          const out = await api("GET", `/web/decks/zeta/random?deck_size=${Math.min(50, D.rules.deck_size)}`);
          loadDeck({ ...out.deck, name: "random" });
        }, { kind: "ghost", dataset: { key: "random" } })),
      preset),
    h("section", { class: "card" }, h("h2", null, t("Rules for the check")),
      h("label", { class: "check" }, limits, t("Copy limits (construction_limits)")),
      h("label", { class: "check" }, t("Deck size"), " ", deckSize)),
    h("section", { class: "card" }, h("h2", null, t("Load a deck file")), area,
      h("div", { class: "row" }, upload, button(t("Load"), () => importDeck(D.importText), { dataset: { key: "load-import" } })),
      D.importResult && D.importResult.problems.length ? h("ul", { class: "checks bad", id: "import-problems" },
        D.importResult.problems.map((p) => h("li", { dataset: { code: p.code || "" } }, problemText(p)))) : null,
      D.importResult && D.importResult.deck ? h("p", { class: "small muted" }, t("The cards that could be read are in the builder.")) : null),
    h("section", { class: "card" }, h("h2", null, t("My decks")),
      saved.length ? h("ul", { class: "saved-list" }, saved.map((d, k) => h("li", null, h("span", null, d.name),
        h("span", { class: "row" }, button(t("Open"), () => loadDeck(d), { class: "small" }),
          button(t("Delete"), () => { keepDecks(savedDecks().filter((_, j) => j !== k)); draw(); }, { class: "small", kind: "ghost" })))))
        : h("p", { class: "muted small" }, t("Saved decks appear here and in the lobby's deck list."))));
}

function drawSummary() {
  const box = D.container.querySelector("#deck-summary");
  if (box) render(box, summary(total()));
}

// -- Utahime -------------------------------------------------------------------------------------------
function currentSet() {
  if (D.setName === "custom") return D.customSet;
  return D.sets.find((s) => s.name === D.setName) || null;
}

function optionSetup() {
  const setup = { option_set: D.setName, p1_options: D.loadouts[0], p2_options: D.loadouts[1], p1_hero: D.heroes[0], p2_hero: D.heroes[1] };
  if (D.setName === "custom") setup.option_toml = D.customToml;
  return setup;
}

async function checkOptions() {
  try {
    D.optCheck = await api("POST", "/web/options/utahime/check", { setup: optionSetup() });
    if (D.setName === "custom" && D.optCheck.set) D.customSet = D.optCheck.set;
  } catch (e) {
    D.optCheck = { ok: false, problems: [e.message], costs: [0, 0] };
  }
}

function optionsChanged() {
  saveDraft();
  clearTimeout(D.timer);
  D.timer = setTimeout(async () => { await checkOptions(); draw(); }, 120);
  draw();
}

function seatLoadout(set, seat) {
  const chosen = D.loadouts[seat];
  const cost = chosen.reduce((sum, n) => sum + ((set.options.find((o) => o.name === n) || {}).cost || 0), 0);
  const hero = h("select", { class: "input", dataset: { key: "hero-" + seat }, "aria-label": t("Hero of P{n}", { n: seat + 1 }) },
    h("option", { value: "", selected: !D.heroes[seat] }, t("No hero")),
    set.heroes.map((x) => h("option", { value: x.name, selected: D.heroes[seat] === x.name }, x.title)));
  hero.addEventListener("change", () => { D.heroes[seat] = hero.value || null; optionsChanged(); });
  return h("section", { class: "card", dataset: { seat } },
    h("div", { class: "card-head" }, h("h2", null, t("P{n}'s option cards", { n: seat + 1 })),
      h("span", { class: ["badge", cost > D.budget ? "badge-watch" : ""], id: "cost-" + seat }, t("cost {n} / {budget}", { n: cost, budget: D.budget }))),
    h("div", { class: ["progress", cost > D.budget ? "over" : ""] }, h("span", { style: { width: Math.min(100, (100 * cost) / Math.max(1, D.budget)) + "%" } })),
    h("ul", { class: "saved-list" }, set.options.map((o) => {
      const copies = chosen.filter((n) => n === o.name).length;
      return h("li", null, h("span", null, h("strong", null, o.title), " ", h("span", { class: "badge" }, t("cost {n}", { n: o.cost })), " ",
        h("span", { class: "small muted" }, o.timing === "any_time" ? t("any time") : t("own turn")), h("div", { class: "small" }, o.text)),
      h("span", { class: "stepper" },
        h("button", { type: "button", disabled: copies === 0, "aria-label": t("Remove {card}", { card: o.title }), dataset: { key: `rm-${seat}-${o.name}` },
          on: { click: () => { const k = chosen.indexOf(o.name); chosen.splice(k, 1); optionsChanged(); } } }, "−"),
        h("output", null, String(copies)),
        h("button", { type: "button", "aria-label": t("Add {card}", { card: o.title }), dataset: { key: `add-${seat}-${o.name}` },
          on: { click: () => { chosen.push(o.name); optionsChanged(); } } }, "+")));
    })),
    field(t("Hero"), hero));
}

function utahimeTab() {
  const set = currentSet();
  const select = h("select", { class: "input", dataset: { key: "set" }, "aria-label": t("Option set") },
    D.sets.map((s) => h("option", { value: s.name, selected: D.setName === s.name }, s.title)),
    h("option", { value: "custom", selected: D.setName === "custom" }, t("My own set (TOML)…")));
  select.addEventListener("change", () => {
    D.setName = select.value;
    const s = currentSet();
    D.loadouts = s ? s.loadouts.map((x) => [...x]) : [[], []];
    D.heroes = s ? [...s.heroes_chosen] : [null, null];
    optionsChanged();
  });
  let custom = null;
  if (D.setName === "custom") {
    const area = h("textarea", { class: "input mono", rows: 10, dataset: { key: "custom-toml" }, "aria-label": t("Option set (TOML)"),
      placeholder: 'format = 1\nname = "my_set"\n[[option]]\nname = "quick_study"\ncost = 4\neffects = [{ do = "draw", count = 1 }]' });
    area.value = D.customToml;
    area.addEventListener("input", () => { D.customToml = area.value; });
    const upload = h("input", { type: "file", accept: ".toml,text/plain", class: "file", "aria-label": t("Upload an option set") });
    upload.addEventListener("change", async () => { if (upload.files[0]) { D.customToml = await readFile(upload.files[0]); D.loadouts = [[], []]; D.heroes = [null, null]; optionsChanged(); } });
    custom = h("div", null, area, h("div", { class: "row" }, upload, button(t("Read the set"), () => { D.loadouts = [[], []]; D.heroes = [null, null]; optionsChanged(); })));
  }
  const check = D.optCheck;
  const name = h("input", { class: "input", maxlength: 64, value: D.setupName, dataset: { key: "setup-name" } });
  name.addEventListener("input", () => { D.setupName = name.value; saveDraft(); });
  const area = h("textarea", { class: "input mono", rows: 4, dataset: { key: "opt-import" }, "aria-label": t("Option setup file (TOML)"),
    placeholder: 'option_set = "designer_example"\np1_options = ["scout"]' });
  area.value = D.optImport;
  area.addEventListener("input", () => { D.optImport = area.value; });
  const upload = h("input", { type: "file", accept: ".toml,text/plain", class: "file", "aria-label": t("Upload a setup file") });
  const importSetup = async () => {
    try {
      const out = await api("POST", "/web/options/utahime/check", { toml: D.optImport });
      D.optImportResult = out;
      if (out.ok) {
        D.setName = out.setup.option_set;
        if (out.setup.option_toml) { D.customToml = out.setup.option_toml; D.customSet = out.set; }
        D.loadouts = [out.setup.p1_options || [], out.setup.p2_options || []];
        D.heroes = [out.setup.p1_hero || null, out.setup.p2_hero || null];
        optionsChanged();
      }
    } catch (e) {
      D.optImportResult = { ok: false, problems: [e.message] };
    }
    draw();
  };
  upload.addEventListener("change", async () => { if (upload.files[0]) { D.optImport = await readFile(upload.files[0]); await importSetup(); } });
  const saved = savedOptionSetups();
  const save = () => {
    const list = savedOptionSetups().filter((x) => x.name !== D.setupName);
    list.push({ name: D.setupName, setup: check.setup });
    keepOptionSetups(list);
    D.notice = t("Saved in this browser as “{name}”.", { name: D.setupName });
    draw();
    return list.length - 1;
  };
  return h("div", { class: "deck-grid" },
    h("div", null,
      h("section", { class: "card" }, h("h2", null, t("Option set")),
        h("p", { class: "muted small" }, t("Each player may bring option cards up to a total cost of {budget}, at most {copies} of one name, and one hero.",
          { budget: D.budget, copies: D.maxCopies }), " ", h("button", { type: "button", class: "rule-link", on: { click: () => openRules("utahime", "UTA-R2") } }, "UTA-R2")),
        select, custom),
      set ? [seatLoadout(set, 0), seatLoadout(set, 1)] : h("section", { class: "card" }, h("p", { class: "muted" }, t("Read a set to choose its cards.")))),
    h("div", { class: "sticky" },
      h("section", { class: "card", "aria-live": "polite" },
        field(t("Name of this setup"), name),
        check ? (check.ok ? h("p", { class: "checks ok", id: "options-problems" }, t("Within the budget: ready to play."))
          : h("ul", { class: "checks bad", id: "options-problems" }, check.problems.map((p) => h("li", null, p)))) : null,
        D.notice ? h("p", { class: "small", role: "status" }, D.notice) : null,
        h("div", { class: "actions" },
          button(t("Save in this browser"), save, { kind: "primary", disabled: !(check && check.ok) }),
          button(t("Download the setup file"), () => download(`${(D.setupName || "setup").replace(/[^\w.-]+/g, "_")}.toml`, check.toml, "application/toml"),
            { disabled: !(check && check.ok) }),
          button(t("Play it in a new room"), () => {
            const k = save();
            const lobby = draft("lobby") || {};
            keepDraft("lobby", { ...lobby, game: "utahime", options: "saved:" + k, players: 2, seats: lobby.seats || ["me", "bot:normal"] });
            location.href = "/";
          }, { disabled: !(check && check.ok) }))),
      h("section", { class: "card" }, h("h2", null, t("Load a setup file")), area,
        h("div", { class: "row" }, upload, button(t("Load"), importSetup)),
        D.optImportResult && !D.optImportResult.ok ? h("ul", { class: "checks bad" }, D.optImportResult.problems.map((p) => h("li", null, p))) : null),
      h("section", { class: "card" }, h("h2", null, t("My option setups")),
        saved.length ? h("ul", { class: "saved-list" }, saved.map((x, k) => h("li", null, h("span", null, x.name),
          h("span", { class: "row" },
            button(t("Open"), () => {
              D.setName = x.setup.option_set;
              if (x.setup.option_toml) D.customToml = x.setup.option_toml;
              D.loadouts = [x.setup.p1_options || [], x.setup.p2_options || []];
              D.heroes = [x.setup.p1_hero || null, x.setup.p2_hero || null];
              D.setupName = x.name;
              optionsChanged();
            }, { class: "small" }),
            button(t("Delete"), () => { keepOptionSetups(savedOptionSetups().filter((_, j) => j !== k)); draw(); }, { class: "small", kind: "ghost" })))))
          : h("p", { class: "muted small" }, t("Saved setups appear here and in the lobby.")))));
}

function draw() {
  if (!D.container) return;
  document.title = t("Deck builder") + " · cardtable";
  const tab = (key, label) => h("button", { type: "button", role: "tab", class: ["tab", D.tab === key ? "active" : ""], "aria-selected": D.tab === key ? "true" : "false",
    dataset: { key: "tab-" + key }, on: { click: () => { D.tab = key; D.notice = null; saveDraft(); draw(); } } }, label);
  render(D.container, h("section", { class: "page decks" },
    h("h1", null, t("Deck builder")),
    h("div", { class: "tabs", role: "tablist" }, tab("zeta", t("Zeta decks")), tab("utahime", t("Utahime option cards"))),
    errorBox(D.error),
    D.tab === "zeta" ? zetaTab() : utahimeTab()));
}

export default { start, draw };

/** Print-and-play sheets of the deck: the server lays them out (docs/print.md) and the PDF downloads. */
async function printDeck() {
  const check = D.check;
  if (!check || !check.toml) return;
  let response;
  try {
    response = await fetch("/web/decks/zeta/print", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/pdf" },
      body: JSON.stringify({ toml: check.toml, rules: D.rules }),
    });
  } catch {
    D.notice = t("The server cannot be reached. Check the connection and try again.");
    return draw();
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    D.notice = (data && data.error && data.error.message) || t("The deck could not be printed.");
    return draw();
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `${(D.deck.name || "deck").replace(/[^\w.-]+/g, "_")}.pdf`, class: "offscreen" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  D.notice = t("Print at 100% on both sides, flipping on the long edge.");
  draw();
}

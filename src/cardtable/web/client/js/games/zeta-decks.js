// Zeta's deck builder (a tab of the deck builder page, named by Zeta's page module): decks of 25 cards
// within the copy limits (live validation by the server's checks, ZETA-R6), card names as skins (cost
// and effect stay), deck files (TOML) saved, loaded, printed and played.
import { download, h, readFile, render } from "../dom.js";
import { language, t, tn } from "../i18n.js";
import { api, csrfHeaders, draft, keepDecks, keepDraft, savedDecks } from "../api.js";
import { button, field, openRules } from "../ui.js";
import { presetName } from "./zeta.js";

const D = {
  cards: [], presets: [], deck: { name: "my deck", cards: {}, names: {} }, rules: { deck_size: 25, construction_limits: true },
  check: null, timer: null, importText: "", importResult: null,
};
let P = { container: null, notice: null, draw() {}, saveDraft() {} };

/** Work on the builder page `page` (its container, draw, draft and notice line). */
function attach(page) {
  P = page;
}

/** Take this builder's part of the page's draft. */
function restore(saved) {
  for (const key of ["deck", "rules"]) if (saved[key] !== undefined) D[key] = saved[key];
}

/** This builder's part of the page's draft. */
function keep() {
  return { deck: D.deck, rules: D.rules };
}

/** Load the cards and presets the builder draws (`page`: the builder page, as for `attach`). */
async function start(page) {
  attach(page);
  const [cards, decks] = await Promise.all([api("GET", "/web/cards"), api("GET", "/web/decks/zeta")]);
  D.cards = cards.zeta;
  D.presets = decks.presets;
}

/** Check what is being built (once the page has loaded the builders' data). */
async function refresh() {
  await checkDeck();
}

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
  P.saveDraft();
  clearTimeout(D.timer);
  D.timer = setTimeout(async () => { await checkDeck(); P.draw(); }, 120);
  P.draw();
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
  // an illegal deck is never saved (it would replace a legal one of the same name, and the lobby offers saved decks)
  if (!(D.check && D.check.ok)) {
    P.notice = t("This deck is not legal yet: fix the problems listed above, then save it.");
    P.draw();
    return -1;
  }
  const list = savedDecks().filter((d) => d.name !== D.deck.name);
  list.push({ name: D.deck.name, cards: D.deck.cards, names: D.check && D.check.deck ? D.check.deck.names : {} });
  keepDecks(list);
  P.notice = t("Saved in this browser as “{name}”.", { name: D.deck.name });
  P.draw();
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
  P.draw();
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
      P.saveDraft();
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
  name.addEventListener("input", () => { D.deck.name = name.value; P.saveDraft(); });
  name.addEventListener("change", () => changed());
  const preset = h("select", { class: "input", dataset: { key: "preset" }, "aria-label": t("Start from a preset") },
    h("option", { value: "" }, t("Start from a preset…")),
    D.presets.map((p) => h("option", { value: p.name }, presetName(p.name))));
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
      P.notice ? h("p", { class: "small", role: "status" }, P.notice) : null,
      h("div", { class: "actions" },
        button(t("Save in this browser"), saveDeck, { kind: "primary", disabled: !ok, dataset: { key: "save" } }),
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
          button(t("Delete"), () => { keepDecks(savedDecks().filter((_, j) => j !== k)); P.draw(); }, { class: "small", kind: "ghost" })))))
        : h("p", { class: "muted small" }, t("Saved decks appear here and in the lobby's deck list."))));
}

function drawSummary() {
  const box = P.container.querySelector("#deck-summary");
  if (box) render(box, summary(total()));
}

/** Print-and-play sheets of the deck: the server lays them out (docs/print.md) and the PDF downloads. */
async function printDeck() {
  const check = D.check;
  if (!check || !check.toml) return;
  let response;
  try {
    response = await fetch("/web/decks/zeta/print", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/pdf", ...csrfHeaders() },
      body: JSON.stringify({ toml: check.toml, rules: D.rules }),
    });
  } catch {
    P.notice = t("The server cannot be reached. Check the connection and try again.");
    return P.draw();
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    P.notice = (data && data.error && data.error.message) || t("The deck could not be printed.");
    return P.draw();
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `${(D.deck.name || "deck").replace(/[^\w.-]+/g, "_")}.pdf`, class: "offscreen" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  P.notice = t("Print at 100% on both sides, flipping on the long edge.");
  P.draw();
}

export default { attach, title: () => t("Zeta decks"), restore, keep, start, refresh, view: zetaTab };

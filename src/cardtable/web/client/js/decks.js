// The deck builder page: one tab for each game whose page module brings a builder (Zeta's decks,
// Utahime's option cards); the builders are modules of their own, and this page never names a game.
import { h, render } from "./dom.js";
import { t } from "./i18n.js";
import { draft, keepDraft } from "./api.js";
import { errorBox, GAMES } from "./ui.js";
import { loadGame } from "./table.js";

const D = { container: null, tab: null, builders: [], error: null };

/** What a builder works with: the page's container, its draw and draft, and the notice line. */
const page = {
  container: null,
  notice: null,
  draw: () => draw(),
  saveDraft: () => saveDraft(),
};

function saveDraft() {
  keepDraft("decks", Object.assign({ tab: D.tab }, ...D.builders.map((b) => b.builder.keep())));
}

async function builders() {
  const found = await Promise.all(GAMES.map(async (game) => {
    try {
      const module = await loadGame(game);
      return module.builder ? { game, builder: (await module.builder()).default } : null;
    } catch {
      return null;
    }
  }));
  return found.filter(Boolean);
}

async function start(container, params, query) {
  D.container = container;
  page.container = container;
  D.builders = await builders();
  for (const b of D.builders) b.builder.attach(page);
  const saved = draft("decks");
  if (saved) {
    D.tab = saved.tab;
    for (const b of D.builders) b.builder.restore(saved);
  }
  const asked = query.get("tab");
  if (asked) D.tab = asked;
  if (!D.builders.some((b) => b.game === D.tab)) D.tab = D.builders.length ? D.builders[0].game : null;
  draw();
  try {
    await Promise.all(D.builders.map((b) => b.builder.start(page)));
  } catch (e) {
    D.error = e;
  }
  for (const b of D.builders) await b.builder.refresh();
  draw();
}

function draw() {
  if (!D.container) return;
  document.title = t("Deck builder") + " · cardtable";
  const tab = (key, label) => h("button", { type: "button", role: "tab", class: ["tab", D.tab === key ? "active" : ""], "aria-selected": D.tab === key ? "true" : "false",
    dataset: { key: "tab-" + key }, on: { click: () => { D.tab = key; page.notice = null; saveDraft(); draw(); } } }, label);
  const current = D.builders.find((b) => b.game === D.tab);
  render(D.container, h("section", { class: "page decks" },
    h("h1", null, t("Deck builder")),
    h("div", { class: "tabs", role: "tablist" }, D.builders.map((b) => tab(b.game, b.builder.title()))),
    errorBox(D.error),
    current ? current.builder.view() : null));
}

export default { start, draw };

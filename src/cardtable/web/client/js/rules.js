// The rules page: how to play each game, and every rule of its rulebook by id (/rules/GAME?rule=ID).
import { h, render } from "./dom.js";
import { t } from "./i18n.js";
import { GAMES, rulesView } from "./ui.js";

const P = { container: null, state: { game: null, rule: null, tab: "howto", filter: "" } };

async function draw() {
  const content = await rulesView(P.state, (next) => {
    P.state = next;
    const q = next.rule ? `?rule=${encodeURIComponent(next.rule)}` : "";
    history.replaceState(null, "", `/rules/${next.game}${q}`);
    draw();
  });
  document.title = t("How to play") + " · cardtable";
  render(P.container, h("section", { class: "page rules-page" }, h("h1", null, t("How to play")),
    h("p", { class: "guide-link" }, h("a", { class: "btn btn-primary small", href: `/tutorial/${P.state.game}`, dataset: { key: "tutorial" } },
      t("First game: a guided turn")), " ", h("span", { class: "muted small" }, t("The page shows what to click, and why."))),
    content));
}

async function start(container, params, query) {
  P.container = container;
  const rule = query.get("rule");
  P.state = { game: params[0] || GAMES[0], rule, tab: rule ? "rules" : "howto", filter: "" };
  await draw();
}

export default { start, draw };

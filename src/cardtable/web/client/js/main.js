// The client's entry: load the page language, then route on the address to a page.
import { h, render } from "./dom.js";
import { onLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { GAMES, header, loadGames, notFound, refreshRules } from "./ui.js";
import { loadMe, onAccount } from "./session.js";
import { poll, showBadge, startBadge } from "./badge.js";

const ROUTES = [
  [/^\/$/, () => import("./lobby.js"), "lobby"],
  [/^\/rooms?\/([A-Za-z0-9_-]{1,24})$/, () => import("./room.js"), "room"],
  [/^\/(games|friends|play)$/, () => import("./people.js"), "people"],
  [/^\/replay\/([A-Za-z0-9_-]{1,24})\/(\d{1,7})$/, () => import("./replay.js"), "replay"],
  [/^\/decks$/, () => import("./decks.js"), "decks"],
  [/^\/rules(?:\/([a-z][a-z0-9_]{0,31}))?$/, () => import("./rules.js"), "rules"],
  [/^\/tutorial\/([a-z][a-z0-9_]{0,31})$/, () => import("./tutorial.js"), "rules"],
  [/^\/(signup|signin|account)$/, () => import("./account.js"), "account"],
  [/^\/players\/([A-Za-z0-9_-]{1,64})$/, () => import("./profile.js"), "profile"],
  [/^\/leaderboards(?:\/([a-z][a-z0-9_]{0,31}))?$/, () => import("./leaderboards.js"), "leaderboards"],
  [/^\/studio(?:\/(studies|shared|compare))?(?:\/([A-Za-z0-9_-]{1,32}))?$/, () => import("./studio/studio.js"), "studio"],
];

let page = null;
let active = "";
const root = document.getElementById("app");
const shell = { top: h("div"), body: h("main", { id: "main", class: "main" }) };

function drawHeader() {
  render(shell.top, header(active));
  showBadge();
}

async function start() {
  await Promise.all([setLanguage(preferredLanguage()), loadGames().catch(() => null), loadMe()]);
  onAccount(() => { drawHeader(); poll(); });
  startBadge();
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let params = null;
  let load = null;
  for (const [pattern, loader, name] of ROUTES) {
    const m = pattern.exec(path);
    if (m) {
      params = m.slice(1);
      load = loader;
      active = name === "people" ? params[0] : name;
      break;
    }
  }
  render(root, h("a", { href: "#main", class: "skip" }, t("Skip to the page")), shell.top, shell.body);
  drawHeader();
  if (!load || ((active === "rules" || active === "leaderboards") && params[0] && !GAMES.includes(params[0]))) {
    render(shell.body, notFound());
    return;
  }
  const module = await load();
  page = module.default;
  await page.start(shell.body, params, new URLSearchParams(location.search));
  onLanguage(() => {
    drawHeader();
    page.draw();
    refreshRules();
  });
}

start().catch((error) => {
  render(root, h("pre", { class: "fatal" }, String(error && error.stack ? error.stack : error)));
});

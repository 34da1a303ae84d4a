// A first-game guide: a seeded game whose moves are scripted, shown on the game's own page one move at a
// time. Only the move the guide asks for is legal, so the page itself lights what to click; a note says
// what to do and why (with its rule), and the other seat's scripted moves are played between the steps.
// The server plays the script with the engine (/web/tutorial/positions), so every position is a real one.
import { h, render } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { errorBox, gameTitle, openRules } from "./ui.js";
import { loadGame, logPanel } from "./table.js";

const G = { container: null, game: null, guide: null, module: null, cards: null, positions: null, step: 0, selected: null,
  note: null, error: null };

/** The script's moves in order. */
function actions(guide) {
  return guide.steps.map((s) => s.me || s.them);
}

/** The learner's steps: their index in the script. */
function mine(guide) {
  return guide.steps.map((s, k) => (s.me ? k : -1)).filter((k) => k >= 0);
}

// Each game's page module brings its guide (``guide`` in its default export): its game (seed, setup, rule
// flags) and its steps, the learner's moves with what to do and why, and the other seat's moves ("them").
async function start(container, params) {
  G.container = container;
  G.game = params[0];
  G.guide = null;
  try {
    G.module = await loadGame(G.game);
    G.guide = G.module.guide || null;
  } catch (e) {
    G.module = null;
  }
  draw();
  if (!G.guide) return;
  try {
    const [cards, out] = await Promise.all([api("GET", "/web/cards"),
      api("POST", "/web/tutorial/positions", { game: G.game, seed: G.guide.seed, setup: G.guide.setup, rules: G.guide.rules,
        actions: actions(G.guide) })]);
    G.cards = cards;
    G.positions = out.steps;
  } catch (e) {
    G.error = e;
  }
  draw();
}

function act(action, expected) {
  if (action !== expected) {
    G.note = t("Not this move: follow the lit card and the note above.");
    draw();
    return;
  }
  G.step += 1;
  G.selected = null;
  G.note = null;
  draw();
  window.scrollTo({ top: 0, behavior: "smooth" });
}

function context(position, expected) {
  const legal = expected && position.legal.includes(expected) ? [expected] : [];
  return {
    game: G.game, view: position.view, legal,
    names: [t("P1 (you)"), ...Array.from({ length: (G.guide.setup.players || 2) - 1 }, (_, k) => `P${k + 2}`)],
    seat: 0, toMove: position.to_move, rules: G.guide.rules, setup: G.guide.setup, cards: G.cards, events: position.events,
    outcome: position.outcome, seats: [], started: true, selected: G.selected, hint: null, interactive: Boolean(legal.length),
    replay: false, extra: null, previous: null,
    select: (key) => { G.selected = G.selected === key ? null : key; draw(); },
    act: (a) => act(a, expected),
    notify: (text) => { G.note = text; draw(); },
  };
}

/** Mark what the learner should click: whatever the page lets them play (only the guide's move is legal). */
function point() {
  for (const el of G.container.querySelectorAll(".board-area .tutorial-point")) el.classList.remove("tutorial-point");
  const found = G.container.querySelectorAll(".board-area .placeable, .board-area .lit, .board-area .usable, "
    + ".board-area #decision [data-action], .board-area .wish-grid [data-action]");
  for (const el of found) el.classList.add("tutorial-point");
}

function draw() {
  if (!G.container) return;
  if (!G.guide) {
    render(G.container, h("section", { class: "page narrow" }, h("h1", null, t("There is no guide for this game yet.")),
      h("p", null, h("a", { href: "/" }, t("Back to the lobby")))));
    return;
  }
  const title = t("First game: {game}", { game: gameTitle(G.game) });
  document.title = title + " · cardtable";
  if (!G.positions || !G.module) {
    render(G.container, h("section", { class: "page" }, h("h1", null, title), G.error ? errorBox(G.error)
      : h("p", { class: "muted loading" }, t("Setting up the guide…"))));
    return;
  }
  const steps = mine(G.guide);
  const done = G.step >= steps.length;
  const index = done ? actions(G.guide).length : steps[G.step];
  const step = done ? null : G.guide.steps[index];
  const ctx = context(G.positions[index], step ? step.me : null);
  const guide = done
    ? h("section", { class: "guide-note done", id: "guide", "aria-live": "polite" },
      h("strong", null, t("Well done: that is how a turn goes.")), " ",
      t("Read the how-to-play for the rest of the rules, then play a real game against a bot or a friend."),
      h("div", { class: "actions" }, h("a", { class: "btn btn-primary", href: "/" }, t("Play a game")),
        h("a", { class: "btn", href: `/rules/${G.game}` }, t("How to play")),
        h("button", { type: "button", class: "btn btn-ghost", on: { click: () => { G.step = 0; draw(); } } }, t("Start again"))))
    : h("section", { class: "guide-note", id: "guide", "aria-live": "polite" },
      h("span", { class: "badge" }, t("Step {n} of {m}", { n: G.step + 1, m: steps.length })), " ",
      h("span", { class: "guide-text" }, step.say()), " ",
      step.rule ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules(G.game, step.rule) } }, step.rule) : null,
      G.note ? h("p", { class: "guide-warn", role: "status" }, G.note) : null);
  render(G.container, h("section", { class: ["page", "room", "tutorial", "game-" + G.game], dataset: { game: G.game } },
    h("div", { class: "room-head" }, h("div", { class: "room-titles" }, h("h1", null, title),
      h("span", { class: ["badge", "game-" + G.game] }, gameTitle(G.game)))),
    guide,
    h("div", { class: "room-grid" },
      h("div", { class: "board-area" }, G.module.render(ctx)),
      h("aside", { class: "side" }, logPanel(ctx, G.module, [])))));
  if (!done) point();
}

export default { start, draw };

// The designer's studio: edit a card set (checked as you type, by the server's own checks), launch a
// study of it (one configuration, an A/B against the rulebook, a sweep, or a search of the numbers
// ticked in the card set toward a target), watch it play over the socket, and read its report: the
// answer first, then the evidence, and for a search the sets it found, each one click from the editor.
// The game's rule flags and its random decks or loadouts are part of the study's form. Past studies,
// a side-by-side comparison of two, and a share link that anyone can open. Every game's names, numbers
// and flags come from the server (/api/studio/games): this page never names a game.
import { h, render, s } from "../dom.js";
import { language, t, tn } from "../i18n.js";
import { api } from "../api.js";
import { button, errorBox, field, GAMES, gameTitle, openRules } from "../ui.js";
import { problemWords } from "./problems.js";

const S = {
  container: null, view: "home", params: [], catalog: null, error: null,
  // the card-set editor
  game: null, values: {}, name: "", check: null, saved: null, checking: 0, savedSets: null,
  // the launcher
  kind: "ab", agents: "heuristic", games: 200, setupText: "", parameter: "", sweepValues: "", estimate: null, launching: false,
  flags: {}, flagsOpen: false, setupChoice: "rulebook", players: "",
  // a search (tune): the numbers ticked in the card set, each with its range, and the search's budget
  tune: {}, target: 50, trials: 30, stepGames: 100, steps: 4,
  // a study's page
  study: null, progress: null, report: null, socket: null, shared: false,
  studies: null, pair: null,
};

const AGENT_WORDS = {
  random: () => t("random: fastest, plays any legal move (a floor)"),
  heuristic: () => t("heuristic: fast, a casual player's rules of thumb"),
  "ismcts:easy": () => t("ismcts:easy: about a hundred times slower, the strongest here"),
};

async function start(container, params, query) {
  S.container = container;
  S.params = params;
  const [section, id] = params;
  closeSocket();
  if (section === "studies" && id) S.view = "study";
  else if (section === "shared" && id) S.view = "shared";
  else if (section === "compare") S.view = "compare";
  else S.view = "home";
  draw();
  try {
    S.catalog = S.catalog || await api("GET", "/api/studio/games");
    const known = S.catalog.games.map((g) => g.game);
    if (!S.game) pickGame([query.get("game"), ...GAMES, ...known].find((g) => known.includes(g)));
    if (S.view === "study" || S.view === "shared") await loadStudy(id, S.view === "shared");
    else if (S.view === "compare") await loadPair(query.get("a"), query.get("b"));
    else await loadStudies();
  } catch (e) {
    S.error = e;
  }
  draw();
}

function draw() {
  if (!S.container) return;
  const body = S.view === "study" || S.view === "shared" ? studyPage()
    : S.view === "compare" ? comparePage() : homePage();
  render(S.container, h("div", { class: "studio" }, S.error ? errorBox(S.error, () => { S.error = null; draw(); }) : null,
    body));
}

// -- the card set ------------------------------------------------------------------------------------
/** A card set number's field in the page's words (the file's key stays the field's id). */
const FIELD_WORDS = {
  budget: () => t("budget"), cap: () => t("cap"), copies: () => t("copies"), cost: () => t("cost"),
  destroy: () => t("cards destroyed"), destroyed: () => t("destroyed cards needed"), draw: () => t("cards drawn"),
  first: () => t("first player"), hand: () => t("hand"), limit: () => t("copies allowed"),
  limit_sets: () => t("sets without a capture"), low_drain: () => t("energy lost (2-4)"),
  low_gain: () => t("energy gained (2-4)"), mid_gain: () => t("energy gained (5-7)"), move_range: () => t("move range"),
  pool: () => t("pool"), pulse_deck: () => t("pulse deck"), second: () => t("second player"),
  second_player_bonus: () => t("second player's extra"), size: () => t("size"), start: () => t("at the start"),
  trigger_deck: () => t("trigger deck"), uses: () => t("uses"), value: () => t("value"),
};

function fieldWords(field) {
  return FIELD_WORDS[field] ? FIELD_WORDS[field]() : field;
}

function spec() {
  return S.catalog ? S.catalog.games.find((g) => g.game === S.game) : null;
}

function pickGame(game) {
  S.game = game;
  S.values = {};
  S.check = null;
  S.saved = null;
  S.parameter = "";
  S.estimate = null;
  S.flags = {};
  S.tune = {};
  S.setupChoice = "rulebook";
  S.players = "";
}

function itemNameById(id) {
  const g = spec();
  const item = g && g.items.find((i) => i.id === id);
  return item ? itemName(item) : null;
}

function itemName(item) {
  return language() === "ja" ? item.ja || item.en : item.en || item.ja;
}

function numberLabel(n) {
  const g = spec();
  const item = g && g.items.find((i) => i.id === n.item);
  return (item ? itemName(item) : n.item) + " · " + fieldWords(n.field);
}

let checkTimer = null;
function changed(key, text) {
  const n = spec().numbers.find((x) => x.key === key);
  const value = text === "" ? NaN : Number(text);
  if (Number.isInteger(value) && value === n.default) delete S.values[key];
  else S.values[key] = Number.isInteger(value) ? value : text;
  S.saved = null;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 200);
}

async function runCheck() {
  const ticket = ++S.checking;
  try {
    const answer = await api("POST", "/api/studio/cardsets/check",
      { game: S.game, name: S.name || "custom", values: S.values });
    if (ticket === S.checking) S.check = answer;
  } catch (e) {
    S.error = e;
  }
  S.estimate = null;
  draw();
}

/** The set's name and hash as the name is typed (the set's hash does not change with its name). */
function nameShown() {
  const shown = S.container && S.container.querySelector("[data-key=set-label]");
  if (shown && S.check && S.check.ok) shown.textContent = `${S.name.trim() || t("custom")} #${S.check.hash}`;
}

function setRules() {
  return S.check && S.check.ok ? S.check.rules : null;
}

function editor() {
  const g = spec();
  if (!g) return null;
  const problems = S.check && !S.check.ok ? S.check.problems : [];
  const diff = S.check && S.check.ok ? S.check.changed : [];
  const groups = new Map();
  for (const n of g.numbers) {
    if (n.fixed) continue;
    if (!groups.has(n.item)) groups.set(n.item, []);
    groups.get(n.item).push(n);
  }
  const rows = [];
  for (const [itemId, numbers] of groups) {
    const item = g.items.find((i) => i.id === itemId) || { ja: itemId, en: itemId, rule: "" };
    rows.push(h("tr", { class: "studio-item" },
      h("th", { scope: "row" }, itemName(item), item.rule ? h("span", { class: "studio-rule" }, " " + item.rule) : null),
      h("td", {}, numbers.map((n) => {
        const value = n.key in S.values ? S.values[n.key] : n.default;
        const differs = n.key in S.values;
        return h("span", { class: ["studio-cell", n.key in S.tune ? "tuned" : ""] },
          h("label", { class: ["studio-number", differs ? "changed" : ""] },
            h("span", { class: "studio-field", title: n.field }, fieldWords(n.field)),
            h("input", { type: "number", inputmode: "numeric", min: n.min, max: n.max, value,
              "aria-label": numberLabel(n), dataset: { key: "num-" + n.key, number: n.key },
              on: { input: (e) => changed(n.key, e.target.value) } }),
            h("span", { class: "studio-default" }, t("rulebook {value}", { value: n.default }))),
          tuneControl(n, value));
      }))));
  }
  return h("section", { class: "studio-panel", "aria-labelledby": "set-title" },
    h("h2", { id: "set-title" }, t("Card set")),
    h("div", { class: "studio-row" },
      field(t("Game"), h("select", { dataset: { key: "game" }, on: { change: (e) => { pickGame(e.target.value); draw(); } } },
        S.catalog.games.map((x) => h("option", { value: x.game, selected: x.game === S.game }, gameTitle(x.game))))),
      field(t("Name"), h("input", { type: "text", maxlength: 64, value: S.name, placeholder: t("my playtest"),
        dataset: { key: "set-name" }, on: { input: (e) => { S.name = e.target.value; S.saved = null; nameShown(); } } }))),
    h("div", { class: "studio-check", role: "status", "aria-live": "polite" },
      problems.length
        ? h("div", { class: "studio-problems" }, h("strong", {}, t("This set cannot be played yet:")),
          h("ul", {}, problems.map((p) => h("li", {}, problemWords(p, itemNameById)))))
        : h("div", { class: "studio-diff" },
          h("strong", {}, diff.length ? t("Changed from the rulebook:") : t("The rulebook's numbers (nothing changed yet).")),
          diff.length ? h("ul", {}, diff.map((d) => h("li", {},
            numberLabel(g.numbers.find((n) => n.key === d.key) || { item: d.key, field: "" }) + ": ",
            h("del", {}, String(d.default)), " → ", h("ins", {}, String(d.value))))) : null,
          S.check && S.check.ok && diff.length ? h("span", { class: "studio-hash", dataset: { key: "set-label" } },
            `${S.name.trim() || t("custom")} #${S.check.hash}`) : null)),
    h("div", { class: "studio-actions" },
      button(t("Save"), save, { kind: "primary", disabled: !setRules(), dataset: { key: "save-set" } }),
      S.saved ? [
        h("a", { class: "btn", href: S.saved.toml + "?lang=" + language(), download: "" }, t("Download TOML")),
        h("a", { class: "btn", href: S.saved.pdf, download: "" }, t("Print (PDF)")),
      ] : null,
      button(t("Open a room that plays it"), openRoom, { disabled: !setRules(), dataset: { key: "open-room" } })),
    S.kind === "tune" ? h("p", { class: "studio-tune-help", role: "note" },
      t("Tick the numbers the search may change, each with its range.")) : null,
    h("div", { class: "studio-table-wrap" }, h("table", { class: "studio-table" }, h("tbody", {}, rows))),
    savedSets());
}

// -- the numbers a search may change: ticked in the card set, each with its range ----------------------------
function tuneControl(n, value) {
  if (S.kind !== "tune") return null;
  const range = S.tune[n.key];
  const bound = (which, v) => h("input", { type: "number", inputmode: "numeric", min: n.min, max: n.max, value: v,
    class: "studio-tune-bound", "aria-label": (which === "low" ? t("from") : t("to")) + " · " + numberLabel(n),
    dataset: { key: `tune-${which}-${n.key}` },
    on: { input: (e) => { S.tune[n.key][which] = e.target.value; S.estimate = null; } } });
  return h("span", { class: "studio-tune" },
    h("label", { class: "studio-tune-tick" },
      h("input", { type: "checkbox", checked: Boolean(range), dataset: { key: "tune-" + n.key },
        "aria-label": t("Search {number}", { number: numberLabel(n) }),
        on: { change: (e) => { toggleTune(n, value, e.target.checked); } } }),
      t("search")),
    range ? h("span", { class: "studio-tune-range" }, bound("low", range.low), "–", bound("high", range.high)) : null);
}

function toggleTune(n, value, on) {
  if (on) {
    const v = Number.isInteger(Number(value)) ? Number(value) : n.default;
    let low = Math.max(n.min, v - 2);
    let high = Math.min(n.max, v + 2);
    if (low === high) { low = n.min; high = n.max; }
    S.tune[n.key] = { low, high };
  } else {
    delete S.tune[n.key];
  }
  S.estimate = null;
  draw();
}

// -- saved sets, by name and hash ---------------------------------------------------------------------------
function savedSets() {
  const mine = (S.savedSets || []).filter((cs) => cs.game === S.game);
  if (!mine.length) return null;
  return h("details", { class: "studio-saved" },
    h("summary", {}, t("Saved sets"), " ", h("span", { class: "badge" }, String(mine.length))),
    h("ul", { class: "studio-saved-list" }, mine.map((cs) => h("li", {},
      h("span", { class: "studio-set-label" }, cs.label || `${cs.name} #${cs.hash}`),
      button(t("Load"), () => loadSet(S.game, cs), { kind: "ghost", dataset: { key: "load-saved-" + cs.id } })))));
}

/** Put a set (its changed numbers and flags) into the editor, under its name, and check it. */
async function loadSet(game, cs) {
  pickGame(game);
  S.values = { ...(cs.values || {}) };
  S.flags = { ...(cs.flags || {}) };
  S.name = cs.name || "";
  if (S.kind === "tune") S.kind = "ab";
  if (S.view !== "home") {
    history.pushState(null, "", "/studio?game=" + encodeURIComponent(game));
    await start(S.container, [], new URLSearchParams("game=" + encodeURIComponent(game)));
    return;
  }
  await runCheck();
}

async function save() {
  try {
    S.saved = await api("POST", "/api/studio/cardsets", { game: S.game, name: S.name || "custom", values: S.values });
    S.savedSets = [S.saved, ...(S.savedSets || []).filter((cs) => cs.id !== S.saved.id)];
  } catch (e) {
    S.error = e;
  }
  draw();
}

async function openRoom() {
  try {
    const made = await api("POST", "/api/rooms", { game: S.game, title: (S.name || "custom").slice(0, 40),
      rules: { ...S.flags, ...(setRules() || {}) } });
    location.href = "/room/" + encodeURIComponent(made.room.id);
  } catch (e) {
    S.error = e;
    draw();
  }
}

// -- launching -----------------------------------------------------------------------------------------
function ruleItems() {
  return Object.entries(S.flags).map(([name, value]) => `${name}=${value}`);
}

function studyBody() {
  const rules = setRules() || {};
  // the server names a changed set by its name and its hash; an unnamed one is "custom"
  const label = S.name || (S.check && S.check.ok && S.check.changed.length ? "" : t("rulebook"));
  const base = { kind: S.kind, game: S.game, agents: [S.agents], games: Number(S.games),
    setup_items: [...S.setupText.split(/\s+/).filter(Boolean), ...(S.players ? [`players=${S.players}`] : [])],
    rule_items: ruleItems(), setup_choice: S.setupChoice };
  if (S.kind === "single") return { ...base, label, rules };
  if (S.kind === "ab") return { ...base, a: { label: t("rulebook"), rules: {} }, b: { label, rules } };
  if (S.kind === "tune") {
    return { ...base, name: S.name, rules, target: Number(S.target) / 100, trials: Number(S.trials),
      step_games: Number(S.stepGames), steps: Number(S.steps),
      vary: Object.entries(S.tune).map(([key, r]) => ({ key, low: Number(r.low), high: Number(r.high) })) };
  }
  const values = S.sweepValues.split(/[,\s]+/).filter(Boolean).map((v) => (/^-?\d+$/.test(v) ? Number(v) : v));
  return { ...base, rules, parameter: S.parameter, values };
}

async function estimate() {
  try {
    S.estimate = await api("POST", "/api/studio/estimate", studyBody());
  } catch (e) {
    S.estimate = null;
    S.error = e;
  }
  draw();
}

async function launch() {
  S.launching = true;
  draw();
  try {
    const made = await api("POST", "/api/studio/studies", studyBody());
    history.pushState(null, "", "/studio/studies/" + encodeURIComponent(made.id));
    S.launching = false;
    await start(S.container, ["studies", made.id], new URLSearchParams());
    return;
  } catch (e) {
    S.error = e;
  }
  S.launching = false;
  draw();
}

function seconds(n) {
  if (n === null || n === undefined) return "";
  if (n < 90) return t("about {n} s", { n: Math.max(1, Math.round(n)) });
  return t("about {n} min", { n: Math.round(n / 60) });
}

function launcher() {
  const g = spec();
  if (!g) return null;
  const kinds = [["ab", t("This set against the rulebook (A/B)")], ["single", t("This set alone")],
    ["sweep", t("A sweep of one number")]];
  if (S.catalog.tune) kinds.push(["tune", t("Search the ticked numbers toward a target (tune)")]);
  const tune = S.kind === "tune";
  const ticked = Object.keys(S.tune).length;
  const ready = setRules() && (!tune || ticked > 0);
  return h("section", { class: "studio-panel", "aria-labelledby": "launch-title" },
    h("h2", { id: "launch-title" }, t("Study")),
    h("div", { class: "studio-row" },
      field(t("Question"), h("select", { dataset: { key: "kind" }, on: { change: (e) => { S.kind = e.target.value; S.estimate = null; draw(); } } },
        kinds.map(([k, words]) => h("option", { value: k, selected: S.kind === k }, words)))),
      field(t("Who plays the games"), h("select", { dataset: { key: "agents" }, on: { change: (e) => { S.agents = e.target.value; S.estimate = null; draw(); } } },
        S.catalog.agents.map((a) => h("option", { value: a, selected: S.agents === a }, AGENT_WORDS[a] ? AGENT_WORDS[a]() : a)))),
      field(tune ? t("Games to check each set on") : t("Games"), h("input", { type: "number", min: 1, max: 20000, step: 100,
        value: S.games, dataset: { key: "games" }, on: { input: (e) => { S.games = e.target.value; S.estimate = null; } } }),
      tune ? t("The best sets are played again on games the search never saw, each against your set.")
        : t("More games narrow the interval: 2,000 tell apart about 3 points.")),
      g.players && g.players.length > 1 ? field(t("Players"), h("select", { dataset: { key: "players" },
        on: { change: (e) => { S.players = e.target.value; S.estimate = null; draw(); } } },
        h("option", { value: "", selected: S.players === "" }, t("The game's usual number")),
        g.players.map((n) => h("option", { value: String(n), selected: S.players === String(n) },
          n === 1 ? t("1 (solo: the score alone)") : tn("{n} player", "{n} players", n)))),
      t("Each position's share of the points is compared with an equal share.")) : null,
      g.random_setup ? field(t("Decks and loadouts"), h("select", { dataset: { key: "setup-choice" },
        on: { change: (e) => { S.setupChoice = e.target.value; S.estimate = null; draw(); } } },
        h("option", { value: "rulebook", selected: S.setupChoice === "rulebook" }, t("The game's own")),
        h("option", { value: "random", selected: S.setupChoice === "random" }, t("Random in every game"))),
      t("Random decks or loadouts vary the cards from game to game: only then does the report tell each card's strength.")) : null,
      field(t("Setup (optional)"), h("input", { type: "text", value: S.setupText, placeholder: "decks=random,random",
        dataset: { key: "setup" }, on: { input: (e) => { S.setupText = e.target.value; S.estimate = null; } } }),
      t("As the lab's --setup writes it, items separated by spaces: random decks or loadouts measure each card."))),
    S.kind === "sweep" ? h("div", { class: "studio-row" },
      field(t("Number to sweep"), h("select", { dataset: { key: "parameter" }, on: { change: (e) => { S.parameter = e.target.value; } } },
        h("option", { value: "" }, "—"),
        g.numbers.filter((n) => !n.fixed).map((n) => h("option", { value: n.key, selected: S.parameter === n.key }, numberLabel(n))))),
      field(t("Values"), h("input", { type: "text", value: S.sweepValues, placeholder: "2, 3, 5, 8", dataset: { key: "values" },
        on: { input: (e) => { S.sweepValues = e.target.value; } } }))) : null,
    tune ? tuneFields(g) : null,
    flagsPanel(g),
    h("div", { class: "studio-actions" },
      button(t("Estimate the time"), estimate, { dataset: { key: "estimate" }, disabled: tune && !ticked }),
      S.estimate ? h("span", { class: "studio-estimate", role: "status" },
        tune ? t("at most {games} games, {time}", { games: S.estimate.planned.toLocaleString(), time: seconds(S.estimate.seconds) })
          : t("{games} games, {time}", { games: S.estimate.planned.toLocaleString(), time: seconds(S.estimate.seconds) })) : null,
      button(S.launching ? t("Launching…") : t("Launch the study"), launch,
        { kind: "primary", disabled: S.launching || !ready, dataset: { key: "launch" } })));
}

function tuneFields(g) {
  const limits = S.catalog.tune_limits || {};
  const ticked = Object.entries(S.tune);
  const number = (key, value, min, max, set) => h("input", { type: "number", min, max, value, dataset: { key },
    on: { input: (e) => { set(e.target.value); S.estimate = null; } } });
  return h("div", { class: "studio-tune-fields" },
    ticked.length ? h("ul", { class: "studio-tune-list", dataset: { key: "tune-list" } }, ticked.map(([key, r]) =>
      h("li", {}, numberLabel(g.numbers.find((n) => n.key === key) || { item: key, field: "" }), ": ",
        h("strong", {}, `${r.low} – ${r.high}`))))
      : h("p", { class: "studio-problems" }, t("Tick the numbers the search may change in the card set (search), each with its range.")),
    h("div", { class: "studio-row" },
      field(t("Target: the first player's share (%)"), number("target", S.target, 0, 100, (v) => { S.target = v; }),
        t("50% is an even game.")),
      field(t("Trials"), number("trials", S.trials, 1, limits.trials || 200, (v) => { S.trials = v; }),
        t("Each trial is one candidate set; more trials search wider.")),
      field(t("Games a step of a trial"), number("step-games", S.stepGames, 1, limits.step_games || 2000, (v) => { S.stepGames = v; })),
      field(t("Steps of a trial"), number("steps", S.steps, 1, limits.steps || 12, (v) => { S.steps = v; }),
        t("A candidate that falls behind the others is stopped after a step or two."))));
}

// -- the game's rule flags, as the command line's --rules flag=value --------------------------------------
function choiceWords(value) {
  if (typeof value !== "string") return String(value);
  return t(/^p\d$/.test(value) ? value.toUpperCase() : value.replace(/_/g, " "));
}

function flagValueWords(flag, value) {
  if (flag.kind === "bool") return value ? t("on") : t("off");
  return choiceWords(value);
}

function flagControl(flag) {
  const value = flag.name in S.flags ? S.flags[flag.name] : flag.default;
  const key = "flag-" + flag.name;
  const set = (v) => {
    if (v === flag.default || (typeof flag.default === "number" && Number(v) === flag.default)) delete S.flags[flag.name];
    else S.flags[flag.name] = v;
    S.estimate = null;
    draw();
  };
  const aria = t(flag.doc || flag.name);
  let control;
  if (flag.kind === "bool") {
    control = h("input", { type: "checkbox", checked: Boolean(value), dataset: { key }, "aria-label": aria,
      on: { change: (e) => set(e.target.checked) } });
  } else if (flag.choices) {
    control = h("select", { class: "input", dataset: { key }, "aria-label": aria,
      on: { change: (e) => set(flag.kind === "int" ? Number(e.target.value) : e.target.value) } },
    flag.choices.map((c) => h("option", { value: String(c), selected: String(c) === String(value) },
      choiceWords(c) + (String(c) === String(flag.default) ? " " + t("(standard)") : ""))));
  } else if (flag.kind === "int") {
    control = h("input", { type: "number", class: "input narrow", value: String(value), min: flag.min, max: flag.max,
      dataset: { key }, "aria-label": aria, on: { change: (e) => set(Number(e.target.value)) } });
  } else {
    control = h("input", { type: "text", class: "input", value: String(value), dataset: { key }, "aria-label": aria,
      on: { change: (e) => set(e.target.value) } });
  }
  return h("div", { class: ["flag", flag.name in S.flags ? "changed" : ""] },
    h("div", { class: "flag-head", dataset: { flag: flag.name } }, h("span", { class: "flag-name" }, t(flag.doc || flag.name)), control),
    h("div", { class: "flag-doc" },
      flag.ledger ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules(S.game, flag.ledger) } },
        flag.ledger) : null,
      " ", h("code", {}, flag.name), " ",
      h("span", { class: "muted" }, t("standard: {value}", { value: flagValueWords(flag, flag.default) }))));
}

function flagsPanel(g) {
  if (!(g.flags || []).length) return null;
  const changed = Object.keys(S.flags).length;
  const details = h("details", { class: "flags studio-flags", open: S.flagsOpen, dataset: { key: "flags" } },
    h("summary", {}, t("Rule flags"), " ",
      h("span", { class: "badge" }, changed ? tn("{n} changed", "{n} changed", changed) : t("standard rules"))),
    h("p", { class: "muted" }, t("Every variant plays under these rules, as the lab's --rules flag=value: the card set's numbers are set in the card set.")),
    changed ? h("p", { class: "studio-flag-items" }, h("code", {}, ruleItems().map((i) => "--rules " + i).join(" "))) : null,
    changed ? button(t("Back to the standard rules"), () => { S.flags = {}; S.estimate = null; draw(); }, { kind: "ghost" }) : null,
    h("div", { class: "flag-list" }, g.flags.map(flagControl)));
  details.addEventListener("toggle", () => { S.flagsOpen = details.open; });
  return details;
}

// -- the home page ---------------------------------------------------------------------------------------
async function loadStudies() {
  const [studies, sets] = await Promise.all([api("GET", "/api/studio/studies"), api("GET", "/api/studio/cardsets")]);
  S.studies = studies.studies;
  S.savedSets = sets.cardsets;
  if (!S.check) await runCheck();
}

function kindWord(kind) {
  return { single: t("alone"), ab: "A/B", sweep: t("sweep"), tune: t("tune") }[kind] || kind;
}

function answerOf(study) {
  return (study.answer && (study.answer[language()] || study.answer.en)) || "";
}

function pastStudies() {
  const list = S.studies || [];
  const chosen = new Set(S.pairChoice || []);
  return h("section", { class: "studio-panel", "aria-labelledby": "past-title" },
    h("h2", { id: "past-title" }, t("Past studies")),
    list.length ? h("ul", { class: "studio-list" }, list.map((st) => h("li", { class: "studio-list-item" },
      h("input", { type: "checkbox", "aria-label": t("Compare"), checked: chosen.has(st.id),
        on: { change: (e) => { togglePair(st.id, e.target.checked); } } }),
      h("a", { href: "/studio/studies/" + encodeURIComponent(st.id) }, statusWord(st.status), " · ",
        gameTitle(st.game), " · ", kindWord(st.kind), " · ", st.request.variants.map((v) => v.label).join(" / ")),
      h("p", { class: "studio-list-answer" }, answerOf(st))))) : h("p", { class: "muted" }, t("No study yet.")),
    (S.pairChoice || []).length === 2 ? h("a", { class: "btn", href: `/studio/compare?a=${encodeURIComponent(S.pairChoice[0])}&b=${encodeURIComponent(S.pairChoice[1])}` },
      t("Compare the two side by side")) : null);
}

function togglePair(id, on) {
  const list = (S.pairChoice || []).filter((x) => x !== id);
  if (on) list.push(id);
  S.pairChoice = list.slice(-2);
  draw();
}

function statusWord(status) {
  return { queued: t("queued"), running: t("running"), done: t("done"), cancelled: t("cancelled"),
    failed: t("failed") }[status] || status;
}

function homePage() {
  if (!S.catalog) return h("p", { class: "muted" }, t("Loading…"));
  return [h("h1", {}, t("Studio")),
    h("p", { class: "studio-lead" }, t("Change a card's numbers, then let the lab play thousands of games to tell you what it does.")),
    h("div", { class: "studio-grid" }, editor(), h("div", {}, launcher(), pastStudies()))];
}

// -- a study --------------------------------------------------------------------------------------------
async function loadStudy(id, shared) {
  S.shared = shared;
  const path = shared ? `/api/studio/shared/${encodeURIComponent(id)}` : `/api/studio/studies/${encodeURIComponent(id)}`;
  const data = await api("GET", `${path}?lang=${language()}`);
  S.study = data.study;
  S.progress = data.progress;
  S.report = data.report;
  if (["queued", "running"].includes(S.study.status)) openSocket(id);
}

function openSocket(id) {
  closeSocket();
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/api/studio/studies/${encodeURIComponent(id)}/ws`);
  S.socket = ws;
  ws.onmessage = async (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "progress") {
      S.progress = message;
      if (S.study) S.study.status = message.status;
      draw();
    } else if (message.type === "end") {
      closeSocket();
      try { await loadStudy(id, S.shared); } catch (e) { S.error = e; }
      draw();
    }
  };
}

function closeSocket() {
  if (S.socket) {
    S.socket.onmessage = null;
    S.socket.close();
    S.socket = null;
  }
}

function pct(x) {
  return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%";
}

function progressChart(variants) {
  const rowH = 34;
  // room for the longest label (a set's name and hash), at about 7.5 px a character of 13 px text
  const left = Math.min(320, Math.max(150, 16 + 7.5 * Math.max(0, ...variants.map((v) => String(v.label).length))));
  const width = left + 410;
  const plot = width - left - 20;
  const x = (v) => left + v * plot;
  const height = rowH * variants.length + 34;
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "studio-progress-chart", role: "img",
    "aria-label": t("The first player's share of the points so far, with its 95% interval") },
  [0, 0.25, 0.5, 0.75, 1].map((tick) => [
    s("line", { x1: x(tick), x2: x(tick), y1: 4, y2: height - 24, class: tick === 0.5 ? "even" : "grid" }),
    s("text", { x: x(tick), y: height - 8, "text-anchor": "middle", class: "tick" }, (100 * tick) + "%")]),
  variants.map((v, i) => {
    const cy = 20 + i * rowH;
    return s("g", {},
      s("text", { x: left - 8, y: cy + 5, "text-anchor": "end", class: "label" }, v.label),
      v.value === null ? null : [
        s("line", { x1: x(v.low), x2: x(v.high), y1: cy, y2: cy, class: "interval" }),
        s("circle", { cx: x(v.value), cy, r: 6, class: "dot" })]);
  }));
}

function progressPanel() {
  const p = S.progress;
  if (!p) return null;
  const running = ["queued", "running"].includes(p.status);
  const search = p.search || null;
  if (search && p.phase === "search" && running) return searchPanel(p, search);
  const fraction = p.planned ? p.done / p.planned : 0;
  return h("section", { class: "studio-panel studio-progress", "aria-labelledby": "progress-title" },
    h("h2", { id: "progress-title" }, running ? (search ? t("Checking the best sets on fresh games…") : t("Playing…"))
      : t("Games played")),
    h("progress", { max: 1, value: fraction, "aria-label": t("Games played") }),
    h("p", { class: "studio-progress-words", role: "status", "aria-live": "polite" },
      t("{done} of {planned} games", { done: p.done.toLocaleString(), planned: p.planned.toLocaleString() }),
      p.estimate_s !== null && p.estimate_s !== undefined && running ? " · " + t("{time} left", { time: seconds(p.estimate_s) }) : "",
      " · ", statusWord(p.status)),
    search ? h("p", { class: "muted studio-search-done" }, t("The search: {trials} trials, {games} games.",
      { trials: search.trials_done.toLocaleString(), games: search.games.toLocaleString() })) : null,
    (p.variants || []).length ? [
      h("p", { class: "muted" }, t("The first player's share of the points so far; the interval narrows as games come in.")),
      progressChart(p.variants),
      h("ul", { class: "studio-tallies" }, p.variants.map((v) => h("li", {},
        `${v.label}: ${pct(v.value)} [${pct(v.low)}, ${pct(v.high)}] · n = ${v.games.toLocaleString()}`)))] : null,
    running && !S.shared ? button(t("Cancel the study"), cancel, { kind: "danger", dataset: { key: "cancel" } }) : null);
}

function searchPanel(p, search) {
  const best = search.best;
  return h("section", { class: "studio-panel studio-progress", "aria-labelledby": "progress-title" },
    h("h2", { id: "progress-title" }, t("Searching…")),
    h("progress", { max: 1, value: search.trials ? search.trials_done / search.trials : 0, "aria-label": t("Trials") }),
    h("p", { class: "studio-progress-words", role: "status", "aria-live": "polite" },
      t("trial {done} of {trials}", { done: search.trials_done.toLocaleString(), trials: search.trials.toLocaleString() }),
      " · ", t("{games} games", { games: search.games.toLocaleString() }),
      p.estimate_s !== null && p.estimate_s !== undefined ? " · " + t("{time} left", { time: seconds(p.estimate_s) }) : "",
      " · ", statusWord(p.status)),
    h("p", { class: "studio-best", dataset: { key: "best-so-far" } }, best
      ? t("Best so far: {changes}: the first player scores {share} in its trial.",
        { changes: (best.changes && (best.changes[language()] || best.changes.en)) || "", share: pct(best.seat) })
      : t("No trial has finished yet.")),
    h("p", { class: "muted" }, t("Then the best sets are played again on games the search never saw.")),
    !S.shared ? button(t("Cancel the study"), cancel, { kind: "danger", dataset: { key: "cancel" } }) : null);
}

async function cancel() {
  try {
    await api("POST", `/api/studio/studies/${encodeURIComponent(S.study.id)}/cancel`);
    await loadStudy(S.study.id, false);
  } catch (e) {
    S.error = e;
  }
  draw();
}

function chartImage(chart) {
  return h("figure", { class: "studio-chart" },
    h("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(chart.svg), alt: chart.caption || chart.key }),
    chart.caption ? h("figcaption", {}, chart.caption) : null);
}

function foundSets(report) {
  if (!(report.sets || []).length) return null;
  const game = S.study ? S.study.game : S.game;
  return h("section", { class: "studio-found", "aria-labelledby": "found-title" },
    h("h3", { id: "found-title" }, t("The sets the search found")),
    h("ol", { class: "studio-found-list" }, report.sets.map((cs, i) => h("li", { class: "studio-found-set" },
      h("div", {},
        h("strong", { class: "studio-set-label" }, cs.label), h("br"),
        h("span", {}, cs.changes), h("br"),
        h("span", { class: "muted" }, t("first player {score} on {games} fresh games", {
          score: `${pct(cs.first.value)} [${pct(cs.first.low)}, ${pct(cs.first.high)}]`,
          games: cs.games.toLocaleString() }))),
      button(t("Load into the editor"), () => loadSet(game, cs),
        { kind: i === 0 ? "primary" : "", dataset: { key: "load-set-" + i } })))));
}

function reportTable(report) {
  const rows = report.table || [];
  if (!rows.length) return null;
  const columns = Object.keys(rows[0]);
  return h("section", { class: "studio-section" },
    report.table_title ? h("h3", {}, report.table_title) : null,
    h("div", { class: "studio-table-wrap" }, h("table", { class: "studio-table" },
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((r) => h("tr", {}, columns.map((c) => h("td", {}, String(r[c])))))))));
}

function reportView(report, options = {}) {
  if (!report) return null;
  return h("article", { class: "studio-report" },
    h("p", { class: "studio-answer", dataset: { answer: "" } }, report.answer),
    options.compact ? null : foundSets(report),
    options.compact ? null : h("h2", { class: "studio-report-title" }, report.title),
    report.subtitle ? h("p", { class: "muted" }, report.subtitle) : null,
    (report.summary || []).length ? h("ul", { class: "studio-summary" }, report.summary.map((line) => h("li", {}, line))) : null,
    (report.charts || []).map(chartImage),
    options.compact || !report.sets ? null : reportTable(report),
    options.compact ? null : (report.sections || []).map((sec) => h("section", { class: "studio-section" },
      h("h3", {}, sec.title),
      sec.refused ? h("p", { class: "muted" }, sec.refused) : h("div", { class: "studio-table-wrap" }, h("table", { class: "studio-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("item")), h("th", {}, sec.measure), h("th", {}, t("seat-games with / without")))),
        h("tbody", {}, sec.rows.map((r) => h("tr", { class: r.greyed ? "greyed" : "" },
          h("td", {}, r.name), h("td", {}, r.effect), h("td", {}, `${r.with.toLocaleString()} / ${r.without.toLocaleString()}`)))))))));
}

function shareBox() {
  const st = S.study;
  if (!st) return null;
  const link = `${location.origin}/studio/shared/${st.share_id}`;
  const files = `/api/studio/shared/${encodeURIComponent(st.share_id)}`;
  return h("section", { class: "studio-panel studio-share" },
    S.shared ? h("p", { class: "muted" }, t("A shared study: read-only.")) : [
      h("h2", {}, t("Share")),
      h("input", { type: "text", readonly: true, value: link, "aria-label": t("Share link"), dataset: { key: "share-link" },
        on: { focus: (e) => e.target.select() } })],
    st.status === "done" ? h("div", { class: "studio-actions" },
      h("a", { class: "btn", href: `${files}/report.html?lang=${language()}`, download: "" }, t("Download the report (HTML)")),
      h("a", { class: "btn", href: `${files}/report.csv`, download: "" }, t("Download the games (CSV)"))) : null);
}

function studyPage() {
  if (!S.study) return h("p", { class: "muted" }, t("Loading…"));
  const st = S.study;
  return [
    h("nav", { class: "studio-crumbs" }, h("a", { href: "/studio" }, t("Studio"))),
    S.report ? reportView(S.report) : null,
    st.error ? h("p", { class: "studio-problems" }, st.error) : null,
    progressPanel(),
    h("p", { class: "muted" }, gameTitle(st.game), " · ", kindWord(st.kind), " · ",
      st.request.variants.map((v) => v.label).join(" / "), " · ",
      st.request.tune ? t("{numbers}; target {target}; {trials} trials; {n} games to check each set", {
        numbers: st.request.tune.vary.map((v) => `${v.key} ${v.low}–${v.high}`).join(", "),
        target: pct(st.request.tune.target), trials: st.request.tune.trials, n: st.request.games.toLocaleString() })
        : t("{n} games each", { n: st.request.games.toLocaleString() }), " · ", st.request.agents.join(" / ")),
    shareBox(),
  ];
}

// -- two studies side by side -------------------------------------------------------------------------------
async function loadPair(a, b) {
  const one = async (id) => api("GET", `/api/studio/studies/${encodeURIComponent(id)}?lang=${language()}`);
  S.pair = await Promise.all([one(a), one(b)]);
}

function comparePage() {
  if (!S.pair) return h("p", { class: "muted" }, t("Loading…"));
  return [h("nav", { class: "studio-crumbs" }, h("a", { href: "/studio" }, t("Studio"))),
    h("h1", {}, t("Two studies side by side")),
    h("div", { class: "studio-pair" }, S.pair.map((d) => h("div", { class: "studio-panel" },
      h("p", { class: "muted" }, gameTitle(d.study.game), " · ", d.study.request.variants.map((v) => v.label).join(" / ")),
      d.report ? reportView(d.report, { compact: true }) : h("p", {}, statusWord(d.study.status)))))];
}

export default {
  start,
  draw: () => {
    if ((S.view === "study" || S.view === "shared") && S.study) {
      loadStudy(S.params[1], S.view === "shared").then(draw, (e) => { S.error = e; draw(); });
    } else if (S.view === "compare" && S.pair) {
      loadPair(S.pair[0].study.id, S.pair[1].study.id).then(draw, (e) => { S.error = e; draw(); });
    }
    draw();
  },
};

// The designer's studio: edit a card set (checked as you type, by the server's own checks), launch a
// study of it (one configuration, an A/B against the rulebook, or a sweep), watch it play over the
// socket, and read its report: the answer first, then the evidence. Past studies, a side-by-side
// comparison of two, and a share link that anyone can open. Every game's names and numbers come from
// the server (/api/studio/games): this page never names a game.
import { h, render, s } from "../dom.js";
import { language, t } from "../i18n.js";
import { api } from "../api.js";
import { button, errorBox, field, GAMES, gameTitle } from "../ui.js";

const S = {
  container: null, view: "home", params: [], catalog: null, error: null,
  // the card-set editor
  game: null, values: {}, name: "", check: null, saved: null, checking: 0,
  // the launcher
  kind: "ab", agents: "heuristic", games: 200, setupText: "", parameter: "", sweepValues: "", estimate: null, launching: false,
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
}

function itemName(item) {
  return language() === "ja" ? item.ja || item.en : item.en || item.ja;
}

function numberLabel(n) {
  const g = spec();
  const item = g && g.items.find((i) => i.id === n.item);
  return (item ? itemName(item) : n.item) + " · " + n.field;
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
        return h("label", { class: ["studio-number", differs ? "changed" : ""] },
          h("span", { class: "studio-field" }, n.field),
          h("input", { type: "number", inputmode: "numeric", min: n.min, max: n.max, value,
            "aria-label": numberLabel(n), dataset: { key: "num-" + n.key, number: n.key },
            on: { input: (e) => changed(n.key, e.target.value) } }),
          h("span", { class: "studio-default" }, t("rulebook {value}", { value: n.default })));
      }))));
  }
  return h("section", { class: "studio-panel", "aria-labelledby": "set-title" },
    h("h2", { id: "set-title" }, t("Card set")),
    h("div", { class: "studio-row" },
      field(t("Game"), h("select", { dataset: { key: "game" }, on: { change: (e) => { pickGame(e.target.value); draw(); } } },
        S.catalog.games.map((x) => h("option", { value: x.game, selected: x.game === S.game }, gameTitle(x.game))))),
      field(t("Name"), h("input", { type: "text", maxlength: 64, value: S.name, placeholder: t("my playtest"),
        dataset: { key: "set-name" }, on: { input: (e) => { S.name = e.target.value; S.saved = null; } } }))),
    h("div", { class: "studio-check", role: "status", "aria-live": "polite" },
      problems.length
        ? h("div", { class: "studio-problems" }, h("strong", {}, t("This set cannot be played yet:")),
          h("ul", {}, problems.map((p) => h("li", {}, p))))
        : h("div", { class: "studio-diff" },
          h("strong", {}, diff.length ? t("Changed from the rulebook:") : t("The rulebook's numbers (nothing changed yet).")),
          diff.length ? h("ul", {}, diff.map((d) => h("li", {},
            numberLabel(g.numbers.find((n) => n.key === d.key) || { item: d.key, field: "" }) + ": ",
            h("del", {}, String(d.default)), " → ", h("ins", {}, String(d.value))))) : null,
          S.check && S.check.ok && diff.length ? h("span", { class: "studio-hash" }, "#" + S.check.hash) : null)),
    h("div", { class: "studio-actions" },
      button(t("Save"), save, { kind: "primary", disabled: !setRules(), dataset: { key: "save-set" } }),
      S.saved ? [
        h("a", { class: "btn", href: S.saved.toml + "?lang=" + language(), download: "" }, t("Download TOML")),
        h("a", { class: "btn", href: S.saved.pdf, download: "" }, t("Print (PDF)")),
      ] : null,
      button(t("Open a room that plays it"), openRoom, { disabled: !setRules(), dataset: { key: "open-room" } })),
    h("div", { class: "studio-table-wrap" }, h("table", { class: "studio-table" }, h("tbody", {}, rows))));
}

async function save() {
  try {
    S.saved = await api("POST", "/api/studio/cardsets", { game: S.game, name: S.name || "custom", values: S.values });
  } catch (e) {
    S.error = e;
  }
  draw();
}

async function openRoom() {
  try {
    const made = await api("POST", "/api/rooms", { game: S.game, title: (S.name || "custom").slice(0, 40),
      rules: setRules() || {} });
    location.href = "/room/" + encodeURIComponent(made.room.id);
  } catch (e) {
    S.error = e;
    draw();
  }
}

// -- launching -----------------------------------------------------------------------------------------
function studyBody() {
  const rules = setRules() || {};
  const label = S.name || (S.check && S.check.ok && S.check.changed.length ? "#" + S.check.hash : t("rulebook"));
  const base = { kind: S.kind, game: S.game, agents: [S.agents], games: Number(S.games),
    setup_items: S.setupText.split(/\s+/).filter(Boolean) };
  if (S.kind === "single") return { ...base, label, rules };
  if (S.kind === "ab") return { ...base, a: { label: t("rulebook"), rules: {} }, b: { label, rules } };
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
  return h("section", { class: "studio-panel", "aria-labelledby": "launch-title" },
    h("h2", { id: "launch-title" }, t("Study")),
    h("div", { class: "studio-row" },
      field(t("Question"), h("select", { dataset: { key: "kind" }, on: { change: (e) => { S.kind = e.target.value; S.estimate = null; draw(); } } },
        kinds.map(([k, words]) => h("option", { value: k, selected: S.kind === k }, words)))),
      field(t("Who plays the games"), h("select", { dataset: { key: "agents" }, on: { change: (e) => { S.agents = e.target.value; S.estimate = null; draw(); } } },
        S.catalog.agents.map((a) => h("option", { value: a, selected: S.agents === a }, AGENT_WORDS[a] ? AGENT_WORDS[a]() : a)))),
      field(t("Games"), h("input", { type: "number", min: 1, max: 20000, step: 100, value: S.games,
        dataset: { key: "games" }, on: { input: (e) => { S.games = e.target.value; S.estimate = null; } } }),
      t("More games narrow the interval: 2,000 tell apart about 3 points.")),
      field(t("Setup (optional)"), h("input", { type: "text", value: S.setupText, placeholder: "decks=random,random",
        dataset: { key: "setup" }, on: { input: (e) => { S.setupText = e.target.value; S.estimate = null; } } }),
      t("As the lab's --setup writes it, items separated by spaces: random decks or loadouts measure each card."))),
    S.kind === "sweep" ? h("div", { class: "studio-row" },
      field(t("Number to sweep"), h("select", { dataset: { key: "parameter" }, on: { change: (e) => { S.parameter = e.target.value; } } },
        h("option", { value: "" }, "—"),
        g.numbers.filter((n) => !n.fixed).map((n) => h("option", { value: n.key, selected: S.parameter === n.key }, numberLabel(n))))),
      field(t("Values"), h("input", { type: "text", value: S.sweepValues, placeholder: "2, 3, 5, 8", dataset: { key: "values" },
        on: { input: (e) => { S.sweepValues = e.target.value; } } }))) : null,
    h("div", { class: "studio-actions" },
      button(t("Estimate the time"), estimate, { dataset: { key: "estimate" } }),
      S.estimate ? h("span", { class: "studio-estimate", role: "status" },
        t("{games} games, {time}", { games: S.estimate.planned.toLocaleString(), time: seconds(S.estimate.seconds) })) : null,
      button(S.launching ? t("Launching…") : t("Launch the study"), launch,
        { kind: "primary", disabled: S.launching || !setRules(), dataset: { key: "launch" } })));
}

// -- the home page ---------------------------------------------------------------------------------------
async function loadStudies() {
  S.studies = (await api("GET", "/api/studio/studies")).studies;
  if (!S.check) await runCheck();
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
        gameTitle(st.game), " · ", st.request.variants.map((v) => v.label).join(" / ")),
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
  const width = 560;
  const rowH = 34;
  const left = 150;
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
  const fraction = p.planned ? p.done / p.planned : 0;
  return h("section", { class: "studio-panel studio-progress", "aria-labelledby": "progress-title" },
    h("h2", { id: "progress-title" }, running ? t("Playing…") : t("Games played")),
    h("progress", { max: 1, value: fraction, "aria-label": t("Games played") }),
    h("p", { class: "studio-progress-words", role: "status", "aria-live": "polite" },
      t("{done} of {planned} games", { done: p.done.toLocaleString(), planned: p.planned.toLocaleString() }),
      p.estimate_s !== null && p.estimate_s !== undefined && running ? " · " + t("{time} left", { time: seconds(p.estimate_s) }) : "",
      " · ", statusWord(p.status)),
    (p.variants || []).length ? [
      h("p", { class: "muted" }, t("The first player's share of the points so far; the interval narrows as games come in.")),
      progressChart(p.variants),
      h("ul", { class: "studio-tallies" }, p.variants.map((v) => h("li", {},
        `${v.label}: ${pct(v.value)} [${pct(v.low)}, ${pct(v.high)}] · n = ${v.games.toLocaleString()}`)))] : null,
    running && !S.shared ? button(t("Cancel the study"), cancel, { kind: "danger", dataset: { key: "cancel" } }) : null);
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

function reportView(report, options = {}) {
  if (!report) return null;
  return h("article", { class: "studio-report" },
    h("p", { class: "studio-answer", dataset: { answer: "" } }, report.answer),
    options.compact ? null : h("h2", { class: "studio-report-title" }, report.title),
    report.subtitle ? h("p", { class: "muted" }, report.subtitle) : null,
    (report.summary || []).length ? h("ul", { class: "studio-summary" }, report.summary.map((line) => h("li", {}, line))) : null,
    (report.charts || []).map(chartImage),
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
    h("p", { class: "muted" }, gameTitle(st.game), " · ", st.request.variants.map((v) => v.label).join(" / "), " · ",
      t("{n} games each", { n: st.request.games.toLocaleString() }), " · ", st.request.agents.join(" / ")),
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

// The replay viewer: step through a finished game as a seat saw it, as a spectator, or revealed (every
// seat's knowledge together). Each step is the server's view and log after that many actions.
import { h, render, s as svg } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api, inviteOf, seatOf } from "./api.js";
import { button, errorBox, gameTitle, openRules, seatNames } from "./ui.js";
import { loadGame, logPanel } from "./table.js";
import { endHow, hiddenSenders } from "./social.js";

const P = {
  container: null, room: null, gameNo: 1, info: null, step: 0, mode: "reveal", data: null, events: [], lines: [],
  module: null, cards: null, error: null, timer: null, invite: null, token: null, loading: false, hidden: new Set(),
};

function query() {
  const q = [];
  if (P.invite) q.push("invite=" + encodeURIComponent(P.invite));
  if (P.mode === "reveal") q.push("reveal=true");
  else if (P.mode !== "spectator") q.push("seat=" + P.mode);
  return q;
}

async function fetchStep(step, forward) {
  P.loading = true;
  const since = forward ? P.events.length : 0;
  const q = [...query(), "since=" + since];
  try {
    const data = await api("GET", `/web/rooms/${P.room}/replay/${P.gameNo}/${step}?${q.join("&")}`, undefined, P.token || undefined);
    P.events = P.events.slice(0, data.events_from).concat(data.events);
    P.lines = P.lines.slice(0, data.events_from).concat(data.log);
    P.data = data;
    P.step = step;
    P.error = null;
  } catch (e) {
    P.error = e;
    stop();
  }
  P.loading = false;
  const url = new URL(location.href);
  url.searchParams.set("step", String(P.step));
  url.searchParams.set("as", String(P.mode));
  history.replaceState(null, "", url.pathname + url.search);
  draw();
}

function go(step) {
  if (!P.info) return;
  const target = Math.max(0, Math.min(P.info.steps, step));
  if (target === P.step && P.data) return;
  fetchStep(target, target === P.step + 1 && P.data !== null);
}

function stop() {
  clearInterval(P.timer);
  P.timer = null;
}

function play() {
  if (P.timer) return stop();
  if (P.step >= P.info.steps) go(0);
  P.timer = setInterval(() => {
    if (P.loading) return;
    if (P.step >= P.info.steps) { stop(); draw(); return; }
    go(P.step + 1);
  }, 900);
  draw();
}

async function start(container, params, queryParams) {
  P.container = container;
  P.room = params[0];
  P.gameNo = Number(params[1]);
  P.invite = queryParams.get("invite") || inviteOf(P.room);
  const entry = seatOf(P.room);
  P.token = entry ? entry.token : null;
  const as = queryParams.get("as");
  P.mode = as === null ? "reveal" : as;
  draw();
  try {
    const q = P.invite ? `?invite=${encodeURIComponent(P.invite)}` : "";
    [P.info, P.cards, P.hidden] = await Promise.all([
      api("GET", `/web/rooms/${P.room}/replay/${P.gameNo}${q}`, undefined, P.token || undefined),
      api("GET", "/web/cards"), hiddenSenders()]);
    P.module = await loadGame(P.info.game);
    P.extra = P.module.prepare ? await P.module.prepare(P.info.setup, P.info.rules) : null;
  } catch (e) {
    P.error = e;
    draw();
    return;
  }
  const step = Number(queryParams.get("step") || 0);
  await fetchStep(Number.isFinite(step) ? step : 0, false);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(P.step + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go(P.step - 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(P.info.steps); }
  });
}

function context() {
  const d = P.data;
  return {
    game: P.info.game, view: d.view, legal: [], names: seatNames(P.info.names), seat: d.seat, toMove: d.to_move, rules: P.info.rules,
    setup: P.info.setup, cards: P.cards, events: P.events, outcome: d.outcome, started: true, selected: null, hint: null,
    interactive: false, replay: true, extra: P.extra, select: () => {}, act: () => {}, notify: () => {},
  };
}

const ICONS = {
  first: "M5 4h2v12H5zM16 4v12L8 10z",
  back: "M14 4v12L6 10z",
  play: "M6 4v12l10-6z",
  pause: "M5 4h3v12H5zM12 4h3v12h-3z",
  next: "M6 4v12l8-6z",
  last: "M13 4h2v12h-2zM4 4v12l8-6z",
};

function icon(name) {
  return svg("svg", { viewBox: "0 0 20 20", width: 16, height: 16, "aria-hidden": "true" }, svg("path", { d: ICONS[name], fill: "currentColor" }));
}

function controls() {
  const info = P.info;
  const range = h("input", { type: "range", min: 0, max: info.steps, value: P.step, "aria-label": t("Step"), dataset: { key: "range" } });
  range.addEventListener("change", () => go(Number(range.value)));
  const mode = h("select", { class: "input", dataset: { key: "mode" }, "aria-label": t("Seen by"), style: { width: "auto" } },
    h("option", { value: "reveal", selected: P.mode === "reveal" }, t("Revealed (every hand)")),
    h("option", { value: "spectator", selected: P.mode === "spectator" }, t("A spectator")),
    seatNames(info.names).map((name, p) => h("option", { value: String(p), selected: P.mode === String(p) }, t("As {name}", { name }))));
  mode.addEventListener("change", () => { P.mode = mode.value; P.events = []; P.lines = []; fetchStep(P.step, false); });
  return h("div", { class: "replay-bar", role: "group", "aria-label": t("Replay controls") },
    button(icon("first"), () => go(0), { aria: t("First"), dataset: { key: "first" }, class: "small" }),
    button(icon("back"), () => go(P.step - 1), { aria: t("Back"), dataset: { key: "back" }, class: "small" }),
    button(icon(P.timer ? "pause" : "play"), play, { aria: P.timer ? t("Pause") : t("Play"), dataset: { key: "play" }, class: "small", kind: "primary" }),
    button(icon("next"), () => go(P.step + 1), { aria: t("Next"), dataset: { key: "next" }, class: "small" }),
    button(icon("last"), () => go(info.steps), { aria: t("Last"), dataset: { key: "last" }, class: "small" }),
    h("span", { class: "replay-step", id: "replay-step" }, t("{n} / {total}", { n: P.step, total: info.steps })),
    range, mode);
}

function draw() {
  if (!P.container) return;
  if (!P.info || !P.data || !P.module) {
    render(P.container, h("section", { class: "page" }, errorBox(P.error) || h("p", { class: "muted loading" }, t("Loading the replay…"))));
    return;
  }
  const ctx = context();
  const info = P.info;
  document.title = t("Replay") + " · " + gameTitle(info.game) + " · cardtable";
  const action = P.step > 0 ? info.actions[P.step - 1] : null;
  const actor = P.step > 0 ? lastActor() : null;
  const outcome = P.data.outcome;
  render(P.container, h("section", { class: ["page", "replay", "game-" + info.game] },
    h("div", { class: "room-head" },
      h("div", { class: "room-titles" }, h("h1", null, t("Replay")),
        h("span", { class: ["badge", "game-" + info.game] }, gameTitle(info.game)),
        h("span", { class: "badge" }, t("Game {n}", { n: info.game_no }))),
      h("div", { class: "room-tools" },
        button(t("Rules"), () => openRules(info.game), { kind: "ghost", class: "small" }),
        h("a", { class: "btn btn-ghost small", href: `/room/${info.room}` + (P.invite ? `?invite=${encodeURIComponent(P.invite)}` : "") }, t("Back to the room")))),
    errorBox(P.error),
    controls(),
    h("p", { class: "last-action", id: "last-action" }, action ? [h("strong", null, t("Move {n}:", { n: P.step })), " ",
      actor !== null ? seatNames(info.names)[actor] + " · " : "", P.module.describeAction(action, { ...ctx, seat: actor }), " ", h("code", { class: "muted" }, action)]
      : t("The start of the game: step forward with the ▶ buttons or the → key.")),
    P.step === info.steps && info.end ? endHow({ end: info.end.kind, loser: info.end.seat }, seatNames(info.names), null) : null,
    outcome ? h("section", { class: "end-card" }, h("h2", null, outcome.winner_names && outcome.winner_names.length
      ? t("{names} won", { names: seatNames(outcome.winner_names).join(" & ") }) : t("Draw")),
    h("p", { class: "reason" }, P.module.reason(outcome, ctx), " ", outcome.rule ? h("button", { type: "button", class: "rule-link",
      on: { click: () => openRules(info.game, outcome.rule) } }, outcome.rule) : null),
    P.module.endDetail ? P.module.endDetail(ctx) : null,
    P.module.detail && P.module.detail(outcome, ctx) ? h("p", { class: "muted small end-detail" }, P.module.detail(outcome, ctx)) : null) : null,
    h("div", { class: "room-grid" },
      h("div", { class: "board-area" }, P.module.render(ctx)),
      h("aside", { class: "side" }, logPanel(ctx, P.module, P.lines), chatReplay(info)))));
}

/** The game's chat, kept with its record: every message as text, but none from a player this viewer muted or blocked. */
function chatReplay(info) {
  const all = info.chat || [];
  const messages = all.filter((m) => !(m.account && P.hidden.has(m.account)));
  const left = all.length - messages.length;
  if (!all.length) return null;
  return h("section", { class: "card side-card chat-card", id: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("Chat")),
    messages.length ? h("ul", { class: "chat-log", id: "chat-log" }, messages.map((m) => h("li", { class: ["chat-msg", m.seat === null ? "from-spectator" : ""] },
      h("span", { class: "chat-who" }, m.label || m.name || ""), h("span", { class: "chat-text" }, m.text)))) : null,
    left ? h("p", { class: "muted small", id: "chat-hidden" },
      tn("{n} message from muted players is not shown.", "{n} messages from muted players are not shown.", left)) : null);
}

function lastActor() {
  for (const e of P.events) {
    if (e.move === P.step - 1 && e.player !== undefined && e.player !== null) return e.player;
  }
  return null;
}

export default { start, draw };

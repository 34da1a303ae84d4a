// The parts of a game page that every game shares: its module, the list of choices and the log.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { loadGames, seatNames } from "./ui.js";

/** The page module of a game (render, prompt, describeEvent, describeAction, reason), at the address the server gives. */
export async function loadGame(name) {
  const page = (await loadGames())[name];
  if (!page) throw new Error("no page for game " + name);
  return (await import(page.module)).default;
}

function groupKey(action) {
  const m = /^(.*[@: ])([^@: ]+)$/.exec(action);
  return m ? [m[1], m[2]] : [action, ""];
}

/** Every legal action as a button (grouped when there are many), and a box to type one. */
export function choicesPanel(ctx, module) {
  const legal = ctx.legal;
  const groups = new Map();
  for (const a of legal) {
    const [head] = groupKey(a);
    if (!groups.has(head)) groups.set(head, []);
    groups.get(head).push(a);
  }
  const many = legal.length > 24;
  const items = [];
  for (const [head, actions] of groups) {
    if (many && actions.length > 3) {
      items.push(h("li", { class: "choice-group" },
        h("span", { class: "group-label" }, module.groupLabel ? module.groupLabel(head, actions, ctx) : head),
        h("span", { class: "group-items" }, actions.map((a) => h("button", {
          type: "button", class: ["chip-btn", ctx.hint === a ? "hinted" : ""], dataset: { action: a, key: "choice-" + a },
          title: module.describeAction(a, ctx), disabled: !ctx.interactive, on: { click: () => ctx.act(a) },
        }, groupKey(a)[1])))));
    } else {
      for (const a of actions) {
        items.push(h("li", null, h("button", {
          type: "button", class: ["choice", ctx.hint === a ? "hinted" : ""], dataset: { action: a, key: "choice-" + a },
          disabled: !ctx.interactive, on: { click: () => ctx.act(a) },
        }, module.describeAction(a, ctx), h("code", { class: "choice-code" }, a))));
      }
    }
  }
  const input = h("input", { class: "input mono", list: "legal-actions", placeholder: t("A move's notation; the list offers the legal moves"),
    "aria-label": t("Type a move"), dataset: { key: "command" }, autocomplete: "off", spellcheck: "false", id: "command" });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && input.value.trim()) {
      e.preventDefault();
      ctx.act(input.value.trim());
    }
  });
  return h("section", { class: "card side-card choices", "aria-labelledby": "choices-title" },
    h("h2", { id: "choices-title" }, t("Your choices"), " ", h("span", { class: "badge" }, String(legal.length))),
    ctx.hint ? h("p", { class: "hint-line", role: "status" }, t("Hint: {move}", { move: module.describeAction(ctx.hint, ctx) })) : null,
    h("details", { class: "choice-details", open: legal.length <= 12 },
      h("summary", null, tn("Show the {n} legal move", "Show all {n} legal moves", legal.length)),
      h("ul", { class: "choice-list" }, items)),
    h("label", { class: "field command" }, h("span", { class: "field-label" }, t("Type a move")), input,
      h("datalist", { id: "legal-actions" }, legal.slice(0, 400).map((a) => h("option", { value: a, label: module.describeAction(a, ctx) })))));
}

/** Who sat in each seat, game version by version (the room's seat history): a seat's sittings in order. */
function sittingsOf(ctx) {
  return (ctx.seats || []).map((s) => [...(s.history || [])].sort((a, b) => a.from_version - b.from_version));
}

/** The sitting that made the moves at ``move`` (the first one also covers the deal, whose events have move -1). */
function sittingAt(list, move) {
  let found = list.length ? 0 : -1;
  for (let k = 1; k < list.length; k++) if (list[k].from_version <= move) found = k;
  return found;
}

function sittingLabel(p, sitting) {
  return sitting.spec === "human" ? `P${p + 1} ${sitting.name}` : `P${p + 1} (${sitting.spec})`;
}

/** A change of who sits in a seat, as a log line: a person left and a bot plays on, or somebody sat down. */
function sittingLine(p, before, after) {
  const seat = "P" + (p + 1);
  if (before && before.spec === "human" && after.spec !== "human") return t("{seat} {name} left; a bot plays on.", { seat, name: before.name });
  if (after.spec === "human") return t("{seat} {name} takes the seat.", { seat, name: after.name });
  return null;
}

/** The seat's log in words, newest last; each line names whoever sat in a seat when it happened. */
export function logPanel(ctx, module, lines) {
  const events = ctx.events || [];
  const start = Math.max(0, events.length - 400);
  const items = [];
  let turn = null;
  const sittings = sittingsOf(ctx);
  const known = sittings.some((list) => list.length > 1);
  let current = sittings.map((list) => (events.length ? sittingAt(list, events[start].move ?? 0) : -1));
  const changes = (move, index) => {
    sittings.forEach((list, p) => {
      const now = sittingAt(list, move);
      if (now > current[p] && current[p] >= 0) {
        const text = sittingLine(p, list[current[p]], list[now]);
        if (text) items.push(h("li", { class: "log-line kind-seat important", dataset: { index } }, text));
      }
      if (now >= 0) current[p] = now;
    });
  };
  for (let i = start; i < events.length; i++) {
    const e = events[i];
    let names = ctx.names;
    if (known && e.move !== undefined && e.move !== null) {
      changes(e.move, i - 1);
      names = seatNames(ctx.names.map((name, p) => (current[p] >= 0 && sittings[p][current[p]] ? sittingLabel(p, sittings[p][current[p]]) : name)));
    }
    let text = null;
    try { text = module.describeEvent(e, names, ctx); } catch { text = null; }
    if (!text) text = lines[i] || e.kind;
    const important = module.importantEvent ? module.importantEvent(e) : false;
    items.push(h("li", { class: ["log-line", "kind-" + e.kind, important ? "important" : "",
      e.player !== undefined && e.player !== null ? "by-" + e.player : ""], dataset: { index: i } }, text));
    turn = e.turn ?? turn;
  }
  if (known && events.length) changes(Infinity, events.length - 1);  // somebody left after the last move
  return h("section", { class: "card side-card log-card", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("Game log")),
    start > 0 ? h("p", { class: "muted small" }, tn("{n} earlier line is not shown.", "{n} earlier lines are not shown.", start)) : null,
    h("ol", { class: "log", "data-scroll": "log", "aria-live": "polite", "aria-relevant": "additions", id: "log" }, items));
}

// The parts of a game page that every game shares: its module, the list of choices and the log.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { loadGames } from "./ui.js";

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
  const input = h("input", { class: "input mono", list: "legal-actions", placeholder: t("e.g. {action}", { action: legal[0] || "pass" }),
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
      h("datalist", { id: "legal-actions" }, legal.slice(0, 400).map((a) => h("option", { value: a })))));
}

/** The seat's log in words, newest last. */
export function logPanel(ctx, module, lines) {
  const events = ctx.events || [];
  const start = Math.max(0, events.length - 400);
  const items = [];
  let turn = null;
  for (let i = start; i < events.length; i++) {
    const e = events[i];
    let text = null;
    try { text = module.describeEvent(e, ctx.names, ctx); } catch { text = null; }
    if (!text) text = lines[i] || e.kind;
    const important = module.importantEvent ? module.importantEvent(e) : false;
    items.push(h("li", { class: ["log-line", "kind-" + e.kind, important ? "important" : "",
      e.player !== undefined && e.player !== null ? "by-" + e.player : ""], dataset: { index: i } }, text));
    turn = e.turn ?? turn;
  }
  return h("section", { class: "card side-card log-card", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("Game log")),
    start > 0 ? h("p", { class: "muted small" }, tn("{n} earlier line is not shown.", "{n} earlier lines are not shown.", start)) : null,
    h("ol", { class: "log", "data-scroll": "log", "aria-live": "polite", "aria-relevant": "additions", id: "log" }, items));
}

// Oscilloscope's page: the trains drawn as channels on a scope screen (SVG), each card's waveform from
// the levels at its edges (the card data), the triggers on their cards, the solo filters at the left edge,
// the slice the triggers would capture at the next shift lit; hands, score piles, noise and decks.
import { h, s } from "../dom.js";
import { joinList, t, tn } from "../i18n.js";
import { button, endingWords, openRules, seatChip } from "../ui.js";
import { api } from "../api.js";

const LETTERS = "ABCDEF";
const POSITIONS = 5;
const PREFIX = 104;
const SEG = 116;
const RULER = 26;
const TRIG = 26;
const WAVE = 56;
const NAME = 18;
const ROW = TRIG + WAVE + NAME + 10;
const WIDTH = PREFIX + SEG * POSITIONS + 12;
const COLORS = ["#36d6e0", "#ff5c9a", "#ffb347", "#a78bfa", "#69db7c", "#4dabf7"];
const SOLO_COLORS = ["#36d6e0", "#ffd166"];

function kinds(ctx) {
  const out = {};
  for (const c of (ctx.cards && ctx.cards.oscilloscope) || []) out[c.token] = c;
  return out;
}

function matches(ctx) { return (ctx.cards && ctx.cards.oscilloscope_matches) || {}; }

/** A card's name: the token, and in words on hover. */
export function cardWords(ctx, token) {
  const k = kinds(ctx)[token];
  return k ? `${token} (${t(k.english)})` : token;
}

function owners(view) {
  const out = {};
  (view.assigned_trains || []).forEach((letters, p) => { for (const l of letters || []) out[l] = p; });
  return out;
}

function trainColor(view, letter) {
  if (view.players === 1) return SOLO_COLORS[LETTERS.indexOf(letter) % 2];
  const p = owners(view)[letter];
  return p === undefined ? "#9ec7ba" : COLORS[p % COLORS.length];
}

function levelY(top, level) {
  if (level === "H") return top + 8;
  if (level === "L") return top + WAVE - 8;
  return top + WAVE / 2;
}

/** The segments of one card's waveform between x0 and x1 (the card data's edge levels; its stored out-level). */
function waveParts(ctx, slot, x0, x1, top, color) {
  const k = kinds(ctx)[slot.card];
  const xm = (x0 + x1) / 2;
  const parts = [];
  if (!k) return { parts, left: null, right: null };
  if (k.stroke === "step") {
    const a = levelY(top, k.left);
    const b = levelY(top, k.right);
    parts.push(s("path", { class: "wave", stroke: color, d: `M${x0},${a} H${xm} V${b} H${x1}` }));
    return { parts, left: a, right: b };
  }
  if (k.stroke === "slope") {
    if (k.left === "HL") {
      parts.push(s("path", { class: "wave", stroke: color, d: `M${x0},${levelY(top, "H")} L${x1},${levelY(top, "L")} M${x0},${levelY(top, "L")} L${x1},${levelY(top, "H")}` }));
      return { parts, left: null, right: null };
    }
    const a = levelY(top, k.left);
    const b = levelY(top, k.right);
    parts.push(s("path", { class: "wave", stroke: color, d: `M${x0},${a} L${x1},${b}` }));
    return { parts, left: a, right: b };
  }
  if (k.stroke === "flat") {
    const out = slot.out || "*";
    const y = levelY(top, out);
    parts.push(s("path", { class: ["wave", out === "*" ? "wild" : ""].join(" "), stroke: color, d: `M${x0},${y} H${x1}` }));
    return { parts, left: out === "*" ? null : y, right: out === "*" ? null : y };
  }
  // a word card: noise (a glitch) or clear
  const hi = levelY(top, "H");
  const lo = levelY(top, "L");
  let d = `M${x0},${(hi + lo) / 2}`;
  const steps = 10;
  for (let i = 1; i <= steps; i++) d += ` L${x0 + ((x1 - x0) * i) / steps},${i % 2 ? hi + 4 : lo - 4}`;
  parts.push(s("path", { class: "noise", stroke: slot.card === "NOISE" ? "#ff6b6b" : color, d }));
  return { parts, left: null, right: null };
}

/** A small drawing of a card for hands and filters (the same edge levels). */
function glyph(ctx, token, width = 60, height = 30, color = "#cfe9df") {
  const k = kinds(ctx)[token];
  const pad = 4;
  const H = pad;
  const L = height - pad;
  const M = height / 2;
  const y = (lvl) => (lvl === "H" ? H : lvl === "L" ? L : M);
  const kids = [];
  if (k && k.stroke === "step") kids.push(s("path", { d: `M2,${y(k.left)} H${width / 2} V${y(k.right)} H${width - 2}`, stroke: color, "stroke-width": 2.5, fill: "none" }));
  else if (k && k.stroke === "slope" && k.left === "HL") kids.push(s("path", { d: `M4,${H} L${width - 4},${L} M4,${L} L${width - 4},${H}`, stroke: color, "stroke-width": 2.5, fill: "none" }));
  else if (k && k.stroke === "slope") kids.push(s("path", { d: `M4,${y(k.left)} L${width - 4},${y(k.right)}`, stroke: color, "stroke-width": 2.5, fill: "none" }));
  else if (k && k.stroke === "flat") kids.push(s("path", { d: `M2,${M} H${width - 2}`, stroke: color, "stroke-width": 2.5, fill: "none" }));
  else kids.push(s("text", { x: width / 2, y: M + 4, "text-anchor": "middle", fill: token === "NOISE" ? "#ff8787" : color, "font-size": 11, "font-weight": 700 },
    token === "NOISE" ? "noise" : "clear"));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, "aria-hidden": "true" }, kids);
}

/** Where every card of a train sits after the next shift (OSC-R23, R24): position index or -1 if it drops. */
function shifted(train) {
  const full = train.every((slot) => slot);
  const out = [];
  if (full) train.forEach((_, q) => out.push(q - 1));
  else {
    let k = 0;
    train.forEach((slot) => out.push(slot ? k++ : -1));
  }
  return out;
}

/** The capture the next shift would make with the cards and triggers as they are (OSC-R27, R28, R56). */
export function nextCapture(ctx) {
  const view = ctx.view;
  const trains = view.trains || [];
  const table = matches(ctx);
  const satisfied = (trigger, card) => Boolean(card) && (table[trigger] || []).includes(card);
  if (view.players === 1) {
    const filters = view.filters || [];
    const present = filters.map((f, c) => [f, c]).filter(([f]) => f);
    if (!present.length) return null;
    const cells = [];
    let all = true;
    for (const [f, c] of present) {
      const train = trains[c] || [];
      const moves = shifted(train);
      const q = moves.indexOf(0);
      const card = q >= 0 ? train[q].card : null;
      if (!satisfied(f, card)) all = false;
      if (q >= 0) cells.push([c, q]);
    }
    return { solo: true, cells, capture: all, position: 1 };
  }
  const triggers = view.triggers || [];
  if (!triggers.length) return null;
  const after = new Set();
  let all = true;
  const cells = [];
  for (const trig of triggers) {
    const c = LETTERS.indexOf(String(trig.at)[0]);
    const q = Number(String(trig.at).slice(1)) - 1;
    const train = trains[c] || [];
    const moved = shifted(train)[q];
    cells.push([c, q]);
    if (moved < 0) { all = false; continue; }
    after.add(moved);
    if (!satisfied(trig.card, train[q] && train[q].card)) all = false;
  }
  return { solo: false, cells, capture: all && after.size === 1, position: after.size === 1 ? [...after][0] + 1 : null,
    anchor: Number(String(triggers[0].at).slice(1)) };
}

function legalPlacements(ctx) {
  const out = {};
  for (const a of ctx.legal) {
    const m = /^place (\S+) ([A-F][1-5])$/.exec(a);
    if (m) (out[m[1]] = out[m[1]] || new Set()).add(m[2]);
  }
  return out;
}

function legalRefills(ctx) {
  const out = {};
  for (const a of ctx.legal) {
    const m = /^refill ([A-F]) (\S+)(?: ([HL]))?$/.exec(a);
    if (m) ((out[m[2]] = out[m[2]] || {})[m[1]] = out[m[2]][m[1]] || []).push(a);
  }
  return out;
}

function activate(node, fn) {
  node.addEventListener("click", fn);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      fn();
    }
  });
  return node;
}

function scope(ctx) {
  const view = ctx.view;
  const trains = view.trains || [];
  const height = RULER + trains.length * ROW + 20;
  const kids = [];
  const own = owners(view);
  const places = legalPlacements(ctx);
  const refills = legalRefills(ctx);
  const selected = ctx.selected;
  const litSlots = selected && places[selected] ? places[selected] : new Set();
  const litTrains = selected && refills[selected] ? refills[selected] : {};
  const capture = nextCapture(ctx);
  const hint = ctx.hint || "";
  // the grid and the ruler
  for (let q = 0; q <= POSITIONS; q++) {
    const x = PREFIX + q * SEG;
    kids.push(s("line", { class: "grid-line grid-major", x1: x, x2: x, y1: RULER - 4, y2: height }));
    if (q < POSITIONS) {
      kids.push(s("text", { class: "axis-label", x: x + SEG / 2, y: 16, "text-anchor": "middle" }, String(q + 1)));
      for (let k = 1; k < 4; k++) kids.push(s("line", { class: "grid-line", x1: x + (SEG * k) / 4, x2: x + (SEG * k) / 4, y1: RULER, y2: height }));
    }
  }
  kids.push(s("text", { class: "axis-label", x: PREFIX - 8, y: 16, "text-anchor": "end" }, t("time")));
  // the slice the triggers hold, lit when the next shift would capture it
  if (capture && !capture.solo && capture.anchor) {
    const x = PREFIX + (capture.anchor - 1) * SEG;
    kids.push(s("rect", { class: ["anchor", capture.capture ? "capture" : ""].join(" "), x: x + 2, y: RULER, width: SEG - 4, height: height - RULER - 20, rx: 8 }));
    kids.push(s("text", { class: ["anchor-label", capture.capture ? "capture" : ""].join(" "), x: x + SEG / 2, y: height - 5, "text-anchor": "middle" },
      capture.capture ? t("captures at the shift") : t("trigger slice")));
  }
  trains.forEach((train, c) => {
    const letter = LETTERS[c];
    const y = RULER + c * ROW;
    const top = y + TRIG;
    const color = trainColor(view, letter);
    const owner = own[letter];
    // label, owner and solo filter
    kids.push(s("text", { class: "train-label", x: 10, y: top + 22, fill: color }, letter));
    if (owner !== undefined && view.players > 1) kids.push(s("text", { class: "owner-label", x: 30, y: top + 21 }, "P" + (owner + 1)));
    const filters = view.filters || [];
    if (view.players === 1) {
      const f = filters[c];
      const match = capture && capture.solo && capture.capture;
      kids.push(s("rect", { class: ["filter-box", f && match ? "match" : ""].join(" "), x: 34, y: top + 4, width: 60, height: WAVE - 8, rx: 6 }));
      if (f) {
        const g = glyph(ctx, f, 52, 30, "#e8f5f0");
        g.setAttribute("x", 38);
        g.setAttribute("y", top + 8);
        kids.push(g);
        kids.push(s("text", { class: "filter-text", x: 64, y: top + WAVE + 6, "text-anchor": "middle" }, f));
      } else kids.push(s("text", { class: "filter-text", x: 64, y: top + WAVE / 2 + 3, "text-anchor": "middle" }, t("no filter")));
    }
    let prev = null;
    for (let q = 0; q < POSITIONS; q++) {
      const slot = train[q];
      const x0 = PREFIX + q * SEG;
      const x1 = x0 + SEG;
      if (slot) {
        const drawn = waveParts(ctx, slot, x0 + 4, x1 - 4, top, color);
        if (prev !== null && drawn.left !== null && prev !== drawn.left) {
          kids.push(s("path", { class: "wave", stroke: color, d: `M${x0 - 4},${prev} H${x0 + 4} M${x0 + 4},${prev} V${drawn.left}` }));
        } else if (prev !== null && drawn.left !== null) {
          kids.push(s("path", { class: "wave", stroke: color, d: `M${x0 - 4},${prev} H${x0 + 4}` }));
        }
        kids.push(...drawn.parts);
        prev = drawn.right;
        const label = slot.card + (slot.card === "LOH" ? "·" + (slot.out || "*") : "");
        kids.push(s("text", { class: "card-name", x: (x0 + x1) / 2, y: top + WAVE + 13, "text-anchor": "middle" }, label));
      } else {
        prev = null;
        kids.push(s("text", { class: "card-name", x: (x0 + x1) / 2, y: top + WAVE / 2 + 4, "text-anchor": "middle", opacity: 0.45 }, "·"));
      }
      // the trigger markers riding on this card
      const here = (view.triggers || []).filter((tr) => tr.at === letter + (q + 1));
      here.forEach((tr, k) => {
        const tx = x0 + 8 + k * 36;
        const tcolor = COLORS[(tr.owner ?? 0) % COLORS.length];
        const g = glyph(ctx, tr.card, 28, 16, "#0c1714");
        g.setAttribute("x", tx + 2);
        g.setAttribute("y", y + 4);
        kids.push(s("g", { class: "trigger", dataset: { trigger: tr.at } },
          s("title", null, t("{card} of P{n}", { card: tr.card, n: (tr.owner ?? 0) + 1 })),
          s("rect", { class: "trigger-box", x: tx, y: y + 2, width: 32, height: 20, rx: 5, fill: tcolor }), g));
      });
      // solo: the cards that reach slot 1 at the shift
      if (capture && capture.solo && capture.cells.some(([cc, qq]) => cc === c && qq === q)) {
        kids.push(s("rect", { class: ["anchor", capture.capture ? "capture" : ""].join(" "), x: x0 + 2, y: top - 2, width: SEG - 4, height: WAVE + 4, rx: 8 }));
      }
      // clickable slots: a trigger placement
      const slotName = letter + (q + 1);
      const lit = litSlots.has(slotName);
      const hinted = hint.startsWith("place ") && hint.endsWith(" " + slotName);
      const hit = s("rect", { class: ["slot", lit ? "lit" : "", hinted ? "hinted" : ""].join(" "), x: x0 + 2, y: y + 1, width: SEG - 4, height: ROW - 6, rx: 8,
        tabindex: lit ? 0 : null, role: lit ? "button" : null, dataset: { slot: slotName, key: "slot-" + slotName },
        "aria-label": lit ? t("Place {card} on {slot}", { card: selected, slot: slotName }) : null });
      if (ctx.interactive) {
        activate(hit, () => {
          if (selected && (places[selected] || !refills[selected])) ctx.act(`place ${selected} ${slotName}`);
          else if (selected && refills[selected]) pickRefill(ctx, selected, letter, litTrains[letter]);
        });
      }
      kids.push(hit);
    }
    // a refill or an assignment: the whole train is the target
    const trainActions = (litTrains[letter] || []).length || ctx.legal.includes("assign " + letter) || ctx.legal.includes("exchange " + letter)
      || ctx.legal.includes("keep " + letter);
    if (trainActions) {
      const act = () => {
        if (selected && litTrains[letter]) return pickRefill(ctx, selected, letter, litTrains[letter]);
        for (const verb of ["assign", "exchange", "keep"]) if (ctx.legal.includes(`${verb} ${letter}`)) return ctx.act(`${verb} ${letter}`);
        return null;
      };
      const label = selected && litTrains[letter] ? t("Refill train {train} with {card}", { train: letter, card: selected })
        : t("Train {train}", { train: letter });
      const hit = s("rect", { class: "train-hit lit", x: 4, y: top - 2, width: PREFIX - 10, height: WAVE + 4, rx: 8, tabindex: 0, role: "button",
        "aria-label": label, dataset: { train: letter, key: "train-" + letter } });
      if (ctx.interactive) activate(hit, act);
      kids.push(hit);
    }
  });
  return h("div", { class: "scope-wrap" },
    s("svg", { class: "scope", viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": t("The scope screen: every train as a waveform") }, kids));
}

function pickRefill(ctx, card, letter, actions) {
  if (!actions || !actions.length) return ctx.act(`refill ${letter} ${card}`);
  if (actions.length === 1) return ctx.act(actions[0]);
  ctx.select(card + "|" + letter);
  return null;
}

function handTiles(ctx) {
  const view = ctx.view;
  const viewer = view.viewer;
  if (viewer === null || viewer === undefined) return null;
  const hand = (view.hands || [])[viewer];
  if (!hand) return null;
  const places = legalPlacements(ctx);
  const refills = legalRefills(ctx);
  const selectedCard = ctx.selected ? ctx.selected.split("|")[0] : null;
  const tiles = hand.map((token, i) => {
    const usable = Boolean(places[token] || refills[token]) || ctx.legal.includes("discard " + token);
    const hinted = ctx.hint && ctx.hint.split(" ").includes(token);
    return h("button", { type: "button", class: ["pulse-card", usable ? "usable" : "", selectedCard === token ? "selected" : "", hinted ? "hinted" : ""],
      dataset: { card: token, key: "hand-" + i }, "aria-pressed": selectedCard === token ? "true" : "false",
      "aria-label": cardWords(ctx, token) + (usable ? " · " + t("can be played now") : ""),
      on: { click: () => { if (!ctx.interactive) return; if (ctx.legal.includes("discard " + token) && !places[token] && !refills[token]) return ctx.act("discard " + token); ctx.select(token); } } },
    glyph(ctx, token), h("span", { class: "pc-name" }, token));
  });
  return h("section", { class: "hand" }, h("h3", null, t("Your hand"), " ", h("span", { class: "badge" }, String(hand.length))),
    h("div", { class: "hand-cards" }, tiles));
}

const PHASES = {
  assign: ["Choose the train you will refill.", "OSC-R6"],
  filters: ["Choose the two filters; the third card becomes the exchange stock.", "OSC-R8"],
  trigger: ["Trigger set: place a trigger card from your hand on a card of the screen (you must if you can).", "OSC-R13"],
  more: ["Stack another Low or Hi at the trigger position, or pass.", "OSC-I22"],
  capture: ["The triggers are satisfied: capture the time position, or decline.", "OSC-I33"],
  keep: ["Keep one trigger of the captured position as a score card.", "OSC-R30"],
  refill: ["Refill your train with a card that connects; discard a card only if none connects.", "OSC-R37"],
  topup: ["Top up your hand to 3 cards: draw from the pulse deck or the trigger deck.", "OSC-R40"],
  post: ["You may place one more trigger, or pass.", "OSC-R42"],
  exchange: ["Put the exchange stock into a filter position.", "OSC-R55"],
};

function phaseText(phase, view) {
  if (phase === "assign") return t("Choose the train you will refill.");
  if (phase === "filters") return t("Choose the two filters; the third card becomes the exchange stock.");
  if (phase === "trigger") return t("Trigger set: place a trigger card from your hand on a card of the screen (you must if you can).");
  if (phase === "more") return t("Stack another Low or Hi at the trigger position, or pass.");
  if (phase === "capture") return t("The triggers are satisfied: capture the time position, or decline.");
  if (phase === "keep") return view.players === 1 ? t("Keep one filter of the captured position as a score card.")
    : t("Keep one trigger of the captured position as a score card.");
  if (phase === "refill") return t("Refill your train with a card that connects; discard a card only if none connects.");
  if (phase === "topup") return t("Top up your hand to 3 cards: draw from the pulse deck or the trigger deck.");
  if (phase === "post") return t("You may place one more trigger, or pass.");
  if (phase === "exchange") return t("Put the exchange stock into a filter position.");
  return phase;
}

/** Another seat's decision, worded about them (not as if it were the viewer's). */
function theirPhaseText(phase, view, name) {
  if (phase === "assign") return t("{name} chooses the train to refill.", { name });
  if (phase === "filters") return t("{name} chooses the two filters.", { name });
  if (phase === "trigger") return t("{name} places a trigger card on the screen (if they can).", { name });
  if (phase === "more") return t("{name} may stack another Low or Hi at the trigger position.", { name });
  if (phase === "capture") return t("{name} captures the time position or declines.", { name });
  if (phase === "keep") return t("{name} keeps one card of the captured position as a score card.", { name });
  if (phase === "refill") return t("{name} refills their train.", { name });
  if (phase === "topup") return t("{name} tops up their hand to 3 cards.", { name });
  if (phase === "post") return t("{name} may place one more trigger.", { name });
  if (phase === "exchange") return t("{name} puts the exchange stock into a filter position.", { name });
  return phase;
}

/** What the seat to move decides now (in the second person only when it is the viewer's seat). */
function prompt(ctx) {
  const view = ctx.view;
  const phase = view.phase;
  const decider = view.current_player;
  if (decider === null || decider === undefined || !PHASES[phase]) return null;
  let rule = PHASES[phase][1];
  if (phase === "keep" && view.players === 1) rule = "OSC-R57";
  if (!ctx.replay && ctx.seat !== decider) return { text: theirPhaseText(phase, view, ctx.names[decider]), rule };
  return { text: phaseText(phase, view), rule };
}

function decisionBox(ctx) {
  const view = ctx.view;
  const p = prompt(ctx);
  if (!p) return null;
  const buttons = [];
  if (ctx.interactive) {
    const sel = ctx.selected && ctx.selected.includes("|") ? ctx.selected.split("|") : null;
    for (const a of ctx.legal) {
      const words = a.split(" ");
      const verb = words[0];
      if (verb === "place") continue;
      if (verb === "refill" && !(sel && words[1] === sel[1] && words[2] === sel[0])) continue;
      buttons.push(button(describeAction(a, ctx), () => ctx.act(a), { dataset: { action: a }, kind: verb === "pass" || verb === "decline" ? "ghost" : undefined,
        class: ctx.hint === a ? "hinted" : "" }));
    }
    if (Object.keys(legalPlacements(ctx)).length && !ctx.selected) {
      buttons.unshift(h("span", { class: "muted small" }, t("Choose a trigger card in your hand, then a lit slot.")));
    } else if (Object.keys(legalRefills(ctx)).length && !ctx.selected) {
      buttons.unshift(h("span", { class: "muted small" }, t("Choose a card in your hand, then a lit train.")));
    }
  }
  if (!ctx.replay && !buttons.length && (ctx.interactive || view.current_player === null)) return null;
  return h("div", { class: ["decision", ctx.interactive ? "mine" : "theirs"], id: "decision" },
    ctx.replay ? h("p", { class: "decision-text" }, p.text, " ", h("button", { type: "button", class: "rule-link", on: { click: () => openRules("oscilloscope", p.rule) } }, p.rule)) : null,
    !ctx.interactive && view.current_player !== null ? h("p", { class: "muted small" }, t("({name} decides)", { name: ctx.names[view.current_player] })) : null,
    buttons.length ? h("div", { class: "decision-buttons" }, buttons) : null);
}

function mini(token) {
  return h("span", { class: ["mini", token === "NOISE" ? "noise" : token === "CLEAR" ? "clear" : ""] }, token);
}

function pile(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return h("span", { class: "mini-cards" }, [...counts].map(([c, n]) => [mini(c + (n > 1 ? "×" + n : ""))]));
}

function playersTable(ctx) {
  const view = ctx.view;
  const n = view.players || 1;
  const sizes = (view.sizes || {}).hands || [];
  const rows = [];
  for (let p = 0; p < n; p++) {
    const hand = (view.hands || [])[p];
    const scorePile = (view.score_piles || [])[p] || [];
    const kept = (view.kept_triggers || [])[p] || 0;
    const live = view.phase !== "over" && ctx.started !== false;
    const owner = live && view.turn_player === p;  // whose set it is (OSC-R9)
    const deciding = live && view.current_player === p;  // who decides now (a refill may be another seat's)
    const tag = deciding ? h("span", { class: "tag tag-turn" }, t("to play"))
      : owner ? h("span", { class: "tag", title: t("the set is this player's; another player decides now") }, t("their set")) : null;
    rows.push(h("tr", { class: ["seat-" + p, owner || deciding ? "active" : ""] },
      h("td", null, seatChip(ctx.names, p), tag),
      h("td", null, ((view.assigned_trains || [])[p] || []).join(" ") || "–"),
      h("td", null, hand ? pile(hand) : tn("{n} card", "{n} cards", sizes[p] ?? 0)),
      h("td", null, scorePile.length ? pile(scorePile) : "–", kept ? h("span", { class: "muted small" }, " " + tn("({n} kept trigger)", "({n} kept triggers)", kept)) : null),
      h("td", null, h("b", null, String((view.scores || [])[p] ?? 0)))));
  }
  return h("table", { class: "players-table" },
    h("thead", null, h("tr", null, h("th", null, t("Player")), h("th", null, t("Train")), h("th", null, t("Hand")),
      h("th", null, t("Score pile")), h("th", null, t("Score")))),
    h("tbody", null, rows));
}

function meters(ctx) {
  const view = ctx.view;
  const counters = view.counters || {};
  const sizes = view.sizes || {};
  const discard = view.discard || [];
  const solo = view.players === 1;
  const noiseLimit = solo ? 3 : Number(ctx.rules.mp_noise_limit || 10);
  const noise = solo ? counters.counted_noise || 0
    : (view.score_piles || []).reduce((sum, p) => sum + p.filter((c) => c === "NOISE").length, 0);
  const stallLimit = Number(ctx.rules.stall_limit_sets || 20);
  const bar = (value, max) => h("span", { class: "bar" }, h("span", { style: { width: Math.min(100, (100 * value) / Math.max(1, max)) + "%" } }));
  return h("div", { class: "osc-counters" },
    h("div", { class: "meter", title: solo ? "OSC-R60" : "OSC-R34" }, h("span", { class: "small muted" }, solo ? t("counted noise") : t("noise captured")),
      h("b", null, `${noise} / ${noiseLimit}`), bar(noise, noiseLimit)),
    h("div", { class: "meter" }, h("span", { class: "small muted" }, t("set")), h("b", null, String((counters.sets || 0) + 1))),
    h("div", { class: "meter", title: "OSC-R64" }, h("span", { class: "small muted" }, t("sets without a capture")),
      h("b", null, `${counters.stall || 0} / ${stallLimit}`), bar(counters.stall || 0, stallLimit)),
    h("div", { class: "meter" }, h("span", { class: "small muted" }, t("pulse deck")), h("b", null, String(sizes.pulse_deck ?? "?"))),
    h("div", { class: "meter" }, h("span", { class: "small muted" }, t("trigger deck")), h("b", null, String(sizes.trigger_deck ?? "?"))),
    h("div", { class: "meter" }, h("span", { class: "small muted" }, t("discard pile")), h("b", null, String(discard.length)),
      discard.length ? h("span", { class: "small" }, t("top: {card}", { card: discard[discard.length - 1] })) : null),
    solo && view.stock ? h("div", { class: "meter" }, h("span", { class: "small muted" }, t("exchange stock")), h("b", null, view.stock)) : null,
    solo && (view.offer || []).length ? h("div", { class: "meter" }, h("span", { class: "small muted" }, t("offered filters")),
      h("span", null, pile(view.offer))) : null);
}

function render(ctx) {
  const view = ctx.view;
  const solo = view.players === 1;
  const cap = nextCapture(ctx);
  let capLine = null;
  if (cap && cap.capture) {
    capLine = h("p", { class: "small" }, solo ? t("The filters match the cards that reach slot 1 at the next shift: those cards would be captured.")
      : t("Every trigger is satisfied: the next shift captures time position {n}.", { n: cap.position }), " ",
    h("button", { type: "button", class: "rule-link", on: { click: () => openRules("oscilloscope", solo ? "OSC-R56" : "OSC-R28") } }, solo ? "OSC-R56" : "OSC-R28"));
  }
  return h("div", { class: "osc" },
    h("p", { class: "turn-line" }, solo ? t("Solo · set {n}", { n: ((view.counters || {}).sets || 0) + 1 })
      : tn("{n} player · set {set}", "{n} players · set {set}", view.players, { set: ((view.counters || {}).sets || 0) + 1 })),
    scope(ctx),
    capLine,
    meters(ctx),
    decisionBox(ctx),
    handTiles(ctx),
    h("div", { class: "osc-panels" }, h("section", { class: "status-panel" }, playersTable(ctx))));
}

// -- words ---------------------------------------------------------------------------------------------
function who(names, seat) { return names[seat] ?? "P" + (Number(seat) + 1); }
function list(cards) { return cards && cards.length ? joinList(cards.map(String)) : t("nothing"); }

function describeEvent(e, names) {
  const p = who(names, e.player);
  switch (e.kind) {
    case "train": {
      const text = t("Train {train} is built: {cards}.", { train: e.train, cards: list(e.cards) });
      return e.under && e.under.length ? text + " " + t("({cards} did not connect and went under the pulse deck)", { cards: list(e.under) }) : text;
    }
    case "start": return t("{who} is the start player.", { who: p });
    case "deal":
      if (e.pulse_cards || e.trigger_cards) {
        return e.trigger ? t("{who} is dealt {pulse} from the pulse deck and {trigger} from the trigger deck.", { who: p, pulse: list(e.pulse_cards), trigger: list(e.trigger_cards) })
          : t("{who} is dealt {pulse} from the pulse deck.", { who: p, pulse: list(e.pulse_cards) });
      }
      return e.trigger ? t("{who} is dealt {pulse} pulse cards and {trigger} trigger cards.", { who: p, pulse: e.pulse, trigger: e.trigger })
        : t("{who} is dealt {pulse} pulse cards.", { who: p, pulse: e.pulse });
    case "offer": return t("The trigger deck offers {cards} for the filters.", { cards: list(e.cards) });
    case "assign": return e.dealt ? t("{who} is dealt train {train}.", { who: p, train: e.train }) : t("{who} takes train {train}.", { who: p, train: e.train });
    case "filters": return t("Filters: A {a}, B {b}; exchange stock {stock}.", { a: e.a, b: e.b, stock: e.stock });
    case "turn": return t("Set {n}: {who}'s turn.", { n: e.set, who: p });
    case "no_trigger": return t("{who} has no trigger to place.", { who: p });
    case "place": {
      const base = { who: p, card: e.card, slot: e.at };
      if (e.result === "cancelled") return t("{who} places {card} on {slot}: the same trigger was there, both go to the discard pile.", base);
      if (e.result === "added") return t("{who} places {card} on {slot} beside the triggers there.", base);
      if (e.result === "replaced" && e.discarded && e.discarded.length) return t("{who} places {card} on {slot}, replacing {cards}.", { ...base, cards: list(e.discarded) });
      return t("{who} places {card} on {slot}.", base);
    }
    case "pass": return e.step === 1 ? t("{who} places no more trigger.", { who: p }) : t("{who} places no trigger.", { who: p });
    case "early_end": return t("{who} set the first trigger on an empty board: the turn ends at once.", { who: p });
    case "shift": {
      const parts = (e.dropped || []).map((d) => d.trigger ? t("{card} falls off {train} with the trigger {trigger}", { card: d.card, train: d.train, trigger: d.trigger })
        : t("{card} falls off {train}", { card: d.card, train: d.train }));
      if (e.closed && e.closed.length) parts.push(t("the gaps close in {trains}", { trains: list(e.closed) }));
      return parts.length ? t("The trains shift left: {what}.", { what: parts.join("; ") }) : t("The trains shift left.");
    }
    case "capture": {
      const cards = (e.cards || []).map((c) => t("{card} from {train}", { card: c.card, train: c.train }));
      let text = t("{who} captures time position {n}: {cards}.", { who: p, n: e.position, cards: cards.length ? joinList(cards) : t("nothing") });
      if (e.kept) text += " " + t("Keeps {card}.", { card: e.kept });
      if (e.clears && e.clears.length) text += " " + t("Scores {cards} against the noise.", { cards: list(e.clears) });
      if (e.discarded && e.discarded.length) text += " " + t("{cards} to the discard pile.", { cards: list(e.discarded) });
      return text;
    }
    case "decline": return t("{who} declines the capture.", { who: p });
    case "noise": return t("Noise captured: {count} of {limit}.", { count: e.count, limit: e.limit });
    case "exchange": {
      let text = t("The stock {card} becomes the filter of {train}.", { card: e.card, train: e.train });
      if (e.replaced) text += " " + t("{card} is discarded.", { card: e.replaced });
      return text + " " + (e.stock ? t("New stock: {card}.", { card: e.stock }) : t("No new stock."));
    }
    case "refill": return t("{who} refills train {train} with {card}.", { who: p, train: e.train, card: e.card });
    case "make_room": return t("Train {train} is full: {card} falls off to make room.", { train: e.train, card: e.card });
    case "discard": return t("{who} discards {card}: nothing in hand connects.", { who: p, card: e.card });
    case "draw":
      if (!e.card) return e.deck === "pulse" ? t("{who} draws a card from the pulse deck.", { who: p }) : t("{who} draws a card from the trigger deck.", { who: p });
      return e.deck === "pulse" ? t("{who} draws {card} from the pulse deck.", { who: p, card: e.card })
        : t("{who} draws {card} from the trigger deck.", { who: p, card: e.card });
    case "draw_skipped": return t("{who} cannot draw: the pulse deck and the discard pile are empty.", { who: p });
    case "reshuffle": return tn("The discard pile ({n} card) is shuffled into a new pulse deck.", "The discard pile ({n} cards) is shuffled into a new pulse deck.", e.count);
    case "stopped": return t("Train {train} can no longer be completed and is left out of this refill.", { train: e.train });
    case "score": return t("Scores: {scores}.", { scores: (e.scores || []).map((x) => `${who(names, x.player)} ${x.score}`).join("; ") });
    case "game_over": {
      // OSC-R60: the solo game is a score attack, nobody "wins" it
      if (names.length === 1 && e.scores) return t("Game over: the solo score is {score}.", { score: e.scores[0] });
      const winners = (e.winners || []).map((w) => who(names, w));
      return (winners.length ? tn("Game over: {names} wins.", "Game over: {names} win.", winners.length, { names: winners.join(" & ") }) : t("Game over."));
    }
    default: return null;
  }
}

// -- the words for the engine's ends and refusals ------------------------------------------------------
// Every way the engine ends a game (the outcome's rule) and every rule id it refuses a move with has its
// words here, keyed by that id: tests/web/test_web_refusal_words.py holds these tables to the engine's ids.

/** The end's detail line: the scores are on the end screen already; a solo game says what its counted noise is. */
function scoreDetail(o, ctx) {
  const view = ctx.view || {};
  const counted = (view.counters || {}).counted_noise;
  if (view.players === 1 && counted !== undefined) {
    // OSC-R59/R60: the counted noise is the timer; one capture may bring it past 3 (two NOISE cards at once)
    return t("Counted noise: {n}. Each capture counts its NOISE cards minus its CLEAR cards; the game ends when the count reaches 3.", { n: counted });
  }
  return null;
}

/** Each end of the game (the outcome's rule): its reason line and its detail line. */
const ENDINGS = {
  "OSC-R60": { reason: () => t("The third counted noise was captured."), detail: scoreDetail },
  "OSC-R34": { reason: (o, ctx) => t("{n} noise were captured.", { n: ctx && ctx.rules ? ctx.rules.mp_noise_limit ?? 10 : 10 }), detail: scoreDetail },
  "OSC-R63": { reason: () => t("No filter is left, so nothing can be captured again."), detail: scoreDetail },
  "OSC-R46": { reason: () => t("A train can no longer be completed."), detail: scoreDetail },
  "OSC-R64": { reason: () => t("Too many sets in a row without a capture."), detail: scoreDetail },
};

/** The end of the game in words: its reason line and its detail line (a resign or a timeout is the room's). */
const { reason, detail } = endingWords(ENDINGS, "rule", scoreDetail);

/** The train letter a typed move names (assign A, exchange B, refill C LH), or null. */
function moveTrain(action) {
  const w = String(action || "").split(" ");
  return /^[A-F]$/.test(w[1] || "") ? w[1] : null;
}

/** Why the engine refused a move, by its rule id (every id Oscilloscope's engine refuses with). */
const REFUSALS = {
  "OSC-R6": (a) => (moveTrain(a) ? t("Train {train} does not exist or is taken: choose a train nobody has taken.", { train: moveTrain(a) })
    : t("Choose the train you will refill.")),
  "OSC-R8": () => t("The filters must be two of the three cards drawn for them."),
  "OSC-R9": () => t("Nothing can be decided now."),
  "OSC-R12": () => t("Only a trigger card of your hand (a Low or Hi, a CLEAR or a trigger) can be placed, on a train of the screen."),
  "OSC-R13": (a) => (String(a).startsWith("pass") ? t("While a trigger can be placed, placing one is compulsory.")
    : t("Place a trigger card from your hand on a card of the screen.")),
  "OSC-R14": () => t("A trigger must lie on a card, not on an empty slot or on a card the next shift discards."),
  "OSC-R16": () => t("That slot is too far from the first trigger's time position."),
  "OSC-R18": () => t("Only another Low or Hi may follow, at the trigger's time position, on a slot with no trigger."),
  "OSC-R19": () => t("A CLEAR goes at the trigger's time position, and never on a trigger."),
  "OSC-R30": () => t("Only a conditional trigger (or filter) of the captured time position may be kept."),
  "OSC-R32": () => t("Capture the time position, or decline."),
  "OSC-R35": (a) => (moveTrain(a) ? t("Train {train} is not one you refill now.", { train: moveTrain(a) })
    : t("Refill one of your own trains.")),
  "OSC-R37": () => t("Refill with a card of your hand that connects; discard only when none connects."),
  "OSC-R40": () => t("That deck is empty: draw from the other one."),
  "OSC-R42": () => t("You may place one more trigger, or pass."),
  "OSC-R55": () => t("Put the exchange stock into a filter position that exists."),
  "OSC-I5": () => t("A Low or Hi after a wild level needs a declared level (H or L); no other card declares one."),
};

/** Why a move was refused, in the page language: the words for the rule the engine cites. */
function refusal(error, action, ctx) {
  const words = error && error.rule ? REFUSALS[error.rule] : null;
  if (words) return words(action, ctx);
  if (error && error.code === "invalid_action") return t("That is not a move of this game: choose one of the moves offered.");
  return t("The rule linked here forbids it.");
}

/** A solo room's par (the terminal's: the heuristic player's mean score), asked once as the room opens. */
async function prepare(setup, rules) {
  if (Number((setup || {}).players ?? 1) !== 1) return null;
  try {
    return { par: await api("POST", "/web/par/oscilloscope", { rules: rules || {}, setup: setup || {} }) };
  } catch { return null; }
}

/** The solo end screen's par line: the score against the heuristic player's mean (OSC-R61). */
function endDetail(ctx) {
  const view = ctx.view || {};
  const par = ctx.extra && ctx.extra.par;
  if (view.players !== 1 || !par || par.par === null || !ctx.outcome) return null;
  const score = Number((ctx.outcome.scores || [0])[0]);
  const where = score > par.par ? t("above par") : score < par.par ? t("below par") : t("on par");
  return h("p", { class: "par-line", id: "par" },
    h("strong", null, t("Par {par}", { par: par.par.toFixed(1) })), " · ", where, " · ",
    h("span", { class: "muted small" }, t("the mean score of the computer's heuristic player over {n} games", { n: par.games })));
}

/** A legal action in words. */
function describeAction(a, ctx) {
  const w = a.split(" ");
  switch (w[0]) {
    case "assign": return t("Take train {train}", { train: w[1] });
    case "filters": return t("Filters {choice}", { choice: w.slice(1).join(", ") });
    case "place": return t("Place {card} on {slot}", { card: w[1], slot: w[2] });
    case "pass": return t("Pass");
    case "capture": return t("Capture");
    case "decline": return t("Decline");
    case "keep": return t("Keep {card}", { card: w[1] });
    case "refill": return w[3] ? t("Refill train {train} with {card} at level {level}", { train: w[1], card: w[2], level: w[3] })
      : t("Refill train {train} with {card}", { train: w[1], card: w[2] });
    case "discard": return t("Discard {card}", { card: w[1] });
    case "draw": return w[1] === "pulse" ? t("Draw from the pulse deck") : t("Draw from the trigger deck");
    case "exchange": return t("Put the stock on filter {train}", { train: w[1] });
    default: return a;
  }
}

function groupLabel(head) {
  const m = /^place (\S+) $/.exec(head);
  return m ? t("Place {card} on", { card: m[1] }) : head;
}

function importantEvent(e) { return e.kind === "turn" || e.kind === "capture" || e.kind === "game_over"; }

// -- the lobby's part: 1 to 4 players, solo by default ------------------------------------------------
const lobby = {
  symbol: "∿",
  defaults: () => ({ players: 1 }),
  maxPlayers: (flags) => Number(flags.max_players || 4),
};

/** The first-game guide (js/tutorial.js): a seeded game, and its steps: the learner's moves with what to
 * do and why, and the other seat's moves ("them"). */
const guide = {
  seed: 4, setup: { players: 2 }, rules: {},
  steps: [
    { them: "assign A" },
    { me: "assign B", rule: "OSC-R6",
      say: () => t("Each player refills one train. P2 took train A, so train B is yours: choose it.") },
    { them: "place LOH A2" },
    { me: "place T_HL A2", rule: "OSC-R28",
      say: () => t("Place a trigger on a card of the screen. Your Hi→Low trigger is satisfied by a falling edge (HL), and A2 is one: click the trigger in your hand, then the lit slot A2. At the shift, time position 1 is captured when every trigger on it is satisfied.") },
    { me: "refill B LH", rule: "OSC-R37",
      say: () => t("You captured a time position. Now refill your train B with a card whose line meets the level before it: the rising edge (LH) fits. Click it, then your lit train.") },
  ],
};

export default { render, prompt, describeEvent, describeAction, reason, detail, refusal, prepare, endDetail, groupLabel, importantEvent, lobby, guide };

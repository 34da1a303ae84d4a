// Zeta's page: the board with each card's (skinned) name, cost, Fanfare/continuous mark and owner,
// blocked squares and destruction marks; the hand with the placeable cards marked; the squares a chosen
// card may go to lit; every pending decision as a prompt; counts, the cost limit and the effects in force.
// Everything comes from the seat's view, its legal actions and its log.
import { gridKeys, h } from "../dom.js";
import { joinList, language, t, tn } from "../i18n.js";
import { button, endingWords, openRules, seatChip } from "../ui.js";
import { api, savedDecks } from "../api.js";

const FILES = "abcdef";

function cardsOf(ctx) {
  const out = {};
  for (const c of (ctx.cards && ctx.cards.zeta) || []) out[c.id] = c;
  return out;
}

/** A card's name as this seat's deck calls it (a skin), or its name in the page language. */
export function cardName(ctx, id, owner) {
  const decks = (ctx.setup && ctx.setup.decks) || [];
  const deck = owner !== undefined && owner !== null ? decks[owner] : null;
  if (deck && typeof deck === "object" && deck.names && deck.names[id]) return deck.names[id];
  const c = cardsOf(ctx)[id];
  if (!c) return id;
  return language() === "ja" ? c.japanese : c.english;
}

const VOWELS = "aeiouyAEIOUY";

function isVowel(c) { return VOWELS.includes(c); }

/** A card name as a board square shows it: a long Latin word gets a soft hyphen between two consonants
 * (Appren-tice, Sum-moning), or else before a consonant that starts a syllable, nearest the middle; a
 * narrow square breaks it there with a hyphen, never at a random letter. */
export function boardName(name) {
  return String(name).replace(/[A-Za-z]{9,}/g, (word) => {
    let at = -1;
    let score = Infinity;
    for (let i = 3; i <= word.length - 3; i++) {
      const a = word[i - 1];
      const b = word[i];
      let kind = null;
      if (!isVowel(a) && !isVowel(b)) kind = 0;
      else if (isVowel(a) && !isVowel(b) && isVowel(word[i + 1] || "")) kind = 1;
      if (kind === null) continue;
      const cost = kind * 2 + Math.abs(i - word.length / 2);
      if (cost < score) { score = cost; at = i; }
    }
    return at < 0 ? word : word.slice(0, at) + "\u00ad" + word.slice(at);
  });
}

function plainName(ctx, id) {
  const c = cardsOf(ctx)[id];
  if (!c) return String(id);
  return language() === "ja" ? c.japanese : c.english;
}

function kindMark(c) {
  if (!c) return "";
  return c.fanfare ? "✦" : c.continuous ? "∞" : "";
}

function kindWord(c) {
  if (!c) return "";
  return c.fanfare ? t("Fanfare") : c.continuous ? t("continuous") : t("no effect");
}

function placements(ctx) {
  const out = {};
  for (const a of ctx.legal) {
    const at = a.indexOf("@");
    if (at < 0) continue;
    const card = a.slice(0, at);
    (out[card] = out[card] || new Set()).add(a.slice(at + 1));
  }
  return out;
}

function lastEvent(ctx, kind) {
  const events = ctx.events || [];
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === kind) return events[i];
  return null;
}

function winningLine(ctx) {
  const over = lastEvent(ctx, "game_over");
  return over && over.line ? new Set(over.line) : new Set();
}

/** The cost a card may have now for the active player (ZETA-R14, with Broom R49 and Earth Mage R53). */
export function costLimit(view, rules) {
  const count = Object.keys(view.board || {}).length;
  const p = view.active;
  const turn = view.turn;
  const effects = view.effects || {};
  const broom = (effects.broom || [])[p] === turn;
  const earth = (effects.only_cost_zero || [])[p] === turn;
  let limit = count;
  const notes = [];
  if (broom) {
    limit = Math.max(limit, 10);
    notes.push("broom");
  }
  if (earth && !(broom && rules && rules.broom_vs_earth === "permission_wins")) {
    limit = 0;
    notes.push("earth");
  }
  return { count, limit, notes };
}

function square(ctx, sq, row, col, info) {
  const { view, selectedTargets, targets, source, win, last, hintSquare } = info;
  const item = (view.board || {})[sq];
  const blocked = (view.blocked || []).includes(sq);
  const marker = (view.markers || {})[sq];
  const cards = cardsOf(ctx);
  const classes = ["sq"];
  let label;
  let body;
  if (blocked) {
    classes.push("blocked");
    label = t("{square}: blocked for the rest of the game", { square: sq });
    body = [h("span", { class: "sq-coord" }, sq), h("span", { class: "sq-blocked" }, t("blocked"))];
  } else if (item) {
    const c = cards[item.card];
    classes.push("occupied", "owner-" + item.owner);
    const name = cardName(ctx, item.card, item.owner);
    label = t("{square}: {card} of {seat}, cost {cost}, {kind}", { square: sq, card: name, seat: ctx.names[item.owner],
      cost: c ? c.cost : "?", kind: kindWord(c) });
    body = [
      h("span", { class: "sq-top" }, h("span", { class: "cost", title: t("cost") }, c ? String(c.cost) : "?"),
        h("span", { class: "sq-owner-mini", "aria-hidden": "true" }, item.owner === 0 ? "●" : "◆"),
        h("span", { class: "kind", title: kindWord(c) }, kindMark(c))),
      h("span", { class: "sq-name", lang: language() }, boardName(name)),
      h("span", { class: "sq-owner" }, h("span", { class: "owner-mark", "aria-hidden": "true" }, item.owner === 0 ? "●" : "◆"),
        "P" + (item.owner + 1)),
    ];
  } else {
    classes.push("empty");
    label = sq;
    body = [h("span", { class: "sq-coord" }, sq)];
    if (marker !== undefined && marker !== null) {
      body.push(h("span", { class: "sq-mark", title: t("a card of P{n} was destroyed here", { n: marker + 1 }) },
        "✕P" + (marker + 1)));
      label = t("{square}: empty, a card of P{n} was destroyed here", { square: sq, n: marker + 1 });
    }
  }
  // what changed since the last message: a card placed or replaced, a card destroyed
  const before = ctx.previous ? (ctx.previous.board || {})[sq] : undefined;
  if (ctx.previous && item && (!before || before.card !== item.card || before.owner !== item.owner)) classes.push("changed");
  if (ctx.previous && before && !item) classes.push("gone");
  if (selectedTargets.has(sq)) classes.push("lit");
  if (targets.has(sq)) classes.push("target");
  if (source === sq) classes.push("source");
  if (win.has(sq)) classes.push("win");
  if (last === sq) classes.push("last");
  if (hintSquare === sq) classes.push("hinted");
  const click = () => {
    if (!ctx.interactive) return;
    if (targets.has(sq) && ctx.legal.includes("target:" + sq)) return ctx.act("target:" + sq);
    if (ctx.selected) return ctx.act(ctx.selected + "@" + sq);
    if (targets.size) return ctx.act("target:" + sq);
    ctx.notify(t("Choose a card from your hand first, then a lit square."));
  };
  return h("button", {
    type: "button", class: classes, "aria-label": label, dataset: { square: sq, row, col, key: "sq-" + sq },
    "aria-pressed": selectedTargets.has(sq) ? "true" : null, tabindex: ctx.interactive ? 0 : -1,
    on: { click },
  }, body);
}

function board(ctx) {
  const view = ctx.view;
  const [width, height] = view.board_size || [Number(ctx.rules.board_width || 6), Number(ctx.rules.board_height || 6)];
  const pending = view.pending || {};
  const places = placements(ctx);
  const selectedTargets = ctx.selected && places[ctx.selected] ? places[ctx.selected] : new Set();
  const targets = new Set(view.phase === "target" ? pending.targets || [] : []);
  const lastPlace = lastEvent(ctx, "place");
  let hintSquare = null;
  if (ctx.hint && ctx.hint.includes("@")) hintSquare = ctx.hint.split("@")[1];
  if (ctx.hint && ctx.hint.startsWith("target:")) hintSquare = ctx.hint.slice(7);
  const info = { view, selectedTargets, targets, source: pending.square, win: winningLine(ctx),
    last: lastPlace ? lastPlace.square : null, hintSquare };
  const rows = [];
  rows.push(h("div", { class: "files", "aria-hidden": "true" }, h("span"),
    Array.from({ length: width }, (_, f) => h("span", null, FILES[f]))));
  for (let r = height; r >= 1; r--) {
    rows.push(h("div", { class: "rank-row", role: "row" },
      h("span", { class: "rank", "aria-hidden": "true" }, String(r)),
      Array.from({ length: width }, (_, f) => square(ctx, FILES[f] + r, height - r, f, info))));
  }
  const grid = h("div", { class: "zeta-board", role: "grid", "aria-label": t("The board"), dataset: { grid: "zeta" },
    style: { "--cols": width } }, rows);
  grid.addEventListener("keydown", gridKeys);
  return grid;
}

function handCards(ctx, seat) {
  const view = ctx.view;
  const viewer = seat === undefined ? view.viewer : seat;
  if (viewer === null || viewer === undefined) return null;
  const hand = (view.hands || [])[viewer];
  if (!hand) return null;
  const own = viewer === view.viewer;
  const cards = cardsOf(ctx);
  const counts = new Map();
  for (const id of hand) counts.set(id, (counts.get(id) || 0) + 1);
  const ids = [...counts.keys()].sort((a, b) => ((cards[a] || {}).cost ?? 99) - ((cards[b] || {}).cost ?? 99) || a.localeCompare(b));
  const places = placements(ctx);
  const phase = view.phase;
  const tiles = ids.map((id) => {
    const c = cards[id];
    const placeable = Boolean(places[id]);
    const destroy = ctx.legal.includes("destroy:" + id);
    const selected = ctx.selected === id;
    const hinted = ctx.hint && (ctx.hint.startsWith(id + "@") || ctx.hint === "destroy:" + id);
    const click = () => {
      if (!ctx.interactive || !own) return;
      if (phase === "do_over" || phase === "fortune") return ctx.act("destroy:" + id);
      ctx.select(id);
    };
    return h("button", {
      type: "button", class: ["hand-card", placeable ? "placeable" : "", destroy ? "destroyable" : "", selected ? "selected" : "",
        hinted ? "hinted" : "", c && c.fanfare ? "fanfare" : c && c.continuous ? "continuous" : "plain"],
      "aria-pressed": selected ? "true" : "false", dataset: { card: id, key: "hand-" + id }, on: { click },
      "aria-label": t("{card}, cost {cost}, {kind}", { card: cardName(ctx, id, viewer), cost: c ? c.cost : "?", kind: kindWord(c) })
        + (placeable ? " · " + t("can be placed now") : ""),
    },
    h("span", { class: "hc-top" }, h("span", { class: "cost" }, c ? String(c.cost) : "?"),
      h("span", { class: "kind" }, kindMark(c)), counts.get(id) > 1 ? h("span", { class: "count" }, "×" + counts.get(id)) : null),
    h("span", { class: "hc-name" }, cardName(ctx, id, viewer)),
    c ? h("span", { class: "hc-effect" }, t(c.effect)) : null,
    placeable ? h("span", { class: "hc-ok" }, t("placeable")) : null);
  });
  return h("section", { class: ["hand", own ? "own" : "revealed"], "aria-labelledby": "hand-title-" + viewer, dataset: { seat: viewer } },
    h("h3", { id: "hand-title-" + viewer }, own ? t("Your hand") : t("{name}'s hand", { name: ctx.names[viewer] }), " ",
      h("span", { class: "badge" }, String(hand.length))),
    tiles.length ? h("div", { class: "hand-cards" }, tiles) : h("p", { class: "muted" }, own ? t("Your hand is empty.") : t("The hand is empty.")));
}

function decisionBox(ctx) {
  const view = ctx.view;
  const phase = view.phase;
  const decider = view.current_player;
  const pending = view.pending || {};
  const mine = ctx.interactive;
  if (phase === "over" || decider === null || decider === undefined) return null;
  const src = pending.source ? cardName(ctx, pending.source, view.active) : "";
  const btns = [];
  const rule = promptOf(ctx);
  if (mine) {
    if (phase === "main") {
      if (ctx.legal.includes("pass")) btns.push(button(t("Pass"), () => ctx.act("pass"), { dataset: { action: "pass", key: "pass" } }));
    } else if (phase === "mulligan") {
      btns.push(button(t("Keep this hand"), () => ctx.act("keep"), { kind: "primary", dataset: { action: "keep" } }));
      btns.push(button(t("Mulligan"), () => ctx.act("mulligan"), { dataset: { action: "mulligan" } }));
    } else if (phase === "fortune") {
      for (const a of ctx.legal.filter((x) => x.startsWith("destroy:"))) {
        btns.push(button(t("Destroy {card}", { card: cardName(ctx, a.slice(8), decider) }), () => ctx.act(a), { dataset: { action: a } }));
      }
    } else if (phase === "do_over") {
      for (const a of ctx.legal.filter((x) => x.startsWith("destroy:"))) {
        btns.push(button(t("Destroy {card}", { card: cardName(ctx, a.slice(8), decider) }), () => ctx.act(a), { dataset: { action: a } }));
      }
    } else if (phase === "target") {
      for (const a of ctx.legal.filter((x) => x.startsWith("target:"))) {
        const sq = a.slice(7);
        const item = (view.board || {})[sq];
        const what = item ? cardName(ctx, item.card, item.owner) : sq;
        btns.push(button(t("Destroy {card} on {square}", { card: what, square: sq }), () => ctx.act(a), { dataset: { action: a } }));
      }
    } else if (phase === "line") {
      for (const a of ctx.legal) {
        const [kind, n] = a.split(":");
        btns.push(button(kind === "rank" ? t("Rank {n}", { n }) : t("File {n}", { n }), () => ctx.act(a), { dataset: { action: a } }));
      }
    }
    if (ctx.legal.includes("decline")) {
      btns.push(button(t("Decline"), () => ctx.act("decline"), { kind: "ghost", dataset: { action: "decline", key: "decline" } }));
    }
  }
  if (!ctx.replay && !btns.length && phase === "main") return null;
  return h("div", { class: ["decision", mine ? "mine" : "theirs"], id: "decision" },
    ctx.replay || phase !== "main" ? h("p", { class: "decision-text" }, rule ? rule.text : "", rule && rule.rule ? [" ",
      h("button", { type: "button", class: "rule-link", on: { click: () => openRules("zeta", rule.rule) } }, rule.rule)] : null,
    !mine && phase !== "main" ? h("span", { class: "muted" }, " " + t("({name} decides)", { name: ctx.names[decider] })) : null) : null,
    btns.length ? h("div", { class: "decision-buttons" }, btns) : null);
}

/** What the seat to move decides now, in words, with its rule. */
export function promptOf(ctx) {
  const view = ctx.view;
  const phase = view.phase;
  const pending = view.pending || {};
  const decider = view.current_player;
  if (phase === "over" || decider === null || decider === undefined) return null;
  const src = pending.source ? cardName(ctx, pending.source, view.active) : "";
  const mine = ctx.seat === decider;
  if (phase === "main") {
    if (mine && ctx.selected) return { text: t("{card} is chosen: now a lit square on the board.", { card: cardName(ctx, ctx.selected, decider) }), rule: "ZETA-R14" };
    return mine ? { text: t("Choose a card, then a lit square, or pass."), rule: "ZETA-R12" }
      : { text: t("{name} places a card or passes.", { name: ctx.names[decider] }), rule: "ZETA-R12" };
  }
  if (phase === "mulligan") return { text: t("Keep the opening hand, or shuffle it back and draw a new one (once)."), rule: "ZETA-R11" };
  if (phase === "do_over") return { text: t("{card} on {square}: destroy one card of the hand, then draw.", { card: src, square: pending.square }), rule: "ZETA-R38" };
  if (phase === "fortune") {
    const drawn = pending.drawn;
    return drawn ? { text: t("{card} drew {cards}: destroy one of the two.", { card: src, cards: joinList(drawn.map((d) => cardName(ctx, d, decider))) }), rule: "ZETA-R39" }
      : { text: t("{card}: one of the two drawn cards is destroyed.", { card: src }), rule: "ZETA-R39" };
  }
  if (phase === "target") {
    return { text: t("{card} on {square}: you may destroy a card on {squares}.", { card: src, square: pending.square,
      squares: joinList(pending.targets || []) }), rule: "ZETA-R30" };
  }
  if (phase === "mourn") return { text: t("{card}: you may place a cost-0 card from your hand on an empty square.", { card: src }), rule: "ZETA-R57" };
  if (phase === "line") return { text: t("{card}: choose the full line whose cards are destroyed: {lines}.", { card: src,
    lines: joinList((pending.lines || []).map((l) => l.replace(":", " "))) }), rule: "ZETA-R59" };
  return { text: phase, rule: null };
}

function effectLines(ctx) {
  const view = ctx.view;
  const turn = view.turn;
  const effects = view.effects || {};
  const out = [];
  const when = (tt) => (tt === turn ? t("this turn") : t("on turn {n}", { n: tt }));
  for (let p = 0; p < 2; p++) {
    const who = ctx.names[p];
    const at = (key) => (effects[key] || [0, 0])[p];
    if (at("negate_fanfares") >= turn && at("negate_fanfares")) out.push([t("{who}'s Fanfares have no effect {when}.", { who, when: when(at("negate_fanfares")) }), "ZETA-R35"]);
    if (at("only_cost_zero") >= turn && at("only_cost_zero")) out.push([t("{who} may place only cost-0 cards {when}.", { who, when: when(at("only_cost_zero")) }), "ZETA-R53"]);
    if (at("broom") >= turn && at("broom")) out.push([t("{who} may place cards of cost 10 or less {when}.", { who, when: when(at("broom")) }), "ZETA-R49"]);
    if (at("apprentice_check") >= turn && at("apprentice_check")) out.push([t("{who}'s Fanfares are void {when} if they then hold 4 or more cards.", { who, when: when(at("apprentice_check")) }), "ZETA-R44"]);
  }
  for (const [p, cards] of (view.known_hands || []).entries()) {
    if (cards && cards.length) out.push([t("Known to be in {who}'s hand: {cards} (returned by a Wind Mage).", { who: ctx.names[p],
      cards: joinList(cards.map((c) => cardName(ctx, c, p))) }), "ZETA-R45"]);
  }
  if (view.set_aside) out.push([t("Set aside under a Wind Mage: {card}.", { card: plainName(ctx, view.set_aside) }), "ZETA-R45"]);
  return out;
}

function players(ctx) {
  const view = ctx.view;
  const { count, limit, notes } = costLimit(view, ctx.rules);
  const rows = [0, 1].map((p) => {
    const destroyed = (view.destroyed || [[], []])[p] || [];
    const playing = view.active === p && view.phase !== "over" && ctx.started !== false;
    return h("div", { class: ["player-row", "seat-" + p, playing ? "active" : ""], dataset: { seat: p } },
      h("div", { class: "player-name" }, seatChip(ctx.names, p), view.first_player === p ? h("span", { class: "tag" }, t("moves first")) : null,
        playing ? h("span", { class: "tag tag-turn" }, t("to play")) : null),
      h("div", { class: "counts" },
        h("span", { class: "count-box", title: t("cards in hand") }, h("b", null, String((view.hand_sizes || [])[p] ?? "?")), " ", t("hand")),
        h("span", { class: "count-box", title: t("cards in the deck") }, h("b", null, String((view.deck_sizes || [])[p] ?? "?")), " ", t("deck")),
        h("details", { class: "count-box destroyed" },
          h("summary", null, h("b", null, String(destroyed.length)), " ", t("destroyed")),
          destroyed.length ? h("p", { class: "small" }, joinList(destroyed.map((c) => cardName(ctx, c, p)))) : h("p", { class: "small muted" }, t("none")))));
  });
  const cost = h("p", { class: "cost-line" },
    h("span", { class: "cost-big" }, String(limit)), " ",
    t("Cost limit now: cards of cost {limit} or less may be placed ({count} on the board).", { limit, count }), " ",
    h("button", { type: "button", class: "rule-link", on: { click: () => openRules("zeta", "ZETA-R14") } }, "ZETA-R14"),
    notes.includes("broom") ? h("span", { class: "tag" }, t("Magic Broom")) : null,
    notes.includes("earth") ? h("span", { class: "tag" }, t("Earth Mage")) : null);
  const effects = effectLines(ctx);
  return h("section", { class: "status-panel" }, rows, cost,
    effects.length ? h("ul", { class: "effects" }, effects.map(([text, rule]) => h("li", null, text, " ",
      h("button", { type: "button", class: "rule-link", on: { click: () => openRules("zeta", rule) } }, rule)))) : null);
}

function decklists(ctx) {
  const lists = ctx.view.decklists || [];
  if (!lists.length) return null;
  const cards = cardsOf(ctx);
  return h("details", { class: "decklists" }, h("summary", null, t("Decklists (open information)")),
    h("div", { class: "decklist-grid" }, lists.map((list, p) => {
      const counts = new Map();
      for (const id of list) counts.set(id, (counts.get(id) || 0) + 1);
      return h("div", null, seatChip(ctx.names, p), h("ul", { class: "small" }, [...counts].map(([id, n]) =>
        h("li", null, `${n} × ${cardName(ctx, id, p)} (${cards[id] ? cards[id].cost : "?"})`))));
    })));
}

function render(ctx) {
  return h("div", { class: "zeta" },
    h("div", { class: "zeta-top" }, board(ctx),
      h("div", { class: "zeta-info" },
        h("p", { class: "turn-line" }, t("Turn {n}", { n: ctx.view.turn })),
        players(ctx),
        h("p", { class: "legend small muted" }, t("✦ Fanfare · ∞ continuous · the number is the cost · ✕ a destroyed card's square")))),
    decisionBox(ctx),
    ctx.view.viewer === null || ctx.view.viewer === undefined ? [handCards(ctx, 0), handCards(ctx, 1)] : handCards(ctx),
    decklists(ctx));
}

// -- words ---------------------------------------------------------------------------------------------
function who(names, seat) { return names[seat] ?? "P" + (Number(seat) + 1); }

/** One event of the seat's log in words. */
function describeEvent(e, names, ctx) {
  const name = (id, owner) => cardName(ctx, id, owner);
  const p = who(names, e.player);
  switch (e.kind) {
    case "first_player": return e.coin_toss ? t("{who} moves first (coin toss).", { who: p }) : t("{who} moves first.", { who: p });
    case "deal": return e.cards ? t("{who} is dealt {cards}.", { who: p, cards: joinList(e.cards.map((c) => name(c, e.player))) })
      : tn("{who} is dealt {n} card.", "{who} is dealt {n} cards.", e.count, { who: p });
    case "mulligan":
      if (!e.taken) return t("{who} keeps the opening hand.", { who: p });
      return t("{who} takes a mulligan: {n} cards shuffled back and as many drawn.", { who: p, n: e.count });
    case "turn": return t("Turn {n}: {who}", { n: e.turn, who: p });
    case "draw": {
      const cause = e.cause && e.cause !== "turn" ? " (" + name(e.cause, e.player) + ")" : "";
      return (e.card ? t("{who} draws {card}.", { who: p, card: name(e.card, e.player) }) : t("{who} draws a card.", { who: p })) + cause;
    }
    case "draw_skipped": return t("{who}'s deck is empty: no card is drawn.", { who: p });
    case "place": {
      let text = t("{who} places {card} on {square}.", { who: p, card: name(e.card, e.player), square: e.square });
      if (e.covers) text += " " + t("It covers their {card}.", { card: name(e.covers, e.player) });
      else if (e.vacancy) text += " " + t("(where their destroyed card was)");
      if (e.extra) text += " " + t("(Mourning the Dead)");
      return text;
    }
    case "pass": return t("{who} passes.", { who: p });
    case "negated": return t("{who}'s {card} on {square}: its Fanfare has no effect.", { who: p, card: name(e.card, e.player), square: e.square });
    case "no_effect": return t("{who}'s {card} on {square} has nothing to act on.", { who: p, card: name(e.card, e.player), square: e.square });
    case "return": return t("The Wind Mage on {square} returns {who}'s {card} to their hand.", { who: p, card: name(e.card, e.player), square: e.square });
    case "destroy":
    case "remove": {
      const params = { cause: name(e.cause, e.by), owner: who(names, e.owner), card: name(e.card, e.owner), square: e.square };
      let text;
      if (e.kind === "remove") text = t("{cause} removes {owner}'s {card} from the game.", params);
      else if (e.zone === "board") text = t("{cause} destroys {owner}'s {card} on {square}.", params);
      else if (e.zone === "hand") text = t("{cause} destroys {owner}'s {card} from their hand.", params);
      else text = t("{cause} destroys {owner}'s {card}.", params);
      return e.random ? text + " " + t("(at random)") : text;
    }
    case "block": return t("{square} is blocked for the rest of the game ({who}'s Light Mage).", { square: e.square, who: p });
    case "effect": {
      const turn = e.turn;
      if (e.effect === "negate_fanfares") return t("{who}'s Fanfares have no effect on turn {n}.", { who: p, n: turn });
      if (e.effect === "only_cost_zero") return t("{who} may place only cost-0 cards on turn {n}.", { who: p, n: turn });
      if (e.effect === "broom") return t("{who} may place cards of cost 10 or less on turn {n}.", { who: p, n: turn });
      if (e.effect === "apprentice_check") return t("{who}'s Fanfares have no effect on turn {n} if they then hold 4 or more cards.", { who: p, n: turn });
      return null;
    }
    case "decision": {
      const src = e.source ? name(e.source, e.player) : "";
      if (e.decision === "mulligan") return t("{who} decides whether to take a mulligan.", { who: p });
      if (e.decision === "do_over") return t("{who} chooses the card of their hand that {card} destroys.", { who: p, card: src });
      if (e.decision === "fortune") return t("{who} chooses which of the two cards {card} drew to destroy.", { who: p, card: src });
      if (e.decision === "target") return t("{who} may destroy a card with {card}: {squares}.", { who: p, card: src, squares: joinList(e.targets || []) });
      if (e.decision === "mourn") return t("{who} may place a cost-0 card with {card}.", { who: p, card: src });
      if (e.decision === "line") return t("{who} chooses the full line that {card} destroys.", { who: p, card: src });
      return null;
    }
    case "decline": return t("{who} declines the effect of {card}.", { who: p, card: name(e.source, e.player) });
    case "line": return t("{who}'s Single-Arrow Summoning destroys the cards of {line}.", { who: p, line: String(e.line || "").replace(":", " ") });
    case "game_over": return reason(e, { names }) + (e.winners && e.winners.length ? " " + t("{who} wins.", { who: who(names, e.winners[0]) }) : "");
    default: return null;
  }
}

// -- the words for the engine's ends and refusals ------------------------------------------------------
// Every way the engine ends a game (the outcome's reason) and every rule id it refuses a move with has its
// words here, keyed by that id: tests/web/test_web_refusal_words.py holds these tables to the engine's ids.

/** The winner's opponent (a two-player game). */
function loser(o) { return o.winners && o.winners.length ? 1 - o.winners[0] : null; }

/** Each end of the game (the outcome's reason, ZETA-R20 to R23): its reason line and its detail line. */
const ENDINGS = {
  four_in_a_row: {
    reason: () => t("Four in a row."),
    detail: (o, ctx) => {
      const placed = lastEvent(ctx, "place");
      const winner = (o.winners || [])[0];
      if (!placed || winner === undefined) return null;
      return t("{who} made four in a row with {card} on {square}.", { who: who(ctx.names, winner),
        card: cardName(ctx, placed.card, placed.player), square: placed.square });
    },
  },
  board_full: {
    reason: (o) => t("The board is full: {a} cards to {b}.", { a: Math.max(...(o.scores || [0])), b: Math.min(...(o.scores || [0])) }),
    detail: (o, ctx) => (o.winners && o.winners.length
      ? t("{who} has more cards on the full board.", { who: who(ctx.names, o.winners[0]) }) : null),
  },
  board_full_tie: {
    reason: () => t("The board is full with as many cards each: a draw."),
    detail: (o) => t("Each player has {n} cards on the board.", { n: (o.scores || [0])[0] }),
  },
  deck_out: {
    reason: () => t("A deck was empty at the start of its owner's turn."),
    detail: (o, ctx) => (loser(o) === null ? null
      : t("{who}'s deck was empty at the start of turn {turn}.", { who: who(ctx.names, loser(o)), turn: (ctx.view || {}).turn })),
  },
  empty_deck_draw: {
    reason: () => t("A player had to draw from an empty deck."),
    detail: (o, ctx) => (loser(o) === null ? null
      : t("{who} had to draw a card from an empty deck and loses.", { who: who(ctx.names, loser(o)) })),
  },
};

/** The end of the game in words: its reason line and its detail line (a resign or a timeout is the room's). */
const { reason, detail } = endingWords(ENDINGS, "reason");

/** The card and square of a typed placement (CARD@SQUARE), or of a target:SQUARE / destroy:CARD decision. */
function parts(action) {
  const text = String(action || "");
  if (text.includes("@")) {
    const [card, square] = text.split("@");
    return { card, square };
  }
  if (text.startsWith("target:")) return { card: null, square: text.slice(7) };
  if (text.startsWith("destroy:")) return { card: text.slice(8), square: null };
  return { card: null, square: null };
}

function cardOf(ctx, action) {
  const { card } = parts(action);
  return card ? cardName(ctx, card, ctx.seat) : t("that card");
}

function squareOf(action) { return parts(action).square || t("that square"); }

/** The card whose effect waits for a decision now. */
function pendingCard(ctx) {
  const p = (ctx.view || {}).pending || {};
  return p.source ? cardName(ctx, p.source, ctx.seat) : t("the card");
}

/** A target:SQUARE that is not one of the effect's targets (the card's own rule). */
function notTarget(a, ctx) {
  return t("{square} is not a target of {card}: choose a lit square, or decline.", { square: squareOf(a), card: pendingCard(ctx) });
}

function costWords(a, ctx) {
  const { card } = parts(a);
  const c = card ? cardsOf(ctx)[card] : null;
  const view = ctx.view || {};
  if (!c || !view.board) return t("That card costs more than the cards on the board allow now.");
  const { limit } = costLimit(view, ctx.rules);
  return t("{card} costs {cost}; a card may cost at most {limit} now.", { card: cardName(ctx, card, ctx.seat), cost: c.cost, limit });
}

/** Why the engine refused a move, by its rule id (every id Zeta's engine refuses with). */
const REFUSALS = {
  "ZETA-R2": (a, ctx) => t("{card} is not in your hand.", { card: cardOf(ctx, a) }),
  "ZETA-R11": () => t("Decide the mulligan first: mulligan, or keep this hand."),
  "ZETA-R12": () => t("It is the main step: place a card on a square, or pass."),
  "ZETA-R14": costWords,
  "ZETA-R15": (a, ctx) => (parts(a).square && ((ctx.view || {}).board || {})[parts(a).square]
    ? t("{square} is already taken.", { square: squareOf(a) })
    : t("{square} is not an empty square of this board.", { square: squareOf(a) })),
  "ZETA-R16": (a) => t("Nothing holds {square} up: under the gravity variant a card goes on the bottom rank or above a card or a blocked square.", { square: squareOf(a) }),
  "ZETA-R17": (a, ctx) => t("{card} is in force: only cost-0 cards may be placed this turn.", { card: plainName(ctx, "earth_mage") }),
  "ZETA-R24": () => t("The game is over."),
  "ZETA-R30": () => t("Choose one of the lit targets, or decline."),
  "ZETA-R38": () => t("Choose a card of your hand to destroy."),
  "ZETA-R39": () => t("Choose one of the two cards just drawn to destroy."),
  "ZETA-R42": notTarget,
  "ZETA-R43": notTarget,
  "ZETA-R45": (a, ctx) => t("{card} goes only on a square holding your own card, or where your card was destroyed.", { card: plainName(ctx, "wind_mage") }),
  "ZETA-R50": (a, ctx) => (String(a).startsWith("target:") ? notTarget(a, ctx)
    : t("{square} is blocked by {card}: no card may be placed there.", { square: squareOf(a), card: plainName(ctx, "light_mage") })),
  "ZETA-R51": notTarget,
  "ZETA-R52": notTarget,
  "ZETA-R55": notTarget,
  "ZETA-R57": (a, ctx) => t("{card}: place a cost-0 card of your hand on an empty square, or decline.", { card: plainName(ctx, "mourning_the_dead") }),
  "ZETA-R59": (a, ctx) => t("{card}: choose one of the full lines (a rank or a file).", { card: plainName(ctx, "single_arrow_summon") }),
};

/** Why a move was refused, in the page language: the words for the rule the engine cites. */
function refusal(error, action, ctx) {
  const words = error && error.rule ? REFUSALS[error.rule] : null;
  if (words) return words(action, ctx);
  if (error && error.code === "invalid_action") return t("That is not a move of this game: choose one of the moves offered.");
  return t("The rule linked here forbids it.");
}

function endDetail(ctx) {
  const over = lastEvent(ctx, "game_over");
  if (over && over.line && over.line.length) return h("p", { class: "win-line" }, t("Winning line: {squares}", { squares: over.line.join(" ") }));
  return null;
}

/** A legal action in words. */
function describeAction(a, ctx) {
  const seat = ctx.seat;
  if (a.includes("@")) {
    const [card, sq] = a.split("@");
    return t("Place {card} on {square}", { card: cardName(ctx, card, seat), square: sq });
  }
  if (a.startsWith("target:")) {
    const sq = a.slice(7);
    const item = (ctx.view.board || {})[sq];
    return t("Destroy {card} on {square}", { card: item ? cardName(ctx, item.card, item.owner) : "?", square: sq });
  }
  if (a.startsWith("destroy:")) return t("Destroy {card}", { card: cardName(ctx, a.slice(8), seat) });
  if (a.startsWith("rank:")) return t("Rank {n}", { n: a.slice(5) });
  if (a.startsWith("file:")) return t("File {n}", { n: a.slice(5) });
  if (a === "pass") return t("Pass");
  if (a === "decline") return t("Decline");
  if (a === "mulligan") return t("Mulligan");
  if (a === "keep") return t("Keep this hand");
  return a;
}

function groupLabel(head, actions, ctx) {
  if (head.endsWith("@")) return t("Place {card} on", { card: cardName(ctx, head.slice(0, -1), ctx.seat) });
  return head;
}

function importantEvent(e) { return e.kind === "turn" || e.kind === "game_over"; }

// -- the lobby's part: each player's deck (ZETA-R6) ------------------------------------------------------
function deckRules(form) {
  const f = form.flags;
  return { deck_size: Number(f.deck_size ?? 25), construction_limits: f.construction_limits ?? true };
}

/** A preset deck's name in the page language (the presets are the project's: classic, control, arcana, plain). */
export function presetName(name) {
  const words = { classic: () => t("classic"), control: () => t("control"), arcana: () => t("arcana"), plain: () => t("plain") }[name];
  return words ? words() : name;
}

function deckChooser(kit, i) {
  const f = kit.form;
  const current = (f.decks || [])[i] || "classic";
  const select = h("select", { class: "input", dataset: { key: "deck-" + i }, "aria-label": t("Deck of P{n}", { n: i + 1 }) },
    h("optgroup", { label: t("Preset decks") }, (kit.data.presets || []).map((p) => h("option", { value: p.name, selected: current === p.name },
      t("Deck: {name}", { name: presetName(p.name) })))),
    h("option", { value: "random", selected: current === "random" }, t("A random legal deck")),
    savedDecks().length ? h("optgroup", { label: t("My decks") }, savedDecks().map((d, k) =>
      h("option", { value: "saved:" + k, selected: current === "saved:" + k }, d.name))) : null,
    h("option", { value: "paste", selected: current === "paste" }, t("Paste or upload a deck file…")));
  select.addEventListener("change", () => { f.decks[i] = select.value; kit.save(); kit.draw(); });
  const parts = [select];
  if (current.startsWith("saved:")) {
    // a deck kept in this browser is checked again under this room's rules before it is offered (ZETA-R6)
    const found = savedCheck(kit, savedDecks()[Number(current.slice(6))]);
    if (found && !found.ok) {
      parts.push(h("ul", { class: "checks bad", dataset: { key: "deck-problems-" + i }, "aria-live": "polite" },
        found.problems.map((p) => h("li", null, typeof p === "string" ? p : p.message))));
    }
  }
  if (current === "plain") parts.push(h("span", { class: "field-help" }, t("The plain deck breaks the copy limit: turn off construction_limits below.")));
  if (current === "paste") {
    parts.push(kit.pasteBox("deck" + i, {
      placeholder: 'name = "mine"\nchant_practice = 8\n…', label: t("Deck file (TOML)"),
      check: async (text) => {
        const result = await api("POST", "/web/decks/zeta/check", { toml: text, rules: deckRules(kit.form) });
        kit.form.customDecks[i] = result.ok ? result.deck : null;
        return inWords(result);
      },
    }));
  }
  return h("div", { class: "deck-choice" }, parts);
}

function deckSetup(kit) {
  const f = kit.form;
  return {
    decks: (f.decks || []).slice(0, 2).map((d, i) => {
      if (d && d.startsWith("saved:")) {
        const saved = savedDecks()[Number(d.slice(6))];
        return saved ? { name: saved.name, cards: saved.cards, names: saved.names || {} } : "classic";
      }
      if (d === "paste") return (f.customDecks || [])[i] || "invalid";
      return d || "classic";
    }),
  };
}

const SAVED_CHECKS = new Map();
let DECK_CARDS = null;

/** A deck check's answer with each problem in words of the page language, cards by their names (as the builder says them). */
async function inWords(result) {
  if (!DECK_CARDS) DECK_CARDS = api("GET", "/web/cards").then((c) => c.zeta || []).catch(() => []);
  const cards = await DECK_CARDS;
  const words = (p) => {
    if (typeof p === "string") return p;
    const card = cards.find((c) => c.id === p.card);
    const name = card ? (language() === "ja" ? card.japanese : card.english) : p.card;
    if (p.code === "size") {
      const diff = p.count - p.limit;
      return diff > 0 ? tn("{count} cards, but a deck holds exactly {size}: remove {n}.", "{count} cards, but a deck holds exactly {size}: remove {n}.", diff,
        { count: p.count, size: p.limit })
        : tn("{count} cards, but a deck holds exactly {size}: add {n}.", "{count} cards, but a deck holds exactly {size}: add {n}.", -diff,
          { count: p.count, size: p.limit });
    }
    if (p.code === "limit") return t("{card}: {count} copies, the limit is {limit}: remove {n}.", { card: name, count: p.count, limit: p.limit, n: p.count - p.limit });
    return p.message;
  };
  return { ...result, problems: (result.problems || []).map((p) => ({ ...(typeof p === "string" ? {} : p), message: words(p) })) };
}

/** The check of a saved deck under the form's rules (null while the server is asked; the form redraws then). */
function savedCheck(kit, saved) {
  if (!saved) return null;
  const body = { deck: { name: saved.name, cards: saved.cards, names: saved.names || {} }, rules: deckRules(kit.form) };
  const key = JSON.stringify(body);
  if (!SAVED_CHECKS.has(key)) {
    SAVED_CHECKS.set(key, null);
    api("POST", "/web/decks/zeta/check", body).then(inWords)
      .then((out) => { SAVED_CHECKS.set(key, out); kit.draw(); })
      .catch((e) => { SAVED_CHECKS.set(key, { ok: false, problems: [{ message: e.message }] }); kit.draw(); });
  }
  return SAVED_CHECKS.get(key);
}

/** Every problem of the chosen decks, each under its seat's name (P1, P2), before the room is made (ZETA-R6). */
async function deckProblems(kit) {
  const f = kit.form;
  const out = [];
  for (const [i, d] of (f.decks || []).slice(0, 2).entries()) {
    let problems = [];
    if (d === "paste") {
      if (!(f.customDecks || [])[i]) problems = [t("paste or upload a deck file and press Check")];
    } else if (d && d.startsWith("saved:")) {
      const saved = savedDecks()[Number(d.slice(6))];
      const body = { deck: { name: saved.name, cards: saved.cards, names: saved.names || {} }, rules: deckRules(f) };
      const found = await inWords(await api("POST", "/web/decks/zeta/check", body));
      SAVED_CHECKS.set(JSON.stringify(body), found);
      if (!found.ok) problems = found.problems.map((p) => (typeof p === "string" ? p : p.message));
    }
    for (const p of problems) out.push(t("Deck of P{n}: {problem}", { n: i + 1, problem: p }));
  }
  return out;
}

const lobby = {
  symbol: "◆",
  problems: deckProblems,
  defaults: () => ({ decks: ["classic", "classic"], customDecks: [null, null] }),
  load: () => api("GET", "/web/decks/zeta"),
  seatExtra: deckChooser,
  seatsHelp: () => t("P1 brings the first deck; who moves first is a coin toss."),
  setup: deckSetup,
};

/** Zeta's tab of the deck builder page. */
const builder = () => import("./zeta-decks.js");

/** The first-game guide (js/tutorial.js): a seeded game, and its steps: the learner's moves with what to
 * do and why, and the other seat's moves ("them"). */
const guide = {
  seed: 3, setup: { decks: ["classic", "classic"] }, rules: { first_player: "p1" },
  steps: [
    { me: "chant_practice@c3", rule: "ZETA-R14",
      say: () => t("The board is empty, and a card may cost at most the number of cards on the board: only a cost-0 card can go down now. Click Chant Practice in your hand, then the lit square c3: a card near the middle can start a line in every direction.") },
    { them: "chant_practice@d3" },
    { me: "fortune_telling@c4", rule: "ZETA-R20",
      say: () => t("Two cards are on the board, so cards of cost 2 or less may be placed. Four of your cards in a row, across, down or diagonally, win the game. Place Fortune-Telling (cost 1) on c4, above your first card: its Fanfare draws you two cards and destroys one of them.") },
    { them: "chant_practice@c5" },
    { me: "blessing_mist@b3", rule: "ZETA-R12",
      say: () => t("P2 blocked your column at c5. Start a row instead: place Mist of Blessing on b3, beside your card on c3 (both players draw a card). On every turn you place one card or pass.") },
  ],
};

export default { render, prompt: promptOf, describeEvent, describeAction, reason, endDetail, detail, refusal, groupLabel, importantEvent, lobby,
  builder, guide };

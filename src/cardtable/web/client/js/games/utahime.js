// Utahime's page: both players' areas (hand with effective numbers, set J/Q/K, face-up and face-down
// discards, energy, joker, cosmic pool, options and hero), the attack being resolved, the modifiers in
// force, and every decision as cards to click or buttons. A hand of the other player is shown exactly
// while the view shows it (a spade or diamond success, UTA-R24, UTA-R59).
import { h } from "../dom.js";
import { joinList, t, tn } from "../i18n.js";
import { button, endingWords, field, openRules, seatChip } from "../ui.js";
import { api, savedOptionSetups } from "../api.js";

const SUITS = { H: "♥", S: "♠", C: "♣", D: "♦", heart: "♥", spade: "♠", club: "♣", diamond: "♦", hearts: "♥", spades: "♠", clubs: "♣", diamonds: "♦" };
const RED = new Set(["H", "D"]);
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
const CARD = /^~?[HSCD](?:A|10|[2-9]|J|Q|K)\+?$/;

export function split(token) {
  const text = String(token);
  const foreign = text.startsWith("~");
  let body = foreign ? text.slice(1) : text;
  const cosmic = body.endsWith("+");
  if (cosmic) body = body.slice(0, -1);
  return { suit: body[0], rank: body.slice(1), foreign, cosmic };
}

/** A card in words: ♥7, ♣7+ (cosmic), ~♥9 (from the other deck). */
export function cardText(token) {
  const c = split(token);
  return (c.foreign ? "~" : "") + (SUITS[c.suit] || c.suit) + c.rank + (c.cosmic ? "+" : "");
}

function printed(token, ace) {
  const { rank } = split(token);
  if (rank === "A") return ace;
  return RANKS[rank] || Number(rank);
}

/** Twice the number a card counts for a seat this turn (UTA-R7, R8: modifiers in half-points). */
export function effective2(token, seat, view, ace) {
  let value = 2 * printed(token, ace);
  const rank = printed(token, 1);
  for (const e of view.effects || []) {
    if (e.turn !== view.turn || e.player !== seat) continue;
    const half = Number(e.half_points || 0);
    const attacking = seat === view.attacker && e.kind === "attack_bonus";
    const defending = seat !== view.attacker && (e.kind === "block_bonus" || (e.kind === "bonus_8_10" && rank >= 8 && rank <= 10));
    if (attacking || defending) value += half;
  }
  return value;
}

function halfText(v2) { return v2 % 2 === 0 ? String(v2 / 2) : (v2 / 2).toFixed(1); }

const ZONE_VERBS = {
  hand: ["set", "attack", "block", "heartnext", "choose"],
  other: ["take", "choose"],
  discard: ["pass", "flip", "choose"],
  cosmic: ["cosmic"],
  revealed: ["pick"],
  deck: ["wish"],
};

function actionsFor(ctx, zone, token) {
  const verbs = ZONE_VERBS[zone] || [];
  return ctx.legal.filter((a) => {
    const w = a.split(" ");
    return verbs.includes(w[0]) && w[1] === token;
  });
}

function tile(ctx, token, { zone, seat, faceDown, hidden, small, effective, setMark, key } = {}) {
  if (hidden) return h("span", { class: ["pcard", "back", seat === 1 ? "p1" : "", small ? "small" : ""], "aria-label": t("a face-down card") });
  const c = split(token);
  const actions = zone ? actionsFor(ctx, zone, token) : [];
  const selected = ctx.selected === zone + ":" + token;
  const hinted = ctx.hint && ctx.hint.split(" ")[1] === token && actions.includes(ctx.hint);
  const classes = ["pcard", RED.has(c.suit) ? "red" : "", c.cosmic ? "cosmic" : "", c.foreign ? "foreign" : "", faceDown ? "down" : "",
    small ? "small" : "", actions.length ? "usable" : "", selected ? "selected" : "", hinted ? "hinted" : ""];
  const body = [h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, SUITS[c.suit] || c.suit),
    effective ? h("span", { class: "eff", title: t("counts {n} this turn", { n: effective }) }, effective) : null,
    setMark ? h("span", { class: "flag-set" }, setMark) : null];
  const label = cardText(token) + (faceDown ? " " + t("(face down)") : "") + (effective ? " · " + t("counts {n} this turn", { n: effective }) : "")
    + (setMark ? " · " + setMark : "");
  if (!actions.length || !ctx.interactive) {
    return h("span", { class: classes, "aria-label": label, title: label, dataset: { card: token, zone: zone || "" } }, body);
  }
  const click = () => {
    if (actions.length === 1) return ctx.act(actions[0]);
    return ctx.select(zone + ":" + token);
  };
  return h("button", { type: "button", class: classes, "aria-label": label, "aria-pressed": selected ? "true" : "false",
    dataset: { card: token, zone, key: key || "c-" + zone + "-" + token }, on: { click } }, body);
}

/** True on a screen without a hovering pointer (a phone or a tablet): the page says "tap", not "click". */
function touchScreen() {
  return window.matchMedia("(hover: none)").matches;
}

/** Energy as one gold mark and its number (a row of pips and a number said it twice). */
function energyPips(n) {
  return h("span", { class: "energy", "aria-label": t("{n} energy", { n }) }, h("i", { "aria-hidden": "true" }), h("b", null, String(n)));
}

function playerArea(ctx, p) {
  const view = ctx.view;
  const item = (view.players || [])[p] || {};
  const viewer = view.viewer;
  const ace = Number(ctx.rules.ace_value || 1);
  const attacker = view.attacker === p;
  const setCards = new Set((item.set || []).map((x) => x.card).filter(Boolean));
  const zones = [];
  // the hand: own, or the other player's while it may be seen
  const hand = item.hand;
  if (hand) {
    const mine = viewer === p;
    const looking = !mine && viewer !== null && viewer !== undefined;
    const tiles = hand.map((token) => {
      const eff2 = effective2(token, p, view, ace);
      const changed = eff2 !== 2 * printed(token, ace) ? halfText(eff2) : null;
      const { rank } = split(token);
      const mark = ["J", "Q", "K"].includes(rank) ? (setCards.has(token) ? t("set") : t("unset")) : null;
      return tile(ctx, token, { zone: mine ? "hand" : "other", effective: changed, setMark: mark, seat: p });
    });
    zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Hand"), " ", h("span", { class: "badge" }, String(hand.length))),
      h("div", null,
        looking ? h("p", { class: "look-banner" }, t("You may look at this hand until the end of the turn (or until it gains a card)."), " ",
          h("button", { type: "button", class: "rule-link", on: { click: () => openRules("utahime", "UTA-R59") } }, "UTA-R59")) : null,
        h("div", { class: "pcards" }, tiles.length ? tiles : h("span", { class: "muted" }, t("empty"))))));
  } else {
    const count = item.hand_count || 0;
    const sets = item.set || [];
    zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Hand"), " ", h("span", { class: "badge" }, String(count))),
      h("div", null, h("div", { class: "pcards" }, Array.from({ length: Math.min(count, 12) }, () => tile(ctx, null, { hidden: true, small: true, seat: p }))),
        sets.length ? h("p", { class: "small muted" }, tn("{n} J/Q/K of them set face down (turn {turns}).", "{n} J/Q/K of them set face down (turns {turns}).",
          sets.length, { turns: sets.map((x) => x.turn).join(", ") })) : null)));
  }
  // the wished card is shown while it is still in its owner's hand (a hand the viewer cannot see: as told)
  if (item.wished && (!Array.isArray(item.hand) || item.hand.includes(item.wished))) {
    zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Wished card")), h("div", { class: "pcards" }, tile(ctx, item.wished, { small: true }))));
  }
  const pile = item.discard || [];
  const pileTiles = pile.map((entry, k) => {
    if (entry.face_up) return tile(ctx, entry.card, { zone: viewer === p ? "discard" : undefined, small: true, key: "d-" + p + "-" + k });
    if (entry.card) return tile(ctx, entry.card, { faceDown: true, small: true });
    return tile(ctx, null, { hidden: true, small: true, seat: p });
  });
  const score = (view.scores || [])[p] ?? 0;
  zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Discard pile")),
    h("div", null, h("div", { class: "pcards" }, pileTiles.length ? pileTiles : h("span", { class: "muted" }, "–")),
      h("p", { class: "small muted" }, tn("{n} face up: that is the score.", "{n} face up: that is the score.", score)))));
  const pool = item.cosmic_pool || [];
  zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Cosmic cards")),
    h("div", { class: "pcards" }, pool.length ? pool.map((c) => tile(ctx, c, { zone: viewer === p ? "cosmic" : undefined, small: true }))
      : h("span", { class: "muted" }, t("none left")))));
  const setup = ctx.setup || view.setup || {};
  const names = setup[`p${p + 1}_options`] || [];
  const up = item.options_face_up || [];
  if (names.length) {
    zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Option cards")),
      h("div", { class: "option-list" }, names.map((name, k) => {
        const def = optionDef(ctx, "options", name);
        // the effect opens on a tap (a tooltip cannot be read on a phone)
        if (!def) return h("span", { class: ["option-chip", up[k] ? "" : "used"] }, name + (up[k] ? "" : " · " + t("used")));
        return h("details", { class: ["option-chip", up[k] ? "" : "used"], dataset: { option: name } },
          h("summary", null, t(def.title) + (up[k] ? "" : " · " + t("used"))),
          h("span", { class: "option-text" }, t("cost {n}", { n: def.cost }), " · ", t(def.text)));
      }))));
  }
  const hero = setup[`p${p + 1}_hero`];
  if (hero) {
    const def = optionDef(ctx, "heroes", hero);
    zones.push(h("div", { class: "uta-zone" }, h("span", { class: "zone-label" }, t("Hero")),
      def ? h("details", { class: "option-chip hero-chip", dataset: { hero } },
        h("summary", null, t(def.title), " · ", tn("{n} use left", "{n} uses left", item.hero_uses_left || 0)),
        h("span", { class: "option-text" }, t(def.text)))
        : h("span", null, hero, " · ", tn("{n} use left", "{n} uses left", item.hero_uses_left || 0))));
  }
  return h("section", { class: ["uta-player", "seat-" + p, attacker ? "attacker" : ""], dataset: { seat: p } },
    h("div", { class: "uta-head" }, seatChip(ctx.names, p),
      attacker ? h("span", { class: "tag tag-turn" }, t("attacker")) : h("span", { class: "tag" }, t("defender")),
      viewer === p ? h("span", { class: "tag" }, t("you")) : null,
      h("div", { class: "uta-stats" },
        h("span", { class: "count-box" }, t("energy"), " ", energyPips(item.energy || 0)),
        h("span", { class: "count-box" }, t("deck"), " ", h("b", null, String(item.deck_count ?? "?"))),
        h("span", { class: "count-box" }, t("score"), " ", h("b", null, String(score))),
        h("span", { class: ["joker", item.joker_face_up ? "up" : "down"] }, item.joker_face_up ? t("joker ready") : t("joker used")))),
    zones);
}

/** An option or hero card's title in the page language (its name if the set is not known). */
function optionTitle(ctx, kind, name) {
  const def = ctx ? optionDef(ctx, kind, name) : null;
  return def ? t(def.title) : String(name);
}

function optionDef(ctx, kind, name) {
  const set = ctx.extra && ctx.extra.set;
  return set ? (set[kind] || []).find((x) => x.name === name) || null : null;
}

/** The option set of a room's setup (titles, costs and texts of its cards), read once by the server. */
async function prepare(setup, rules) {
  if (!setup || !setup.option_set || setup.option_set === "none") return null;
  try {
    const limits = {};
    if (rules && rules.option_cost_budget !== undefined) limits.option_cost_budget = rules.option_cost_budget;
    if (rules && rules.option_max_copies !== undefined) limits.option_max_copies = rules.option_max_copies;
    const out = await api("POST", "/web/options/utahime/check", { setup, rules: limits });
    return { set: out.set };
  } catch {
    return null;
  }
}

function modifiers(ctx) {
  const view = ctx.view;
  const out = [];
  for (const e of view.effects || []) {
    const half = Number(e.half_points || 0);
    const sign = (half >= 0 ? "+" : "−") + halfText(Math.abs(half));
    const who = ctx.names[e.player];
    const when = e.turn === view.turn ? t("this turn") : t("in turn {n}", { n: e.turn });
    let text;
    let rule;
    if (e.kind === "ban") { text = t("{who} may not attack with {suit} {when}.", { who, suit: SUITS[e.suit] || e.suit, when }); rule = "UTA-R33"; }
    else if (e.kind === "block_bonus") { text = t("{who}'s cards played in defence count {sign} {when}.", { who, sign, when }); rule = "UTA-R34"; }
    else if (e.kind === "bonus_8_10") { text = t("{who}'s 8, 9 and 10 played in defence count {sign} {when}.", { who, sign, when }); rule = "UTA-R35"; }
    else if (e.kind === "attack_bonus") { text = t("{who}'s attack card counts {sign} {when}.", { who, sign, when }); rule = "UTA-R49"; }
    else { text = `${e.kind} ${who} ${when}`; rule = null; }
    out.push(h("li", null, text, " ", rule ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules("utahime", rule) } }, rule) : null));
  }
  return out;
}

function center(ctx) {
  const view = ctx.view;
  const attack = view.attack;
  const parts = [];
  if (attack) {
    const suit = split(attack.card).suit;
    parts.push(h("div", { class: "attack-line" },
      seatChip(ctx.names, view.attacker), t("attacks with"), tile(ctx, attack.card, { small: true }),
      attack.next ? h("span", { class: "tag" }, (SUITS[suit] || "") + "NEXT") : null,
      attack.bans ? h("span", { class: "tag" }, t("designates {suits}", { suits: [...attack.bans].map((x) => SUITS[x] || x).join("") })) : null,
      attack.block ? [h("span", null, t("blocked by")), tile(ctx, attack.block, { small: true })] : null,
      attack.reaction ? [h("span", null, t("reaction")), tile(ctx, attack.reaction, { small: true })] : null,
      attack.success ? h("span", { class: "tag tag-turn" }, t("succeeds")) : null));
  } else {
    parts.push(h("p", { class: "muted" }, t("Turn {n}: no attack yet.", { n: view.turn })));
  }
  const heart = view.heart_next;
  if (heart && heart.revealed && heart.revealed.length) {
    parts.push(h("div", { class: "attack-line" }, seatChip(ctx.names, heart.user), t("♥NEXT reveals"),
      h("span", { class: "pcards" }, heart.revealed.map((c) => tile(ctx, c, { zone: "revealed", small: true })))));
  }
  const mods = modifiers(ctx);
  if (mods.length) parts.push(h("ul", { class: "mods" }, mods));
  return h("section", { class: "uta-center" }, parts);
}

function wishGrid(ctx) {
  if (ctx.view.phase !== "wish" || !ctx.interactive) return null;
  const rows = ["H", "S", "C", "D"].map((suit) => h("div", { class: "pcards" },
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].map((rank) => tile(ctx, suit + rank, { zone: "deck", small: true }))));
  return h("section", { class: "uta-player" }, h("h3", null, t("Choose your wished card")),
    h("p", { class: "small muted" }, t("Any card of your deck goes to your hand; the rest is shuffled and you draw 9.")), rows);
}

const PHASES = {
  wish: ["Choose your wished card: any card of your deck goes to your hand.", "UTA-R3"],
  main: ["Free actions (set a J/Q/K, options), then one main action: attack, pass (turn a face-up discard face down for +1 energy) or the joker.", "UTA-R10"],
  block: ["Block the attack with a card, or let it through.", "UTA-R18"],
  react: ["The attack succeeded: react with your Ace, or not.", "UTA-R29"],
  target: ["Choose a card of the defender's hand.", "UTA-R24"],
  draw: ["Choose how many cards to draw.", "UTA-I32"],
  heart_pick: ["♥NEXT: take one of the revealed cards into your hand.", "UTA-R51"],
  blocker_window: ["After blocking you may use ♥NEXT, or end.", "UTA-I67"],
  post: ["After the attack: free actions, ♥NEXT once, or end the turn.", "UTA-R10"],
  end: ["End step: take one cosmic card into your hand, or not.", "UTA-R52"],
  effect: ["Make the choice the option or hero card asks for.", "UTA-R46"],
};

function phaseText(phase) {
  switch (phase) {
    case "wish": return t("Choose your wished card: any card of your deck goes to your hand.");
    case "main": return t("Free actions (set a J/Q/K, options), then one main action: attack, pass (turn a face-up discard face down for +1 energy) or the joker.");
    case "block": return t("Block the attack with a card, or let it through.");
    case "react": return t("The attack succeeded: react with your Ace, or not.");
    case "target": return t("Choose a card of the defender's hand.");
    case "draw": return t("Choose how many cards to draw.");
    case "heart_pick": return t("♥NEXT: take one of the revealed cards into your hand.");
    case "blocker_window": return t("After blocking you may use ♥NEXT, or end.");
    case "post": return t("After the attack: free actions, ♥NEXT once, or end the turn.");
    case "end": return t("End step: take one cosmic card into your hand, or not.");
    case "effect": return t("Make the choice the option or hero card asks for.");
    default: return phase;
  }
}

/** Another seat's decision, worded about them (not as if it were the viewer's). */
function theirPhaseText(phase, name) {
  switch (phase) {
    case "wish": return t("{name} chooses their wished card.", { name });
    case "main": return t("{name} takes free actions, then attacks, passes or plays the joker.", { name });
    case "block": return t("{name} blocks the attack with a card, or lets it through.", { name });
    case "react": return t("{name} may react to the successful attack with their Ace.", { name });
    case "target": return t("{name} chooses a card of the defender's hand.", { name });
    case "draw": return t("{name} chooses how many cards to draw.", { name });
    case "heart_pick": return t("{name} takes one of the revealed cards (♥NEXT).", { name });
    case "blocker_window": return t("{name} may use ♥NEXT after blocking, or end.", { name });
    case "post": return t("{name} may take free actions or ♥NEXT, or end the turn.", { name });
    case "end": return t("{name} may take one cosmic card into their hand.", { name });
    case "effect": return t("{name} makes the choice an option or hero card asks for.", { name });
    default: return phase;
  }
}

function prompt(ctx) {
  const phase = ctx.view.phase;
  const decider = ctx.view.current_player;
  if (decider === null || decider === undefined || !PHASES[phase]) return null;
  if (!ctx.replay && ctx.seat !== decider) return { text: theirPhaseText(phase, ctx.names[decider]), rule: PHASES[phase][1] };
  return { text: phaseText(phase), rule: PHASES[phase][1] };
}

function decisionBox(ctx) {
  const view = ctx.view;
  const p = prompt(ctx);
  if (!p) return null;
  const parts = [];
  if (ctx.interactive) {
    const sel = ctx.selected ? ctx.selected.split(":") : null;
    if (sel) {
      const acts = actionsFor(ctx, sel[0], sel.slice(1).join(":"));
      parts.push(h("div", { class: "card-actions" }, acts.map((a) => button(describeAction(a, ctx), () => ctx.act(a), { dataset: { action: a },
        class: ctx.hint === a ? "hinted" : "" }))));
    }
    const loose = ctx.legal.filter((a) => {
      const w = a.split(" ");
      return !(w[1] && CARD.test(w[1]) && ["set", "attack", "block", "heartnext", "take", "pass", "flip", "cosmic", "pick", "wish", "choose"].includes(w[0]));
    });
    if (loose.length) {
      parts.push(h("div", { class: "decision-buttons" }, loose.map((a) => button(describeAction(a, ctx), () => ctx.act(a),
        { dataset: { action: a }, kind: ["noblock", "noreact", "nocosmic", "end"].includes(a) ? "ghost" : undefined, class: ctx.hint === a ? "hinted" : "" }))));
    }
    if (ctx.legal.some((a) => CARD.test(a.split(" ")[1] || "") && !loose.includes(a))) {
      parts.unshift(h("p", { class: "small muted" }, touchScreen() ? t("Tap a lit card to play it; a card with several choices shows them here.")
        : t("Click a lit card to play it; a card with several choices shows them here.")));
    }
  }
  return h("div", { class: ["decision", ctx.interactive ? "mine" : "theirs"], id: "decision" },
    ctx.replay ? h("p", { class: "decision-text" }, p.text, " ", h("button", { type: "button", class: "rule-link", on: { click: () => openRules("utahime", p.rule) } }, p.rule)) : null,
    !ctx.interactive && view.current_player !== null ? h("p", { class: "muted small" }, t("({name} decides)", { name: ctx.names[view.current_player] })) : null,
    parts);
}

function render(ctx) {
  const view = ctx.view;
  const viewer = view.viewer;
  const order = viewer === 0 || viewer === 1 ? [1 - viewer, viewer] : [1, 0];
  return h("div", { class: "uta" },
    h("p", { class: "turn-line" }, t("Turn {n}", { n: view.turn })),
    playerArea(ctx, order[0]),
    center(ctx),
    wishGrid(ctx),
    decisionBox(ctx),
    playerArea(ctx, order[1]),
    h("p", { class: "legend small muted" }, t("A yellow badge is the number a card counts this turn · + a cosmic card · ~ a card from the other deck · a dashed card is face down")));
}

// -- words ---------------------------------------------------------------------------------------------
function who(names, seat) { return names[seat] ?? "P" + (Number(seat) + 1); }
function cards(list) { return (list || []).map(cardText).join(" "); }

function describeEvent(e, names, ctx) {
  const p = who(names, e.player);
  const card = e.card ? cardText(e.card) : null;
  switch (e.kind) {
    case "setup": return t("{who} moves first.", { who: who(names, e.first_player) });
    case "wish": return card ? t("{who} wishes for {card}.", { who: p, card }) : t("{who} chooses a wished card.", { who: p });
    case "wishes_shown": return t("The wished cards are shown: {cards}.", { cards: (e.cards || []).map((c, k) => `${who(names, k)} ${cardText(c)}`).join(", ") });
    case "deal": return e.cards ? t("{who} takes the wished card and draws 9: {cards}.", { who: p, cards: cards(e.cards) })
      : t("{who} takes the wished card and draws to a hand of {n}.", { who: p, n: e.count });
    case "turn": return e.rescue ? t("Turn {n}: {who} attacks and must use the joker (empty hand).", { n: e.turn, who: p })
      : t("Turn {n}: {who} attacks.", { n: e.turn, who: p });
    case "set": return card ? t("{who} sets {card} face down.", { who: p, card }) : t("{who} sets a J/Q/K face down.", { who: p });
    case "option": return t("{who} uses the option card {name}.", { who: p, name: optionTitle(ctx, "options", e.option) });
    case "hero": return t("{who} uses the hero {name}.", { who: p, name: optionTitle(ctx, "heroes", e.hero) });
    case "attack": {
      let text = t("{who} attacks with {card}.", { who: p, card });
      if (e.next) text += " " + t("Declares {suit}NEXT.", { suit: SUITS[split(e.card).suit] || "" });
      if (e.bans) text += " " + t("Designates {suits}.", { suits: [...e.bans].map((x) => SUITS[x] || x).join("") });
      return text;
    }
    case "energy": {
      const change = Number(e.change || 0);
      return t("{who}'s energy {change} (now {n}).", { who: p, change: (change >= 0 ? "+" : "−") + Math.abs(change), n: e.energy });
    }
    case "effect": {
      const sign = (Number(e.half_points || 0) >= 0 ? "+" : "−") + halfText(Math.abs(Number(e.half_points || 0)));
      if (e.effect === "ban") return t("{who} may not attack with {suit} in turn {n}.", { who: p, suit: SUITS[e.suit] || e.suit, n: e.turn });
      if (e.effect === "block_bonus") return t("{who}'s cards played in defence count {sign} in turn {n}.", { who: p, sign, n: e.turn });
      if (e.effect === "bonus_8_10") return t("{who}'s 8, 9 and 10 played in defence count {sign} in turn {n}.", { who: p, sign, n: e.turn });
      if (e.effect === "attack_bonus") return t("{who}'s attack card counts {sign} in turn {n}.", { who: p, sign, n: e.turn });
      return null;
    }
    case "block": return e.face_up === false ? t("{who} blocks with {card} (face down).", { who: p, card }) : t("{who} blocks with {card}.", { who: p, card });
    case "no_block": return t("{who} does not block.", { who: p });
    case "success": return t("{who}'s attack succeeds.", { who: p });
    case "react": return t("{who} reacts with {card}, cancelling the effect.", { who: p, card });
    case "no_react": return t("{who} does not react.", { who: p });
    case "look": return e.hand ? t("{who} looks at {target}'s hand: {cards}.", { who: p, target: who(names, e.target), cards: cards(e.hand) || t("empty") })
      : t("{who} looks at {target}'s hand.", { who: p, target: who(names, e.target) });
    case "take":
    case "discard": {
      const params = { who: p, card: card || t("a card"), target: who(names, e.target), pile: who(names, e.pile ?? e.target) };
      return e.face_up ? t("{who} puts {card} of {target}'s hand face up on {pile}'s pile.", params)
        : t("{who} puts {card} of {target}'s hand face down on {pile}'s pile.", params);
    }
    case "take_nothing": return t("{who} places no card.", { who: p });
    case "draw": return e.cards ? t("{who} draws {cards}.", { who: p, cards: cards(e.cards) })
      : e.count ? tn("{who} draws {n} card.", "{who} draws {n} cards.", e.count, { who: p }) : t("{who} draws nothing.", { who: p });
    case "heart_next": {
      const hidden = t("a heart");
      return t("{who} uses ♥NEXT, putting {card} face down on the pile.", { who: p, card: card || hidden });
    }
    case "reveal": return t("{who} reveals the top of the deck: {cards}.", { who: p, cards: cards(e.cards) });
    case "pick": return t("{who} keeps {card}.", { who: p, card });
    case "end_window": return t("{who} ends the window.", { who: p });
    case "cosmic": return t("{who} takes the cosmic {card}.", { who: p, card });
    case "no_cosmic": return t("{who} takes no cosmic card.", { who: p });
    case "pass": return t("{who} passes, turning {card} face down (+1 energy).", { who: p, card });
    case "flip": return t("{who} turns {card} of {target}'s pile face down.", { who: p, card, target: who(names, e.target ?? e.player) });
    case "joker": return t("{who} uses the joker: both players draw up to 2, the turn ends.", { who: p });
    case "stall": return e.dead ? t("{who} has no main action: a dead stall.", { who: p }) : t("{who} has no main action: a stall.", { who: p });
    case "mill": return t("{who} puts cards from the top of the deck on the pile.", { who: p });
    case "exchange": return t("{who} puts {card} of the hand face down on the pile.", { who: p, card: card || t("a card") });
    case "recover": return t("{who} takes {card} back from the pile into the hand.", { who: p, card });
    case "choose_nothing": return t("{who} chooses nothing.", { who: p });
    case "game_end": {
      const winners = (e.winners || []).map((w) => who(names, w));
      return winners.length ? tn("Game over: {names} wins ({scores}).", "Game over: {names} win ({scores}).", winners.length, { names: winners.join(" & "), scores: (e.scores || []).join("–") })
        : t("Game over: a draw ({scores}).", { scores: (e.scores || []).join("–") });
    }
    default: return null;
  }
}

// -- the words for the engine's ends and refusals ------------------------------------------------------
// Every way the engine ends a game (the outcome's rule) and every rule id it refuses a move with has its
// words here, keyed by that id: tests/web/test_web_refusal_words.py holds these tables to the engine's ids.

/** The winner by the scores (UTA-R58): who has more face-up discards, or how a tie was broken. */
function scoreDetail(o, ctx) {
  const [a, b] = o.scores || [0, 0];
  const winner = (o.winners || [])[0];
  const name = (p) => (ctx.names || [])[p] ?? "P" + (p + 1);
  if (a !== b) return t("{who} has more face-up discards ({a} to {b}).", { who: name(winner ?? (a > b ? 0 : 1)), a: Math.max(a, b), b: Math.min(a, b) });
  if (winner !== undefined) return t("The scores tie {a}–{b}; {who} wins on the lower option cost.", { a, b, who: name(winner) });
  return t("The scores tie {a}–{b} and so do the option costs: a draw.", { a, b });
}

/** Each end of the game (the outcome's rule, UTA-R55 to R57): its reason line and its detail line (UTA-R58). */
const ENDINGS = {
  "UTA-R55": { reason: () => t("A player started a turn with no cards in hand."), detail: scoreDetail },
  "UTA-R56": { reason: () => t("Two dead stalls in a row."), detail: scoreDetail },
  "UTA-R57": { reason: () => t("The turn limit was reached."), detail: scoreDetail },
};

/** The end of the game in words: its reason line and its detail line (a resign or a timeout is the room's). */
const { reason, detail } = endingWords(ENDINGS, "rule", scoreDetail);

/** The card a typed move names (its second word), as the page writes cards. */
function moveCard(action) {
  const w = String(action || "").split(" ");
  return w[1] && CARD.test(w[1]) ? cardText(w[1]) : t("that card");
}

/** Why the engine refused a move, by its rule id (every id Utahime's engine refuses with). */
const REFUSALS = {
  "UTA-R3": () => t("The wished card is chosen once, from your own deck, before the game."),
  "UTA-R10": () => t("That move is not possible in this step of the turn."),
  "UTA-R14": (a) => t("{card} is not in your hand.", { card: moveCard(a) }),
  "UTA-R15": () => t("NEXT is declared only with a club (♣NEXT) or a diamond (♦NEXT); a 2 to 4 and ♣NEXT each designate a suit, written in the order ♥♠♣♦."),
  "UTA-R18": () => t("Only a club may block a heart attack, and only a diamond a spade attack."),
  "UTA-R19": (a) => t("{card} counts less than the attack: a block needs at least the attack's number.", { card: moveCard(a) }),
  "UTA-R20": (a) => (String(a).startsWith("noblock") ? t("You have a block, and this room's rules make blocking compulsory.")
    : t("Block with a card of your hand; a J, Q or K must have been set face down in an earlier turn.")),
  "UTA-R24": () => t("Choose one card of the other player's hand (with ♦NEXT: the top or the bottom of the pile, or none)."),
  "UTA-R29": () => t("A reaction needs ♣A (against a draw) or ♦A (against a discard effect) in hand, and only after an attack that was not blocked."),
  "UTA-R33": (a) => t("The suit of {card} is forbidden for you this turn.", { card: moveCard(a) }),
  "UTA-R36": (a) => t("{card} must be set face down in an earlier turn before it is played.", { card: moveCard(a) }),
  "UTA-R37": () => t("Only a J, Q or K of your own hand that is not set yet may be set, in your own turn's free actions."),
  "UTA-R42": (a, ctx) => t("Attacking with an A, J, Q or K costs {n} energy, and you do not have enough.",
    { n: (ctx.rules || {}).premium_attack_cost ?? 1 }),
  "UTA-R44": () => t("A pass turns one face-up card of your own discard pile face down."),
  "UTA-R45": () => t("The joker is face down: it is used only once per game."),
  "UTA-R46": () => t("That option or hero card cannot be used now: it must be face up, and its timing must allow it."),
  "UTA-R48": () => t("♦NEXT puts the card at the top or the bottom of the pile; other effects take no position."),
  "UTA-R50": () => t("♣NEXT on a 2 to 4 designates two different suits."),
  "UTA-R51": () => t("♥NEXT needs a heart and cards in your deck; it is used at most once a turn, after your card was played."),
  "UTA-R52": (a, ctx) => t("One cosmic card from your own pool a turn, at the end step, and only with at most {n} cards in hand.",
    { n: Number((ctx.rules || {}).hand_limit ?? 10) - 1 }),
  "UTA-R53": () => t("Draw no more than the hand limit and your deck allow."),
  "UTA-R55": () => t("Your hand is empty and your joker is face up: you must use the joker."),
  "UTA-R56": () => t("You may stall only when no attack, pass or joker is possible."),
  "UTA-I27": () => t("Under this room's rules a block designates one suit, and only with a 2 to 4."),
  "UTA-I52": () => t("A free flip needs this room's rule variant and a face-up discard, in the main phase."),
  "UTA-I56": () => t("The joker is used as the main action (or after the attack, under this room's rules)."),
};

/** Why a move was refused, in the page language: the words for the rule the engine cites. */
function refusal(error, action, ctx) {
  const words = error && error.rule ? REFUSALS[error.rule] : null;
  if (words) return words(action, ctx);
  if (error && error.code === "invalid_action") return t("That is not a move of this game: choose one of the moves offered.");
  return t("The rule linked here forbids it.");
}

/** A legal action in words. */
function describeAction(a, ctx) {
  const w = a.split(" ");
  const card = w[1] && CARD.test(w[1]) ? cardText(w[1]) : w[1];
  switch (w[0]) {
    case "wish": return t("Wish for {card}", { card });
    case "set": return t("Set {card} face down", { card });
    case "attack": {
      let text = t("Attack with {card}", { card });
      if (w.includes("next")) text += " · " + t("{suit}NEXT", { suit: SUITS[split(w[1]).suit] || "" });
      const ban = w.indexOf("ban");
      if (ban >= 0) text += " · " + t("designate {suits}", { suits: [...w[ban + 1]].map((x) => SUITS[x] || x).join("") });
      return text;
    }
    case "pass": return t("Pass: turn {card} face down (+1 energy)", { card });
    case "joker": return t("Use the joker");
    case "stall": return t("Stall (no main action)");
    case "block": return w.includes("ban") ? t("Block with {card} · designate {suits}", { card, suits: SUITS[w[3]] || w[3] }) : t("Block with {card}", { card });
    case "noblock": return t("Do not block");
    case "react": return t("React with the Ace");
    case "noreact": return t("Do not react");
    case "take": return w[1] === "none" ? t("Place no card") : w[2] === "first" ? t("Take {card} (bottom of the pile)", { card })
      : w[2] === "last" ? t("Take {card} (top of the pile)", { card }) : t("Take {card}", { card });
    case "draw": return tn("Draw {n} card", "Draw {n} cards", Number(w[1]));
    case "heartnext": return t("♥NEXT with {card}", { card });
    case "pick": return t("Keep {card}", { card });
    case "end": return t("End");
    case "cosmic": return t("Take the cosmic {card}", { card });
    case "nocosmic": return t("No cosmic card");
    case "option": {
      const def = optionDef(ctx, "options", w[1]);
      return t("Use the option {name}", { name: def ? t(def.title) : w[1] });
    }
    case "hero": return t("Use the hero");
    case "choose": return w[1] === "none" ? t("Choose nothing") : t("Choose {card}", { card });
    case "suit": return t("Name {suit}", { suit: SUITS[w[1]] || w[1] });
    case "flip": return t("Turn {card} face down", { card });
    default: return a;
  }
}

function groupLabel(head, actions, ctx) {
  const w = head.trim().split(" ");
  if (w[0] === "wish") return t("Wish for");
  if (w[0] === "attack") return t("Attack with {card}", { card: w[1] && CARD.test(w[1]) ? cardText(w[1]) : "" });
  return head;
}

function importantEvent(e) { return e.kind === "turn" || e.kind === "game_end" || e.kind === "success"; }

// -- the lobby's part: the option and hero cards (UTA-R2) -----------------------------------------------
function optionRules(form) {
  const f = form.flags;
  return { option_cost_budget: Number(f.option_cost_budget ?? 28), option_max_copies: Number(f.option_max_copies ?? 2) };
}

function optionChooser(kit) {
  const f = kit.form;
  const current = f.options || "none";
  const select = h("select", { class: "input", dataset: { key: "options" }, "aria-label": t("Option and hero cards") },
    h("option", { value: "none", selected: current === "none" }, t("No option cards (the basic game)")),
    (kit.data.sets || []).map((s) => h("option", { value: s.name, selected: current === s.name },
      t("Set: {title} (default loadouts)", { title: t(s.title) }))),
    savedOptionSetups().length ? h("optgroup", { label: t("My option setups") }, savedOptionSetups().map((s, k) =>
      h("option", { value: "saved:" + k, selected: current === "saved:" + k }, s.name))) : null,
    h("option", { value: "paste", selected: current === "paste" }, t("Paste or upload a setup file…")));
  select.addEventListener("change", () => { f.options = select.value; kit.save(); kit.draw(); });
  const paste = current === "paste" ? kit.pasteBox("options", {
    placeholder: 'option_set = "designer_example"\np1_options = ["scout"]\n…', label: t("Option setup file (TOML)"),
    check: async (text) => {
      const result = await api("POST", "/web/options/utahime/check", { toml: text, rules: optionRules(kit.form) });
      kit.form.customOptions = result.ok ? result.setup : null;
      return result;
    },
  }) : null;
  return field(t("Option and hero cards"), h("div", null, select, paste),
    t("Build your own loadouts within the budget of 28 in the deck builder."));
}

function optionSetup(kit) {
  const f = kit.form;
  const current = f.options || "none";
  if (current === "none") return {};
  if (current === "paste") return f.customOptions || { option_set: "invalid" };
  if (current.startsWith("saved:")) {
    const saved = savedOptionSetups()[Number(current.slice(6))];
    return saved ? saved.setup : {};
  }
  return { option_set: current };
}

const lobby = {
  symbol: "♥",
  defaults: () => ({ options: "none", customOptions: null }),
  load: () => api("GET", "/web/options/utahime"),
  fields: optionChooser,
  setup: optionSetup,
};

/** Utahime's tab of the deck builder page. */
const builder = () => import("./utahime-options.js");

/** The first-game guide (js/tutorial.js): a seeded game, and its steps: the learner's moves with what to
 * do and why, and the other seat's moves ("them"). */
const guide = {
  seed: 1, setup: {}, rules: { first_player: "p1" },
  steps: [
    { me: "wish HA", rule: "UTA-R3",
      say: () => t("First each player wishes for one card of their own deck: it goes to the hand before the other nine are drawn. Wish for the Ace of hearts: an Ace can react when an attack succeeds.") },
    { them: "wish HA" },
    { me: "set SJ", rule: "UTA-R10",
      say: () => t("A J, Q or K must be set face down in an earlier turn before it can attack. Setting is free: set your J of spades now, so that it can attack on a later turn.") },
    { me: "attack S9", rule: "UTA-R18",
      say: () => t("Now one main action: attack. The defender must block with a card that beats yours, or the attack succeeds. A high card is hard to block: attack with the 9 of spades.") },
    { them: "noblock" },
  ],
};

export default { render, prompt, describeEvent, describeAction, reason, detail, refusal, groupLabel, importantEvent, prepare, lobby, builder, guide };

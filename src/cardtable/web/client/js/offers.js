// Offers between the people at a table (a rematch, a draw, a takeback) and the spectator count: what the
// server says of them (offer, offer_closed, the state's watchers) and the room page's parts that show them.
// An offer names seats only; every answer goes over the room's socket and the server decides.
import { h } from "./dom.js";
import { joinList, t, tn } from "./i18n.js";
import { button } from "./ui.js";

/** Take an offer message into the room's state (R.offers, R.offerNote); true if the page must be drawn again. */
export function takeOffer(R, data) {
  if (data.type === "offer") {
    R.offers = { ...(R.offers || {}), [data.kind]: data };
    if (R.offerNote && R.offerNote.kind === data.kind) R.offerNote = null;
    return true;
  }
  if (data.type === "offer_closed") {
    const offers = { ...(R.offers || {}) };
    delete offers[data.kind];
    R.offers = offers;
    // an accepted rematch or draw shows itself (the next game, the drawn end); the rest is said in words
    R.offerNote = data.end === "accepted" && data.kind !== "takeback" ? null : data;
    return true;
  }
  return false;
}

/** Send an offer of ``kind`` for the room's current game (the server answers with an offer or an error). */
export function makeOffer(R, kind) {
  R.error = null;
  R.offerNote = null;
  if (!R.socket.send({ type: "offer", kind, game_no: R.msg ? R.msg.game_no : undefined, ref: "o" + kind })) {
    R.error = { code: "network", message: "" };
  }
}

function answerOffer(R, kind, accept) {
  R.error = null;
  if (!R.socket.send({ type: "answer", kind, accept, ref: "a" + kind })) R.error = { code: "network", message: "" };
}

const OFFERED = {
  rematch: (name) => t("{name} offers a rematch.", { name }),
  draw: (name) => t("{name} offers a draw.", { name }),
  takeback: (name) => t("{name} asks to take back their last move.", { name }),
};
const MINE = {
  rematch: () => t("You offered a rematch."),
  draw: () => t("You offered a draw."),
  takeback: () => t("You asked to take back your last move."),
};
const DECLINED = {
  rematch: (name) => t("{name} declined the rematch.", { name }),
  draw: (name) => t("{name} declined the draw.", { name }),
  takeback: (name) => t("{name} declined the takeback.", { name }),
};
const WITHDRAWN = {
  rematch: () => t("The rematch offer was withdrawn."),
  draw: () => t("The draw offer was withdrawn."),
  takeback: () => t("The takeback request was withdrawn."),
};
const LAPSED = {
  rematch: () => t("The rematch offer lapsed."),
  draw: () => t("The draw offer lapsed: the game moved on."),
  takeback: () => t("The takeback request lapsed: the game moved on."),
};

/** The words of an ended offer (declined, withdrawn, lapsed, a seat left, a takeback accepted). */
function noteWords(note, names) {
  const who = note.seat !== null && note.seat !== undefined ? names[note.seat] || "" : "";
  if (note.end === "declined") return DECLINED[note.kind](who);
  if (note.end === "withdrawn") return WITHDRAWN[note.kind]();
  if (note.end === "left") return t("{name} left the table: the offer is off.", { name: who });
  if (note.end === "accepted") return t("The move was taken back.");
  return LAPSED[note.kind]();
}

/** The pending offers (with Accept / Decline for a seated person the offer waits for) and the last ended one. */
export function offersCard(R, names, redraw) {
  const offers = Object.values(R.offers || {}).filter((o) => R.msg && o.game_no === R.msg.game_no);
  const note = R.offerNote && R.msg && R.offerNote.game_no === R.msg.game_no ? R.offerNote : null;
  if (!offers.length && !note) return null;
  const rows = offers.map((o) => {
    const mine = R.seat !== null && o.by === R.seat;
    const asked = R.seat !== null && (o.waiting || []).includes(R.seat);
    const waiting = (o.waiting || []).filter((s) => s !== R.seat).map((s) => names[s] || "");
    return h("div", { class: ["offer", asked ? "asked" : ""], dataset: { key: "offer-" + o.kind, kind: o.kind } },
      h("strong", null, mine ? MINE[o.kind]() : OFFERED[o.kind](names[o.by] || "")),
      waiting.length ? h("span", { class: "muted small" }, t("Waiting for {names}.", { names: joinList(waiting) })) : null,
      h("span", { class: "offer-actions" },
        asked ? button(t("Accept"), () => { answerOffer(R, o.kind, true); redraw(); },
          { kind: "primary", class: "small", dataset: { key: "accept-" + o.kind } }) : null,
        asked ? button(t("Decline"), () => { answerOffer(R, o.kind, false); redraw(); },
          { class: "small", dataset: { key: "decline-" + o.kind } }) : null,
        mine ? button(t("Withdraw"), () => { answerOffer(R, o.kind, false); redraw(); },
          { kind: "ghost", class: "small", dataset: { key: "withdraw-" + o.kind } }) : null));
  });
  return h("section", { class: "offers", id: "offers", role: "status", "aria-live": "polite" }, rows,
    note ? h("div", { class: "offer offer-note", dataset: { key: "offer-note", end: note.end } },
      h("span", null, noteWords(note, names)),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("Dismiss"),
        on: { click: () => { R.offerNote = null; redraw(); } } }, "×")) : null);
}

/** The room's tools of a seated person in a game under way: offer a draw, ask to take back the last move. */
export function offerTools(R, redraw) {
  const m = R.msg;
  if (R.seat === null || !R.entry || !m || !m.started || m.outcome || !R.room || R.room.seats.length < 2) return null;
  const pending = R.offers || {};
  return [
    pending.draw ? null : button(t("Offer a draw"), () => { makeOffer(R, "draw"); redraw(); },
      { kind: "ghost", class: "small", dataset: { key: "offer-draw" } }),
    pending.takeback || !m.version ? null : button(t("Take back my move"), () => { makeOffer(R, "takeback"); redraw(); },
      { kind: "ghost", class: "small", dataset: { key: "offer-takeback" }, title: t("Ask the others to undo your last move") }),
  ];
}

/** True while a rematch offer of this game is pending (the end screen's Rematch button gives way to it). */
export function rematchPending(R) {
  const o = (R.offers || {}).rematch;
  return Boolean(o && R.msg && o.game_no === R.msg.game_no);
}

/** "N watching": the spectators the server counts (never who they are), or nothing when nobody watches. */
export function watchersBadge(R) {
  const n = R.msg ? R.msg.watchers || 0 : 0;
  if (!n) return null;
  return h("span", { class: "badge badge-watchers", id: "watchers", dataset: { key: "watchers" } },
    tn("{n} watching", "{n} watching", n));
}

/** A refusal of an offer in the page's words (the server's own words stay for the other refusals). */
export function offerRefusal(error) {
  const words = {
    no_offer: () => t("That offer is no longer pending."),
    offer_pending: () => t("An offer of that kind already waits for answers."),
    cannot_undo: () => t("There is no move of yours to take back."),
  };
  return words[error.code] ? { ...error, message: words[error.code]() } : error;
}

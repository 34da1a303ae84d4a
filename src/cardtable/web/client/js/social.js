// Social play in a room: the chat panel (plain text only, mute, report, the owner's switch for spectator
// chat), the seats' clocks counted down from the server's times, and the resign button with its confirm step.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./api.js";
import { button, playerLink } from "./ui.js";
import { current } from "./session.js";

export const CHAT_MAX = 500;

const MUTES_KEY = "cardtable.mutes";

/** The players this browser muted without an account (kept across reloads): account id to name. */
export function localMutes() {
  try {
    const kept = JSON.parse(localStorage.getItem(MUTES_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

function keepLocalMutes(mutes) {
  try { localStorage.setItem(MUTES_KEY, JSON.stringify(mutes)); } catch { /* private mode: for this page only */ }
}

/** Every player whose messages this viewer does not see: this browser's mutes, and the account's mutes and blocks. */
export async function hiddenSenders() {
  const hidden = new Set(Object.keys(localMutes()));
  if (current()) {
    const lists = await Promise.all(["/api/account/mutes", "/api/account/blocks"].map((path) =>
      api("GET", path).catch(() => ({ accounts: [] }))));
    for (const list of lists) for (const a of list.accounts || []) hidden.add(a.account);
  }
  return hidden;
}

/** The chat of the open room: the messages received, what is being typed, the last refusal. */
const C = { messages: [], text: "", error: null, muted: new Set(Object.keys(localMutes())), reported: new Set(), open: true };

/** A refusal of a chat message, in words (the server's codes of docs/server.md, "Chat at the table"). */
export function chatRefusal(code) {
  const words = {
    rate_limited: t("Too many messages: wait a few seconds before sending another."),
    chat_off: t("The room's owner has switched spectator chat off."),
    bad_chat: t("A message cannot be only spaces or hold tabs or line breaks."),
    bad_message: t("A message is 1 to 500 characters."),
    blocked: t("You cannot chat with a player you blocked or who blocked you."),
    not_owner: t("Only the room's owner can switch spectator chat."),
    no_such_message: t("That message is no longer in this room."),
  };
  return words[code] || null;
}

/** Take a chat or chat_log message from the room's socket; true when something new arrived. */
export function takeChat(data) {
  const incoming = data.type === "chat_log" ? data.messages || [] : [data];
  const known = new Set(C.messages.map((m) => m.id));
  let added = false;
  for (const m of incoming) {
    if (known.has(m.id)) continue;
    C.messages.push(m);
    added = true;
  }
  C.messages.sort((a, b) => a.id - b.id);
  if (C.messages.length > 200) C.messages.splice(0, C.messages.length - 200);
  return added;
}

/** A refused chat message (from the socket's error with the chat's ref); true when it was the chat's. */
export function chatError(error, refs) {
  if (error.ref === null || error.ref === undefined || !refs.has(error.ref)) return false;
  refs.delete(error.ref);
  C.error = { code: error.code, message: chatRefusal(error.code) || error.message };
  return true;
}

function mayChat(R) {
  return R.seat !== null || !R.room || R.room.spectator_chat !== false;
}

/** Whether this browser owns the room: the account that made it, or (a guest's room) the first seat's holder. */
function isOwner(R) {
  const me = current();
  if (!R.room) return false;
  if (R.room.owner) return Boolean(me && me.account.id === R.room.owner);
  return Boolean(R.entry && R.seat === 0);
}

async function switchSpectators(R, on, redraw) {
  try {
    R.room = await api("POST", `/api/rooms/${R.roomId}/chat/settings`, { spectators: on }, R.entry ? R.entry.token : undefined);
    C.error = null;
  } catch (e) {
    C.error = { code: e.code, message: chatRefusal(e.code) || e.message };
  }
  redraw();
}

async function mute(message, redraw) {
  const account = message.account;
  C.muted.add(account);
  if (current()) {
    try { await api("PUT", `/api/account/mutes/${encodeURIComponent(account)}`); } catch (e) { C.error = e; }
  } else {
    // a guest's mutes stay in this browser (an account's stay with the account)
    keepLocalMutes({ ...localMutes(), [account]: message.name || message.label || "" });
  }
  redraw();
}

function unmuteHere(redraw) {
  const kept = localMutes();
  for (const account of Object.keys(kept)) C.muted.delete(account);
  keepLocalMutes({});
  redraw();
}

async function block(message, redraw) {
  if (!window.confirm(t("Block {name}? No chat, invites or pairing between you.", { name: message.name || message.label }))) return;
  C.muted.add(message.account);
  try { await api("PUT", `/api/account/blocks/${encodeURIComponent(message.account)}`); } catch (e) { C.error = e; }
  redraw();
}

async function report(R, message, redraw) {
  const q = R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "";
  try {
    await api("POST", `/api/rooms/${R.roomId}/chat/${message.id}/report${q}`, {}, R.entry ? R.entry.token : undefined);
    C.reported.add(message.id);
    C.error = null;
  } catch (e) {
    C.error = { code: e.code, message: chatRefusal(e.code) || e.message };
  }
  redraw();
}

function send(R, redraw) {
  const text = C.text.trim();
  if (!text || !R.socket) return;
  if (text.length > CHAT_MAX) {
    C.error = { code: "bad_message", message: chatRefusal("bad_message") };
    redraw();
    return;
  }
  R.socket.chat(text);
  C.text = "";
  C.error = null;
  redraw();
}

/** The chat panel of the room: every message as text, the box to write one, mute and report, the owner's switch. */
export function chatCard(R, redraw) {
  const me = current();
  const myAccount = me ? me.account.id : null;
  const shown = C.messages.filter((m) => !(m.account && C.muted.has(m.account)));
  const rows = shown.map((m) => {
    const mine = (m.account && m.account === myAccount) || (m.seat !== null && m.seat === R.seat && !m.account);
    return h("li", { class: ["chat-msg", mine ? "mine" : "", m.seat === null ? "from-spectator" : ""], dataset: { id: m.id } },
      h("span", { class: "chat-who" }, m.account ? playerLink(m.account, m.label || m.name) : (m.label || m.name || "")),
      h("span", { class: "chat-text" }, m.text),
      mine ? null : h("span", { class: "chat-tools" },
        m.account ? h("button", { type: "button", class: "link small", dataset: { key: "mute-" + m.id },
          title: t("Hide this player's messages"), on: { click: () => mute(m, redraw) } }, t("Mute")) : null,
        m.account && me ? h("button", { type: "button", class: "link small", dataset: { key: "block-" + m.id },
          on: { click: () => block(m, redraw) } }, t("Block")) : null,
        C.reported.has(m.id) ? h("span", { class: "muted small" }, t("reported"))
          : h("button", { type: "button", class: "link small", dataset: { key: "report-" + m.id },
            on: { click: () => report(R, m, redraw) } }, t("Report"))));
  });
  const hiddenHere = Object.keys(localMutes()).length;
  const allowed = mayChat(R);
  const input = h("input", { class: "input", id: "chat-input", maxlength: CHAT_MAX, value: C.text, disabled: !allowed,
    placeholder: allowed ? t("Say something…") : t("Spectator chat is off"), "aria-label": t("Chat message"),
    dataset: { key: "chat-input" }, autocomplete: "off" });
  input.addEventListener("input", () => { C.text = input.value; });
  const form = h("form", { class: "chat-form row", id: "chat-form", on: { submit: (e) => { e.preventDefault(); send(R, redraw); } } },
    input, h("button", { type: "submit", class: "btn small", disabled: !allowed, dataset: { key: "chat-send" } }, t("Send")));
  let owner = null;
  if (isOwner(R)) {
    const box = h("input", { type: "checkbox", id: "spectator-chat", checked: R.room.spectator_chat !== false,
      dataset: { key: "spectator-chat" } });
    box.addEventListener("change", () => switchSpectators(R, box.checked, redraw));
    owner = h("label", { class: "check small" }, box, t("Spectators may chat"));
  }
  return h("section", { class: "card side-card chat-card", id: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("Chat")),
    rows.length ? h("ul", { class: "chat-log", id: "chat-log", dataset: { scroll: "chat" }, "aria-live": "polite" }, rows)
      : h("p", { class: "muted small", id: "chat-empty" }, t("No messages yet.")),
    hiddenHere ? h("p", { class: "muted small", id: "chat-muted" },
      tn("{n} player muted in this browser.", "{n} players muted in this browser.", hiddenHere), " ",
      h("button", { type: "button", class: "link small", dataset: { key: "unmute-here" }, on: { click: () => unmuteHere(redraw) } },
        t("Show their messages again"))) : null,
    !allowed ? h("p", { class: "muted small", id: "chat-off" }, t("The room's owner has switched spectator chat off.")) : null,
    C.error ? h("p", { class: "alert small", id: "chat-error", role: "alert", dataset: { code: C.error.code } }, C.error.message) : null,
    form,
    owner);
}

// -- clocks ----------------------------------------------------------------------------------------------
/** Remember a state's clock with the moment it arrived (the countdown runs from there, never from the device's idea of the time). */
export function takeClock(R, msg) {
  R.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
}

function pad(n) { return String(n).padStart(2, "0"); }

/** Milliseconds as the clock shows them: h:mm:ss or m:ss; days and hours for a turn-based deadline. */
export function clockText(ms, turn) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (turn && s >= 86400) return t("{d} d {h} h", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (turn && s >= 3600) return t("{h} h {m} min", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** A seat's time left now (ms), or null when the seat has no clock shown. */
function left(R, seat) {
  const c = R.clock;
  if (!c) return null;
  const o = R.msg && R.msg.outcome;
  if (o && o.end === "timeout" && o.loser === seat) return 0;  // the server's last times predate the flag's fall
  const running = c.seat === seat && !(R.msg && R.msg.outcome);
  const elapsed = running ? performance.now() - c.at : 0;
  if (c.kind === "realtime") {
    const base = (c.remaining_ms || [])[seat];
    return base === undefined ? null : base - elapsed;
  }
  if (!running || !c.deadline_at || !c.now) return null;
  return Date.parse(c.deadline_at) - Date.parse(c.now) - elapsed;
}

/** The clocks row: each seat's time (real-time) or the move's deadline (turn-based), ticking. */
export function clocksBar(R, names) {
  const c = R.clock;
  if (!c || !R.room) return null;
  const chips = R.room.seats.map((s) => {
    const ms = left(R, s.seat);
    if (ms === null && c.kind !== "realtime") return null;
    return h("span", { class: ["clock", c.seat === s.seat ? "running" : "", ms !== null && ms < 30000 ? "low" : "",
      R.seat === s.seat ? "mine" : ""], dataset: { seat: s.seat } },
      h("span", { class: "clock-name" }, names[s.seat] || ""),
      h("span", { class: "clock-time", dataset: { clockSeat: s.seat } }, ms === null ? "–" : clockText(ms, c.kind === "turn")));
  }).filter(Boolean);
  const label = c.kind === "turn" ? t("Time for this move") : t("Clocks");
  return h("div", { class: ["clocks", "clock-" + c.kind], id: "clocks", role: "timer", "aria-label": label },
    h("span", { class: "clocks-label muted small" }, label), chips);
}

let ticker = null;

/** Update the shown clocks every quarter second (text only: the page is not drawn again). */
export function startTicking(R) {
  if (ticker) return;
  ticker = setInterval(() => {
    if (!R.clock || !R.container) return;
    for (const node of R.container.querySelectorAll("[data-clock-seat]")) {
      const ms = left(R, Number(node.dataset.clockSeat));
      if (ms === null) continue;
      const text = clockText(ms, R.clock.kind === "turn");
      if (node.textContent !== text) node.textContent = text;
      node.parentElement.classList.toggle("low", ms < 30000);
    }
  }, 250);
}

// -- resigning -------------------------------------------------------------------------------------------
/** The resign button of a seated player in a game under way, with its confirm step. */
export function resignControl(R, redraw) {
  const m = R.msg;
  if (R.seat === null || !R.entry || !m || !m.started || m.outcome || R.room.seats.length < 2) return null;
  if (!R.confirmResign) {
    return button(t("Resign"), () => { R.confirmResign = true; redraw(); }, { kind: "ghost", class: "small", dataset: { key: "resign" } });
  }
  return h("span", { class: "resign-confirm", id: "resign-confirm", role: "group" },
    h("span", { class: "small" }, t("Resign this game?")), " ",
    button(t("Yes, resign"), () => { R.confirmResign = false; R.socket.resign(m.game_no); redraw(); },
      { kind: "danger", class: "small", dataset: { key: "resign-yes" } }), " ",
    button(t("Keep playing"), () => { R.confirmResign = false; redraw(); }, { kind: "ghost", class: "small", dataset: { key: "resign-no" } }));
}

/** How the game ended when nobody played it out: who resigned or ran out of time, or null. */
export function endHow(outcome, names, seat) {
  if (!outcome || outcome.loser === undefined || outcome.loser === null) return null;
  const who = names[outcome.loser] || "";
  let text = null;
  if (outcome.end === "resign") text = outcome.loser === seat ? t("You resigned.") : t("{name} resigned.", { name: who });
  else if (outcome.end === "timeout") text = outcome.loser === seat ? t("You ran out of time.") : t("{name} ran out of time.", { name: who });
  return text ? h("p", { class: "end-how", id: "end-how", dataset: { end: outcome.end } }, text) : null;
}

// -- the lobby's clock choice ----------------------------------------------------------------------------
const MOVE_TIMES = [3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400];

function moveTimeWords(s) {
  return s < 86400 ? t("{h} h per move", { h: s / 3600 }) : t("{d} d per move", { d: s / 86400 });
}

/** The new-room form's clock: none, real-time (minutes each plus seconds a move) or turn-based (hours or days a move). */
export function clockField(f, save, redraw) {
  const c = f.clock || (f.clock = { kind: "none", base_min: 10, increment_s: 5, move_s: 86400 });
  const kind = h("select", { class: "input", id: "clock-kind", dataset: { key: "clock-kind" } },
    h("option", { value: "none", selected: c.kind === "none" }, t("No clock")),
    h("option", { value: "realtime", selected: c.kind === "realtime" }, t("Real-time: minutes each, plus seconds a move")),
    h("option", { value: "turn", selected: c.kind === "turn" }, t("Turn-based: hours or days per move")));
  kind.addEventListener("change", () => { c.kind = kind.value; save(); redraw(); });
  let more = null;
  if (c.kind === "realtime") {
    const base = h("input", { class: "input narrow-input", type: "number", min: 1, max: 180, value: c.base_min, id: "clock-base",
      "aria-label": t("Minutes each"), dataset: { key: "clock-base" } });
    base.addEventListener("input", () => { c.base_min = Math.max(1, Number(base.value) || 1); save(); });
    const inc = h("input", { class: "input narrow-input", type: "number", min: 0, max: 180, value: c.increment_s, id: "clock-increment",
      "aria-label": t("Seconds added per move"), dataset: { key: "clock-increment" } });
    inc.addEventListener("input", () => { c.increment_s = Math.max(0, Number(inc.value) || 0); save(); });
    more = h("span", { class: "row clock-times" }, base, t("min"), " + ", inc, t("s a move"));
  } else if (c.kind === "turn") {
    const move = h("select", { class: "input", id: "clock-move", dataset: { key: "clock-move" } },
      MOVE_TIMES.map((s) => h("option", { value: s, selected: Number(c.move_s) === s }, moveTimeWords(s))));
    move.addEventListener("change", () => { c.move_s = Number(move.value); save(); });
    more = move;
  }
  const spectators = h("input", { type: "checkbox", checked: f.spectator_chat !== false, dataset: { key: "spectator-chat-new" } });
  spectators.addEventListener("change", () => { f.spectator_chat = spectators.checked; save(); });
  return h("div", { class: "clock-box" },
    h("label", { class: "field-label", for: "clock-kind" }, t("Clock")), kind, more,
    h("span", { class: "field-help" }, t("When a person's time runs out, the room's leave policy applies; in a rated game they lose.")),
    h("label", { class: "check" }, spectators, t("Spectators may chat")));
}

/** What the new-room request says about the clock and spectator chat. */
export function clockBody(f) {
  const c = f.clock || { kind: "none" };
  const out = { spectator_chat: f.spectator_chat !== false };
  if (c.kind === "realtime") out.clock = { kind: "realtime", base_s: Math.round(c.base_min * 60), increment_s: Math.round(c.increment_s) };
  else if (c.kind === "turn") out.clock = { kind: "turn", move_s: Number(c.move_s) };
  return out;
}

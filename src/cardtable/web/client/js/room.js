// A room: play a seat (its token from this browser's localStorage) or watch. Everything on the page is
// drawn from the last state message (the seat's view, its log, its legal actions) and the room's
// metadata; a move is a click that sends one action string, and the server answers for it.
import { copyText, download, h, render, scrollToEnd } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { api, forgetSeat, inviteOf, keepInvite, keepName, keepSeat, myName, seatOf } from "./api.js";
import { RoomSocket } from "./socket.js";
import { button, errorBox, gameTitle, openRules, playerLink, seatChip, seatNames } from "./ui.js";
import { current } from "./session.js";
import { loadGame, choicesPanel, logPanel } from "./table.js";
import { chatCard, chatError, clocksBar, endHow, resignControl, startTicking, takeChat, takeClock } from "./social.js";
import { makeOffer, offerRefusal, offersCard, offerTools, rematchPending, takeOffer, watchersBadge } from "./offers.js";

const R = {
  container: null, roomId: null, invite: null, entry: null, socket: null, room: null, msg: null, events: [], lines: [],
  status: "connecting", error: null, notice: null, selected: null, hint: null, hintBusy: false, history: [],
  cards: null, module: null, seat: null, joinName: "", stopped: null, endSeen: null, sending: false, drawn: false,
  bot: null, offers: {}, offerNote: null,
};

function isMine() {
  const m = R.msg;
  return Boolean(m && R.seat !== null && m.started && m.to_move === R.seat && !m.outcome && m.legal.length);
}

function botToMove() {
  const m = R.msg;
  if (!m || !R.room || m.to_move === null || m.to_move === undefined || m.outcome) return null;
  const seat = R.room.seats[m.to_move];
  return seat && seat.status === "bot" ? seat : null;
}

async function start(container, params, query) {
  R.container = container;
  R.roomId = params[0];
  const invite = query.get("invite");
  if (invite) keepInvite(R.roomId, invite);
  R.invite = invite || inviteOf(R.roomId);
  R.entry = seatOf(R.roomId);
  R.joinName = myName() || "";
  draw();
  try {
    R.cards = await api("GET", "/web/cards");
  } catch (e) {
    R.error = e;
  }
  connect();
}

function connect() {
  R.socket = new RoomSocket(R.roomId, {
    token: R.entry ? R.entry.token : null,
    invite: R.invite,
    onWelcome: async (welcome) => {
      R.seat = welcome.seat;
      R.room = welcome.room;
      R.offers = {};  // the server tells a new socket of every pending offer
      if (!R.module) {
        const module = await loadGame(R.room.game);
        R.extra = module.prepare ? await module.prepare(R.room.setup, R.room.rules) : null;
        R.module = module;
      }
      if (R.entry && welcome.seat !== null) keepSeat(R.roomId, { ...R.entry, seat: welcome.seat, game: R.room.game, title: R.room.title });
      loadHistory();
      draw();
    },
    onState: (msg, events, lines) => {
      const moved = !R.msg || msg.version !== R.msg.version || msg.game_no !== R.msg.game_no;
      // a takeback: the game went back; a move chosen before it is no move of this game any more
      if (R.msg && msg.game_no === R.msg.game_no && msg.version < R.msg.version) R.socket.pending.clear();
      if (R.msg && R.msg.outcome && msg.game_no !== R.msg.game_no) {
        // a rematch began: the last game's result stays on screen until it is dismissed
        R.lastGame = { game_no: R.msg.game_no, outcome: R.msg.outcome, names: seatNames(R.msg.names) };
        loadHistory();
      }
      const previous = R.msg && R.msg.game_no === msg.game_no ? R.msg.view : null;
      R.msg = msg;
      takeClock(R, msg);
      startTicking(R);
      R.events = events;
      R.lines = lines;
      if (moved) {
        R.selected = null;
        R.hint = null;
        R.previous = previous;  // what changed since the last message is drawn moving (the game page compares)
        R.bot = null;
      }
      if (msg.outcome && R.endSeen !== msg.game_no) {
        R.endSeen = msg.game_no;
        loadHistory();
        loadRatings(msg.game_no);
      }
      R.sending = false;
      draw();
      R.previous = null;  // drawn moving once; a redraw (a click, a hint) does not replay it
    },
    onRoom: (room) => {
      R.room = room;
      loadHistory();
      draw();
    },
    onBot: (bot) => {
      R.bot = bot;
      draw();
    },
    onAccepted: () => {
      R.error = null;
    },
    onChat: (data) => {
      if (takeChat(data)) draw();
    },
    onOther: (data) => {
      if (takeOffer(R, data)) draw();
    },
    onError: (error) => {
      if (chatError(error, R.socket.chatRefs)) {
        draw();
        return;
      }
      R.error = offerRefusal(refusal(error));
      R.sending = false;
      draw();
    },
    onStatus: (status) => {
      const was = R.status;
      R.status = status;
      if (R.sending || (was === "open") !== (status === "open")) draw();
      else drawStatus();
    },
    onSeatLost: (code) => {
      forgetSeat(R.roomId);
      R.entry = null;
      R.seat = null;
      R.notice = code === "revoked" ? t("You left this seat; you are watching now.")
        : t("This browser no longer holds a seat here; you are watching now.");
      draw();
    },
    onStop: (code) => {
      R.stopped = code;
      draw();
    },
  });
  R.socket.connect();
}

/** What the bot to move is doing: thinking, waiting behind other rooms' bot moves, or trying again. */
function botWords(who) {
  const b = R.bot;
  if (b && R.msg && b.seat === R.msg.to_move) {
    if (b.phase === "queued" && b.ahead > 0) return t("{name} is thinking ({count} moves queued)…", { name: who, count: b.ahead });
    if (b.phase === "retrying") return t("{name} is thinking (trying again)…", { name: who });
  }
  return t("{name} is thinking…", { name: who });
}

/** A refused move in the page's words: the move named as the page names it, the engine's reason on English pages. */
function refusal(error) {
  if (!["illegal_action", "invalid_action"].includes(error.code) || !R.lastAction || !R.module || !R.msg) return error;
  let move = R.lastAction;
  try { move = R.module.describeAction(R.lastAction, context()) || R.lastAction; } catch { /* notation as typed */ }
  const why = R.module.refusal ? R.module.refusal(error, R.lastAction, context()) : null;
  const words = t("Refused: {move}.", { move });
  const message = why ? `${words} ${why}` : (language() === "en" ? `${words} ${error.message}` : words);
  return { ...error, message };
}

async function loadHistory() {
  try {
    const token = R.entry ? R.entry.token : undefined;
    const q = R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "";
    const out = await api("GET", `/api/rooms/${R.roomId}/history${q}`, undefined, token);
    R.history = out.games;
    draw();
  } catch { /* the history is a convenience */ }
}

/** A finished game's rating changes (a rated room's), read again a few times while the server applies them. */
async function loadRatings(gameNo, tries = 0) {
  if (!R.room || !R.room.rated) return;
  try {
    const q = R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "";
    const out = await api("GET", `/api/rooms/${R.roomId}/games/${gameNo}/ratings${q}`, undefined, R.entry ? R.entry.token : undefined);
    // the server applies them with the game's last move; a moment later is asked again, just in case
    const again = !(out.changes || []).length && tries < 3;
    R.ratings = { game_no: gameNo, final: !again, ...out };
    draw();
    if (again) setTimeout(() => loadRatings(gameNo, tries + 1), 700);
  } catch {
    if (tries < 3) setTimeout(() => loadRatings(gameNo, tries + 1), 700);
  }
}

/** The end screen's rating changes: each player's rating before and after, the change, and "provisional". */
function ratingsLine(ctx) {
  const r = R.ratings;
  if (!R.room.rated || !R.msg || !r || r.game_no !== R.msg.game_no) return null;
  const changes = r.changes || [];
  if (!changes.length) {
    return h("p", { class: "muted small rating-changes", id: "rating-changes" }, !r.final ? t("The ratings are being updated…")
      : t("This game is not rated: every seat must be held by one signed-in player from the first move to the last."));
  }
  return h("div", { class: "rating-changes", id: "rating-changes" },
    h("h3", null, t("Ratings")),
    h("ul", { class: "rating-change-list" }, changes.map((c) => {
      const delta = Number(c.delta);
      return h("li", { class: ["rating-change", c.seat === R.seat ? "mine" : ""], dataset: { seat: c.seat } },
        seatChip(null, c.seat), playerLink(c.account, c.name),
        h("span", { class: "rating-before" }, String(c.before)), h("span", { "aria-hidden": "true" }, " → "),
        h("strong", { class: "rating-after" }, String(c.after)),
        h("span", { class: ["rating-delta", delta > 0 ? "up" : delta < 0 ? "down" : ""] },
          delta > 0 ? `+${delta}` : delta < 0 ? `−${Math.abs(delta)}` : "±0"),
        c.provisional ? h("span", { class: "tag tag-provisional", title: t("Provisional until 10 rated games") }, t("provisional")) : null);
    })));
}

function play(action) {
  if (!R.socket) return;
  R.error = null;
  R.hint = null;
  R.selected = null;
  R.sending = true;
  R.lastAction = action;
  R.socket.act(action);
  draw();
}

async function join(seat) {
  const account = current();
  if (R.room && R.room.rated && !account) {
    R.error = { code: "needs_account", message: "" };
    draw();
    return;
  }
  // a signed-in player sits under their account's name (the server puts it on the seat)
  const name = account ? account.account.name : R.joinName.trim();
  if (!name) {
    R.error = { code: "bad_name", message: t("Enter your name to take a seat.") };
    draw();
    return;
  }
  try {
    const joined = await api("POST", `/api/rooms/${R.roomId}/join`, { name, seat, invite: R.invite || undefined });
    if (!account) keepName(name);
    R.entry = { token: joined.token, seat: joined.seat, name, game: joined.room.game, title: joined.room.title };
    keepSeat(R.roomId, R.entry);
    R.room = joined.room;
    R.error = null;
    R.notice = null;
    R.socket.reseat(joined.token);
  } catch (e) {
    R.error = e;
  }
  draw();
}

async function leave() {
  if (!R.entry) return;
  if (!window.confirm(t("Leave your seat? You give it up, and this browser cannot come back to it."))) return;
  try {
    await api("POST", `/api/rooms/${R.roomId}/leave`, {}, R.entry.token);
  } catch (e) {
    if (e.code !== "bad_token") {
      R.error = e;
      draw();
      return;
    }
  }
  forgetSeat(R.roomId);
  R.entry = null;
  R.seat = null;
  R.socket.reseat(null);
  draw();
}

/** Offer the others a rematch (it starts once every seated person accepted; bots accept at once). */
function rematch() {
  makeOffer(R, "rematch");
  draw();
}

/** An end's reason in the page's words: an agreed draw, or the game page's own. */
function endReason(o, ctx) {
  if (o.end === "draw") return t("Drawn by agreement.");
  return R.module && R.module.reason ? R.module.reason(o, ctx) : o.reason;
}

async function downloadRecord(gameNo) {
  try {
    const q = R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "";
    const record = await api("GET", `/api/rooms/${R.roomId}/records/${gameNo}${q}`, undefined, R.entry ? R.entry.token : undefined);
    download(`cardtable-${R.room.game}-${R.roomId}-${gameNo}.json`, JSON.stringify(record, null, 2) + "\n");
  } catch (e) {
    R.error = e;
    draw();
  }
}

async function askHint() {
  if (!R.entry || R.hintBusy) return;
  R.hintBusy = true;
  draw();
  try {
    R.hint = await api("POST", `/web/rooms/${R.roomId}/hint`, {}, R.entry.token);
    R.error = null;
  } catch (e) {
    R.error = e;
  }
  R.hintBusy = false;
  draw();
}

function replayLink(gameNo) {
  return `/replay/${R.roomId}/${gameNo}` + (R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "");
}

// -- drawing -------------------------------------------------------------------------------------------
/** On a narrow screen, bring the squares or slots a chosen card may go to into view (they may be far above the hand). */
function showTargets() {
  const lit = R.container.querySelector(".board-area .lit");
  if (!lit) return;
  const box = lit.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  (lit.closest(".zeta-board, .scope") || lit).scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
}

export function context() {
  const m = R.msg;
  return {
    game: R.room.game, view: m.view, legal: isMine() ? m.legal : [], names: seatNames(m.names), seat: R.seat, toMove: m.to_move,
    rules: R.room.rules, setup: R.room.setup, cards: R.cards, events: R.events, outcome: m.outcome,
    seats: R.room.seats, started: m.started, selected: R.selected, hint: R.hint && R.hint.version === m.version ? R.hint.best : null,
    interactive: isMine() && !R.sending, replay: false, extra: R.extra, previous: R.previous || null,
    select: (key) => { R.selected = R.selected === key ? null : key; draw(); if (R.selected) showTargets(); },
    act: (action) => play(action),
    notify: (text) => { R.error = { code: "local", message: text }; draw(); },
  };
}

function statusLine() {
  const words = { open: t("connected"), connecting: t("connecting…"), reconnecting: t("reconnecting…"), stopped: t("offline") };
  return h("span", { class: ["conn", "conn-" + R.status], role: "status", id: "conn" },
    h("span", { class: "conn-dot", "aria-hidden": "true" }), words[R.status] || R.status);
}

function drawStatus() {
  const node = R.container.querySelector("#conn");
  if (node) node.replaceWith(statusLine());
}

function banner(ctx) {
  const m = R.msg;
  if (!m || !R.room) return null;
  const openSeats = R.room.seats.filter((s) => s.status === "open").length;
  if (m.outcome) return null;
  if (!m.started) {
    return h("div", { class: "banner waiting", id: "turn" },
      h("strong", null, t("Waiting for players")), " ",
      tn("{n} seat is still open.", "{n} seats are still open.", openSeats));
  }
  if (R.sending && R.status !== "open" && R.lastAction) {
    return h("div", { class: "banner queued", id: "turn", role: "status" },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      h("strong", null, t("Move queued, waiting for the server")), " · ",
      R.module ? R.module.describeAction(R.lastAction, ctx) : R.lastAction);
  }
  const prompt = R.module ? R.module.prompt(ctx) : null;
  const rule = prompt && prompt.rule ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules(R.room.game, prompt.rule) } }, prompt.rule) : null;
  if (isMine()) {
    return h("div", { class: "banner mine", id: "turn", role: "status" },
      h("strong", null, t("Your turn")), prompt ? [" · ", prompt.text, " ", rule] : null,
      R.entry ? button(R.hintBusy ? t("Thinking…") : t("Hint"), askHint, { kind: "ghost", class: "small hint-btn",
        disabled: R.hintBusy, dataset: { key: "hint" } }) : null);
  }
  const bot = botToMove();
  const who = m.to_move !== null && m.to_move !== undefined ? ctx.names[m.to_move] : "";
  if (bot) {
    return h("div", { class: "banner bot", id: "turn", role: "status" },
      h("span", { class: "spinner", "aria-hidden": "true" }), h("strong", null, botWords(who)),
      prompt ? [" · ", prompt.text] : null);
  }
  return h("div", { class: "banner other", id: "turn", role: "status" },
    h("strong", null, R.seat === null ? t("{name} to move", { name: who }) : t("Waiting for {name}", { name: who })),
    prompt ? [" · ", prompt.text, " ", rule] : null);
}

/** The end's detail line: the game page's own words (translated); the engine's English only on English pages. */
function endDetailLine(o, ctx) {
  const text = R.module && R.module.detail ? R.module.detail(o, ctx) : (language() === "en" ? o.detail : null);
  return text ? h("p", { class: "muted small end-detail" }, text) : null;
}

function endCard(ctx) {
  const m = R.msg;
  if (!m || !m.outcome) return null;
  const o = m.outcome;
  const winners = o.winners || [];
  let head;
  if (R.room.seats.length === 1) head = t("Solo game over: score {score}", { score: (o.scores || [0])[0] });
  else if (!winners.length) head = t("Draw");
  else if (R.seat !== null && winners.includes(R.seat)) head = winners.length > 1 ? t("You share the win") : t("You win!");
  else head = tn("{names} wins", "{names} win", winners.length, { names: winners.map((w) => ctx.names[w]).join(" & ") });
  const reason = endReason(o, ctx);
  const scores = o.scores && R.room.seats.length > 1 ? h("p", { class: "scores" }, o.scores.map((s, p) =>
    h("span", { class: "score" }, seatChip(ctx.names, p), " ", String(s)))) : null;
  const current = R.history.find((g) => g.game_no === m.game_no);
  return h("section", { class: ["end-card", R.seat !== null && winners.includes(R.seat) ? "won" : ""], id: "end", "aria-live": "polite" },
    h("h2", null, head),
    h("p", { class: "reason" }, reason, " ", o.rule ? h("button", { type: "button", class: "rule-link",
      on: { click: () => openRules(R.room.game, o.rule) } }, o.rule) : null),
    endHow(o, ctx.names, R.seat),
    R.module && R.module.endDetail ? R.module.endDetail(ctx) : null,
    scores,
    endDetailLine(o, ctx),
    runningScoreLine(ctx.names),
    ratingsLine(ctx),
    h("div", { class: "actions" },
      R.entry && !rematchPending(R) ? button(t("Rematch"), rematch, { kind: "primary", dataset: { key: "rematch" } }) : null,
      button(t("Download the record"), () => downloadRecord(m.game_no), { dataset: { key: "download" } }),
      current && current.record_url ? h("a", { class: "btn", href: replayLink(m.game_no) }, t("Watch the replay")) : null,
      h("a", { class: "btn btn-ghost", href: "/" }, t("Back to the lobby"))));
}

/** Each seat's wins over the room's finished games (a draw counts half to each), or null before the first. */
function runningScore() {
  const done = R.history.filter((g) => g.outcome);
  if (!done.length || !R.room) return null;
  const points = R.room.seats.map(() => 0);
  for (const g of done) {
    const winners = g.outcome.winners || [];
    if (winners.length) for (const w of winners) points[w] += 1 / winners.length;
    else points.forEach((_, p) => { points[p] += 1 / points.length; });
  }
  return { games: done.length, points };
}

function runningScoreLine(names) {
  const score = runningScore();
  if (!score || score.games < 1 || R.room.seats.length < 2) return null;
  return h("p", { class: "running-score", dataset: { key: "running-score" } },
    tn("After {n} game:", "After {n} games:", score.games), " ",
    score.points.map((v, p) => h("span", { class: "score" }, seatChip(names, p), " ", String(Math.round(v * 10) / 10))));
}

/** The last game's result, kept on screen after a rematch begins (until dismissed). */
function lastGameCard(ctx) {
  const last = R.lastGame;
  if (!last || (R.msg && R.msg.outcome)) return null;
  const o = last.outcome;
  const winners = o.winners || [];
  // a solo game is a score attack: nobody "won" it, it scored
  const head = last.names.length === 1 ? t("score {score}", { score: (o.scores || [0])[0] })
    : !winners.length ? t("Draw") : R.seat !== null && winners.includes(R.seat) ? t("You won")
    : t("{names} won", { names: winners.map((w) => last.names[w]).join(" & ") });
  return h("section", { class: "last-game", dataset: { key: "last-game" }, "aria-live": "polite" },
    h("strong", null, t("Game {n}", { n: last.game_no }), ": ", head), " ",
    h("span", { class: "muted" }, endReason(o, ctx)),
    runningScoreLine(ctx.names),
    h("button", { type: "button", class: "icon-btn", "aria-label": t("Dismiss"), on: { click: () => { R.lastGame = null; draw(); } } }, "×"));
}

/** Pass and play: the seat to move next is another player on this device (their token is held here). */
function handoverSeat() {
  const m = R.msg;
  const here = R.entry && R.entry.hotseat;
  if (!here || !m || !m.started || m.outcome || m.to_move === null || m.to_move === undefined) return null;
  if (m.to_move === R.seat) return null;
  return here.find((x) => x.seat === m.to_move) || null;
}

function takeOver(next) {
  R.entry = { ...R.entry, token: next.token, seat: next.seat, name: next.name };
  keepSeat(R.roomId, R.entry);
  R.seat = null;
  R.msg = null;
  R.selected = null;
  R.hint = null;
  R.socket.reseat(next.token);
  draw();
}

/** The screen between two players of one device: the hands stay hidden until the next player is ready. */
function handoverCard(next) {
  const names = seatNames(R.msg.names);
  return h("section", { class: "handover card", id: "handover", role: "dialog", "aria-labelledby": "handover-title" },
    h("h2", { id: "handover-title" }, t("Hand the device to {name}", { name: names[next.seat] })),
    h("p", null, t("Every hand stays hidden until they are ready.")),
    button(t("I am {name}: show my hand", { name: names[next.seat] }), () => takeOver(next), { kind: "primary", dataset: { key: "handover" } }));
}

function seatsCard() {
  const room = R.room;
  const m = R.msg;
  const names = seatNames(m ? m.names : room.seats.map((s) => s.label));
  const name = h("input", { class: "input", maxlength: 24, value: R.joinName, placeholder: t("Your name"),
    "aria-label": t("Your name"), dataset: { key: "join-name" } });
  name.addEventListener("input", () => { R.joinName = name.value; });
  const anyOpen = room.seats.some((s) => s.status === "open");
  const account = current();
  const guestInRated = room.rated && !account;
  const rows = room.seats.map((s) => {
    const you = R.seat === s.seat;
    const thinking = botToMove() && m && m.to_move === s.seat;
    let state;
    if (s.status === "open") {
      state = R.seat === null && R.entry === null && !guestInRated
        ? button(t("Take this seat"), () => join(s.seat), { kind: "primary", class: "small", dataset: { key: "join-" + s.seat } })
        : h("span", { class: "muted" }, t("open"));
    } else if (s.status === "bot") state = h("span", { class: "muted" }, thinking ? t("thinking…") : t("bot"));
    else state = h("span", { class: "muted" }, you ? t("you") : t("person"));
    return h("li", { class: ["seat-row", you ? "you" : "", m && m.to_move === s.seat && !m.outcome ? "to-move" : ""] },
      s.account ? h("a", { href: `/players/${encodeURIComponent(s.account)}`, class: "seat-link", title: t("Profile") },
        seatChip(names, s.seat)) : seatChip(names, s.seat), thinking ? h("span", { class: "spinner small", "aria-hidden": "true" }) : null, state);
  });
  const invite = `${location.origin}/room/${R.roomId}` + (R.invite ? `?invite=${encodeURIComponent(R.invite)}` : "");
  let copied = null;
  return h("section", { class: "card side-card", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("Seats")),
    h("ul", { class: "seat-rows" }, rows),
    anyOpen && R.seat === null && R.entry === null && !account && !guestInRated ? name : null,
    anyOpen && R.seat === null && R.entry === null && account ? h("p", { class: "muted small" },
      t("You sit as {name}.", { name: account.account.name })) : null,
    anyOpen && R.seat === null && R.entry === null && guestInRated ? h("div", { class: "notice", id: "needs-account" },
      t("This room is rated: only players signed in to an account can take its seats."), " ",
      h("a", { href: `/signin?next=${encodeURIComponent("/room/" + R.roomId + location.search)}` }, t("Sign in")), " · ",
      h("a", { href: `/signup?next=${encodeURIComponent("/room/" + R.roomId + location.search)}` }, t("Make an account"))) : null,
    anyOpen ? h("div", { class: "invite" },
      h("span", { class: "field-label" }, t("Invite link")),
      h("div", { class: "row" }, h("input", { class: "input mono", readonly: true, value: invite, id: "invite-link",
        "aria-label": t("Invite link") }),
      button(t("Copy"), async (e) => {
        const ok = await copyText(invite);
        copied = e.target;
        copied.textContent = ok ? t("Copied") : t("Copy failed");
      }, { class: "small", dataset: { key: "copy-invite" } }))) : null,
    R.entry ? button(t("Leave my seat"), leave, { kind: "ghost", class: "small", dataset: { key: "leave" } }) : null);
}

function historyCard() {
  const done = R.history.filter((g) => g.record_url);
  if (!done.length) return null;
  return h("section", { class: "card side-card" }, h("h2", null, t("Finished games")),
    h("ul", { class: "history" }, done.map((g) => h("li", null,
      h("span", null, t("Game {n}", { n: g.game_no })), " ",
      h("a", { href: replayLink(g.game_no) }, t("replay")), " · ",
      h("button", { type: "button", class: "link", on: { click: () => downloadRecord(g.game_no) } }, t("record"))))));
}

function draw() {
  if (!R.container) return;
  if (R.stopped) {
    render(R.container, h("section", { class: "page narrow" }, h("h1", null, t("This room cannot be opened")),
      errorBox({ code: R.stopped, message: "" }), h("p", null, h("a", { href: "/" }, t("Back to the lobby")))));
    return;
  }
  if (!R.room || !R.msg || !R.module) {
    render(R.container, h("section", { class: "page" }, h("p", { class: "muted loading" }, t("Opening the room…")), statusLine(),
      errorBox(R.error)));
    return;
  }
  const next = handoverSeat();
  if (next) {
    render(R.container, h("section", { class: ["page", "room", "game-" + R.room.game] }, handoverCard(next)));
    return;
  }
  const ctx = context();
  const room = R.room;
  const title = room.title || t("{game} room", { game: gameTitle(room.game) });
  document.title = (isMine() ? "● " : "") + title + " · cardtable";
  const board = R.module.render(ctx);
  render(R.container, h("section", { class: ["page", "room", "game-" + room.game], dataset: { game: room.game } },
    h("div", { class: "room-head" },
      h("div", { class: "room-titles" },
        h("h1", null, title),
        h("span", { class: ["badge", "game-" + room.game] }, gameTitle(room.game)),
        room.private ? h("span", { class: "badge" }, t("private")) : null,
        room.rated ? h("span", { class: "badge badge-rated" }, t("rated")) : null,
        R.seat === null ? h("span", { class: "badge badge-watch" }, t("watching")) : null,
        watchersBadge(R),
        statusLine()),
      h("div", { class: "room-tools" },
        offerTools(R, draw),
        resignControl(R, draw),
        button(t("Rules"), () => openRules(room.game), { kind: "ghost", class: "small", dataset: { key: "rules" } }),
        h("a", { class: "btn btn-ghost small", href: "/" }, t("Lobby")))),
    R.notice ? h("div", { class: "notice", role: "status" }, R.notice) : null,
    errorBox(R.error, () => { R.error = null; draw(); }),
    banner(ctx),
    clocksBar(R, ctx.names),
    offersCard(R, ctx.names, draw),
    lastGameCard(ctx),
    endCard(ctx),
    h("div", { class: "room-grid" },
      h("div", { class: "board-area" }, board),
      h("aside", { class: "side" },
        seatsCard(),
        isMine() ? choicesPanel(ctx, R.module) : null,
        logPanel(ctx, R.module, R.lines),
        chatCard(R, draw),
        historyCard()))));
  if (!R.drawn) {
    R.drawn = true;
    scrollToEnd(R.container);
  }
}

export default { start, draw };

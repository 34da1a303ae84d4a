// The signed-in player's social pages: "My games" (your turn first, with the moves' deadlines), friends
// (requests, presence, blocks, one-click invites, the in-app notifications) and "play now" (a queue per game
// and player count, the bot offer) with the lobby's life (games being played, recent ones, players online).
import { h, render } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api, keepSeat, mySeats } from "./api.js";
import { ago, button, errorBox, gameTitle, GAMES, playerLink, ratedPlayerCounts } from "./ui.js";
import { lifeCard, loadLife } from "./life.js";
import { current } from "./session.js";
import { clockText } from "./social.js";
import { noteWords, notifying, onCounts, poll, roomPath, setNotifying } from "./badge.js";

const P = {
  container: null, which: "games", games: null, friends: null, notes: null, blocks: null, error: null, notice: null,
  friendName: "", inviteRoom: "", queue: null, queueGame: null, queuePlayers: 2, botAfter: 60, lobby: null, timer: null,
};

async function start(container, params) {
  P.container = container;
  P.which = params[0];
  P.queueGame = GAMES[0];
  draw();
  if (!current()) {
    if (P.which === "play") loadLobby();
    return;
  }
  await load();
  onCounts(() => { if (P.which !== "play") load(); });
  if (P.which === "play") {
    P.timer = setInterval(pollQueue, 3000);
    loadLobby();
  }
}

async function load() {
  try {
    if (P.which === "games") P.games = await api("GET", "/api/account/games");
    if (P.which === "friends") {
      const [friends, notes, blocks, mutes] = await Promise.all([api("GET", "/api/account/friends"),
        api("GET", "/api/account/notifications?since=0"), api("GET", "/api/account/blocks"), api("GET", "/api/account/mutes")]);
      P.mutes = mutes.accounts || [];
      // seen here: they are read now (the header's count goes)
      const newest = (notes.notifications || []).reduce((m, n) => Math.max(m, n.id), 0);
      if (notes.unread && newest) api("POST", "/api/account/notifications/read", { upto: newest }).then(() => poll(), () => null);
      P.friends = friends.friends;
      P.notes = notes;
      P.blocks = blocks.accounts || [];
    }
    if (P.which === "play") P.queue = await api("GET", "/api/play-now");
  } catch (e) {
    P.error = e;
  }
  draw();
}

function signInFirst() {
  const here = encodeURIComponent(location.pathname);
  return h("section", { class: "page narrow" }, h("h1", null, title()),
    h("p", { class: "notice", id: "needs-account" }, t("Sign in to see your games, your friends and to play now."), " ",
      h("a", { href: `/signin?next=${here}` }, t("Sign in")), " · ", h("a", { href: `/signup?next=${here}` }, t("Make an account"))));
}

function title() {
  return { games: t("My games"), friends: t("Friends"), play: t("Play now") }[P.which];
}

function draw() {
  if (!P.container) return;
  if (!current()) {
    render(P.container, signInFirst(), P.which === "play" ? lifeCard(P.lobby) : null);
    return;
  }
  document.title = title() + " · cardtable";
  const body = P.which === "games" ? gamesPage() : P.which === "friends" ? friendsPage() : playPage();
  render(P.container, h("section", { class: ["page", "people-page", "page-" + P.which] },
    h("h1", null, title()),
    P.notice ? h("div", { class: "notice", role: "status", id: "people-notice" }, P.notice) : null,
    errorBox(P.error, () => { P.error = null; draw(); }),
    body));
}

// -- my games ------------------------------------------------------------------------------------------
function deadlineWords(g, now) {
  if (!g.deadline_at) return null;
  const ms = Date.parse(g.deadline_at) - Date.parse(now);
  return t("{time} left", { time: clockText(ms, g.clock === "turn") });
}

function gamesPage() {
  if (!P.games) return h("p", { class: "muted loading" }, t("Loading…"));
  const games = P.games.games || [];
  const box = h("input", { type: "checkbox", id: "notify-switch", checked: notifying(), dataset: { key: "notify" } });
  box.addEventListener("change", async () => {
    const on = await setNotifying(box.checked);
    P.notice = box.checked && !on ? t("The browser did not allow notifications; the badge and the tab title still count your games.") : null;
    draw();
  });
  const rows = games.map((g) => h("li", { class: ["game-row", g.my_turn ? "my-turn" : ""], dataset: { room: g.room } },
    g.my_turn ? h("span", { class: "tag tag-turn" }, t("Your turn")) : h("span", { class: "muted small" },
      g.started ? t("waiting") : t("seats open")),
    h("span", { class: "badge game-" + g.game }, gameTitle(g.game)),
    g.title ? h("strong", null, g.title) : null,
    h("span", { class: "muted" }, t("with"), " ",
      (g.opponents || []).map((o, k) => [k ? ", " : "", o.account ? playerLink(o.account, o.name) : (o.name || t("open"))])),
    deadlineWords(g, P.games.now) ? h("span", { class: "deadline small" }, deadlineWords(g, P.games.now)) : null,
    h("a", { class: "btn small " + (g.my_turn ? "btn-primary" : ""), href: roomPath(g.url), dataset: { key: "open-" + g.room } },
      g.my_turn ? t("Play") : t("Open"))));
  return h("section", { class: "card" },
    h("p", { class: "muted", id: "my-turn-line" }, tn("{n} game waits for your move.", "{n} games wait for your move.", P.games.my_turn || 0)),
    rows.length ? h("ul", { class: "game-rows", id: "my-games" }, rows)
      : h("p", { class: "muted", id: "no-games" }, t("No games under way. Make a room in the lobby or play now."), " ",
        h("a", { href: "/play" }, t("Play now"))),
    h("label", { class: "check notify-switch" }, box, t("Browser notifications when it is my turn, a friend invites me or a game is found")));
}

// -- friends -------------------------------------------------------------------------------------------
async function act(method, path, body, notice) {
  try {
    await api(method, path, body);
    P.error = null;
    P.notice = notice || null;
  } catch (e) {
    P.error = e;
  }
  await load();
  poll();
}

function openSeatRooms() {
  // the rooms this browser holds a seat in: a friend can be invited to one of their open seats
  return Object.entries(mySeats()).map(([room, e]) => ({ room, ...e }));
}

async function invite(friend) {
  const room = P.inviteRoom || (openSeatRooms()[0] || {}).room;
  if (!room) {
    P.error = { code: "no_room", message: t("Make a room with an open seat first (in the lobby), then invite.") };
    draw();
    return;
  }
  const code = (() => { try { return JSON.parse(localStorage.getItem("cardtable.invites") || "{}")[room] || null; } catch { return null; } })();
  await act("POST", `/api/account/friends/${encodeURIComponent(friend.account)}/invite`, { room, invite: code },
    t("{name} is invited.", { name: friend.name }));
}

function presence(f) {
  if (f.state !== "friends") return null;
  const where = f.online && f.room ? [t("in a room"), f.game ? ` · ${gameTitle(f.game)}` : ""]
    : f.online ? t("online") : f.last_seen ? t("seen {when}", { when: ago(f.last_seen) }) : t("offline");
  return h("span", { class: "presence-line small" }, h("span", { class: ["presence", f.online ? "online" : ""], "aria-hidden": "true" }), " ", where,
    f.online && f.room ? [" ", h("a", { href: `/room/${f.room}`, dataset: { key: "watch-" + f.account } }, t("watch"))] : null);
}

function friendRow(f) {
  const id = encodeURIComponent(f.account);
  let tools;
  if (f.state === "received") {
    tools = [button(t("Accept"), () => act("POST", `/api/account/friends/${id}/accept`, {}), { kind: "primary", class: "small", dataset: { key: "accept-" + f.account } }),
      button(t("Refuse"), () => act("POST", `/api/account/friends/${id}/refuse`, {}), { class: "small", dataset: { key: "refuse-" + f.account } })];
  } else if (f.state === "sent") {
    tools = [h("span", { class: "muted small" }, t("request sent")),
      button(t("Withdraw"), () => act("DELETE", `/api/account/friends/${id}`), { kind: "ghost", class: "small" })];
  } else {
    tools = [button(t("Invite to my room"), () => invite(f), { kind: "primary", class: "small", dataset: { key: "invite-" + f.account } }),
      button(t("Remove"), () => { if (window.confirm(t("Remove {name} from your friends?", { name: f.name }))) act("DELETE", `/api/account/friends/${id}`); },
        { kind: "ghost", class: "small", dataset: { key: "remove-" + f.account } })];
  }
  tools.push(button(t("Block"), () => {
    if (window.confirm(t("Block {name}? No chat, invites or pairing between you.", { name: f.name }))) act("PUT", `/api/account/blocks/${id}`);
  }, { kind: "ghost", class: "small", dataset: { key: "block-" + f.account } }));
  return h("li", { class: ["friend-row", "state-" + f.state], dataset: { account: f.account, state: f.state } },
    playerLink(f.account, f.name), presence(f), h("span", { class: "row friend-tools" }, tools));
}

function notesCard() {
  const notes = (P.notes && P.notes.notifications) || [];
  const names = Object.fromEntries((P.friends || []).map((f) => [f.account, f.name]));
  if (!notes.length) return null;
  return h("section", { class: "card", id: "notifications", "aria-labelledby": "notes-title" },
    h("h2", { id: "notes-title" }, t("Notifications")),
    h("ul", { class: "notice-rows" }, notes.slice(0, 30).map((n) => {
      const d = n.data || {};
      const named = { ...n, data: { ...d, from_name: d.from_name || names[d.from], by_name: names[d.by] } };
      const link = d.url ? h("a", { class: "btn small btn-primary", href: roomPath(d.url), dataset: { key: "note-" + n.id } },
        n.kind === "invite" ? t("Take the seat") : t("Open")) : null;
      return h("li", { class: ["notice-row", n.read ? "" : "unread"], dataset: { kind: n.kind } },
        h("span", null, noteWords(named)), h("span", { class: "muted small" }, ago(n.created_at)), link);
    })));
}

function friendsPage() {
  if (!P.friends) return h("p", { class: "muted loading" }, t("Loading…"));
  const name = h("input", { class: "input", id: "friend-name", value: P.friendName, maxlength: 40, placeholder: t("A player's name"),
    "aria-label": t("A player's name"), dataset: { key: "friend-name" } });
  name.addEventListener("input", () => { P.friendName = name.value; });
  const ask = h("form", { class: "friend-form", id: "friend-form", on: { submit: (e) => {
    e.preventDefault();
    const who = P.friendName.trim();
    if (!who) return;
    P.friendName = "";
    act("POST", "/api/account/friends", { name: who }, t("Friend request sent to {name}.", { name: who }));
  } } }, name, h("button", { type: "submit", class: "btn", dataset: { key: "friend-add" } }, t("Send a friend request")));
  const seats = openSeatRooms();
  if (!P.inviteRoom && seats.length) P.inviteRoom = seats[seats.length - 1].room;
  const pick = seats.length ? h("select", { class: "input", id: "invite-room", dataset: { key: "invite-room" } },
    seats.map((s) => h("option", { value: s.room, selected: s.room === P.inviteRoom },
      (s.title || gameTitle(s.game)) + " · " + s.room))) : null;
  if (pick) pick.addEventListener("change", () => { P.inviteRoom = pick.value; });
  const rows = P.friends.map(friendRow);
  return [
    notesCard(),
    h("section", { class: "card", "aria-labelledby": "friends-title" },
      h("h2", { id: "friends-title" }, t("Friends")),
      ask,
      rows.length ? h("ul", { class: "friend-rows", id: "friends" }, rows) : h("p", { class: "muted", id: "no-friends" }, t("No friends yet: send a request by name.")),
      pick ? h("div", { class: "field" }, h("label", { class: "field-label", for: "invite-room" }, t("Invite into")), pick) : null),
    P.blocks && P.blocks.length ? h("section", { class: "card", id: "blocks" }, h("h2", null, t("Blocked players")),
      h("ul", { class: "friend-rows" }, P.blocks.map((b) => h("li", { class: "friend-row" }, h("span", null, b.name),
        button(t("Unblock"), () => act("DELETE", `/api/account/blocks/${encodeURIComponent(b.account)}`), { kind: "ghost", class: "small" }))))) : null,
    P.mutes && P.mutes.length ? h("section", { class: "card", id: "mutes" }, h("h2", null, t("Muted in chat")),
      h("ul", { class: "friend-rows" }, P.mutes.map((b) => h("li", { class: "friend-row" }, h("span", null, b.name),
        button(t("Unmute"), () => act("DELETE", `/api/account/mutes/${encodeURIComponent(b.account)}`), { kind: "ghost", class: "small" }))))) : null,
  ];
}

// -- play now and the lobby's life ---------------------------------------------------------------------
async function pollQueue() {
  if (!P.queue || P.queue.status !== "waiting") return;
  try {
    P.queue = await api("GET", "/api/play-now");
    if (P.queue.status === "paired") return seated(P.queue);
  } catch (e) {
    P.error = e;
  }
  draw();
}

function seated(out) {
  keepSeat(out.room, { token: out.token, seat: out.seat, name: current().account.name, game: out.game, title: "" });
  location.href = `/room/${out.room}`;
}

async function joinQueue() {
  try {
    P.queue = await api("POST", "/api/play-now", { game: P.queueGame, players: P.queuePlayers, preset: "standard", bot_after_s: P.botAfter });
    P.error = null;
    if (P.queue.status === "paired") return seated(P.queue);
  } catch (e) {
    P.error = e;
  }
  draw();
}

async function leaveQueue() {
  try { await api("DELETE", "/api/play-now"); } catch (e) { P.error = e; }
  P.queue = { status: "none" };
  draw();
}

async function takeBot() {
  try {
    const out = await api("POST", "/api/play-now/bot", {});
    if (out.status === "paired") return seated(out);
  } catch (e) {
    P.error = e;
  }
  draw();
}

async function loadLobby() {
  P.lobby = await loadLife();
  if (P.lobby) draw();
}

function queueCard() {
  const q = P.queue;
  if (q && q.status === "waiting") {
    return h("section", { class: "card", id: "queue", "aria-live": "polite" },
      h("h2", null, t("Looking for players…")),
      h("p", null, h("span", { class: "spinner", "aria-hidden": "true" }), " ",
        t("{game}, {n} players: waiting {s} s", { game: gameTitle(q.game), n: q.players, s: Math.round(q.waited_s) })),
      q.bot_offered ? h("p", { id: "bot-offer" }, t("Nobody yet. Play against bots instead?"), " ",
        button(t("Play against bots"), takeBot, { kind: "primary", class: "small", dataset: { key: "take-bot" } })) : null,
      button(t("Stop looking"), leaveQueue, { kind: "ghost", dataset: { key: "leave-queue" } }));
  }
  const game = h("select", { class: "input", id: "queue-game", dataset: { key: "queue-game" } },
    GAMES.map((g) => h("option", { value: g, selected: g === P.queueGame }, gameTitle(g))));
  game.addEventListener("change", async () => {
    P.queueGame = game.value;
    const counts = await ratedPlayerCounts(P.queueGame);
    if (!counts.includes(P.queuePlayers)) P.queuePlayers = counts[0];
    draw();
  });
  const players = h("input", { class: "input narrow-input", type: "number", min: 2, max: 8, value: P.queuePlayers, id: "queue-players",
    dataset: { key: "queue-players" } });
  players.addEventListener("input", () => { P.queuePlayers = Math.max(2, Number(players.value) || 2); });
  const bot = h("select", { class: "input", id: "queue-bot", dataset: { key: "queue-bot" } },
    [10, 30, 60, 120, 300].map((s) => h("option", { value: s, selected: s === P.botAfter }, t("after {s} s", { s }))));
  bot.addEventListener("change", () => { P.botAfter = Number(bot.value); });
  return h("section", { class: "card", id: "queue" },
    h("h2", null, t("Play now")),
    h("p", { class: "muted" }, t("Get paired with signed-in players of about your rating, in a rated game with the standard setup.")),
    h("div", { class: "form-grid" },
      h("div", { class: "field" }, h("label", { class: "field-label", for: "queue-game" }, t("Game")), game),
      h("div", { class: "field" }, h("label", { class: "field-label", for: "queue-players" }, t("Players")), players),
      h("div", { class: "field" }, h("label", { class: "field-label", for: "queue-bot" }, t("Offer bots")), bot)),
    button(t("Find a game"), joinQueue, { kind: "primary", dataset: { key: "join-queue" } }));
}

function playPage() {
  return [queueCard(), lifeCard(P.lobby)];
}

export default { start, draw };

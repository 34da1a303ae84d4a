// The lobby: what is going on (players online, the best games being played, the latest finished ones), make
// a room (game, players, rule variants, decks or option cards, seats), the open rooms, the games being
// played, and "my games" (the seats this browser holds).
import { h, render, readFile } from "./dom.js";
import { joinList, language, t, tn } from "./i18n.js";
import { api, draft, forgetSeat, inviteOf, keepDraft, keepInvite, keepName, keepSeat, mySeats, myName } from "./api.js";
import { ago, button, errorBox, field, gameTagline, gameTitle, GAMES, openRules, seatChip, seatNames } from "./ui.js";
import { loadGame } from "./table.js";
import { current } from "./session.js";
import { clockBody, clockField } from "./social.js";
import { lifeCard, loadLife } from "./life.js";

const BOTS = ["easy", "normal", "hard", "random"];

const L = {
  container: null,
  catalog: null,
  parts: {},
  data: {},
  rooms: [],
  playing: [],
  mine: {},
  error: null,
  busy: false,
  form: null,
  paste: {},
  life: null,
};

// A game's page module may bring a lobby part (its `lobby` export): `symbol` (the tile's art), `defaults()`
// (the new-room form's), `load()` (data it keeps, such as presets), `maxPlayers(flags)`, `seatExtra(kit, i)`
// (beside a seat, such as a deck), `seatsHelp()`, `fields(kit)` (below the seats) and `setup(kit)` (the
// room's setup). A game without one gets the generic form: its players and seats, its rule variants.
function part(game) {
  return L.parts[game || (L.form && L.form.game)] || {};
}

/** What a game's lobby part works with: the form, the data it loaded, and the lobby's helpers. */
function kit() {
  return { form: L.form, data: L.data[L.form.game] || {}, save, draw, pasteBox };
}

async function loadParts() {
  await Promise.all(GAMES.map(async (g) => {
    try {
      const module = await loadGame(g);
      if (module.lobby) L.parts[g] = module.lobby;
    } catch { /* the generic form */ }
  }));
}

function defaultForm(game = GAMES[0]) {
  return {
    game, title: "", players: 2, seats: ["me", "bot:normal"], flags: {}, private: false, on_leave: "reopen",
    name: myName() || "", ...(part(game).defaults ? part(game).defaults() : {}),
  };
}

function botLabel(spec) {
  return { easy: t("Bot: easy"), normal: t("Bot: normal"), hard: t("Bot: hard"), random: t("Bot: random moves") }[spec]
    || t("Bot: {spec}", { spec });
}

function gameInfo(name) { return L.catalog ? L.catalog.games.find((g) => g.name === name) : null; }

function playerRange(game) {
  const info = gameInfo(game);
  if (!info) return [2, 2];
  const flagMax = part(game).maxPlayers ? part(game).maxPlayers(L.form.flags) : info.max_players;
  return [info.min_players, Math.min(info.max_players, flagMax)];
}

function fitSeats() {
  const f = L.form;
  const [lo, hi] = playerRange(f.game);
  const n = lo === hi ? lo : f.players;
  const seats = f.seats.slice(0, n);
  const rated = f.rated && current();
  while (seats.length < n) seats.push(seats.length === 0 ? "me" : rated ? "open" : "bot:normal");
  f.seats = seats;
}

function save() { keepDraft("lobby", L.form); }

async function load() {
  const withData = GAMES.filter((g) => part(g).load);
  const [catalog, rooms, all, life, ...data] = await Promise.all([
    api("GET", "/api/games"), api("GET", "/api/rooms?open=true&limit=30"), api("GET", "/api/rooms?open=false&limit=30"),
    loadLife(), ...withData.map((g) => part(g).load())]);
  L.catalog = catalog;
  L.rooms = rooms.rooms;
  L.life = life || L.life;
  const open = new Set(rooms.rooms.map((r) => r.id));
  L.playing = all.rooms.filter((r) => !open.has(r.id) && r.status === "playing");
  withData.forEach((g, k) => { L.data[g] = data[k]; });
}

async function loadMine() {
  const seats = mySeats();
  const out = {};
  await Promise.all(Object.entries(seats).map(async ([room, entry]) => {
    try {
      out[room] = { entry, room: await api("GET", `/api/rooms/${room}`, undefined, entry.token) };
    } catch (e) {
      out[room] = { entry, error: e };
    }
  }));
  L.mine = out;
}

async function start(container) {
  L.container = container;
  document.title = "cardtable";
  await loadParts();
  L.form = { ...defaultForm(), ...(draft("lobby") || {}) };
  L.form.name = L.form.name || myName() || "";
  draw();
  try {
    await load();
  } catch (e) {
    L.error = e;
  }
  await loadMine();
  fitSeats();
  draw();
  setInterval(async () => {
    try {
      await load();
      await loadMine();
      if (!L.container.contains(document.activeElement) || document.activeElement === document.body) draw();
      else drawLists();
    } catch { /* keep the last lists */ }
  }, 8000);
}

// -- the new-room form ---------------------------------------------------------------------------------
function gamePicker() {
  return h("div", { class: "game-picker", role: "radiogroup", "aria-label": t("Game") },
    GAMES.map((g) => h("button", {
      type: "button", role: "radio", class: ["game-tile", "tile-" + g, L.form.game === g ? "active" : ""],
      "aria-checked": L.form.game === g ? "true" : "false", dataset: { key: "game-" + g, game: g },
      on: { click: () => { L.form = { ...defaultForm(g), name: L.form.name, title: L.form.title, rated: L.form.rated };
        if (L.form.rated && current()) L.form.seats = L.form.seats.map((s) => (s === "me" ? s : "open"));
        fitSeats(); save(); draw(); } },
    }, h("span", { class: "tile-art", "aria-hidden": "true" }, part(g).symbol || "♠"),
    h("span", { class: "tile-title" }, gameTitle(g)),
    h("span", { class: "tile-text" }, gameTagline(g)))));
}

function seatRow(i) {
  const f = L.form;
  const select = h("select", { class: "input", dataset: { key: "seat-" + i }, "aria-label": t("Seat {n}", { n: i + 1 }) },
    h("option", { value: "me", selected: f.seats[i] === "me" }, t("You")),
    f.rated && current() ? null
      : h("option", { value: "here", selected: f.seats[i] === "here" }, t("Another player on this device (pass and play)")),
    h("option", { value: "open", selected: f.seats[i] === "open" }, t("A person (invite link)")),
    f.rated && current() ? null
      : BOTS.map((b) => h("option", { value: "bot:" + b, selected: f.seats[i] === "bot:" + b }, botLabel(b))));
  select.addEventListener("change", () => {
    if (select.value === "me") f.seats = f.seats.map((s) => (s === "me" ? "open" : s));
    f.seats[i] = select.value;
    save();
    draw();
  });
  const extra = part().seatExtra ? part().seatExtra(kit(), i) : null;
  return h("div", { class: "seat-row" }, h("span", { class: ["seat-chip", "seat-" + i] },
    h("span", { class: "seat-dot", "aria-hidden": "true" }), "P" + (i + 1)), select, extra);
}

/** A box to paste or upload a file, and check it (`spec.check(text)` answers `{ ok, problems }`). */
function pasteBox(key, spec) {
  const state = L.paste[key] || (L.paste[key] = { text: "", result: null });
  const area = h("textarea", { class: "input mono", rows: 6, dataset: { key: "paste-" + key }, spellcheck: "false",
    placeholder: spec.placeholder, "aria-label": spec.label });
  area.value = state.text;
  area.addEventListener("input", () => { state.text = area.value; });
  const upload = h("input", { type: "file", accept: ".toml,text/plain", class: "file", "aria-label": t("Upload a file") });
  upload.addEventListener("change", async () => {
    if (upload.files && upload.files[0]) {
      state.text = await readFile(upload.files[0]);
      await check();
    }
  });
  const check = async () => {
    try {
      state.result = await spec.check(state.text);
    } catch (e) {
      state.result = { ok: false, problems: [{ message: e.message }] };
    }
    save();
    draw();
  };
  const result = state.result;
  return h("div", { class: "paste" }, area,
    h("div", { class: "row" }, upload, button(t("Check"), check, { dataset: { key: "check-" + key } })),
    result ? h("ul", { class: ["checks", result.ok ? "ok" : "bad"], "aria-live": "polite" },
      result.ok ? h("li", null, t("Looks good: this can be played."))
        : result.problems.map((p) => h("li", null, typeof p === "string" ? p : p.message))) : null);
}

/** A rule flag's value in words (i18n.py's ``choice_words``), in the page language. */
function choiceWords(value) {
  if (typeof value !== "string") return String(value);
  const words = /^p\d$/.test(value) ? value.toUpperCase() : value.replace(/_/g, " ");
  return t(words);
}

function flagValueWords(flag, value) {
  if (value === "" || value === null || value === undefined) return "—";
  if (flag.kind === "bool") return value ? t("on") : t("off");
  return choiceWords(value);
}

function flagControl(flag) {
  const f = L.form.flags;
  const value = flag.name in f ? f[flag.name] : flag.default;
  const key = "flag-" + flag.name;
  let control;
  const set = (v) => {
    if (v === flag.default || (typeof flag.default === "number" && Number(v) === flag.default)) delete f[flag.name];
    else f[flag.name] = v;
    save();
    draw();
  };
  if (flag.kind === "bool") {
    control = h("input", { type: "checkbox", checked: Boolean(value), dataset: { key }, "aria-label": t(flag.doc || flag.name) });
    control.addEventListener("change", () => set(control.checked));
  } else if (flag.choices) {
    control = h("select", { class: "input", dataset: { key }, "aria-label": t(flag.doc || flag.name) },
      flag.choices.map((c) => h("option", { value: String(c), selected: String(c) === String(value) },
        choiceWords(c) + (String(c) === String(flag.default) ? " " + t("(standard)") : ""))));
    control.addEventListener("change", () => set(flag.kind === "int" ? Number(control.value) : control.value));
  } else if (flag.kind === "int") {
    control = h("input", { type: "number", class: "input narrow", value: String(value), dataset: { key }, "aria-label": t(flag.doc || flag.name) });
    control.addEventListener("change", () => set(Number(control.value)));
  } else {
    control = h("input", { type: "text", class: "input", value: String(value), dataset: { key }, "aria-label": t(flag.doc || flag.name) });
    control.addEventListener("change", () => set(control.value));
  }
  const changed = flag.name in f;
  return h("div", { class: ["flag", changed ? "changed" : ""] },
    h("div", { class: "flag-head", dataset: { flag: flag.name } }, h("span", { class: "flag-name" }, t(flag.doc)), control),
    h("div", { class: "flag-doc" },
      flag.ledger ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules(L.form.game, flag.ledger) } },
        flag.ledger) : null,
      " ", h("span", { class: "muted" }, t("standard: {value}", { value: flagValueWords(flag, flag.default) }))));
}

function flagsPanel() {
  const info = gameInfo(L.form.game);
  if (!info) return null;
  const changed = Object.keys(L.form.flags).length;
  const details = h("details", { class: "flags", open: L.flagsOpen || false },
    h("summary", null, t("Rule variants"), " ",
      h("span", { class: "badge" }, changed ? tn("{n} changed", "{n} changed", changed) : t("standard rules"))),
    h("p", { class: "muted" }, t("Every open question of the rulebook is a variant; the standard game is the default.")),
    changed ? button(t("Back to the standard rules"), () => { L.form.flags = {}; save(); draw(); }, { kind: "ghost" }) : null,
    h("div", { class: "flag-list" }, info.flags.map(flagControl)));
  details.addEventListener("toggle", () => { L.flagsOpen = details.open; });
  return details;
}

function setupOf() {
  if (part().setup) return part().setup(kit());
  const [lo, hi] = playerRange(L.form.game);
  return lo === hi ? {} : { players: L.form.players };
}

async function create(event) {
  event.preventDefault();
  const f = L.form;
  const me = f.seats.includes("me") ? f.seats.indexOf("me") : f.seats.indexOf("here");
  const account = current();
  const rated = Boolean(account && f.rated);
  // a signed-in player sits under their account's name (the server puts it on the seat)
  const name = account ? account.account.name : f.name.trim();
  if (me >= 0 && !name) {
    L.error = { code: "bad_name", message: t("Enter your name to take a seat.") };
    draw();
    return;
  }
  // the game's own check of its setup (Zeta's decks): every problem at once, each under its seat, before the room is made
  const problems = part().problems ? await part().problems(kit()).catch((e) => [e.message]) : [];
  if (problems.length) {
    L.error = { code: "bad_setup", message: problems.join("\n") };
    draw();
    return;
  }
  L.busy = true;
  L.error = null;
  draw();
  try {
    const body = {
      game: f.game, title: f.title.trim(), rules: f.flags, setup: setupOf(), private: f.private, on_leave: f.on_leave, rated,
      ...clockBody(f),
      seats: f.seats.map((s) => (s.startsWith("bot:") ? { kind: "bot", spec: s.slice(4) } : { kind: "open" })),
    };
    const made = await api("POST", "/api/rooms", body);
    const room = made.room;
    if (made.invite) keepInvite(room.id, made.invite);
    if (me >= 0) {
      if (!account) keepName(name);
      const joined = await api("POST", `/api/rooms/${room.id}/join`, { name, seat: me, invite: made.invite || undefined });
      const entry = { token: joined.token, seat: joined.seat, name, game: room.game, title: room.title };
      // pass and play: this browser holds every seat played on this device, and hands the device over in turn
      const here = [{ seat: joined.seat, token: joined.token, name }];
      for (let i = 0; i < f.seats.length; i++) {
        if (f.seats[i] !== "here" || i === me) continue;
        const other = t("Player {n}", { n: i + 1 });
        const sat = await api("POST", `/api/rooms/${room.id}/join`, { name: other, seat: i, invite: made.invite || undefined },
          undefined, { guest: true });
        here.push({ seat: sat.seat, token: sat.token, name: other });
      }
      if (here.length > 1) entry.hotseat = here;
      keepSeat(room.id, entry);
    }
    location.href = `/room/${room.id}` + (made.invite ? `?invite=${encodeURIComponent(made.invite)}` : "");
  } catch (e) {
    // the engine counts seats from 0 ("seat 0: ..."); players call them P1, P2
    L.error = e && typeof e.message === "string"
      ? Object.assign(e, { message: e.message.replace(/\bseat (\d)\b/g, (_, n) => `P${Number(n) + 1}`) }) : e;
    L.busy = false;
    draw();
  }
}

function form() {
  const f = L.form;
  const [lo, hi] = playerRange(f.game);
  const name = h("input", { class: "input", maxlength: 24, value: f.name, autocomplete: "nickname", dataset: { key: "name" },
    placeholder: t("e.g. Aki"), id: "your-name" });
  name.addEventListener("input", () => { f.name = name.value; save(); });
  const title = h("input", { class: "input", maxlength: 64, value: f.title, dataset: { key: "title" },
    placeholder: t("Friday game"), id: "room-title" });
  title.addEventListener("input", () => { f.title = title.value; save(); });
  let players = null;
  if (lo !== hi) {
    const select = h("select", { class: "input", dataset: { key: "players" }, id: "players" },
      Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map((n) => h("option", { value: n, selected: n === f.players },
        n === 1 ? t("1 player (solo)") : tn("{n} player", "{n} players", n))));
    select.addEventListener("change", () => { f.players = Number(select.value); fitSeats(); save(); draw(); });
    players = field(t("Players"), select);
  }
  const priv = h("input", { type: "checkbox", checked: f.private, dataset: { key: "private" } });
  priv.addEventListener("change", () => { f.private = priv.checked; save(); });
  const account = current();
  let rated = null;
  if (account) {
    const box = h("input", { type: "checkbox", checked: Boolean(f.rated), dataset: { key: "rated" }, id: "rated" });
    box.addEventListener("change", () => {
      f.rated = box.checked;
      // a rated room's seats are people signed in to their accounts: no bots, no second player on this device
      if (f.rated) f.seats = f.seats.map((s) => (s === "me" ? s : "open"));
      save();
      draw();
    });
    rated = h("div", { class: "rated-box" }, h("label", { class: "check" }, box, t("Rated game")),
      h("span", { class: "field-help" }, t("Every seat must be taken by a person signed in to an account; the result changes their ratings.")));
  }
  const leave = h("select", { class: "input", dataset: { key: "onleave" } },
    h("option", { value: "reopen", selected: f.on_leave === "reopen" }, t("the seat opens for someone else")),
    h("option", { value: "bot", selected: f.on_leave === "bot" }, t("a bot takes it over")));
  leave.addEventListener("change", () => { f.on_leave = leave.value; save(); });
  const node = h("form", { class: "card new-room", "aria-labelledby": "new-room-title" },
    h("h2", { id: "new-room-title" }, t("New room")),
    gamePicker(),
    h("div", { class: "form-grid" },
      account ? field(t("Your name"), h("span", { class: "as-account", id: "your-name" }, account.account.name),
        t("Your account's name.")) : field(t("Your name"), name),
      field(t("Room title"), title, t("Optional; shown in the room list.")),
      players),
    h("fieldset", { class: "seats-box" }, h("legend", null, t("Seats")),
      f.seats.map((_, i) => seatRow(i)),
      h("p", { class: "field-help" }, (part().seatsHelp && part().seatsHelp())
        || t("Give a seat to a person to get an invite link; bots move by themselves."))),
    part().fields ? part().fields(kit()) : null,
    flagsPanel(),
    h("div", { class: "form-grid" },
      h("label", { class: "check" }, priv, t("Private room (only people with the invite link)")),
      rated,
      field(t("When a person leaves"), leave),
      clockField(f, save, draw)),
    errorBox(L.error, () => { L.error = null; draw(); }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "btn btn-primary btn-large", disabled: L.busy || !L.catalog, dataset: { key: "create" } },
        L.busy ? t("Creating…") : t("Create the room"))));
  node.addEventListener("submit", create);
  return node;
}

// -- the lists -----------------------------------------------------------------------------------------
function seatsSummary(room) {
  return h("span", { class: "seat-list" }, room.seats.map((s) => h("span", {
    class: ["seat-chip", "small", "seat-" + s.seat, s.status === "open" ? "open" : ""] },
  h("span", { class: "seat-dot", "aria-hidden": "true" }),
  s.status === "open" ? t("P{n} open", { n: s.seat + 1 }) : seatNames([s.label])[0])));
}

function statusWord(room) {
  // the server keeps a room "playing" until it ends; one with no move for a day is shown as left idle
  if (room.status === "playing" && quiet(room)) return t("idle: no move for a day");
  return { waiting: t("waiting for players"), playing: t("playing"), finished: t("finished") }[room.status] || room.status;
}

function roomRow(room, kind) {
  const title = room.title || t("{game} room", { game: gameTitle(room.game) });
  const open = room.seats.filter((s) => s.status === "open").length;
  return h("li", { class: "room-row", dataset: { room: room.id } },
    h("div", { class: "room-main" },
      h("a", { href: `/room/${room.id}`, class: "room-title" }, title),
      h("span", { class: ["badge", "game-" + room.game] }, gameTitle(room.game)),
      room.rated ? h("span", { class: "badge badge-rated" }, t("rated")) : null,
      h("span", { class: "muted small" }, statusWord(room), " · ", ago(room.updated_at))),
    seatsSummary(room),
    h("div", { class: "room-buttons" },
      kind === "open" && open ? h("a", { class: "btn btn-primary small", href: `/room/${room.id}` }, t("Join")) : null,
      h("a", { class: "btn small", href: `/room/${room.id}?watch=1` }, t("Watch"))));
}

function mineRow([id, item]) {
  const room = item.room;
  const entry = item.entry;
  const forget = () => { forgetSeat(id); delete L.mine[id]; draw(); };
  if (!room) {
    return h("li", { class: "room-row" }, h("div", { class: "room-main" },
      h("span", { class: "room-title" }, entry.title || gameTitle(entry.game)),
      h("span", { class: "muted small" }, t("This seat is no longer held by this browser."))),
    h("div", { class: "room-buttons" }, button(t("Forget"), forget, { class: "small" })));
  }
  const mine = room.to_move === entry.seat && room.status === "playing" && !quiet(room);
  // an untitled room is named by who else sits there, so two "Zeta room" rows read apart
  const others = room.seats.filter((s) => s.seat !== entry.seat && s.status !== "open").map((s) => seatNames([s.label])[0]);
  const title = room.title || (others.length ? t("{game} with {names}", { game: gameTitle(room.game), names: joinList(others) })
    : t("{game} room", { game: gameTitle(room.game) }));
  const invite = inviteOf(id);
  return h("li", { class: ["room-row", mine ? "your-turn" : ""], dataset: { room: id } },
    h("div", { class: "room-main" },
      h("a", { href: `/room/${id}` + (invite ? `?invite=${encodeURIComponent(invite)}` : ""), class: "room-title" }, title),
      h("span", { class: ["badge", "game-" + room.game] }, gameTitle(room.game)),
      mine ? h("span", { class: "badge badge-turn" }, t("Your turn")) : h("span", { class: "muted small" }, statusWord(room)),
      h("span", { class: "muted small" }, t("as {name}", { name: room.seats[entry.seat] ? room.seats[entry.seat].label : entry.name })),
      // two rooms of one game look alike: when each began and when it last moved tell them apart
      h("span", { class: "muted small room-dates" }, entry.joined ? t("since {date}", { date: new Date(entry.joined).toLocaleString(language(),
        { dateStyle: "medium", timeStyle: "short" }) }) + " · " : "",
        t("last move {ago}", { ago: ago(room.updated_at) }))),
    seatsSummary(room),
    h("div", { class: "room-buttons" },
      h("a", { class: "btn btn-primary small", href: `/room/${id}` + (invite ? `?invite=${encodeURIComponent(invite)}` : "") },
        t("Open")),
      button(t("Forget"), forget, { class: "small", kind: "ghost" })));
}

// A playing room with no move for a day is left out of "Being played" (its players went away).
const QUIET_MS = 24 * 3600 * 1000;

/** Whether a room has had no move for a day. */
function quiet(room) {
  return Date.now() - new Date(room.updated_at).getTime() >= QUIET_MS;
}

/** The rooms being played now: those with a move within the last day. */
function lively() {
  return L.playing.filter((r) => r.status !== "playing" || !quiet(r));
}

function lists() {
  const mine = Object.entries(L.mine).sort((a, b) => String(b[1].entry.joined).localeCompare(String(a[1].entry.joined)));
  return h("div", { class: "lists" },
    h("section", { class: "card", "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, t("My games")),
      mine.length ? h("ul", { class: "room-list", id: "my-games" }, mine.map(mineRow))
        : h("p", { class: "muted" }, t("The rooms you take a seat in are kept here, in this browser."))),
    h("section", { class: "card", "aria-labelledby": "open-title" },
      h("div", { class: "card-head" }, h("h2", { id: "open-title" }, t("Open rooms")),
        button(t("Refresh"), async () => { await load(); await loadMine(); draw(); }, { kind: "ghost", class: "small",
          dataset: { key: "refresh" } })),
      L.rooms.length ? h("ul", { class: "room-list", id: "open-rooms" }, L.rooms.map((r) => roomRow(r, "open")))
        : h("p", { class: "muted" }, t("No room has an open seat right now. Make one!"))),
    lively().length ? h("section", { class: "card", "aria-labelledby": "playing-title" },
      h("h2", { id: "playing-title" }, t("Being played")),
      h("ul", { class: "room-list", id: "being-played" }, lively().map((r) => roomRow(r, "watch")))) : null);
}

function drawLists() {
  const box = L.container.querySelector(".lists");
  if (box) box.replaceWith(lists());
  const life = L.container.querySelector("#lobby-life");
  const fresh = life ? compactLife() : null;
  if (life && fresh) life.replaceWith(fresh);
}

/** The lobby's life, compact: the players online, the three best games being played, the three latest finished. */
function compactLife() {
  return lifeCard(L.life, { playing: 3, finished: 3, compact: true });
}

function draw() {
  if (!L.container) return;
  render(L.container, h("section", { class: "page lobby" },
    h("div", { class: "hero" },
      h("h1", { id: "lobby-title" }, t("Card games at one table")),
      h("p", { class: "lead" }, t("Zeta, Oscilloscope and Utahime: play with friends, against bots, or watch."))),
    compactLife(),
    h("div", { class: "lobby-grid" }, form(), lists())));
}

export default { start, draw };
export { joinList };

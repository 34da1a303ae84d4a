// What every page shares: the header with the language switch, error messages in words, the rules
// panel (how to play, and any rule by id), seat colours and small widgets.
import { h, render } from "./dom.js";
import { language, LANGUAGES, setLanguage, t } from "./i18n.js";
import { markdown } from "./markdown.js";
import { api } from "./api.js";
import { current, signOut } from "./session.js";

/** The games this server serves, in its order (filled by loadGames before any page draws). */
export let GAMES = [];
let pages = {};
let loading = null;

/** Learn the games from the server, once: each one's title, lobby line, rule-id prefix and page module. */
export function loadGames() {
  if (!loading) {
    loading = api("GET", "/web/games").then((data) => {
      pages = Object.fromEntries(data.games.map((g) => [g.name, g]));
      GAMES = data.games.map((g) => g.name);
      return pages;
    }, (e) => { loading = null; throw e; });
  }
  return loading;
}

let catalogLoading = null;

/** The server's game catalog (``GET /api/games``: each game's players and rule variants), loaded once. */
export function gameCatalog() {
  if (!catalogLoading) catalogLoading = api("GET", "/api/games").catch((e) => { catalogLoading = null; throw e; });
  return catalogLoading;
}

/** The player counts a game is played with by more than one person (those a rating is kept for). */
export async function ratedPlayerCounts(game) {
  const info = (await gameCatalog()).games.find((g) => g.name === game);
  if (!info) return [2];
  const counts = [];
  for (let n = Math.max(2, info.min_players); n <= info.max_players; n++) counts.push(n);
  return counts.length ? counts : [2];
}

/** What the server says about a game's page (title, tagline, rule_prefix, module), or null. */
export function gamePage(game) {
  return pages[game] || null;
}

/** A game's title in the page language. */
export function gameTitle(game) {
  const page = pages[game];
  return page ? t(page.title) : game;
}

/** The one-line description of a game. */
export function gameTagline(game) {
  const page = pages[game];
  return page && page.tagline ? t(page.tagline) : "";
}

/** The rule-id prefix of a game. */
export function rulePrefix(game) {
  const page = pages[game];
  return page ? page.rule_prefix : "";
}

/** The game whose rulebook a rule id belongs to (by its prefix), or null. */
export function gameOfRule(id) {
  const head = String(id || "").toUpperCase().split("-")[0];
  return GAMES.find((g) => pages[g].rule_prefix && pages[g].rule_prefix === head) || null;
}

/** A refusal's code in words (the server's own message is shown beside it). */
export function errorWords(code) {
  const words = {
    not_your_turn: t("It is not your turn."),
    stale_version: t("The game moved on before your move arrived: look at the board again and choose."),
    game_over: t("The game is over."),
    illegal_action: t("That move is not allowed now."),
    invalid_action: t("That is not a move of this game."),
    not_started: t("The game starts when every seat is filled."),
    spectator: t("You are watching this room: take a seat to play."),
    wrong_seat: t("That is not your seat."),
    bad_name: t("Choose another name."),
    bad_title: t("Choose another title."),
    bad_setup: t("This setup cannot be played."),
    bad_rules: t("These rule variants cannot be combined."),
    bad_seats: t("The seats do not fit this game."),
    bad_agent: t("That bot does not exist."),
    unknown_game: t("There is no such game."),
    seat_taken: t("That seat is taken."),
    no_access: t("This room is private: it needs its invite link."),
    bad_token: t("This browser no longer holds that seat."),
    no_such_room: t("There is no such room."),
    room_full: t("This room has too many visitors right now."),
    revoked: t("You left this seat."),
    storage_error: t("The server could not store that. Try again."),
    unavailable: t("The server is starting or stopping. Try again in a moment."),
    too_large: t("That is too large to send."),
    bad_message: t("The server did not understand the message."),
    bad_request: t("The server did not understand the request."),
    not_finished: t("This game is not finished yet."),
    cannot_resume: t("This game cannot be replayed."),
    network: t("The server cannot be reached. Check the connection and try again."),
    internal_error: t("The server failed. Reconnecting."),
    no_such_rule: t("There is no rule with that id."),
    not_signed_in: t("Sign in first."),
    bad_credentials: t("That name and password do not match an account."),
    name_taken: t("That name is taken: choose another."),
    weak_password: t("Choose a password of 8 to 256 characters."),
    csrf: t("The page is out of date: reload it and try again."),
    passkey_failed: t("The passkey could not be used."),
    needs_account: t("This room is rated: only players signed in to an account can take its seats."),
    no_such_player: t("There is no such player."),
    rate_limited: t("Too many tries: wait a minute and try again."),
  };
  return words[code] || t("Refused.");
}

/** An error box: the words for its code, the server's message, and a link to the rule it cites. */
export function errorBox(error, onClose) {
  if (!error) return null;
  const rule = error.rule;
  return h("div", { class: "alert", role: "alert", dataset: { code: error.code || "" } },
    h("div", { class: "alert-body" },
      h("strong", null, errorWords(error.code)),
      error.message && error.message !== errorWords(error.code) ? h("span", { class: "alert-detail" }, error.message) : null,
      rule ? h("button", { type: "button", class: "rule-link", on: { click: () => openRules(gameOfRule(rule), rule) } },
        t("Rule {id}", { id: rule })) : null),
    onClose ? h("button", { type: "button", class: "icon-btn", "aria-label": t("Dismiss"), on: { click: onClose } }, "×")
      : null);
}

/** The page header: the brand, the pages, the rules and the language switch. */
export function header(active) {
  const link = (href, label, key) => h("a", { href, class: ["nav-link", active === key ? "active" : ""],
    "aria-current": active === key ? "page" : null }, label);
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠"), "cardtable"),
    h("nav", { class: "nav", "aria-label": t("Pages") },
      link("/", t("Lobby"), "lobby"),
      link("/play", t("Play now"), "play"),
      current() ? link("/games", [t("My games"), h("span", { class: "count-badge", id: "my-turn-count", hidden: true })], "games") : null,
      current() ? link("/friends", [t("Friends"), h("span", { class: "count-badge", id: "unread-count", hidden: true })], "friends") : null,
      link("/decks", t("Deck builder"), "decks"),
      link("/leaderboards", t("Leaderboards"), "leaderboards"),
      link("/studio", t("Studio"), "studio"),
      link("/rules", t("How to play"), "rules")),
    accountMenu(active),
    h("div", { class: "lang-switch", role: "group", "aria-label": t("Language") },
      LANGUAGES.map((lang) => h("button", {
        type: "button", class: ["lang", language() === lang ? "active" : ""], lang,
        "aria-pressed": language() === lang ? "true" : "false", dataset: { key: "lang-" + lang },
        on: { click: () => setLanguage(lang, true) },
      }, lang === "en" ? "English" : "日本語"))));
}

/** The signed-in player's menu (profile, settings, sign out), or a "Sign in" link for a guest. */
function accountMenu(active) {
  const me = current();
  if (!me) {
    return h("a", { href: "/signin", class: ["nav-link", "account-link", active === "account" ? "active" : ""],
      id: "account-menu" }, t("Sign in"));
  }
  const out = async () => {
    try { await signOut(); } catch { /* the session is gone either way */ }
    location.href = "/";
  };
  const menu = h("details", { class: "account-menu", id: "account-menu" },
    h("summary", { class: "nav-link", "aria-label": t("Signed in as {name}", { name: me.account.name }) },
      h("span", { class: "account-dot", "aria-hidden": "true" }), h("span", { class: "account-name" }, me.account.name)),
    h("div", { class: "menu" },
      h("a", { href: `/players/${encodeURIComponent(me.account.id)}`, class: "menu-item" }, t("My profile")),
      h("a", { href: "/account", class: "menu-item" }, t("Account settings")),
      h("button", { type: "button", class: "menu-item", dataset: { key: "sign-out" }, on: { click: out } }, t("Sign out"))));
  return menu;
}

// a click anywhere else closes the account menu
document.addEventListener("click", (e) => {
  for (const menu of document.querySelectorAll(".account-menu[open]")) if (!menu.contains(e.target)) menu.open = false;
});

// the name the server gives a deleted account (no account can take it), shown in the page's language
const DELETED = "deleted player";

/** A link to a player's profile, their name as text (a deleted account is "deleted player", translated). */
export function playerLink(account, name) {
  const text = !name || name === DELETED ? t("deleted player") : name;
  return account ? h("a", { href: `/players/${encodeURIComponent(account)}`, class: "player-link" }, text)
    : h("span", { class: "player-name" }, text);
}

/** A seat's label in its colour. */
export function seatChip(names, seat, extra) {
  const label = names && names[seat] !== undefined ? names[seat] : "P" + (seat + 1);
  return h("span", { class: ["seat-chip", "seat-" + (seat % 6)] }, h("span", { class: "seat-dot", "aria-hidden": "true" }),
    label, extra || null);
}

/** A button. */
export function button(label, onClick, options = {}) {
  return h("button", {
    type: "button", class: ["btn", options.kind ? "btn-" + options.kind : "", options.class || ""],
    disabled: options.disabled, title: options.title, "aria-label": options.aria, dataset: options.dataset,
    on: { click: onClick },
  }, label);
}

/** A labelled form field. */
export function field(label, control, help) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), control,
    help ? h("span", { class: "field-help" }, help) : null);
}

// -- the rules panel -----------------------------------------------------------------------------------
const rulesCache = {};
let dialog = null;
let panel = { game: null, rule: null, tab: "howto", filter: "" };

async function cached(key, load) {
  if (!(key in rulesCache)) rulesCache[key] = load().catch((e) => { delete rulesCache[key]; throw e; });
  return rulesCache[key];
}

export function howto(game) {
  return cached(`howto:${game}:${language()}`, () => api("GET", `/web/games/${game}/howto?lang=${language()}`));
}
export function rulesIndex(game) { return cached(`index:${game}`, () => api("GET", `/web/games/${game}/rules`)); }
export function ruleText(game, id) {
  return cached(`rule:${game}:${id}`, () => api("GET", `/web/games/${game}/rules/${encodeURIComponent(id)}`));
}

/** The rules panel's content: tabs for how to play and the rules by id. */
export async function rulesView(state, onChange) {
  const game = state.game;
  const openRule = (id) => onChange({ ...state, game: gameOfRule(id) || game, rule: id, tab: "rules" });
  openRule.prefix = rulePrefix(game);
  const tabs = h("div", { class: "tabs", role: "tablist" },
    GAMES.map((g) => h("button", { type: "button", role: "tab", class: ["tab", g === game ? "active" : ""],
      "aria-selected": g === game ? "true" : "false", dataset: { key: "rules-game-" + g },
      on: { click: () => onChange({ ...state, game: g, rule: null }) } }, gameTitle(g))));
  const modes = h("div", { class: "segmented", role: "group" },
    h("button", { type: "button", class: ["seg", state.tab === "howto" ? "active" : ""], dataset: { key: "tab-howto" },
      on: { click: () => onChange({ ...state, tab: "howto" }) } }, t("How to play")),
    h("button", { type: "button", class: ["seg", state.tab === "rules" ? "active" : ""], dataset: { key: "tab-rules" },
      on: { click: () => onChange({ ...state, tab: "rules" }) } }, t("Rules by id")));
  let body;
  try {
    if (state.tab === "howto") {
      const doc = await howto(game);
      body = markdown(doc.text, openRule);
    } else {
      const index = await rulesIndex(game);
      const input = h("input", { type: "search", class: "input", placeholder: t("Rule id or words, e.g. {id}",
        { id: rulePrefix(game) + "-R14" }), value: state.filter || "", dataset: { key: "rule-filter" },
        "aria-label": t("Find a rule") });
      input.addEventListener("input", () => onChange({ ...state, filter: input.value }, true));
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && input.value.trim()) openRule(input.value.trim());
      });
      const words = (state.filter || "").toLowerCase();
      const list = h("ul", { class: "rule-list" }, index.rules
        .filter((r) => !words || r.id.toLowerCase().includes(words) || r.title.toLowerCase().includes(words))
        .slice(0, 400)
        .map((r) => h("li", null, h("button", { type: "button", class: ["rule-item", r.id === state.rule ? "active" : ""],
          on: { click: () => openRule(r.id) } }, h("span", { class: "rule-id" }, r.id), " ", r.title))));
      let text = null;
      if (state.rule) {
        try {
          const found = await ruleText(game, state.rule);
          text = h("article", { class: "rule-text" }, markdown(found.text, openRule));
        } catch (e) {
          text = errorBox(e);
        }
      }
      body = h("div", { class: "rules-split" },
        h("div", { class: "rules-index" }, input, list),
        h("div", { class: "rules-body" }, text || h("p", { class: "muted" }, t("Choose a rule to read it."))));
    }
  } catch (e) {
    body = errorBox(e);
  }
  const note = language() !== "en" && state.tab === "rules"
    ? h("p", { class: "note" }, t("The numbered rules are in English, as in the rulebook; the how-to-play is translated."))
    : null;
  return h("div", { class: "rules-panel" }, tabs, modes, note, body);
}

/** Open the rules panel over the page, at a game's how-to-play or at one rule. */
export async function openRules(game, rule) {
  panel = { game: game || panel.game || GAMES[0], rule: rule || null, tab: rule ? "rules" : "howto", filter: "" };
  if (!dialog) {
    dialog = h("dialog", { class: "rules-dialog", "aria-label": t("Rules") });
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
    document.body.append(dialog);
  }
  await drawDialog();
  if (!dialog.open) dialog.showModal();
}

async function drawDialog() {
  const content = await rulesView(panel, (next) => { panel = next; drawDialog(); });
  render(dialog,
    h("div", { class: "dialog-head" }, h("h2", null, t("Rules")),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("Close"), dataset: { key: "close-rules" },
        on: { click: () => dialog.close() } }, "×")),
    content);
}

/** Redraw the open rules panel (after a language switch). */
export function refreshRules() {
  if (dialog && dialog.open) drawDialog();
}

/** The "page not found" body. */
export function notFound() {
  return h("section", { class: "page narrow" }, h("h1", null, t("Page not found")),
    h("p", null, h("a", { href: "/" }, t("Back to the lobby"))));
}

/** A relative time in words ("3 min ago"). */
export function ago(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return t("just now");
  if (seconds < 3600) return t("{n} min ago", { n: Math.round(seconds / 60) });
  if (seconds < 86400) return t("{n} h ago", { n: Math.round(seconds / 3600) });
  return t("{n} days ago", { n: Math.round(seconds / 86400) });
}

const SEAT_KINDS = { you: () => t("you"), open: () => t("open"), easy: () => t("easy"), normal: () => t("normal"),
  hard: () => t("hard"), random: () => t("random moves") };

/** The seats' names in the page language: "P2 (normal)" is the server's label; a person's name stays as given. */
export function seatNames(names) {
  return (names || []).map((name) => {
    const m = /^(P\d+) \((.+)\)$/.exec(String(name));
    if (!m) return name;
    const kind = SEAT_KINDS[m[2]];
    return `${m[1]} (${kind ? kind() : t("bot")})`;
  });
}

/** A game page's end-of-game words from its table of endings, keyed by the outcome's `key` (`rule` or `reason`):
 * `reason` and `detail` functions; a resign or a timeout (`o.end`) is worded by the room's own end line. */
export function endingWords(endings, key, fallbackDetail = null) {
  const ending = (o) => (o.end ? undefined : endings[o[key]]);
  return {
    reason: (o, ctx) => (o.end ? "" : ending(o) ? ending(o).reason(o, ctx) : t("The game is over.")),
    detail: (o, ctx) => (o.end ? null : ending(o) ? ending(o).detail(o, ctx) : fallbackDetail ? fallbackDetail(o, ctx) : null),
  };
}

// The leaderboards: one per game (and per player count where a game's varies), ranked by the server's
// conservative rating among players with enough recent rated games. The signed-in player's own row is
// highlighted; a player not ranked yet sees where they stand and what it takes to be listed.
import { h, render } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./api.js";
import { accountId, current } from "./session.js";
import { errorBox, GAMES, gameTitle, playerLink, ratedPlayerCounts } from "./ui.js";

const MIN_GAMES = 10;  // the server's rule, until its answer says (``min_games``, ``days``)
const DAYS = 90;
const B = { container: null, game: null, players: 2, counts: [2], board: null, error: null };

async function start(container, params, query) {
  B.container = container;
  B.game = params[0] || GAMES[0];
  B.counts = await ratedPlayerCounts(B.game).catch(() => [2]);
  const asked = Number(query.get("players"));
  B.players = B.counts.includes(asked) ? asked : B.counts[0];
  await load();
}

async function load() {
  B.board = null;
  B.error = null;
  draw();
  try {
    B.board = await api("GET", `/api/leaderboards/${encodeURIComponent(B.game)}?players=${B.players}`);
  } catch (e) {
    B.error = e;
  }
  draw();
}

function choose(game, players) {
  const url = `/leaderboards/${encodeURIComponent(game)}` + (players ? `?players=${players}` : "");
  history.replaceState(null, "", url);
  if (game !== B.game) {
    B.game = game;
    ratedPlayerCounts(game).catch(() => [2]).then((counts) => {
      B.counts = counts;
      B.players = counts[0];
      load();
    });
    return;
  }
  B.players = players;
  load();
}

function gameTabs() {
  return h("div", { class: "tabs", role: "tablist", "aria-label": t("Game") },
    GAMES.map((g) => h("a", { href: `/leaderboards/${encodeURIComponent(g)}`, role: "tab", class: ["tab", g === B.game ? "active" : ""],
      "aria-selected": g === B.game ? "true" : "false", dataset: { key: "board-" + g },
      on: { click: (e) => { e.preventDefault(); choose(g, null); } } }, gameTitle(g))));
}

function countTabs() {
  if (B.counts.length < 2) return null;
  return h("div", { class: "segmented", role: "group", "aria-label": t("Players") },
    B.counts.map((n) => h("button", { type: "button", class: ["seg", n === B.players ? "active" : ""], dataset: { key: "players-" + n },
      "aria-pressed": n === B.players ? "true" : "false", on: { click: () => choose(B.game, n) } },
    tn("{n} player", "{n} players", n))));
}

/** Where the signed-in player stands: their rank, or why they are not listed yet. */
function mine(board) {
  const me = current();
  if (!me) {
    return h("p", { class: "muted", id: "my-rank" }, h("a", { href: `/signin?next=${encodeURIComponent(location.pathname + location.search)}` },
      t("Sign in")), " ", t("to see your own rank."));
  }
  const own = board.me;
  if (!own) return h("p", { class: "muted", id: "my-rank" }, t("You have no rated game of this kind yet."));
  if (own.rank) {
    return h("p", { class: "my-rank", id: "my-rank" },
      t("Your rank: #{rank} with {rating}", { rank: own.rank, rating: own.rating }), " · ",
      tn("{n} rated game", "{n} rated games", own.games));
  }
  const left = Math.max(0, (board.min_games || MIN_GAMES) - own.games);
  return h("p", { class: "my-rank provisional", id: "my-rank" },
    t("Your rating: {rating} (provisional)", { rating: own.rating }), " · ",
    left ? tn("You are listed after {n} more rated game.", "You are listed after {n} more rated games.", left)
      : t("You are listed again after a rated game: the list counts players who played within {days} days.",
        { days: board.days || DAYS }));
}

function table(board) {
  const entries = board.entries || [];
  const id = accountId();
  if (!entries.length) {
    return h("p", { class: "muted", id: "board-empty" },
      t("Nobody is listed yet: a player is listed after {games} rated games, the last within {days} days.",
        { games: board.min_games || MIN_GAMES, days: board.days || DAYS }));
  }
  return h("div", { class: "table-wrap" }, h("table", { class: "table board-table", id: "board" },
    h("thead", null, h("tr", null, h("th", { scope: "col", class: "num" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
      h("th", { scope: "col", class: "num" }, t("Rating")), h("th", { scope: "col", class: "num" }, t("Games")))),
    h("tbody", null, entries.map((e) => h("tr", { class: e.account === id ? "me" : "", dataset: { account: e.account },
      "aria-current": e.account === id ? "true" : null },
    h("td", { class: "num" }, String(e.rank)),
    h("td", null, playerLink(e.account, e.name), e.account === id ? h("span", { class: "tag tag-turn" }, t("you")) : null),
    h("td", { class: "num rating-cell" }, String(e.rating)),
    h("td", { class: "num" }, String(e.games)))))));
}

function draw() {
  if (!B.container) return;
  document.title = t("Leaderboards") + " · cardtable";
  const board = B.board;
  render(B.container, h("section", { class: "page narrow leaderboards" },
    h("h1", null, t("Leaderboards")),
    h("p", { class: "muted" }, t("Players ranked by a cautious rating (it rises as the rating becomes surer), among those with at least {games} rated games, the last within {days} days.",
      { games: board && board.min_games ? board.min_games : MIN_GAMES, days: board && board.days ? board.days : DAYS })),
    gameTabs(),
    countTabs(),
    errorBox(B.error),
    board ? h("section", { class: "card", "aria-label": gameTitle(B.game) }, mine(board), table(board))
      : B.error ? null : h("p", { class: "muted loading" }, t("Loading…"))));
}

export default { start, draw };

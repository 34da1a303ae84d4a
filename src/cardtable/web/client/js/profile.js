// A player's profile: their rating in each game (and player count) with its history drawn as a chart,
// their results (by seat), their recent games with the opponents and a replay link, the decks and option
// sets they play most; on one's own profile, "download my records". Names are text, never HTML.
import { download, h, render } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { api } from "./api.js";
import { ratingChart } from "./chart.js";
import { accountId } from "./session.js";
import { button, errorBox, gameCatalog, gameTitle, playerLink, seatChip, seatNames } from "./ui.js";

// drawn again when the width changes enough (a phone turned), so the chart's words keep their size
let drawnWidth = 0;
window.addEventListener("resize", () => {
  if (P.container && Math.abs(P.container.clientWidth - drawnWidth) > 40) draw();
});

const P = { container: null, id: null, profile: null, error: null, histories: {}, welcome: null, busy: false, counts: {} };

async function start(container, params, query) {
  P.container = container;
  P.id = params[0];
  const welcome = query.get("welcome");
  P.welcome = welcome !== null ? Number(welcome) || 0 : null;
  draw();
  try {
    const [profile, catalog] = await Promise.all([api("GET", `/api/players/${encodeURIComponent(P.id)}`),
      gameCatalog().catch(() => ({ games: [] }))]);
    P.profile = profile;
    for (const g of catalog.games) P.counts[g.name] = g.min_players !== g.max_players;
  } catch (e) {
    P.error = e;
  }
  draw();
  if (!P.profile) return;
  await Promise.all((P.profile.ratings || []).map(async (r) => {
    const key = `${r.game}/${r.players}`;
    try {
      const out = await api("GET", `/api/players/${encodeURIComponent(P.id)}/ratings/${encodeURIComponent(r.game)}?players=${r.players}`);
      P.histories[key] = out.points || [];
    } catch {
      P.histories[key] = [];
    }
  }));
  draw();
}

/** A game's name, with the player count where the game is played by different numbers of players. */
function gameWithPlayers(game, players) {
  return P.counts[game] ? t("{game}, {n} players", { game: gameTitle(game), n: players }) : gameTitle(game);
}

function resultWords(result) {
  return { win: t("won"), loss: t("lost"), draw: t("draw") }[result] || String(result || "—");
}

/** A bot opponent as the room names it: "P2 (random moves)" in the page language. */
function botName(o) {
  const label = /^P\d+ \(/.test(o.name) ? o.name : `P${o.seat + 1} (${o.name})`;
  return seatNames([label])[0];
}

function when(iso) {
  return iso ? new Date(iso).toLocaleDateString(language()) : "";
}

function chartWidth() {
  const card = P.container.querySelector(".rating-card");
  return card ? card.clientWidth - 36 : Math.min(760, P.container.clientWidth - 40);
}

function ratingsCard(profile) {
  const ratings = profile.ratings || [];
  return h("section", { class: "card", id: "ratings", "aria-labelledby": "ratings-title" },
    h("h2", { id: "ratings-title" }, t("Ratings")),
    ratings.length ? ratings.map((r) => {
      const key = `${r.game}/${r.players}`;
      const points = P.histories[key];
      const board = `/leaderboards/${encodeURIComponent(r.game)}?players=${r.players}`;
      return h("div", { class: "rating-card", dataset: { game: r.game, players: r.players } },
        h("div", { class: "rating-head" },
          h("span", { class: ["badge", "game-" + r.game] }, gameWithPlayers(r.game, r.players)),
          h("span", { class: "rating-value" }, String(r.rating)),
          r.provisional ? h("span", { class: "tag tag-provisional", title: t("Provisional until 10 rated games") }, t("provisional")) : null,
          r.rank ? h("a", { href: board, class: "rating-rank" }, t("#{rank} on the leaderboard", { rank: r.rank }))
            : h("a", { href: board, class: "rating-rank muted" }, t("Leaderboard")),
          h("span", { class: "muted small" }, tn("{n} rated game", "{n} rated games", r.games), " · ",
            t("μ {mu}, σ {sigma}", { mu: Number(r.mu).toFixed(1), sigma: Number(r.sigma).toFixed(1) }))),
        points === undefined ? h("p", { class: "muted small" }, t("Loading…"))
          : points.length ? h("div", { class: "chart-box" }, ratingChart(points, chartWidth())) : null);
    }) : h("p", { class: "muted" }, t("No rated game yet. Rated rooms between signed-in players change the ratings.")));
}

function statsCard(profile) {
  const stats = profile.stats || [];
  if (!stats.length) return h("section", { class: "card", id: "stats" }, h("h2", null, t("Results")), h("p", { class: "muted" }, t("No finished game yet.")));
  return h("section", { class: "card", id: "stats", "aria-labelledby": "stats-title" },
    h("h2", { id: "stats-title" }, t("Results")),
    h("div", { class: "table-wrap" }, h("table", { class: "table stats-table" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col", class: "num" }, t("Games")),
        h("th", { scope: "col", class: "num" }, t("Wins")), h("th", { scope: "col", class: "num" }, t("Draws")),
        h("th", { scope: "col", class: "num" }, t("Losses")))),
      stats.map((st) => h("tbody", { dataset: { game: st.game, players: st.players } },
        h("tr", { class: "stat-row" },
          h("th", { scope: "row" }, gameWithPlayers(st.game, st.players)),
          h("td", { class: "num" }, String(st.games)), h("td", { class: "num" }, String(st.wins)),
          h("td", { class: "num" }, String(st.draws)), h("td", { class: "num" }, String(st.losses))),
        // results by seat: who moves first matters in every game
        h("tr", { class: "seat-stats" }, h("td", { colspan: 5 }, h("span", { class: "muted small" }, t("By seat")), " ",
          (st.by_seat || []).map((b) => h("span", { class: "seat-stat" },
            seatChip(null, b.seat), " ", t("{wins} of {games} won", { wins: b.wins, games: b.games }))))))))));
}

function recentCard(profile) {
  const recent = profile.recent || [];
  return h("section", { class: "card", id: "recent", "aria-labelledby": "recent-title" },
    h("h2", { id: "recent-title" }, t("Recent games")),
    recent.length ? h("ul", { class: "recent-list" }, recent.map((g) => h("li", { class: "recent-row",
      dataset: { room: g.room, game: g.game_no } },
    h("span", { class: ["badge", "game-" + g.game] }, gameTitle(g.game)),
    h("span", { class: ["result", "result-" + g.result] }, resultWords(g.result)),
    h("span", { class: "recent-seat" }, t("as {seat}", { seat: "P" + (g.seat + 1) })),
    (g.opponents || []).length ? h("span", { class: "recent-opponents" }, t("against"), " ",
      g.opponents.map((o, k) => [k ? ", " : "", o.bot ? h("span", { class: "player-name" }, botName(o))
        : playerLink(o.account, o.name)])) : null,
    h("span", { class: "muted small" }, when(g.finished_at)),
    h("span", { class: "recent-links" },
      g.rated ? h("span", { class: "badge badge-rated" }, t("rated")) : null,
      g.replay_url ? h("a", { href: g.replay_url, class: "btn small" }, t("Watch the replay")) : null,
      g.record_url ? h("a", { href: g.record_url, class: "small", download: `cardtable-${g.room}-${g.game_no}.json` }, t("record")) : null,
      g.replay_url ? h("a", { href: `/room/${encodeURIComponent(g.room)}`, class: "small" }, t("Room")) : null))))
      : h("p", { class: "muted" }, t("No finished game yet.")));
}

function deckWords(d) {
  if (typeof d === "string") return d;
  return d.label || d.name || d.deck || d.option_set || d.set || t("custom");
}

function decksCard(profile) {
  const decks = profile.decks || [];
  if (!decks.length) return null;
  return h("section", { class: "card", id: "decks", "aria-labelledby": "decks-title" },
    h("h2", { id: "decks-title" }, t("Favourite decks and option sets")),
    h("ul", { class: "deck-list" }, decks.map((d) => h("li", null,
      d.game ? h("span", { class: ["badge", "game-" + d.game] }, gameTitle(d.game)) : null, " ",
      h("span", { class: "deck-name" }, deckWords(d)),
      d.games ? h("span", { class: "muted small" }, " · ", tn("{n} game", "{n} games", d.games)) : null))));
}

async function downloadRecords() {
  P.busy = true;
  draw();
  try {
    const response = await fetch("/api/account/records", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      throw Object.assign(new Error((data.error && data.error.message) || response.statusText),
        { code: (data.error && data.error.code) || "http_" + response.status });
    }
    const text = await response.text();
    const named = /filename="?([^";]+)"?/.exec(response.headers.get("content-disposition") || "");
    download(named ? named[1] : `cardtable-records-${P.id}.json`, text);
    P.error = null;
  } catch (e) {
    P.error = e;
  }
  P.busy = false;
  draw();
}

function draw() {
  if (!P.container) return;
  const profile = P.profile;
  if (!profile) {
    render(P.container, h("section", { class: "page profile" },
      P.error ? [h("h1", null, t("Player")), errorBox(P.error)] : h("p", { class: "muted loading" }, t("Loading…"))));
    return;
  }
  const mine = accountId() === profile.id;
  drawnWidth = P.container.clientWidth;
  document.title = profile.name + " · cardtable";
  render(P.container, h("section", { class: "page profile", dataset: { player: profile.id } },
    h("div", { class: "profile-head" },
      h("h1", { id: "player-name" }, profile.deleted ? t("deleted player") : profile.name),
      mine ? h("span", { class: "badge badge-turn" }, t("you")) : null,
      h("span", { class: "muted" }, t("playing since {date}", { date: when(profile.created_at) })),
      mine ? h("span", { class: "profile-tools" },
        button(P.busy ? t("Preparing…") : t("Download my records"), downloadRecords, { dataset: { key: "records" }, disabled: P.busy }),
        h("a", { class: "btn btn-ghost", href: "/account" }, t("Account settings"))) : null),
    mine && P.welcome !== null ? h("div", { class: "notice ok", role: "status", id: "welcome" },
      t("Welcome, {name}! Your account is ready.", { name: profile.name }), " ",
      P.welcome ? tn("{n} seat you played in this browser is now yours.", "{n} seats you played in this browser are now yours.", P.welcome)
        : null) : null,
    errorBox(P.error, () => { P.error = null; draw(); }),
    h("div", { class: "profile-grid" },
      h("div", { class: "profile-main" }, ratingsCard(profile), recentCard(profile)),
      h("div", { class: "profile-side" }, statsCard(profile), decksCard(profile)))));
}

export default { start, draw };

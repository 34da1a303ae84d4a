// The lobby's life, shown on the main lobby and on "play now": how many players are online, the public games
// being played (highest rated first) to watch, and the latest finished ones to replay (the server's /api/lobby).
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./api.js";
import { ago, gameTitle, playerLink, seatNames } from "./ui.js";
import { roomPath } from "./badge.js";

/** The lobby's life from the server, or null when it cannot be read (the life is a convenience). */
export async function loadLife() {
  try {
    return await api("GET", "/api/lobby");
  } catch {
    return null;
  }
}

// A game with no move for a day is not "being played" (its players went away), as in the lobby's room lists.
const QUIET_MS = 24 * 3600 * 1000;

/** Whether a game being played has moved within the last day (true when the server does not say). */
function lively(g) {
  return !g.updated_at || Date.now() - Date.parse(g.updated_at) < QUIET_MS;
}

/** Where a finished game of the life replays. */
export function replayPath(g) {
  return `/replay/${encodeURIComponent(g.room)}/${g.game_no}`;
}

/** A seat of a listed game: a person's name (their profile for an account), a bot's kind, or an open seat. */
function seatName(p) {
  if (p.account) return playerLink(p.account, p.name);
  if (p.status === "bot") return seatNames([`P${p.seat + 1} (${p.spec})`])[0];
  return p.status === "open" || !p.name ? t("open") : p.name;
}

function names(g) {
  const winners = new Set((g.outcome && g.outcome.winners) || []);
  return h("span", { class: "life-players" }, (g.players || []).map((p, k) => [k ? " · " : "",
    h("span", { class: ["life-seat", winners.has(p.seat) ? "won" : ""] }, seatName(p),
      winners.has(p.seat) ? h("span", { class: "life-won", title: t("won"), "aria-label": t("won") }, " ★") : null)]));
}

function row(g) {
  const done = Boolean(g.finished_at);
  return h("li", { class: ["life-row", done ? "life-finished" : "life-playing"], dataset: { room: g.room } },
    h("span", { class: "badge game-" + g.game }, gameTitle(g.game)),
    g.rated ? h("span", { class: "badge badge-rated" }, t("rated")) : null,
    names(g),
    done ? h("span", { class: "muted small" }, ago(g.finished_at)) : null,
    done ? h("a", { class: "btn small", href: replayPath(g), dataset: { key: "replay-" + g.room } }, t("Replay"))
      : h("a", { class: "btn small", href: roomPath(g.url) + "?watch=1", dataset: { key: "watch-" + g.room } }, t("Watch")));
}

/** The life as a card: the players online, the games being played and the finished ones (at most
 * `playing` and `finished` rows); `compact` lays the two lists side by side and links to "play now". */
export function lifeCard(life, { playing = 20, finished = 10, compact = false } = {}) {
  if (!life) return null;
  const live = (life.playing || []).filter(lively).slice(0, playing);
  const done = (life.finished || []).slice(0, finished);
  const online = h("p", { class: "muted", id: "online-count" },
    h("span", { class: ["presence", life.online ? "online" : ""], "aria-hidden": "true" }), " ",
    tn("{n} player online", "{n} players online", life.online || 0));
  const lists = [
    h("div", { class: "life-part" }, h("h3", null, t("Being played")),
      live.length ? h("ul", { class: "life-rows", id: "playing" }, live.map(row))
        : h("p", { class: "muted", id: "none-playing" }, t("No public games under way."))),
    h("div", { class: "life-part" }, h("h3", null, t("Recently finished")),
      done.length ? h("ul", { class: "life-rows", id: "finished" }, done.map(row))
        : h("p", { class: "muted", id: "none-finished" }, t("None yet."))),
  ];
  return h("section", { class: ["card", "life-card", compact ? "compact" : ""], id: "lobby-life", "aria-labelledby": "life-title" },
    h("div", { class: "card-head" }, h("h2", { id: "life-title" }, t("Going on now")), online),
    compact ? h("div", { class: "life-cols" }, lists) : lists,
    compact ? h("p", { class: "small life-more" }, h("a", { href: "/play" }, t("More games and play now"))) : null);
}

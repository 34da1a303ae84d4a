// The your-turn badge: how many games wait for the signed-in player's move (and unread notifications), polled
// cheaply from the server every 20 s and when the tab comes back, shown in the header and the tab's title;
// optional browser notifications (asked for only when the player switches them on).
import { api } from "./api.js";
import { t, tn } from "./i18n.js";
import { current } from "./session.js";

const POLL_MS = 20000;
const KEY = "cardtable.notify";
const B = { myTurn: 0, unread: 0, timer: null, lastNote: null, started: false };
const listeners = [];

/** The last counts: games waiting for your move, unread notifications. */
export function counts() { return { myTurn: B.myTurn, unread: B.unread }; }

/** Call fn after every poll (a page that lists games or notifications reloads then). */
export function onCounts(fn) { listeners.push(fn); }

/** Whether browser notifications are switched on (and allowed) on this device. */
export function notifying() {
  try {
    return localStorage.getItem(KEY) === "on" && "Notification" in window && Notification.permission === "granted";
  } catch {
    return false;
  }
}

/** Switch browser notifications on (asking the browser's permission now) or off; true when they are on. */
export async function setNotifying(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* not remembered */ }
  if (!on || !("Notification" in window)) return false;
  if (Notification.permission === "default") await Notification.requestPermission();
  return notifying();
}

function notify(text, url) {
  if (!notifying() || !document.hidden) return;
  try {
    const note = new Notification("cardtable", { body: text, tag: "cardtable-" + (url || "turn") });
    note.onclick = () => { window.focus(); if (url) location.href = url; };
  } catch { /* some browsers allow notifications only from a service worker */ }
}

const TITLE = /^\(\d+\) /;

/** Put the count in front of the tab's title (the page's own title stays after it). */
function titleCount() {
  const bare = document.title.replace(TITLE, "");
  const want = B.myTurn > 0 ? `(${B.myTurn}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

/** Show the counts in the header (after every header drawing) and the title. */
export function showBadge() {
  const badge = document.getElementById("my-turn-count");
  if (badge) {
    badge.textContent = String(B.myTurn);
    badge.hidden = B.myTurn === 0;
    badge.title = tn("{n} game waits for your move", "{n} games wait for your move", B.myTurn);
  }
  const unread = document.getElementById("unread-count");
  if (unread) {
    unread.textContent = String(B.unread);
    unread.hidden = B.unread === 0;
    unread.title = tn("{n} new notification", "{n} new notifications", B.unread);
  }
  titleCount();
}

async function newNotifications() {
  if (!notifying()) return;
  try {
    const out = await api("GET", `/api/account/notifications?since=${B.lastNote || 0}`);
    const fresh = (out.notifications || []).filter((n) => !n.read && (B.lastNote === null || n.id > B.lastNote));
    if (B.lastNote !== null) {
      for (const n of fresh) notify(noteWords(n), n.data && n.data.url ? roomPath(n.data.url) : "/friends");
    }
    for (const n of out.notifications || []) B.lastNote = Math.max(B.lastNote || 0, n.id);
  } catch { /* a convenience */ }
}

/** A server address of a room (``/rooms/ID``) as this client's page address. */
export function roomPath(url) { return String(url || "").replace(/^\/rooms\//, "/room/"); }

/** A notification in words (the names in it are text). */
export function noteWords(n) {
  const d = n.data || {};
  if (n.kind === "friend_request") return t("{name} asks to be your friend.", { name: d.from_name || d.name || "?" });
  if (n.kind === "friend_accepted") return t("{name} accepted your friend request.", { name: d.by_name || d.name || "?" });
  if (n.kind === "invite") return t("{name} invites you to a seat.", { name: d.from_name || "?" });
  if (n.kind === "paired") return t("A game was found for you.");
  return n.kind;
}

/** Ask the server for the counts now. */
export async function poll() {
  if (!current()) {
    B.myTurn = 0;
    B.unread = 0;
    showBadge();
    return;
  }
  try {
    const out = await api("GET", "/api/account/games/count");
    const more = out.my_turn > B.myTurn;
    const moreNotes = out.notifications > B.unread;
    B.myTurn = out.my_turn;
    B.unread = out.notifications;
    if (more && B.started) notify(tn("{n} game waits for your move", "{n} games wait for your move", B.myTurn), "/games");
    if (moreNotes) await newNotifications();
    B.started = true;
  } catch { /* the next poll tries again */ }
  showBadge();
  for (const fn of listeners) fn(counts());
}

/** Poll every 20 s and whenever the tab comes back into view; keep the title's count when a page changes it. */
export function startBadge() {
  if (B.timer) return;
  poll();
  B.timer = setInterval(poll, POLL_MS);
  window.addEventListener("focus", () => poll());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  const title = document.querySelector("title");
  if (title) new MutationObserver(() => titleCount()).observe(title, { childList: true, characterData: true, subtree: true });
}

// Talking to the server: JSON requests, its refusals as ApiError (code, message, rule), localStorage.
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, rule, status) {
    super(message);
    this.code = code;
    this.rule = rule || null;
    this.status = status || 0;
  }
}

// The signed-in account's CSRF token (from sign-up, sign-in or GET /api/account/me): every unsafe request
// sends it as X-CSRF-Token, and the session cookie goes with every request to this server.
let csrf = null;
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Remember the session's CSRF token (null after signing out). */
export function setCsrf(token) { csrf = token || null; }

/** The header an unsafe request of this page sends (for a request not made through api()). */
export function csrfHeaders() { return csrf ? { "X-CSRF-Token": csrf } : {}; }

/**
 * A JSON request; a refusal throws ApiError with the server's code, message and rule. ``options.guest``
 * sends it without the session cookie (another player on this device joins as a guest, not as this account).
 */
export async function api(method, path, body, token, options = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  if (csrf && !options.guest && UNSAFE.has(method.toUpperCase())) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: options.guest ? "omit" : "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", t("The server cannot be reached. Check the connection and try again."));
  }
  const data = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (data && typeof data.csrf === "string") csrf = data.csrf;
  if (!response.ok) {
    if (data && data.error) throw new ApiError(data.error.code, data.error.message, data.error.rule, response.status);
    if (data && Array.isArray(data.detail)) {
      const first = data.detail[0] || {};
      const where = (first.loc || []).slice(1).join(".");
      throw new ApiError("bad_request", (where ? where + ": " : "") + (first.msg || response.statusText), null,
        response.status);
    }
    throw new ApiError("http_" + response.status, response.statusText || String(response.status), null,
      response.status);
  }
  return data;
}

// -- what this browser keeps -------------------------------------------------------------------------
function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or off */ }
}

const SEATS = "cardtable.seats";

/** Every seat this browser holds: room id -> {token, seat, name, game, title, joined}. */
export function mySeats() { return read(SEATS, {}); }
export function seatOf(room) { return mySeats()[room] || null; }
export function keepSeat(room, entry) {
  const all = mySeats();
  all[room] = { ...entry, joined: entry.joined || new Date().toISOString() };
  write(SEATS, all);
}
export function forgetSeat(room) {
  const all = mySeats();
  delete all[room];
  write(SEATS, all);
}

const INVITES = "cardtable.invites";
export function inviteOf(room) { return read(INVITES, {})[room] || null; }
export function keepInvite(room, code) {
  const all = read(INVITES, {});
  all[room] = code;
  write(INVITES, all);
}

export function myName() { return read("cardtable.name", ""); }
export function keepName(name) { write("cardtable.name", name); }

export function savedDecks() { return read("cardtable.decks.zeta", []); }
export function keepDecks(list) { write("cardtable.decks.zeta", list); }
export function savedOptionSetups() { return read("cardtable.setups.utahime", []); }
export function keepOptionSetups(list) { write("cardtable.setups.utahime", list); }

export function draft(key) { return read("cardtable.draft." + key, null); }
export function keepDraft(key, value) { write("cardtable.draft." + key, value); }

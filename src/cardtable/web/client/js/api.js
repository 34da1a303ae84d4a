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

/** A JSON request; a refusal throws ApiError with the server's code, message and rule. */
export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", t("The server cannot be reached. Check the connection and try again."));
  }
  const data = await response.json().catch(() => ({}));
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

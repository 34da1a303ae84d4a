// Who is signed in (GET /api/account/me, once per page load), signing in and out, passkeys through the
// browser's WebAuthn API (the options and credentials are JSON with base64url bytes, turned into bytes
// and back here), and the claim a guest makes right after signing up: the seats this browser holds.
import { api, ApiError, mySeats, setCsrf } from "./api.js";
import { t } from "./i18n.js";

let me = null;
let loaded = null;
const listeners = [];

/** The signed-in account ``{account: {id, name, created_at}, passkeys, has_password}``, or null for a guest. */
export function current() { return me; }

/** The signed-in account's id, or null. */
export function accountId() { return me ? me.account.id : null; }

/** Call ``fn`` whenever the signed-in account changes (sign in, sign out, rename). */
export function onAccount(fn) { listeners.push(fn); }

function changed() {
  for (const fn of listeners) fn(me);
}

/** Ask the server who is signed in (a guest when it says ``not_signed_in``); the page loads it once. */
export function loadMe(again = false) {
  if (!loaded || again) {
    loaded = api("GET", "/api/account/me").then((data) => {
      me = data;
      setCsrf(data.csrf);
      return me;
    }, (e) => {
      if (e.code === "network") loaded = null;
      me = null;
      return null;
    });
  }
  return loaded;
}

/** After a sign-up or sign-in answer: keep its token and read the whole account (its passkeys). */
async function signedIn(data) {
  setCsrf(data.csrf);
  me = { account: data.account, passkeys: [], has_password: false };
  await loadMe(true);
  if (!me) me = { account: data.account, passkeys: [], has_password: false };
  changed();
  return me;
}

/** The seats this browser holds (hot-seat ones too) become the new account's; how many the server claimed. */
export async function claimSeats() {
  const tokens = new Set();
  for (const entry of Object.values(mySeats())) {
    if (entry && entry.token) tokens.add(entry.token);
    for (const other of (entry && entry.hotseat) || []) if (other.token) tokens.add(other.token);
  }
  if (!tokens.size) return 0;
  try {
    const out = await api("POST", "/api/account/claim", { tokens: [...tokens].slice(0, 500) });
    return out.claimed || 0;
  } catch {
    return 0;  // the account exists; the old games can be claimed another time
  }
}

/** Sign up with a display name and a password; the browser's seats are claimed at once. */
export async function signUp(name, password) {
  const data = await api("POST", "/api/account/signup", { name, password });
  await signedIn(data);
  return { claimed: await claimSeats() };
}

/** Sign in with a name and a password. */
export async function signIn(name, password) {
  await signedIn(await api("POST", "/api/account/signin", { name, password }));
}

/** Sign out (the session ends on the server; this browser keeps its guest seats). */
export async function signOut() {
  try {
    await api("POST", "/api/account/signout", {});
  } finally {
    me = null;
    setCsrf(null);
    loaded = Promise.resolve(null);
    changed();
  }
}

/** Change the password (the account's other sessions end). */
export async function changePassword(currentPassword, newPassword) {
  await api("POST", "/api/account/password", { current: currentPassword, new: newPassword });
  await loadMe(true);
  changed();
}

/** Delete the account: a password account confirms with its password, a passkey account with its name. */
export async function deleteAccount(proof) {
  await api("POST", "/api/account/delete", proof);
  me = null;
  setCsrf(null);
  loaded = Promise.resolve(null);
  changed();
}

/** Remove one of the account's passkeys. */
export async function removePasskey(id) {
  await api("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`);
  await loadMe(true);
  changed();
}

// -- passkeys ----------------------------------------------------------------------------------------------
/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && navigator.credentials && navigator.credentials.create);
}

/** base64url text to bytes. */
export function fromB64url(text) {
  const b64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const padded = b64 + "===".slice((b64.length + 3) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes.buffer;
}

/** Bytes to base64url text (no padding). */
export function toB64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (let i = 0; i < bytes.length; i++) raw += String.fromCharCode(bytes[i]);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(json) {
  const o = typeof json === "string" ? JSON.parse(json) : json;
  const out = { ...o, challenge: fromB64url(o.challenge), user: { ...o.user, id: fromB64url(o.user.id) } };
  if (o.excludeCredentials) out.excludeCredentials = o.excludeCredentials.map((c) => ({ ...c, id: fromB64url(c.id) }));
  return out;
}

function requestOptions(json) {
  const o = typeof json === "string" ? JSON.parse(json) : json;
  const out = { ...o, challenge: fromB64url(o.challenge) };
  if (o.allowCredentials) out.allowCredentials = o.allowCredentials.map((c) => ({ ...c, id: fromB64url(c.id) }));
  return out;
}

function credentialJson(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  }
  if (r.authenticatorData) response.authenticatorData = toB64url(r.authenticatorData);
  if (r.signature) response.signature = toB64url(r.signature);
  if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  return {
    id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response,
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: typeof cred.getClientExtensionResults === "function" ? cred.getClientExtensionResults() : {},
  };
}

/** The browser's own refusal (the person cancelled, no authenticator) as an ApiError the pages word. */
function browserRefusal(error) {
  const cancelled = error && (error.name === "NotAllowedError" || error.name === "AbortError");
  return new ApiError("passkey_failed", cancelled ? t("The passkey was not used (cancelled or timed out).")
    : t("This browser could not use a passkey."), null, 0);
}

async function makePasskey(start) {
  const begun = await api("POST", "/api/account/passkeys/register/options", start);
  let cred;
  try {
    cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
  } catch (e) {
    throw browserRefusal(e);
  }
  return { challenge_id: begun.challenge_id, credential: credentialJson(cred) };
}

/** Sign up with a passkey under a display name; the browser's seats are claimed at once. */
export async function signUpWithPasskey(name) {
  const made = await makePasskey({ name });
  const data = await api("POST", "/api/account/passkeys/register/verify", { ...made, label: deviceLabel() });
  await signedIn(data);
  return { claimed: await claimSeats() };
}

/** Add a passkey to the signed-in account. */
export async function addPasskey(label) {
  const made = await makePasskey({});
  await api("POST", "/api/account/passkeys/register/verify", { ...made, label: label || deviceLabel() });
  await loadMe(true);
  changed();
}

/** Sign in with a passkey (a discoverable credential: no name to type). */
export async function signInWithPasskey() {
  const begun = await api("POST", "/api/account/passkeys/signin/options", {});
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
  } catch (e) {
    throw browserRefusal(e);
  }
  await signedIn(await api("POST", "/api/account/passkeys/signin/verify",
    { challenge_id: begun.challenge_id, credential: credentialJson(cred) }));
}

/** A label for a new passkey: the kind of device it was made on. */
function deviceLabel() {
  const ua = navigator.userAgent || "";
  const os = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS/.test(ua) ? "macOS"
    : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
  return os ? t("Passkey on {device}", { device: os }) : t("Passkey");
}

// The page language: the catalogs the server builds from the gettext files (Babel), and t()/tn().
// Every string a page shows goes through t("English text", {params}); placeholders are {name}.

export const LANGUAGES = ["en", "ja"];
const KEY = "cardtable.lang";
let current = "en";
let catalog = { messages: {}, plurals: {} };
const listeners = [];

/** The language the browser asks for, or the one chosen with the switch. */
export function preferredLanguage() {
  const saved = safeGet(KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  const page = document.documentElement.lang;
  return LANGUAGES.includes(page) ? page : "en";
}

function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Load a language's catalog and make it the page language. */
export async function setLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const response = await fetch(`/web/i18n/${lang}`, { headers: { Accept: "application/json" } });
  catalog = response.ok ? await response.json() : { messages: {}, plurals: {} };
  current = lang;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(KEY, lang); } catch { /* private mode: not remembered */ }
  }
  for (const fn of listeners) fn(lang);
}

export function language() { return current; }
export function onLanguage(fn) { listeners.push(fn); }

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A message in the page language. */
export function t(msgid, params) {
  const found = catalog.messages[msgid] || (catalog.plurals[msgid] || [])[0];
  return fill(found || msgid, params);
}

function pluralIndex(n) {
  if (current === "ja") return 0;
  return n === 1 ? 0 : 1;
}

/** A message with a count: the singular or plural form for n ({n} is filled in too). */
export function tn(singular, plural, n, params) {
  const forms = catalog.plurals[singular];
  const all = { n, ...(params || {}) };
  if (forms && forms.length) return fill(forms[Math.min(pluralIndex(n), forms.length - 1)], all);
  return fill(n === 1 ? singular : plural, all);
}

/** A list joined the way the language joins lists. */
export function joinList(items) {
  return items.join(current === "ja" ? "、" : ", ");
}

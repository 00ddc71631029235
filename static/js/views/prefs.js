// UI preferences kept per character ("a test's settings stay as the player left them
// for that character when the page is reopened"): the last settings of each test page.
//
// They live in localStorage under their own key (PREFS_KEY), never inside the table document:
// changing a setting never saves the table, never meets the pre-save guard and never travels in
// an export. The stored text is untrusted (another tab, an older version, a hand edit): it is
// parsed defensively, bounded (MAX_ENTRIES entries of at most MAX_ENTRY_CHARS characters, the
// least recently used dropped first) and read through Maps and Object.hasOwn only. Each page
// still validates every value it takes back (an enum, a range) before using it. The
// preferences of a character that is no longer in the table are ignored (and pruned on write).

import { toStoredJson } from "../storage.js";

export const PREFS_KEY = "tablee.prefs";
const VERSION = 1;
const MAX_ENTRIES = 60;
const MAX_ENTRY_CHARS = 2000;
const MAX_TOTAL_CHARS = 60_000;

/** The stored entries as a Map "page:characterId" → plain object (empty when unreadable). */
function readAll() {
  let raw = null;
  try {
    raw = localStorage.getItem(PREFS_KEY);
  } catch {
    return new Map();
  }
  if (typeof raw !== "string" || raw.length > MAX_TOTAL_CHARS) return new Map();
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    return new Map();
  }
  const out = new Map();
  if (!data || typeof data !== "object" || data.v !== VERSION || !Array.isArray(data.entries)) return out;
  for (const item of data.entries.slice(-MAX_ENTRIES)) {
    if (!Array.isArray(item) || item.length !== 2) continue;
    const [key, value] = item;
    if (typeof key !== "string" || key.length > 200) continue;
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    out.set(key, value);
  }
  return out;
}

function writeAll(map) {
  const entries = [...map.entries()].slice(-MAX_ENTRIES);
  try {
    localStorage.setItem(PREFS_KEY, toStoredJson({ v: VERSION, entries })); // (8-bit: storage.storedJsonText)
  } catch {
    // Storage full or unavailable: a preference is a convenience, never worth an error.
  }
}

const keyOf = (page, id) => `${page}:${id}`;

/** Is `id` a character of `system` in the table (a deleted character's prefs are ignored)? */
function present(app, system, id) {
  return Array.isArray(app.doc?.characters) && app.doc.characters.some((c) => c.id === id && c.system === system);
}

/**
 * The settings saved for `page` (e.g. "unicreon.test") and character `id` of `system`, or null.
 * The caller validates each field before using it: the result is untrusted data.
 */
export function loadPrefs(app, system, page, id) {
  if (!present(app, system, id)) return null;
  const value = readAll().get(keyOf(page, id));
  return value ?? null;
}

/** Own property `key` of untrusted prefs, when it is one of `allowed` (an array), else `fallback`. */
export function pick(prefs, key, allowed, fallback) {
  if (!prefs || !Object.hasOwn(prefs, key)) return fallback;
  const v = prefs[key];
  return allowed.includes(v) ? v : fallback;
}

/** Own integer property `key` of untrusted prefs within lo..hi, else `fallback`. */
export function pickInt(prefs, key, lo, hi, fallback) {
  if (!prefs || !Object.hasOwn(prefs, key)) return fallback;
  const v = prefs[key];
  return Number.isInteger(v) && v >= lo && v <= hi ? v : fallback;
}

/** Own boolean property `key` of untrusted prefs, else `fallback`. */
export function pickBool(prefs, key, fallback) {
  if (!prefs || !Object.hasOwn(prefs, key)) return fallback;
  return typeof prefs[key] === "boolean" ? prefs[key] : fallback;
}

/**
 * Remember `values` (a small plain object of strings, numbers, booleans and short arrays of
 * them) for `page` and character `id`. Entries of characters no longer in the table are pruned.
 */
export function savePrefs(app, system, page, id, values) {
  if (!present(app, system, id)) return;
  const text = JSON.stringify(values);
  if (text.length > MAX_ENTRY_CHARS) return;
  const map = readAll();
  const key = keyOf(page, id);
  const ids = new Set((app.doc?.characters ?? []).map((c) => c.id));
  for (const k of [...map.keys()]) {
    const cid = k.slice(k.indexOf(":") + 1);
    if (!ids.has(cid)) map.delete(k);
  }
  map.delete(key); // re-inserted last: the most recently used stays
  map.set(key, JSON.parse(text));
  writeAll(map);
}

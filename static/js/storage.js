// The table document in localStorage (DESIGN.md principle 3).
//
// The shell reads it before Python boots so saved sheets render at once; once the engine
// is ready, tablee.store opens it (store.open: validation, migration, bad records set apart
// in the document's quarantine). Anything that cannot be used at all — unreadable JSON,
// another app's data, a newer schema — is copied verbatim under a backup key first, read
// back, and only then replaced; when the backup cannot be written nothing is replaced.

export const DOC_KEY = "tablee.document";
export const BACKUP_PREFIX = "tablee.backup.";
export const SCHEMA = 1;
export const LOG_LIMIT = 1000;

/** The names a new table is given, one per language (`table.default_name`): a table still
 * bearing one is shown under the name of the language on screen (never « My table » in French). */
export const DEFAULT_TABLE_NAMES = Object.freeze(["Ma table", "My table"]);

/** The table's name as shown: its own, or the default name in the current language (`defaultName`)
 * when it still bears a default one. */
export function shownTableName(name, defaultName) {
  return DEFAULT_TABLE_NAMES.includes(name) ? defaultName : name;
}

export function newDocument(name = "Ma table", language = "fr") {
  return {
    schema: SCHEMA,
    app: "tablee",
    name,
    language,
    characters: [],
    log: [],
    systems: {},
    settings: {},
  };
}

/**
 * The store's limits (tablee.store.limits, CPython-tested to be equal): the forms and the
 * pre-save check use them before the engine is up; once it is, app.limits takes the engine's
 * answer (which adds each system's published character schema).
 */
export const LIMITS = {
  document_size: 2000000,
  depth: 32,
  name: 80,
  id: 64,
  characters: 200,
  log: 1000,
  log_entry_size: 20000,
  quarantine: 2000,
};
export const SYSTEM_IDS = ["systmj", "versality", "pointzero", "theorem", "unicreon"];
/** Backups kept: at most this many, and at most this many bytes in all (storedBytes; oldest out first). */
export const MAX_BACKUPS = 8;
export const MAX_BACKUP_BYTES = 2500000;
/** What a browser gives one site's localStorage, in bytes as WebKit counts them (storedBytes):
 * measured, the longest value that fits is 5,242,308 characters in Chromium and Firefox whatever
 * the characters, and in WebKit (Safari, every iPhone) 5,242,308 bytes, where a value costs one
 * byte a character when every character is at most U+00FF and two otherwise (2,620,848
 * characters of "一"). Counted so, a value never costs less than Chromium and Firefox count it;
 * 5 M keeps a margin of 4.6 %. The Table page warns from STORAGE_WARN of it. */
export const STORAGE_QUOTA_BYTES = 5000000;
export const STORAGE_WARN = 0.7;

// ----------------------------------------------------------------------------- stored text

/** A character WebKit cannot store in one byte (above U+00FF). */
const WIDE = /[\u0100-\uffff]/; // (UTF-16 units: a surrogate pair is wide too)
const WIDE_ALL = /[\u0100-\uffff]/g;

/** What `text` costs in localStorage, in bytes as WebKit counts them: its length when every
 * character is at most U+00FF, twice its length as soon as one is not (one "’" in a table makes
 * the whole table cost 2 bytes a character). Never less than Chromium and Firefox count it. */
export function storedBytes(text) {
  if (typeof text !== "string") return 0;
  return WIDE.test(text) ? 2 * text.length : text.length;
}

/** `text` (every character at most U+00FF) as a string WebKit keeps 8-bit. WebKit counts a value
 * by how it holds it, not by its characters: JSON.stringify of a table holding a 16-bit string,
 * or `replace` on a 16-bit text, makes a 16-bit string even when every character is Latin-1
 * (measured: such a text of 3 M characters does not fit, the same characters read back by atob
 * do). atob's answer is bytes, which WebKit holds 8-bit. */
const eightBit = (text) => atob(btoa(text));

const escapeWide = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * JSON text as it is written to localStorage: each character above U+00FF written as its
 * `\uXXXX` escape, and the text made a string WebKit holds 8-bit (eightBit), so it costs one byte
 * a character on WebKit instead of two (Tablée's French puts U+202F before « ; ? ! », "’", "−" in nearly every table). Valid JSON
 * that parses back to the same value: in JSON such a character can only stand inside a string,
 * where its escape means the same (a pair of surrogates escaped one unit at a time too). Left as
 * it is when the escapes would cost more than two bytes a character (a fifth or more of the
 * characters above U+00FF: a table written in another script). `json` must be JSON text (what
 * JSON.stringify made, or text JSON.parse reads).
 */
export function storedJsonText(json) {
  if (!WIDE.test(json)) return eightBit(json);
  let wide = 0;
  for (let i = 0; i < json.length; i += 1) if (json.charCodeAt(i) > 0xff) wide += 1;
  return 5 * wide < json.length ? eightBit(json.replace(WIDE_ALL, escapeWide)) : json;
}

/** JSON.stringify(value) as localStorage keeps it (storedJsonText). Read back with JSON.parse. */
export function toStoredJson(value) {
  return storedJsonText(JSON.stringify(value));
}

/** Text read from localStorage, for a file a person downloads: a table's JSON with its characters
 * as they are again (each escape storedJsonText wrote, a pair of surrogates as the one character
 * they make; a lone surrogate stays escaped), anything that is not JSON as it is. */
export function readableText(raw) {
  if (typeof raw !== "string" || !raw.includes("\\u")) return raw;
  try {
    JSON.parse(raw); // (only JSON: there an escape stands in a string, where its character may too)
  } catch {
    return raw;
  }
  let low = false;
  return raw.replace(/\\(?:u([0-9a-fA-F]{4})|[^u])/g, (escape, hex, at) => {
    if (hex === undefined) return escape;
    const code = parseInt(hex, 16);
    if (low) {
      low = false;
      return String.fromCharCode(code);
    }
    if (code <= 0xff || (code >= 0xdc00 && code <= 0xdfff)) return escape;
    if (code >= 0xd800 && code <= 0xdbff) {
      if (!/^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(raw.slice(at + 6, at + 12))) return escape;
      low = true;
    }
    return String.fromCharCode(code);
  });
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** The kernel's own checks of a schema-1 document, without Python (see app.checkCandidate for
 * the full pre-save check): true when the shell may render it before the engine validates it. */
export function renderable(doc) {
  if (!isObject(doc) || doc.app !== "tablee" || doc.schema !== SCHEMA) return false;
  if (typeof doc.name !== "string" || !Array.isArray(doc.characters) || !Array.isArray(doc.log)) return false;
  if (!isObject(doc.systems) || !isObject(doc.settings)) return false;
  if (doc.quarantine !== undefined && !Array.isArray(doc.quarantine)) return false;
  const ids = new Set();
  for (const c of doc.characters) {
    if (!isObject(c) || typeof c.id !== "string" || typeof c.name !== "string" || !SYSTEM_IDS.includes(c.system)) return false;
    if (ids.has(c.id)) return false;
    ids.add(c.id);
  }
  return doc.log.every(isObject);
}

/**
 * Read the saved document without Python.
 * Returns {doc, status, raw}: status is "empty", "ok" (current schema and sound enough to
 * render at once; the engine re-validates it), "needs-engine" (an older layout, or a current
 * one with a record the engine must set apart first: nothing is written until it answered) or
 * "unusable" (unreadable, foreign or newer: boot sets it aside, backup first).
 * Nothing here writes.
 */
export function readSaved(storage = window.localStorage) {
  let raw;
  try {
    raw = storage.getItem(DOC_KEY);
  } catch {
    return { doc: newDocument(), status: "no-storage", raw: null };
  }
  if (raw === null) return { doc: newDocument(), status: "empty", raw };
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { doc: newDocument(), status: "unusable", reason: "corrupt", raw };
  }
  if (isObject(parsed)) {
    if (parsed.app === "tablee" && parsed.schema === SCHEMA && renderable(parsed)) return { doc: parsed, status: "ok", raw };
    if (parsed.app === "tablee" && Number.isInteger(parsed.schema) && parsed.schema > SCHEMA) {
      return { doc: newDocument(), status: "unusable", reason: "newer", raw };
    }
    // Older layouts (schema 0 had no "app" key) and anything else: the engine decides.
    return { doc: null, status: "needs-engine", raw, parsed };
  }
  return { doc: newDocument(), status: "unusable", reason: "foreign", raw };
}

/** The saved document as current-schema data, or null (nothing saved, unreadable, older...). */
export function parseCurrent(raw) {
  if (typeof raw !== "string") return null;
  try {
    const parsed = JSON.parse(raw);
    return renderable(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function backupKeys(storage) {
  const keys = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key && key.startsWith(BACKUP_PREFIX)) keys.push(key);
  }
  return keys.sort();
}

/**
 * Drop the oldest backups until at most MAX_BACKUPS remain and they take at most
 * MAX_BACKUP_BYTES (storedBytes), never the one to keep (the backup just written: the only copy
 * of a table). `room`: bytes about to be written.
 */
export function pruneBackups(keep, storage = window.localStorage, { room = 0 } = {}) {
  const keys = backupKeys(storage).filter((k) => k !== keep);
  const size = (k) => storedBytes(storage.getItem(k) ?? "");
  let count = keys.length + (keep ? 1 : 0);
  let total = keys.reduce((s, k) => s + size(k), 0) + (keep ? size(keep) : 0) + room;
  const removed = [];
  for (const key of keys) {
    if (count <= MAX_BACKUPS && total <= MAX_BACKUP_BYTES) break;
    total -= size(key);
    count -= 1;
    storage.removeItem(key);
    removed.push(key);
  }
  return removed;
}

function tryWrite(key, raw, storage) {
  try {
    storage.setItem(key, raw);
    if (storage.getItem(key) === raw) return true;
  } catch {
    // quota: handled by the caller
  }
  try {
    storage.removeItem(key);
  } catch {
    // nothing more to do
  }
  return false;
}

/**
 * Keep raw text under a new backup key, then read it back. Returns the key, or null when the
 * backup could not be written whole (storage full even after pruning old backups): the caller
 * must then replace nothing. JSON text is kept as storedJsonText writes it (the same value, 8-bit:
 * a table saved by a version before, with its "’" as they are, costs half on WebKit); anything
 * else as it is, character for character.
 */
export function backup(raw, storage = window.localStorage) {
  let key = `${BACKUP_PREFIX}${new Date().toISOString()}`;
  for (let n = 2; storage.getItem(key) !== null; n += 1) key = `${BACKUP_PREFIX}${new Date().toISOString()}-${n}`;
  raw = asStored(raw);
  if (!tryWrite(key, raw, storage)) {
    pruneBackups(null, storage, { room: storedBytes(raw) });
    shrinkSaved(storage);
    if (!tryWrite(key, raw, storage)) return null;
  }
  pruneBackups(key, storage);
  return key;
}

/** `raw` as a backup keeps it: storedJsonText when it is JSON, else as it is. */
function asStored(raw) {
  if (typeof raw !== "string") return raw;
  if (!WIDE.test(raw)) return eightBit(raw);
  try {
    JSON.parse(raw);
  } catch {
    return raw; // (not JSON: an escape there could mean something else)
  }
  return storedJsonText(raw);
}

/** Which table text a revision describes (save-queue.js's revision chain): a 32-bit FNV-1a of
 * the text, and its length. The last text hashed is remembered: a write reads the saved text back
 * and compares it with the revision two or three times, each a pass over the whole table, where
 * one comparison of equal strings is enough. */
let hashed = { text: null, hash: null };
export function textHash(text) {
  if (text === hashed.text) return hashed.hash;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  hashed = { text, hash: `${(h >>> 0).toString(36)}:${text.length}` };
  return hashed.hash;
}

/** The saved table's revision (save-queue.js). */
export const REV_KEY = `${DOC_KEY}.rev`;

/**
 * The saved table written again as storedJsonText writes it, when a version before wrote it with
 * its characters above U+00FF as they are (twice the bytes on WebKit): the same value, so its
 * revision stays, its hash now of the new text. Made when a backup does not fit (an import on a
 * phone whose large table was saved before): the room it frees may be what the backup needs.
 * Changes nothing when the table is not JSON or already 8-bit, or when anything fails.
 */
function shrinkSaved(storage) {
  try {
    const saved = storage.getItem(DOC_KEY);
    if (typeof saved !== "string" || !WIDE.test(saved)) return;
    JSON.parse(saved);
    const stored = storedJsonText(saved);
    if (stored === saved) return;
    const rawRev = storage.getItem(REV_KEY);
    const rev = rawRev === null ? null : JSON.parse(rawRev);
    storage.setItem(DOC_KEY, stored); // (smaller than what it replaces: it fits)
    if (storage.getItem(DOC_KEY) !== stored) {
      storage.setItem(DOC_KEY, saved);
      return;
    }
    if (isObject(rev) && rev.hash === textHash(saved)) storage.setItem(REV_KEY, JSON.stringify({ ...rev, hash: textHash(stored) }));
  } catch {
    // not JSON, or storage refused: the saved table stays as it was
  }
}

export function listBackups(storage = window.localStorage) {
  return backupKeys(storage).reverse();
}

/** Bytes used by this site's localStorage (keys and values, storedBytes: as WebKit counts them,
 * never less than Chromium and Firefox do) and an estimate of what is left. */
export function storageUsage(storage = window.localStorage) {
  let used = 0;
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key === null) continue;
    used += storedBytes(key) + storedBytes(storage.getItem(key) ?? "");
  }
  return { used, quota: STORAGE_QUOTA_BYTES, left: Math.max(0, STORAGE_QUOTA_BYTES - used), warn: used >= STORAGE_WARN * STORAGE_QUOTA_BYTES };
}

/** What takes the room in this site's storage, in bytes (keys and values, as storageUsage counts
 * them): `table` (the table and its revision), `backups`, `live` (the live
 * table this device follows: its session, and a player's copy of the shared state), `undo` (the
 * undo history) and `other` (the rest: settings, the reminder's dates). */
export const STORAGE_PARTS = ["table", "backups", "live", "undo", "other"];
export function storageParts(storage = window.localStorage) {
  const parts = Object.fromEntries(STORAGE_PARTS.map((p) => [p, 0]));
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key === null) continue;
    const size = storedBytes(key) + storedBytes(storage.getItem(key) ?? "");
    const part = key === DOC_KEY || key.startsWith(`${DOC_KEY}.`) ? "table"
      : key.startsWith(BACKUP_PREFIX) ? "backups"
        : key === "tablee.live" || key.startsWith("tablee.live.") ? "live"
          : key === "tablee.undo" ? "undo" : "other";
    parts[part] += size;
  }
  return parts;
}

/** Save the document and read it back; returns the saved text (toStoredJson: what the revision
 * chain hashes and other tabs receive). Throws when it was not saved. The time of the change is
 * noted beside it (noteChange), never inside the table. */
export function save(doc, storage = window.localStorage) {
  const raw = toStoredJson(doc);
  storage.setItem(DOC_KEY, raw);
  if (storage.getItem(DOC_KEY) !== raw) throw new Error("read-back");
  noteChange(storage);
  return raw;
}

// ----------------------------------------------------------------------------- keeping

/**
 * When this device's table last changed and was last exported (views/keep.js reminds a table
 * with changes not exported for a week), under its own key: never in the table document (an
 * export would change what it records, and the time of an export is this device's, not the
 * table's). {v, changed, since, exported, reminded}, each an ISO instant or null: `changed` the
 * last save (noted at most once a minute), `since` the first save after the last export (null
 * when everything saved was exported), `exported` the last export, `reminded` when the
 * reminder was last shown. The stored text is untrusted (a hand edit, another version): a
 * field that is not a readable date reads as null.
 */
export const KEEP_KEY = "tablee.keep";
const KEEP_FIELDS = ["changed", "since", "exported", "reminded"];
/** A change is noted again only this long after the last one noted (one small write a minute). */
const CHANGE_NOTE_MS = 60_000;

export function readKeep(storage = window.localStorage) {
  const out = { changed: null, since: null, exported: null, reminded: null };
  let data = null;
  try {
    const raw = storage.getItem(KEEP_KEY);
    data = typeof raw === "string" && raw.length < 1000 ? JSON.parse(raw) : null;
  } catch {
    data = null;
  }
  if (!isObject(data)) return out;
  for (const field of KEEP_FIELDS) {
    const value = data[field];
    if (typeof value === "string" && !Number.isNaN(new Date(value).getTime())) out[field] = value;
  }
  return out;
}

function writeKeep(record, storage) {
  try {
    storage.setItem(KEEP_KEY, toStoredJson({ v: 1, ...record }));
  } catch {
    // storage full: the table matters more than the reminder's bookkeeping
  }
}

/** The table was saved now: the last change, and the first one since the last export. */
export function noteChange(storage = window.localStorage, now = new Date()) {
  const record = readKeep(storage);
  const last = record.changed ? new Date(record.changed).getTime() : null;
  if (record.since && last !== null && now.getTime() - last < CHANGE_NOTE_MS && now.getTime() >= last) return;
  writeKeep({ ...record, changed: now.toISOString(), since: record.since ?? now.toISOString() }, storage);
}

/** The table as saved now is in a file (an export, or the file just imported). */
export function noteExport(storage = window.localStorage, now = new Date()) {
  writeKeep({ ...readKeep(storage), exported: now.toISOString(), since: null }, storage);
}

/** The reminder to export was shown now. */
export function noteReminded(storage = window.localStorage, now = new Date()) {
  writeKeep({ ...readKeep(storage), reminded: now.toISOString() }, storage);
}

export function downloadJson(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  downloadBlob(filename, blob);
}

/** Every file the app downloads: the page confirms it (app.js listens to this event). */
export const DOWNLOAD_EVENT = "tablee:download";

export function downloadBlob(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  window.dispatchEvent(new CustomEvent(DOWNLOAD_EVENT, { detail: { filename } }));
}

/** A name as a part of a file name: its letters without their accents ("Soirée Théorem" ->
 * "Soiree-Theorem": NFD splits a letter from its marks, which go; "Œ" has none and stays),
 * every run of anything but letters, digits, "_" and "-" one "-", at most 40 characters; `fallback` when none is left. */
export function fileNamePart(name, fallback = "table") {
  const plain = String(name ?? "").normalize("NFD").replace(/\p{M}+/gu, "");
  return plain.replace(/[^\p{L}\p{N}_-]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "") || fallback;
}

const pad2 = (n) => String(n).padStart(2, "0");

/** Today's local date as YYYY-MM-DD (for file names: the person's day, not UTC's). */
export function todayStamp(date = new Date()) {
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

/** A local date and time for a file name: "2026-11-22_21h47". */
export function fileStamp(date = new Date()) {
  return `${todayStamp(date)}_${pad2(date.getHours())}h${pad2(date.getMinutes())}`;
}

/** When a backup was written: its key holds the UTC instant (ISO, maybe with a "-n" suffix
 * when two were written in the same millisecond). null for a key of another shape. */
export function backupDate(key) {
  if (typeof key !== "string" || !key.startsWith(BACKUP_PREFIX)) return null;
  const date = new Date(key.slice(BACKUP_PREFIX.length).replace(/Z-\d+$/, "Z"));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The last roll of a log entry list, as short plain text ("Alice · 3d6 = 7", "Opposition →
 * Garde l'emporte (11 — 55)": a total after "=", a sentence after "→", its full stop dropped
 * before the figures in brackets), or null. */
export function lastRollText(log) {
  if (!Array.isArray(log) || !log.length) return null;
  const e = log.at(-1);
  if (!isObject(e)) return null;
  const who = typeof e.who === "string" && e.who ? `${e.who} · ` : "";
  const label = typeof e.label === "string" ? e.label : "";
  const r = isObject(e.result) ? e.result : {};
  const summary = typeof r.summary === "string" ? r.summary.trim().replace(/\.(?=\s*\()/, "").replace(/\.$/, "") : "";
  const outcome = typeof r.total === "number" ? ` = ${r.total}` : summary ? ` → ${summary}` : "";
  const text = `${who}${label}${outcome}`;
  return Array.from(text).length > 80 ? `${Array.from(text).slice(0, 79).join("")}…` : text;
}

/**
 * What a table holds, read without Python (for the home page and the backup list):
 * {name, characters, bySystem: Map(system -> count), logCount, lastRoll, at} or null when the
 * text is not a Tablée table. `at` is the last log entry's time (ISO) or null.
 */
export function tableSummary(docOrRaw) {
  let doc = docOrRaw;
  if (typeof docOrRaw === "string") {
    try {
      doc = JSON.parse(docOrRaw);
    } catch {
      return null;
    }
  }
  if (!isObject(doc) || doc.app !== "tablee" || typeof doc.name !== "string") return null;
  const characters = Array.isArray(doc.characters) ? doc.characters.filter(isObject) : [];
  const bySystem = new Map(SYSTEM_IDS.map((id) => [id, 0]));
  for (const c of characters) if (bySystem.has(c.system)) bySystem.set(c.system, bySystem.get(c.system) + 1);
  const log = Array.isArray(doc.log) ? doc.log : [];
  const last = log.at(-1);
  return {
    name: doc.name,
    characters: characters.length,
    bySystem,
    logCount: log.length,
    lastRoll: lastRollText(log),
    at: isObject(last) && typeof last.at === "string" ? last.at : null,
  };
}

const summaries = new Map();
/** tableSummary of a backup's text, remembered per key and text length (a backup never changes). */
export function backupSummary(key, storage = window.localStorage) {
  const raw = storage.getItem(key) ?? "";
  const memo = summaries.get(key);
  if (memo && memo.length === raw.length) return memo.summary;
  const summary = tableSummary(raw);
  summaries.set(key, { length: raw.length, summary });
  return summary;
}

/** A fresh random seed JavaScript can hold exactly (< 2**53), from the platform CSPRNG. */
export function newSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

export function newId(prefix = "id") {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return `${prefix}-${words[0].toString(36)}${words[1].toString(36)}`;
}

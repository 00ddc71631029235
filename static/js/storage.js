// The table document in localStorage (DESIGN.md principle 3).
//
// The shell reads it before Python boots so saved sheets render at once; once the engine
// is ready, tablee.store validates and migrates it (store.load). Anything that cannot be
// used as is — unreadable JSON, another app's data, a newer schema, an invalid document —
// is copied verbatim under a backup key first, and the user is told: saved data is never
// lost or silently overwritten.

export const DOC_KEY = "tablee.document";
export const BACKUP_PREFIX = "tablee.backup.";
export const SCHEMA = 1;
export const LOG_LIMIT = 1000;

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
 * Read the saved document without Python.
 * Returns {doc, status, raw}: status is "empty", "ok" (current schema, to be re-validated by
 * the engine), "needs-engine" (an older layout the engine must migrate) or "unusable"
 * (unreadable or foreign or newer: a backup was made and a fresh document is used).
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
    return { doc: newDocument(), status: "unusable", reason: "corrupt", raw, backup: backup(raw, storage) };
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    if (parsed.app === "tablee" && parsed.schema === SCHEMA) return { doc: parsed, status: "ok", raw };
    if (parsed.app === "tablee" && Number.isInteger(parsed.schema) && parsed.schema > SCHEMA) {
      return { doc: newDocument(), status: "unusable", reason: "newer", raw, backup: backup(raw, storage) };
    }
    // Older layouts (schema 0 had no "app" key) and anything else: the engine decides.
    return { doc: null, status: "needs-engine", raw, parsed };
  }
  return { doc: newDocument(), status: "unusable", reason: "foreign", raw, backup: backup(raw, storage) };
}

/** Keep raw text under a new backup key; returns the key (or null if storage is full). */
export function backup(raw, storage = window.localStorage) {
  const key = `${BACKUP_PREFIX}${new Date().toISOString()}`;
  try {
    storage.setItem(key, raw);
    return key;
  } catch {
    return null;
  }
}

export function listBackups(storage = window.localStorage) {
  const keys = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key && key.startsWith(BACKUP_PREFIX)) keys.push(key);
  }
  return keys.sort().reverse();
}

/** Save the document; throws a QuotaExceededError-like error for the caller to report. */
export function save(doc, storage = window.localStorage) {
  storage.setItem(DOC_KEY, JSON.stringify(doc));
}

export function downloadJson(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  downloadBlob(filename, blob);
}

export function downloadBlob(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function todayStamp() {
  return new Date().toISOString().slice(0, 10);
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

// Undo and redo for the table: each change is kept as its difference (the values it replaced
// and the values it wrote, path by path), never as a copy of the table. Pure functions, no
// DOM and no storage access except through the `storage` argument: tested directly in Node
// (tests/test_undo.py, Hypothesis); only the undo notice's two helpers at the end touch the
// elements they are given.
//
// A path is a list of steps from the document's root: a string is an object's key, {id} is the
// element of an array of records (objects with a unique string `id`, e.g. the characters) with
// that id, so a change to one character stays a change to that character whatever was added
// or deleted before it in the list. A change is {p: path, b: value before, a: value after,
// i: index} where a missing `b` (`a`) means the key or record did not exist before (after), and
// `i` is the record's index when it was added or deleted (where an undo puts it back).
// The log is not part of what is undone: it is the table's history, and an undo adds its
// own entry saying what was undone.

import { toStoredJson } from "./storage.js";

export const HISTORY_KEY = "tablee.undo";
/** Changes kept to undo (and undone, to redo): at most this many each. */
export const HISTORY_ENTRIES = 30;
/** At most this many characters of history, as JSON (stored 8-bit, storage.toStoredJson: about as
 * many bytes; the table itself may take 2,000,000 characters and its backups 2,500,000 bytes of
 * the 5,000,000 bytes the site's storage is counted in). */
export const HISTORY_CHARS = 300000;
/** Top-level keys a change's difference ignores. */
const NOT_UNDONE = new Set(["log"]);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/** The ids of an array of records, or null when it is not one (then it changes as a whole). */
function recordIds(list) {
  const ids = [];
  const seen = new Set();
  for (const x of list) {
    if (!isObject(x) || typeof x.id !== "string" || seen.has(x.id)) return null;
    seen.add(x.id);
    ids.push(x.id);
  }
  return ids;
}

const clone = (v) => (v === undefined ? undefined : structuredClone(v));

function change(path, before, after, index) {
  const c = { p: path };
  if (before !== undefined) c.b = clone(before);
  if (after !== undefined) c.a = clone(after);
  if (index !== undefined) c.i = index;
  return c;
}

function diffInto(before, after, path, out) {
  // Each value is compared once: objects and arrays of records are walked, not compared whole
  // first (a 2 MB table would be compared again at every level).
  if (before === after) return;
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) {
      if (!path.length && NOT_UNDONE.has(key)) continue;
      if (!Object.hasOwn(after, key)) out.push(change([...path, key], before[key], undefined));
      else diffInto(before[key], after[key], [...path, key], out);
    }
    for (const key of Object.keys(after)) {
      if (!path.length && NOT_UNDONE.has(key)) continue;
      if (!Object.hasOwn(before, key)) out.push(change([...path, key], undefined, after[key]));
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const idsBefore = recordIds(before);
    const idsAfter = recordIds(after);
    if (idsBefore && idsAfter) {
      const kept = new Set(idsAfter);
      const had = new Set(idsBefore);
      const order = (ids, other) => ids.filter((id) => other.has(id));
      // Records kept in the same order: a change per record (deletions first, from the last,
      // so each index is where the record stood; additions after, from the first).
      if (equal(order(idsBefore, kept), order(idsAfter, had))) {
        for (let i = before.length - 1; i >= 0; i -= 1) {
          if (!kept.has(idsBefore[i])) out.push(change([...path, { id: idsBefore[i] }], before[i], undefined, i));
        }
        const byId = new Map(before.map((x) => [x.id, x]));
        for (let i = 0; i < after.length; i += 1) {
          const id = idsAfter[i];
          if (!had.has(id)) out.push(change([...path, { id }], undefined, after[i], i));
          else diffInto(byId.get(id), after[i], [...path, { id }], out);
        }
        return;
      }
    }
  }
  if (!equal(before, after)) out.push(change(path, before, after));
}

/** The difference from `before` to `after` (two table documents): a list of changes. */
export function diff(before, after) {
  const out = [];
  diffInto(before, after, [], out);
  return out;
}

/** The container holding the last step of `path` in `doc`, or undefined when it is gone. */
function parentOf(doc, path) {
  let node = doc;
  for (const step of path.slice(0, -1)) {
    node = read(node, step);
    if (node === undefined || node === null || typeof node !== "object") return undefined;
  }
  return node;
}

function read(node, step) {
  if (typeof step === "string") return isObject(node) && Object.hasOwn(node, step) ? node[step] : undefined;
  return Array.isArray(node) ? node.find((x) => isObject(x) && x.id === step.id) : undefined;
}

/** The value at `path` in `doc` (undefined: absent). */
export function valueAt(doc, path) {
  if (!path.length) return doc;
  const parent = parentOf(doc, path);
  return parent === undefined ? undefined : read(parent, path[path.length - 1]);
}

function write(doc, path, value, index) {
  const parent = parentOf(doc, path);
  const step = path[path.length - 1];
  if (typeof step === "string") {
    if (value === undefined) delete parent[step];
    else parent[step] = clone(value);
    return;
  }
  const at = parent.findIndex((x) => isObject(x) && x.id === step.id);
  if (value === undefined) {
    if (at >= 0) parent.splice(at, 1);
  } else if (at >= 0) {
    parent[at] = clone(value);
  } else {
    parent.splice(Math.min(index ?? parent.length, parent.length), 0, clone(value));
  }
}

const sideOf = (c, key) => (Object.hasOwn(c, key) ? c[key] : undefined);

/**
 * The changes of `changes` whose path no longer holds what the change left there (for an undo,
 * its `a`; for a redo, its `b`): the table changed there since. Empty: it may be applied.
 */
export function conflicts(doc, changes, direction) {
  const expected = direction === "undo" ? "a" : "b";
  return changes.filter((c) => {
    if (c.p.length && parentOf(doc, c.p) === undefined) return true;
    return !equal(valueAt(doc, c.p), sideOf(c, expected));
  });
}

/**
 * Apply `changes` to `doc` in place: "undo" writes back each value before (last change
 * first), "redo" each value after. Only the paths the changes touched are written; the caller
 * checks conflicts() first. Returns `doc`.
 */
export function apply(doc, changes, direction) {
  const list = direction === "undo" ? [...changes].reverse() : changes;
  const side = direction === "undo" ? "b" : "a";
  for (const c of list) write(doc, c.p, sideOf(c, side), c.i);
  return doc;
}

/**
 * What a change did, for its label: {key, params} (the i18n key under undo.label and its
 * parameters). The first character added, deleted or changed names it; otherwise the system
 * whose table state changed, the table's name, its language or its settings.
 */
export function describe(changes, before, after) {
  for (const c of changes) {
    if (c.p[0] === "characters" && c.p.length >= 2 && typeof c.p[1] === "object") {
      const id = c.p[1].id;
      const character = valueAt(after, ["characters", { id }]) ?? valueAt(before, ["characters", { id }]);
      const name = typeof character?.name === "string" ? character.name : "";
      if (c.p.length === 2 && !Object.hasOwn(c, "a")) return { key: "deleted", params: { name } };
      if (c.p.length === 2 && !Object.hasOwn(c, "b")) return { key: "added", params: { name } };
      return { key: "character", params: { name } };
    }
  }
  const first = changes[0]?.p ?? [];
  if (first[0] === "systems" && typeof first[1] === "string") return { key: "system", params: { system: first[1] } };
  if (first[0] === "name") return { key: "name", params: {} };
  if (first[0] === "language") return { key: "language", params: {} };
  if (first[0] === "quarantine") return { key: "quarantine", params: {} };
  return { key: "other", params: {} };
}

/** The history kept: {undo: [entry], redo: [entry]}, the newest last; an entry is
 * {id, at, label: {key, params}, changes}. */
export function readHistory(storage) {
  try {
    const h = JSON.parse(storage.getItem(HISTORY_KEY));
    if (isObject(h) && Array.isArray(h.undo) && Array.isArray(h.redo)) return { undo: h.undo, redo: h.redo };
  } catch {
    // unreadable: start again
  }
  return { undo: [], redo: [] };
}

/** The history bounded (HISTORY_ENTRIES each, HISTORY_CHARS in all, the oldest out first). */
export function bound(history) {
  const undo = history.undo.slice(-HISTORY_ENTRIES);
  const redo = history.redo.slice(-HISTORY_ENTRIES);
  let size = JSON.stringify({ undo, redo }).length;
  while (size > HISTORY_CHARS && (undo.length || redo.length)) {
    const from = undo.length ? undo : redo;
    size -= JSON.stringify(from.shift()).length + 1;
  }
  return { undo, redo };
}

/** Write the history (bounded); false when the store refused it (the table matters more). */
export function writeHistory(storage, history) {
  try {
    storage.setItem(HISTORY_KEY, toStoredJson(bound(history)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Record one change made under the write lock: a new change joins the undo list and empties
 * the redo list; an undo moves its entry to the redo list, a redo back to the undo list.
 * `kind` is "change", "undo" or "redo". `label` ({key, params}: a whole i18n key, e.g. a
 * system's "systmj.change.round_reveal") is what the page that made the change says it was; the
 * entry keeps describe()'s label beside it as `base`, shown when that key has no text here.
 * Returns the entry recorded (null: nothing changed).
 */
export function record(history, kind, { entry = null, before, after, id, at, label = null }) {
  if (kind === "undo" || kind === "redo") {
    const [from, to] = kind === "undo" ? [history.undo, history.redo] : [history.redo, history.undo];
    const i = from.findIndex((e) => e.id === entry.id);
    if (i >= 0) from.splice(i, 1);
    to.push(entry);
    return entry;
  }
  const changes = diff(before, after);
  if (!changes.length) return null;
  const base = describe(changes, before, after);
  const made = { id, at, label: label ? { key: label.key, params: label.params ?? {}, base } : base, changes };
  history.undo.push(made);
  history.redo.length = 0;
  return made;
}

// ------------------------------------------------------------------ the undo notice
// The notice that offers « Annuler » after a change is fixed to the bottom of the screen (CSS
// `.undo-toast`, above the safe area), so it is in reach right where the change was made, however
// far down a page: it must not hide the control that made the change nor any other button, and a
// keyboard must reach it from where the focus is.

/** The enabled buttons of the page a fixed notice could cover (not its own). */
function enabledButtons(bar, doc) {
  return [...doc.querySelectorAll("button, [role=button], input[type=button], input[type=submit], summary")]
    .filter((el) => !bar.contains(el) && !el.disabled && el.getAttribute("aria-disabled") !== "true" && el.getClientRects().length);
}

/** Room kept between the notice and what it stays clear of (px). */
const CLEAR_GAP = 6;

/**
 * Keep every enabled button, and the focused control, clear of the fixed notice `bar`, measured
 * from the boxes (a page's main button half under « Tour 1 révélé. Annuler ✕ » could not be
 * pressed). The notice moves, not the page: it rises from the bottom of the screen to the lowest
 * band of the screen that holds none of them (a new sheet keeps its top in view, a result keeps
 * its place). Only when no such band exists is the page scrolled, by the least amount that clears
 * them (the page keeps room to scroll past its end while the notice is shown: CSS, `main`'s
 * padding). Returns {raised, scrolled} in px.
 */
export function keepButtonsClear(bar, win = globalThis.window) {
  if (!bar || !win?.document) return { raised: 0, scrolled: 0 };
  bar.style.bottom = "";
  const home = bar.getBoundingClientRect();
  if (home.height === 0) return { raised: 0, scrolled: 0 };
  const doc = win.document;
  const view = win.innerHeight;
  const beside = (r) => r.width > 0 && r.height > 0 && r.right > home.left && r.left < home.right;
  const boxes = enabledButtons(bar, doc).map((el) => el.getBoundingClientRect()).filter(beside);
  const active = doc.activeElement && doc.activeElement !== doc.body && !bar.contains(doc.activeElement) ? doc.activeElement.getBoundingClientRect() : null;
  // (a region taller than the room above the notice, such as the page's main, binds nothing)
  const focused = active && beside(active) && active.height <= view - home.height - 4 * CLEAR_GAP ? active : null;
  const obstacles = focused ? [...boxes, focused] : boxes;
  const hits = (top, bottom, d = 0) => obstacles.filter((r) => r.top - d < bottom && r.bottom - d > top).length;
  if (!hits(home.top, home.bottom)) return { raised: 0, scrolled: 0 };
  // The lowest band of the screen, as tall as the notice, that holds no button: just above one.
  const bands = obstacles.map((r) => r.top - CLEAR_GAP)
    .filter((bottom) => bottom <= home.bottom && bottom - home.height >= CLEAR_GAP && !hits(bottom - home.height, bottom))
    .sort((a, b) => b - a);
  if (bands.length) {
    const raised = Math.round(home.bottom - bands[0]);
    bar.style.bottom = `calc(${raised}px + 0.5rem + env(safe-area-inset-bottom, 0px))`;
    return { raised, scrolled: 0 };
  }
  const scroller = doc.scrollingElement ?? doc.documentElement;
  const y = win.scrollY;
  const most = Math.max(0, scroller.scrollHeight - view);
  const candidates = new Set();
  for (const r of obstacles) {
    candidates.add(Math.ceil(r.bottom + CLEAR_GAP - home.top));
    candidates.add(Math.floor(r.top - home.bottom));
  }
  const focusKept = (d) => !focused || (focused.top - d >= 0 && focused.bottom - d <= home.top);
  const allowed = [...candidates].filter((d) => y + d >= 0 && y + d <= most).sort((a, b) => Math.abs(a) - Math.abs(b));
  const best = allowed.find((d) => !hits(home.top, home.bottom, d) && focusKept(d)) ?? allowed.find((d) => !hits(home.top, home.bottom, d));
  if (best === undefined || best === 0) return { raised: 0, scrolled: 0 };
  win.scrollBy({ top: best, behavior: "instant" });
  return { raised: 0, scrolled: best };
}

/** Whether a key press is the undo shortcut (Ctrl+Z, ⌘Z on a Mac) made outside a text field,
 * where it belongs to the field's own undo. */
export function isUndoKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false;
  if (String(event.key).toLowerCase() !== "z") return false;
  const target = event.target;
  return !(target?.closest?.("input, textarea, select, [contenteditable]:not([contenteditable=false])"));
}

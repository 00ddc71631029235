// The live table: the mapping between a JSON document (the table document of
// docs/ARCHITECTURE.md, or any JSON object) and a Y.Doc, so Yjs can replicate it.
//
// Shape of the Y content, under the root map `ydoc.getMap(ROOT)`:
// - a JSON object is a Y.Map, key for key (keys are any strings, `__proto__` included: Y.Map
//   keeps them in a Map, and readJson builds objects with Object.fromEntries, never by
//   assignment);
// - a scalar (string, number, boolean, null) is a plain value in its parent: last writer wins
//   per field, and Yjs resolves concurrent sets of one field to the same value everywhere (the
//   overwritten value is not kept here: the app's history/backups keep it);
// - a JSON array is a Y.Array whose first element is its kind marker, never removed:
//   - KEYED (created for an array whose items are all objects with unique string `id`s, and for
//     an empty array): characters, the log, card piles... writeJson matches the records by id,
//     so a record is edited in place (its Y.Map kept), a new record is inserted where it goes
//     and a removed one deleted: two devices adding different records, or editing different
//     records or different fields of one record, never lose either, and the order is the
//     array's. If two devices insert the same id concurrently (a record moved on both), the
//     reader keeps the first occurrence, so every replica reads the same array;
//   - LIST (any other array, e.g. quarantine items, dice lists, nested arrays): diffed by
//     position: the unchanged head and tail are kept, the middle is updated in place item by
//     item (objects and arrays recursively), the rest inserted or deleted. Concurrent inserts
//     both survive (Yjs's own array merge).
//   A KEYED array that must hold objects with one id twice (never the case in a valid table) is
//   replaced by a LIST array, so the round trip stays exact.
// Numbers are JSON numbers within IEEE 754 doubles; strings must be valid Unicode (a lone
// surrogate cannot be encoded in UTF-8 by Yjs: JSON from the app never holds one).
import * as Y from "yjs";

/** Deep equality of two JSON values (whatever their keys' order): the undo module's. */
import { equal as jsonEqual } from "../undo.js";

export { jsonEqual };

/** The name of the root Y.Map holding the document. */
export const ROOT = "json";
const KEYED = "\u0000tablee:keyed";
const LIST = "\u0000tablee:list";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isScalar = (v) => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Whether a JSON array's items are all objects with unique string ids (the empty array is). */
export function isKeyedArray(items) {
  const seen = new Set();
  for (const item of items) {
    if (!isObject(item) || !Object.hasOwn(item, "id") || typeof item.id !== "string" || seen.has(item.id)) return false;
    seen.add(item.id);
  }
  return true;
}

/** Whether a JSON array holds two objects with the same string id (a KEYED array cannot). */
function hasDuplicateIds(items) {
  const seen = new Set();
  for (const item of items) {
    if (isObject(item) && Object.hasOwn(item, "id") && typeof item.id === "string") {
      if (seen.has(item.id)) return true;
      seen.add(item.id);
    }
  }
  return false;
}

function arrayKind(yarray) {
  const first = yarray.length > 0 ? yarray.get(0) : undefined;
  return first === KEYED || first === LIST ? first : null;
}

function idOf(value) {
  if (value instanceof Y.Map) {
    const id = value.get("id");
    if (typeof id === "string") return id;
  }
  return null;
}

/** Deeper than this, readValue reads null: twice the store's own limit (MAX_DEPTH 32 in
 * py/tablee/store.py, which refuses such a document anyway), so a hostile peer's nesting cannot
 * overflow the stack. */
export const MAX_READ_DEPTH = 64;

/** The plain JSON of a Y value (unknown Y types, and anything nested deeper than
 * MAX_READ_DEPTH, read as null, so a hostile peer's content never throws here). */
export function readValue(value, depth = 0) {
  if (depth > MAX_READ_DEPTH && (value instanceof Y.AbstractType)) return null;
  if (value instanceof Y.Map) {
    return Object.fromEntries(Array.from(value.entries(), ([k, v]) => [k, readValue(v, depth + 1)]));
  }
  if (value instanceof Y.Array) {
    const items = value.toArray();
    const kind = arrayKind(value);
    const body = kind ? items.slice(1) : items;
    if (kind !== KEYED) return body.map((item) => readValue(item, depth + 1));
    const seen = new Set();
    const out = [];
    for (const item of body) {
      const id = idOf(item);
      if (id !== null) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      out.push(readValue(item, depth + 1));
    }
    return out;
  }
  if (isScalar(value)) return value;
  return null;
}

/** A fresh, not yet integrated Y value for a JSON value: the caller inserts it, then fills it. */
function freshFor(json) {
  if (Array.isArray(json)) return new Y.Array();
  if (isObject(json)) return new Y.Map();
  if (isScalar(json)) return json;
  throw new TypeError("not a JSON value");
}

/** Fill a just-integrated Y value from JSON (no-op for scalars). */
function fill(yvalue, json) {
  if (yvalue instanceof Y.Map) writeMap(yvalue, json);
  else if (yvalue instanceof Y.Array) {
    const keyed = isKeyedArray(json);
    yvalue.insert(0, [keyed ? KEYED : LIST]);
    writeArray(yvalue, json);
  }
}

/** Whether an existing Y value can be updated in place to hold `json`. */
function compatible(existing, json) {
  if (existing instanceof Y.Map) return isObject(json);
  if (existing instanceof Y.Array) {
    const kind = arrayKind(existing);
    return Array.isArray(json) && kind !== null && !(kind === KEYED && hasDuplicateIds(json));
  }
  return false;
}

/** `prev`: the JSON the Y value holds now, when the caller knows it (else undefined): a member
 * equal to its previous value is not visited. */
function writeMap(ymap, obj, prev = undefined) {
  for (const key of Array.from(ymap.keys())) {
    if (!Object.hasOwn(obj, key)) ymap.delete(key);
  }
  const before = isObject(prev) ? prev : null;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const has = ymap.has(key);
    const existing = has ? ymap.get(key) : undefined;
    if (isScalar(value)) {
      if (!has || existing !== value) ymap.set(key, value);
    } else if (has && compatible(existing, value)) {
      const was = before !== null && Object.hasOwn(before, key) ? before[key] : undefined;
      if (was !== undefined && jsonEqual(was, value)) continue;
      if (existing instanceof Y.Map) writeMap(existing, value, was);
      else writeArray(existing, value, was);
    } else {
      const fresh = freshFor(value);
      ymap.set(key, fresh);
      fill(fresh, value);
    }
  }
}

function insertAt(yarray, index, json) {
  const fresh = freshFor(json);
  yarray.insert(index, [fresh]);
  fill(fresh, json);
}

/** Update an item in place when it can be, else replace it. */
function updateItem(yarray, index, json) {
  const existing = yarray.get(index);
  if (isScalar(json)) {
    if (existing !== json) {
      yarray.delete(index, 1);
      insertAt(yarray, index, json);
    }
  } else if (compatible(existing, json)) {
    if (existing instanceof Y.Map) writeMap(existing, json);
    else writeArray(existing, json);
  } else {
    yarray.delete(index, 1);
    insertAt(yarray, index, json);
  }
}

function writeArray(yarray, items, prev = undefined) {
  const body = yarray.toArray().slice(1);
  const keyedItems = arrayKind(yarray) === KEYED && isKeyedArray(items);
  if (keyedItems && body.every((v) => idOf(v) !== null)) writeKeyed(yarray, body, items, prev);
  else writeList(yarray, body, items);
}

/** Match records by id: delete the ones gone (and later duplicates), keep the longest run of
 * records already in the right order, move (delete + insert) the others, insert new ones. */
function writeKeyed(yarray, body, items, prev = undefined) {
  // the records as the array holds them now, when the caller knows it (a Y record holds the
  // first record of its id, as readValue reads it)
  const was = new Map();
  if (Array.isArray(prev)) for (const r of prev) if (isObject(r) && typeof r.id === "string" && !was.has(r.id)) was.set(r.id, r);
  const wanted = new Map(items.map((item, i) => [item.id, i]));
  const seen = new Set();
  const keep = []; // [position in body, position in items]
  const drop = [];
  body.forEach((value, pos) => {
    const id = idOf(value);
    if (!wanted.has(id) || seen.has(id)) drop.push(pos);
    else {
      seen.add(id);
      keep.push([pos, wanted.get(id)]);
    }
  });
  // the longest increasing subsequence of target positions stays; the rest moves
  const stays = new Set(longestIncreasing(keep.map(([, target]) => target)).map((i) => keep[i][0]));
  for (const [pos] of keep) if (!stays.has(pos)) drop.push(pos);
  drop.sort((a, b) => b - a);
  for (const pos of drop) yarray.delete(pos + 1, 1);
  let cursor = 1;
  for (const item of items) {
    const current = cursor < yarray.length ? yarray.get(cursor) : undefined;
    if (current !== undefined && idOf(current) === item.id) {
      const before = was.get(item.id);
      if (before === undefined || !jsonEqual(before, item)) writeMap(current, item, before);
    } else insertAt(yarray, cursor, item);
    cursor += 1;
  }
}

/** Indices (into `seq`) of one longest strictly increasing subsequence. */
function longestIncreasing(seq) {
  const tails = [];
  const prev = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const out = [];
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.push(i);
  return out.reverse();
}

/** Positional diff: keep the equal head and tail, update the middle in place. */
function writeList(yarray, body, items) {
  const current = body.map((value) => readValue(value));
  let head = 0;
  while (head < current.length && head < items.length && jsonEqual(current[head], items[head])) head++;
  let tail = 0;
  while (
    tail < current.length - head && tail < items.length - head &&
    jsonEqual(current[current.length - 1 - tail], items[items.length - 1 - tail])
  ) tail++;
  const oldMid = current.length - head - tail;
  const newMid = items.length - head - tail;
  const common = Math.min(oldMid, newMid);
  for (let i = 0; i < common; i++) updateItem(yarray, 1 + head + i, items[head + i]);
  if (oldMid > common) yarray.delete(1 + head + common, oldMid - common);
  for (let i = common; i < newMid; i++) insertAt(yarray, 1 + head + i, items[head + i]);
}

/**
 * Make the Y content equal `json` with the smallest set of Y operations (unchanged values are
 * not touched), in one transaction with `origin`.
 * @param {Y.Doc} ydoc
 * @param {object} json a JSON object (the table document)
 * @param {*} [origin] the transaction's origin (sync.js does not send an update back to it)
 * @param {object} [previous] the JSON the doc holds now (what the last writeJson wrote, or
 *   readJson read), when the caller keeps it: a record or a value equal to its previous one is
 *   not visited, so re-writing a 1,000-entry table with one entry added reads no other entry's
 *   Y content. Wrong content here would leave the doc unequal to `json`: only the doc's
 *   sole writer passes it.
 */
export function writeJson(ydoc, json, origin = null, previous = undefined) {
  if (!isObject(json)) throw new TypeError("writeJson: the document must be a JSON object");
  ydoc.transact(() => writeMap(ydoc.getMap(ROOT), json, previous), origin);
}

/**
 * The plain JSON held by a Y.Doc (an empty object for an empty doc).
 * @param {Y.Doc} ydoc
 * @returns {object}
 */
export function readJson(ydoc) {
  return readValue(ydoc.getMap(ROOT));
}

/**
 * Follow a Y.Doc's JSON as its transactions (local or remote) change it: `json` equals
 * `readJson(ydoc)` after each one, found from the transaction's events instead of reading the
 * whole document again. Each record of a top-level keyed array (a character, a log entry) and
 * each member of a top-level object (one system's state) keeps the JSON last read from its Y
 * type; an event inside it marks that type to be read again, a record inserted is a new type, so
 * one field changed in a 1,000-entry table costs one record and a walk over the log's items.
 * `json` and what it holds are never changed in place (a new top object at each change): a
 * caller that edits it must copy first. `stop()` ends the following.
 * @param {Y.Doc} ydoc
 * @returns {{json: object, stop: () => void}}
 */
export function mirror(ydoc) {
  const root = ydoc.getMap(ROOT);
  const known = new WeakMap(); // a record's or a top-level member's Y type -> its JSON as last read
  const member = (value, dirty) => {
    if (!(value instanceof Y.AbstractType)) return readValue(value, 2);
    if (!dirty.has(value) && known.has(value)) return known.get(value);
    const json = readValue(value, 2);
    known.set(value, json);
    return json;
  };
  const top = (value, dirty) => {
    if (value instanceof Y.Array && arrayKind(value) === KEYED) {
      // as readValue reads a keyed array: the first record of an id only
      const seen = new Set();
      const out = [];
      const items = value.toArray();
      for (let i = 1; i < items.length; i++) {
        const id = idOf(items[i]);
        if (id !== null) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        out.push(member(items[i], dirty));
      }
      return out;
    }
    if (value instanceof Y.Map) return Object.fromEntries(Array.from(value.entries(), ([k, v]) => [k, member(v, dirty)]));
    return readValue(value, 1);
  };
  const none = new Set();
  const state = { json: Object.fromEntries(Array.from(root.entries(), ([k, v]) => [k, top(v, none)])), stop: () => root.unobserveDeep(observe) };
  function observe(events) {
    const stale = new Set(); // top-level keys to build again (from what is known of them)
    const dirty = new Set(); // Y types to read again
    for (const event of events) {
      const path = event.path;
      if (path.length === 0) {
        for (const key of event.keysChanged) stale.add(key);
        continue;
      }
      stale.add(path[0]);
      if (path.length >= 2) {
        const value = root.get(path[0]);
        const inner = value instanceof Y.Array || value instanceof Y.Map ? value.get(path[1]) : null;
        if (inner instanceof Y.AbstractType) dirty.add(inner);
      }
    }
    const before = state.json;
    state.json = Object.fromEntries(Array.from(root.entries(), ([k, v]) => [
      k, stale.has(k) || !Object.hasOwn(before, k) ? top(v, dirty) : before[k],
    ]));
  }
  root.observeDeep(observe);
  return state;
}

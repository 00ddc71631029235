// The pre-save check: a change that would make the table invalid is refused before it is
// written. One definition of valid: the limits and the systems' character schemas
// come from tablee.store (`store.limits`; `storage.LIMITS` until the engine is up), and the
// engine's store.open stays the final word at every load (a record that slips through is set
// apart "à réparer", never lost).
//
// checkCandidate(next, base, limits) -> null or {path, reason, params}: cheap — the document's
// size, its nesting depth, its counts, and only the characters and system states that changed,
// through the kernel's rules and the published JSON Schema of their system (a small subset of
// JSON Schema: type, const, enum, lengths, bounds, counts, required, additionalProperties false
// or a schema, maxProperties, properties, items, anyOf / oneOf; other keywords are not checked
// here).

import { SYSTEM_IDS } from "./storage.js";

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** Python's len(): code points, not UTF-16 units. */
const length = (s) => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

function typeOk(value, type) {
  switch (type) {
    case "string": return typeof value === "string";
    case "integer": return Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "boolean": return typeof value === "boolean";
    case "null": return value === null;
    case "array": return Array.isArray(value);
    case "object": return isObject(value);
    default: return true;
  }
}

const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
const join = (path, key) => (path ? `${path}.${key}` : String(key));

/** The first way `value` breaks `schema` (the subset above), or null. */
export function schemaProblem(value, schema, path = "") {
  if (!isObject(schema)) return null;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeOk(value, type))) return { path, reason: "type", params: { expected: types.join("|") } };
  }
  for (const key of ["anyOf", "oneOf"]) {
    // Read as "any of" for both (the schemas' alternatives never overlap): the first way the
    // value breaks the first alternative when it fits none.
    if (Array.isArray(schema[key]) && schema[key].length) {
      const problems = schema[key].map((alt) => schemaProblem(value, alt, path));
      if (problems.every(Boolean)) return problems[0];
    }
  }
  if (Object.hasOwn(schema, "const") && !same(value, schema.const)) return { path, reason: "enum", params: {} };
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => same(v, value))) return { path, reason: "enum", params: {} };
  if (typeof value === "string") {
    if (schema.minLength !== undefined && length(value) < schema.minLength) return { path, reason: "empty", params: { min: schema.minLength } };
    if (schema.maxLength !== undefined && length(value) > schema.maxLength) return { path, reason: "too_long", params: { max: schema.maxLength } };
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return { path, reason: "too_small", params: { min: schema.minimum } };
    if (schema.maximum !== undefined && value > schema.maximum) return { path, reason: "too_big", params: { max: schema.maximum } };
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return { path, reason: "too_many", params: { max: schema.maxItems } };
    if (schema.minItems !== undefined && value.length < schema.minItems) return { path, reason: "too_few", params: { min: schema.minItems } };
    if (isObject(schema.items)) {
      for (let i = 0; i < value.length; i += 1) {
        const p = schemaProblem(value[i], schema.items, join(path, i));
        if (p) return p;
      }
    }
  }
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const key of Array.isArray(schema.required) ? schema.required : []) {
      if (!Object.hasOwn(value, key)) return { path: join(path, key), reason: "missing", params: {} };
    }
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(props, key)) {
        const p = schemaProblem(value[key], props[key], join(path, key));
        if (p) return p;
      } else if (schema.additionalProperties === false) {
        return { path: join(path, key), reason: "unknown_key", params: {} };
      } else if (isObject(schema.additionalProperties)) {
        const p = schemaProblem(value[key], schema.additionalProperties, join(path, key));
        if (p) return p;
      }
    }
    if (schema.maxProperties !== undefined && Object.keys(value).length > schema.maxProperties) {
      return { path, reason: "too_many", params: { max: schema.maxProperties } };
    }
  }
  return null;
}

/**
 * Whether `value`, placed `at` levels below the document's top, nests past `max` levels
 * (store._within_depth: a container at depth `max` or more from the top is too deep).
 * Iterative, and it stops at the first container too deep.
 */
export function tooDeep(value, max, at = 0) {
  const stack = [[value, at]];
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object") continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

const TOP_KEYS = ["schema", "app", "name", "language", "characters", "log", "systems", "settings", "quarantine"];

/**
 * store.open's depth rule, applied in the page before a table goes to the engine (a request
 * nested past engine.MAX_REQUEST_DEPTH never reaches it, so one deep record would refuse the
 * whole table): each character, log entry, system state, setting, quarantined item or unknown
 * top-level field nested past `limits.depth` is moved into `quarantine` as store.open would —
 * kept whole as its JSON text, with a `too_deep` problem. Returns {doc, parked}: a new object
 * when something moved (the input is never changed), else `doc` itself. A value that is not a
 * schema-1 table is returned as it is (the engine says what it is).
 */
export function setApartTooDeep(doc, limits) {
  if (!isObject(doc) || doc.app !== "tablee" || doc.schema !== 1) return { doc, parked: 0 };
  const max = limits.depth;
  const parked = [];
  const park = (kind, path, data) => {
    parked.push({
      kind,
      path,
      problems: [{ field: path, code: "store.invalid", message_key: "error.store.invalid", params: { path, reason: "too_deep", max } }],
      data: JSON.stringify(data),
    });
  };
  const out = { ...doc };
  const keep = (list, kind, name) => {
    if (!Array.isArray(list)) return list;
    return list.filter((item, i) => {
      if (!tooDeep(item, max, 2)) return true;
      park(kind, `${name}.${i}`, item);
      return false;
    });
  };
  out.characters = keep(doc.characters, "character", "characters");
  out.log = keep(doc.log, "log", "log");
  if (isObject(doc.systems)) {
    out.systems = {};
    for (const [sid, st] of Object.entries(doc.systems)) {
      if (tooDeep(st, max, 2)) park("system", `systems.${sid}`, st);
      else out.systems[sid] = st;
    }
  }
  if (tooDeep(doc.settings, max, 1)) {
    park("field", "settings", doc.settings);
    out.settings = {};
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.includes(key) && tooDeep(doc[key], max, 1)) {
      park("field", key.slice(0, 200), doc[key]);
      delete out[key];
    }
  }
  const kept = keep(doc.quarantine, "field", "quarantine");
  if (!parked.length) return { doc, parked: 0 };
  out.quarantine = [...(Array.isArray(kept) ? kept : []), ...parked];
  return { doc: out, parked: parked.length };
}

function textProblem(value, path, max) {
  if (typeof value !== "string") return { path, reason: "type", params: { expected: "string" } };
  if (value.trim().length === 0 || length(value) < 1) return { path, reason: "empty", params: {} };
  if (length(value) > max) return { path, reason: "too_long", params: { max } };
  return null;
}

/** The kernel's and the system's rules for one character at `characters.<i>`. */
export function characterProblem(c, i, limits) {
  const path = `characters.${i}`;
  if (!isObject(c)) return { path, reason: "type", params: { expected: "object" } };
  const p = textProblem(c.id, `${path}.id`, limits.id) ?? textProblem(c.name, `${path}.name`, limits.name);
  if (p) return p;
  if (!SYSTEM_IDS.includes(c.system)) return { path: `${path}.system`, reason: "unknown_system", params: {} };
  const schemas = limits.character_schemas;
  const schema = isObject(schemas) && Object.hasOwn(schemas, c.system) ? schemas[c.system] : null;
  return schema ? schemaProblem(c, schema, path) : null;
}

/** How a label or a result line was worded (views/log-words.js; store._check_words): at most 24
 * segments, each a text or [key] or [key, {name: text or (two levels down at most) words}], 2,000
 * characters of JSON in all. */
function wordsProblem(words, path, depth = 0) {
  if (!Array.isArray(words)) return { path, reason: "type", params: { expected: "array" } };
  if (words.length > 24) return { path, reason: "too_many", params: { max: 24 } };
  if (JSON.stringify(words).length > 2000) return { path, reason: "too_long", params: { max: 2000 } };
  for (const [i, seg] of words.entries()) {
    const at = `${path}.${i}`;
    if (typeof seg === "string") {
      if (length(seg) > 200) return { path: at, reason: "too_long", params: { max: 200 } };
      continue;
    }
    if (!Array.isArray(seg) || seg.length < 1 || seg.length > 2) return { path: at, reason: "type", params: { expected: "array" } };
    const k = textProblem(seg[0], `${at}.0`, 80);
    if (k) return k;
    if (seg.length === 2) {
      if (!isObject(seg[1])) return { path: `${at}.1`, reason: "type", params: { expected: "object" } };
      const params = Object.entries(seg[1]);
      if (params.length > 8) return { path: `${at}.1`, reason: "too_many", params: { max: 8 } };
      for (const [name, value] of params) {
        if (name.length > 32) return { path: `${at}.1.${name}`, reason: "too_long", params: { max: 32 } };
        if (Array.isArray(value) && depth < 2) {
          const inner = wordsProblem(value, `${at}.1.${name}`, depth + 1);
          if (inner) return inner;
          continue;
        }
        if (name.length > 32 || typeof value !== "string") return { path: `${at}.1.${name}`, reason: "type", params: { expected: "string" } };
        if (length(value) > 200) return { path: `${at}.1.${name}`, reason: "too_long", params: { max: 200 } };
      }
    }
  }
  return null;
}

/** The kernel's rules for a new log entry (store._check_log_entry). */
function logEntryProblem(e, path, limits) {
  if (!isObject(e)) return { path, reason: "type", params: { expected: "object" } };
  const p = textProblem(e.id, `${path}.id`, limits.id) ?? textProblem(e.at, `${path}.at`, 40) ?? textProblem(e.kind, `${path}.kind`, 64);
  if (p) return p;
  if (e.system !== null && !SYSTEM_IDS.includes(e.system)) return { path: `${path}.system`, reason: "unknown_system", params: {} };
  if (typeof e.label !== "string" || length(e.label) > 200) return { path: `${path}.label`, reason: "too_long", params: { max: 200 } };
  if (e.who !== undefined && (typeof e.who !== "string" || length(e.who) > limits.name)) return { path: `${path}.who`, reason: "too_long", params: { max: limits.name } };
  if (e.to !== undefined) {
    const to = textProblem(e.to, `${path}.to`, limits.id);
    if (to) return to;
  }
  if (e.member !== undefined) {
    // the live member the referee wrote the entry for (py/tablee/referee_kernel.py): {id, name}
    if (!isObject(e.member)) return { path: `${path}.member`, reason: "type", params: { expected: "object" } };
    for (const key of Object.keys(e.member)) {
      if (key !== "id" && key !== "name") return { path: `${path}.member.${key}`, reason: "unknown_key", params: {} };
    }
    const m = textProblem(e.member.id, `${path}.member.id`, limits.id) ?? textProblem(e.member.name, `${path}.member.name`, limits.name);
    if (m) return m;
  }
  for (const key of Object.keys(e)) {
    if (!["id", "at", "kind", "system", "label", "request", "result", "who", "to", "member", "label_words", "summary_words", "words_lang"].includes(key)) return { path: `${path}.${key}`, reason: "unknown_key", params: {} };
  }
  for (const key of ["label_words", "summary_words"]) {
    const w = e[key] === undefined ? null : wordsProblem(e[key], `${path}.${key}`);
    if (w) return w;
  }
  if (e.words_lang !== undefined && !["fr", "en"].includes(e.words_lang)) return { path: `${path}.words_lang`, reason: "enum", params: { expected: ["fr", "en"] } };
  for (const key of ["request", "result"]) {
    if (!isObject(e[key])) return { path: `${path}.${key}`, reason: "type", params: { expected: "object" } };
    if (JSON.stringify(e[key]).length > limits.log_entry_size) return { path: `${path}.${key}`, reason: "too_large", params: { max: limits.log_entry_size } };
  }
  return null;
}

/** The size `doc` takes saved (what localStorage holds and store.open measures, at least). */
export const documentSize = (doc) => JSON.stringify(doc).length;

// What checkCandidate learnt of a record (a character, a log entry, a system state) it saw in a
// document, kept by identity: its JSON text's length and whether it nests past the depth limit.
// A record in a document is never changed in place (every change replaces app.doc: a change
// works on a copy, and a shallow one replaces what it changes), so a record kept by a change
// is not measured nor walked again: a new log entry in a 1,000-entry table is one record to
// measure, not 400 kB to write out and walk.
const facts = new WeakMap();

function factsOf(record) {
  let found = facts.get(record);
  if (!found) {
    found = { size: undefined, depth: undefined, deep: false };
    facts.set(record, found);
  }
  return found;
}

const isRecordList = (key, value) => ((key === "characters" || key === "log") && Array.isArray(value)) || (key === "systems" && isObject(value));

/** JSON.stringify(value).length (undefined when JSON leaves the value out), a record's kept. */
function sizeOf(value, record = false) {
  if (!record || value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : text.length;
  }
  const found = factsOf(value);
  found.size ??= JSON.stringify(value).length;
  return found.size;
}

/** documentSize(doc), each record's length kept (the same number: a JSON object's text is its
 * members' texts, a comma between two, in braces; a value JSON leaves out of an object takes no
 * room, in an array it is `null`). */
export function keptSize(doc) {
  if (!isObject(doc)) return documentSize(doc);
  let n = 2;
  let members = 0;
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    let size;
    if (isRecordList(key, value)) {
      size = 2;
      let items = 0;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i += 1) size += sizeOf(value[i], true) ?? 4;
        items = value.length;
      } else {
        for (const k of Object.keys(value)) {
          const one = sizeOf(value[k], true);
          if (one === undefined) continue;
          size += JSON.stringify(k).length + 1 + one;
          items += 1;
        }
      }
      size += Math.max(0, items - 1);
    } else {
      size = sizeOf(value);
    }
    if (size === undefined) continue;
    n += JSON.stringify(key).length + 1 + size;
    members += 1;
  }
  return n + Math.max(0, members - 1);
}

/** tooDeep(doc, max), each record's answer kept. */
export function keptTooDeep(doc, max) {
  if (!isObject(doc) || max <= 1) return tooDeep(doc, max);
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    if (!isRecordList(key, value)) {
      if (tooDeep(value, max, 1)) return true;
      continue;
    }
    for (const record of Object.values(value)) {
      if (record === null || typeof record !== "object") continue;
      const found = factsOf(record);
      if (found.depth !== max) {
        found.deep = tooDeep(record, max, 2);
        found.depth = max;
      }
      if (found.deep) return true;
    }
  }
  return false;
}

/**
 * Null when `next` may be saved, else its first problem. `base` is the saved document the
 * change was applied to: only the characters that differ from it are checked in depth.
 */
export function checkCandidate(next, base, limits, size = keptSize(next)) {
  if (!isObject(next)) return { path: "", reason: "type", params: {} };
  const name = textProblem(next.name, "name", limits.name);
  if (name) return name;
  if (!Array.isArray(next.characters)) return { path: "characters", reason: "type", params: {} };
  if (next.characters.length > limits.characters) return { path: "characters", reason: "too_many", params: { max: limits.characters } };
  if (!Array.isArray(next.log)) return { path: "log", reason: "type", params: {} };
  if (next.log.length > limits.log) return { path: "log", reason: "too_many", params: { max: limits.log } };
  // A record of `base` kept in `next` (the same object: a shallow change shares what it did not
  // replace, and no record is ever changed in place) or equal to it was checked already.
  const before = new Map();
  for (const c of base?.characters ?? []) if (isObject(c)) before.set(c.id, c);
  const ids = new Set();
  for (let i = 0; i < next.characters.length; i += 1) {
    const c = next.characters[i];
    if (isObject(c) && ids.has(c.id)) return { path: `characters.${i}.id`, reason: "duplicate", params: {} };
    if (isObject(c)) ids.add(c.id);
    const was = isObject(c) ? before.get(c.id) : undefined;
    if (was !== undefined && (was === c || JSON.stringify(was) === JSON.stringify(c))) continue;
    const p = characterProblem(c, i, limits);
    if (p) return p;
  }
  const logged = new Set((base?.log ?? []).map((e) => (isObject(e) ? e.id : null)));
  for (let i = 0; i < next.log.length; i += 1) {
    const e = next.log[i];
    if (isObject(e) && logged.has(e.id)) continue;
    const p = logEntryProblem(e, `log.${i}`, limits);
    if (p) return p;
  }
  const states = isObject(next.systems) ? next.systems : {};
  const schemas = isObject(limits.state_schemas) ? limits.state_schemas : {};
  for (const [sid, st] of Object.entries(states)) {
    if (!SYSTEM_IDS.includes(sid)) return { path: `systems.${sid}`, reason: "unknown_system", params: {} };
    const had = isObject(base?.systems) && Object.hasOwn(base.systems, sid);
    if (had && (base.systems[sid] === st || JSON.stringify(base.systems[sid]) === JSON.stringify(st))) continue;
    if (tooDeep(st, limits.depth, 2)) return { path: `systems.${sid}`, reason: "too_deep", params: { max: limits.depth } };
    const p = Object.hasOwn(schemas, sid) ? schemaProblem(st, schemas[sid], `systems.${sid}`) : null;
    if (p) return p;
  }
  if (size > limits.document_size) return { path: "", reason: "too_large", params: { size, max: limits.document_size } };
  if (keptTooDeep(next, limits.depth)) return { path: "", reason: "too_deep", params: { max: limits.depth } };
  return null;
}

/**
 * Drop the oldest log entries until the document fits `limits.document_size` (the log is a
 * rolling window: a roll never pushes the table past its limit). Returns how many went.
 */
export function trimLogToFit(doc, limits, margin = 0) {
  let size = documentSize(doc);
  let dropped = 0;
  const max = limits.document_size - margin;
  while (size > max && doc.log.length > 1) {
    size -= JSON.stringify(doc.log[0]).length + 1;
    doc.log.shift();
    dropped += 1;
  }
  return dropped;
}

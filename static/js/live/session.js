// The live table's session (issue 15): this device's table document <-> the replicated Y docs.
//
// Roles (docs/ARCHITECTURE.md, "Live table"):
// - The MJ's device (the hub of the star) keeps the whole table, secrets included, in its
//   localStorage as before. It writes into the public Y doc only what any player may see:
//   `store.share` (audience "player"), every system's secrets removed by that system's filter.
//   What players change in the public doc is merged back into the whole table: characters
//   field by field (what the filter removed stays as it was), new roll-log entries, the
//   table's name. System states stay the MJ's (a player's copy is concealed, so it cannot be
//   merged back without the hidden order): a player sees them live, the MJ's device writes them.
// - Each player's private doc holds what only that player may see: the cards of the piles
//   shown to their owner (a Théorem hand) whose owner is one of the player's characters.
// - A player's device holds the public table as its table: its changes go into the public doc,
//   the others' changes come back from it. Its first join backs its own table up first.
// Every device keeps the Y docs' state in localStorage (`tablee.live`), keeps mirroring its
// changes while no link is open, and catches up both ways when a link opens again (Yjs's state
// vectors): rejoining merges. A value this device wrote that a concurrent change replaced is
// kept in a short history (`overwritten`), so it stays findable.

import * as Y from "yjs";
import { Awareness, removeAwarenessStates } from "y-protocols/awareness";

import { fromBase64Url, toBase64Url } from "../share/codec.js";
import { jsonEqual, readJson, writeJson } from "./ydoc.js";
import { Hub, Member } from "./sync.js";

export const LIVE_KEY = "tablee.live";
/** Bound of the history of overwritten values kept on this device. */
export const MAX_OVERWRITTEN = 100;
/** Keys of a table document that stay on each device: its language, its records set apart. */
const LOCAL_KEYS = ["language", "quarantine"];
const LOCAL = Symbol("local");
/**
 * Systems whose player filter only blanks fields (py/tablee/systems/<id>/share.py): a player's
 * change to their state merges field by field, the blanked field keeping the MJ's value.
 * Point Zéro: the Jauge de Tension's threshold is set to null, every entry stays (a player's
 * Tension point reaches the MJ's gauge). A filter that conceals card piles (Théorem,
 * Versality, SYSTMJ) cannot be merged back this way: the hidden order is not in the view.
 */
export const FIELD_MERGED = new Set(["pointzero"]);
const SAVE_DELAY_MS = 400;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** Deep equality of JSON values whatever their keys' order (a Y.Map does not keep it). */
const same = (a, b) => a === b || jsonEqual(a, b);

/** A Y.Doc holding the saved state `b64` (a fresh one when absent or unreadable). */
function restoreDoc(b64) {
  const doc = new Y.Doc();
  if (typeof b64 === "string" && b64) {
    try {
      Y.applyUpdate(doc, fromBase64Url(b64));
    } catch {
      // An unreadable saved state: start empty, the hub's copy comes back with the next sync.
    }
  }
  return doc;
}

/** What of a table document goes into the public doc (the device-local keys taken out). */
export function shared(doc) {
  const out = { ...doc };
  for (const key of LOCAL_KEYS) delete out[key];
  return out;
}

/** A player's table: the public one with this device's own language and records set apart. */
export function adopt(pub, local) {
  const out = { ...pub };
  for (const key of LOCAL_KEYS) {
    if (local && Object.hasOwn(local, key)) out[key] = local[key];
    else delete out[key];
  }
  if (!Object.hasOwn(out, "language")) out.language = "fr";
  return out;
}

/**
 * `full` with what changed from `before` to `after` (two player views of one record) applied:
 * a changed key takes the new value (objects key by key), a key removed goes, and a key the
 * player view never had (a secret the filter removed) stays as it was.
 */
export function overlay(full, before, after) {
  if (!isObject(full) || !isObject(after)) return after;
  const out = { ...full };
  const prev = isObject(before) ? before : {};
  for (const key of Object.keys(after)) {
    if (Object.hasOwn(prev, key) && same(prev[key], after[key])) continue;
    out[key] = isObject(after[key]) && isObject(full[key]) && isObject(prev[key])
      ? overlay(full[key], prev[key], after[key])
      : after[key];
  }
  for (const key of Object.keys(prev)) if (!Object.hasOwn(after, key)) delete out[key];
  return out;
}

/**
 * The MJ's whole table after the players' changes: `before` is the public view the MJ's device
 * last wrote (or saw), `after` the public view now. Characters are merged field by field (a new
 * one is added, one a player deleted goes), new log entries are added (oldest first, bounded
 * by `logLimit`), the name follows; a system state with nothing hidden follows too, one
 * with hidden parts and the settings stay the MJ's.
 */
export function mergePublic(full, before, after, logLimit = 1000) {
  const out = { ...full };
  const beforeChars = new Map((before?.characters ?? []).filter(isObject).map((c) => [c.id, c]));
  const afterChars = new Map((after?.characters ?? []).filter(isObject).map((c) => [c.id, c]));
  const characters = [];
  const seen = new Set();
  for (const c of full.characters ?? []) {
    if (!isObject(c)) continue;
    seen.add(c.id);
    if (afterChars.has(c.id)) {
      const was = beforeChars.get(c.id);
      const now = afterChars.get(c.id);
      characters.push(was && same(was, now) ? c : overlay(c, was, now));
    } else if (!beforeChars.has(c.id)) {
      characters.push(c); // not published yet (the MJ's own change in flight)
    } // else: a player deleted it
  }
  for (const c of afterChars.values()) if (!seen.has(c.id) && !beforeChars.has(c.id)) characters.push(c);
  out.characters = characters;
  const logged = new Set((full.log ?? []).map((e) => (isObject(e) ? e.id : null)));
  const added = (after?.log ?? []).filter((e) => isObject(e) && !logged.has(e.id));
  if (added.length) {
    out.log = [...(full.log ?? []), ...added].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    if (out.log.length > logLimit) out.log = out.log.slice(out.log.length - logLimit);
  }
  if (typeof after?.name === "string" && before?.name !== after.name) out.name = after.name;
  // A system state the players see whole (the MJ's state is its player view: nothing hidden)
  // takes their changes field by field; one with hidden parts stays the MJ's (see `held`).
  const states = isObject(full.systems) ? full.systems : {};
  const was = isObject(before?.systems) ? before.systems : {};
  const now = isObject(after?.systems) ? after.systems : {};
  for (const sid of Object.keys(now)) {
    if (!Object.hasOwn(was, sid) || same(was[sid], now[sid])) continue;
    if (!Object.hasOwn(states, sid) || same(states[sid], was[sid]) || FIELD_MERGED.has(sid)) {
      out.systems = { ...(out.systems ?? states), [sid]: Object.hasOwn(states, sid) ? overlay(states[sid], was[sid], now[sid]) : now[sid] };
    }
  }
  return out;
}

/** The systems whose state a player changed but which hold hidden parts (the MJ's table keeps
 * its own state: the player view is published again from it). */
export function held(full, before, after) {
  const states = isObject(full.systems) ? full.systems : {};
  const was = isObject(before?.systems) ? before.systems : {};
  const now = isObject(after?.systems) ? after.systems : {};
  return Object.keys(now).filter((sid) => Object.hasOwn(was, sid) && !same(was[sid], now[sid])
    && Object.hasOwn(states, sid) && !same(states[sid], was[sid]) && !FIELD_MERGED.has(sid));
}

/** The private view of member `characters` in the MJ's table: the cards of every pile shown to
 * its owner only whose owner is one of them ({hands: [{system, path, owner, cards}]}). */
export function privateView(full, characters) {
  const owners = new Set(characters);
  const hands = [];
  const walk = (node, path, system) => {
    if (Array.isArray(node)) return;
    if (!isObject(node)) return;
    if (isObject(node.piles)) {
      for (const [name, pile] of Object.entries(node.piles)) {
        if (isObject(pile) && pile.visibility === "owner" && owners.has(pile.owner) && Array.isArray(pile.cards)) {
          hands.push({ system, path: `${path}.piles.${name}`, owner: pile.owner, cards: [...pile.cards] });
        }
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "piles") walk(value, `${path}.${key}`, system);
  };
  for (const [system, state] of Object.entries(isObject(full.systems) ? full.systems : {})) walk(state, `systems.${system}`, system);
  hands.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { hands };
}

/** Leaf values of the characters of a table, path -> JSON text (the records keyed by id). */
function leaves(doc) {
  const out = new Map();
  const walk = (node, path) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${isObject(item) && typeof item.id === "string" ? item.id : i}]`));
    } else if (isObject(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`);
    } else {
      out.set(path, JSON.stringify(node));
    }
  };
  walk(doc?.characters ?? [], "characters");
  if (doc && typeof doc.name === "string") out.set("name", JSON.stringify(doc.name));
  return out;
}

/** This device's saved live session (`tablee.live`), or null when there is none that can be read. */
export function readLive(storage = window.localStorage) {
  try {
    const raw = storage.getItem(LIVE_KEY);
    const parsed = raw ? JSON.parse(raw) : null;
    return isObject(parsed) && parsed.v === 1 && (parsed.role === "mj" || parsed.role === "player") ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * This device's live session. `app` is the app object (doc, update, replaceDocument, call,
 * onDocument); `role` "mj" or "player"; `me` this device's member id (a player's), `name` its name.
 */
export class Session extends EventTarget {
  constructor(app, { role, me = null, name = "", storage = window.localStorage } = {}) {
    super();
    this.app = app;
    this.role = role;
    this.me = me;
    this.name = name;
    this.storage = storage;
    const saved = readLive(storage);
    const mine = saved && saved.role === role ? saved : null;
    this.publicDoc = restoreDoc(mine?.public);
    // A player writes into the public doc only once it holds the hub's copy (ydoc.js: a
    // container made on two devices before they synced keeps one of the two): joined, with the
    // saved Y state restored. A saved state that could not be read means joining anew (this
    // device's table is backed up again when the hub's copy arrives).
    this.joined = role === "mj" || (Boolean(mine?.joined) && Array.isArray(readJson(this.publicDoc).characters));
    this.privateDocs = new Map();
    if (role === "mj") {
      for (const [id, b64] of Object.entries(isObject(mine?.private) ? mine.private : {})) this.privateDocs.set(id, restoreDoc(b64));
    } else {
      this.privateDocs.set(me, restoreDoc(typeof mine?.private === "string" ? mine.private : null));
    }
    /** memberId -> {name, characters, seen} (the MJ's list of players, kept across links). */
    this.members = new Map(Object.entries(isObject(mine?.members) ? mine.members : {}));
    /** Character ids this device plays (a player's claim, shown to all). */
    this.characters = Array.isArray(mine?.characters) ? mine.characters.filter((c) => typeof c === "string") : [];
    /** Values this device wrote that a concurrent change replaced: [{path, value, by, at}]. */
    this.overwritten = Array.isArray(mine?.overwritten) ? mine.overwritten.slice(-MAX_OVERWRITTEN) : [];
    this.awareness = new Awareness(this.publicDoc);
    this.published = readJson(this.publicDoc); // the public view last written or seen here
    this.written = new Map(); // path -> JSON text this device wrote (overwrite detection)
    this.wroteStates = new Map(); // system id -> the state this phone wrote (see writePublic)
    this.version = 0; // bumps at every change of app.doc (a stale projection is dropped)
    this.projecting = false;
    this.saveTimer = null;
    this.links = new Map();

    if (role === "mj") {
      this.hub = new Hub({ publicDoc: this.publicDoc, privateDocFor: (id) => this.privateDoc(id), awareness: this.awareness });
    } else {
      this.member = new Member({ publicDoc: this.publicDoc, privateDoc: this.privateDocs.get(me), awareness: this.awareness });
    }
    this.awareness.setLocalState({ name, role, characters: this.characters, member: me });
    this.awareness.on("change", () => this.emit());
    // An error here must not reach sync.js (it would close the link): it is logged, and the
    // next update or local change writes the table again.
    this.publicDoc.on("update", (update, origin) => {
      try {
        this.onPublicUpdate(origin);
      } catch (error) {
        console.error(error);
      }
    });
    this.stop = app.onDocument(() => this.onLocalChange());
    this.onLocalChange();
  }

  /** The private doc of member `id` (created on first use: the MJ's side). */
  privateDoc(id) {
    if (!this.privateDocs.has(id)) {
      const doc = new Y.Doc();
      this.privateDocs.set(id, doc);
      doc.on("update", () => this.saveSoon());
    }
    return this.privateDocs.get(id);
  }

  /** A link is open to the hub (a player) or to member `memberId` (the MJ). */
  attach({ link, memberId, name }) {
    if (this.role === "mj") {
      const known = this.members.get(memberId) ?? { characters: [] };
      this.members.set(memberId, { ...known, name, seen: new Date().toISOString() });
      this.writePrivate(memberId);
      this.hub.attach(link, memberId);
    } else {
      this.member.attach(link);
    }
    this.links.set(memberId, link);
    const prior = link.onclose;
    link.onclose = () => {
      if (typeof prior === "function") prior();
      if (this.links.get(memberId) === link) this.links.delete(memberId);
      this.emit();
    };
    this.saveSoon();
    this.emit();
  }

  /** Set the characters this device plays (a player's claim; their hands reach this device). */
  claim(characters) {
    this.characters = [...new Set(characters.filter((c) => typeof c === "string"))];
    this.awareness.setLocalStateField("characters", this.characters);
    this.saveSoon();
    this.emit();
  }

  /** Everyone at the table: [{id, name, role, characters, here}] (the MJ's device knows the absent too). */
  presence() {
    const here = new Map();
    for (const [clientId, state] of this.awareness.getStates()) {
      if (!isObject(state) || typeof state.name !== "string") continue;
      const id = typeof state.member === "string" ? state.member : `mj:${clientId}`;
      here.set(id, {
        id,
        name: state.name,
        role: state.role === "mj" ? "mj" : "player",
        characters: Array.isArray(state.characters) ? state.characters.filter((c) => typeof c === "string") : [],
        here: true,
        me: clientId === this.awareness.clientID,
      });
    }
    for (const [id, m] of this.members) {
      if (!here.has(id)) here.set(id, { id, name: m.name, role: "player", characters: m.characters ?? [], here: false, me: false });
    }
    return [...here.values()];
  }

  /** The cards only this player sees ({hands}), from its private doc. */
  privateContent() {
    const doc = this.role === "player" ? this.privateDocs.get(this.me) : null;
    const json = doc ? readJson(doc) : {};
    return { hands: Array.isArray(json.hands) ? json.hands : [] };
  }

  // ---------------------------------------------------------------- local -> Y

  onLocalChange() {
    this.version += 1;
    if (!this.joined) return;
    if (this.role === "player") {
      this.writePublic(shared(this.app.doc));
    } else {
      this.project();
      for (const id of this.members.keys()) this.writePrivate(id);
    }
  }

  /** The MJ's device: publish the player view of the table (store.share), dropping a view
   * made from a table that changed since it was asked for. */
  async project() {
    if (this.projecting) {
      this.again = true;
      return;
    }
    this.projecting = true;
    try {
      do {
        this.again = false;
        const version = this.version;
        const answer = await this.app.call({ op: "store.share", kind: "table", data: this.app.doc, audience: "player" });
        if (answer.error) {
          this.dispatchEvent(new CustomEvent("error", { detail: answer.error }));
          break;
        }
        if (version === this.version) this.writePublic(shared(answer.data));
        else this.again = true;
      } while (this.again);
    } finally {
      this.projecting = false;
    }
  }

  writePublic(view) {
    const before = leaves(this.published);
    if (this.role === "player") {
      // The system states this phone changes: where the MJ's device keeps its own (hidden
      // parts), the player is told, not left believing the change reached the table.
      const was = isObject(this.published?.systems) ? this.published.systems : {};
      for (const [sid, state] of Object.entries(isObject(view.systems) ? view.systems : {})) {
        if (Object.hasOwn(was, sid) && !same(was[sid], state) && !FIELD_MERGED.has(sid)) this.wroteStates.set(sid, state);
      }
    }
    writeJson(this.publicDoc, view, LOCAL);
    this.published = structuredClone(view); // what writeJson made the doc hold (no read back)
    for (const [path, text] of leaves(this.published)) if (before.get(path) !== text) this.written.set(path, text);
    this.saveSoon();
  }

  writePrivate(id) {
    const claimed = this.presence().find((p) => p.id === id)?.characters ?? this.members.get(id)?.characters ?? [];
    writeJson(this.privateDoc(id), privateView(this.app.doc, claimed), LOCAL);
  }

  // ---------------------------------------------------------------- Y -> local

  onPublicUpdate(origin) {
    this.saveSoon();
    if (origin === LOCAL) return;
    const before = this.published;
    const after = readJson(this.publicDoc);
    if (!isObject(after) || !Array.isArray(after.characters)) return; // nothing synced yet
    this.noteOverwritten(after);
    this.published = after;
    if (this.role === "player") {
      if (!this.joined) {
        // The first sync: this device's own table is backed up, then the shared one is its table.
        const done = this.app.replaceDocument(adopt(after, this.app.doc));
        if (!done) return;
        this.joined = true;
        this.saveSoon();
        this.emit();
        return;
      }
      const taken = [];
      for (const [sid, state] of this.wroteStates) {
        const now = isObject(after.systems) ? after.systems[sid] : undefined;
        if (same(now, state)) continue; // still what this phone wrote: not (yet) taken back
        this.wroteStates.delete(sid);
        taken.push(sid);
      }
      if (taken.length) this.dispatchEvent(new CustomEvent("held", { detail: { systems: taken, mine: true } }));
      const next = adopt(after, this.app.doc);
      if (!same(next, this.app.doc)) this.app.update((doc) => {
        for (const key of Object.keys(doc)) delete doc[key];
        Object.assign(doc, structuredClone(next));
      }, { record: false }); // another device's change: not this person's to undo
    } else {
      const kept = held(this.app.doc, before, after);
      if (kept.length) this.dispatchEvent(new CustomEvent("held", { detail: { systems: kept } }));
      const merged = mergePublic(this.app.doc, before, after);
      if (!same(merged, this.app.doc)) this.app.update((doc) => {
        for (const key of Object.keys(doc)) delete doc[key];
        Object.assign(doc, structuredClone(merged));
      }, { record: false }); // another device's change: not this person's to undo
      // Whatever a player changed in a secret-free view, the MJ's table is the source: the
      // player view is published again from it (this also takes back what cannot be merged).
      this.project();
    }
    this.emit();
  }

  /** Values this device wrote that the update replaced go to the history (findable). */
  noteOverwritten(after) {
    const now = leaves(after);
    for (const [path, text] of this.written) {
      const then = now.get(path);
      if (then === text) continue;
      this.written.delete(path);
      if (then === undefined) continue; // the record went: a deletion, not an overwrite
      this.overwritten.push({ path, value: JSON.parse(text), by: JSON.parse(then), at: new Date().toISOString() });
    }
    if (this.overwritten.length > MAX_OVERWRITTEN) this.overwritten.splice(0, this.overwritten.length - MAX_OVERWRITTEN);
  }

  // ---------------------------------------------------------------- persistence

  saveSoon() {
    if (this.saveTimer !== null) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, SAVE_DELAY_MS);
  }

  /** Keep the Y state on this device (rejoining merges from it). Returns false when it did not fit. */
  save() {
    const record = {
      v: 1,
      role: this.role,
      me: this.me,
      joined: this.joined,
      public: toBase64Url(Y.encodeStateAsUpdate(this.publicDoc)),
      private: this.role === "mj"
        ? Object.fromEntries([...this.privateDocs].map(([id, doc]) => [id, toBase64Url(Y.encodeStateAsUpdate(doc))]))
        : toBase64Url(Y.encodeStateAsUpdate(this.privateDocs.get(this.me))),
      members: Object.fromEntries(this.members),
      characters: this.characters,
      overwritten: this.overwritten,
    };
    try {
      this.storage.setItem(LIVE_KEY, JSON.stringify(record));
      return true;
    } catch {
      this.dispatchEvent(new CustomEvent("error", { detail: { code: "live.storage_full" } }));
      return false;
    }
  }

  emit() {
    if (this.role === "mj") {
      for (const p of this.presence()) {
        if (!p.here || p.role !== "player") continue;
        const known = this.members.get(p.id);
        if (known && !same(known.characters, p.characters)) {
          this.members.set(p.id, { ...known, characters: p.characters });
          this.writePrivate(p.id);
        }
      }
    }
    this.dispatchEvent(new Event("change"));
  }

  /** Stop following the table (the saved Y state stays; the links close). */
  close() {
    this.stop();
    if (this.saveTimer !== null) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
      this.save();
    }
    for (const link of this.links.values()) link.close();
    removeAwarenessStates(this.awareness, [this.awareness.clientID], "close");
    this.hub?.destroy();
    this.member?.destroy();
    this.awareness.destroy();
  }
}

// The live table's session: this device's table document <-> the replicated Y docs, and the
// referee (DESIGN.md principle 8).
//
// Roles (docs/ARCHITECTURE.md, "Live table"):
// - The MJ's device (the hub of the star) keeps the whole table, secrets included, in its
//   localStorage as before. It writes into the public Y doc only what any player may see:
//   `store.share` (audience "player"), every system's secrets removed by that system's filter,
//   and into each player's private doc what only that player may see (the cards of the piles
//   shown to their owner whose owner is one of the player's characters, the characters the MJ
//   assigned to them). It is the only writer of every Y doc: it is the referee.
// - A player's device holds the public table as its table and writes no Y doc. What its pages
//   do becomes moves: an op request of the referee's list (`live.moves`: draw a hand, play a
//   card, a secret round choice...) goes to the MJ's device instead of the local engine (this
//   session wraps `app.call`), and a sheet edit or a new roll-log entry made on the phone
//   becomes a `live.character.save` or `live.log.add` move. The MJ's device runs each move
//   through the `live.move` op on its whole table (py/tablee/referee.py) with the member the
//   link belongs to, one move at a time, saves the result and publishes it; the phone shows
//   the referee's answer. While no link is open a move waits in `queue` (kept in storage, shown
//   as "en attente de la table"), is sent when the link is back, or cancelled by the player.
// - Characters are assigned by the MJ: a player asks ("Mes personnages", `ask`), the MJ
//   confirms (`assign`), a character is played by one member at a time.
// - Identity: a member is the id of the link the move came on; the id is public (presence),
//   so a link answering for a known member must carry that member's key (kept on the phone,
//   never broadcast), else it is refused.
// Every device keeps the session in localStorage (`tablee.live`: members, feed, waiting moves)
// and the Y docs' state beside it (`tablee.live.y`, each doc encoded whole, and
// `tablee.live.y.delta`, the updates made since, appended: a save writes what changed, not the
// whole table); rejoining catches up with Yjs's state vectors.

import * as Y from "yjs";
import { Awareness, removeAwarenessStates } from "y-protocols/awareness";

import { fromBase64Url, toBase64Url } from "../share/codec.js";
import { jsonEqual, mirror, readJson, writeJson } from "./ydoc.js";
import { Hub, Member, refusal } from "./sync.js";
import { setPrivateReader } from "./private.js";

export const LIVE_KEY = "tablee.live";
/** Bound of the MJ's feed of incoming moves, and of the moves a phone keeps waiting. */
export const MAX_FEED = 200;
export const MAX_QUEUE = 50;
/** Moves of one member waiting for the referee at once (more are refused: a flood). */
export const MAX_IN_FLIGHT = 20;
/** Answers kept per member, so a move resent after a broken link is not applied twice. */
const MAX_ANSWERED = 100;
/** A move the referee answered "busy" (the MJ's table changed under it three times running,
 * or the member's moves in flight reached MAX_IN_FLIGHT: a state that passes) stays waiting and
 * is sent again after BUSY_RETRY_MS, then twice as long each time, BUSY_RETRIES times at most
 * before the player is told: a queued move is never dropped for a moment of traffic. */
export const BUSY_RETRY_MS = 250;
export const BUSY_RETRIES = 5;
const BUSY = "live.refused.busy";
/** Keys of a table document that stay on each device: its language, its records set apart. */
const LOCAL_KEYS = ["language", "quarantine"];
const LOCAL = Symbol("local");
const SAVE_DELAY_MS = 400;
/** What changes at every move (the Y docs' updates, the feed, an answered move) is saved at most
 * this often; the page going away saves at once. */
const Y_SAVE_DELAY_MS = 3000;
/** The Y docs' state: the base (every doc encoded whole: a 1,000-entry table's public doc is
 * 420 kB, ~100 ms of the main thread to encode and write) and the updates since, appended at
 * each save. The updates are folded into a new base, when the page is idle, once they pass a
 * quarter of the base (at least DELTA_MIN_BYTES). Yjs updates are idempotent: a base and
 * updates that overlap (a crash between two writes) give the same docs. */
export const Y_BASE_KEY = "tablee.live.y";
export const Y_DELTA_KEY = "tablee.live.y.delta";
const DELTA_MIN_BYTES = 32 * 1024;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** Deep equality of JSON values whatever their keys' order (a Y.Map does not keep it). */
const same = (a, b) => a === b || jsonEqual(a, b);

/** A Y.Doc holding the saved state `b64` and then the updates `more` (a fresh one when absent
 * or unreadable). */
function restoreDoc(b64, more = []) {
  const doc = new Y.Doc();
  for (const update of [b64, ...more]) {
    if (typeof update !== "string" || !update) continue;
    try {
      Y.applyUpdate(doc, fromBase64Url(update));
    } catch {
      // An unreadable saved state: what was read stands, the hub's copy comes back with the next sync.
    }
  }
  return doc;
}

/** The saved Y state of a session of `role` (and member `me`): {base, delta} as stored, each
 * null when absent, unreadable or another session's; `delta` only when it follows `base`. */
function readY(storage, role, me) {
  const read = (key) => {
    try {
      const parsed = JSON.parse(storage.getItem(key));
      return isObject(parsed) ? parsed : null;
    } catch {
      return null;
    }
  };
  const base = read(Y_BASE_KEY);
  if (!base || typeof base.id !== "string" || base.role !== role || (role === "player" && base.me !== me)) return { base: null, delta: null };
  const delta = read(Y_DELTA_KEY);
  return { base, delta: delta && delta.base === base.id && Array.isArray(delta.updates) ? delta : null };
}

/** The updates of a doc (`who`: "public", or a member id) saved in `delta`, in order. */
function deltaOf(delta, who) {
  const out = [];
  for (const u of delta?.updates ?? []) {
    if (!isObject(u)) continue;
    if (who === "public") out.push(u.public);
    else if (isObject(u.private)) out.push(u.private[who]);
  }
  return out;
}

/** What of a table document goes into the public doc (the device-local keys taken out). */
export function shared(doc) {
  const out = { ...doc };
  for (const key of LOCAL_KEYS) delete out[key];
  return out;
}

/** A player's table: the public one with this device's own language and records set apart,
 * and the log entries the MJ sent to this player only (`mine`, from its private doc) in the
 * log at their date. */
export function adopt(pub, local, mine = []) {
  const out = { ...pub };
  for (const key of LOCAL_KEYS) {
    if (local && Object.hasOwn(local, key)) out[key] = local[key];
    else delete out[key];
  }
  if (!Object.hasOwn(out, "language")) out.language = "fr";
  const extra = Array.isArray(mine) && Array.isArray(pub.log) ? mine.filter((e) => isObject(e) && !pub.log.some((p) => p?.id === e.id)) : [];
  if (extra.length) out.log = [...pub.log, ...extra].sort((a, b) => (String(a?.at) < String(b?.at) ? -1 : String(a?.at) > String(b?.at) ? 1 : 0));
  return out;
}

/** The MJ's table `doc` (changed in place: the app's copy of it) with the changes of a move the
 * referee made on an equal table (py/tablee/referee.py `changes`, `apply_changes`): the system
 * states replaced, and for the characters and the log the records dropped from the front,
 * replaced at their positions, appended; or a whole list. */
export function applyChanges(doc, changes) {
  if (isObject(changes.systems)) doc.systems = { ...doc.systems, ...changes.systems };
  for (const key of ["characters", "log"]) {
    const change = changes[key];
    if (!isObject(change)) continue;
    if (Array.isArray(change.all)) {
      doc[key] = change.all;
      continue;
    }
    const items = doc[key].slice(Number.isInteger(change.drop) ? change.drop : 0);
    for (const [i, record] of Object.entries(isObject(change.set) ? change.set : {})) items[Number(i)] = record;
    doc[key] = Array.isArray(change.add) ? items.concat(change.add) : items;
  }
  return doc;
}

/** Past this many records replaced in a list, the list goes whole (the worker's bound). */
const MAX_SET = 20;

/** How list `after` is made from `before` (py/tablee/share.py `list_changes`, records compared
 * by identity, then by value): the first `drop` records go, those at the positions `set` are
 * replaced, `add` is appended; or `{all: after}`. Empty when nothing changed. */
function listChanges(before, after) {
  if (after === before) return {};
  const idOf = (r) => (isObject(r) ? r.id : undefined);
  let drop = 0;
  if (after.length && before.length && idOf(after[0]) !== undefined) drop = Math.max(0, before.findIndex((r) => idOf(r) === idOf(after[0])));
  const kept = before.length - drop;
  if (after.length < kept) return { all: after };
  const set = {};
  let count = 0;
  for (let i = 0; i < kept; i += 1) {
    const was = before[drop + i];
    if (after[i] === was) continue;
    if (idOf(after[i]) !== idOf(was)) return { all: after };
    if (jsonEqual(after[i], was)) continue;
    set[i] = after[i];
    count += 1;
    if (count > MAX_SET) return { all: after };
  }
  const out = {};
  if (drop) out.drop = drop;
  if (count) out.set = set;
  if (after.length > kept) out.add = after.slice(kept);
  return out;
}

/** What changed from table `before` (the one the worker holds) to `after`, in the projection's
 * changes (py/tablee/share.py `apply_changes`: `top` values, `systems` replaced, the
 * `characters` and `log` lists' changes), or null when it cannot say it so (a key or a system
 * state gone, a container that is not one): the table then goes whole. */
export function tableChanges(before, after) {
  if (!isObject(before) || !isObject(after)) return null;
  const lists = ["characters", "log"];
  if (!lists.every((k) => Array.isArray(before[k]) && Array.isArray(after[k])) || !isObject(before.systems) || !isObject(after.systems)) return null;
  if (Object.keys(before).some((k) => !Object.hasOwn(after, k)) || Object.keys(before.systems).some((k) => !Object.hasOwn(after.systems, k))) return null;
  const out = {};
  const top = {};
  for (const [k, v] of Object.entries(after)) {
    if (k === "systems" || lists.includes(k)) continue;
    if (v !== before[k] && !jsonEqual(v, before[k])) top[k] = v;
  }
  if (Object.keys(top).length) out.top = top;
  const systems = {};
  for (const [k, v] of Object.entries(after.systems)) if (v !== before.systems[k] && !jsonEqual(v, before.systems[k])) systems[k] = v;
  if (Object.keys(systems).length) out.systems = systems;
  for (const k of lists) {
    const found = listChanges(before[k], after[k]);
    if (Object.keys(found).length) out[k] = found;
  }
  return out;
}

/** A view of the MJ's table (store.share for a player) with the changes since it the worker
 * answered (py/tablee/share.py `view_changes`): a new object, `view` is not changed. */
export function applyViewChanges(view, changes) {
  const out = applyChanges({ ...view }, changes);
  if (isObject(changes.top)) Object.assign(out, changes.top);
  return out;
}

/** The entries of the MJ's log sent to member `id` only ("Envoyer à…": `to` is its id). */
export function sentTo(log, id) {
  return Array.isArray(log) ? log.filter((e) => isObject(e) && e.to === id) : [];
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

/** A move's id: random, unique enough for one phone's moves. */
function moveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A seed the MJ's device draws for a move (a phone never chooses its own). */
function seed() {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return (hi & 0x1fffff) * 2 ** 32 + lo;
}

/** A move as a phone sends it: the request without the state it holds (a concealed copy). */
function asMove(request) {
  const out = { ...request };
  // The phone's copy of a system state (an object) stays here; a `state` that is no object is
  // an op's own field (Unicreon's state at 0 PV, unicreon.health.down).
  if (out.state === undefined || (typeof out.state === "object" && out.state !== null)) delete out.state;
  return out;
}

/**
 * This device's live session. `app` is the app object (doc, update, replaceDocument, call,
 * onDocument); `role` "mj" or "player"; `me` this device's member id (a player's), `name` its
 * name, `key` its member key (a player's: proves a rejoin is the same phone).
 */
export class Session extends EventTarget {
  constructor(app, { role, me = null, name = "", key = null, storage = window.localStorage } = {}) {
    super();
    this.app = app;
    this.role = role;
    this.me = me;
    this.name = name;
    this.key = key;
    this.storage = storage;
    const saved = readLive(storage);
    const mine = saved && saved.role === role ? saved : null;
    // The Y state: its own keys (a record saved before them holds it inline).
    const { base, delta } = mine ? readY(storage, role, me) : { base: null, delta: null };
    const y = base ?? { public: mine?.public, private: mine?.private };
    this.publicDoc = restoreDoc(y.public, deltaOf(delta, "public"));
    // A player takes the public table once it holds the hub's copy: joined, with the saved Y
    // state restored. A saved state that could not be read means joining anew (this device's
    // table is backed up again when the hub's copy arrives).
    this.joined = role === "mj" || (Boolean(mine?.joined) && Array.isArray(readJson(this.publicDoc).characters));
    this.privateDocs = new Map();
    /** The Y updates made since the last save ({public: [update], private: Map(id -> [update])}),
     * the updates saved since the base (`delta`, as stored), the base's id and size. A session
     * read from a record of before the Y keys writes a base first (`yBase` null). */
    this.unsavedY = { public: [], private: new Map() };
    this.yDelta = base && delta ? delta : { base: base?.id ?? null, updates: [] };
    this.yDeltaBytes = JSON.stringify(this.yDelta.updates).length;
    this.yBase = base ? { id: base.id, bytes: JSON.stringify(base).length } : null;
    this.compactAsked = false;
    this.publicDoc.on("update", (update) => this.unsavedY.public.push(update));
    if (role === "mj") {
      const ids = new Set([...Object.keys(isObject(y.private) ? y.private : {}), ...(delta?.updates ?? []).flatMap((u) => (isObject(u?.private) ? Object.keys(u.private) : []))]);
      for (const id of ids) this.privateDocs.set(id, this.watchPrivate(id, restoreDoc(isObject(y.private) ? y.private[id] : null, deltaOf(delta, id))));
    } else {
      this.privateDocs.set(me, this.watchPrivate(me, restoreDoc(typeof y.private === "string" ? y.private : null, deltaOf(delta, me))));
    }
    /** memberId -> {name, key, characters (assigned by the MJ), asked, seen}: the MJ's list. */
    this.members = new Map(Object.entries(isObject(mine?.members) ? mine.members : {}));
    /** The MJ's feed of the moves that arrived: [{at, member, name, op, code}], and how many
     * of them the MJ has not seen yet. */
    this.feed = Array.isArray(mine?.feed) ? mine.feed.slice(-MAX_FEED) : [];
    this.unseen = Number.isInteger(mine?.unseen) ? mine.unseen : 0;
    /** A phone's moves waiting for the table: [{id, move, at, sent}] (kept across reloads). */
    this.queue = Array.isArray(mine?.queue) ? mine.queue.filter((q) => isObject(q) && typeof q.id === "string").slice(-MAX_QUEUE) : [];
    this.waiting = new Map(); // move id -> the page's resolve (this page's moves only)
    this.inFlight = new Map(); // memberId -> moves waiting for the referee (the hub)
    this.answered = new Map(); // memberId -> Map(move id -> answer) (the hub: a resent move)
    this.chain = Promise.resolve(); // the hub: one move at a time, in arrival order
    this.awareness = new Awareness(this.publicDoc);
    // A player's device follows the public doc update by update (only what changed is read
    // again); the MJ's device knows what it wrote.
    this.mirror = role === "player" ? mirror(this.publicDoc) : null;
    this.published = this.mirror ? this.mirror.json : readJson(this.publicDoc); // the public view last written or seen here
    this.projecting = false;
    this.projected = null; // the MJ's table whose view is published or being made
    this.publishedFrom = null; // the MJ's table whose view the public doc holds
    this.view = null; // the worker's last view of it ({id, json}: its changes come next)
    // The MJ's table the worker holds ({doc, rev}: the object sent or made from the worker's
    // answer, and the revision the worker keeps it under; py/tablee/held.py), or null.
    this.held = null;
    this.refereeing = false;
    this.toPublish = []; // the moves applied, published once their answer is sent
    this.saveTimer = null;
    this.links = new Map();

    if (role === "mj") {
      this.hub = new Hub({
        publicDoc: this.publicDoc,
        privateDocFor: (id) => this.privateDoc(id),
        awareness: this.awareness,
        onmove: (id, move) => this.referee(id, move),
        checkPresence: (id, state) => this.checkPresence(id, state),
        onanswered: () => this.publishNow(),
      });
    } else {
      this.member = new Member({ publicDoc: this.publicDoc, privateDoc: this.privateDocs.get(me), awareness: this.awareness });
      this.member.onanswer = (id, answer) => this.onAnswer(id, answer);
      this.member.onsynced = () => this.flush();
      this.privateDocs.get(me).on("update", () => this.onPrivateUpdate());
      this.moveOps = null; // the referee's list of moves (live.moves), asked once
      this.localCall = app.call;
      app.call = (request) => this.call(request);
      this.localAddLog = app.addLog;
      app.addLog = (entry) => this.addLog(entry);
      this.logged = null; // the id of the entry the referee logged for this phone's last move
      // The characters the referee answered for this phone's moves (id -> the answered player
      // view), until the published table shows them: the page writes an answer into its table
      // to show it, and that write is the referee's work, never a sheet edit to send back.
      this.answeredCharacters = new Map();
      // A replay ("Vérifier / rejouer") runs on this phone: sent as a move it would roll again.
      app.callHere = this.localCall;
      this.knowMoves(); // asked at once: a page's addLog needs the list (synchronously)
      setPrivateReader(() => this.privateContent());
    }
    this.awareness.setLocalState({ name, role, characters: this.assigned(), member: me });
    this.awareness.on("change", () => this.emit());
    this.publicDoc.on("update", (update, origin) => {
      try {
        this.onPublicUpdate(origin);
      } catch (error) {
        console.error(error);
      }
    });
    this.stop = app.onDocument(() => this.onLocalChange());
    this.leaving = (event) => {
      if (event?.type === "pagehide" || globalThis.document?.visibilityState === "hidden") this.saveNow();
    };
    globalThis.addEventListener?.("pagehide", this.leaving);
    globalThis.document?.addEventListener("visibilitychange", this.leaving);
    this.onLocalChange();
  }

  /** The private doc of member `id` (created on first use: the MJ's side). */
  privateDoc(id) {
    if (!this.privateDocs.has(id)) {
      const doc = this.watchPrivate(id, new Y.Doc());
      this.privateDocs.set(id, doc);
      doc.on("update", () => this.saveSoon(Y_SAVE_DELAY_MS));
    }
    return this.privateDocs.get(id);
  }

  /** `doc`, member `id`'s private doc, with its updates kept for the next save. */
  watchPrivate(id, doc) {
    doc.on("update", (update) => {
      if (!this.unsavedY.private.has(id)) this.unsavedY.private.set(id, []);
      this.unsavedY.private.get(id).push(update);
    });
    return doc;
  }

  /** The MJ's side: whether a link answering for member `id` with `key` may take its place
   * (a new member, or a known one with its own key). */
  admits(id, key) {
    const known = this.members.get(id);
    return typeof key === "string" && key !== "" && (!known?.key || known.key === key);
  }

  /**
   * A link is open to the hub (a player) or to member `memberId` (the MJ). The MJ's side
   * refuses a link answering for a known member without that member's key (the id is public:
   * every presence shows it), and returns false.
   */
  attach({ link, memberId, name, key = null }) {
    if (this.role === "mj") {
      const known = this.members.get(memberId);
      if (!this.admits(memberId, key)) {
        try {
          link.close();
        } catch {
          // closed already
        }
        this.note(memberId, name, "live.identity", "live.refused.identity");
        this.dispatchEvent(new CustomEvent("refused", { detail: { name, code: "live.refused.identity" } }));
        return false;
      }
      this.members.set(memberId, { characters: [], asked: [], ...known, name, key, seen: new Date().toISOString() });
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
    return true;
  }

  // ---------------------------------------------------------------- characters

  /** The characters this device's player plays (from the private doc the MJ writes). */
  assigned() {
    if (this.role !== "player") return [];
    const json = readJson(this.privateDocs.get(this.me));
    return Array.isArray(json.characters) ? json.characters.filter((c) => typeof c === "string") : [];
  }

  /** What this player asked the MJ for (from the private doc). */
  asked() {
    if (this.role !== "player") return [];
    const json = readJson(this.privateDocs.get(this.me));
    return Array.isArray(json.asked) ? json.asked.filter((c) => typeof c === "string") : [];
  }

  /** A player asks the MJ for these characters ("Mes personnages"): a move the MJ confirms. */
  ask(characters) {
    return this.move({ op: "live.ask", characters: [...new Set(characters.filter((c) => typeof c === "string"))] });
  }

  /** Kept for the pages: a player's "claim" is a request to the MJ. */
  claim(characters) {
    return this.ask(characters);
  }

  /** The MJ assigns characters to member `id` (a character has one player at a time: taken
   * from whoever played it). */
  assign(id, characters) {
    if (this.role !== "mj" || !this.members.has(id)) return;
    const ids = [...new Set(characters.filter((c) => typeof c === "string"))];
    for (const [other, m] of this.members) {
      if (other === id) continue;
      const kept = (m.characters ?? []).filter((c) => !ids.includes(c));
      if (kept.length !== (m.characters ?? []).length) {
        this.members.set(other, { ...m, characters: kept });
        this.writePrivate(other);
      }
    }
    const m = this.members.get(id);
    this.members.set(id, { ...m, characters: ids, asked: [] });
    this.writePrivate(id);
    this.saveSoon();
    this.emit();
  }

  /** Everyone at the table: [{id, name, role, characters, asked, here}] (the MJ's device knows the absent too). */
  presence() {
    const here = new Map();
    for (const [clientId, state] of this.awareness.getStates()) {
      if (!isObject(state) || typeof state.name !== "string") continue;
      const id = typeof state.member === "string" ? state.member : `mj:${clientId}`;
      const known = this.role === "mj" ? this.members.get(id) : null;
      here.set(id, {
        id,
        name: state.name,
        role: state.role === "mj" ? "mj" : "player",
        characters: known ? known.characters ?? [] : Array.isArray(state.characters) ? state.characters.filter((c) => typeof c === "string") : [],
        asked: known ? known.asked ?? [] : [],
        here: true,
        me: clientId === this.awareness.clientID,
      });
    }
    for (const [id, m] of this.members) {
      if (!here.has(id)) here.set(id, { id, name: m.name, role: "player", characters: m.characters ?? [], asked: m.asked ?? [], here: false, me: false });
    }
    return [...here.values()];
  }

  /** The hub: a member announces only itself, as a player, under the name it joined with. */
  checkPresence(id, state) {
    const known = this.members.get(id);
    return isObject(state) && state.member === id && state.role === "player" && known !== undefined && state.name === known.name;
  }

  /** What only this player sees ({hands, characters}), from its private doc. */
  privateContent() {
    const doc = this.role === "player" ? this.privateDocs.get(this.me) : null;
    const json = doc ? readJson(doc) : {};
    return { hands: Array.isArray(json.hands) ? json.hands : [], characters: this.assigned() };
  }

  // ---------------------------------------------------------------- moves (a phone)

  /** The referee's list of moves (`live.moves`), asked once. */
  knowMoves() {
    this.movesAsked ??= Promise.resolve(this.localCall({ op: "live.moves" })).then((r) => {
      this.moveOps = new Set(Array.isArray(r?.moves) ? r.moves : []);
    }, () => {
      this.movesAsked = null;
    });
    return this.movesAsked;
  }

  /** The page's engine calls on a phone: a move goes to the MJ's device, the rest runs here. */
  async call(request) {
    if (this.moveOps === null) await this.knowMoves();
    if (this.moveOps === null) return this.localCall(request);
    if (isObject(request) && this.joined && this.moveOps.has(request.op)) {
      const answer = await this.move(asMove(request));
      for (const key of ["character", "target"]) {
        if (isObject(answer?.[key]) && typeof answer[key].id === "string") this.answeredCharacters.set(answer[key].id, answer[key]);
      }
      // The entry the referee logged for this move: the page's addLog that follows names it.
      // (a page logs after its last move: Versality's test after its resolve, not its draw)
      if (typeof answer?.logged === "string") this.logged = answer.logged;
      return answer;
    }
    return this.localCall(request);
  }

  /** A page logs a result on a phone. The result of a move was logged by the referee itself,
   * from its own run (py/tablee/referee.py): the phone adds nothing, the entry arrives with the
   * table. Anything else is added here and sent as a `live.log.add` move (which the referee
   * refuses when it carries a result the MJ's device did not make). */
  addLog(entry) {
    const op = isObject(entry?.request) ? entry.request.op : null;
    if (this.joined && this.moveOps?.has(op) && op !== "live.log.add") {
      // The page's words for it (its label) go to the referee's entry, nothing else.
      const id = this.logged;
      this.logged = null;
      if (typeof id === "string" && typeof entry.label === "string" && entry.label) {
        this.move({ op: "live.log.label", id, label: entry.label.slice(0, 200) }).then((answer) => this.report(answer));
      }
      return true;
    }
    return this.localAddLog.call(this.app, entry);
  }

  /** Send a move (or keep it waiting while no link is open); resolves with the referee's answer. */
  move(move) {
    const entry = { id: moveId(), move, at: new Date().toISOString(), sent: false };
    if (this.queue.length >= MAX_QUEUE) return Promise.resolve(refusal(BUSY));
    this.queue.push(entry);
    const answer = new Promise((resolve) => this.waiting.set(entry.id, resolve));
    if (this.member?.synced) this.sendMove(entry);
    this.saveSoon(entry.sent ? Y_SAVE_DELAY_MS : SAVE_DELAY_MS);
    this.emit();
    return answer;
  }

  sendMove(entry) {
    if (this.member.send(entry.id, entry.move)) entry.sent = true;
  }

  /** The link is back (both docs synced): the waiting moves go, oldest first. */
  flush() {
    for (const entry of this.queue) this.sendMove(entry);
    this.emit();
  }

  /** A waiting move the referee answered "busy": sent again later (it stays in the queue, shown
   * waiting), unless it was retried BUSY_RETRIES times already (false: the answer stands). A
   * link that is down meanwhile sends it with the others when it is back (flush). */
  retryBusy(entry) {
    const tries = entry.busy ?? 0;
    if (tries >= BUSY_RETRIES) return false;
    entry.busy = tries + 1;
    entry.sent = false;
    setTimeout(() => {
      if (this.queue.includes(entry) && !entry.sent && this.member?.synced) {
        this.sendMove(entry);
        this.emit();
      }
    }, BUSY_RETRY_MS * 2 ** tries);
    this.emit();
    return true;
  }

  /** The player cancels a waiting move (one the MJ's device has not answered). */
  cancel(id) {
    const at = this.queue.findIndex((q) => q.id === id);
    if (at < 0) return false;
    this.queue.splice(at, 1);
    this.waiting.get(id)?.(refusal("live.cancelled"));
    this.waiting.delete(id);
    this.saveSoon();
    this.emit();
    return true;
  }

  onAnswer(id, answer) {
    if (id === null) {
      this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer?.error?.code ?? "live.refused.malformed" } }));
      return;
    }
    const at = this.queue.findIndex((q) => q.id === id);
    if (at >= 0 && answer?.error?.code === BUSY && this.retryBusy(this.queue[at])) return;
    if (at >= 0) this.queue.splice(at, 1);
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    if (resolve) resolve(answer);
    else if (answer?.error) this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer.error.code } }));
    this.saveSoon(Y_SAVE_DELAY_MS);
    this.emit();
  }

  // ---------------------------------------------------------------- the referee (the hub)

  /** A member's move, bound to the link it came on: queued behind the others, run on the
   * whole table, answered. A resent move (same id) gets its first answer again. */
  referee(memberId, move, id = null) {
    const done = this.answered.get(memberId);
    if (id !== null && done?.has(id)) return done.get(id);
    const count = this.inFlight.get(memberId) ?? 0;
    if (count >= MAX_IN_FLIGHT) return refusal(BUSY);
    this.inFlight.set(memberId, count + 1);
    const run = this.chain.then(() => this.applyMove(memberId, move)).catch(() => refusal("live.refused.malformed"));
    this.chain = run.then(() => {}, () => {});
    return run.then((answer) => {
      this.inFlight.set(memberId, (this.inFlight.get(memberId) ?? 1) - 1);
      // (a "busy" answer is not kept: the phone sends the move again, to be run then)
      if (id !== null && answer?.error?.code !== BUSY) {
        const kept = this.answered.get(memberId) ?? new Map();
        kept.set(id, answer);
        if (kept.size > MAX_ANSWERED) kept.delete(kept.keys().next().value);
        this.answered.set(memberId, kept);
      }
      return answer;
    });
  }

  async applyMove(memberId, move) {
    const member = this.members.get(memberId);
    if (!member) return refusal("live.refused.identity");
    if (move.op === "live.ask") {
      const ids = new Set((this.app.doc.characters ?? []).map((c) => c?.id));
      const asked = Array.isArray(move.characters) ? move.characters.filter((c) => typeof c === "string" && ids.has(c)).slice(0, 50) : null;
      if (asked === null) return this.note(memberId, member.name, "live.ask", "live.refused.invalid", refusal("live.refused.invalid", { field: "characters" }));
      this.members.set(memberId, { ...member, asked });
      this.writePrivate(memberId);
      this.saveSoon();
      this.note(memberId, member.name, "live.ask", null);
      return { asked };
    }
    for (let tries = 0; tries < 3; tries += 1) {
      const source = this.app.doc;
      const drawn = seed();
      // The worker's last view: the public view of the table the move makes comes as its changes.
      const base = this.view;
      const request = {
        op: "live.move", member: { id: memberId, name: member.name, characters: member.characters ?? [] },
        move, seed: drawn, now: new Date().toISOString(), changes: true, view: base?.id ?? null,
      };
      let r = await this.app.call({ ...request, ...this.tableFor(source) });
      // The worker holds another table than this one (a reload of the worker, a call between):
      // it acted on nothing; the table goes whole.
      if (r?.stale === true) r = await this.app.call({ ...request, document: source });
      const view = this.learnView(r.projection, base);
      // The worker now holds, under r.rev, the table the move left: `source` when nothing was
      // applied, else `source` with the changes (tied to this device's table below, once it is that).
      if (typeof r.rev === "string") this.held = r.applied ? null : { doc: source, rev: r.rev };
      // The MJ changed the table meanwhile: run it again on the new one. (The app's save
      // replaces the document by an equal one after every change: not a change of the table.)
      if (!this.unchangedSince(source)) continue;
      // The referee's own failure (not a refusal: those come filtered as answers): its code only,
      // as an error's params may quote the table (py/tablee/referee.py, phone_error).
      if (r.error) return this.note(memberId, member.name, move.op, r.error.code, { error: { code: r.error.code, message_key: `error.${r.error.code}`, params: {} } });
      if (!r.applied) return this.note(memberId, member.name, move.op, r.answer?.error?.code ?? null, r.answer, drawn);
      const next = r.document;
      // The session publishes this move itself (below): the app's change is not projected again.
      this.refereeing = true;
      let accepted = false;
      try {
        // (shallow: the changes replace the containers they change, every other record is kept)
        accepted = this.app.update((doc) => {
          if (isObject(r.changes)) {
            applyChanges(doc, r.changes); // (the referee sends what changed, not the whole table)
            return;
          }
          for (const key of Object.keys(doc)) if (!Object.hasOwn(next, key) && key !== "language" && key !== "quarantine") delete doc[key];
          for (const [key, value] of Object.entries(next)) if (key !== "language" && key !== "quarantine") doc[key] = value;
        }, { shallow: true });
      } finally {
        this.refereeing = false;
      }
      if (!accepted) {
        // The MJ's device refused what its referee made (its own checks: the table's size...):
        // nothing is published and the phone is told, never shown a move the table does not hold.
        this.held = null;
        return this.note(memberId, member.name, move.op, "live.refused.invalid", refusal("live.refused.invalid"), drawn);
      }
      if (typeof r.rev === "string") this.held = { doc: this.app.doc, rev: r.rev };
      const made = r.answer?.created;
      if (typeof made === "string") {
        // a character the player made on their phone is theirs
        this.members.set(memberId, { ...member, characters: [...new Set([...(member.characters ?? []), made])] });
      }
      // Published once the MJ's device saved it (savedThen), and after the answer is sent (the
      // hub's `onanswered`, or the next task at the latest): the phone that moved is answered
      // first, and no phone ever holds a table a crash of the MJ's device could take back.
      this.projected = this.app.doc;
      const from = this.app.doc;
      const saved = this.savedThen();
      this.toPublish.push(() => saved.then(() => this.publishMove(view, from)));
      setTimeout(() => this.publishNow(), 0);
      return this.note(memberId, member.name, move.op, null, r.answer, drawn);
    }
    return this.note(memberId, member.name, move.op, BUSY, refusal(BUSY));
  }

  /** What a request needs to name the table: the revision the worker holds when it is `source`
   * (the table sent or made from the worker's answer, or one equal to it), else the table whole.
   * The worker answers any other revision `stale` (py/tablee/held.py). */
  tableFor(source) {
    const held = this.held;
    if (held !== null && (held.doc === source || same(held.doc, source))) {
      held.doc = source;
      return { held: held.rev };
    }
    return { document: source };
  }

  /** The public view the worker answered (`projection`, or store.share's answer) against the
   * view `base` it had: {id, json} kept as the worker's last view, and the view (JSON) or
   * undefined when none came. */
  learnView(answer, base) {
    if (!isObject(answer) || answer.error) {
      if (isObject(answer)) this.view = null; // (an error: the worker's last view is unknown)
      return undefined;
    }
    const made = isObject(answer.changes) && base ? applyViewChanges(base.json, answer.changes) : answer.data;
    this.view = typeof answer.view === "string" && made !== undefined ? { id: answer.view, json: made } : null;
    return made;
  }

  /** Resolves once the MJ's table as it is now is saved on this device (or could not be: the
   * app says so), whatever changes come after it. The public doc is written only then: phones
   * write nothing back, so a table they received and the MJ's device then lost in a crash (not
   * saved yet) would stay on the phones, the MJ's device never knowing it had to take it back. */
  savedThen(upTo = this.app.changeCount?.() ?? Infinity) {
    return Promise.resolve(this.app.saved?.(upTo));
  }

  /** The moves applied and not yet published, published (in the order they were applied). */
  publishNow() {
    for (const publish of this.toPublish.splice(0)) publish();
  }

  /** After a move made the MJ's table `from`: the view answered with it published (or asked for
   * when none came), each member's private doc written. A table changed since is the
   * projection's to publish (the change asked for it). */
  publishMove(view, from) {
    if (!this.unchangedSince(from)) return;
    if (view !== undefined) this.writePublic(shared(view), from);
    else {
      this.projected = null;
      this.project();
    }
    for (const id of this.members.keys()) this.writePrivate(id);
  }

  /** The MJ's feed: one line per move that arrived (who, what, refused or not, and the seed
   * the MJ's device drew for it: the MJ's to replay a draw, never sent to a phone). */
  note(memberId, name, op, code, answer = null, drawn = null) {
    this.feed.push({ at: new Date().toISOString(), member: memberId, name: typeof name === "string" ? name : "",
      op: typeof op === "string" ? op.slice(0, 64) : "", code, seed: drawn });
    if (this.feed.length > MAX_FEED) this.feed.splice(0, this.feed.length - MAX_FEED);
    this.unseen += 1;
    this.saveSoon(Y_SAVE_DELAY_MS);
    this.emit();
    return answer;
  }

  /** The MJ has looked at the feed. */
  seen() {
    this.unseen = 0;
    this.saveSoon();
    this.emit();
  }

  // ---------------------------------------------------------------- local -> Y

  onLocalChange() {
    if (!this.joined || this.refereeing) return; // (a move the referee made publishes itself)
    if (this.role === "player") {
      this.movesFromEdits();
    } else {
      // The app's save replaces the document by an equal one after every change (app.js
      // writePending): the view published, or being made, is that table's already.
      if (this.projected !== null && same(this.app.doc, this.projected)) return;
      this.project();
      for (const id of this.members.keys()) this.writePrivate(id);
    }
  }

  /** Whether the MJ's table holds what `source` held (the same object, or an equal one). */
  unchangedSince(source) {
    return this.app.doc === source || same(this.app.doc, source);
  }

  /** A phone's own edits become moves: a changed sheet of one of its characters, a new
   * roll-log entry. What else changed here is the table's to say (the next public update). */
  movesFromEdits() {
    const pub = isObject(this.published) ? this.published : {};
    const doc = this.app.doc;
    const before = new Map((pub.characters ?? []).filter(isObject).map((c) => [c.id, c]));
    const queued = (op, test) => this.queue.some((q) => q.move.op === op && test(q.move));
    for (const c of doc.characters ?? []) {
      // another player's character too: the referee refuses it, and the phone says so; a new
      // one (made on this phone) joins the table and becomes this player's
      if (!isObject(c) || (before.has(c.id) && same(before.get(c.id), c))) continue;
      if (queued("live.character.save", (m) => same(m.character, c))) continue;
      // A move's answer the page wrote to show it (a save of it could put back, over a change
      // the MJ made since, what the move left; another player's patient would be refused).
      if (this.answeredCharacters.has(c.id) && same(this.answeredCharacters.get(c.id), c)) continue;
      this.move({ op: "live.character.save", character: structuredClone(c) }).then((answer) => this.report(answer));
    }
    const logged = new Set([...(pub.log ?? []), ...this.privateLog()].map((e) => (isObject(e) ? e.id : null)));
    for (const entry of doc.log ?? []) {
      if (!isObject(entry) || logged.has(entry.id) || Object.hasOwn(entry, "to")) continue;
      if (queued("live.log.add", (m) => m.entry?.id === entry.id)) continue;
      this.move({ op: "live.log.add", entry: structuredClone(entry) }).then((answer) => this.report(answer));
    }
  }

  /** A refused edit is said on the phone, and the phone shows the table again (not its guess). */
  report(answer) {
    if (!answer?.error) return;
    this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer.error.code } }));
    this.showTable();
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
        const source = this.app.doc;
        const upTo = this.app.changeCount?.(); // (the changes that made it)
        // (a move published this table meanwhile: nothing left to do)
        if (this.publishedFrom !== null && (this.publishedFrom === source || same(this.publishedFrom, source))) break;
        this.projected = source; // (a change equal to it needs no other view)
        // (`since`: the worker answers the changes since the view it made last, when it did;
        // `hold`: it keeps the table, which the referee's next move then names)
        const base = this.view;
        const ask = { op: "store.share", kind: "table", audience: "player", since: base?.id ?? null, hold: true };
        // The worker holds the table the last move or projection left: what changed since goes,
        // not the table (an edit of one sheet is one record); a worker that holds another
        // table answers stale, and the table goes whole.
        const held = this.held;
        const changes = held !== null ? tableChanges(held.doc, source) : null;
        let answer = changes !== null ? await this.app.call({ ...ask, held: held.rev, changes }) : { stale: true };
        if (answer?.stale === true || answer?.error?.code === "share.changes_mismatch") answer = await this.app.call({ ...ask, data: source });
        if (typeof answer.rev === "string") this.held = { doc: source, rev: answer.rev };
        if (answer.error) {
          this.projected = null;
          this.view = null;
          this.dispatchEvent(new CustomEvent("error", { detail: answer.error }));
          break;
        }
        const made = this.learnView(answer, base);
        await this.savedThen(upTo); // (never a published table that is not saved: see savedThen)
        if (this.unchangedSince(source)) this.writePublic(shared(made), source);
        else this.again = true;
      } while (this.again);
    } finally {
      this.projecting = false;
    }
  }

  /** The public doc becomes `view`, the player view of the MJ's table `from`. */
  writePublic(view, from = null) {
    // The MJ's device is the public doc's only writer: it knows what the doc holds (`published`),
    // so writeJson skips every record equal to the last view.
    writeJson(this.publicDoc, view, LOCAL, this.published);
    this.published = view; // what writeJson made the doc hold (no read back; a view is never changed in place)
    this.publishedFrom = from;
    this.saveSoon(Y_SAVE_DELAY_MS);
  }

  writePrivate(id) {
    const m = this.members.get(id);
    const characters = m?.characters ?? [];
    writeJson(this.privateDoc(id), { ...privateView(this.app.doc, characters), characters, asked: m?.asked ?? [],
      log: sentTo(this.app.doc.log, id) }, LOCAL);
  }

  // ---------------------------------------------------------------- Y -> local

  onPublicUpdate(origin) {
    this.saveSoon(Y_SAVE_DELAY_MS);
    if (origin === LOCAL || this.role !== "player") return; // the hub is the only writer
    const after = this.mirror.json; // readJson's answer, from this update's changes alone
    if (!isObject(after) || !Array.isArray(after.characters)) return; // nothing synced yet
    this.published = after;
    for (const c of after.characters) {
      if (isObject(c) && this.answeredCharacters.has(c.id) && same(this.answeredCharacters.get(c.id), c)) this.answeredCharacters.delete(c.id);
    }
    if (!this.joined) {
      // The first sync: this device's own table is backed up, then the shared one is its table.
      // (a copy: the mirror's objects are never changed in place)
      const done = this.app.replaceDocument(structuredClone(adopt(after, this.app.doc, this.privateLog())));
      if (!done) return;
      this.joined = true;
      this.saveSoon();
      this.emit();
      return;
    }
    this.showTable();
    this.emit();
  }

  /** The entries the MJ sent to this player only (its private doc). */
  privateLog() {
    const doc = this.role === "player" ? this.privateDocs.get(this.me) : null;
    const json = doc ? readJson(doc) : {};
    return Array.isArray(json.log) ? json.log.filter(isObject) : [];
  }

  /** A player's table becomes the published one (with what was sent to it alone). */
  showTable() {
    if (!isObject(this.published) || !Array.isArray(this.published.characters)) return;
    const next = adopt(this.published, this.app.doc, this.privateLog());
    // The records are the mirror's, shared (never changed in place, here or in the app: a change
    // replaces them), so only what an update touched is a new object: the app copies the table
    // one level deep (`shallow`) and checks only the records that are not the ones it had.
    if (!same(next, this.app.doc)) this.app.update((doc) => {
      for (const key of Object.keys(doc)) delete doc[key];
      Object.assign(doc, next);
    }, { record: false, shallow: true }); // the MJ's table as published: not this person's change to undo
  }

  onPrivateUpdate() {
    this.saveSoon(Y_SAVE_DELAY_MS);
    if (this.joined) this.showTable();
    const characters = this.assigned();
    if (!same(this.awareness.getLocalState()?.characters, characters)) this.awareness.setLocalStateField("characters", characters);
    this.emit();
  }

  // ---------------------------------------------------------------- persistence

  /** Save within `delay` ms (an earlier save already planned stands). */
  saveSoon(delay = SAVE_DELAY_MS) {
    const due = Date.now() + delay;
    if (this.saveTimer !== null) {
      if (this.saveDue <= due) return;
      clearTimeout(this.saveTimer);
    }
    this.saveDue = due;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, delay);
  }

  /** The page goes away or out of sight (it may be killed without another word): a planned
   * save is made now. */
  saveNow() {
    if (this.saveTimer === null) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.save();
  }

  /** Keep the session and the Y state on this device (rejoining merges from it): the Y updates
   * made since the last save are appended to the saved ones (a base is written first when there
   * is none). Returns false when it did not fit (what was not written stays to write). */
  save() {
    const pending = this.unsavedY;
    const changed = pending.public.length > 0 || [...pending.private.values()].some((u) => u.length);
    let ok = true;
    try {
      if (this.yBase === null) this.writeBase();
      else if (changed) {
        const update = { public: pending.public.length ? toBase64Url(Y.mergeUpdates(pending.public)) : null };
        if (pending.private.size) {
          update.private = {};
          for (const [id, list] of pending.private) if (list.length) update.private[id] = toBase64Url(Y.mergeUpdates(list));
        }
        const updates = [...this.yDelta.updates, update];
        const text = JSON.stringify({ base: this.yBase.id, updates });
        try {
          this.storage.setItem(Y_DELTA_KEY, text);
        } catch {
          this.writeBase(); // no room for the updates: the docs whole, the updates gone, may fit
          return this.saveRecord();
        }
        this.yDelta = { base: this.yBase.id, updates };
        this.yDeltaBytes = text.length;
        this.unsavedY = { public: [], private: new Map() };
        if (this.yDeltaBytes > Math.max(DELTA_MIN_BYTES, this.yBase.bytes / 4)) this.compactSoon();
      }
    } catch {
      ok = false;
    }
    return this.saveRecord() && ok ? true : this.full();
  }

  /** The Y docs encoded whole as the new base; the updates saved before it are dropped (the base
   * holds them). Throws when it does not fit (the previous base and updates stand). */
  writeBase() {
    const id = moveId();
    const base = {
      id, role: this.role, me: this.me,
      public: toBase64Url(Y.encodeStateAsUpdate(this.publicDoc)),
      private: this.role === "mj"
        ? Object.fromEntries([...this.privateDocs].map(([who, doc]) => [who, toBase64Url(Y.encodeStateAsUpdate(doc))]))
        : toBase64Url(Y.encodeStateAsUpdate(this.privateDocs.get(this.me))),
    };
    const text = JSON.stringify(base);
    this.storage.setItem(Y_BASE_KEY, text);
    this.yBase = { id, bytes: text.length };
    this.unsavedY = { public: [], private: new Map() };
    this.yDelta = { base: id, updates: [] };
    this.yDeltaBytes = 2;
    try {
      this.storage.removeItem(Y_DELTA_KEY); // (updates of an older base are never read again)
    } catch {
      // left behind: it names the previous base, so it is not read
    }
  }

  /** Fold the saved updates into a new base once the page is idle (a long task: never in the
   * middle of the moves arriving). */
  compactSoon() {
    if (this.compactAsked) return;
    this.compactAsked = true;
    const run = () => {
      this.compactAsked = false;
      if (this.yBase === null || this.yDeltaBytes <= Math.max(DELTA_MIN_BYTES, this.yBase.bytes / 4)) return;
      try {
        this.writeBase();
      } catch {
        // no room for a new base: the updates go on being appended (the next save tries again)
      }
    };
    if (typeof globalThis.requestIdleCallback === "function") globalThis.requestIdleCallback(run, { timeout: 30_000 });
    else setTimeout(run, 0);
  }

  /** The session's own record (members, feed, waiting moves). */
  saveRecord() {
    const record = {
      v: 1,
      role: this.role,
      me: this.me,
      joined: this.joined,
      members: Object.fromEntries(this.members),
      feed: this.feed,
      unseen: this.unseen,
      queue: this.queue,
    };
    try {
      this.storage.setItem(LIVE_KEY, JSON.stringify(record));
      return true;
    } catch {
      return false;
    }
  }

  full() {
    this.dispatchEvent(new CustomEvent("error", { detail: { code: "live.storage_full" } }));
    return false;
  }

  emit() {
    this.dispatchEvent(new Event("change"));
  }

  /** Stop following the table (the saved Y state stays; the links close). */
  close() {
    this.stop();
    globalThis.removeEventListener?.("pagehide", this.leaving);
    globalThis.document?.removeEventListener("visibilitychange", this.leaving);
    if (this.saveTimer !== null) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
      this.save();
    }
    if (this.localCall) {
      this.app.call = this.localCall;
      this.app.addLog = this.localAddLog;
      delete this.app.callHere;
      setPrivateReader(null);
    }
    for (const resolve of this.waiting.values()) resolve(refusal("live.cancelled"));
    this.waiting.clear();
    for (const link of this.links.values()) link.close();
    removeAwarenessStates(this.awareness, [this.awareness.clientID], "close");
    this.mirror?.stop();
    this.hub?.destroy();
    this.member?.destroy();
    this.awareness.destroy();
  }
}

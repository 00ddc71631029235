// The live table's session, kept on this device: the session's own record (`tablee.live`:
// members, feed, waiting moves) and, on a player's device, the Y docs' state beside it
// (`tablee.live.y`, each doc encoded whole, and `tablee.live.y.delta`, the updates made since,
// appended: a save writes what changed, not the whole table). The MJ's device keeps no Y state:
// its docs are made again from its table at each start, under a new generation (`epoch`), and a
// phone whose saved docs are of another generation drops them and takes the hub's whole
// (sync.js). The Y state is kept packed, 15 bits a character (`pack`). A phone keeps its public
// doc only while it is small (PUBLIC_Y_MAX_BYTES): beyond, it is a second copy of the table the
// phone already keeps as its table, and a reload takes the hub's state whole again. Methods of
// Session (session.js), with the helpers the session's parts share.
import * as Y from "yjs";

import { fromBase64Url } from "../share/codec.js";
import { storedBytes, toStoredJson } from "../storage.js";
import { jsonEqual } from "./ydoc.js";

export const LIVE_KEY = "tablee.live";
export const SAVE_DELAY_MS = 400;
/** What changes at every move (the Y docs' updates, the feed, an answered move) is saved at most
 * this often; the page going away saves at once. */
export const Y_SAVE_DELAY_MS = 3000;
/** A player's Y docs' state: the base (every doc encoded whole: a 1,000-entry table's public doc
 * is 420 kB, ~100 ms of the main thread to encode and write) and the updates since, appended at
 * each save; each tagged with the generation of the hub's docs it holds (`epoch`). The updates are folded into a new base, when the page is idle, once they pass a
 * DELTA_SHARE of the base (at least DELTA_MIN_BYTES: an eighth keeps a phone's two copies of the
 * table, its table and its Y state, under half of the site's storage in a long evening). Yjs updates are idempotent: a base and
 * updates that overlap (a crash between two writes) give the same docs. */
export const Y_BASE_KEY = "tablee.live.y";
export const Y_DELTA_KEY = "tablee.live.y.delta";
export const DELTA_MIN_BYTES = 32 * 1024;
export const DELTA_SHARE = 1 / 8;
/**
 * A phone keeps its public doc's state only while it costs at most this many bytes as WebKit
 * counts them (storage.storedBytes: the packed characters are above U+00FF, so two bytes each,
 * 1.07 bytes a byte of Yjs's encoding). A full-log campaign's public doc (1.25 MB so packed, beside
 * its table of 1.2 MB) put a phone at 50 % of Safari's storage (55 % with an undo history): past
 * this, the base holds the private doc alone (the player's hand: a phone reloaded offline still
 * shows it), the public doc's updates are not saved, and a reload starts it empty, showing the
 * phone's table (its copy of the public one) until the sync gives the hub's state whole, as after
 * an MJ's restart. Below it, a rejoin exchanges only the differences.
 */
export const PUBLIC_Y_MAX_BYTES = 500_000;
/** The origin of this device's own writes into a Y doc. */
export const LOCAL = Symbol("local");

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** Deep equality of JSON values whatever their keys' order (a Y.Map does not keep it). */
export const same = (a, b) => a === b || jsonEqual(a, b);

/** Bytes as text for localStorage, 15 bits a character: a first character saying how many bits
 * of the last one are padding, then each 15 bits as one character from U+3400 to U+B3FF (no
 * surrogate, nothing JSON escapes). 0.53 characters a byte where base64 spends 1.33; in bytes as
 * WebKit counts them (two a character above U+00FF) 1.07 a byte, still less than base64's 1.33. */
const PACK_BASE = 0x3400;
export function pack(bytes) {
  const out = new Uint16Array(1 + Math.ceil((bytes.length * 8) / 15));
  let acc = 0;
  let bits = 0;
  let n = 1;
  for (let i = 0; i < bytes.length; i++) {
    acc = (acc << 8) | bytes[i];
    bits += 8;
    if (bits >= 15) {
      bits -= 15;
      out[n++] = PACK_BASE + ((acc >>> bits) & 0x7fff);
      acc &= (1 << bits) - 1;
    }
  }
  const pad = bits ? 15 - bits : 0;
  if (bits) out[n++] = PACK_BASE + ((acc << pad) & 0x7fff);
  out[0] = PACK_BASE + pad;
  const parts = [];
  for (let i = 0; i < n; i += 8192) parts.push(String.fromCharCode.apply(null, out.subarray(i, Math.min(n, i + 8192))));
  return parts.join("");
}

/** The bytes `pack` made of them; throws on text it did not make. */
export function unpack(text) {
  const pad = text.charCodeAt(0) - PACK_BASE;
  if (!(pad >= 0 && pad < 15)) throw new RangeError("not packed");
  const length = Math.floor(((text.length - 1) * 15 - pad) / 8);
  const out = new Uint8Array(length);
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 1; i < text.length && n < length; i++) {
    const v = text.charCodeAt(i) - PACK_BASE;
    if (v < 0 || v > 0x7fff) throw new RangeError("not packed");
    acc = ((acc & 0xff) << 15) | v; // (at most 7 bits left over: 22 bits at most)
    bits += 15;
    while (bits >= 8 && n < length) {
      bits -= 8;
      out[n++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

/** A saved Y update as bytes: packed (this version) or base64url (the versions before). */
export function updateBytes(text) {
  return text.charCodeAt(0) >= PACK_BASE ? unpack(text) : fromBase64Url(text);
}

/** A Y.Doc holding the saved state `b64` and then the updates `more` (a fresh one when absent
 * or unreadable). `v2`: the state is in Yjs's second encoding (a base this version wrote: 30 %
 * smaller than the first for a 1,000-entry table); the updates are always in the first. */
export function restoreDoc(b64, more = [], v2 = false) {
  const doc = new Y.Doc();
  for (const [i, update] of [b64, ...more].entries()) {
    if (typeof update !== "string" || !update) continue;
    try {
      if (i === 0 && v2) Y.applyUpdateV2(doc, updateBytes(update));
      else Y.applyUpdate(doc, updateBytes(update));
    } catch {
      // An unreadable saved state: what was read stands, the hub's copy comes back with the next sync.
    }
  }
  return doc;
}

/** The saved Y state of a session of `role` (and member `me`): {base, delta} as stored, each
 * null when absent, unreadable or another session's; `delta` only when it follows `base`. The
 * MJ's device keeps none (its docs are made again from its table). */
export function readY(storage, role, me) {
  if (role !== "player") return { base: null, delta: null };
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
export function deltaOf(delta, who) {
  const out = [];
  for (const u of delta?.updates ?? []) {
    if (!isObject(u)) continue;
    if (who === "public") out.push(u.public);
    else if (isObject(u.private)) out.push(u.private[who]);
  }
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

/** A move's id: random, unique enough for one phone's moves. */
export function moveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Session's methods: persistence. */
export const storeMethods = {
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
  },

  /** The page goes away or out of sight (it may be killed without another word): a planned
   * save is made now. */
  saveNow() {
    if (this.saveTimer === null) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.save();
  },

  /** Keep the session and, on a player's device, the Y state (rejoining merges from it): the Y
   * updates made since the last save are appended to the saved ones (a base is written first
   * when there is none). The MJ's device keeps its record only: its Y docs are a second copy of
   * its table, made again from it at the next start. Returns false when it did not fit (what was
   * not written stays to write). */
  save() {
    if (this.role !== "player") return this.saveRecord() ? true : this.full();
    const pending = this.unsavedY;
    // (the public doc's updates only go on a base that holds it: PUBLIC_Y_MAX_BYTES)
    if (!this.yBase?.public) pending.public = [];
    const changed = pending.public.length > 0 || [...pending.private.values()].some((u) => u.length);
    let ok = true;
    try {
      if (this.yBase === null) this.writeBase();
      else if (changed) {
        const update = { public: pending.public.length ? pack(Y.mergeUpdates(pending.public)) : null };
        if (pending.private.size) {
          update.private = {};
          for (const [id, list] of pending.private) if (list.length) update.private[id] = pack(Y.mergeUpdates(list));
        }
        const updates = [...this.yDelta.updates, update];
        const text = toStoredJson({ base: this.yBase.id, updates });
        try {
          this.storage.setItem(Y_DELTA_KEY, text);
        } catch {
          this.writeBase(); // no room for the updates: the docs whole, the updates gone, may fit
          return this.saveRecord();
        }
        this.yDelta = { base: this.yBase.id, updates };
        this.yDeltaBytes = text.length;
        this.unsavedY = { public: [], private: new Map() };
        if (this.yDeltaBytes > Math.max(DELTA_MIN_BYTES, this.yBase.bytes * DELTA_SHARE)) this.compactSoon();
      }
    } catch {
      ok = false;
    }
    return this.saveRecord() && ok ? true : this.full();
  },

  /** A player's Y docs encoded whole as the new base, with the generation they are of (the
   * public doc only while it is small: PUBLIC_Y_MAX_BYTES); the updates saved before it are
   * dropped (the base holds them). Throws when it does not fit (the previous base and updates
   * stand). */
  writeBase() {
    const id = moveId();
    const base = { id, role: this.role, me: this.me, epoch: this.epoch, format: 2 };
    const shared = pack(Y.encodeStateAsUpdateV2(this.publicDoc));
    if (storedBytes(shared) <= PUBLIC_Y_MAX_BYTES) base.public = shared;
    base.private = pack(Y.encodeStateAsUpdateV2(this.privateDocs.get(this.me)));
    const text = toStoredJson(base);
    this.storage.setItem(Y_BASE_KEY, text);
    this.yBase = { id, bytes: text.length, public: Object.hasOwn(base, "public") };
    this.unsavedY = { public: [], private: new Map() };
    this.yDelta = { base: id, updates: [] };
    this.yDeltaBytes = 2;
    try {
      this.storage.removeItem(Y_DELTA_KEY); // (updates of an older base are never read again)
    } catch {
      // left behind: it names the previous base, so it is not read
    }
  },

  /** Fold the saved updates into a new base once the page is idle (a long task: never in the
   * middle of the moves arriving). */
  compactSoon() {
    if (this.compactAsked) return;
    this.compactAsked = true;
    const run = () => {
      this.compactAsked = false;
      if (this.yBase === null || this.yDeltaBytes <= Math.max(DELTA_MIN_BYTES, this.yBase.bytes * DELTA_SHARE)) return;
      try {
        this.writeBase();
      } catch {
        // no room for a new base: the updates go on being appended (the next save tries again)
      }
    };
    if (typeof globalThis.requestIdleCallback === "function") globalThis.requestIdleCallback(run, { timeout: 30_000 });
    else setTimeout(run, 0);
  },

  /** The saved Y state is dropped (a phone's docs of another generation, or the MJ's docs kept
   * by a version before: a second copy of its table). */
  dropY() {
    this.yBase = null;
    this.yDelta = { base: null, updates: [] };
    this.yDeltaBytes = 2;
    this.unsavedY = { public: [], private: new Map() };
    for (const key of [Y_BASE_KEY, Y_DELTA_KEY]) {
      try {
        this.storage.removeItem(key);
      } catch {
        // nothing to remove
      }
    }
  },

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
      // (the MJ's: the count of publications goes on from there in the next generation, so a
      // phone's answers stay comparable with the tables it gets)
      ...(this.role === "mj" ? { answered: this.answersToKeep(), publications: this.publications } : {}),
    };
    try {
      this.storage.setItem(LIVE_KEY, toStoredJson(record)); // (8-bit: storage.storedJsonText)
      return true;
    } catch {
      return false;
    }
  },

  full() {
    this.dispatchEvent(new CustomEvent("error", { detail: { code: "live.storage_full" } }));
    return false;
  },
};

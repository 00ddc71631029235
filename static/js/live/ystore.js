// The live table's session, kept on this device: the session's own record (`tablee.live`:
// members, feed, waiting moves) and the Y docs' state beside it (`tablee.live.y`, each doc
// encoded whole, and `tablee.live.y.delta`, the updates made since, appended: a save writes what
// changed, not the whole table). Methods of Session (session.js), with the helpers the session's
// parts share.
import * as Y from "yjs";

import { fromBase64Url, toBase64Url } from "../share/codec.js";
import { jsonEqual } from "./ydoc.js";

export const LIVE_KEY = "tablee.live";
export const SAVE_DELAY_MS = 400;
/** What changes at every move (the Y docs' updates, the feed, an answered move) is saved at most
 * this often; the page going away saves at once. */
export const Y_SAVE_DELAY_MS = 3000;
/** The Y docs' state: the base (every doc encoded whole: a 1,000-entry table's public doc is
 * 420 kB, ~100 ms of the main thread to encode and write) and the updates since, appended at
 * each save. The updates are folded into a new base, when the page is idle, once they pass a
 * quarter of the base (at least DELTA_MIN_BYTES). Yjs updates are idempotent: a base and
 * updates that overlap (a crash between two writes) give the same docs. */
export const Y_BASE_KEY = "tablee.live.y";
export const Y_DELTA_KEY = "tablee.live.y.delta";
export const DELTA_MIN_BYTES = 32 * 1024;
/** The origin of this device's own writes into a Y doc. */
export const LOCAL = Symbol("local");

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** Deep equality of JSON values whatever their keys' order (a Y.Map does not keep it). */
export const same = (a, b) => a === b || jsonEqual(a, b);

/** A Y.Doc holding the saved state `b64` and then the updates `more` (a fresh one when absent
 * or unreadable). */
export function restoreDoc(b64, more = []) {
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
export function readY(storage, role, me) {
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
  },

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
  },

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
      ...(this.role === "mj" ? { answered: this.answersToKeep() } : {}),
    };
    try {
      this.storage.setItem(LIVE_KEY, JSON.stringify(record));
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

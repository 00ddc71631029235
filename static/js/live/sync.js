// The live table: Yjs documents and presence kept in sync over Links (see
// /static/js/live/rtc.js for the WebRTC one, memoryLinkPair below for tests), and the moves a
// player's device sends to the MJ's.
//
// Nothing here is a replication protocol of our own: the payloads are y-protocols' sync messages
// (step 1: a state vector; step 2: the missing updates; then Yjs updates) and awareness updates.
// Ours is only the envelope saying which document a message is about:
//   varUint kind (0 sync, 1 awareness, 2 move, 3 answer, 4 generation, 5 version) · varString doc
//   ("public" | "private"; "" otherwise) · the y-protocols payload, or for a move, an answer and
//   a version one JSON text, or for a generation its id.
// Versions (versions.js): a member sends its {build, protocol} first on every link; the hub
// answers with its own, and only then (a member of before the exchange would close its link on
// a kind it does not know). Each end hands the other's to `onversion` once: a hub's member that
// sent none before its first other message is of before the exchange (versions.BEFORE), and so
// is a hub that sent none before its state arrived. A member ignores a kind above the ones it
// knows (a newer hub's: versions.NEWER), never closing its link for it.
// Generations: the MJ's device makes its docs again from its table at each start (it keeps no
// second copy of the table), under a new random id, which the hub sends first on every link. A
// member whose docs are of another generation drops them before anything syncs and takes the
// hub's state whole (`onepoch`): merging two histories would double what Y arrays hold (the log).
// A member sends its sync request (step 1) once it knows the generation.
// Star topology: the MJ's device is the Hub; each player's device a Member with one Link to it.
// The Hub syncs the public doc with every member and member M's private doc with M only (on
// M's link "private" always means M's own: no other member's doc is ever named or sent).
// The Hub is the referee (DESIGN.md principle 8): it takes no write from a member. A member's
// sync step 2 or update is never applied (one that carries anything is answered with the
// refusal `live.refused.write`); a member changes the table only by a move ({id, move}),
// handed to the Hub's `onmove(memberId, move)` with the id of the link it came on (never what
// the message claims) and answered on that link ({id, answer}). What the Hub's docs hold is
// what the MJ's device wrote in them, so the Hub relays nothing it has not accepted. A member
// speaks for its own presence only, as itself (`checkPresence`).
// A bad message from a member (truncated, unknown kind or doc, bigger than `maxBytes`, a
// forged presence, a write) is refused with an answer {id: null, answer: {error}} and dropped:
// the link stays open for honest messages, nothing is thrown into the app. A bad message from
// the hub closes a member's link.
import * as encoding from "lib0/encoding";
import * as decoding from "lib0/decoding";
import * as syncProtocol from "y-protocols/sync";
import * as awarenessProtocol from "y-protocols/awareness";
import * as Y from "yjs";
import { BEFORE, NEWER, OURS, readVersion } from "./versions.js";

/** Message kinds of our envelope. */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_MOVE = 2;
export const MESSAGE_ANSWER = 3;
export const MESSAGE_EPOCH = 4;
export const MESSAGE_VERSION = 5;
/** Bound on a generation's id. */
const MAX_EPOCH = 64;
/** Bound on one message a member sends (a move is a request: a character sheet at most). */
export const MAX_MOVE_BYTES = 256 * 1024;
/** Bound on a move's id (the member's own, echoed in the answer). */
const MAX_MOVE_ID = 64;
/** Default bound on one message: a table document is kept under a few MB in localStorage. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** A refused link (Hub.refuse) stays open this long, for the refusal to reach the phone. */
const REFUSE_CLOSE_MS = 2000;
/** The code of the message that tells a phone the MJ closed the table (Hub.farewell): a link
 * that closes without it was cut (a lost connection, a page gone). */
export const TABLE_CLOSED = "live.closed";

function envelope(kind, doc, write) {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, kind);
  encoding.writeVarString(encoder, doc);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

function syncMessage(doc, write) {
  return envelope(MESSAGE_SYNC, doc, write);
}

function jsonMessage(kind, value) {
  return envelope(kind, "", (e) => encoding.writeVarString(e, JSON.stringify(value)));
}

/** A refusal code as the JSON error the app shows (the message key of tablee's errors). */
export function refusal(code, params = {}) {
  return { error: { code, message_key: `error.${code}`, params } };
}

class Refused extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

function awarenessMessage(awareness, clients) {
  const update = awarenessProtocol.encodeAwarenessUpdate(awareness, clients);
  return envelope(MESSAGE_AWARENESS, "", (e) => encoding.writeVarUint8Array(e, update));
}

/** One end of a sync over a Link: the docs it syncs (by envelope name), the awareness clients
 * it speaks for. Used by Hub and Member alike. */
class Connection {
  /**
   * @param {object} options `hub`: this end is the MJ's (a member's writes are refused, not
   * applied; its bad messages refused, not closing the link); `mayAnnounce(clientId, state,
   * connection)`: whether the peer may speak for that presence; `onmove(move)` (hub) and
   * `onanswer(id, answer)` (member); `onanswered()` (hub): a move's answer was just sent.
   */
  constructor(link, docs, awareness, maxBytes, onclosed, { hub = false, mayAnnounce = () => true, onmove = null, onanswer = null, onanswered = () => {}, onrefused = () => {}, epoch = null, onepoch = null, version = OURS, onversion = () => {} } = {}) {
    this.onrefused = onrefused;
    this.version = version; // (this end's {build, protocol})
    this.onversion = onversion;
    this.peer = undefined; // (the other end's version, once known: see `learn`)
    this.epoch = epoch; // (the hub's: its docs' generation, sent first)
    this.onepoch = onepoch; // (a member's: the hub's generation, before its sync request)
    this.asked = false; // (a member: its sync request sent)
    this.link = link;
    this.hub = hub;
    this.mayAnnounce = mayAnnounce;
    this.onmove = onmove;
    this.onanswered = onanswered;
    this.onanswer = onanswer;
    this.docs = docs; // Map name -> Y.Doc
    this.awareness = awareness;
    this.maxBytes = maxBytes;
    this.clients = new Set(); // awareness client ids this link has announced
    this.synced = new Set(); // docs whose sync step 2 (the peer's missing updates) arrived
    this.refused = 0; // messages refused on this link (the hub's count)
    this.onsynced = () => {};
    this.closed = false;
    this.onclosed = onclosed;
    link.onmessage = (bytes) => this.receive(bytes);
    link.onclose = () => this.shut();
  }

  send(bytes) {
    if (!this.closed) this.link.send(bytes);
  }

  start() {
    if (this.hub) {
      if (typeof this.epoch === "string") this.send(envelope(MESSAGE_EPOCH, "", (e) => encoding.writeVarString(e, this.epoch)));
      this.ask();
    }
    else if (this.version !== null) this.send(jsonMessage(MESSAGE_VERSION, this.version)); // (a member's, first: the hub answers)
    // (a member asks once it knows the hub's generation: the first message the hub sends; a hub
    // of a version before generations sends none, and its first message stands for it)
    const states = Array.from(this.awareness.getStates().keys());
    if (states.length) this.send(awarenessMessage(this.awareness, states));
  }

  /** Sync step 1 for each doc: what this end has, so the other sends what it lacks. */
  ask() {
    this.asked = true;
    for (const [name, doc] of this.docs) this.send(syncMessage(name, (e) => syncProtocol.writeSyncStep1(e, doc)));
  }

  /** Answer a move (or, id null, say why a message was refused). */
  answer(id, answer) {
    this.send(jsonMessage(MESSAGE_ANSWER, { id, answer }));
  }

  /** Handle one message: the hub refuses a bad one (the link stays open), a member closes. */
  receive(bytes) {
    if (this.closed) return;
    if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes); // a data channel's own type
    try {
      if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw new Refused("live.refused.malformed");
      if (bytes.length > this.maxBytes) throw new Refused("live.refused.too_large");
      const decoder = decoding.createDecoder(bytes);
      const kind = decoding.readVarUint(decoder);
      const name = decoding.readVarString(decoder);
      if (kind === MESSAGE_VERSION && name === "") {
        this.receiveVersion(decoder);
        return;
      }
      if (this.hub) this.learn(BEFORE); // (a member that did not say its version first has none)
      if (kind === MESSAGE_EPOCH && name === "" && !this.hub) {
        this.receiveEpoch(decoder);
        return;
      }
      if (!this.hub && kind > MESSAGE_VERSION) {
        this.learn(NEWER); // (a newer hub's message: ignored, and the member told to update)
        return;
      }
      if (!this.hub && !this.asked) this.ask();
      if (kind === MESSAGE_SYNC) this.receiveSync(decoder, name);
      else if (kind === MESSAGE_AWARENESS && name === "") this.receiveAwareness(decoder);
      else if (kind === MESSAGE_MOVE && name === "" && this.hub) this.receiveMove(decoder);
      else if (kind === MESSAGE_ANSWER && name === "" && !this.hub) this.receiveAnswer(decoder);
      else throw new Refused("live.refused.malformed");
    } catch (error) {
      if (!this.hub) {
        this.close();
        return;
      }
      this.refused += 1;
      const code = error instanceof Refused ? error.code : "live.refused.malformed";
      this.answer(null, refusal(code));
      try {
        this.onrefused(code); // (the MJ's feed: every refusal reaches it)
      } catch {
        // the app's: never a reason to drop the link
      }
    }
  }

  receiveSync(decoder, name) {
    const doc = this.docs.get(name);
    if (!doc) throw new Refused("live.refused.malformed");
    const type = decoding.readVarUint(decoder);
    if (this.hub && type !== syncProtocol.messageYjsSyncStep1) {
      // A member's step 2 or update is never applied: the hub's docs hold what the MJ's
      // device wrote. An honest member has nothing the hub lacks (an empty diff).
      const update = decoding.readVarUint8Array(decoder);
      const missing = Y.diffUpdate(update, Y.encodeStateVector(doc));
      if (Y.decodeUpdate(missing).structs.length) throw new Refused("live.refused.write");
      if (type === syncProtocol.messageYjsSyncStep2) this.stepTwo(name);
      return;
    }
    if (type === syncProtocol.messageYjsSyncStep1) {
      this.send(syncMessage(name, (e) => syncProtocol.readSyncStep1(decoder, e, doc)));
      return;
    }
    if (type !== syncProtocol.messageYjsSyncStep2 && type !== syncProtocol.messageYjsUpdate) throw new RangeError("unknown sync message");
    syncProtocol.readUpdate(decoder, doc, this, (error) => {
      throw error;
    });
    if (type === syncProtocol.messageYjsSyncStep2) this.stepTwo(name);
  }

  /** A member learns the generation of the hub's docs (its docs may be replaced: `onepoch`),
   * then asks for what it lacks, again if it asked already (a request sent before it knew). */
  receiveEpoch(decoder) {
    const epoch = decoding.readVarString(decoder);
    if (!epoch || epoch.length > MAX_EPOCH) throw new RangeError("bad generation");
    this.onepoch?.(epoch, this);
    this.ask();
  }

  /** The other end's version: kept once (the first one said), handed to `onversion`; a hub
   * answers a member's with its own. A version that is not one is refused (malformed). */
  receiveVersion(decoder) {
    let value;
    try {
      value = readVersion(JSON.parse(decoding.readVarString(decoder)));
    } catch {
      value = null;
    }
    // (an end made with version null acts as a Tablée of before the exchange: tests/js)
    if (value === null || this.version === null) throw new Refused("live.refused.malformed");
    if (this.hub && this.peer === undefined) this.send(jsonMessage(MESSAGE_VERSION, this.version));
    this.learn(value);
  }

  learn(version) {
    if (this.peer !== undefined) return;
    this.peer = version;
    queueMicrotask(() => {
      try {
        this.onversion(version);
      } catch (error) {
        console.error(error); // (the app's: never a reason to drop the link)
      }
    });
  }

  stepTwo(name) {
    if (this.synced.has(name)) return;
    this.synced.add(name);
    if (!this.hub && this.synced.size === this.docs.size) this.learn(BEFORE); // (the hub's state, and no version before it)
    // the app's callback runs on its own: an error in it is the app's, not a bad message
    if (this.synced.size === this.docs.size) queueMicrotask(() => this.onsynced());
  }

  receiveAwareness(decoder) {
    const update = decoding.readVarUint8Array(decoder);
    for (const { id, state } of awarenessClients(update)) {
      if (!this.mayAnnounce(id, state, this)) throw new Refused("live.refused.presence");
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, this);
  }

  receiveMove(decoder) {
    let message;
    try {
      message = JSON.parse(decoding.readVarString(decoder));
    } catch {
      throw new Refused("live.refused.malformed");
    }
    const ok = message !== null && typeof message === "object" && !Array.isArray(message)
      && typeof message.id === "string" && message.id.length > 0 && message.id.length <= MAX_MOVE_ID
      && message.move !== null && typeof message.move === "object" && !Array.isArray(message.move);
    if (!ok) throw new Refused("live.refused.malformed");
    const { id, move } = message;
    Promise.resolve()
      .then(() => this.onmove(move, id))
      .catch(() => refusal("live.refused.malformed"))
      .then((answer) => {
        this.answer(id, answer);
        this.onanswered();
      });
  }

  receiveAnswer(decoder) {
    const message = JSON.parse(decoding.readVarString(decoder));
    if (message === null || typeof message !== "object") throw new RangeError("bad answer");
    queueMicrotask(() => this.onanswer?.(message.id, message.answer));
  }

  close() {
    if (this.closed) return;
    try {
      this.link.close();
    } catch {
      // a failing close is a closed link all the same
    }
    this.shut();
  }

  shut() {
    if (this.closed) return;
    this.closed = true;
    this.link.onmessage = () => {};
    this.link.onclose = () => {};
    this.onclosed(this);
  }
}

/** The clients an awareness update speaks for, with the state it gives each (y-protocols'
 * layout: a count, then per client its id, clock and state JSON); a malformed update throws. */
function awarenessClients(update) {
  const decoder = decoding.createDecoder(update);
  const out = [];
  const count = decoding.readVarUint(decoder);
  for (let i = 0; i < count; i++) {
    const id = decoding.readVarUint(decoder);
    decoding.readVarUint(decoder);
    out.push({ id, state: JSON.parse(decoding.readVarString(decoder)) });
  }
  return out;
}

/** Track which awareness clients each connection announced (their states go away with it). */
function trackClients(changes, origin) {
  if (origin instanceof Connection) {
    for (const id of [...changes.added, ...changes.updated]) origin.clients.add(id);
    for (const id of changes.removed) origin.clients.delete(id);
  }
}

/**
 * The MJ's device: syncs the public doc with every attached member, and each member's private
 * doc with that member only; relays updates and presence between members.
 */
export class Hub {
  /**
   * @param {object} options
   * @param {import("yjs").Doc} options.publicDoc the table as any player may see it
   * @param {(memberId: string) => import("yjs").Doc} options.privateDocFor that member's own doc
   * @param {awarenessProtocol.Awareness} options.awareness presence (on the public doc)
   * @param {number} [options.maxBytes] bound on one message from a member (bigger is refused)
   * @param {(memberId: string, move: object, id: string) => Promise<object>|object} [options.onmove]
   *   the referee: a member's move (and its id), with the id of the link it came on, to the
   *   answer it gets
   * @param {(memberId: string, state: object) => boolean} [options.checkPresence] whether a
   *   member may announce this presence (its own id, as a player)
   * @param {() => void} [options.onanswered] called right after a move's answer is sent (the
   *   referee publishes the move's table then: the phone that moved is answered first)
   * @param {(memberId: string, code: string) => void} [options.onrefused] a member's message
   *   was refused (the code it was answered with): the MJ's feed shows it
   * @param {string} [options.epoch] the generation of these docs (made anew at each start of the
   *   MJ's device), sent first on every link
   * @param {{build: string, protocol: number}} [options.version] this device's (versions.OURS)
   * @param {(memberId: string, version: object) => void} [options.onversion] a member's version,
   *   once per link (versions.BEFORE when it sent none)
   */
  constructor({ publicDoc, privateDocFor, awareness, maxBytes = MAX_MOVE_BYTES, epoch = null, version = OURS,
    onmove = () => refusal("live.refused.not_a_move"), checkPresence = () => true, onanswered = () => {}, onrefused = () => {}, onversion = () => {} }) {
    this.epoch = epoch;
    this.version = version;
    this.onversion = onversion;
    this.onmove = onmove;
    this.onrefused = onrefused;
    this.onanswered = onanswered;
    this.checkPresence = checkPresence;
    this.publicDoc = publicDoc;
    this.privateDocFor = privateDocFor;
    this.awareness = awareness;
    this.maxBytes = maxBytes;
    /** @type {Map<string, Connection>} memberId -> its live connection */
    this.members = new Map();
    this.privateWatched = new Map(); // memberId -> {doc, handler}
    this.onPublicUpdate = (update, origin) => {
      for (const conn of this.members.values()) {
        if (conn !== origin) conn.send(syncMessage("public", (e) => syncProtocol.writeUpdate(e, update)));
      }
    };
    this.onAwareness = (changes, origin) => {
      trackClients(changes, origin);
      const changed = [...changes.added, ...changes.updated, ...changes.removed];
      const bytes = awarenessMessage(this.awareness, changed);
      for (const conn of this.members.values()) if (conn !== origin) conn.send(bytes);
    };
    publicDoc.on("update", this.onPublicUpdate);
    awareness.on("update", this.onAwareness);
  }

  /**
   * Sync with a member over a link (a member attached already is detached first).
   * @param {{send: Function, close: Function, onmessage: Function, onclose: Function}} link
   * @param {string} memberId
   */
  attach(link, memberId) {
    this.detach(memberId);
    const privateDoc = this.watchPrivate(memberId);
    const docs = new Map([["public", this.publicDoc], ["private", privateDoc]]);
    const conn = new Connection(link, docs, this.awareness, this.maxBytes, (closed) => this.closed(memberId, closed), {
      hub: true,
      epoch: this.epoch,
      mayAnnounce: (clientId, state, from) => this.mayAnnounce(clientId, from)
        && (state === null || this.checkPresence(memberId, state)),
      // bound to the link's member: what the move says of its sender is not read
      onmove: (move, id) => this.onmove(memberId, move, id),
      onanswered: () => this.onanswered(),
      onrefused: (code) => this.onrefused(memberId, code),
      version: this.version,
      onversion: (version) => this.onversion(memberId, version),
    });
    this.members.set(memberId, conn);
    conn.start();
    return conn;
  }

  /** A member speaks only for its own presence: never the hub's, never another member's
   * (else it could mark the MJ or another player away, or pass for them). */
  mayAnnounce(clientId, from) {
    if (clientId === this.awareness.clientID) return false;
    for (const conn of this.members.values()) if (conn !== from && conn.clients.has(clientId)) return false;
    return true;
  }

  watchPrivate(memberId) {
    const doc = this.privateDocFor(memberId);
    const known = this.privateWatched.get(memberId);
    if (known && known.doc === doc) return doc;
    if (known) known.doc.off("update", known.handler);
    const handler = (update, origin) => {
      const conn = this.members.get(memberId);
      if (conn && conn !== origin) conn.send(syncMessage("private", (e) => syncProtocol.writeUpdate(e, update)));
    };
    doc.on("update", handler);
    this.privateWatched.set(memberId, { doc, handler });
    return doc;
  }

  closed(memberId, conn) {
    if (this.members.get(memberId) === conn) this.members.delete(memberId);
    // the member is away: its presence goes, for the hub and (relayed) for every other member
    awarenessProtocol.removeAwarenessStates(this.awareness, Array.from(conn.clients), conn);
  }

  /** Refuse a link before syncing anything on it: the phone gets the refusal (`code`, as an
   * answer with id null) and the link closes a moment later (a close at once could drop it). */
  refuse(link, code, delay = REFUSE_CLOSE_MS) {
    link.onmessage = () => {};
    try {
      link.send(jsonMessage(MESSAGE_ANSWER, { id: null, answer: refusal(code) }));
    } catch {
      // a closed link: nothing to tell
    }
    setTimeout(() => {
      try {
        link.close();
      } catch {
        // closed already
      }
    }, delay);
  }

  /** The table closes (the MJ's choice): every member is told (an answer with id null and the
   * code TABLE_CLOSED) before its link closes, when the phone closes it on hearing it or `delay`
   * ms later (a close at once could drop the message). Resolves once every link is closed. */
  async farewell(delay = REFUSE_CLOSE_MS) {
    const conns = Array.from(this.members.values());
    for (const conn of conns) conn.answer(null, refusal(TABLE_CLOSED));
    const until = Date.now() + delay;
    while (conns.some((conn) => !conn.closed) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const conn of conns) conn.close();
  }

  /** Close a member's link (its presence goes away). */
  detach(memberId) {
    const conn = this.members.get(memberId);
    if (conn) conn.close();
  }

  /** The ids of the members whose link is open. */
  attached() {
    return Array.from(this.members.keys());
  }

  /** Close every link and stop listening to the docs. */
  destroy() {
    for (const id of Array.from(this.members.keys())) this.detach(id);
    this.publicDoc.off("update", this.onPublicUpdate);
    this.awareness.off("update", this.onAwareness);
    for (const { doc, handler } of this.privateWatched.values()) doc.off("update", handler);
    this.privateWatched.clear();
  }
}

/**
 * A player's device: syncs its public doc and its own private doc with the hub.
 */
export class Member {
  /**
   * @param {object} options
   * @param {import("yjs").Doc} options.publicDoc
   * @param {import("yjs").Doc} options.privateDoc
   * @param {awarenessProtocol.Awareness} options.awareness presence; set your own state with
   *   `awareness.setLocalState({name, characters: [ids], role: "player"})`
   * @param {number} [options.maxBytes]
   * @param {string|null} [options.epoch] the generation of the hub's docs these docs hold (null:
   *   not known, a fresh device or a copy saved by a version before generations)
   */
  constructor({ publicDoc, privateDoc, awareness, maxBytes = MAX_MESSAGE_BYTES, epoch = null, version = OURS }) {
    this.epoch = epoch;
    this.version = version;
    /** Called with the hub's version once per link (versions.BEFORE: it sent none; NEWER: it
     * sent a kind this device does not know). */
    this.onversion = () => {};
    /** Called with (epoch, held) when the hub's docs are of another generation than these, before
     * anything syncs: `held` true when these docs hold anything, which must not be merged with the
     * hub's (the caller gives fresh docs with `useDocs`). */
    this.onepoch = () => {};
    this.publicDoc = publicDoc;
    this.privateDoc = privateDoc;
    this.awareness = awareness;
    this.maxBytes = maxBytes;
    this.conn = null;
    /** Called once per attach, when both docs have received the hub's state. */
    this.onsynced = () => {};
    /** Called with (id, answer) for each answer of the hub (id null: a message refused). */
    this.onanswer = () => {};
    this.onUpdate = (name) => (update, origin) => {
      if (this.conn && this.conn !== origin) this.conn.send(syncMessage(name, (e) => syncProtocol.writeUpdate(e, update)));
    };
    this.onPublic = this.onUpdate("public");
    this.onPrivate = this.onUpdate("private");
    this.onAwareness = (changes, origin) => {
      trackClients(changes, origin);
      if (this.conn && this.conn !== origin) {
        this.conn.send(awarenessMessage(this.awareness, [...changes.added, ...changes.updated, ...changes.removed]));
      }
    };
    publicDoc.on("update", this.onPublic);
    privateDoc.on("update", this.onPrivate);
    awareness.on("update", this.onAwareness);
  }

  /** Whether the link to the hub is open. */
  get connected() {
    return this.conn !== null && !this.conn.closed;
  }

  /** Whether both docs received the hub's state on this link (before that, a member should
   * not create containers the hub's document already has: see ydoc.js). */
  get synced() {
    return this.connected && this.conn.synced.size === 2;
  }

  /**
   * Sync with the hub over a link (a previous link is closed first). On a rejoin, what changed
   * on either side meanwhile is exchanged (sync step 1/2 both ways).
   */
  attach(link) {
    this.detach();
    const local = this.awareness.getLocalState();
    // The hub dropped our state when the old link closed, at our last clock: announce it at a
    // newer clock, or the hub and the others would ignore it.
    if (local !== null) this.awareness.setLocalState(local);
    // Remote states we dropped keep their old clock in meta: forget it so the hub's full state
    // (sent at those same clocks) is taken again.
    for (const id of Array.from(this.awareness.meta.keys())) {
      if (id !== this.awareness.clientID && !this.awareness.states.has(id)) this.awareness.meta.delete(id);
    }
    const docs = new Map([["public", this.publicDoc], ["private", this.privateDoc]]);
    this.conn = new Connection(link, docs, this.awareness, this.maxBytes, (conn) => this.closed(conn), {
      onanswer: (id, answer) => this.onanswer(id, answer),
      version: this.version,
      onversion: (version) => this.onversion(version),
      onepoch: (epoch, conn) => {
        if (epoch === this.epoch) return;
        const held = [this.publicDoc, this.privateDoc].some((doc) => doc.store.clients.size > 0);
        this.epoch = epoch;
        this.onepoch(epoch, held);
        conn.docs = new Map([["public", this.publicDoc], ["private", this.privateDoc]]);
        conn.synced.clear();
      },
    });
    this.conn.onsynced = () => this.onsynced();
    this.conn.start();
    return this.conn;
  }

  /** Follow these docs instead (the hub's of a new generation: fresh ones, that its state fills). */
  useDocs(publicDoc, privateDoc) {
    this.publicDoc.off("update", this.onPublic);
    this.privateDoc.off("update", this.onPrivate);
    this.publicDoc = publicDoc;
    this.privateDoc = privateDoc;
    publicDoc.on("update", this.onPublic);
    privateDoc.on("update", this.onPrivate);
  }

  closed(conn) {
    if (this.conn === conn) this.conn = null;
    // alone: everyone else is away from this device's point of view
    const others = Array.from(this.awareness.getStates().keys()).filter((id) => id !== this.awareness.clientID);
    awarenessProtocol.removeAwarenessStates(this.awareness, others, conn);
  }

  /** Send a move to the hub (false when no link is open: the caller keeps it waiting). */
  send(id, move) {
    if (!this.connected) return false;
    this.conn.send(jsonMessage(MESSAGE_MOVE, { id, move }));
    return true;
  }

  /** Close the link to the hub (the docs are kept: attach again to rejoin). */
  detach() {
    if (this.conn) this.conn.close();
  }

  destroy() {
    this.detach();
    this.publicDoc.off("update", this.onPublic);
    this.privateDoc.off("update", this.onPrivate);
    this.awareness.off("update", this.onAwareness);
  }
}

/**
 * Two Links wired to each other, for tests. Delivery is asynchronous (a microtask) and ordered;
 * with `manual: true` nothing is delivered until the test says so: `a.pending` holds what `a`
 * sent, `a.deliver(n = 1)` hands the oldest n to `b` (returns how many), so a test holds and
 * interleaves the messages of several links. `a.sent` counts the messages; `a.received`
 * keeps every message `a` received (to inspect what a device was sent).
 * @param {{manual?: boolean}} [options]
 * @returns {[object, object]}
 */
export function memoryLinkPair({ manual = false } = {}) {
  const make = () => ({
    open: true,
    pending: [],
    received: [],
    sent: 0,
    onmessage: () => {},
    onclose: () => {},
    peer: null,
    send(bytes) {
      if (!this.open) return;
      this.sent += 1;
      this.pending.push(Uint8Array.from(bytes));
      if (!manual) queueMicrotask(() => this.deliver(1));
    },
    deliver(n = 1) {
      let done = 0;
      while (done < n && this.pending.length && this.open && this.peer.open) {
        const bytes = this.pending.shift();
        this.peer.received.push(bytes);
        this.peer.onmessage(bytes);
        done += 1;
      }
      return done;
    },
    close() {
      for (const end of [this, this.peer]) {
        if (!end.open) continue;
        end.open = false;
        end.pending.length = 0;
        queueMicrotask(() => end.onclose());
      }
    },
  });
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

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
// Every device keeps the session in localStorage (`tablee.live`: members, feed, waiting moves);
// a player's device keeps the Y docs' state beside it (`tablee.live.y`, each doc encoded whole,
// and `tablee.live.y.delta`, the updates made since, appended: a save writes what changed, not
// the whole table), so rejoining catches up with Yjs's state vectors; its public doc only while
// it is small (ystore.js PUBLIC_Y_MAX_BYTES: beyond, a reload takes the hub's state whole). The MJ's device keeps no Y
// state (a second copy of its table): its docs are made again from the table at each start, as
// a new generation (`epoch`, sync.js), and a phone holding another generation's docs drops them
// and takes the hub's whole.

import * as Y from "yjs";
import { Awareness, removeAwarenessStates } from "y-protocols/awareness";

import { mirror, readJson } from "./ydoc.js";
import { Hub, Member, refusal } from "./sync.js";
import { setPrivateReader } from "./private.js";
import { hubMethods, MAX_FEED, META, NAME_TAKEN, RATE_BURST, RATE_PER_MINUTE } from "./hub.js";
import { MAX_QUEUE, memberMethods } from "./member.js";
import { deltaOf, isObject, moveId, PUBLIC_Y_MAX_BYTES, readLive, readY, restoreDoc, same, storeMethods, Y_SAVE_DELAY_MS } from "./ystore.js";
import { storedBytes } from "../storage.js";
import { OURS, whoUpdates } from "./versions.js";

export { LIVE_KEY, readLive, Y_BASE_KEY, Y_DELTA_KEY } from "./ystore.js";
export { applyChanges, applyViewChanges, MAX_FEED, MAX_IN_FLIGHT, privateView, sentTo, shared, tableChanges } from "./hub.js";
export { adopt, BUSY_RETRIES, BUSY_RETRY_MS, MAX_QUEUE } from "./member.js";

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
    // A player's Y state: its own keys (a record saved before them holds it inline). The MJ's
    // device makes its docs again from its table, under a new generation, and drops a copy a
    // version before this one kept.
    const { base, delta } = mine ? readY(storage, role, me) : { base: null, delta: null };
    const y = role !== "player" ? {} : base ?? { public: mine?.public, private: mine?.private };
    /** The generation of the hub's docs this device holds (the MJ's: made now; a phone's: the one
     * its saved docs are of, null when unknown). */
    this.epoch = role === "mj" ? moveId() : typeof base?.epoch === "string" ? base.epoch : null;
    this.publicDoc = restoreDoc(y.public, deltaOf(delta, "public"), base?.format === 2);
    // A player takes the public table once it holds the hub's copy (its own table backed up
    // then); after that its table is the public one, whatever became of its Y state (dropped for
    // a new generation, or not saved): the hub's state comes back with the next sync, and the
    // table is not backed up again.
    this.joined = role === "mj" || Boolean(mine?.joined);
    this.privateDocs = new Map();
    /** The Y updates made since the last save ({public: [update], private: Map(id -> [update])}),
     * the updates saved since the base (`delta`, as stored), the base's id and size. A session
     * read from a record of before the Y keys writes a base first (`yBase` null). */
    this.unsavedY = { public: [], private: new Map() };
    this.yDelta = base && delta ? delta : { base: base?.id ?? null, updates: [] };
    this.yDeltaBytes = JSON.stringify(this.yDelta.updates).length;
    // (`public`: whether the base holds the public doc, whose updates are then saved too; a base
    // of a version before holding a large one is written again at the first save, without it)
    this.yBase = base ? { id: base.id, bytes: JSON.stringify(base).length, public: typeof base.public === "string" } : null;
    if (this.yBase?.public && storedBytes(base.public) > PUBLIC_Y_MAX_BYTES) this.yBase = null;
    this.compactAsked = false;
    // (a phone's updates are kept for its next save; the MJ's device saves none)
    if (role === "player") this.publicDoc.on("update", (update) => this.unsavedY.public.push(update));
    else this.dropY(); // (a second copy of the table, kept by a version before)
    // (the MJ's private docs are made again too, each member's at its first write)
    if (role === "player") this.privateDocs.set(me, this.watchPrivate(me, restoreDoc(typeof y.private === "string" ? y.private : null, deltaOf(delta, me), base?.format === 2)));
    /** memberId -> {name, key, characters (assigned by the MJ), asked, seen}: the MJ's list. */
    this.members = new Map(Object.entries(isObject(mine?.members) ? mine.members : {}));
    /** The MJ's feed of the moves that arrived: [{at, member, name, op, code}], and how many
     * of them the MJ has not seen yet. */
    this.feed = Array.isArray(mine?.feed) ? mine.feed.slice(-MAX_FEED) : [];
    this.unseen = Number.isInteger(mine?.unseen) ? mine.unseen : 0;
    /** A phone's moves waiting for the table: [{id, move, at, sent}] (kept across reloads). */
    this.queue = Array.isArray(mine?.queue) ? mine.queue.filter((q) => isObject(q) && typeof q.id === "string").slice(-MAX_QUEUE) : [];
    this.waiting = new Map(); // move id -> the page's resolve (this page's moves only)
    this.waitingShown = new Map(); // move id -> its « en attente » sign on the page (member.js)
    this.inFlight = new Map(); // memberId -> moves waiting for the referee (the hub)
    // memberId -> Map(move id -> answer) (the hub: a resent move is answered, never run again;
    // kept in the saved session too), and the moves running (a move sent twice at once)
    this.answered = new Map(Object.entries(isObject(mine?.answered) ? mine.answered : {})
      .filter(([, list]) => Array.isArray(list))
      .map(([member, list]) => [member, new Map(list.filter((e) => Array.isArray(e) && typeof e[0] === "string"))]));
    this.running = new Map();
    this.changes = new Map(); // memberId -> its last changes (the hub: a player's « Annuler »)
    this.rate = { perMinute: RATE_PER_MINUTE, burst: RATE_BURST }; // (hub.js rateWait)
    this.buckets = new Map(); // memberId -> {tokens, at}
    this.chain = Promise.resolve(); // the hub: one move at a time, in arrival order
    this.awareness = new Awareness(this.publicDoc);
    // A player's device follows the public doc update by update (only what changed is read
    // again); the MJ's device knows what it wrote.
    this.mirror = role === "player" ? mirror(this.publicDoc) : null;
    this.published = this.mirror ? this.mirror.json : readJson(this.publicDoc); // the public view last written or seen here
    // (a phone whose Y state is gone: its table is the public view it showed last, until the
    // hub's state comes; its own edits since are waiting moves already)
    if (this.joined && role === "player" && !Array.isArray(this.published?.characters)) this.published = app.doc;
    // How many times the MJ's device published the table (kept in the public doc beside it, and
    // in the MJ's record: the count goes on across generations)
    const count = role === "mj" ? mine?.publications : this.publicDoc.getMap(META).get("published");
    this.publications = Number.isInteger(count) && count >= 0 ? count : 0;
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
    /** The versions of the devices at the other end of this device's links (versions.js): the
     * MJ's, member id -> version; a phone's, null -> the MJ's device's. */
    this.versions = new Map();

    if (role === "mj") {
      this.hub = new Hub({
        publicDoc: this.publicDoc,
        epoch: this.epoch,
        privateDocFor: (id) => this.privateDoc(id),
        awareness: this.awareness,
        onmove: (id, move, moveId) => this.referee(id, move, moveId),
        checkPresence: (id, state) => this.checkPresence(id, state),
        onanswered: () => this.publishNow(),
        onrefused: (id, code) => this.refusedMessage(id, code),
        onversion: (id, version) => this.learnVersion(id, version),
      });
    } else {
      this.member = new Member({ publicDoc: this.publicDoc, privateDoc: this.privateDocs.get(me), awareness: this.awareness, epoch: this.epoch });
      this.member.onepoch = (epoch, held) => this.newEpoch(epoch, held);
      this.member.onanswer = (id, answer) => this.onAnswer(id, answer);
      this.member.onversion = (version) => this.learnVersion(null, version);
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
      // « Annuler » on a phone is a move: the MJ's device undoes this player's last change, or
      // says why not (app.js undoEntry asks here first).
      app.liveUndo = () => this.undo();
      this.watchEngine(); // (the MJ's engine answers for this one while it starts: remote-engine.js)
      this.knowMoves(); // asked at once: a page's addLog needs the list (synchronously)
      setPrivateReader(() => this.privateContent());
    }
    // A presence is a name and a role (and, for a player, its member id); what a player plays
    // is the MJ's to say: the MJ's own presence carries the assignments (`players`).
    this.awareness.setLocalState(role === "mj" ? { name, role, players: this.assignments() } : { name, role, member: me });
    this.awareness.on("change", () => this.emit());
    this.followPublic();
    this.stop = app.onDocument(() => this.onLocalChange());
    this.leaving = (event) => {
      if (event?.type === "pagehide" || globalThis.document?.visibilityState === "hidden") this.saveNow();
    };
    globalThis.addEventListener?.("pagehide", this.leaving);
    globalThis.document?.addEventListener("visibilitychange", this.leaving);
    this.onLocalChange();
  }

  /** The public doc's updates reach the page (a phone's table; the MJ's save). */
  followPublic() {
    this.publicDoc.on("update", (update, origin) => {
      try {
        this.onPublicUpdate(origin);
      } catch (error) {
        console.error(error);
      }
    });
  }

  /** A phone: the hub's docs are of generation `epoch`, not the one this device's docs hold
   * (the MJ's device started again, or they were saved by a version before generations). Docs
   * that hold anything (`held`) are dropped for fresh ones, which the hub's state fills whole:
   * never merged with it (Y arrays such as the log would hold both histories). The table shown
   * stays until the hub's arrives; the waiting moves stay in the queue and go once synced. */
  newEpoch(epoch, held) {
    this.epoch = epoch;
    if (held) {
      this.mirror?.stop();
      this.publicDoc = new Y.Doc();
      this.publicDoc.on("update", (update) => this.unsavedY.public.push(update));
      this.mirror = mirror(this.publicDoc);
      this.followPublic();
      const own = this.watchPrivate(this.me, new Y.Doc());
      own.on("update", () => this.onPrivateUpdate());
      this.privateDocs.set(this.me, own);
      this.member.useDocs(this.publicDoc, own);
    }
    this.dropY(); // (the next save writes a base of this generation)
    this.saveSoon();
  }

  /** The device at the other end of a link (member `id`'s, or null: the MJ's) runs `version`:
   * kept (the hub words a refused move by it), and when one of the two must update, a
   * "version" event says which (`who`: "here" or "there", versions.whoUpdates), with the
   * member's name on the MJ's device. */
  learnVersion(id, version) {
    this.versions.set(id, version);
    const who = whoUpdates(OURS, version);
    if (who === null) return;
    const name = id === null ? "" : this.members.get(id)?.name ?? "";
    this.dispatchEvent(new CustomEvent("version", { detail: { member: id, name, who, version } }));
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

  /** `doc`, member `id`'s private doc, with its updates kept for the next save (a phone's). */
  watchPrivate(id, doc) {
    if (this.role !== "player") return doc;
    doc.on("update", (update) => {
      if (!this.unsavedY.private.has(id)) this.unsavedY.private.set(id, []);
      this.unsavedY.private.get(id).push(update);
    });
    return doc;
  }


  /**
   * A link is open to the hub (a player) or to member `memberId` (the MJ). The MJ's side
   * refuses a link answering for a known member without that member's key (the id is public:
   * every presence shows it), and returns false.
   */
  attach({ link, memberId, name, key = null }) {
    if (this.role === "mj") {
      // (a new device under a known away name waits for the MJ's choice; a replaced one is told: admission.js)
      if (this.screen({ link, memberId, name, key })) return false;
      const known = this.members.get(memberId);
      // (checked before anything of the member's, its place in the list included, is touched)
      const refused = this.refusalFor(memberId, key, name);
      if (refused !== null) {
        this.note(memberId, name, "live.identity", refused);
        if (refused === NAME_TAKEN) this.hub.refuse(link, refused); // (the phone is told: another name)
        else {
          try {
            link.close();
          } catch {
            // closed already
          }
        }
        // (the identity refusal names whose identity was claimed; a taken name is said plainly)
        this.dispatchEvent(new CustomEvent("refused", { detail: refused === NAME_TAKEN ? { code: refused } : { name, code: refused } }));
        return false;
      }
      this.members.set(memberId, { characters: [], asked: [], ...known, name, key, seen: new Date().toISOString() });
      this.writePrivate(memberId);
      this.awareness.setLocalStateField("players", this.assignments());
      this.hub.attach(link, memberId);
    } else {
      // (a phone asked for another name joins again under it: its presence says the new one)
      if (typeof name === "string" && name !== "" && name !== this.name) {
        this.name = name;
        this.awareness.setLocalStateField("name", name);
      }
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






  /** Everyone at the table: [{id, name, role, characters, asked, here}] (the MJ's device knows the absent too). */
  /** The MJ's assignments as its presence carries them: {memberId: [character ids]}. */
  assignments() {
    if (this.role !== "mj") return {};
    return Object.fromEntries([...this.members].map(([id, m]) => [id, m.characters ?? []]));
  }

  /** A phone: the assignments the MJ's presence announces (never what a phone says of itself). */
  assignmentsSeen() {
    for (const state of this.awareness.getStates().values()) {
      if (isObject(state) && state.role === "mj" && isObject(state.players)) return state.players;
    }
    return {};
  }

  presence() {
    const here = new Map();
    for (const [clientId, state] of this.awareness.getStates()) {
      if (!isObject(state) || typeof state.name !== "string") continue;
      const id = typeof state.member === "string" ? state.member : `mj:${clientId}`;
      const known = this.role === "mj" ? this.members.get(id) : null;
      const played = this.role === "mj" ? null : this.assignmentsSeen()[id];
      here.set(id, {
        id,
        name: state.name,
        role: state.role === "mj" ? "mj" : "player",
        characters: known ? known.characters ?? [] : Array.isArray(played) ? played.filter((c) => typeof c === "string") : [],
        asked: known ? known.asked ?? [] : [],
        // (this phone is at the table only while its link is: never « présent » and « Déconnecté »)
        here: clientId === this.awareness.clientID && this.role === "player" ? Boolean(this.member?.connected) : true,
        me: clientId === this.awareness.clientID,
      });
    }
    for (const [id, m] of this.members) {
      if (!here.has(id)) here.set(id, { id, name: m.name, role: "player", characters: m.characters ?? [], asked: m.asked ?? [], here: false, me: false });
    }
    return [...here.values()];
  }



  // ---------------------------------------------------------------- moves (a phone)










  // ---------------------------------------------------------------- the referee (the hub)










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






  // ---------------------------------------------------------------- Y -> local





  // ---------------------------------------------------------------- persistence








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
      this.stopEngine();
      this.app.call = this.localCall;
      this.app.addLog = this.localAddLog;
      delete this.app.callHere;
      delete this.app.liveUndo;
      setPrivateReader(null);
    }
    for (const resolve of this.waiting.values()) resolve(refusal("live.cancelled"));
    this.waiting.clear();
    for (const link of this.links.values()) link.close();
    for (const claim of this.claims?.values() ?? []) claim.link.close(); // (devices held for the MJ's choice: admission.js)
    removeAwarenessStates(this.awareness, [this.awareness.clientID], "close");
    this.mirror?.stop();
    this.hub?.destroy();
    this.member?.destroy();
    this.awareness.destroy();
  }
}


// The session's parts, each in its own module: the MJ's side (hub.js), a player's (member.js),
// what is kept on the device (ystore.js).
Object.assign(Session.prototype, hubMethods, memberMethods, storeMethods);

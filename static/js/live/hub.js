// The live table's hub: the MJ's device as the referee (DESIGN.md principle 8). It runs each
// member's move through the `live.move` op on its whole table (py/tablee/referee.py), one move
// at a time, saves the result and publishes it; it writes into the public Y doc only what any
// player may see (`store.share`, audience "player") and into each player's private doc what
// only that player may see. Methods of Session (session.js), and the pure table helpers they use.
import { admissionMethods } from "./admission.js";
import { ENGINE_OP, hubRelayMethods } from "./remote-engine.js";
import { refusal } from "./sync.js";
import { versionedAnswer } from "./versions.js";
import { jsonEqual, writeJson } from "./ydoc.js";
import { LOCAL, isObject, moveId, same, Y_SAVE_DELAY_MS } from "./ystore.js";

/** Bound of the MJ's feed of incoming moves, and of the moves a phone keeps waiting. */
export const MAX_FEED = 200;
/** Moves of one member waiting for the referee at once (more are refused: a flood). */
export const MAX_IN_FLIGHT = 20;
/** Answers kept per member, so a move resent after a broken link is not applied twice. */
const MAX_ANSWERED = 100;
/** Of them, kept in the saved session (a reload of the MJ's page): as many as a phone can still
 * send again, its waiting moves, which member.js bounds by MAX_QUEUE (50; a test keeps the two
 * equal). A phone sends its moves in order and sends again, once its link is back, only those
 * it holds no answer for: all of them in its queue, so at most MAX_QUEUE moves back. The last
 * MAX_KEPT_WHOLE are kept whole (an answer of more than 2,000 characters, a whole hand's view,
 * as "already applied"); the older ones as "already applied" (`live.refused.duplicate`: the
 * move is not run again, its result is on the table), a hundred characters each. */
export const MAX_KEPT_ANSWERS = 50;
const MAX_KEPT_WHOLE = 30;
const MAX_KEPT_ANSWER_CHARS = 2000;
const BUSY = "live.refused.busy";
const CONFLICT = "live.refused.conflict";
/** An undo of a character the member no longer plays, or of a field no player may edit. */
const UNDO_NOT_YOURS = "live.refused.undo_not_yours";
/** A player's « Annuler » at a live table (hub.js undoMove), and how many of each member's
 * changes the hub remembers for it. */
export const UNDO = "live.undo";
/** A page's words for the entry of its move (py/tablee/referee_kernel.py label_entry). */
const LABEL = "live.log.label";
/** A member's moves and log notes: at most RATE_PER_MINUTE a minute on average, with a burst
 * of RATE_BURST at once (a token bucket per member); beyond, `live.refused.rate` with the wait
 * in ms (`wait`): the phone keeps the move waiting and sends it again then. An honest phone's
 * waiting moves after a broken link go at that pace; a flood cannot fill the log. */
export const RATE_PER_MINUTE = 30;
export const RATE_BURST = 10;
export const RATE = "live.refused.rate";
/** A member's refusals are grouped into its last refusal line among the feed's last lines. */
const GROUP_WINDOW = 50;
// (who is admitted at the table, and under which name: admission.js)
export { CLAIM, NAME_TAKEN, REPLACED } from "./admission.js";
/** What a player's presence may say. */
const PRESENCE_KEYS = ["name", "role", "member"];
const MAX_CHANGES = 20;
/** The log's cap (py/tablee/store.py MAX_LOG). */
const MAX_LOG = 1000;
/** The public doc's root map beside the table (ydoc.js ROOT): the count of publications. */
export const META = "live";
/** Keys of a table document that stay on each device: its language, its records set apart. */
export const LOCAL_KEYS = ["language", "quarantine"];


/** What of a table document goes into the public doc (the device-local keys taken out). */
export function shared(doc) {
  const out = { ...doc };
  for (const key of LOCAL_KEYS) delete out[key];
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

/** The entries of the MJ's log sent to member `id` only ("Envoyer à…": `to` is its id), or to
 * one of the ids of a list (a member and the devices it replaced). */
export function sentTo(log, id) {
  const ids = new Set(Array.isArray(id) ? id : [id]);
  return Array.isArray(log) ? log.filter((e) => isObject(e) && ids.has(e.to)) : [];
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


/** A seed the MJ's device draws for a move (a phone never chooses its own). */
function seed() {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return (hi & 0x1fffff) * 2 ** 32 + lo;
}

/** Session's methods: the MJ's side. */
export const hubMethods = {
  ...admissionMethods,
  ...hubRelayMethods,

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
    this.awareness.setLocalStateField("players", this.assignments());
    this.saveSoon();
    this.emit();
  },

  /** The hub: a member announces only itself, as a player, under the name it joined with. */
  checkPresence(id, state) {
    const known = this.members.get(id);
    // Only its name, its role and its member id, as flat text: what it plays is the MJ's to say.
    return isObject(state) && Object.keys(state).every((k) => PRESENCE_KEYS.includes(k))
      && state.member === id && state.role === "player" && known !== undefined && state.name === known.name;
  },

  /** A member's move, bound to the link it came on: queued behind the others, run on the
   * whole table, answered. A resent move (same id) gets its first answer again. */
  referee(memberId, move, id = null) {
    // (a request for the MJ's engine, not a move: answered aside, remote-engine.js)
    if (move?.op === ENGINE_OP) return this.answerEngine(memberId, move);
    // Exactly once: a move id already answered gets that answer again; one still running (sent
    // twice at once) gets the same run's answer. Nothing runs twice.
    const done = this.answered.get(memberId);
    if (id !== null && done?.has(id)) return done.get(id);
    const running = this.running.get(memberId);
    if (id !== null && running?.has(id)) return running.get(id);
    const wait = this.rateWait(memberId);
    if (wait > 0) return this.note(memberId, this.members.get(memberId)?.name, move?.op, RATE, refusal(RATE, { wait }));
    const count = this.inFlight.get(memberId) ?? 0;
    if (count >= MAX_IN_FLIGHT) return this.note(memberId, this.members.get(memberId)?.name, move?.op, BUSY, refusal(BUSY));
    this.inFlight.set(memberId, count + 1);
    const run = this.chain.then(() => this.applyMove(memberId, move)).catch(() => refusal("live.refused.malformed"));
    this.chain = run.then(() => {}, () => {});
    const answered = run.then((answer) => {
      this.inFlight.set(memberId, (this.inFlight.get(memberId) ?? 1) - 1);
      this.running.get(memberId)?.delete(id);
      // (a "busy" answer is not kept: the phone sends the move again, to be run then)
      if (id !== null && answer?.error?.code !== BUSY) this.keepAnswer(memberId, id, answer);
      return answer;
    });
    if (id !== null) {
      if (!this.running.has(memberId)) this.running.set(memberId, new Map());
      this.running.get(memberId).set(id, answered);
    }
    return answered;
  },

  /** Keep the answer of member `memberId`'s move `id` (bounded: the oldest go), also in the
   * saved session, so a move sent again after the MJ's page reloaded is not run again either
   * (an answer too long to keep is kept as "already applied"). */
  keepAnswer(memberId, id, answer) {
    const kept = this.answered.get(memberId) ?? new Map();
    kept.set(id, answer);
    if (kept.size > MAX_ANSWERED) kept.delete(kept.keys().next().value);
    this.answered.set(memberId, kept);
    this.saveSoon(Y_SAVE_DELAY_MS);
  },

  /** The answered moves as the saved session keeps them: {memberId: [[id, answer]]}, the last
   * MAX_KEPT_ANSWERS of each (what a phone can still send again), the older ones beyond the last
   * MAX_KEPT_WHOLE and any answer longer than MAX_KEPT_ANSWER_CHARS replaced by "already
   * applied" (live.refused.duplicate: the move is not run again, its result is on the table). */
  answersToKeep() {
    const out = {};
    for (const [member, kept] of this.answered) {
      const last = [...kept].slice(-MAX_KEPT_ANSWERS);
      out[member] = last.map(([id, answer], i) => {
        const whole = i >= last.length - MAX_KEPT_WHOLE && JSON.stringify(answer ?? null).length <= MAX_KEPT_ANSWER_CHARS;
        return [id, whole ? answer : refusal("live.refused.duplicate", { id })];
      });
    }
    return out;
  },

  async applyMove(memberId, move) {
    const member = this.members.get(memberId);
    if (!member) return refusal("live.refused.identity");
    if (move.op === UNDO) return this.undoMove(memberId, member);
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
    if (move.op === "live.character.save" && Object.hasOwn(move, "base")) {
      // A sheet edit names what the player saw (`base`): a field the table changed since then
      // (the MJ's edit or undo, another move) is a conflict, never overwritten by the phone.
      const { stale, character } = isObject(move.base) && isObject(move.character) ? this.rebase(move.character, move.base) : { stale: [], character: move.character };
      if (stale.length) {
        return this.note(memberId, member.name, move.op, CONFLICT, refusal(CONFLICT, { field: stale.slice(0, 5).join(", ") }));
      }
      move = { ...move, character };
      delete move.base;
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
      if (!r.applied) {
        // (a move's shape refused: in words of versions, when a version explains it)
        const answer = versionedAnswer(r.answer, this.versions?.get(memberId));
        return this.note(memberId, member.name, move.op, answer?.error?.code ?? null, answer, drawn);
      }
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
        }, { shallow: true, record: false }); // (a player's move: not the MJ's change to undo)
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
      this.keepChange(memberId, move, source, this.app.doc);
      const made = r.answer?.created;
      if (typeof made === "string") {
        // a character the player made on their phone is theirs
        this.members.set(memberId, { ...member, characters: [...new Set([...(member.characters ?? []), made])] });
        this.awareness.setLocalStateField("players", this.assignments());
      }
      // Published once the MJ's device saved it (savedThen), and after the answer is sent (the
      // hub's `onanswered`, or the next task at the latest): the phone that moved is answered
      // first, and no phone ever holds a table a crash of the MJ's device could take back.
      this.projected = this.app.doc;
      const from = this.app.doc;
      const saved = this.savedThen();
      this.toPublish.push(() => saved.then(() => this.publishMove(view, from)));
      setTimeout(() => this.publishNow(), 0);
      // (`publication`: every table published from now on holds this move; see member.js)
      const answer = isObject(r.answer) ? { ...r.answer, publication: this.publications } : r.answer;
      return this.note(memberId, member.name, move.op, null, answer, drawn);
    }
    return this.note(memberId, member.name, move.op, BUSY, refusal(BUSY));
  },

  /** Remember member `memberId`'s change (the table `before` and `after` its move), the last
   * MAX_CHANGES: a sheet save can be undone by its player, anything else (a roll, a draw, a
   * note) cannot, and stops the undo there (an undo takes back the member's last change only). */
  keepChange(memberId, move, before, after) {
    if (move.op === "live.log.label") return; // (the words of the previous move's entry, no change)
    const list = this.changes.get(memberId) ?? [];
    let change = { op: move.op };
    if (move.op === "live.character.save" && isObject(move.character)) {
      const find = (doc) => doc.characters.find((c) => isObject(c) && c.id === move.character.id);
      const was = find(before);
      const now = find(after);
      if (isObject(was) && isObject(now)) change = { op: move.op, id: now.id, before: was, after: now };
    }
    list.push(change);
    if (list.length > MAX_CHANGES) list.splice(0, list.length - MAX_CHANGES);
    this.changes.set(memberId, list);
  },

  /** A player's « Annuler » (`live.undo`): the member's own last change undone, when it is a
   * sheet save whose fields still hold what it wrote; refused otherwise (a roll or a draw is
   * never undone into a re-roll: `live.refused.undo`; a field changed since: a conflict). Only
   * on a character the member still plays, and only fields a player may edit (those the
   * player view of that character shows: a key it hides is the MJ's): else
   * `live.refused.undo_not_yours`, a sentence on the phone. The log says « Annulé » only
   * then, signed by the member. */
  undoMove(memberId, member) {
    const list = this.changes.get(memberId) ?? [];
    const last = list.at(-1);
    if (!last?.before) return this.note(memberId, member.name, UNDO, "live.refused.undo", refusal("live.refused.undo"));
    const record = (doc) => doc.characters.findIndex((c) => isObject(c) && c.id === last.id);
    const at = record(this.app.doc);
    const keys = new Set([...Object.keys(last.before), ...Object.keys(last.after)].filter((k) => !same(last.before[k], last.after[k])));
    // (the MJ gave the character to someone else since, or a field no player sees: never undone by this one)
    const view = Array.isArray(this.published?.characters) ? this.published.characters.find((c) => isObject(c) && c.id === last.id) : null;
    const editable = (k) => k !== "id" && k !== "system" && isObject(view) && Object.hasOwn(view, k);
    if (!(member.characters ?? []).includes(last.id) || ![...keys].every(editable)) {
      list.pop(); // (not this member's to take back, now or later)
      return this.note(memberId, member.name, UNDO, UNDO_NOT_YOURS, refusal(UNDO_NOT_YOURS));
    }
    const now = at >= 0 ? this.app.doc.characters[at] : null;
    if (!now || [...keys].some((k) => !same(now[k], last.after[k]))) {
      list.pop(); // (what it wrote is gone: nothing of it to take back later either)
      return this.note(memberId, member.name, UNDO, CONFLICT, refusal(CONFLICT, { field: "" }));
    }
    const label = this.app.t?.("undo.log.undone", { label: this.app.t?.("undo.label.character", { name: String(last.before.name ?? "") }) }) ?? "Annulé";
    const entry = { id: `live-undo-${moveId()}`, at: new Date().toISOString(), system: null, kind: "undo",
      label: Array.from(label).slice(0, 200).join(""), who: member.name, request: {}, result: {} };
    const accepted = this.app.update((doc) => {
      const i = record(doc);
      if (i < 0) return;
      const restored = { ...doc.characters[i] };
      for (const k of keys) {
        if (Object.hasOwn(last.before, k)) restored[k] = last.before[k];
        else delete restored[k];
      }
      doc.characters = doc.characters.map((c, j) => (j === i ? restored : c));
      doc.log = [...doc.log, entry].slice(-MAX_LOG);
    }, { shallow: true, record: false });
    if (!accepted) return this.note(memberId, member.name, UNDO, "live.refused.invalid", refusal("live.refused.invalid"));
    list.pop();
    return this.note(memberId, member.name, UNDO, null, { undone: last.id, logged: entry.id });
  },

  /** A player's sheet save `edited` against `base` (the sheet as the player saw it):
   * `stale`, the paths ("pv", "skills") of the fields the player changed and the table changed
   * too since then, to another value; `character`, the save with every field the player did not
   * change set to the table's value now (so the referee, which applies what differs from the
   * table's view, never puts back what the player saw over a newer change). Objects are
   * compared field by field, anything else whole. The table's value is the MJ's record now; a
   * field the MJ did not change since the last publication is read from the published view
   * instead (a value the share blanks, like a secret, stays as the player saw it). */
  rebase(edited, base) {
    const find = (doc) => (Array.isArray(doc?.characters) ? doc.characters.find((c) => isObject(c) && c.id === edited.id) : undefined);
    const full = find(this.app.doc);
    if (!isObject(full)) return { stale: [], character: edited }; // a new character: nothing to conflict with
    const stale = [];
    const walk = (e, b, now, pubFull, pubView, path) => {
      const out = {};
      for (const key of new Set([...Object.keys(e), ...Object.keys(b), ...Object.keys(isObject(now) ? now : {})])) {
        const mine = e[key];
        const seen = b[key];
        const fromFull = isObject(now) ? now[key] : undefined;
        const published = isObject(pubFull) && isObject(pubView) && same(fromFull, pubFull[key]);
        const current = published ? pubView[key] : fromFull;
        const at = path ? `${path}.${key}` : key;
        if (same(mine, seen) || !Object.hasOwn(e, key) && !Object.hasOwn(b, key)) {
          // not changed by the player: the table's value (none: the key stays out)
          if (current !== undefined) out[key] = current;
          else if (Object.hasOwn(e, key) && !Object.hasOwn(b, key)) out[key] = mine;
        } else if (isObject(mine) && isObject(seen) && isObject(current)) {
          out[key] = walk(mine, seen, fromFull, isObject(pubFull) ? pubFull[key] : undefined, isObject(pubView) ? pubView[key] : undefined, at);
        } else {
          if (!same(current, seen) && !same(current, mine)) stale.push(at);
          if (mine !== undefined) out[key] = mine;
        }
      }
      return out;
    };
    const character = walk(edited, base, full, find(this.publishedFrom), find(this.published), "");
    return { stale, character };
  },

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
  },

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
  },

  /** Resolves once the MJ's table as it is now is saved on this device (or could not be: the
   * app says so), whatever changes come after it. The public doc is written only then: phones
   * write nothing back, so a table they received and the MJ's device then lost in a crash (not
   * saved yet) would stay on the phones, the MJ's device never knowing it had to take it back. */
  savedThen(upTo = this.app.changeCount?.() ?? Infinity) {
    return Promise.resolve(this.app.saved?.(upTo));
  },

  /** The moves applied and not yet published, published (in the order they were applied). */
  publishNow() {
    for (const publish of this.toPublish.splice(0)) publish();
  },

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
  },

  /** The MJ's feed: one line per move that arrived (who, what, refused or not, and the seed
   * the MJ's device drew for it: the MJ's to replay a draw, never sent to a phone). A member's
   * refusals of one kind are one line (`count`, and `kinds`: how many of each code), moved to
   * the end at each new one: a flood cannot push the rest of the feed out nor hide that it
   * happened (a refusal of another kind is a line of its own: each says what was refused). The
   * last `unseen` lines are the unseen ones (the live page marks them "nouveau"). */
  note(memberId, name, op, code, answer = null, drawn = null) {
    // A page's words for its move's entry (sent after the answer) are that move's line's words
    // (the live page reads them from the entry): never a line, nor an unseen one, of their own.
    if (op === LABEL && !code) return answer;
    const line = { at: new Date().toISOString(), member: memberId, name: typeof name === "string" ? name : "",
      op: typeof op === "string" ? op.slice(0, 64) : "", code, seed: drawn,
      // the log entry the referee wrote for it: the live page words the line from it
      logged: typeof answer?.logged === "string" ? answer.logged : null };
    const from = Math.max(0, this.feed.length - GROUP_WINDOW);
    const at = code ? this.feed.findLastIndex((f, i) => i >= from && f.code === code && f.member === memberId) : -1;
    if (at >= 0) {
      const [group] = this.feed.splice(at, 1);
      const kinds = isObject(group.kinds) ? { ...group.kinds } : { [group.code]: 1 };
      kinds[code] = (kinds[code] ?? 0) + 1;
      this.feed.push({ ...line, count: (group.count ?? 1) + 1, kinds });
      if (at < this.feed.length - this.unseen) this.unseen += 1; // (it was seen: new again)
    } else {
      this.feed.push(code ? { ...line, count: 1, kinds: { [code]: 1 } } : line);
      this.unseen += 1;
    }
    if (this.feed.length > MAX_FEED) this.feed.splice(0, this.feed.length - MAX_FEED);
    this.unseen = Math.min(this.unseen, this.feed.length);
    this.saveSoon(Y_SAVE_DELAY_MS);
    this.emit();
    return answer;
  },

  /** A message from member `memberId` the hub refused before any move (a forged presence, a
   * write, a malformed or oversized frame): into the feed like a refused move. */
  refusedMessage(memberId, code) {
    this.note(memberId, this.members.get(memberId)?.name, "live.message", code);
  },

  /** Whether member `memberId` may send a move now (a token bucket: RATE_PER_MINUTE, a burst of
   * RATE_BURST): the wait in ms before it may, 0 when it may (a token is taken then). */
  rateWait(memberId) {
    const now = Date.now();
    const { perMinute, burst } = this.rate;
    const bucket = this.buckets.get(memberId) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
    bucket.at = now;
    this.buckets.set(memberId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute);
  },

  /** The MJ has looked at the feed. */
  seen() {
    this.unseen = 0;
    this.saveSoon();
    this.emit();
  },

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
  },

  /** The public doc becomes `view`, the player view of the MJ's table `from`. */
  writePublic(view, from = null) {
    // The MJ's device is the public doc's only writer: it knows what the doc holds (`published`),
    // so writeJson skips every record equal to the last view.
    // (with the count of publications: a phone knows from it whether the table it holds is
    // newer than a move's answer, see member.js)
    this.publications += 1;
    this.publicDoc.transact(() => {
      writeJson(this.publicDoc, view, LOCAL, this.published);
      this.publicDoc.getMap(META).set("published", this.publications);
    }, LOCAL);
    this.published = view; // what writeJson made the doc hold (no read back; a view is never changed in place)
    this.publishedFrom = from;
    this.saveSoon(Y_SAVE_DELAY_MS);
  },

  /** Member `id`'s private doc written from the MJ's table (one no longer a member, a device
   * whose place went to another, holds nothing). The entries sent to that member only go
   * through the filter every entry leaving this device goes through (`live.private_log`:
   * py/tablee/share.py entry_view, the public doc's and the share links' own), once each: an
   * entry not filtered yet is left out until its view comes, then the doc is written again. */
  writePrivate(id) {
    const m = this.members.get(id);
    const characters = m?.characters ?? [];
    // (the entries sent to the devices it replaced are its player's too)
    const ids = [id, ...(Array.isArray(m?.replaces) ? m.replaces.map((r) => r?.id) : [])];
    const sent = m ? sentTo(this.app.doc.log, ids) : [];
    this.entryViews ??= new WeakMap(); // a log entry (never changed in place) -> its player view, or null
    const missing = sent.filter((e) => !this.entryViews.has(e));
    writeJson(this.privateDoc(id), { ...privateView(this.app.doc, characters), characters, asked: m?.asked ?? [],
      log: sent.map((e) => this.entryViews.get(e)).filter(isObject) }, LOCAL);
    if (!missing.length) return;
    Promise.resolve(this.app.call({ op: "live.private_log", entries: missing })).then((answer) => {
      const views = Array.isArray(answer?.entries) ? answer.entries : [];
      // (an entry the filter refused, or no answer: never sent whole)
      missing.forEach((e, i) => this.entryViews.set(e, isObject(views[i]) ? views[i] : null));
      this.writePrivate(id);
    }, () => missing.forEach((e) => this.entryViews.set(e, null)));
  },
};

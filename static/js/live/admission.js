// Who may take a place at the live table (the MJ's device): the key check, unique names, and
// the MJ's explicit recognition of a new device under a known player's name. Methods of Session
// (through hub.js hubMethods), and the codes they answer.
//
// A name is unique at the table, present or known: a new member id (a new device) under the
// name of a member who is present, or of the MJ, is refused (`live.refused.name_taken`: the
// phone is asked for another name). Under the name of a member who is known but away, it is
// held (`claims`): the phone is told to wait (`live.wait.recognise`), is not in the player
// list, gets no doc (nothing syncs on its link) and none of its moves runs, until the MJ says on
// their own screen either « C'est Léa » (`recognise`: the new device takes the old member's
// place, its characters and so its private doc and hand, and the old device's id is refused
// from then on whatever key or name it brings, `live.refused.replaced`, and what was sent to it
// is sent to the new device) or « Refuser » (`refuseClaim`:
// `live.refused.name_taken`). What it sent meanwhile (its sync requests, its presence) is kept,
// bounded, and read once it is admitted: the doc it asked for reaches it then.
import * as encoding from "lib0/encoding";

import { nameKey } from "./names.js";
import { MESSAGE_ANSWER, refusal } from "./sync.js";
import { isObject } from "./ystore.js";

export { nameKey };

/** A name already at the table (refusalFor). */
export const NAME_TAKEN = "live.refused.name_taken";
/** A new device under the name of a known member who is away: held for the MJ's choice. */
export const CLAIM = "live.wait.recognise";
/** A device whose place the MJ gave to another (recognise): it is not admitted again. */
export const REPLACED = "live.refused.replaced";
/** A log entry's `to` for a roll the MJ made in secret (py/tablee/share.py SECRET_ROLL). */
const SECRET_ROLL = "mj";
/** Devices waiting for the MJ's choice at once (more: the oldest is refused). */
export const MAX_CLAIMS = 8;
/** What a held device may send before it is admitted (its sync requests and presence: three
 * messages for an honest phone); beyond, its messages are dropped. */
const MAX_HELD_MESSAGES = 32;
const MAX_HELD_BYTES = 512 * 1024;
/** Former devices a member remembers as replaced (refused for good: the oldest are forgotten
 * past this many, far more than a table's devices). */
const MAX_REPLACED = 200;

function closeLink(link) {
  try {
    link.close();
  } catch {
    // closed already
  }
}

export const admissionMethods = {
  /** The MJ's side: whether a link answering for member `id` with `key` may take its place
   * (a new member, or a known one with its own key). */
  admits(id, key) {
    // ("mj" is what a secret roll of the MJ's is sent to, `to`: never a member's id)
    if (id === SECRET_ROLL) return false;
    const known = this.members.get(id);
    return typeof key === "string" && key !== "" && (!known?.key || known.key === key);
  },

  /** The member whose place device `id` had before the MJ gave it to that member's new device:
   * {id, name} of the member now, or null. Whatever key and name a link answering for that id
   * brings (the id is public: presence carries it), it is that former device's place, given
   * away: refused for good. The former ids are kept with the member (`replaces`), in the saved
   * session: the MJ's reload keeps them refused. */
  replacedBy(id) {
    for (const [other, m] of this.members) {
      if (other === id) continue;
      if (Array.isArray(m.replaces) && m.replaces.some((r) => isObject(r) && r.id === id)) return { id: other, name: m.name };
    }
    return null;
  },

  /** The known member called `name` who is away (the last seen of them), or null. */
  awayNamed(name, except = null) {
    const wanted = nameKey(name);
    const present = new Set(this.hub?.attached() ?? []);
    let found = null;
    for (const [other, m] of this.members) {
      if (other === except || present.has(other) || nameKey(m.name) !== wanted) continue;
      if (found === null || String(m.seen ?? "") > String(this.members.get(found).seen ?? "")) found = other;
    }
    return found;
  },

  /** Why a link answering for member `id` with `key` under `name` is refused, or null: a
   * device whose place went to another (`live.refused.replaced`), another member's id without
   * its key (`live.refused.identity`), a name the MJ or a member present at the table has, or
   * for a known member another member's name (`live.refused.name_taken`); a new member under
   * the name of a known member who is away waits for the MJ's choice (`live.wait.recognise`).
   * Names are compared as a person reads them (names.js nameKey: case, accents, spacing,
   * invisible characters and look-alike letters folded). */
  refusalFor(id, key, name) {
    if (this.replacedBy(id) !== null) return REPLACED;
    if (!this.admits(id, key)) return "live.refused.identity";
    const wanted = nameKey(name);
    if (wanted === "" || wanted === nameKey(this.name)) return NAME_TAKEN;
    const present = new Set(this.hub?.attached() ?? []);
    let away = false;
    for (const [other, m] of this.members) {
      if (other === id || nameKey(m.name) !== wanted) continue;
      if (present.has(other) || this.members.has(id)) return NAME_TAKEN;
      away = true;
    }
    return away ? CLAIM : null;
  },

  /** The devices waiting for the MJ's choice: memberId -> {link, name, key, as, at, held, bytes}. */
  claimsMap() {
    this.claims ??= new Map();
    return this.claims;
  },

  /** The MJ's page: [{id, name, as, asName, characters}] (oldest first), what each claim asks. */
  pendingClaims() {
    return [...this.claimsMap()].map(([id, c]) => ({ id, name: c.name, as: c.as, asName: this.members.get(c.as)?.name ?? c.name,
      characters: this.members.get(c.as)?.characters ?? [], at: c.at }));
  },

  /** Session.attach's first look at a link (the MJ's side): true when it is handled here and not
   * admitted: a device whose place went to another (told so, then closed), or a new device under
   * a known away member's name (held for the MJ's choice). False: attach goes on. */
  screen({ link, memberId, name, key }) {
    if (this.role !== "mj") return false;
    const refused = this.refusalFor(memberId, key, name);
    if (refused === REPLACED) {
      const now = this.replacedBy(memberId);
      this.note(memberId, name, "live.identity", REPLACED);
      this.hub.refuse(link, REPLACED); // (the old device is told why, then its link closes)
      this.dispatchEvent(new CustomEvent("refused", { detail: { code: REPLACED, name: now.name } }));
      return true;
    }
    if (refused !== CLAIM) return false;
    this.hold(link, memberId, name, key, this.awayNamed(name, memberId));
    return true;
  },

  /** Hold device `id`'s link until the MJ chooses: nothing syncs on it, what it sends is kept
   * (bounded), and it is told to wait. */
  hold(link, id, name, key, as) {
    const claims = this.claimsMap();
    const before = claims.get(id);
    if (before && before.link !== link) {
      // (the same device answered again: its last link waits, the former one just closes)
      claims.delete(id);
      closeLink(before.link);
    }
    const claim = { link, name, key, as, at: new Date().toISOString(), held: [], bytes: 0 };
    claims.set(id, claim);
    while (claims.size > MAX_CLAIMS) this.dropClaim(claims.keys().next().value, NAME_TAKEN);
    link.onmessage = (bytes) => {
      const size = bytes?.byteLength ?? 0;
      if (claim.held.length >= MAX_HELD_MESSAGES || claim.bytes + size > MAX_HELD_BYTES) return;
      claim.held.push(bytes);
      claim.bytes += size;
    };
    link.onclose = () => {
      if (claims.get(id) === claim) {
        claims.delete(id);
        this.emit();
      }
    };
    try {
      link.send(this.waitMessage());
    } catch {
      // a link closed already: its onclose drops the claim
    }
    this.emit();
  },

  /** The message that tells a held phone to wait for the MJ: an answer with id null, as a
   * refusal is (sync.js's envelope). */
  waitMessage() {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_ANSWER);
    encoding.writeVarString(encoder, "");
    encoding.writeVarString(encoder, JSON.stringify({ id: null, answer: refusal(CLAIM) }));
    return encoding.toUint8Array(encoder);
  },

  /** The MJ's « Refuser » (or a claim that no longer holds): the device is told its name is
   * taken and its link closes. */
  dropClaim(id, code = NAME_TAKEN) {
    const claims = this.claimsMap();
    const claim = claims.get(id);
    if (!claim) return false;
    claims.delete(id);
    if (this.hub) this.hub.refuse(claim.link, code); // (told why; its link closes a moment later)
    else closeLink(claim.link);
    this.note(id, claim.name, "live.identity", code);
    this.emit();
    return true;
  },

  refuseClaim(id) {
    return this.role === "mj" && this.dropClaim(id, NAME_TAKEN);
  },

  /** The entries of the MJ's log sent to one of the former devices `ids` ("Envoyer à…": `to`)
   * sent to member `id` instead, its new device: they reach it in its private doc, the MJ's log
   * and « Qui voit ce jet » name it, and no device presenting a former id is ever sent them. */
  readdress(ids, id) {
    const former = new Set(ids.filter((x) => typeof x === "string" && x !== id));
    const log = this.app?.doc?.log;
    if (!former.size || !Array.isArray(log) || !log.some((e) => isObject(e) && former.has(e.to))) return;
    this.app.update((doc) => {
      doc.log = doc.log.map((e) => (isObject(e) && former.has(e.to) ? { ...e, to: id } : e));
    }, { shallow: true, record: false });
  },

  /** The MJ's « C'est Léa : lui rendre sa place »: device `id` takes the place of the member it
   * presented itself as (its name, its characters, and so its private doc and hand); that
   * member's former device is refused from then on (its id and key are kept as replaced). The
   * other devices waiting under that name are refused (the name is present now). False when the
   * claim no longer holds (the member came back meanwhile: refused as a name taken). */
  recognise(id) {
    const claim = this.claimsMap().get(id);
    if (this.role !== "mj" || !claim) return false;
    const old = this.members.get(claim.as);
    // (the member came back meanwhile, another took the name, or the device went away)
    if (!old || this.refusalFor(id, claim.key, claim.name) !== CLAIM || claim.link.open === false) {
      this.dropClaim(id, NAME_TAKEN);
      return false;
    }
    this.claimsMap().delete(id);
    const wanted = nameKey(claim.name);
    const replaces = [...(Array.isArray(old.replaces) ? old.replaces : [])];
    // every known member of that name who is away gives way (one name, one place at the table)
    for (const [other, m] of [...this.members]) {
      if (other === id || nameKey(m.name) !== wanted || (this.hub?.attached() ?? []).includes(other)) continue;
      if (other !== claim.as) replaces.push(...(Array.isArray(m.replaces) ? m.replaces : []));
      replaces.push({ id: other, key: m.key ?? null });
      this.members.delete(other);
      // (its private doc emptied: nothing of the hand stays under the former id)
      this.writePrivate(other);
    }
    this.members.set(id, { characters: old.characters ?? [], asked: [], name: claim.name, key: claim.key,
      seen: new Date().toISOString(), replaces: replaces.slice(-MAX_REPLACED) });
    this.readdress(replaces.map((r) => r?.id), id);
    this.note(id, claim.name, "live.recognised", null);
    // admitted as the member it is now; what it sent while held is read now (its sync requests
    // are answered: its table and private doc reach it)
    if (!this.attach({ link: claim.link, memberId: id, name: claim.name, key: claim.key })) return false;
    for (const bytes of claim.held) claim.link.onmessage?.(bytes);
    for (const [other, c] of [...this.claimsMap()]) if (nameKey(c.name) === wanted) this.dropClaim(other, NAME_TAKEN);
    return true;
  },
};

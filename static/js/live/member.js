// The live table's member: a player's device holds the public table as its table and writes
// no Y doc. What its pages do becomes moves: an op request of the referee's list (`live.moves`)
// goes to the MJ's device instead of the local engine (the session wraps `app.call`), and a
// sheet edit or a new roll-log entry made on the phone becomes a `live.character.save` or
// `live.log.add` move. While no link is open a move waits in `queue` (kept in storage, shown as
// "en attente de la table"), is sent when the link is back, or cancelled by the player.
// Methods of Session (session.js).
import { refusal } from "./sync.js";
import { readJson } from "./ydoc.js";
import { LOCAL, isObject, moveId, same, SAVE_DELAY_MS, Y_SAVE_DELAY_MS } from "./ystore.js";
import { LOCAL_KEYS, META, RATE, UNDO } from "./hub.js";
import { withWords } from "../views/log-words.js";
import { memberRelayMethods } from "./remote-engine.js";

export const MAX_QUEUE = 50;
/** Characters answered for this phone's moves, remembered (member.js keepAnswered). */
const MAX_ANSWERED_CHARACTERS = 50;
/** A move the referee answered "busy" (the MJ's table changed under it three times running,
 * or the member's moves in flight reached MAX_IN_FLIGHT: a state that passes) stays waiting and
 * is sent again after BUSY_RETRY_MS, then twice as long each time, BUSY_RETRIES times at most
 * before the player is told: a queued move is never dropped for a moment of traffic. */
export const BUSY_RETRY_MS = 250;
export const BUSY_RETRIES = 5;
/** A move refused for the table's pace is sent again this many times at most. */
const RATE_RETRIES = 20;
/** The player is told of the table's pace once in this long, not once per waiting move. */
const RATE_TOLD_MS = 10_000;
const BUSY = "live.refused.busy";
/** The longest label a move's entry takes (py/tablee/referee_kernel.py move_words). */
const MAX_LABEL = 200;
/** Entries' words remembered for the page's addLog (member.js keepCarried). */
const MAX_CARRIED = 50;
/** The moves the referee runs itself, which carry no words of an entry: live.log.label's own
 * `label` is the words it gives another move's entry. */
const KERNEL_OPS = new Set(["live.character.save", "live.log.add", "live.log.label", "live.ask", "live.undo"]);


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

/** How a move's label is worded in this device's language (log-words.js withWords, as
 * app.addLog words an entry): `label_words`, `words_lang`, for the entry the referee logs
 * (py/tablee/referee_kernel.py move_words), so every device reads it in its own language; {}
 * when none of it is catalogue text (a dice expression). `labelKey`: the key of the words a
 * move waits under (`live.op.<op>`). Its result line is the referee's (referee_words.py). */
function wordsFor(label, system, labelKey = null) {
  const entry = withWords({ label, system }, { labelKey });
  const out = {};
  for (const key of ["label_words", "words_lang"]) if (Object.hasOwn(entry, key)) out[key] = entry[key];
  return out;
}

/** The system a move's op belongs to (its entry's `system`), or null (a roll of dice). */
const systemOf = (op) => (typeof op === "string" && op.includes(".") ? op.split(".")[0] : null);

/** A move as a phone sends it: the request without the state it holds (a concealed copy). */
function asMove(request) {
  const out = { ...request };
  // The phone's copy of a system state (an object) stays here; a `state` that is no object is
  // an op's own field (Unicreon's state at 0 PV, unicreon.health.down).
  if (out.state === undefined || (typeof out.state === "object" && out.state !== null)) delete out.state;
  return out;
}

/** A page's result areas (member.js markPrevious): the dice tray's, a system page's test result,
 * any element whose id ends in "-result". */
const RESULT_AREAS = "#roll-result, .test-result, [id$='-result']";
const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING

/** The button a move comes from: the event's target or the focused element, when a button. */
function originButton() {
  const doc = globalThis.document;
  if (!doc) return null;
  return [globalThis.event?.target, doc.activeElement].find((el) => el?.tagName === "BUTTON" && el.isConnected) ?? null;
}

/** Session's methods: a player's side. */
export const memberMethods = {
  ...memberRelayMethods,
  /** The characters this device's player plays (from the private doc the MJ writes). */
  assigned() {
    if (this.role !== "player") return [];
    const json = readJson(this.privateDocs.get(this.me));
    return Array.isArray(json.characters) ? json.characters.filter((c) => typeof c === "string") : [];
  },

  /** What this player asked the MJ for (from the private doc). */
  asked() {
    if (this.role !== "player") return [];
    const json = readJson(this.privateDocs.get(this.me));
    return Array.isArray(json.asked) ? json.asked.filter((c) => typeof c === "string") : [];
  },

  /** A player asks the MJ for these characters ("Mes personnages"): a move the MJ confirms. */
  ask(characters) {
    return this.move({ op: "live.ask", characters: [...new Set(characters.filter((c) => typeof c === "string"))] });
  },

  /** Kept for the pages: a player's "claim" is a request to the MJ. */
  claim(characters) {
    return this.ask(characters);
  },

  /** What only this player sees ({hands, characters}), from its private doc, and the ids of
   * the characters at the table as published (`table`: private.js ownsCharacter). */
  privateContent() {
    const doc = this.role === "player" ? this.privateDocs.get(this.me) : null;
    const json = doc ? readJson(doc) : {};
    const table = Array.isArray(this.published?.characters) ? this.published.characters.filter(isObject).map((c) => c.id) : [];
    return { hands: Array.isArray(json.hands) ? json.hands : [], characters: this.assigned(), table };
  },

  /** The referee's list of moves (`live.moves`), asked once. */
  knowMoves() {
    // (the MJ's engine answers it while this device's starts: remote-engine.js)
    this.movesAsked ??= Promise.resolve(this.engineCall({ op: "live.moves" })).then((r) => {
      // (an engine that could not answer is asked again at the next call: an empty list kept
      // for good would run every move of the evening on this phone, each refused at the table)
      if (Array.isArray(r?.moves)) this.moveOps = new Set(r.moves);
      else this.movesAsked = null;
    }, () => {
      this.movesAsked = null;
    });
    return this.movesAsked;
  },

  /** The page's engine calls on a phone: a move goes to the MJ's device, the rest runs here (or,
   * while this device's engine starts, on the MJ's when it needs no table: remote-engine.js). */
  async call(request) {
    // The button that asked, read now: once this call has waited (the list of moves still
    // being learned, right after the engine became ready on a busy phone) the click's event is
    // over, and a button the page disabled while it waits has lost the focus, so a move kept
    // waiting would have no sign beside it (member.js showWaiting).
    const origin = originButton();
    if (this.moveOps === null) await this.knowMoves();
    if (this.moveOps === null) return this.localCall(request);
    if (isObject(request) && this.joined && this.moveOps.has(request.op)) {
      let answer = await this.move(asMove(request), { origin });
      // (`publication`: the count of publications before the move's table; the page gets the
      // op's answer alone)
      const publication = Number.isInteger(answer?.publication) ? answer.publication : this.publicationSeen();
      if (isObject(answer) && Object.hasOwn(answer, "publication")) {
        answer = { ...answer };
        delete answer.publication;
      }
      for (const key of ["character", "target"]) {
        if (isObject(answer?.[key]) && typeof answer[key].id === "string") this.keepAnswered(answer[key], publication);
      }
      // The entry the referee logged for this move: the page's addLog that follows names it if
      // its own words say more than the move's (keepCarried).
      // (a page logs after its last move: Versality's test after its resolve, not its draw)
      if (typeof answer?.logged === "string") this.logged = answer.logged;
      return answer;
    }
    return this.engineCall(request);
  },

  /** The words the referee logged entry `id` under (the label its move carried), remembered
   * (bounded) until the page's addLog reads them. */
  keepCarried(id, label) {
    this.carried ??= new Map();
    this.carried.set(id, label);
    if (this.carried.size > MAX_CARRIED) this.carried.delete(this.carried.keys().next().value);
  },

  /** The player view of a character the referee answered for one of this phone's moves, kept
   * (bounded) with the count of publications before the move's table: the page writes it into
   * its table to show it at once, and that write is the referee's work, never a sheet edit. */
  keepAnswered(character, publication) {
    this.answeredCharacters.delete(character.id);
    this.answeredCharacters.set(character.id, { character, publication });
    if (this.answeredCharacters.size > MAX_ANSWERED_CHARACTERS) this.answeredCharacters.delete(this.answeredCharacters.keys().next().value);
  },

  /** How many times the MJ's device published the table, as far as this phone has received. */
  publicationSeen() {
    const count = this.publicDoc.getMap(META).get("published");
    return Number.isInteger(count) ? count : 0;
  },

  /** The player's « Annuler » (the undo notice, Ctrl+Z): a move (hub.js undoMove). The phone's
   * own undo history is not used: what it would put back is the table's to decide. Resolves
   * with the referee's answer; a refusal is said on the phone. */
  undo() {
    return this.move({ op: UNDO }).then((answer) => {
      this.report(answer);
      return !answer?.error;
    });
  },

  /** A page logs a result on a phone. The result of a move was logged by the referee itself,
   * from its own run (py/tablee/referee.py), under the words the move carried (move): the phone
   * adds nothing, the entry arrives with the table. Anything else is added here and sent as a
   * `live.log.add` move (which the referee refuses when it carries a result the MJ's device did
   * not make). */
  addLog(entry) {
    const op = isObject(entry?.request) ? entry.request.op : null;
    if (this.joined && this.moveOps?.has(op) && op !== "live.log.add") {
      // The page's label for it (known once answered) goes to the referee's entry when it says
      // more than the words the move carried, nothing else: the request, the outcome, its result
      // line and the replay are the referee's (referee_log.py, referee_words.py: a result line
      // a phone sends is ignored there).
      const id = this.logged;
      this.logged = null;
      const carried = this.carried?.get(id);
      const label = typeof entry.label === "string" ? entry.label.slice(0, MAX_LABEL) : "";
      if (typeof id === "string" && label && label !== carried) {
        // (with how the page worded it, as its addLog keeps it on one device)
        const words = wordsFor(label, typeof entry.system === "string" ? entry.system : null);
        this.move({ op: "live.log.label", id, label, ...words }).then((answer) => this.report(answer));
      }
      return true;
    }
    return this.localAddLog.call(this.app, entry);
  },

  /** Send a move (or keep it waiting while no link is open); resolves with the referee's answer.
   * `origin`: the button that sent it, read when it was pressed (else the event's or the
   * focused one now). */
  move(move, { origin = originButton() } = {}) {
    // The words it is listed under while it waits ("tire une carte"), never its op id.
    const words = this.app.t?.(`live.op.${move.op}`);
    const listed = typeof words === "string" && words && words !== `live.op.${move.op}` ? words.slice(0, MAX_LABEL) : null;
    // A system's move carries the words its entry is logged under (the referee's move_words): a
    // roll its expression (its page's label), any other its listed words. With the move, not
    // after it: the entry is never logged under its bare op, even when the page that sent it is
    // gone by the answer (a reload while it waited), and no second move names it.
    if (!KERNEL_OPS.has(move.op) && move.label === undefined) {
      const label = move.op === "roll" && typeof move.expr === "string" ? move.expr.slice(0, MAX_LABEL) : listed;
      if (label) move = { ...move, label };
    }
    // And how it is worded, so the MJ's device and every phone read the entry in their own
    // language (an English phone's test reads French on a French MJ's log). A result line is
    // never sent: the referee words the outcome from its own run (referee_words.py).
    if (!KERNEL_OPS.has(move.op) && (Object.hasOwn(move, "summary") || Object.hasOwn(move, "summary_words"))) {
      move = { ...move };
      delete move.summary;
      delete move.summary_words;
    }
    if (!KERNEL_OPS.has(move.op) && typeof move.label === "string" && move.label_words === undefined) {
      move = { ...move, ...wordsFor(move.label, systemOf(move.op), listed && move.label === listed ? `live.op.${move.op}` : null) };
    }
    const entry = { id: moveId(), move, at: new Date().toISOString(), sent: false };
    if (listed) entry.label = listed;
    if (this.queue.length >= MAX_QUEUE) return Promise.resolve(refusal(BUSY));
    this.queue.push(entry);
    const answer = new Promise((resolve) => this.waiting.set(entry.id, resolve));
    if (this.member?.synced) this.sendMove(entry);
    if (!entry.sent) this.showWaiting(entry, origin);
    this.saveSoon(entry.sent ? Y_SAVE_DELAY_MS : SAVE_DELAY_MS);
    this.emit();
    return answer;
  },

  sendMove(entry) {
    if (this.member.send(entry.id, entry.move)) entry.sent = true;
  },

  /** A move that waits for the table (no link) says so where it was made: beside the button
   * that sent it (`button`: the one pressed, read when it was), « La table ne répond pas :
   * l'action est en attente » with a Cancel, until it is answered or cancelled. The page's
   * last result stays as it was, marked as the previous one (markPrevious). */
  showWaiting(entry, button) {
    const doc = globalThis.document;
    if (!doc?.createElement || !button?.isConnected) return;
    const status = doc.createElement("span");
    status.className = "live-waiting";
    status.setAttribute("role", "status");
    status.dataset.move = entry.id;
    status.append(`${this.app.t?.("error.live.offline") ?? ""} `);
    const cancel = doc.createElement("button");
    cancel.type = "button";
    cancel.textContent = this.app.t?.("live.pending_cancel") ?? "Annuler";
    cancel.addEventListener("click", () => this.cancel(entry.id));
    status.append(cancel);
    button.dataset.liveWaiting = "yes";
    button.after(status);
    this.waitingShown.set(entry.id, { button, status });
    this.markPrevious(button);
  },

  /** The result the page shows while a move waits is the previous one, and says so: the page's
   * `main` gets `data-live-previous`, and its result area (the first after the button, else the
   * last: `#roll-result`, a `.test-result`, an element whose id ends in `-result`) is dimmed
   * (CSS, app.css) with « Résultat précédent » as text under its heading, which a screen
   * reader reads with it. Until no move waits on the page (unmarkPrevious). */
  markPrevious(button) {
    const main = button.closest("main");
    if (!main) return;
    this.previousShown ??= [];
    main.setAttribute("data-live-previous", "yes");
    if (!this.previousShown.some((p) => p.element === main)) this.previousShown.push({ element: main, tag: null });
    const areas = [...main.querySelectorAll(RESULT_AREAS)].filter((el) => !el.contains(button) && !el.parentElement?.closest(RESULT_AREAS));
    const area = areas.find((el) => button.compareDocumentPosition(el) & FOLLOWING) ?? areas.at(-1);
    if (!area || area.dataset.livePrevious === "yes") return;
    const tag = globalThis.document.createElement("p");
    tag.className = "live-previous-tag";
    tag.textContent = this.app.t?.("live.previous_result") ?? "Résultat précédent";
    area.dataset.livePrevious = "yes";
    // (under the heading: outside what the page draws again in the area, and read after its name)
    const heading = area.querySelector(":scope > h2, :scope > h3");
    if (heading) heading.after(tag);
    else area.prepend(tag);
    this.previousShown.push({ element: area, tag });
  },

  /** No move waits on the page any more: its result is the latest again. */
  unmarkPrevious() {
    for (const { element, tag } of this.previousShown?.splice(0) ?? []) {
      tag?.remove();
      if (element.tagName === "MAIN") element.removeAttribute("data-live-previous");
      else delete element.dataset.livePrevious;
    }
  },

  /** The move is answered, sent or cancelled: its waiting sign goes. */
  hideWaiting(id) {
    const shown = this.waitingShown?.get(id);
    if (!shown) return;
    this.waitingShown.delete(id);
    shown.status.remove();
    delete shown.button.dataset.liveWaiting;
    if (this.waitingShown.size === 0) this.unmarkPrevious();
  },

  /** The link is back (both docs synced): the waiting moves go, oldest first. */
  flush() {
    for (const entry of this.queue) this.sendMove(entry);
    this.emit();
  },

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
  },

  /** A waiting move the table refused for its pace (`live.refused.rate`, hub.js rateWait):
   * sent again once the table takes it (`wait` ms), RATE_RETRIES times at most; the player is
   * told once that their actions wait (the move stays listed, and can be cancelled). */
  retryRate(entry, wait) {
    const tries = entry.rate ?? 0;
    if (tries >= RATE_RETRIES) return false;
    if (tries === 0 && !(Date.now() - (this.rateToldAt ?? -Infinity) < RATE_TOLD_MS)) {
      this.rateToldAt = Date.now();
      this.dispatchEvent(new CustomEvent("refused", { detail: { code: RATE } }));
    }
    entry.rate = tries + 1;
    entry.sent = false;
    const delay = Math.min(60_000, Math.max(100, Number.isFinite(wait) ? wait : 2000));
    setTimeout(() => {
      if (this.queue.includes(entry) && !entry.sent && this.member?.synced) {
        this.sendMove(entry);
        this.emit();
      }
    }, delay);
    this.emit();
    return true;
  },

    /** The player cancels a waiting move (one the MJ's device has not answered). */
  cancel(id) {
    const at = this.queue.findIndex((q) => q.id === id);
    if (at < 0) return false;
    this.queue.splice(at, 1);
    this.hideWaiting(id);
    this.waiting.get(id)?.(refusal("live.cancelled"));
    this.waiting.delete(id);
    this.saveSoon();
    this.emit();
    return true;
  },

  onAnswer(id, answer) {
    if (this.engineAnswer(id, answer)) return; // (an answer of the MJ's engine: remote-engine.js)
    if (id === null) {
      this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer?.error?.code ?? "live.refused.malformed" } }));
      return;
    }
    const at = this.queue.findIndex((q) => q.id === id);
    // A move answered already (sent again after a broken link, or twice at once): the hub
    // answers it again with its first answer, which this phone has shown. Nothing more.
    if (at < 0 && !this.waiting.has(id)) return;
    if (at >= 0 && answer?.error?.code === BUSY && this.retryBusy(this.queue[at])) return;
    if (at >= 0 && answer?.error?.code === RATE && this.retryRate(this.queue[at], answer.error.params?.wait)) return;
    const entry = at >= 0 ? this.queue[at] : null;
    if (at >= 0) this.queue.splice(at, 1);
    this.hideWaiting(id);
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    // (the words it was logged under, for the page's addLog that follows: see call)
    if (entry && typeof answer?.logged === "string" && typeof entry.move.label === "string") this.keepCarried(answer.logged, entry.move.label);
    if (resolve) resolve(answer);
    else if (answer?.error) this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer.error.code } }));
    this.saveSoon(Y_SAVE_DELAY_MS);
    this.emit();
  },

  /** A phone's own edits become moves: a changed sheet of one of its characters, a new
   * roll-log entry. What else changed here is the table's to say (the next public update). */
  movesFromEdits() {
    const pub = isObject(this.published) ? this.published : {};
    const doc = this.app.doc;
    const before = new Map((pub.characters ?? []).filter(isObject).map((c) => [c.id, c]));
    const queued = (op, test) => this.queue.some((q) => q.move.op === op && test(q.move));
    let stale = false;
    for (const c of doc.characters ?? []) {
      // another player's character too: the referee refuses it, and the phone says so; a new
      // one (made on this phone) joins the table and becomes this player's
      if (!isObject(c) || (before.has(c.id) && same(before.get(c.id), c))) continue;
      if (queued("live.character.save", (m) => same(m.character, c))) continue;
      // A move's answer the page wrote to show it is never sent back: a save of it could put
      // back, over a change made since (the MJ's undo), what the move left. Once a table newer
      // than the move's has arrived, the write is out of date: the phone shows the table.
      const answered = this.answeredCharacters.get(c.id);
      const settled = answered !== undefined && this.publicationSeen() > answered.publication;
      if (answered && same(answered.character, c)) {
        if (settled) {
          this.answeredCharacters.delete(c.id);
          stale = true;
        }
        continue;
      }
      if (settled) this.answeredCharacters.delete(c.id); // the player's own edit, after the move's table
      // The sheet as the player saw it (`base`: the published one, or this phone's own save still
      // waiting): the hub refuses a field the table changed since (a conflict, never overwritten).
      // (an answered save of this phone whose table has not arrived yet is what it saw last)
      const mine = this.queue.findLast((q) => q.move.op === "live.character.save" && q.move.character?.id === c.id);
      const base = mine ? mine.move.character : answered && !settled ? answered.character : before.get(c.id);
      const move = { op: "live.character.save", character: structuredClone(c) };
      if (isObject(base)) move.base = base;
      this.move(move).then((answer) => {
        if (isObject(answer?.character) && typeof answer.character.id === "string") {
          this.keepAnswered(answer.character, Number.isInteger(answer.publication) ? answer.publication : this.publicationSeen());
        }
        this.report(answer);
      });
    }
    // A character of the table gone from this phone (deleted here): no move deletes one, only
    // the MJ's device does. Said on the phone, and its table shows the MJ's again, the
    // character back: a player's table never drifts from the MJ's without a word.
    const kept = new Set((doc.characters ?? []).filter(isObject).map((c) => c.id));
    if ([...before.keys()].some((id) => !kept.has(id))) {
      this.dispatchEvent(new CustomEvent("refused", { detail: { code: "live.refused.delete" } }));
      stale = true;
    }
    if (stale) queueMicrotask(() => this.showTable());
    const logged = new Set([...(pub.log ?? []), ...this.privateLog()].map((e) => (isObject(e) ? e.id : null)));
    for (const entry of doc.log ?? []) {
      if (!isObject(entry) || logged.has(entry.id) || Object.hasOwn(entry, "to")) continue;
      if (queued("live.log.add", (m) => m.entry?.id === entry.id)) continue;
      this.move({ op: "live.log.add", entry: structuredClone(entry) }).then((answer) => this.report(answer));
    }
  },

  /** A refused edit is said on the phone, and the phone shows the table again (not its guess). */
  report(answer) {
    if (!answer?.error) return;
    this.dispatchEvent(new CustomEvent("refused", { detail: { code: answer.error.code } }));
    this.showTable();
  },

  onPublicUpdate(origin) {
    this.saveSoon(Y_SAVE_DELAY_MS);
    if (origin === LOCAL || this.role !== "player") return; // the hub is the only writer
    const after = this.mirror.json; // readJson's answer, from this update's changes alone
    if (!isObject(after) || !Array.isArray(after.characters)) return; // nothing synced yet
    this.published = after;
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
  },

  /** The entries the MJ sent to this player only (its private doc). */
  privateLog() {
    const doc = this.role === "player" ? this.privateDocs.get(this.me) : null;
    const json = doc ? readJson(doc) : {};
    return Array.isArray(json.log) ? json.log.filter(isObject) : [];
  },

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
  },

  onPrivateUpdate() {
    this.saveSoon(Y_SAVE_DELAY_MS);
    if (this.joined) this.showTable();
    this.emit();
  },
};

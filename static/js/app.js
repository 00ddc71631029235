// The one `app` object views receive: the table this page shows, the engine, the route, the last
// refusal, the notices, and the shell's services (update, undo, saved, notify...).
//
// The shell's work is split by what it does: boot.js (the start and the page's events), routes.js
// (which page an address shows), render.js (drawing the page, the header and the notices),
// save-queue.js (writing every change under the lock the site's tabs share) and undo-bar.js
// (undo, redo and their bar). Each of them imports this module; this module imports none of
// them: main.js, the page's entry, hands their functions in once (connectShell) before the
// start, and a service calls them only when it is used.

import { call, engineState } from "./engine.js";
import { t } from "./i18n.js";
import { checkCandidate, setApartTooDeep, trimLogToFit } from "./guard.js";
import { backup, DOC_KEY, downloadJson, fileNamePart, LIMITS, LOG_LIMIT, newId, noteExport, todayStamp } from "./storage.js";
import * as undo from "./undo.js";
import { withWords } from "./views/log-words.js";

/** The shell's parts, as main.js hands them in: {render, saveQueue, undoBar, pageNow}. */
const shell = {};

/** Give the app object the shell's parts (main.js, once, before boot). */
export function connectShell(parts) {
  Object.assign(shell, parts);
}

/** The notices shown above the page (app.notify): {id, kind, text, actions}; a text or an
 * action's label given as the function that makes it (i18n.said) is said again in the language
 * of each drawing, so a switch of language reaches the notices already shown. */
export const notices = [];

/** Who follows the document (app.onDocument): the live table mirrors every change. */
export const documentListeners = new Set();

/** The page of `#/`, of an empty address and of an unknown one: the home page, a first visit
 * that explains itself (routes.js parseRoute). */
export const DEFAULT_ROUTE = "home";

/** A page as the undo bar knows it: its route and parameters ("unicreon/character/uc-marie"). */
export function pageOf({ route, params }) {
  return [route, ...params].join("/");
}

/**
 * The suite's detector of a table changed in place (set by the browser tests before the page's
 * scripts, e2e/browser_support.py's STRICT_TABLES, never by the app): every table the page
 * holds is then frozen, deeply. A table is changed only by replacing it (app.update gives `mutate` a copy: whole, or one level deep for
 * a `shallow` change, whose records stay shared with the table before it); a change that
 * writes into a shared record, or a page that writes into app.doc, would change the table the
 * save, the undo history and the live table compare with, silently. Frozen, it throws where
 * it happens, and the browser test fails on the page error.
 */
const STRICT_TABLES = globalThis.__tableeStrictTables === true;
/** Freeze `value` and everything under it; a frozen object's children already are (frozen here
 * first), so a new table costs only its new objects. */
function freezeDeep(value) {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  for (const child of Object.values(value)) freezeDeep(child);
  Object.freeze(value);
}
let table = null;

/** The one app object views receive: the document, the engine and the shell's services. */
export const app = {
  /** The table as this page shows it (replaced by every change, never changed in place). */
  get doc() {
    return table;
  },
  set doc(next) {
    if (STRICT_TABLES) freezeDeep(next);
    table = next;
  },
  engine: { state: "idle", describe: null, relayed: false },
  call,
  /** Whether the pages' engine requests are answered: this device's engine is ready, or (a phone
   * at a live table, while its own starts) the MJ's answers those that need no table
   * (`engine.relayed`, live/remote-engine.js): odds, a sheet's check, a system's rule tables. */
  engineAnswers() {
    return this.engine.state === "ready" || this.engine.relayed === true;
  },
  t,
  route: DEFAULT_ROUTE,
  params: [],

  /** The store's limits: the set-up's store.limits answer, read at boot (storage.LIMITS, then
   * the engine's answer, when that file cannot be read). */
  limits: LIMITS,
  /** The last refused change: {at, text} (`at` is the id of the field it came from, or null). */
  refusal: null,

  /**
   * Apply a change to the document, check it, save it, and re-render. `mutate(doc)` changes
   * the document it is given, in place, and must read what it needs from that document (never
   * from a copy taken earlier): the same function is applied again to the latest saved table
   * when it is written. The page shows the change at once (`app.doc`); the write happens under a
   * lock every tab of this site shares (navigator.locks, "tablee.document"), where each change
   * waiting is applied, in order, to the document as saved at that moment — so two tabs
   * changing the table at the same moment both keep their change. A change that would make the
   * table invalid is refused: nothing is written, `app.refusal` says why (shown at the field
   * `at` when the view renders ui.refusalAt, and in the save-state line). Returns true when the
   * change was accepted (`app.saved()` resolves once it is in the saved document).
   * `record: false`: not kept to undo (a live peer's change, which is not this person's).
   * `label`: what the change was, for the undo bar, the Table page and the log's "Annulé : …"
   * ({key, params}: a whole i18n key and its parameters, names and numbers only, so it reads in
   * the language of the moment it is shown); without it the change's paths name it (undo.describe).
   * `shallow: true`: `mutate` only replaces the document's top-level values (a new array or
   * object holding the records it keeps), never changes a value in place: the document is then
   * copied one level deep instead of whole, the records it keeps stay shared, and the check
   * skips them (a record of app.doc is never changed in place: every change replaces it). The
   * live table applies the referee's changes and a phone's published table this way.
   */
  update(mutate, { at = null, history = null, record = true, label = null, shallow = false } = {}) {
    const base = this.doc;
    const next = shell.saveQueue.copyFor(base, shallow);
    mutate(next);
    const problem = checkCandidate(next, base, this.limits);
    if (problem) {
      this.refusal = { at, text: shell.saveQueue.refusalText(problem) };
      this.rerender();
      return false;
    }
    if (this.refusal && (this.refusal.at === at || at === null)) this.refusal = null;
    shell.saveQueue.queueChange({ mutate, at, history, record, label, shallow }, base, next, shell.pageNow);
    this.rerender();
    return true;
  },

  /**
   * The changes kept to undo and to redo (undo.js: {undo, redo}, newest last), shared by every
   * tab of this site and kept across reloads.
   */
  history() {
    try {
      return undo.readHistory(localStorage);
    } catch {
      return { undo: [], redo: [] };
    }
  },

  /** Undo the last change (`direction` "undo") or redo the last undone one ("redo"): a change
   * like any other (app.update: guarded, saved under the lock, mirrored to a live table), that
   * writes back only the paths that change touched, and is refused when they changed since. */
  undo(direction = "undo") {
    const list = this.history()[direction];
    const entry = list[list.length - 1];
    if (!entry) return false;
    return shell.undoBar.undoEntry(entry, direction);
  },

  redo() {
    return this.undo("redo");
  },

  /** What a kept change did, as a sentence ("Supprimé : Ana"). */
  changeLabel(entry) {
    return shell.undoBar.changeLabel(entry);
  },

  /** Resolves once every change accepted so far is in the saved document (or could not be
   * saved: the save-state line says so). */
  async saved(upTo = Infinity) {
    await shell.saveQueue.savedUpTo(upTo);
  },

  /** How many changes app.update accepted so far: `app.saved(app.changeCount())` resolves once
   * this tab's changes up to now are in the saved document (or could not be saved), whatever
   * changes come after them. */
  changeCount() {
    return shell.saveQueue.changeCount();
  },

  /**
   * Call `listener(doc)` after every change of the table, whatever made it (this tab, another
   * tab, an import, the live table): every change replaces `app.doc`, so a new object is a
   * change. Returns the function that stops it.
   */
  onDocument(listener) {
    documentListeners.add(listener);
    return () => documentListeners.delete(listener);
  },

  /** Show why a change from the field `at` is refused ({path, reason, params}); nothing is written. */
  refuse(at, problem) {
    this.refusal = { at, text: shell.saveQueue.refusalText(problem) };
    this.rerender();
  },

  /** Append an entry to the roll log (oldest entries dropped past LOG_LIMIT, and while the
   * table would be larger than the store allows), with how its label and result line were
   * worded, so a reader in another language reads them in theirs (views/log-words.js). */
  addLog(entry) {
    // The id and the date are made once, outside the change: a change is applied again to the
    // latest saved table when it is written, and must give the same entry there.
    const record = withWords({ id: newId("log"), at: new Date().toISOString(), system: null, ...entry });
    return this.update((doc) => {
      doc.log.push(structuredClone(record));
      if (doc.log.length > LOG_LIMIT) doc.log.splice(0, doc.log.length - LOG_LIMIT);
      trimLogToFit(doc, app.limits);
    });
  },

  /**
   * Replace the whole document (import, restore). The saved table is first copied to a
   * backup and read back; when that fails nothing is replaced and null is returned (the
   * caller tells the person and offers the download). Returns the backup key.
   */
  replaceDocument(doc) {
    let current = null;
    try {
      current = localStorage.getItem(DOC_KEY);
    } catch {
      current = null;
    }
    const key = backup(current ?? JSON.stringify(this.doc));
    if (!key) return null;
    shell.saveQueue.forgetUnwritten(); // the whole table is replaced: changes made before it are gone with it
    // What was undoable belonged to the table replaced.
    try {
      localStorage.removeItem(undo.HISTORY_KEY);
    } catch {
      // nothing to forget
    }
    shell.undoBar.clearToast();
    this.doc = doc;
    // (the interface keeps the device's language: a replaced table's own field changes nothing)
    shell.saveQueue.persist();
    this.rerender();
    return key;
  },

  /**
   * Open a table the engine did not write (the saved one, an imported file, a backup to
   * restore): store.open, after the records nested too deep for a request were set apart here
   * the same way (guard.setApartTooDeep). Resolves with store.open's answer, `quarantined`
   * counting both.
   */
  async openTable(value) {
    const { doc, parked } = setApartTooDeep(value, this.limits);
    const response = await call({ op: "store.open", document: doc });
    if (!response.error) response.quarantined += parked;
    return response;
  },

  /** Download the table as it is in this tab (the way out when it cannot be saved). */
  exportNow() {
    downloadJson(`tablee-${exportName(this.doc.name)}-${todayStamp()}.json`, this.doc);
    noteExport();
  },

  /** Show a notice above the page: `text` (and each action's `label`) a string, or the function
   * that makes it, said again in the language of each drawing (a switch of language reaches it). */
  notify(kind, text, actions = []) {
    const id = newId("notice");
    notices.push({ id, kind, text, actions });
    this.redrawNotices();
    return id;
  },

  dismiss(id) {
    const index = notices.findIndex((n) => n.id === id);
    if (index >= 0) notices.splice(index, 1);
    this.redrawNotices();
  },

  rerender() {
    shell.render.renderAll();
  },

  /** Redraw the notices only (the save-state line, the undo bar, app.notify's). */
  redrawNotices() {
    shell.render.renderNotices();
  },

  /** Redraw the header and navigation only (the live table's unseen count changed). */
  chrome() {
    shell.render.renderChrome();
  },

  /** Open `hash` with its top in view and the focus in its first field (render.js openAtTop). */
  openAtTop(hash) {
    shell.render.openAtTop(hash);
  },

  /** How many moves of the players the MJ has not seen yet (set by live/connect.js while this
   * device is the MJ's of a live table; 0 otherwise). */
  liveUnseen: () => 0,

  /** The live table's session (live/connect.js sets it once a live page or a resumed session
   * loaded it; null otherwise): the tray asks it who a roll can be sent to. */
  liveSession: () => null,
};

function exportName(name) {
  return fileNamePart(name);
}


app.engine.state = engineState();

// Tablée app shell: reads the saved table, paints at once, boots the rules engine in a
// worker after that first paint (off the critical path), routes between views and keeps the
// table document saved after every change.

import { html, render, nothing } from "../vendor/lit-html/lit-html.js";
import { call, engineState, onEngineState, startEngineSoon } from "./engine.js";
import { chooseLanguage, deviceLanguage, ensureLanguage, ensureNamespaces, errorMessage, has, initI18n, LANGUAGE_KEY, language, setLanguage, t, tn } from "./i18n.js";
import { checkCandidate, setApartTooDeep, trimLogToFit } from "./guard.js";
import {
  backup,
  BACKUP_PREFIX,
  DOC_KEY,
  downloadBlob,
  downloadJson,
  DOWNLOAD_EVENT,
  fileNamePart,
  LIMITS,
  LOG_LIMIT,
  newDocument,
  newId,
  noteExport,
  parseCurrent,
  readSaved,
  save,
  todayStamp,
} from "./storage.js";
import { registerServiceWorker } from "./sw-register.js";
import { readHead, waitUntil, writeHead } from "./saved-head.js";
import * as undo from "./undo.js";
import * as home from "./views/home.js";
import { backupLabel } from "./views/when.js";
import { withWords } from "./views/log-words.js";

const VIEWS = { home };
// Pages loaded with their route (issue 14: the first paint waits for none of them, and the
// shell's module graph stays the home page's). The table page brings the file import and
// export, the share page the QR code generator, the dice tray and the log their dice and card
// faces, the log its exports and replays; a system's page brings its own texts (i18n namespace
// of the same name) and styles.
const LAZY_VIEWS = {
  share: () => import("./views/share.js"),
  table: () => import("./views/table.js"),
  tray: () => import("./views/tray.js"),
  log: () => import("./views/log.js"),
  about: () => import("./views/about.js"),
};
const SYSTEM_VIEWS = {
  systmj: () => import("./systems/systmj.js"),
  unicreon: () => import("./systems/unicreon.js"),
  versality: () => import("./systems/versality.js"),
  pointzero: () => import("./systems/pointzero.js"),
  theorem: () => import("./systems/theorem.js"),
  // The live table's pages (issue 15), loaded on demand like a system's: the MJ's #/live and
  // the player's #/join/<offer>.
  live: () => import("./views/live.js"),
  join: () => import("./views/live.js"),
};
// `#/`, an empty hash and an unknown one land on the home page (issue 13: a first visit that
// explains itself).
const DEFAULT_ROUTE = "home";

const notices = [];
const systemModules = new Map();
/** The text this tab last read or wrote under DOC_KEY (to tell another tab's save from ours). */
let lastRaw = null;
/**
 * Why this tab must not write the document (null: it may). "engine": the saved table is in an
 * older layout (or has a record to set apart) and waits for the engine; "backup": it had to be
 * set aside and its backup could not be written. Changes then live in memory only, and the one
 * save-state line says so.
 */
let writeBlock = null;
/** The one save-state line: null when the last save worked, else {kind, detail}. */
let saveState = null;

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
  engine: { state: "idle", describe: null },
  call,
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
    const next = copyFor(base, shallow);
    mutate(next);
    const problem = checkCandidate(next, base, this.limits);
    if (problem) {
      this.refusal = { at, text: refusalText(problem) };
      renderAll();
      return false;
    }
    if (this.refusal && (this.refusal.at === at || at === null)) this.refusal = null;
    if (!pending.length) unsavedBase = base;
    this.doc = next;
    changes += 1;
    // (`made`: the table this change made from `base`, checked: the write takes it as it is
    // when it writes on that same table, instead of copying and checking it a second time)
    const change = { mutate, at, history, record, label, shallow, n: changes, made: { base, next }, page: null };
    // The page of the change is the one shown once the code that made it has run to its end:
    // a change that opens a page itself (a character created opens its sheet) belongs to it.
    queueMicrotask(() => { change.page = pageOf(parseRoute()); });
    pending.push(change);
    scheduleWrite();
    renderAll();
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
    return undoEntry(entry, direction);
  },

  redo() {
    return this.undo("redo");
  },

  /** What a kept change did, as a sentence ("Supprimé : Ana"). */
  changeLabel(entry) {
    return changeLabel(entry);
  },

  /** Resolves once every change accepted so far is in the saved document (or could not be
   * saved: the save-state line says so). */
  async saved(upTo = Infinity) {
    // (a write resolves once the revision is recorded too; the table is saved before that)
    while ((writing || pending.length) && written < upTo) await Promise.race([writing ?? new Promise((r) => setTimeout(r, 20)), nextWritten()]);
  },

  /** How many changes app.update accepted so far: `app.saved(app.changeCount())` resolves once
   * this tab's changes up to now are in the saved document (or could not be saved), whatever
   * changes come after them. */
  changeCount() {
    return changes;
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
    this.refusal = { at, text: refusalText(problem) };
    renderAll();
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
    writeBlock = null;
    pending.length = 0; // the whole table is replaced: changes made before it are gone with it
    setWritten(changes);
    unconfirmed.length = 0;
    unsaved.length = 0;
    // What was undoable belonged to the table replaced.
    try {
      localStorage.removeItem(undo.HISTORY_KEY);
    } catch {
      // nothing to forget
    }
    toast = null;
    this.doc = doc;
    // (the interface keeps the device's language: a replaced table's own field changes nothing)
    persist();
    renderAll();
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

  notify(kind, text, actions = []) {
    const id = newId("notice");
    notices.push({ id, kind, text, actions });
    renderNotices();
    return id;
  },

  dismiss(id) {
    const index = notices.findIndex((n) => n.id === id);
    if (index >= 0) notices.splice(index, 1);
    renderNotices();
  },

  rerender() {
    renderAll();
  },

  /** Redraw the header and navigation only (the live table's unseen count changed). */
  chrome() {
    renderChrome();
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

/** Every file the app downloads confirms itself: a notice names the file (storage.downloadBlob). */
function confirmDownload(event) {
  const file = event.detail?.filename;
  if (typeof file === "string") app.notify("status", t("download.done", { file }));
}

/** The pre-save check's reasons that are a schema's (guard.schemaProblem), as JSON Schema keywords:
 * such a refusal reads as the engine's do, the field named by its label ("Niveau : 10 au plus"). */
const SCHEMA_RULE_OF = { type: "type", enum: "enum", too_small: "minimum", too_big: "maximum", too_few: "minItems", missing: "required", unknown_key: "additionalProperties" };

function refusalText(problem) {
  const { reason, params } = problem;
  const known = ["empty", "unnamed", "too_long", "too_many", "too_large", "duplicate"];
  const key = known.includes(reason) ? reason : "other";
  if (key === "other" && Object.hasOwn(SCHEMA_RULE_OF, reason)) {
    const limit = reason === "type" ? String(params?.expected ?? "").split("|") : params?.min ?? params?.max ?? null;
    return errorMessage({ message_key: "save.refused.schema", params: { rule: SCHEMA_RULE_OF[reason], limit, field: problem.path } });
  }
  const words = has(`store.reason.${reason}`) ? t(`store.reason.${reason}`) : reason;
  return t(`save.refused.${key}`, { ...params, path: problem.path, reason: words });
}

/** An undo that finds its paths changed since it was made (undo.conflicts). */
class UndoConflict extends Error {
  constructor(entry) {
    super("undo.conflict");
    this.code = "undo.conflict";
    this.entry = entry;
  }
}

function changeLabel(entry) {
  const given = entry?.label;
  // A label the page gave (a whole key, undo.record) when its text is here; else the paths'.
  if (typeof given?.key === "string" && given.key.includes(".")) {
    if (has(given.key)) return t(given.key, given.params ?? {});
    return changeLabel({ label: given.base });
  }
  const { key, params } = given ?? {};
  const known = ["deleted", "added", "character", "system", "name", "language", "quarantine"];
  const words = { ...(params ?? {}) };
  if (typeof words.system === "string") words.system = has(`nav.${words.system}`) ? t(`nav.${words.system}`) : words.system;
  return t(`undo.label.${known.includes(key) ? key : "other"}`, words);
}

/** The change that undoes (or redoes) `entry`, with the log entry that says so. */
function undoEntry(entry, direction) {
  // A player's phone at a live table: « Annuler » is a move the MJ's device referees
  // (live/member.js undo), never a local write of the table.
  if (direction === "undo" && typeof app.liveUndo === "function") {
    app.liveUndo();
    return true;
  }
  const label = changeLabel(entry);
  const refuse = () => {
    app.refusal = { at: null, text: t("undo.conflict", { label }) };
    renderAll();
    return false;
  };
  if (undo.conflicts(app.doc, entry.changes, direction).length) {
    dropEntry(entry, direction);
    return refuse();
  }
  // The log entry is made once, here: the change is applied again to the latest saved table
  // when it is written, and must add the same entry (same id, same date) there.
  const record = withWords({ id: newId("log"), at: new Date().toISOString(), system: null, kind: direction,
    label: Array.from(t(direction === "undo" ? "undo.log.undone" : "undo.log.redone", { label })).slice(0, 200).join(""),
    request: {}, result: {} });
  const mutate = (doc) => {
    if (undo.conflicts(doc, entry.changes, direction).length) throw new UndoConflict(entry);
    undo.apply(doc, entry.changes, direction);
    doc.log.push(structuredClone(record));
    if (doc.log.length > LOG_LIMIT) doc.log.splice(0, doc.log.length - LOG_LIMIT);
    trimLogToFit(doc, app.limits);
  };
  return app.update(mutate, { history: { kind: direction, entry } });
}

/** Forget an entry that can no longer be applied (its paths changed since). */
function dropEntry(entry, direction) {
  const history = app.history();
  const list = history[direction];
  const i = list.findIndex((e) => e.id === entry.id);
  if (i < 0) return;
  list.splice(i, 1);
  try {
    undo.writeHistory(localStorage, history);
  } catch {
    // the history is a convenience: the table matters
  }
}

/** The bar shown after a change of this tab: {entry, kind, page} ("change": offers to undo it,
 * "undo": offers to redo it), or null. It belongs to the page the change was made on (`page`,
 * pageOf): it is not shown on another one and goes away when the person leaves that page (the
 * Table page keeps offering to undo and redo the last changes). */
let toast = null;
let toastTimer = null;
const TOAST_MS = 15000;

/** A page as the bar knows it: its route and parameters ("unicreon/character/uc-marie"). */
function pageOf({ route, params }) {
  return [route, ...params].join("/");
}

function showToast(entry, kind, page) {
  const here = pageOf(app);
  // A change written after the person left its page (the write waits for the lock): no bar
  // naming it on the page they went to.
  if ((page ?? here) !== here) return;
  toast = { entry, kind, page: here };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast = null;
    renderNotices();
  }, TOAST_MS);
}

/** Leaving the page of the bar's change takes the bar away (onRoute). */
function dropToastOfAnotherPage() {
  if (toast && toast.page !== pageOf(app)) {
    toast = null;
    clearTimeout(toastTimer);
  }
}

function toastBar() {
  if (!toast || toast.page !== pageOf(app)) return nothing;
  const label = changeLabel(toast.entry);
  const undone = toast.kind === "undo";
  // The bar undoes (redoes) its own change, wherever it now stands in the history.
  const act = () => {
    const entry = toast.entry;
    const direction = undone ? "redo" : "undo";
    toast = null;
    if (app.history()[direction].some((e) => e.id === entry.id)) undoEntry(entry, direction);
    else renderNotices();
  };
  return html`<div class="notice status undo-toast" role="status" data-testid="undo-toast" data-kind=${toast.kind}>
    <p>${t(undone ? "undo.toast.undone" : "undo.toast.changed", { label })}</p>
    <div class="row">
      <button type="button" data-testid="undo-toast-action" aria-keyshortcuts=${undone ? nothing : "Control+Z Meta+Z"} @click=${act}>${t(undone ? "undo.redo" : "undo.undo")}</button>
      <button type="button" @click=${() => { toast = null; renderNotices(); }} aria-label=${t("notice.dismiss")}>✕</button>
    </div>
  </div>`;
}

/** The copy of `doc` a change's `mutate` is given: whole, or one level deep for a `shallow`
 * change (one that replaces top-level values and changes nothing in place). */
const copyFor = (doc, shallow) => (shallow ? { ...doc } : structuredClone(doc));

/** The changes accepted by app.update and not yet written: {mutate, at, history, shallow}, oldest
 * first (`history`: null for a change, {kind: "undo" | "redo", entry} for an undo or redo). */
const pending = [];
/** The write under way (a promise), or null. */
let writing = null;
/** Changes app.update accepted in this tab, and how many of the first ones a write dealt with. */
let changes = 0;
let written = 0;
let writtenSignal = null;
/** A promise resolved the next time a write deals with changes (see setWritten). */
function nextWritten() {
  if (!writtenSignal) {
    let resolve;
    const promise = new Promise((r) => {
      resolve = r;
    });
    writtenSignal = { promise, resolve };
  }
  return writtenSignal.promise;
}
function setWritten(count) {
  written = count;
  writtenSignal?.resolve();
  writtenSignal = null;
}
/** The document as this tab last read or wrote it under DOC_KEY (what lastRaw holds). */
let savedDoc = null;
/** What app.doc was before the first pending change (when nothing could be read or saved). */
let unsavedBase = null;
/** The lock every tab of the site takes to change the saved table (Web Locks API). */
const DOC_LOCK = "tablee.document";
/**
 * The saved table's revision, written just before the table under the lock: {id, chain} (the
 * ids of the last revisions, this one last). A browser may hand a tab the lock before that tab
 * sees the last write of another (localStorage reaches other tabs asynchronously): a write made
 * on such a stale table is then a sibling of the other, and the tab whose write was overwritten
 * sees it (the saved revision descends from its write's parent, not from its write) and applies
 * its changes again.
 */
const REV_KEY = "tablee.document.rev";
const REV_CHAIN = 200;
/** This tab's writes not yet known to be in the saved table's lineage: {id, parent, mutations}. */
const unconfirmed = [];
/** Changes whose write failed (storage full...): kept in this tab and applied again at the next
 * write, so the table in memory keeps them until a save works. */
const unsaved = [];

function readRev() {
  try {
    const rev = JSON.parse(localStorage.getItem(REV_KEY));
    return rev && typeof rev.id === "string" && Array.isArray(rev.chain) ? rev : null;
  } catch {
    return null;
  }
}

/** Which table text a revision describes: a 32-bit FNV-1a of the text, and its length. The
 * last text hashed is remembered: a write reads the saved text back and compares it with the
 * revision two or three times, each a pass over the whole table, where one comparison of equal
 * strings is enough. */
let hashed = { text: null, hash: null };
function textHash(text) {
  if (text === hashed.text) return hashed.hash;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  hashed = { text, hash: `${(h >>> 0).toString(36)}:${text.length}` };
  return hashed.hash;
}

/** The saved table's text as this tab sees it, unparsed (null: none, or storage unreadable). */
function savedText() {
  try {
    return localStorage.getItem(DOC_KEY);
  } catch {
    return null;
  }
}

/** Whether revision `rev` is the one written with table text `raw` (nothing to compare when
 * either is missing). */
const describes = (rev, raw) => rev === null || raw === null || rev.hash === textHash(raw);

/** The revision id written with the last save of this tab (null: it could not be written). */
let lastRev = null;

/** Write the revision of `raw` (just saved), child of `parent`; returns its id or null. */
function writeRev(parent, raw) {
  const id = newId("rev");
  try {
    localStorage.setItem(REV_KEY, JSON.stringify({ id, hash: textHash(raw), chain: [...(parent?.chain ?? []), id].slice(-REV_CHAIN) }));
    return id;
  } catch {
    return null; // no room for it: the table itself is what matters
  }
}

/** Since when this tab has been waiting for a consistent view (ms), or null. */
let staleSince = null;
const STALE_PATIENCE_MS = 2000;

const inLineage = (rev, id) => rev !== null && (rev.id === id || rev.chain.includes(id));
/** Whether the saved revision was made after `parent` (on it or on a descendant of it). */
const after = (rev, parent) => rev !== null && rev.id !== parent && (parent === null || rev.chain.includes(parent));

/**
 * Sort this tab's unconfirmed writes against the saved revision: those in its lineage are
 * confirmed; from the first one overwritten (the saved revision was made after its parent
 * without it) on, their changes are returned to be applied again. Returns null when this tab
 * has not yet seen what it wrote (its view is older): nothing may be written then.
 */
function lostChanges(rev) {
  const lost = [];
  while (unconfirmed.length) {
    const w = unconfirmed[0];
    if (inLineage(rev, w.id)) {
      unconfirmed.shift();
    } else if (after(rev, w.parent)) {
      for (const gone of unconfirmed.splice(0)) lost.push(...gone.mutations);
    } else {
      return null;
    }
  }
  return lost;
}

/** Write the pending changes soon, under the shared lock (one write at a time per tab). */
function scheduleWrite() {
  if (writing) return;
  const run = () => {
    writing = null;
    if (pending.length) scheduleWrite();
  };
  const locks = navigator.locks;
  writing = (locks?.request ? locks.request(DOC_LOCK, writeAtHead) : Promise.resolve().then(writePending)).then(run, (error) => {
    console.error(error);
    run();
  });
}

/**
 * Under the lock: wait until this tab's copy of the saved table has reached the last revision
 * any tab wrote (saved-head.js: localStorage reaches the other tabs some time after a write,
 * the lock does not wait for it), write the pending changes on it, and record the revision
 * written before letting go of the lock.
 */
async function writeAtHead() {
  if (!pending.length) return;
  const head = await readHead();
  if (head) {
    await waitUntil(() => {
      const rev = readRev();
      return inLineage(rev, head) && describes(rev, savedText());
    });
  }
  const before = lastRev;
  writePending();
  if (lastRev && lastRev !== before) await writeHead(lastRev);
}

/**
 * Under the lock: apply each pending change, in order, to the document as saved now (another
 * tab may have saved since), checking each again; write the result and read it back. A change
 * the latest table refuses is dropped and said so (app.refusal). The page then shows what was
 * saved. Synchronous: nothing can run between the read and the write of this tab.
 */
function writePending({ final = false } = {}) {
  if (!pending.length) return;
  if (writeBlock) {
    // Nothing may be written (a table waiting for the engine, a backup that failed): the
    // changes stay in this tab's memory only, and the save-state line says so.
    pending.length = 0;
    setWritten(changes);
    setSaveState({ kind: writeBlock === "engine" ? "waiting" : "blocked" });
    return;
  }
  const raw = savedText();
  const rev = readRev();
  // The table and its revision reach this tab as two changes: until both are here (the
  // revision describes this text) and this tab has seen its own last write, wait for them.
  const lost = describes(rev, raw) ? lostChanges(rev) : null;
  if (lost === null) {
    staleSince ??= Date.now();
    if (!final && Date.now() - staleSince < STALE_PATIENCE_MS) {
      setTimeout(scheduleWrite, 20);
      return;
    }
    unconfirmed.length = 0; // another version of the app, or storage cleared: write on what is there
  }
  staleSince = null;
  const batch = [...(lost ?? []), ...unsaved.splice(0), ...pending.splice(0)];
  const through = Math.max(written, ...batch.map((c) => c.n ?? 0));
  if (!batch.length) return;
  let doc = raw !== null && raw === lastRaw && savedDoc ? savedDoc : parseCurrent(raw);
  if (!doc) doc = savedDoc ?? unsavedBase ?? app.doc;
  // The undo history changes with the table, under the same lock: each change this tab makes
  // is kept as its difference from the table as saved at this moment.
  const history = app.history();
  let historyChanged = false;
  let shown = null;
  const refusedHere = []; // (accepted on this tab's copy, refused on the table as saved now)
  for (const change of batch) {
    const { mutate, at, history: kind = null, record = true, label = null, shallow = false, made = null, page = null } = change;
    const reused = made !== null && made.base === doc; // (the table it was made on: nothing came between)
    const next = reused ? made.next : copyFor(doc, shallow);
    try {
      if (!reused) mutate(next);
    } catch (error) {
      if (error instanceof UndoConflict) {
        const list = history[kind?.kind ?? "undo"];
        const i = list.findIndex((e) => e.id === error.entry.id);
        if (i >= 0) list.splice(i, 1);
        historyChanged = true;
        app.refusal = { at: null, text: t("undo.conflict", { label: changeLabel(error.entry) }) };
      } else {
        console.error(error);
      }
      continue;
    }
    const problem = reused ? null : checkCandidate(next, doc, app.limits);
    if (problem) {
      refusedHere.push({ change, problem });
      continue;
    }
    if (record) {
      const made = undo.record(history, kind?.kind ?? "change", { entry: kind?.entry, before: doc, after: next, id: newId("change"), at: new Date().toISOString(), label });
      if (made) {
        historyChanged = true;
        shown = { entry: made, kind: kind?.kind ?? "change", page };
      }
    }
    doc = next;
  }
  app.doc = doc;
  const mutations = batch.map(({ mutate, shallow = false }) => ({ mutate, at: null, record: false, shallow }));
  if (!persist()) unsaved.push(...mutations);
  else {
    if (lastRev) unconfirmed.push({ id: lastRev, parent: rev?.id ?? null, mutations });
    if (historyChanged) {
      try {
        undo.writeHistory(localStorage, history);
      } catch {
        // no room for the history: the table itself is what matters
      }
    }
    if (shown) showToast(shown.entry, shown.kind === "redo" ? "change" : shown.kind, shown.page);
  }
  if (refusedHere.length) offerBack(refusedHere);
  setWritten(through); // (saved, or kept to write again: the save-state line says so)
  // Changes accepted while this write ran are shown on top of what was saved.
  showPending();
  renderAll();
}

/** The notice offering back the changes refused at their write: {id, changes}, or null. */
let offered = null;

/**
 * Changes this tab accepted on its own copy of the table that the table as saved refused when
 * they were written (another tab or device changed it meanwhile: together the table would pass
 * a limit, 200 characters…). They are not lost without a word: one notice on this page says how
 * many, and why, and offers them back: "Réessayer" makes them again on the table as it is then
 * (each checked again: one still refused stays offered).
 */
function offerBack(refused) {
  // (one notice: changes still offered join the new ones; a notice dismissed was declined)
  const shown = offered ? notices.findIndex((n) => n.id === offered.id) : -1;
  if (shown >= 0) notices.splice(shown, 1);
  const changes = [...(shown >= 0 ? offered.changes : []), ...refused.map((r) => r.change)];
  const text = tn("save.refused_at_write", changes.length, { reason: refusalText(refused[refused.length - 1].problem) });
  const id = app.notify("error", text, [{ label: t("save.retry"), run: () => retryRefused(changes) }]);
  offered = { id, changes };
}

function retryRefused(changes) {
  offered = null;
  const still = [];
  for (const c of changes) {
    const next = copyFor(app.doc, c.shallow);
    let problem = null;
    try {
      c.mutate(next);
      problem = checkCandidate(next, app.doc, app.limits);
    } catch {
      continue; // (a change that cannot be made again at all, an undo whose paths changed)
    }
    if (problem) still.push({ change: c, problem });
    else app.update(c.mutate, { at: null, history: c.history, record: c.record, label: c.label, shallow: c.shallow });
  }
  if (still.length) offerBack(still);
}

/**
 * The page is going away or out of sight (a reload, a link followed, the tab closed, a phone
 * locked or switched to another app, after which it may be killed without another word): the
 * changes still waiting for the lock are written now, synchronously, on the table as this tab
 * sees it. Waiting for the lock and the saved head (both asynchronous) would lose them with the
 * page. A tab whose own write this one overwrites still sees it through the revision chain
 * and applies its changes again.
 */
function writeBeforeLeaving() {
  if (!pending.length) return;
  const before = lastRev;
  writePending({ final: true });
  if (lastRev && lastRev !== before) writeHead(lastRev).catch(() => {});
}
addEventListener("pagehide", writeBeforeLeaving);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") writeBeforeLeaving();
});

/** app.doc = the document as saved, with the changes still waiting applied on top. */
function showPending() {
  for (const { mutate, shallow = false } of pending) {
    const next = copyFor(app.doc, shallow);
    try {
      mutate(next);
    } catch {
      continue;
    }
    if (!checkCandidate(next, app.doc, app.limits)) app.doc = next;
  }
}

function persist() {
  if (writeBlock) {
    setSaveState({ kind: writeBlock === "engine" ? "waiting" : "blocked" });
    return false;
  }
  try {
    const parent = readRev();
    lastRaw = save(app.doc);
    savedDoc = app.doc;
    lastRev = writeRev(parent, lastRaw);
    setSaveState(null);
    return true;
  } catch (error) {
    setSaveState({ kind: "failed", detail: String(error?.name ?? error) });
    return false;
  }
}

function setSaveState(next) {
  const changed = JSON.stringify(next) !== JSON.stringify(saveState);
  saveState = next;
  if (changed) renderNotices();
}

/**
 * The route and its parameters from the address. An address that cannot be read (a broken
 * percent-escape such as `#/%` or `#/share/%E0%A4%A`: decodeURIComponent throws) is the home
 * page, marked `unreadable` so the person is told; it must never stop the app from starting.
 */
function parseRoute() {
  // The skip link ("#main") moves the focus, not the page: the route stays what it was.
  if (location.hash === "#main") return { route: app.route, params: app.params };
  let parts;
  try {
    parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return { route: DEFAULT_ROUTE, params: [], unreadable: true };
  }
  const [route = DEFAULT_ROUTE, ...params] = parts;
  const known = Object.hasOwn(VIEWS, route) || Object.hasOwn(LAZY_VIEWS, route) || Object.hasOwn(SYSTEM_VIEWS, route);
  return { route: known ? route : DEFAULT_ROUTE, params };
}

function currentView() {
  if (Object.hasOwn(VIEWS, app.route)) return VIEWS[app.route];
  return systemModules.get(app.route) ?? null;
}

/** One persistent line while the table is not saved (never a stack of notices). */
function saveStateLine() {
  // A refusal that came from a field is shown at that field (ui.refusalAt), not here too.
  const general = app.refusal && app.refusal.at === null;
  if (!saveState && !general) return nothing;
  if (!saveState) {
    return html`<div class="notice warning" role="alert" id="save-refused"><p>${app.refusal.text}</p>
      <div class="row"><button type="button" @click=${() => { app.refusal = null; renderAll(); }} aria-label=${t("notice.dismiss")}>✕</button></div></div>`;
  }
  return html`<div class="notice error" role="alert" id="save-state" data-state=${saveState.kind}>
    <p>${t(`save.state.${saveState.kind}`, { detail: saveState.detail ?? "" })}</p>
    <div class="row"><button type="button" id="save-state-export" @click=${() => app.exportNow()}>${t("save.export")}</button></div>
  </div>`;
}

function renderNotices() {
  render(
    html`${saveStateLine()}${toastBar()}${notices.map(
      (n) => html`<div class="notice ${n.kind}" role=${n.kind === "error" ? "alert" : "status"}>
        <p>${n.text}</p>
        <div class="row">
          ${n.actions.map(
            (a) => html`<button type="button" @click=${() => { a.run(); if (a.dismiss !== false) app.dismiss(n.id); }}>${a.label}</button>`,
          )}
          <button type="button" @click=${() => app.dismiss(n.id)} aria-label=${t("notice.dismiss")}>✕</button>
        </div>
      </div>`,
    )}`,
    document.getElementById("notices"),
  );
  undo.keepFocusClear(document.querySelector("#notices .undo-toast"));
}

/** Set a text or an attribute only when it differs: the chrome is drawn again on every render,
 * and rewriting the same texts would make the browser restyle and lay out the header and the
 * navigation each time (on the first render, texts index.html already shows). */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

function setAttr(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function renderChrome() {
  const title = `Tablée — ${app.doc.name}`;
  if (document.title !== title) document.title = title;
  setText(document.getElementById("table-name"), app.doc.name);
  const toggle = document.getElementById("lang-toggle");
  const other = language() === "fr" ? "en" : "fr";
  // The button names the other language in that language ("English", "Français").
  setText(toggle, t(`lang.name_${other}`));
  setAttr(toggle, "lang", other);
  setAttr(toggle, "title", t(`lang.switch_to_${other}`));
  const nav = document.getElementById("app-nav");
  setAttr(nav, "aria-label", t("nav.label"));
  for (const link of nav.querySelectorAll("a[data-route]")) {
    const label = t(`nav.${link.dataset.route}`);
    const unseen = link.dataset.route === "live" ? app.liveUnseen() : 0;
    // (drawn again only when its words or its badge change: the live link holds a badge)
    const drawn = `${label}|${unseen}`;
    if (link.dataset.drawn !== drawn) {
      link.dataset.drawn = drawn;
      link.textContent = label;
      if (link.dataset.route === "live") liveBadge(link, unseen);
    }
    if (link.dataset.route === app.route) setAttr(link, "aria-current", "page");
    else if (link.hasAttribute("aria-current")) link.removeAttribute("aria-current");
  }
  setText(document.querySelector(".skip-link"), t("nav.skip"));
  const status = document.getElementById("engine-status");
  // "idle" lasts one paint: the engine starts by itself right after, so it reads "loading".
  setText(status, t(`engine.${app.engine.state === "idle" ? "loading" : app.engine.state}`));
}

/** The live table's link with the count of the players' moves the MJ has not seen, on every
 * page: a badge, and the link's accessible name says it ("Table en direct, 3 actions non vues"). */
function liveBadge(link, unseen) {
  if (!(Number.isInteger(unseen) && unseen > 0)) {
    link.removeAttribute("aria-label");
    delete link.dataset.unseen;
    return;
  }
  const badge = document.createElement("span");
  badge.className = "nav-badge";
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = unseen > 99 ? "99+" : String(unseen);
  link.append(" ", badge);
  link.dataset.unseen = String(unseen);
  link.setAttribute("aria-label", t("nav.live_unseen", { count: unseen }));
}

/** Characters of `system` set apart "à réparer" (shown on that system's pages too). */
function quarantinedOf(system) {
  return (app.doc.quarantine ?? []).filter((q) => q.kind === "character" && q.data !== null && typeof q.data === "object" && q.data.system === system);
}

function quarantineBanner() {
  if (!Object.hasOwn(SYSTEM_VIEWS, app.route)) return nothing;
  const n = quarantinedOf(app.route).length;
  if (!n) return nothing;
  return html`<p class="notice warning" role="status" data-testid="quarantine-banner">${tn("quarantine.banner", n)}
    <a href="#/table">${t("quarantine.go")}</a></p>`;
}

/** Who follows the document (app.onDocument): the live table mirrors every change. */
const documentListeners = new Set();
let documentNotified = null;

function notifyDocument() {
  if (app.doc === documentNotified) return;
  documentNotified = app.doc;
  for (const listener of documentListeners) {
    try {
      listener(app.doc);
    } catch (error) {
      console.error(error);
    }
  }
}

function renderAll() {
  notifyDocument();
  renderChrome();
  renderNotices();
  const view = currentView();
  const main = document.getElementById("main");
  if (!view) {
    render(failedViews.has(app.route) ? loadFailed(app.route) : html`<p class="muted">${t("engine.loading_view")}</p>`, main);
    return;
  }
  try {
    render(html`${quarantineBanner()}${view.render(app)}`, main);
  } catch (error) {
    // A page that cannot draw this table says so (the table itself is untouched) instead of
    // leaving a blank page.
    console.error(error);
    render(html`<div class="notice error" role="alert" data-testid="render-failed"><p>${t("view.render_failed")}</p>
      <p><a href="#/table">${t("quarantine.go")}</a></p></div>`, main);
  }
}

async function loadSystemView(route) {
  const isSystem = Object.hasOwn(SYSTEM_VIEWS, route);
  if ((!isSystem && !Object.hasOwn(LAZY_VIEWS, route)) || systemModules.has(route)) return;
  const load = () =>
    Promise.all([
      (isSystem ? SYSTEM_VIEWS : LAZY_VIEWS)[route](),
      // A system's page speaks with its own texts: they come with it (the join page with the
      // live table's: a phone opening an invitation's link is often a first visit).
      isSystem ? ensureNamespaces([route === "join" ? "live" : route]) : null,
    ]);
  try {
    let module;
    try {
      [module] = await load();
    } catch (error) {
      // Once more after a moment (a busy device, a request cut short) before telling the person.
      console.error(error);
      await new Promise((resolve) => setTimeout(resolve, 300));
      [module] = await load();
    }
    systemModules.set(route, module);
    failedViews.delete(route);
  } catch (error) {
    console.error(error);
    failedViews.add(route);
  }
}

/** Pages whose module could not be loaded (twice): the page says so in place, with "Réessayer". */
const failedViews = new Set();

/** The page that could not be loaded, by the name the navigation gives it, and a way to try
 * again (a request cut short, a device that was busy: the next try usually works). */
function loadFailed(route) {
  const names = { join: "nav.live" };
  const name = t(names[route] ?? `nav.${route}`);
  const retry = async () => {
    failedViews.delete(route);
    renderAll();
    await loadSystemView(route);
    renderAll();
    document.getElementById("main").focus({ preventScroll: true });
  };
  return html`<div class="notice error" role="alert" data-testid="view-load-failed">
    <p>${t("view.load_failed", { view: name })}</p>
    <div class="row"><button type="button" class="primary" id="view-retry" @click=${retry}>${t("view.retry")}</button></div>
  </div>`;
}

/** Pages that show the systems' facts from the engine's `describe` (the about page and the
 * share page; both have a fallback until it is there). */
const DESCRIBE_ROUTES = new Set(["about", "share"]);
let describing = null;

/** Ask the engine for `describe` once (only for a page that shows it), then draw again. */
function describeWhenNeeded() {
  if (describing || app.engine.describe || !DESCRIBE_ROUTES.has(app.route) || app.engine.state !== "ready") return;
  describing = call({ op: "describe" }).then((answer) => {
    if (answer.error) {
      describing = null;
      return;
    }
    app.engine.describe = answer;
    renderAll();
  });
}

async function onRoute(focus = true) {
  const { route, params, unreadable } = parseRoute();
  app.route = route;
  app.params = params;
  dropToastOfAnotherPage();
  if (unreadable) app.notify("warning", t("route.unreadable"));
  describeWhenNeeded();
  await loadSystemView(route);
  renderAll();
  if (focus) document.getElementById("main").focus({ preventScroll: true });
}

/**
 * Set the saved text aside (unreadable, foreign, newer): back it up and read the backup back,
 * then start a fresh table. When the backup cannot be written, nothing is replaced: the saved
 * text stays where it is, this tab works in memory only, and the person is told plainly and
 * offered the file.
 */
function setAside(raw, messageKey, params = {}) {
  const key = backup(raw);
  if (key) {
    writeBlock = null;
    app.notify("error", t(messageKey, { ...params, key: backupLabel(key) }));
    persist();
    return key;
  }
  writeBlock = "backup";
  app.notify("error", t("storage.backup_failed"), [
    { label: t("storage.download_saved"), dismiss: false, run: () => downloadBlob(`tablee-sauvegarde-${todayStamp()}.json`, new Blob([raw], { type: "application/json" })) },
  ]);
  setSaveState({ kind: "blocked" });
  return null;
}

/** Once the engine is up, tablee.store opens (validates, migrates, repairs) what the shell loaded. */
async function validateSaved(saved) {
  const raw = saved.raw;
  const candidate = saved.status === "needs-engine" ? saved.parsed : app.doc;
  const response = await app.openTable(candidate);
  if (response.error) {
    app.doc = newDocument(t("table.default_name"), language());
    setAside(raw, "storage.invalid_saved", { reason: errorMessage(response.error) });
    renderAll();
    return;
  }
  const changed = JSON.stringify(response.document) !== JSON.stringify(candidate);
  // A current table the engine found sound is already what this tab shows (and may have been
  // edited meanwhile): keep it.
  if (!changed && saved.status === "ok") return;
  if (response.migrated_from !== null && response.migrated_from !== undefined) {
    const key = backup(raw);
    if (!key) {
      // The older table stays saved as it was; this tab shows the migrated one without writing.
      app.doc = response.document;
      setAside(raw, "storage.migrated", { from: response.migrated_from });
      renderAll();
      return;
    }
    app.notify("status", t("storage.migrated", { from: response.migrated_from }));
  }
  if (response.quarantined > 0) app.notify("warning", tn("quarantine.found", response.quarantined));
  writeBlock = null;
  app.doc = response.document;
  if (changed || saveState) persist();
  renderAll();
}

/** The systems whose texts the first paint may show: the route's, and every system this
 * table's characters, system states and log entries name (the home page, the log and the table
 * page name them). */
function systemsShown(doc, route) {
  const ids = new Set(Object.hasOwn(SYSTEM_VIEWS, route) ? [route] : []);
  const note = (value) => {
    if (typeof value === "string" && Object.hasOwn(SYSTEM_VIEWS, value)) ids.add(value);
  };
  for (const list of [doc.characters, doc.log]) {
    if (Array.isArray(list)) for (const item of list) note(item?.system);
  }
  if (doc.systems !== null && typeof doc.systems === "object") for (const key of Object.keys(doc.systems)) note(key);
  return [...ids];
}

/**
 * Show the page in `lang` (the device's language, chosen in another tab) once its texts are
 * here: only the first paint's language is loaded at boot, so the switch waits for its texts
 * instead of showing them in French under lang="en". A table's own language field never
 * switches the interface (i18n.deviceLanguage).
 */
function showLanguage(lang) {
  ensureLanguage(lang).then(() => {
    if (deviceLanguage() === lang) {
      setLanguage(lang);
      renderAll();
    }
  }, () => {});
}

function onStorage(event) {
  if (event.key === DOC_KEY && event.newValue !== null && event.newValue !== lastRaw && !writeBlock) {
    // Another tab saved the table: show its version (our own changes were saved before).
    const doc = parseCurrent(event.newValue);
    if (doc) {
      lastRaw = event.newValue;
      savedDoc = doc;
      app.doc = doc;
      showPending(); // this tab's changes not written yet stay on screen (they will be saved)
      if (unconfirmed.length) scheduleWrite(); // was one of this tab's writes overwritten?
      renderAll();
    }
  } else if (event.key === LANGUAGE_KEY) {
    showLanguage(deviceLanguage()); // the language chosen in another tab of this device
  } else if (event.key === null || (event.key ?? "").startsWith(BACKUP_PREFIX)) {
    renderAll();
  }
}

/**
 * The set-up's `store.limits` answer (static/vendor/store-limits.json, written by
 * tools/vendor.py and checked equal to the live answer by tests/test_site.py), or null when it
 * cannot be read. With it the systems' character schemas guard every change from the first
 * render on, before the engine has started: a 41st Unicreon skill is refused at its field, not
 * set apart at the next load.
 */
async function setupLimits() {
  try {
    const response = await fetch(new URL("../vendor/store-limits.json", import.meta.url));
    if (!response.ok) return null;
    const limits = await response.json();
    const schemas = limits?.character_schemas;
    return schemas !== null && typeof schemas === "object" && !Array.isArray(schemas) ? { ...LIMITS, ...limits } : null;
  } catch {
    return null;
  }
}

/** End the current task and continue in a new one, ahead of other queued work where the
 * browser can (scheduler.yield), so a paint or an input may come in between. */
function yieldToMain() {
  if (typeof globalThis.scheduler?.yield === "function") return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Run `task` in an idle moment of the main thread (at most a second later). */
function whenIdle(task) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => task(), { timeout: 1000 });
  else setTimeout(task, 200);
}

/** Whether this device follows a live table (its saved session, live/session.js). */
function readLiveFlag() {
  try {
    return localStorage.getItem("tablee.live") !== null;
  } catch {
    return false;
  }
}

async function boot() {
  const saved = readSaved();
  app.doc = saved.doc ?? newDocument();
  lastRaw = saved.raw;
  if (saved.status === "ok") savedDoc = saved.doc;
  // French first: a new table starts in French, English is one click away. The first paint
  // waits only for the shell's texts and those of the systems this table or route shows, and
  // the guard's limits are read at the same time (a small precached file), so the first
  // render is guarded.
  const [, limits] = await Promise.all([initI18n(deviceLanguage(saved.doc?.language ?? null), systemsShown(app.doc, parseRoute().route)), setupLimits()]);
  if (limits) app.limits = limits;
  if (saved.status === "empty") {
    app.doc = { ...app.doc, language: language(), name: t("table.default_name") };
    persist();
  }
  if (saved.status === "unusable") setAside(saved.raw, `storage.unusable.${saved.reason}`);
  // An older layout or a record to set apart: nothing is written before the engine opened it.
  if (saved.status === "needs-engine") writeBlock = "engine";
  if (saved.status === "no-storage") app.notify("warning", t("storage.unavailable"));
  if (navigator.storage?.persist) navigator.storage.persist().catch(() => {});

  document.getElementById("lang-toggle").addEventListener("click", async () => {
    const next = language() === "fr" ? "en" : "fr";
    await ensureLanguage(next);
    chooseLanguage(next); // the device's language, kept apart from any table
    setLanguage(next);
    app.update((doc) => {
      doc.language = next;
    });
  });
  window.addEventListener("hashchange", () => onRoute());
  window.addEventListener("storage", onStorage);
  window.addEventListener(DOWNLOAD_EVENT, confirmDownload);
  // Ctrl+Z (⌘Z) outside a text field presses the undo notice's « Annuler »: in reach from the
  // keyboard wherever the focus is (the notice sits first in the page's order).
  document.addEventListener("keydown", (event) => {
    const button = toast?.kind !== "undo" && undo.isUndoKey(event) ? document.querySelector("[data-testid=undo-toast-action]") : null;
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  onEngineState((state, detail) => {
    const wasReady = app.engine.state === "ready";
    const wasIdle = app.engine.state === "idle";
    app.engine.state = state;
    // Starting changes nothing on screen (the status line reads "loading" from the first
    // render and every page waits for "ready"): no redraw in the frame where the runtime's
    // import begins.
    if (state === "loading" && wasIdle) return;
    if (state === "ready" && !detail.limits.error) app.limits = detail.limits;
    if (state === "failed" && wasReady) {
      app.notify("error", t("engine.stopped"), [{ label: t("storage.reload"), run: () => location.reload() }]);
    }
    describeWhenNeeded();
    renderAll();
  });
  // A device that follows a live table resumes its session at once (not only on the live
  // pages): a phone's moves then go to the MJ's device from every page, never run on its copy.
  if (readLiveFlag()) import("./live/connect.js").then((m) => m.start(app), () => {});
  // The first render in two tasks, so neither holds the main thread long: the header, the
  // navigation and the notices (index.html already shows their French texts), then, once the
  // browser could paint or answer input, the page itself.
  renderChrome();
  renderNotices();
  await yieldToMain();
  document.getElementById("main").replaceChildren(); // the static boot message goes
  await onRoute(false);
  performance.mark("tablee-first-render"); // the saved table is in the DOM (make bench)
  // The reminder to export a table not exported for a week (views/keep.js), in an idle moment.
  whenIdle(() => import("./views/keep.js").then((m) => m.start(app), () => {}));
  if (writeBlock) setSaveState({ kind: writeBlock === "engine" ? "waiting" : "blocked" });

  // The saved table is rendered: the runtime starts once it is painted (a view that needs the
  // engine sooner starts it through app.call).
  const engineUp = startEngineSoon();
  // Every other text (the other systems, the other language) comes in an idle moment once the
  // engine has answered, so its parsing never competes with the runtime's start: none is needed
  // by the page on screen, and a page that needs some (a system's, the other language's) loads
  // them itself. A page drawn meanwhile is drawn again once they are in.
  const allTexts = () => Promise.all([ensureLanguage("fr"), ensureLanguage(language())]).then(() => renderAll(), () => {});
  engineUp.then(() => whenIdle(allTexts), () => whenIdle(allTexts));
  // The service worker registers once the engine is up (or failed): its precache then
  // revalidates the runtime the engine just fetched instead of downloading it a second
  // time while the first visit is still booting.
  engineUp.then(() => registerServiceWorker(app), () => registerServiceWorker(app));
  engineUp
    .then(async () => {
      // app.limits came with the engine's readiness (engine.js's probe is store.limits).
      if (saved.status === "ok" || saved.status === "needs-engine") await validateSaved(saved);
    })
    .catch(() => app.notify("error", t("engine.failed_detail")));
}

app.engine.state = engineState();
boot();

export { html, nothing };

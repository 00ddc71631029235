// The table's save: every change app.update accepted is written under a lock all the site's tabs
// share, applied again to the table as saved at that moment and checked again, with a revision
// chain telling a tab whose write another overwrote; the one save-state line says when the
// table cannot be saved (docs/ARCHITECTURE.md, "The table document and data safety").

import { app, notices } from "./app.js";
import { checkCandidate } from "./guard.js";
import { errorMessage, has, t, tn } from "./i18n.js";
import { DOC_KEY, newId, parseCurrent, REV_KEY, save, textHash } from "./storage.js";
import { readHead, waitUntil, writeHead } from "./saved-head.js";
import * as undo from "./undo.js";
import { changeLabel, showToast, UndoConflict } from "./undo-bar.js";

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

/** The pre-save check's reasons that are a schema's (guard.schemaProblem), as JSON Schema keywords:
 * such a refusal reads as the engine's do, the field named by its label ("Niveau : 10 au plus"). */
const SCHEMA_RULE_OF = { type: "type", enum: "enum", too_small: "minimum", too_big: "maximum", too_few: "minItems", missing: "required", unknown_key: "additionalProperties" };

/** The words of a refusal of the pre-save check ({path, reason, params}). */
export function refusalText(problem) {
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

/** The copy of `doc` a change's `mutate` is given: whole, or one level deep for a `shallow`
 * change (one that replaces top-level values and changes nothing in place). */
export const copyFor = (doc, shallow) => (shallow ? { ...doc } : structuredClone(doc));

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
// (REV_KEY, textHash: storage.js; a revision hashes the text as stored, storedJsonText)
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
    const { mutate, history: kind = null, record = true, label = null, shallow = false, made = null, page = null } = change;
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
  app.rerender();
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
  const problem = refused[refused.length - 1].problem;
  const text = () => tn("save.refused_at_write", changes.length, { reason: refusalText(problem) });
  const id = app.notify("error", text, [{ label: () => t("save.retry"), run: () => retryRefused(changes) }]);
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

export function persist() {
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

export function setSaveState(next) {
  const changed = JSON.stringify(next) !== JSON.stringify(saveState);
  saveState = next;
  if (changed) app.redrawNotices();
}


/** The one save-state line's state: null when the last save worked, else {kind, detail}. */
export function currentSaveState() {
  return saveState;
}

/** Why this tab must not write the table ("engine", "backup"), or null when it may. */
export function writeBlocked() {
  return writeBlock;
}

export function setWriteBlock(kind) {
  writeBlock = kind;
}

/** The table text read at boot (and the table it holds, when it was read as it is). */
export function rememberSaved(raw, doc) {
  lastRaw = raw;
  if (doc) savedDoc = doc;
}

/**
 * Keep a change app.update accepted: `next`, the table `change.mutate` made from `base`, is
 * shown at once (app.doc), and the change is written soon, under the lock. `pageNow()` is the
 * page the address shows (routes.js parseRoute, named as app.js pageOf names a page).
 */
export function queueChange(change, base, next, pageNow) {
  if (!pending.length) unsavedBase = base;
  app.doc = next;
  changes += 1;
  // (`made`: the table this change made from `base`, checked: the write takes it as it is
  // when it writes on that same table, instead of copying and checking it a second time)
  const queued = { ...change, n: changes, made: { base, next }, page: null };
  // The page of the change is the one shown once the code that made it has run to its end:
  // a change that opens a page itself (a character created opens its sheet) belongs to it.
  queueMicrotask(() => { queued.page = pageNow(); });
  pending.push(queued);
  scheduleWrite();
}

/** Resolves once every change accepted so far, or the first `upTo`, is in the saved document
 * (or could not be saved). */
export async function savedUpTo(upTo) {
  // (a write resolves once the revision is recorded too; the table is saved before that)
  while ((writing || pending.length) && written < upTo) await Promise.race([writing ?? new Promise((r) => setTimeout(r, 20)), nextWritten()]);
}

/** How many changes app.update accepted so far. */
export function changeCount() {
  return changes;
}

/** The whole table is replaced (import, restore): the changes not written yet are gone with the
 * table they were made on, and it may be written again. */
export function forgetUnwritten() {
  writeBlock = null;
  pending.length = 0;
  setWritten(changes);
  unconfirmed.length = 0;
  unsaved.length = 0;
}

/** Whether `raw`, the text another tab saved under DOC_KEY, is another tab's save this tab may
 * show (not its own, and this tab may write). */
export function isOtherTabSave(raw) {
  return raw !== null && raw !== lastRaw && !writeBlock;
}

/** Show the table another tab saved (our own changes were saved before). */
export function showOtherTabSave(raw) {
  const doc = parseCurrent(raw);
  if (doc) {
    lastRaw = raw;
    savedDoc = doc;
    app.doc = doc;
    showPending(); // this tab's changes not written yet stay on screen (they will be saved)
    if (unconfirmed.length) scheduleWrite(); // was one of this tab's writes overwritten?
    app.rerender();
  }
}

// Undo and redo of this tab's kept changes (undo.js keeps the history, shared by the site's
// tabs): the change that undoes one, the label that names it, and the bar offering to undo the
// last change made on this page.

import { html, nothing } from "../vendor/lit-html/lit-html.js";
import { app, pageOf } from "./app.js";
import { trimLogToFit } from "./guard.js";
import { has, t } from "./i18n.js";
import { LOG_LIMIT, newId } from "./storage.js";
import * as undo from "./undo.js";
import { withWords } from "./views/log-words.js";

/** An undo that finds its paths changed since it was made (undo.conflicts). */
export class UndoConflict extends Error {
  constructor(entry) {
    super("undo.conflict");
    this.code = "undo.conflict";
    this.entry = entry;
  }
}

export function changeLabel(entry) {
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
export function undoEntry(entry, direction) {
  // A player's phone at a live table: « Annuler » is a move the MJ's device referees
  // (live/member.js undo), never a local write of the table.
  if (direction === "undo" && typeof app.liveUndo === "function") {
    app.liveUndo();
    return true;
  }
  const label = changeLabel(entry);
  const refuse = () => {
    app.refusal = { at: null, text: t("undo.conflict", { label }) };
    app.rerender();
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
  const accepted = app.update(mutate, { history: { kind: direction, entry } });
  if (accepted) {
    forgetMoveResults();
    app.rerender();
  }
  return accepted;
}

// A page shows the result of a move from its own memory (a verdict, a banner « Résultat : Oui »,
// a follow-up button such as « Contre-attaquer »), not from the table. When this tab undoes or
// redoes a change (the bar, Ctrl+Z, the Table page's list: all through undoEntry), such a result
// may show a move the table no longer holds, and its follow-up button would act on it: each page
// module registers what to forget then (views/ui.js re-exports onUndo; the log keeps every result).
const undoHooks = [];

/** Run `clear()` when this tab undoes or redoes a change. */
export function onUndo(clear) {
  undoHooks.push(clear);
}

/** Forget every page's results of moves (after an undo or a redo was accepted). */
function forgetMoveResults() {
  for (const clear of undoHooks) clear();
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

export function showToast(entry, kind, page) {
  const here = pageOf(app);
  // A change written after the person left its page (the write waits for the lock): no bar
  // naming it on the page they went to.
  if ((page ?? here) !== here) return;
  toast = { entry, kind, page: here };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toast = null;
    app.redrawNotices();
  }, TOAST_MS);
}

/** Leaving the page of the bar's change takes the bar away (onRoute). */
export function dropToastOfAnotherPage() {
  if (toast && toast.page !== pageOf(app)) {
    toast = null;
    clearTimeout(toastTimer);
  }
}

export function toastBar() {
  if (!toast || toast.page !== pageOf(app)) return nothing;
  const label = changeLabel(toast.entry);
  const undone = toast.kind === "undo";
  // The bar undoes (redoes) its own change, wherever it now stands in the history.
  const act = () => {
    const entry = toast.entry;
    const direction = undone ? "redo" : "undo";
    toast = null;
    if (app.history()[direction].some((e) => e.id === entry.id)) undoEntry(entry, direction);
    else app.redrawNotices();
  };
  return html`<div class="notice status undo-toast" role="status" data-testid="undo-toast" data-kind=${toast.kind}>
    <p>${t(undone ? "undo.toast.undone" : "undo.toast.changed", { label })}</p>
    <div class="row">
      <button type="button" data-testid="undo-toast-action" aria-keyshortcuts=${undone ? nothing : "Control+Z Meta+Z"} @click=${act}>${t(undone ? "undo.redo" : "undo.undo")}</button>
      <button type="button" @click=${() => { toast = null; app.redrawNotices(); }} aria-label=${t("notice.dismiss")}>✕</button>
    </div>
  </div>`;
}

/** The kind of the bar shown ("change" or "undo"), or undefined when none is. */
export function toastKind() {
  return toast?.kind;
}

/** Take the bar away (the table it named was replaced). */
export function clearToast() {
  toast = null;
}

// Small UI helpers every system view shares: loading a stylesheet once, the routing of a
// system's pages, field problems laid out at their field, a cache of engine answers keyed by
// the request, a busy-guarded engine call, and bringing a result into view.
// System-agnostic: Unicreon and Versality use them; Point Zéro, Théorem and SYSTMJ can too.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { errorMessage, formatPercent, t } from "../i18n.js";
import { ownOnly } from "./player-gate.js";

const loadedSheets = new Set();

/** Append `<link rel="stylesheet" href>` once (index.html belongs to the shell). */
export function loadStylesheet(href) {
  if (loadedSheets.has(href) || typeof document === "undefined") return;
  loadedSheets.add(href);
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
}

/**
 * A system view from its pages: `#/<system>/<page>[/<id>]`. `pages` maps a page name to
 * `{render(app, id), id: true when the page needs an id}`; anything else renders `fallback(app)`.
 */
export function renderSystemPage(app, system, pages, fallback) {
  const [page, id] = app.params;
  const entry = Object.hasOwn(pages, page) ? pages[page] : null;
  // A page of one character (its sheet, its test) on a player's phone at a live table changes
  // nothing of a character that is not this phone's: shown, its controls disabled (player-gate.js).
  const body = entry && (!entry.id || id) ? (entry.id ? ownOnly(id, entry.render(app, id)) : entry.render(app, id)) : fallback(app);
  // Every system's character sheet can be shared from where it is.
  const character = page === "character" && id ? app.doc.characters.find((c) => c.id === id && c.system === system) : null;
  return html`<div class=${system} data-page=${page ?? "list"}>${character
    ? html`<div class="share-here-bar">${shareButton(`character:${character.id}`, character.name)}</div>` : nothing}${body}</div>`;
}

// ------------------------------------------------------------------ "Partager" where you are
// On a character sheet, under a roll's result, on a log entry: a link to the Partager page
// (#/share) with that thing chosen; the page makes its link at once (views/share.js takes the
// choice with `takeShareChoice`). A link, not a dialog: the page that makes links, with its
// audience choice and its QR code, stays the one place links are made.

/** The choice of the last "Partager" pressed ("character:<id>", "entry:<id>"), until the
 * Partager page takes it. */
let pendingShare = null;

/** The pending share choice, once (null when the Partager page was opened from the menu). */
export function takeShareChoice() {
  const choice = pendingShare;
  pendingShare = null;
  return choice;
}

/** The newest log entry of a roll or test rolled with `seed` (its request holds it), or null. */
export function loggedEntry(app, seed) {
  if (seed === null || seed === undefined) return null;
  return app.doc.log.findLast((e) => e && typeof e.request === "object" && e.request !== null && e.request.seed === seed) ?? null;
}

/** "Partager" under a test's result: its log entry, found by its seed (nothing once it left the log). */
export function resultShare(app, seed) {
  const entry = loggedEntry(app, seed);
  return entry ? html`<div class="share-here-bar">${shareButton(`entry:${entry.id}`, entry.label)}</div>` : nothing;
}

/** A "Partager" link for `choice` ("character:<id>" or "entry:<id>"); `name` is what a screen
 * reader hears after the word (the character's name, the roll's label). */
export function shareButton(choice, name = "") {
  return html`<a class="button small share-here no-print" href="#/share" data-testid="share-here" data-share=${choice}
    @click=${() => { pendingShare = choice; }}>${t("share.here")}${name ? html`<span class="visually-hidden"> ${name}</span>` : nothing}</a>`;
}

/**
 * Field problems of a check answer (`{problems: [{field, code, message_key, params}]}`) for a
 * system whose element ids start with `prefix` ("uc", "vs"): the problems on a field (exact, or
 * under it with `{under: true}`), the id of its `<p class="field-error">` (for aria-describedby),
 * that paragraph (always rendered, so aria-describedby stays valid), and whether there is one.
 */
export function fieldProblems(prefix) {
  const problemsAt = (check, field, { under = false } = {}) => {
    if (!check?.problems) return [];
    return check.problems.filter((p) => p.field === field || (under && p.field.startsWith(`${field}.`)));
  };
  const fieldId = (field) => `${prefix}-err-${field.replace(/[^a-z0-9]+/gi, "-")}`;
  const fieldErrors = (check, field, opts) => {
    const list = problemsAt(check, field, opts);
    return html`<p class="field-error" id=${fieldId(field)} data-field=${field}>${list.map((p, i) => html`${i ? html`<br>` : nothing}${errorMessage(p)}`)}</p>`;
  };
  const hasProblem = (check, field, opts) => problemsAt(check, field, opts).length > 0;
  return { problemsAt, fieldId, fieldErrors, hasProblem };
}

/**
 * A cache of one engine answer keyed by its request (odds before a roll): `get(app, request)`
 * returns the answer to that request, asks again when the request changes (once the engine is
 * ready) and re-renders on the answer. Meanwhile it returns null, or with `keepStale` the last
 * answer. `get.clear()` forgets it (another character).
 */
export function requestCache({ keepStale = false } = {}) {
  const box = { key: null, asked: null, value: null };
  // `key` (default: the request as JSON) says when the answer is stale: a caller whose
  // request does not carry everything the answer depends on passes its own.
  const get = (app, request, key = JSON.stringify(request)) => {
    if (box.key !== key && box.asked !== key && app.engineAnswers()) {
      box.asked = key;
      app.call(request).then((r) => {
        if (box.asked !== key) return;
        box.key = key;
        box.value = r;
        app.rerender();
      });
    }
    return box.key === key || keepStale ? box.value : null;
  };
  get.clear = () => Object.assign(box, { key: null, asked: null, value: null });
  return get;
}

/**
 * Report an engine answer into a view's state: on an error, `state[errorKey]` holds it, a
 * `state.message` (when the view has one) is cleared, the view re-renders and the result is
 * null; otherwise `state[errorKey]` is cleared and the answer returned.
 */
function report(app, state, r, errorKey) {
  if (r.error) {
    state[errorKey] = r.error;
    if ("message" in state) state.message = null;
    app.rerender();
    return null;
  }
  state[errorKey] = null;
  return r;
}

/** `app.call(request)`, its error reported into `state` (see `report`): the answer or null. */
export async function callReporting(app, state, request, { errorKey = "error" } = {}) {
  return report(app, state, await app.call(request), errorKey);
}

/**
 * `callReporting` guarded by `state.busy` (one call at a time; the view re-renders with its
 * buttons disabled meanwhile): null when busy or refused.
 */
export async function callBusy(app, state, request, { errorKey = "error" } = {}) {
  if (state.busy) return null;
  state.busy = true;
  app.rerender();
  const r = await app.call(request);
  state.busy = false;
  return report(app, state, r, errorKey);
}

/** The engine changes waiting their turn (engineChange): one at a time, across every view. */
let changeQueue = Promise.resolve();

/**
 * A change of the table the engine computes (an action on a system state, an op on a
 * character), made safe against quick successive actions and other tabs. It waits for the
 * changes asked before it (each runs on the table as the one before left it, never on a copy
 * taken earlier: none is dropped for being "busy"), then asks `request(doc)` of the latest
 * table (null: nothing to do), calls the engine and writes `apply(doc, answer)` through
 * app.update only if `basis(doc)` (what the answer was computed from: the system state, the
 * character) is still what it was when asked; otherwise, here or when written under the lock
 * on the latest saved table, the change is asked again on the new table, and after `tries`
 * refused with a clear message (`change.stale`) in `holder[errorKey]`. `holder.busy` is true
 * while it runs; `call(req)` (default app.call) may chain further engine calls, all on the
 * table read at the start. Resolves with the engine's answer once it is in the saved document, or null
 * (refused: the error is shown). `writes(answer)` false: the answer changes nothing (odds, a
 * view), it is returned as it is and nothing is written. `label(answer, req, doc)` names the
 * change for the undo history ({key, params}: app.update's `label`; null: its paths name it).
 * `shallow: true` when `apply` only replaces values of the table (putSystem, replaceCharacter,
 * `doc.key = value`) and changes nothing in place: the change then copies the table one level
 * deep instead of whole (app.update's `shallow`), which on a big table is most of its cost.
 */
export function engineChange(app, holder, { request, basis, apply, call = (req) => app.call(req), errorKey = "error", tries = 3, writes = () => true, label = null, shallow = false }) {
  const run = async () => {
    for (let attempt = 0; attempt < tries; attempt++) {
      const req = request(app.doc);
      if (!req) return null;
      const before = JSON.stringify(basis(app.doc) ?? null);
      holder.busy = true;
      app.rerender();
      let r;
      try {
        r = await call(req);
      } finally {
        holder.busy = false;
      }
      const answer = report(app, holder, r, errorKey);
      if (!answer) return null;
      if (!writes(answer)) return answer;
      // On a player's phone at a live table the op was a move the MJ's device has already
      // applied to the table: it is never asked again (that would play it twice); its answer is
      // shown here until the MJ's device publishes the table.
      // (live/private.js is imported when needed: the live modules stay out of the boot.)
      const refereed = (await import("../live/private.js")).liveCharacters() !== null;
      let current = false;
      const accepted = app.update((doc) => {
        current = refereed || JSON.stringify(basis(doc) ?? null) === before;
        if (current) apply(doc, answer);
      }, { label: label?.(answer, req, app.doc) ?? null, shallow });
      if (!accepted) return null;
      if (!current) continue;
      await app.saved();
      if (current) return answer;
    }
    return report(app, holder, { error: { code: "change.stale", message_key: "error.change.stale" } }, errorKey);
  };
  const done = changeQueue.then(run);
  changeQueue = done.catch(() => null);
  return done;
}

/** Put a system's table state in the table (inside app.update): the `systems` object is replaced,
 * never changed in place, so a `shallow` change may use it. */
export function putSystem(doc, system, state) {
  doc.systems = { ...doc.systems, [system]: state };
}

/** An engine answer that never changes (a system's data tables), asked once the engine is
 * ready: `get(app)` returns it, or null until it came (then the view re-renders). */
export function engineData(op) {
  const box = { data: null, pending: false };
  return (app) => {
    if (!box.data && !box.pending && app.engineAnswers()) {
      box.pending = true;
      app.call({ op }).then((r) => {
        box.pending = false;
        if (!r.error) {
          box.data = r;
          app.rerender();
        }
      });
    }
    return box.data;
  };
}

/** On a phone the result is below the form: bring it into view (focus stays put). */
export function reveal(id) {
  requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: "start", behavior: "smooth" }));
}

// ---------------------------------------------------------------- transient messages
// Status lines ("Copie de Mira est créé·e.", "Acheté : …") belong to the page where they
// happened: they are cleared when the player navigates (any hash change), so they never
// stay on screen across pages. Errors and warnings of the shell are not touched.
const transientNotices = [];
const navigateHooks = [];

/** Run `clear()` on every navigation (a module's own status/error lines). */
export function onNavigate(clear) {
  navigateHooks.push(clear);
}

/** Run `clear()` when this tab undoes or redoes a change: a module's results, banners and
 * follow-up buttons of moves (undo-bar.js onUndo). */
export { onUndo } from "../undo-bar.js";

/** `app` whose status notices are dismissed on the next navigation (other calls pass through). */
export function transientApp(app) {
  return new Proxy(app, {
    get(target, prop) {
      if (prop === "notify") {
        return (kind, text, actions) => {
          const id = target.notify(kind, text, actions);
          if (kind === "status") transientNotices.push({ app: target, id });
          return id;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

if (typeof window !== "undefined") {
  window.addEventListener("hashchange", () => {
    for (const { app, id } of transientNotices.splice(0)) app.dismiss(id);
    for (const clear of navigateHooks) clear();
  });
}

/**
 * The refusal of the last change made from the field `at` (app.update(mutate, {at})): the
 * change would have made the table invalid, so it was not saved. Render it right after the
 * field; empty otherwise.
 */
export function refusalAt(app, at) {
  const text = app.refusal && app.refusal.at === at ? app.refusal.text : null;
  return html`<p class="field-error" role="alert" data-testid="refusal" data-at=${at}>${text ?? nothing}</p>`;
}

/** The store's length limit of a character field of `system` (from store.limits), else `fallback`. */
export function fieldLimit(app, system, field, fallback) {
  const schemas = app.limits?.character_schemas;
  const schema = schemas && Object.hasOwn(schemas, system) ? schemas[system] : null;
  const props = schema?.properties;
  const prop = props && Object.hasOwn(props, field) ? props[field] : null;
  const max = prop?.maxLength ?? prop?.maxItems;
  if (field === "name") return Math.min(app.limits?.name ?? fallback, max ?? fallback);
  return max ?? fallback;
}

/**
 * `obj[key]` when `key` is `obj`'s own property, else undefined. Ids and keys come from saved
 * or imported data: "constructor", "toString", "__proto__" are ordinary ids and must never
 * reach Object.prototype (index plain objects with untrusted keys only through this, or use a Map).
 */
export function own(obj, key) {
  return obj !== null && typeof obj === "object" && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Why a control is disabled, said next to it and tied to it ("a disabled button says
 * why"). `const why = disabledWhy("uc-heal", reason)`; the button gets
 * `?disabled=${Boolean(reason)} aria-describedby=${why.id}` and `${why.note}` follows it.
 * With no reason, both are lit-html's `nothing`.
 */
export function disabledWhy(id, reason) {
  if (!reason) return { id: nothing, note: nothing };
  const noteId = `${id}-why`;
  return { id: noteId, note: html`<p class="why-disabled small muted" id=${noteId} data-testid="why-disabled">${reason}</p>` };
}

/** A fraction longer than this (characters) is folded behind its percentage on a phone. */
export const LONG_FRACTION = 13;

/**
 * A probability as a person reads it, the same for every system: an outcome that cannot happen
 * (or must) in words ("impossible (0 %)"), not "0 % (0/1)"; else the percentage with its exact
 * fraction beside it, and a long fraction (a deck's, 20 digits) folded behind the percentage,
 * shown on demand (a tap, or Enter on the focused summary), so it is never cut on a phone; the
 * folded fraction wraps inside its box. Screen readers get the fraction in the summary itself
 * (visually hidden), so they need not open it. `data-p` always holds the fraction.
 */
export function probability(fraction, percent, { testid, cls = "prob" } = {}) {
  const frac = String(fraction);
  const sure = frac === "0" || frac === "0/1" ? "odds.impossible" : frac === "1" || frac === "1/1" ? "odds.certain" : null;
  if (sure) return html`<span class=${cls} data-testid=${testid ?? nothing} data-p=${frac}>${t(sure)}</span>`;
  if (frac.length > LONG_FRACTION) {
    return html`<details class="${cls} prob-more" data-testid=${testid ?? nothing} data-p=${frac}><summary>${formatPercent(percent)}<span class="visually-hidden"> (${frac})</span></summary><span class="frac-line small" aria-hidden="true">${frac}</span></details>`;
  }
  return html`<span class=${cls} data-testid=${testid ?? nothing} data-p=${frac}>${formatPercent(percent)}<span class="muted small"> (${frac})</span></span>`;
}

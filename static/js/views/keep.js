// A campaign that survives the browser: whether this site's storage is persistent, what a
// browser that may delete it (Safari above all) means for the table, the steps to put Tablée on
// the home screen, the export, and a quiet reminder when changes were not exported for a week.
//
// Storage: `navigator.storage.persisted()` says whether the browser keeps this site's data
// until the person deletes it; `navigator.storage.persist()` asks for it (the shell asks once
// at boot, where it is granted silently; the Table page asks again when the person taps the
// button: Firefox shows its own question then). Safari (iOS, iPadOS, macOS) deletes a site's
// storage after seven days of browser use without a visit unless the site was added to the
// home screen (WebKit's "7-day cap on all script-writeable storage", 2020), whatever
// persisted() says: the Table page explains it there, and everywhere persistence was not
// granted.
//
// The reminder: storage.js notes beside the table (KEEP_KEY, never inside it) when it was last
// saved, since when changes are not exported and when it was last exported. A table with
// characters or a log whose oldest unexported change is more than a week old gets one notice
// with a one-tap export, at most once a day, never while this device follows a live table
// (the notice goes when one starts).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { downloadJson, noteExport, noteReminded, readKeep, todayStamp } from "../storage.js";
import { formatDateTime } from "./when.js";

/** A table whose changes were not exported for this long gets the reminder... */
export const REMIND_AFTER_MS = 7 * 24 * 3600 * 1000;
/** ...shown at most once in this long. */
export const REMIND_EVERY_MS = 24 * 3600 * 1000;

/**
 * Safari's engine on an Apple device: WebKit (AppleWebKit in the user agent, Apple as the
 * vendor) without the marks of another browser built on it or imitating it (Chrome, Chromium,
 * Edge, Opera, Firefox, Android's WebView). Chrome and Firefox on iOS also run WebKit, but
 * keep their own data rules; they get the general explanation when persistence is not granted.
 */
export function isSafari(userAgent = globalThis.navigator?.userAgent ?? "", vendor = globalThis.navigator?.vendor ?? "") {
  if (!/AppleWebKit/.test(userAgent) || !/Apple/.test(vendor)) return false;
  return !/Chrome|Chromium|CriOS|Edg|EdgiOS|OPR|OPiOS|Firefox|FxiOS|Android/.test(userAgent);
}

/** Opened from the home screen (an installed web app), where Safari's seven days do not apply. */
function standalone() {
  try {
    return globalThis.navigator?.standalone === true || globalThis.matchMedia?.("(display-mode: standalone)").matches === true;
  } catch {
    return false;
  }
}

/** What this page knows of the storage: persisted true/false, or null (not asked yet, or no
 * Storage API); `asked`: the person's request was answered (its answer in `persisted`). */
const persistence = { persisted: null, supported: Boolean(globalThis.navigator?.storage?.persisted), asked: false, checking: null };

// Asked again when the person comes back to the page or opens another one: the boot's request
// may be granted after the first answer, or the site added to the home screen meanwhile.
addEventListener("hashchange", () => { persistence.checking = null; });
document.addEventListener("visibilitychange", () => { persistence.checking = null; });

/** Ask the browser whether the storage is persistent (once per visit of the page; `app.rerender`
 * after, when the answer changed). */
function checkPersisted(app) {
  if (!persistence.supported || persistence.checking) return persistence.checking;
  const answer = (value) => {
    const changed = persistence.persisted !== value;
    persistence.persisted = value;
    if (changed) app.rerender();
  };
  persistence.checking = navigator.storage.persisted().then((value) => answer(value === true), () => answer(false));
  return persistence.checking;
}

/** The person asks the browser to keep this site's data. */
async function askPersist(app) {
  let granted = false;
  try {
    granted = (await navigator.storage.persist()) === true;
  } catch {
    granted = false;
  }
  persistence.persisted = granted || (await navigator.storage.persisted().catch(() => false)) === true;
  persistence.asked = true;
  app.rerender();
}

/** A table's name as a file name's part ("Ma-table"). */
export function safeFileName(name) {
  return String(name).normalize("NFD").replace(/\p{M}+/gu, "").replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "table";
}

/** Download the table as a file (the Table page's export) and note the export. */
export function exportTable(app) {
  downloadJson(`tablee-${safeFileName(app.doc.name)}-${todayStamp()}.json`, app.doc);
  noteExport();
  if (reminder.id) {
    app.dismiss(reminder.id);
    reminder.id = null;
  }
  app.rerender();
}

function lastExportLine() {
  const { exported, since } = readKeep();
  const when = exported ? t("keep.exported_at", { when: formatDateTime(new Date(exported)) }) : t("keep.never_exported");
  const state = since ? t("keep.changed_since") : exported ? t("keep.nothing_since") : "";
  return html`<p class="muted small" data-testid="keep-exported" data-exported=${exported ?? ""}>${when}${state ? ` ${state}` : nothing}</p>`;
}

const STATE_TEXT = {
  unsupported: "keep.state_unsupported",
  unknown: "keep.state_unknown",
  persisted: "keep.state_persisted",
  "not-persisted": "keep.state_not_persisted",
};

/**
 * The Table page's section: the storage's state, the button that asks for persistence, and,
 * on Safari or wherever persistence is not granted, the risk in one sentence, the steps to add
 * Tablée to the home screen, and the export.
 */
export function keepSection(app) {
  checkPersisted(app);
  const { persisted, supported, asked } = persistence;
  const state = !supported ? "unsupported" : persisted === null ? "unknown" : persisted ? "persisted" : "not-persisted";
  const safari = isSafari();
  const atRisk = !standalone() && (safari || persisted !== true);
  const risk = safari ? t("keep.risk_safari") : t("keep.risk_other");
  return html`<section class="card stack" aria-labelledby="keep-title" data-testid="keep-section" data-safari=${safari ? "yes" : "no"}>
    <h2 id="keep-title">${t("keep.title")}</h2>
    <p data-testid="keep-persisted" data-state=${state}>${t(STATE_TEXT[state])}</p>
    ${supported && persisted === false
      ? html`<div class="row"><button type="button" id="keep-ask" @click=${() => askPersist(app)}>${t("keep.ask")}</button></div>`
      : nothing}
    ${asked ? html`<p role="status" data-testid="keep-asked" class=${persisted ? "outcome-ok" : "muted small"}>${persisted ? t("keep.ask_granted") : t("keep.ask_refused")}</p>` : nothing}
    ${atRisk && state !== "unknown"
      ? html`<p class="notice warning" data-testid="keep-risk">${risk}</p>
        <h3 id="keep-home-title">${t("keep.home_title")}</h3>
        <ul class="stack" aria-labelledby="keep-home-title" data-testid="keep-steps">
          <li>${t("keep.step_ios")}</li>
          <li>${t("keep.step_mac")}</li>
          <li>${t("keep.step_android")}</li>
        </ul>
        <div class="row"><button type="button" id="keep-export" @click=${() => exportTable(app)}>${t("keep.export")}</button></div>`
      : nothing}
    ${lastExportLine()}
  </section>`;
}

// ----------------------------------------------------------------------------- the reminder

const reminder = { id: null, started: false };

/** Whether this device follows a live table now (its saved session, or a session open). */
function liveOn(app) {
  if (app.liveSession?.()) return true;
  try {
    return localStorage.getItem("tablee.live") !== null;
  } catch {
    return false;
  }
}

/** Whether the reminder is due at `now` for table `doc` with the bookkeeping `keep`. */
export function reminderDue(doc, keep, now) {
  const hasContent = Array.isArray(doc?.characters) && Array.isArray(doc?.log) && (doc.characters.length > 0 || doc.log.length > 0);
  if (!hasContent || !keep.since) return false;
  if (now - new Date(keep.since).getTime() <= REMIND_AFTER_MS) return false;
  return !keep.reminded || now - new Date(keep.reminded).getTime() >= REMIND_EVERY_MS || now < new Date(keep.reminded).getTime();
}

function route() {
  return location.hash.replace(/^#\/?/, "").split("/")[0];
}

/** Show the reminder when it is due; `<html data-keep-reminder>` says what was decided
 * ("shown", "none", "live": not during a live table), for the tests and a curious reader. */
function remindIfDue(app) {
  const live = liveOn(app) || route() === "live" || route() === "join";
  if (reminder.id) {
    if (live) {
      app.dismiss(reminder.id);
      reminder.id = null;
      document.documentElement.dataset.keepReminder = "live";
    }
    return;
  }
  const now = new Date();
  const keep = readKeep();
  const due = !live && reminderDue(app.doc, keep, now.getTime());
  if (due) {
    noteReminded(localStorage, now);
    const since = formatDateTime(new Date(keep.since));
    reminder.id = app.notify("status", () => t("keep.reminder", { since }), [{ label: () => t("keep.reminder_export"), run: () => exportTable(app) }]);
  }
  document.documentElement.dataset.keepReminder = due ? "shown" : live ? "live" : "none";
}

/** Called once by the shell after its first render: the reminder now, again when the page
 * comes back into sight (a tab left open for days) or the route changes (a live page). */
export function start(app) {
  if (reminder.started) return;
  reminder.started = true;
  remindIfDue(app);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") remindIfDue(app);
  });
  addEventListener("hashchange", () => remindIfDue(app));
}

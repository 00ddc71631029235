// The shell's start: read the saved table and paint it at once, start the rules engine after
// that first paint, then open the saved table with it (tablee.store: validate, migrate,
// repair); and the events of the page (another tab's save, the language, the keyboard).

import { onEngineState, startEngine, startEngineSoon } from "./engine.js";
import { showEngineProgress } from "./engine-progress.js";
import { chooseLanguage, deviceLanguage, ensureLanguage, errorMessage, initI18n, LANGUAGE_KEY, language, setLanguage, t, tn } from "./i18n.js";
import { app } from "./app.js";
import { backup, BACKUP_PREFIX, DOC_KEY, downloadBlob, DOWNLOAD_EVENT, LIMITS, newDocument, readSaved, todayStamp } from "./storage.js";
import { registerServiceWorker } from "./sw-register.js";
import * as undo from "./undo.js";
import { backupLabel } from "./views/when.js";
import { describeWhenNeeded, onRoute, renderAll, renderChrome, renderNotices } from "./render.js";
import { parseRoute, SYSTEM_VIEWS } from "./routes.js";
import {
  currentSaveState,
  isOtherTabSave,
  persist,
  rememberSaved,
  setSaveState,
  setWriteBlock,
  showOtherTabSave,
  writeBlocked,
} from "./save-queue.js";
import { toastKind } from "./undo-bar.js";

/** Every file the app downloads confirms itself: a notice names the file (storage.downloadBlob). */
function confirmDownload(event) {
  const file = event.detail?.filename;
  if (typeof file === "string") app.notify("status", () => t("download.done", { file }));
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
    setWriteBlock(null);
    app.notify("error", () => t(messageKey, { ...params, key: backupLabel(key) }));
    persist();
    return key;
  }
  setWriteBlock("backup");
  app.notify("error", () => t("storage.backup_failed"), [
    { label: () => t("storage.download_saved"), dismiss: false, run: () => downloadBlob(`tablee-sauvegarde-${todayStamp()}.json`, new Blob([raw], { type: "application/json" })) },
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
    app.notify("status", () => t("storage.migrated", { from: response.migrated_from }));
  }
  if (response.quarantined > 0) app.notify("warning", () => tn("quarantine.found", response.quarantined));
  setWriteBlock(null);
  app.doc = response.document;
  if (changed || currentSaveState()) persist();
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
  if (event.key === DOC_KEY && isOtherTabSave(event.newValue)) {
    // Another tab saved the table: show its version (our own changes were saved before).
    showOtherTabSave(event.newValue);
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

export async function boot() {
  // A return visit (a service worker controls the page: every file comes from this device) starts
  // the engine at once, before the first render: the worker's start, mostly off the main thread,
  // then overlaps the shell's texts and render instead of following them. A first visit keeps
  // the network for the shell first (the engine starts once its render is painted, below).
  if (navigator.serviceWorker?.controller) startEngine();
  const saved = readSaved();
  app.doc = saved.doc ?? newDocument();
  rememberSaved(saved.raw, saved.status === "ok" ? saved.doc : null);
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
  if (saved.status === "needs-engine") setWriteBlock("engine");
  if (saved.status === "no-storage") app.notify("warning", () => t("storage.unavailable"));
  if (navigator.storage?.persist) navigator.storage.persist().catch(() => {});

  document.getElementById("lang-toggle").addEventListener("click", async () => {
    const next = language() === "fr" ? "en" : "fr";
    await ensureLanguage(next);
    chooseLanguage(next); // the device's language, kept apart from any table
    setLanguage(next);
    // The table's field follows (a new table's language), but the switch is the device's: no
    // change of the table to undo, no notice naming one.
    app.update((doc) => {
      doc.language = next;
    }, { record: false });
  });
  window.addEventListener("hashchange", () => onRoute());
  window.addEventListener("storage", onStorage);
  window.addEventListener(DOWNLOAD_EVENT, confirmDownload);
  // Ctrl+Z (⌘Z) outside a text field presses the undo notice's « Annuler »: in reach from the
  // keyboard wherever the focus is (the notice sits first in the page's order).
  document.addEventListener("keydown", (event) => {
    const button = toastKind() !== "undo" && undo.isUndoKey(event) ? document.querySelector("[data-testid=undo-toast-action]") : null;
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
      app.notify("error", () => t("engine.stopped"), [{ label: () => t("storage.reload"), run: () => location.reload() }]);
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
  showEngineProgress(); // the header's bar while the engine loads (gone at ready)
  await yieldToMain();
  document.getElementById("main").replaceChildren(); // the static boot message goes
  await onRoute(false);
  performance.mark("tablee-first-render"); // the saved table is in the DOM (make bench)
  // The reminder to export a table not exported for a week (views/keep.js), in an idle moment.
  whenIdle(() => import("./views/keep.js").then((m) => m.start(app), () => {}));
  const block = writeBlocked();
  if (block) setSaveState({ kind: block === "engine" ? "waiting" : "blocked" });

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
    .catch((error) => app.notify("error", () => t(error?.hung ? "engine.hung" : "engine.failed_detail"), [
      { label: () => t("storage.reload"), run: () => location.reload() },
    ]));
}


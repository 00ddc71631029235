// Tablée app shell: reads the saved table, paints at once, boots the rules engine in a
// worker, routes between views and keeps the table document saved after every change.

import { html, render, nothing } from "../vendor/lit-html/lit-html.js";
import { call, engineState, onEngineState, startEngine } from "./engine.js";
import { errorMessage, initI18n, language, setLanguage, t } from "./i18n.js";
import {
  backup,
  DOC_KEY,
  LOG_LIMIT,
  newDocument,
  newId,
  readSaved,
  save,
} from "./storage.js";
import { registerServiceWorker } from "./sw-register.js";
import * as about from "./views/about.js";
import * as logView from "./views/log.js";
import * as tableView from "./views/table.js";
import * as tray from "./views/tray.js";

const VIEWS = { tray, log: logView, table: tableView, about };
const SYSTEM_VIEWS = {
  systmj: () => import("./systems/systmj.js"),
  unicreon: () => import("./systems/unicreon.js"),
  versality: () => import("./systems/versality.js"),
  pointzero: () => import("./systems/pointzero.js"),
  theorem: () => import("./systems/theorem.js"),
};
const DEFAULT_ROUTE = "tray";

const notices = [];
let systemModules = {};

/** The one app object views receive: the document, the engine and the shell's services. */
export const app = {
  doc: null,
  engine: { state: "idle", describe: null },
  call,
  t,
  route: DEFAULT_ROUTE,
  params: [],

  /** Apply a change to the document, save it, and re-render. */
  update(mutate) {
    const next = structuredClone(this.doc);
    mutate(next);
    this.doc = next;
    persist();
    renderAll();
  },

  /** Append an entry to the roll log (oldest entries dropped past LOG_LIMIT). */
  addLog(entry) {
    this.update((doc) => {
      doc.log.push({ id: newId("log"), at: new Date().toISOString(), system: null, ...entry });
      if (doc.log.length > LOG_LIMIT) doc.log.splice(0, doc.log.length - LOG_LIMIT);
    });
  },

  /** Replace the whole document (import, restore); the old one is kept as a backup first. */
  replaceDocument(doc) {
    const key = backup(JSON.stringify(this.doc));
    this.doc = doc;
    setLanguage(doc.language);
    persist();
    renderAll();
    return key;
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
};

function persist() {
  try {
    save(app.doc);
  } catch (error) {
    app.notify("error", t("storage.save_failed", { detail: String(error?.name ?? error) }));
  }
}

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const [route = DEFAULT_ROUTE, ...params] = parts;
  return { route: route in VIEWS || route in SYSTEM_VIEWS ? route : DEFAULT_ROUTE, params };
}

function currentView() {
  if (app.route in VIEWS) return VIEWS[app.route];
  return systemModules[app.route] ?? null;
}

function renderNotices() {
  render(
    html`${notices.map(
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
}

function renderChrome() {
  document.title = `Tablée — ${app.doc.name}`;
  document.getElementById("table-name").textContent = app.doc.name;
  const toggle = document.getElementById("lang-toggle");
  const other = language() === "fr" ? "en" : "fr";
  // The button names the other language in that language ("English", "Français").
  toggle.textContent = t(`lang.name_${other}`);
  toggle.lang = other;
  toggle.title = t(`lang.switch_to_${other}`);
  const nav = document.getElementById("app-nav");
  nav.setAttribute("aria-label", t("nav.label"));
  for (const link of nav.querySelectorAll("a[data-route]")) {
    link.textContent = t(`nav.${link.dataset.route}`);
    if (link.dataset.route === app.route) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.querySelector(".skip-link").textContent = t("nav.skip");
  const status = document.getElementById("engine-status");
  status.textContent = t(`engine.${app.engine.state}`);
}

function renderAll() {
  renderChrome();
  const view = currentView();
  const main = document.getElementById("main");
  if (!view) {
    render(html`<p class="muted">${t("engine.loading_view")}</p>`, main);
    return;
  }
  render(view.render(app), main);
}

async function loadSystemView(route) {
  if (!(route in SYSTEM_VIEWS) || systemModules[route]) return;
  try {
    systemModules[route] = await SYSTEM_VIEWS[route]();
  } catch (error) {
    console.error(error);
    app.notify("error", t("view.load_failed", { view: route }));
  }
}

async function onRoute(focus = true) {
  const { route, params } = parseRoute();
  app.route = route;
  app.params = params;
  await loadSystemView(route);
  renderAll();
  if (focus) document.getElementById("main").focus({ preventScroll: true });
}

/** Once the engine is up, tablee.store validates (and migrates) what the shell loaded. */
async function validateSaved(saved) {
  const candidate = saved.status === "needs-engine" ? saved.parsed : app.doc;
  const response = await call({ op: "store.load", document: candidate });
  if (response.error) {
    const key = backup(saved.status === "needs-engine" ? saved.raw : JSON.stringify(app.doc));
    app.doc = newDocument(t("table.default_name"), language());
    persist();
    app.notify("error", t("storage.invalid_saved", { reason: errorMessage(response.error), key: key ?? "—" }));
  } else {
    if (response.migrated_from !== null && response.migrated_from !== undefined) {
      backup(saved.raw);
      app.notify("status", t("storage.migrated", { from: response.migrated_from }));
    }
    app.doc = response.document;
    persist();
  }
  renderAll();
}

async function boot() {
  const saved = readSaved();
  app.doc = saved.doc ?? newDocument();
  // French first: a new table starts in French, English is one click away.
  await initI18n(app.doc.language);
  if (saved.status === "empty") {
    app.doc.language = language();
    app.doc.name = t("table.default_name");
    persist();
  }
  if (saved.status === "unusable") {
    app.notify("error", t(`storage.unusable.${saved.reason}`, { key: saved.backup ?? "—" }));
    persist();
  }
  if (saved.status === "no-storage") app.notify("warning", t("storage.unavailable"));

  document.getElementById("lang-toggle").addEventListener("click", () => {
    const next = language() === "fr" ? "en" : "fr";
    setLanguage(next);
    app.update((doc) => {
      doc.language = next;
    });
  });
  window.addEventListener("hashchange", () => onRoute());
  window.addEventListener("storage", (event) => {
    if (event.key === DOC_KEY && event.newValue) {
      app.notify("warning", t("storage.changed_elsewhere"), [
        { label: t("storage.reload"), run: () => location.reload() },
      ]);
    }
  });

  onEngineState((state, detail) => {
    const wasReady = app.engine.state === "ready";
    app.engine.state = state;
    if (state === "ready") app.engine.describe = detail.describe;
    if (state === "failed" && wasReady) {
      app.notify("error", t("engine.stopped"), [{ label: t("storage.reload"), run: () => location.reload() }]);
    }
    renderAll();
  });
  document.getElementById("main").replaceChildren(); // the static boot message goes
  await onRoute(false);

  startEngine()
    .then(() => (saved.status === "ok" || saved.status === "needs-engine" ? validateSaved(saved) : null))
    .catch(() => app.notify("error", t("engine.failed_detail")));
  registerServiceWorker(app);
}

app.engine.state = engineState();
boot();

export { html, nothing };

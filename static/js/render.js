// The shell's drawing: the page of the route, the header and the navigation, the notices and
// the one save-state line; every change of the table goes through renderAll, which tells the
// document's listeners first (app.onDocument).

import { html, render, nothing } from "../vendor/lit-html/lit-html.js";
import { app, documentListeners, notices } from "./app.js";
import { call } from "./engine.js";
import { language, said, t, tn } from "./i18n.js";
import { shownTableName } from "./storage.js";
import * as undo from "./undo.js";
import { currentView, failedViews, loadSystemView, parseRoute, SYSTEM_VIEWS } from "./routes.js";
import { currentSaveState } from "./save-queue.js";
import { dropToastOfAnotherPage, toastBar } from "./undo-bar.js";


/** One persistent line while the table is not saved (never a stack of notices). */
function saveStateLine() {
  const saveState = currentSaveState();
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

export function renderNotices({ keepClear = true } = {}) {
  render(
    html`${saveStateLine()}${toastBar()}${notices.map(
      (n) => html`<div class="notice ${n.kind}" role=${n.kind === "error" ? "alert" : "status"}>
        <p>${said(n.text)}</p>
        <div class="row">
          ${n.actions.map(
            (a) => html`<button type="button" @click=${() => { a.run(); if (a.dismiss !== false) app.dismiss(n.id); }}>${said(a.label)}</button>`,
          )}
          <button type="button" @click=${() => app.dismiss(n.id)} aria-label=${t("notice.dismiss")}>✕</button>
        </div>
      </div>`,
    )}`,
    document.getElementById("notices"),
  );
  if (keepClear) keepClearOfToast();
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

export function renderChrome() {
  const title = `Tablée — ${shownTableName(app.doc.name, t("table.default_name"))}`;
  if (document.title !== title) document.title = title;
  setText(document.getElementById("table-name"), shownTableName(app.doc.name, t("table.default_name")));
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
  // (a phone at a live table whose requests the MJ's engine answers meanwhile says so)
  const shown = app.engine.relayed && app.engine.state !== "ready" ? "relayed" : app.engine.state === "idle" ? "loading" : app.engine.state;
  setText(status, t(`engine.${shown}`));
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

/** The undo notice is fixed over the page's bottom: the focused control and every enabled
 * button are kept clear of it (undo.js keepButtonsClear: the notice rises above them, or the
 * page scrolls when it cannot), after each drawing of the notices and of the page. */
function keepClearOfToast() {
  const bar = document.querySelector("#notices .undo-toast");
  if (!bar) return;
  watchScrolls();
  undo.keepButtonsClear(bar);
}

/** A page also moves without being drawn again (a result brought into view, the person
 * scrolling): once it comes to rest with the notice shown, no enabled button stays under it. */
let scrollsWatched = false;
let settling = null;
function watchScrolls() {
  if (scrollsWatched) return;
  scrollsWatched = true;
  const settle = () => {
    clearTimeout(settling);
    settling = setTimeout(keepClearOfToast, 150);
  };
  addEventListener("scroll", settle, { passive: true });
  addEventListener("resize", settle, { passive: true });
}

export function renderAll() {
  notifyDocument();
  renderChrome();
  renderNotices({ keepClear: false }); // (the page is drawn next: kept clear once it is)
  const view = currentView();
  const main = document.getElementById("main");
  if (!view) {
    render(failedViews.has(app.route) ? loadFailed(app.route) : html`<p class="muted">${t("engine.loading_view")}</p>`, main);
    return;
  }
  try {
    render(html`${quarantineBanner()}${view.render(app)}`, main);
    keepClearOfToast();
  } catch (error) {
    // A page that cannot draw this table says so (the table itself is untouched) instead of
    // leaving a blank page.
    console.error(error);
    render(html`<div class="notice error" role="alert" data-testid="render-failed"><p>${t("view.render_failed")}</p>
      <p><a href="#/table">${t("quarantine.go")}</a></p></div>`, main);
  }
}

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
export function describeWhenNeeded() {
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

/** The address the next page opened by openAtTop() is (null: none asked). */
let openingAtTop = null;

/**
 * Open `hash` with its top in view and the focus in its first field (a new character's sheet
 * after « Créer »: the name, the type and the first creation step, never the page scrolled
 * where the list's button was).
 */
export function openAtTop(hash) {
  openingAtTop = hash;
  if (location.hash === hash) onRoute();
  else location.hash = hash;
}

/** The first field of the page (its name, on a sheet), or null. */
function firstField(main) {
  return [...main.querySelectorAll("input, select, textarea")]
    .find((el) => el.type !== "hidden" && !el.disabled && el.getClientRects().length) ?? null;
}

export async function onRoute(focus = true) {
  const { route, params, unreadable } = parseRoute();
  app.route = route;
  app.params = params;
  dropToastOfAnotherPage();
  if (unreadable) app.notify("warning", () => t("route.unreadable"));
  describeWhenNeeded();
  await loadSystemView(route);
  renderAll();
  const main = document.getElementById("main");
  if (openingAtTop !== null && openingAtTop === location.hash) {
    openingAtTop = null;
    window.scrollTo({ top: 0, behavior: "instant" });
    (firstField(main) ?? main).focus({ preventScroll: true });
    return;
  }
  if (focus) main.focus({ preventScroll: true });
}

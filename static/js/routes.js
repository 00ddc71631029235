// The shell's routes: which page each address shows, and the pages' modules, loaded with their
// route (the home page's comes with the shell).

import { app, DEFAULT_ROUTE } from "./app.js";
import { ensureNamespaces } from "./i18n.js";
import * as home from "./views/home.js";

export const VIEWS = { home };
// Pages loaded with their route (the first paint waits for none of them, and the
// shell's module graph stays the home page's). The table page brings the file import and
// export, the share page the QR code generator, the dice tray and the log their dice and card
// faces, the log its exports and replays; a system's page brings its own texts (i18n namespace
// of the same name) and styles.
export const LAZY_VIEWS = {
  share: () => import("./views/share.js"),
  table: () => import("./views/table.js"),
  tray: () => import("./views/tray.js"),
  log: () => import("./views/log.js"),
  about: () => import("./views/about.js"),
};
export const SYSTEM_VIEWS = {
  systmj: () => import("./systems/systmj.js"),
  unicreon: () => import("./systems/unicreon.js"),
  versality: () => import("./systems/versality.js"),
  pointzero: () => import("./systems/pointzero.js"),
  theorem: () => import("./systems/theorem.js"),
  // The live table's pages, loaded on demand like a system's: the MJ's #/live and
  // the player's #/join/<offer>.
  live: () => import("./views/live.js"),
  join: () => import("./views/live.js"),
};

/** The pages' modules loaded so far, by route. */
const systemModules = new Map();

/**
 * The route and its parameters from the address. An address that cannot be read (a broken
 * percent-escape such as `#/%` or `#/share/%E0%A4%A`: decodeURIComponent throws) is the home
 * page, marked `unreadable` so the person is told; it must never stop the app from starting.
 */
export function parseRoute() {
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

export function currentView() {
  if (Object.hasOwn(VIEWS, app.route)) return VIEWS[app.route];
  return systemModules.get(app.route) ?? null;
}

export async function loadSystemView(route) {
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
export const failedViews = new Set();


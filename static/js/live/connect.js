// The live table's one session per page: the links rtc.js opens go to it.
//
// `start(app)` is called once by the live pages (and at boot when this device already follows a
// live table, so its changes keep reaching the Y docs while no link is open). The session is
// the MJ's (hub) or a player's (member) after the role of the first link, or of the saved one.

import { memberId, memberKey, onLink, savedName } from "./rtc.js";
import { LIVE_KEY, readLive, Session, Y_BASE_KEY, Y_DELTA_KEY } from "./session.js";
import { applyUpdate, updateWaiting } from "../sw-register.js";
import { TABLE_CLOSED } from "./sync.js";

/** Kept on a device whose table the MJ closed ({at}: the MJ's own device, or a phone told by
 * the MJ's, sync.js Hub.farewell), until a link opens again or the device leaves the table:
 * its live page says the table is closed, not that a link was lost. */
export const CLOSED_KEY = "tablee.live.closed";

let app = null;
let session = null;
const listeners = new Set();
/** A phone held by the MJ's device until the MJ says it is the player it named (admission.js):
 * its join page says it waits for that, until its table arrives or it is refused. */
let recognising = false;
const WAIT = "live.wait.recognise";
const REPLACED = "live.refused.replaced";
const NAME_TAKEN = "live.refused.name_taken";
/** A phone's name was refused (taken, or the MJ's « Refuser »): its join page asks for another. */
let nameRefused = false;

/** Whether this phone's name was refused since the last ask (asked once: the flag goes). */
export function takeNameRefusal() {
  const was = nameRefused;
  nameRefused = false;
  return was;
}

function changed() {
  for (const fn of listeners) fn(session);
  app?.chrome?.(); // the unseen count beside "Table en direct", on every page
}

/** The session of `role` (created, or re-created when the role changes). */
export function ensure(role) {
  if (session && session.role === role) return session;
  session?.close();
  const player = role === "player";
  session = new Session(app, { role, me: player ? memberId() : null, key: player ? memberKey() : null, name: savedName() || (role === "mj" ? "MJ" : "") });
  recognising = false;
  const made = session;
  session.addEventListener("change", () => {
    if (recognising && made.member?.synced) recognising = false; // (recognised: the table came)
    changed();
  });
  session.addEventListener("refused", (e) => {
    const code = e.detail?.code ?? "live.refused.malformed";
    if (code === WAIT) {
      recognising = true; // (not a refusal: the join page says what it waits for)
      changed();
      return;
    }
    recognising = false;
    if (made.role === "player" && code === NAME_TAKEN) nameRefused = true;
    if (code === TABLE_CLOSED && made.role === "player") {
      // The MJ closed the table: this phone keeps its session (its copy of the table, its hand)
      // and closes its side of the link at once, so the MJ's device is not kept waiting.
      markClosed();
      made.member?.detach();
      // (said on whatever page the phone shows, in the language of each drawing)
      app.notify("status", () => `${app.t("live.closed_by_mj")} ${app.t("live.closed_keeps")}`);
      changed();
      return;
    }
    if (made.role === "mj" && code === REPLACED) app.notify("warning", app.t("live.replaced_refused", { name: e.detail?.name ?? "" }));
    else if (e.detail?.name !== undefined) app.notify("warning", app.t("live.identity_refused", { name: e.detail.name }));
    else app.notify("warning", app.t(`error.${code}`, { op: "", field: "", system: "" }));
    changed();
  });
  session.addEventListener("version", (e) => tellVersion(made, e.detail));
  session.addEventListener("error", (e) => {
    if (e.detail?.code === "live.storage_full") app.notify("warning", app.t("live.storage_full"));
  });
  changed();
  return session;
}

/** The notice of each device at the table whose version differs in a way that matters (one per
 * device: a new link replaces its notice), saying which device must update and how, with a
 * one-tap update on a phone whose new version is already waiting (versions.js). */
const versionNotices = new Map();
function tellVersion(made, { member, name, who }) {
  if (made !== session) return;
  const key = made.role === "mj" ? `live.version.mj_${who}` : `live.version.phone_${who}`;
  const here = made.role === "player" && who === "here";
  const actions = here && updateWaiting() ? [{ label: () => app.t("live.version.update_now"), run: () => applyUpdate() }] : [];
  if (versionNotices.has(member)) app.dismiss(versionNotices.get(member));
  versionNotices.set(member, app.notify("warning", () => app.t(key, { name }), actions));
}

/** Follow the links and, when this device already follows a live table, resume it. */
export function start(theApp) {
  if (app) return session;
  app = theApp;
  app.liveUnseen = () => (session?.role === "mj" ? session.unseen : 0);
  app.liveSession = () => session;
  const before = readLive();
  if (before) ensure(before.role);
  onLink(({ link, role, memberId: id, name, key }) => {
    clearClosed(); // (a link open again: the table is open)
    ensure(role).attach({ link, memberId: id, name, key });
  });
  // A page that goes away (closed, reloaded, another site) closes its links itself: the other
  // devices see it gone at once, not when the connection times out (about 15 s), and the
  // session's waiting save is written. A page kept in the back/forward cache keeps them.
  window.addEventListener("pagehide", (event) => {
    if (!event.persisted) session?.close();
  });
  return session;
}

/** This page's session, or null. */
export const current = () => session;

/** Whether this phone's link is held by the MJ's device until the MJ recognises it. */
export const awaitingRecognition = () => recognising && session?.role === "player" && Boolean(session.member?.connected);

/** Call `fn(session)` at every change of the session (presence, links, the table's sync). */
export function watch(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** When the MJ closed the table this device follows ({at}), or null. */
export function tableClosed(storage = globalThis.localStorage) {
  try {
    const saved = JSON.parse(storage.getItem(CLOSED_KEY));
    return saved !== null && typeof saved === "object" && typeof saved.at === "string" ? saved : null;
  } catch {
    return null;
  }
}

function markClosed(storage = globalThis.localStorage) {
  try {
    storage.setItem(CLOSED_KEY, JSON.stringify({ at: new Date().toISOString() }));
  } catch {
    // no storage: the page says it until it goes
  }
}

/** Forget that the table was closed (it opens again, or this device left it). */
export function clearClosed(storage = globalThis.localStorage) {
  try {
    storage.removeItem(CLOSED_KEY);
  } catch {
    // nothing saved
  }
}

/**
 * The MJ closes the table for everyone: each phone is told before its link closes
 * (sync.js Hub.farewell; a phone held for the MJ's choice too), then this device leaves the
 * live table (its table stays as it is now) and keeps that it closed it: its live page says the
 * table is closed, with « Rouvrir la table ». Resolves once the links are closed.
 */
export async function closeTable(storage = globalThis.localStorage) {
  const made = session;
  markClosed(storage);
  changed();
  if (made?.role === "mj") {
    for (const claim of made.claims?.values() ?? []) made.hub.refuse(claim.link, TABLE_CLOSED);
    await made.hub.farewell();
  }
  if (session === made) leave(storage, { keepClosed: true });
}

/** Leave the live table on this device: the links close, the saved Y state goes (the table
 * itself stays, as it is now). */
export function leave(storage = globalThis.localStorage, { keepClosed = false } = {}) {
  session?.close();
  session = null;
  if (!keepClosed) clearClosed(storage);
  try {
    for (const key of [LIVE_KEY, Y_BASE_KEY, Y_DELTA_KEY]) storage.removeItem(key);
  } catch {
    // nothing saved to remove
  }
  changed();
}

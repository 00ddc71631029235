// What the live table's pages share (views/live.js): the route of the join page, a LiveError in
// words, the round trip measured and said, the notices of an unreachable device and of a browser
// with no WebRTC.

import { html } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { LiveError } from "../live/rtc.js";
import { relayFailureText } from "./live-remote.js";

export const JOIN_ROUTE = "join";
/** How often an open link's round trip is measured again. */
const PING_EVERY_MS = 10_000;

export function reason(error) {
  const code = error instanceof LiveError ? error.code : "corrupt";
  return t(`live.bad.${code}`);
}

export function joinUrl(text) {
  const url = new URL(location.href);
  url.hash = `#/${JOIN_ROUTE}/${text}`;
  return url.href;
}

export async function copy(text, fieldId) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    document.getElementById(fieldId)?.select(); // no clipboard permission: selected for the person to copy
    return false;
  }
}

/** Measure the round trip now and every PING_EVERY_MS while the link is open. */
export function keepMeasuring(app, link) {
  // Only these pages show the round trip: another page is not redrawn for it.
  const measure = () => link.ping().then(() => {
    if (app.route === "live" || app.route === JOIN_ROUTE) app.rerender();
  });
  measure();
  const timer = setInterval(measure, PING_EVERY_MS);
  link.addEventListener("close", () => clearInterval(timer), { once: true });
}

export function rttText(link) {
  return link?.rtt === null || link?.rtt === undefined ? "" : t("live.rtt", { ms: Math.max(1, Math.round(link.rtt)) });
}

export function unreachableNotice(app, code = null) {
  return html`<div class="notice error" role="alert" data-testid="live-unreachable">
    <p>${relayFailureText(code) ?? t("live.unreachable")} <a href="#/share">${t("live.fallback")}</a></p></div>`;
}

/** A browser with no WebRTC (Debian's WebKitGTK) says so in plain words instead of failing. */
export function unsupportedNotice() {
  return html`<div class="notice error" role="alert" data-live-unsupported><p>${t("live.unsupported")} <a href="#/share">${t("live.fallback")}</a></p></div>`;
}


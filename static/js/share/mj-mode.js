// The "Mode MJ" switch (issue 13, "Between devices"): the MJ's screens (hidden information)
// show only on a device where the switch is on. Off by default, remembered on this device
// (localStorage, not the table document: the table travels, the switch does not).

import { html } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { loadStylesheet } from "../views/ui.js";

export const MJ_MODE_KEY = "tablee.mj-mode";

export function mjMode() {
  try {
    return localStorage.getItem(MJ_MODE_KEY) === "on";
  } catch {
    return false;
  }
}

export function setMjMode(app, on) {
  try {
    localStorage.setItem(MJ_MODE_KEY, on ? "on" : "off");
  } catch {
    // No storage: the switch cannot be remembered; it stays off.
  }
  reflect();
  app.rerender();
}

/** <html data-mj-mode="on|off">, so the MJ's links can be hidden by the stylesheet. */
export function reflect() {
  document.documentElement.dataset.mjMode = mjMode() ? "on" : "off";
}

/** The switch itself: a labelled checkbox with role="switch". */
export function mjSwitch(app, id = "mj-mode") {
  const on = mjMode();
  return html`<div class="mj-switch">
    <label for=${id}><input type="checkbox" role="switch" id=${id} data-testid="mj-mode" .checked=${on}
      aria-describedby=${`${id}-help`} @change=${(e) => setMjMode(app, e.target.checked)}> ${t("mj.switch")}</label>
    <p class="muted" id=${`${id}-help`}>${t(on ? "mj.on_help" : "mj.off_help")}</p>
  </div>`;
}

// Every page that imports this module (the share page, the systems with an MJ's screen) gets
// the switch's state on <html> and its styles, whether or not the share page was opened: the
// share page is loaded with its route only (issue 14). The rule hiding the MJ's links is in
// app.css, so no link shows before this stylesheet arrives.
reflect();
loadStylesheet(new URL("../../css/share.css", import.meta.url).href);

/** A page of the MJ's (its `render(app, id)`), shown only when the switch is on. */
export function mjOnly(render) {
  return (app, id) => {
    if (mjMode()) return render(app, id);
    return html`<h1 tabindex="-1">${t("mj.hidden_title")}</h1>
      <section class="card" data-testid="mj-hidden"><p>${t("mj.hidden_help")}</p>${mjSwitch(app, "mj-mode-page")}</section>`;
  };
}

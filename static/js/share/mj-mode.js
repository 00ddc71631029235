// The "Je suis MJ / Je joue" choice: the MJ's screens (hidden information) show only on a
// device where the MJ said so, for every system alike (one choice, no second gate per system). Off by default, remembered on this device
// (localStorage, not the table document: the table travels, the switch does not).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { livePlayer } from "../player-role.js";

export const MJ_MODE_KEY = "tablee.mj-mode";

/** Whether this device shows the MJ's screens: where the MJ said so, never on a player's phone
 * at a live table (its table is the players' view: an MJ's screen there would show a guess,
 * « Seuil : pas encore fixé » while the MJ set 6, and its controls would act on nothing). */
export function mjMode() {
  if (livePlayer()) return false;
  try {
    return localStorage.getItem(MJ_MODE_KEY) === "on";
  } catch {
    return false;
  }
}

/** Whether this device's choice was made (a first visit has none: it is shown unmade, never
 * silently as « Je joue », though the MJ's screens stay hidden until « Je suis MJ »). */
export function mjChosen() {
  try {
    return localStorage.getItem(MJ_MODE_KEY) !== null;
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

/** The one "Je suis MJ / Je joue" choice, the same on every page that offers it (the home
 * page, the share page, every masked MJ screen) and for every system: two buttons, the one in
 * force pressed. `id` keeps two copies on a page apart. */
export function mjChoice(app, id = "mj-mode") {
  if (livePlayer()) {
    // A player's device at a live table: no choice here, words saying what it is and how it
    // becomes the MJ's device (leave the table first).
    return html`<div class="mj-switch" data-testid="mj-mode" data-mj="player-at-table">
      <p class="mj-choice-title" id=${`${id}-title`}>${t("mj.player_here_title")}</p>
      <p class="muted small" data-testid="mj-player-here">${t("mj.player_here")}</p>
      <a class="button" href="#/live" data-testid="mj-player-here-live">${t("mj.player_here_go")}</a>
    </div>`;
  }
  const on = mjMode();
  // A device that never chose: neither button pressed, and the line says what holds meanwhile.
  const chosen = on || mjChosen();
  const pick = (value) => () => {
    if (value !== mjMode() || !mjChosen()) setMjMode(app, value);
  };
  return html`<div class="mj-switch" data-testid="mj-mode" data-mj=${on ? "on" : chosen ? "off" : "unset"}>
    <p class="mj-choice-title" id=${`${id}-title`}>${t("mj.choice_title")}</p>
    <div class="mj-choice" role="group" aria-labelledby=${`${id}-title`} aria-describedby=${`${id}-help`}>
      <button type="button" id=${`${id}-mj`} data-testid="mj-mode-mj" aria-pressed=${on ? "true" : "false"} @click=${pick(true)}>${t("mj.choice_mj")}</button>
      <button type="button" id=${`${id}-player`} data-testid="mj-mode-player" aria-pressed=${chosen && !on ? "true" : "false"} @click=${pick(false)}>${t("mj.choice_player")}</button>
    </div>
    <p class=${chosen ? "muted small" : "small mj-unset"} id=${`${id}-help`}>${t(on ? "mj.on_help" : chosen ? "mj.off_help" : "mj.unset_help")}</p>
  </div>`;
}

/** The former name of the choice (kept for the pages that import it). */
export const mjSwitch = mjChoice;

// Every page that imports this module (the home page, the share page, the systems with an MJ's
// screen) gets the choice's state on <html>. The choice's styles and the rule hiding the MJ's
// links are in app.css, so they are there from the first paint.
reflect();

/** A page of the MJ's (its `render(app, id)`), shown only where "Je suis MJ" was chosen; the
 * masked page offers the choice right there, the shown one ends with it (to hand the device to
 * a player). */
export function mjOnly(render) {
  return (app, id) => {
    if (mjMode()) {
      return html`${render(app, id)}<section class="card mj-page-choice" data-testid="mj-page-choice">${mjChoice(app, "mj-mode-page")}</section>`;
    }
    return html`<h1 tabindex="-1">${t("mj.hidden_title")}</h1>
      <section class="card" data-testid="mj-hidden">${livePlayer() ? nothing : html`<p>${t("mj.hidden_help")}</p>`}${mjChoice(app, "mj-mode-page")}</section>`;
  };
}

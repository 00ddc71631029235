// The home page ("a first visit that explains itself"): what Tablée is in two lines, the next
// step (first, so a phone shows it on the first screen), the MJ's choice with what the live table
// is and how players join (first beside it on a laptop, in view without scrolling), and the five systems
// (mechanic, what is playable, this table's characters, a link each). The next step — create a character in a system, open the dice tray, import a table. A returning
// table (characters or a log) gets the same page with its summary and "continue" links.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { said, t, tn } from "../i18n.js";
import { lastRollText, shownTableName, tableSummary } from "../storage.js";
import { mjChoice } from "../share/mj-mode.js";
import { labelOf, summaryOf } from "./log-words.js";
import { disabledWhy } from "./ui.js";
import { formatDateTime } from "./when.js";

/** The systems in the order of the navigation (and of the About page). */
export const HOME_SYSTEMS = ["systmj", "unicreon", "versality", "pointzero", "theorem"];

const state = { importError: null, importOk: null, replaceFailed: false };

function systemCard(id, count) {
  return html`<li class="card home-system" data-testid="home-system" data-system=${id}>
    <h3 id=${`home-${id}-name`}><a href=${`#/${id}`} data-testid="home-system-link">${t(`nav.${id}`)}</a></h3>
    <p class="home-mechanic">${t(`system.${id}.mechanic`)}</p>
    <p class="small"><span class="muted">${t("home.playable")}</span> ${t(`home.playable.${id}`)}</p>
    <p class="small" data-testid="home-count">${count ? tn("home.count", count) : t("home.count_none")}</p>
  </li>`;
}

function summarySection(app, summary) {
  const last = app.doc.log.at(-1);
  const when = last && typeof last.at === "string" && !Number.isNaN(new Date(last.at).getTime()) ? formatDateTime(new Date(last.at)) : null;
  const inUse = HOME_SYSTEMS.filter((id) => summary.bySystem.get(id) > 0);
  return html`<section class="card stack" aria-labelledby="home-summary-title" data-testid="home-summary">
    <h2 id="home-summary-title">${t("home.your_table", { name: shownTableName(summary.name, t("table.default_name")) })}</h2>
    <ul class="home-facts">
      <li>${summary.characters ? tn("home.characters", summary.characters) : t("home.no_characters")}${inUse.length
        ? html` (${inUse.map((id, i) => html`${i ? ", " : ""}${t(`nav.${id}`)} ${summary.bySystem.get(id)}`)})` : nothing}</li>
      <li>${summary.logCount ? tn("home.log_entries", summary.logCount) : t("home.no_log")}</li>
      ${summary.lastRoll ? html`<li data-testid="home-last-roll">${t("home.last_roll", { roll: summary.lastRoll })}${when ? html` <span class="muted small">(${when})</span>` : nothing}</li>` : nothing}
    </ul>
    <p class="row">
      ${inUse.map((id) => html`<a class="button primary" href=${`#/${id}`} data-testid="home-continue">${t("home.continue", { system: t(`nav.${id}`) })}</a>`)}
      ${summary.logCount ? html`<a class="button" href="#/log">${t("home.open_log")}</a>` : nothing}
      <a class="button" href="#/table">${t("home.open_table")}</a>
    </p>
  </section>`;
}

function nextSteps(app) {
  const ready = app.engine.state === "ready";
  const why = disabledWhy("home-import", ready ? null : t("engine.wait_for_import"));
  return html`<section class="card stack" aria-labelledby="home-next-title" data-testid="home-next">
    <h2 id="home-next-title">${t("home.next")}</h2>
    <ol class="home-steps">
      <li data-testid="home-step-create">
        <strong>${t("home.step_create")}</strong>
        <span class="home-links">${HOME_SYSTEMS.map((id) => html`<a class="button" href=${`#/${id}`} data-testid="home-create-link">${t(`nav.${id}`)}</a>`)}</span>
        <span class="muted small">${t("home.step_create_help")}</span>
      </li>
      <li data-testid="home-step-tray">
        <a class="button" href="#/tray" id="home-tray-link">${t("home.step_tray")}</a>
        <span class="muted small">${t("home.step_tray_help")}</span>
      </li>
      <li data-testid="home-step-import">
        <label class="button" for="home-import">${t("home.step_import")}</label>
        <input id="home-import" class="visually-hidden" type="file" accept="application/json,.json"
          ?disabled=${!ready} aria-describedby=${ready ? "home-import-error" : "home-import-why home-import-error"}
          @change=${async (e) => { const input = e.target; const file = input.files?.[0]; input.value = ""; await importFile(app, file, state); }}>
        ${why.note}
        <span class="muted small">${t("home.step_import_help")}</span>
        <p id="home-import-error" class="field-error" role="alert">${state.importError ?? nothing}</p>
        ${state.replaceFailed ? html`<p class="notice error" role="alert">${t("replace.failed")}</p>` : nothing}
        ${state.importOk ? html`<p role="status" class="outcome-ok" data-testid="home-import-ok">${said(state.importOk)}</p>` : nothing}
      </li>
    </ol>
  </section>`;
}

/** The table page's import, loaded when a file is chosen (the home page's first paint needs
 * none of it). */
async function importFile(app, file, state) {
  const { importTableFile } = await import("./table.js");
  return importTableFile(app, file, state);
}

/** A player's moves waiting for the live table on this phone (its session, or the saved one
 * before the live modules load: the home page imports none of them). */
function liveWaiting(app) {
  const session = app.liveSession?.();
  if (session) return session.role === "player" ? session.queue.length : 0;
  try {
    const saved = JSON.parse(localStorage.getItem("tablee.live"));
    return saved?.role === "player" && Array.isArray(saved.queue) ? saved.queue.length : 0;
  } catch {
    return 0;
  }
}

export function render(app) {
  const summary = tableSummary(app.doc);
  // The last roll in the reader's language (log-words.js), not the logging device's.
  const last = app.doc.log.at(-1);
  if (summary && last && typeof last === "object") {
    summary.lastRoll = lastRollText([{ ...last, label: labelOf(last, app), result: { ...last.result, summary: summaryOf(last, app) } }]);
  }
  const waiting = liveWaiting(app);
  const returning = summary && (summary.characters > 0 || summary.logCount > 0);
  return html`
    <div class="home" data-returning=${returning ? "true" : "false"}>
      <h1>${t("home.title")}</h1>
      ${waiting ? html`<p class="notice warning" role="status" data-testid="home-live-waiting">${tn("home.live_waiting", waiting)}</p>` : nothing}
      <div class="home-pitch" data-testid="home-pitch">
        <p>${t("home.pitch_1")}</p>
        <p>${t("home.pitch_2")}</p>
      </div>
      <div class="split home-split">
        <div>
          ${returning ? summarySection(app, summary) : nothing}
          ${nextSteps(app)}
        </div>
        <div>
          <section class="card" aria-labelledby="home-mj-title" data-testid="home-mj">
            <h2 id="home-mj-title">${t("home.mj_title")}</h2>
            <p class="small">${t("home.mj_help")}</p>
            ${mjChoice(app, "home-mj-mode")}
            <p class="small home-live" data-testid="home-live">${t("home.live")} <a href="#/live">${t("home.live_link")}</a></p>
          </section>
          <section aria-labelledby="home-systems-title">
            <h2 id="home-systems-title">${t("home.systems")}</h2>
            <ul class="home-systems" data-testid="home-systems">
              ${HOME_SYSTEMS.map((id) => systemCard(id, summary ? summary.bySystem.get(id) : 0))}
            </ul>
          </section>
        </div>
      </div>
    </div>
  `;
}

// The Chronoste (1.3): a written trace of time any player can hold. The date on the table's
// calendar and the hour on a day-and-night clock, advanced by minutes, hours or days with a
// note; a history of what happened when; the table's month names. From 60rem the clock and
// its form sit beside the history and the settings (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { onNavigate } from "../../views/ui.js";
import {
  DEFAULT_MONTHS, backLink, clockText, dayText, errorLine, isDay, monthName, monthNames, ready, stateOp, tableState, timeText,
} from "./common.js";

const ui = { amount: "1", unit: "days", note: "", amountBad: false, error: null, busy: false, months: null, monthsBad: null, setError: null };

onNavigate(() => Object.assign(ui, { amountBad: false, error: null, months: null, monthsBad: null, setError: null }));

async function advance(app, event) {
  event.preventDefault();
  const amount = /^\s*\d{1,6}\s*$/.test(ui.amount) ? Number(ui.amount) : NaN;
  ui.amountBad = !(amount >= 1 && amount <= 100000);
  if (ui.amountBad) {
    app.rerender();
    return;
  }
  const note = ui.note;
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.chronoste.advance", state, amount, unit: ui.unit, note }));
  if (r && ui.note === note) ui.note = "";
  app.rerender();
}

async function setField(app, request) {
  await stateOp(app, ui, (state) => ({ op: "systmj.chronoste.set", state, ...request }), { errorKey: "setError" });
}

/** "Nom (jours)" per line -> months, or the number of the first bad line. */
function parseMonths(text) {
  const months = [];
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  for (const [i, line] of lines.entries()) {
    const m = /^(.{1,40}?)\s*\((\d{1,3})\)$/.exec(line);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 100) return { bad: i + 1 };
    months.push({ name: m[1].trim(), days: Number(m[2]) });
  }
  if (!months.length || months.length > 24) return { bad: 1 };
  return { months };
}

async function saveMonths(app, event) {
  event.preventDefault();
  const parsed = parseMonths(ui.months ?? "");
  // The default calendar as shown (in the interface's language) is still the default one: it
  // is saved as the engine's, so it keeps following the interface's language.
  const shownDefault = monthNames(DEFAULT_MONTHS.map(([name, days]) => ({ name, days })));
  if (parsed.months && parsed.months.length === shownDefault.length
    && parsed.months.every((m, i) => m.name === shownDefault[i] && m.days === DEFAULT_MONTHS[i][1])) {
    parsed.months = DEFAULT_MONTHS.map(([name, days]) => ({ name, days }));
  }
  ui.monthsBad = parsed.bad ?? null;
  if (parsed.bad) {
    app.rerender();
    return;
  }
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.chronoste.months", state, months: parsed.months }), { errorKey: "setError" });
  if (r) ui.months = null;
  app.rerender();
}

function setDate(app, state) {
  const ch = state.chronoste;
  const num = (key, text) => { const v = /^\s*-?\d{1,6}\s*$/.test(text) ? Number(text) : null; if (v !== null) setField(app, { [key]: v }); };
  return html`<details class="card">
    <summary>${t("systmj.ui.chronoste_settings")}</summary>
    <div class="sj-grid">
      <div class="field"><label for="sj-c-day">${t("systmj.ui.day_n")}</label>
        <input id="sj-c-day" type="number" min="1" max="100" .value=${String(ch.day)} @change=${(e) => num("day", e.target.value)}></div>
      <div class="field"><label for="sj-c-month">${t("systmj.ui.month")}</label>
        <select id="sj-c-month" @change=${(e) => setField(app, { month: Number(e.target.value) })}>
          ${monthNames(ch.months).map((name, i) => html`<option value=${String(i + 1)} ?selected=${i + 1 === ch.month}>${name}</option>`)}
        </select></div>
      <div class="field"><label for="sj-c-year">${t("systmj.ui.year")}</label>
        <input id="sj-c-year" type="number" .value=${String(ch.year)} @change=${(e) => num("year", e.target.value)}></div>
      <div class="field"><label for="sj-c-time">${t("systmj.ui.time")}</label>
        <input id="sj-c-time" type="time" .value=${clockText(ch.minute)} @change=${(e) => {
          const m = /^(\d{2}):(\d{2})/.exec(e.target.value);
          if (m) setField(app, { minute: Number(m[1]) * 60 + Number(m[2]) });
        }}></div>
    </div>
    ${errorLine(ui.setError, state)}
    <form @submit=${(e) => saveMonths(app, e)}>
      <div class="field"><label for="sj-c-months">${t("systmj.ui.months")}</label>
        <textarea id="sj-c-months" rows="6" aria-describedby="sj-c-months-help sj-c-months-err" aria-invalid=${ui.monthsBad ? "true" : "false"}
          .value=${ui.months ?? monthNames(ch.months).map((name, i) => `${name} (${ch.months[i].days})`).join("\n")} @input=${(e) => { ui.months = e.target.value; }}></textarea>
        <p class="muted small" id="sj-c-months-help">${t("systmj.ui.months_help")}</p>
        <p class="field-error" id="sj-c-months-err">${ui.monthsBad ? t("systmj.ui.months_bad", { line: ui.monthsBad }) : ""}</p></div>
      <button type="submit" ?disabled=${!ready(app) || ui.busy}>${t("systmj.ui.save_months")}</button>
    </form>
  </details>`;
}

export function render(app) {
  const state = tableState(app);
  if (!state) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p class="muted">${t("systmj.ui.engine_wait")}</p>`;
  const ch = state.chronoste;
  const history = [...ch.history].reverse();
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${t("systmj.ui.chronoste")}</h1>
    <div class="split" data-testid="sj-chronoste-split"><div>
    <section class="card sj-clock" aria-labelledby="sj-now-title">
      <h2 id="sj-now-title">${t("systmj.ui.now")}</h2>
      <p class="sj-now" data-testid="sj-now" aria-live="polite">${timeText(state)}</p>
      <p class="muted small">${isDay(ch.minute) ? "☀" : "☾"} ${t(isDay(ch.minute) ? "systmj.ui.day" : "systmj.ui.night")}</p>
      <div class="field"><label for="sj-c-holder">${t("systmj.ui.holder")}</label>
        <input id="sj-c-holder" maxlength="80" autocomplete="off" .value=${ch.holder} ?disabled=${!ready(app)}
          @change=${(e) => setField(app, { holder: e.target.value })}></div>
    </section>
    <form class="card" aria-labelledby="sj-adv-title" @submit=${(e) => advance(app, e)}>
      <h2 id="sj-adv-title">${t("systmj.ui.advance")}</h2>
      <div class="sj-grid">
        <div class="field"><label for="sj-c-amount">${t("systmj.ui.amount")}</label>
          <input id="sj-c-amount" type="text" inputmode="numeric" .value=${ui.amount} aria-invalid=${ui.amountBad ? "true" : "false"}
            aria-describedby="sj-c-amount-err" @input=${(e) => { ui.amount = e.target.value; }}>
          <p class="field-error" id="sj-c-amount-err">${ui.amountBad ? t("systmj.ui.amount_bad") : ""}</p></div>
        <div class="field"><label for="sj-c-unit">${t("systmj.ui.unit")}</label>
          <select id="sj-c-unit" @change=${(e) => { ui.unit = e.target.value; }}>
            ${["minutes", "hours", "days"].map((u) => html`<option value=${u} ?selected=${u === ui.unit}>${t(`systmj.unit.${u}`)}</option>`)}
          </select></div>
        <div class="field sj-wide"><label for="sj-c-note">${t("systmj.ui.note")}</label>
          <input id="sj-c-note" maxlength="200" autocomplete="off" .value=${ui.note} @input=${(e) => { ui.note = e.target.value; }}></div>
      </div>
      <button type="submit" class="primary" id="sj-c-advance" ?disabled=${!ready(app) || ui.busy}>${t("systmj.ui.advance_button")}</button>
      ${errorLine(ui.error, state)}
    </form>
    </div><div>
    <section class="card" aria-labelledby="sj-hist-title">
      <h2 id="sj-hist-title">${t("systmj.ui.history")}</h2>
      ${history.length ? html`<ol class="sj-history" data-testid="sj-history">
        ${history.map((h) => html`<li><strong>${t("systmj.ui.date_time", { day: dayText(h.day), month: monthName(state, h.month), year: h.year, time: clockText(h.minute) })}</strong>
          <span class="muted small">(+${durationText(h.advanced)})</span>${h.note ? html` — ${h.note}` : nothing}</li>`)}
      </ol>` : html`<p class="muted">${t("systmj.ui.no_history")}</p>`}
    </section>
    ${setDate(app, state)}
    </div></div>
  `;
}

function durationText(minutes) {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return [d ? t("systmj.ui.d_short", { n: d }) : "", h ? t("systmj.ui.h_short", { n: h }) : "", m ? t("systmj.ui.m_short", { n: m }) : ""].filter(Boolean).join(" ") || "0";
}

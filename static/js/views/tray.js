// Dice tray: type an expression or tap a quick die (it rolls at once), see its exact odds,
// roll, log it. The result shows each die as its face (views/faces.js).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { errorMessage, formatNumber, formatPercent, t } from "../i18n.js";
import { newSeed } from "../storage.js";
import { renderDiceResult, renderDistribution } from "./dice-ui.js";
import { audienceField, audienceOf } from "./audience.js";
import { shareButton } from "./ui.js";
import { mjMode } from "../share/mj-mode.js";

export const QUICK = ["d4", "d6", "d8", "d10", "d12", "d20", "d66", "d100", "2d6", "3d6", "4d6kh3", "2d20kh1"];

const state = {
  expr: "2d6",
  atLeast: "",
  odds: null,
  oddsFor: null,
  error: null,
  result: null,
  busy: false,
  pending: 0,
  secret: false,
};

/** An MJ alone with the app (no live table, "Je suis MJ" on this device) may hide a roll from
 * the players: it is logged with `to: "mj"`, as a live table's secret roll is, so it stays in
 * this device's log and every share for players leaves it out (tablee.share). At a live table
 * the MJ's "Qui voit ce jet" choice does it (views/audience.js); a player's phone has neither. */
function secretAllowed(app) {
  return mjMode() && !app.liveSession?.();
}

function secretField(app) {
  if (!secretAllowed(app)) return nothing;
  return html`<div class="field">
    <label class="check"><input type="checkbox" id="roll-secret" aria-describedby="roll-secret-help" .checked=${state.secret}
      @change=${(e) => { state.secret = e.target.checked; app.rerender(); }}> ${t("tray.hide")}</label>
    <p class="muted small" id="roll-secret-help">${t("tray.hide_help")}</p>
  </div>`;
}

let debounce = null;

function scheduleOdds(app) {
  clearTimeout(debounce);
  debounce = setTimeout(() => refreshOdds(app), 150);
}

async function refreshOdds(app) {
  const expr = state.expr.trim();
  const atLeast = state.atLeast === "" ? null : Number(state.atLeast);
  const key = `${expr}|${atLeast}`;
  if (!expr) {
    Object.assign(state, { odds: null, oddsFor: null, error: null });
    app.rerender();
    return;
  }
  const ticket = ++state.pending;
  const request = { op: "odds", expr };
  if (Number.isInteger(atLeast)) request.at_least = atLeast;
  const response = await app.call(request);
  if (ticket !== state.pending) return; // a newer expression was typed meanwhile
  if (response.error) Object.assign(state, { odds: null, oddsFor: null, error: response.error });
  else Object.assign(state, { odds: response, oddsFor: key, error: null });
  app.rerender();
}

async function roll(app, event) {
  event?.preventDefault();
  const expr = state.expr.trim();
  if (!expr || state.busy) return;
  state.busy = true;
  app.rerender();
  const response = await app.call({ op: "roll", expr, seed: newSeed() });
  state.busy = false;
  if (response.error) {
    state.error = response.error;
    state.result = null;
    app.rerender();
    return;
  }
  state.result = response;
  state.error = null;
  state.entry = null;
  // The MJ's device at a live table: a secret roll stays in the MJ's log only, a roll sent to one
  // player reaches that player's private doc only (views/audience.js).
  const kept = app.addLog({
    kind: "roll",
    label: response.expr,
    request: { op: "roll", expr: response.expr, seed: response.seed },
    result: { total: response.total, terms: response.terms },
    ...(secretAllowed(app) ? (state.secret ? { to: "mj" } : {}) : audienceOf(app)),
  });
  // The roll's log entry, for "Partager" under the result (on a phone: the entry the MJ's device
  // logged, which arrives with the table).
  if (kept) state.entry = response.logged ?? app.doc.log.at(-1)?.id ?? null;
  app.rerender();
}

/** A preset die: its expression goes in the field (its odds follow) and, once the engine is
 * up, it is rolled at once ("a preset button rolls at once"). Before the engine is
 * ready it only fills the field, as the roll button says why it waits. */
function quickRoll(app, expr) {
  clearTimeout(debounce);
  state.expr = expr;
  refreshOdds(app);
  if (app.engineAnswers()) roll(app);
  else app.rerender();
}

let started = false;

export function render(app) {
  const ready = app.engineAnswers();
  if (ready && !started) {
    started = true;
    refreshOdds(app);
  }
  const odds = state.odds;
  return html`
    <h1>${t("tray.title")}</h1>
    <form class="card stack" @submit=${(e) => roll(app, e)} novalidate>
      <div class="field">
        <label for="dice-expr">${t("tray.expression")}</label>
        <div class="row">
          <input id="dice-expr" class="expr-input" name="expr" autocomplete="off" spellcheck="false"
            inputmode="text" maxlength="200" .value=${state.expr}
            aria-describedby="dice-help dice-error" aria-invalid=${state.error ? "true" : "false"}
            @input=${(e) => { state.expr = e.target.value; scheduleOdds(app); }}>
          <button class="primary" type="submit" id="roll-button" ?disabled=${!ready || state.busy}>
            ${t("tray.roll")}
          </button>
        </div>
        <p id="dice-help" class="muted small">${t("tray.help")}</p>
        <p id="dice-error" class="field-error" role="alert">${state.error ? errorMessage(state.error) : nothing}</p>
      </div>
      <div class="quick-dice" role="group" aria-label=${t("tray.quick")} aria-describedby="quick-help">
        ${QUICK.map(
          (q) => html`<button type="button" class="quick" data-expr=${q}
            @click=${() => quickRoll(app, q)}>${q}</button>`,
        )}
      </div>
      <p id="quick-help" class="muted small">${t("tray.quick_help")}</p>
      ${audienceField(app, "roll-to")}${secretField(app)}
      <div class="field">
        <label for="at-least">${t("tray.at_least")}</label>
        <input id="at-least" type="number" inputmode="numeric" .value=${state.atLeast}
          @input=${(e) => { state.atLeast = e.target.value; scheduleOdds(app); }}>
      </div>
      ${ready ? nothing : html`<p class="muted" role="status">${t("engine.wait_for_roll")}</p>`}
    </form>

    <div class="two-cols">
      <section class="card" aria-labelledby="result-title" id="roll-result">
        <h2 id="result-title">${t("tray.result")}</h2>
        ${state.result ? renderDiceResult(state.result) : html`<p class="muted">${t("tray.no_roll")}</p>`}
        ${state.result && state.entry && app.doc.log.some((e) => e.id === state.entry)
          ? html`<div class="share-here-bar">${shareButton(`entry:${state.entry}`, state.result.expr)}</div>` : nothing}
      </section>
      <section class="card" aria-labelledby="odds-title" id="odds">
        <h2 id="odds-title">${t("tray.odds")}${odds ? html` — <span class="mono">${odds.expr}</span>` : nothing}</h2>
        ${odds
          ? html`
              <div class="summary-stats">
                <span>${t("tray.min")} <strong>${odds.min}</strong></span>
                <span>${t("tray.max")} <strong>${odds.max}</strong></span>
                <span>${t("tray.mean")} <strong>${formatFraction(odds.mean)}</strong></span>
              </div>
              ${odds.at_least
                ? html`<p id="at-least-odds">${t("tray.p_at_least", { n: odds.at_least.n })}
                    <strong>${formatPercent(odds.at_least.percent)}</strong>
                    <span class="muted small">(${odds.at_least.p})</span></p>`
                : nothing}
              ${renderDistribution(odds.distribution, t("tray.total"))}
            `
          : html`<p class="muted">${!ready ? t("engine.loading") : state.error ? t("tray.odds_need_valid") : t("tray.no_odds")}</p>`}
      </section>
    </div>
  `;
}

function formatFraction(text) {
  const [num, den] = String(text).split("/").map(Number);
  if (!den) return text;
  return formatNumber(num / den);
}

export { formatFraction };

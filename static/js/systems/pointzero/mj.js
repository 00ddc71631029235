// The MJ's screen (#/pointzero/mj): the Jauge de Tension with its secret threshold (1..10), the
// points left before Tension critique, the entries, a new scenario (the gauge emptied, a new
// threshold), and the table's reading of Tension dice below the attribute (a public setting). The only Point Zéro module that reads the threshold (pointzero.mj.view).
// Wording: Point Zéro's text says "le MJ" (rules 002): so do the pointzero strings
// (tests/test_mj_wording.py). From 60rem the gauge sits beside the two settings (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { said, t } from "../../i18n.js";
import { requestCache, onUndo } from "../../views/ui.js";
import { backLink, errorLine, ready, stateOp, storedState } from "./common.js";

const ui = { threshold: "", next: "", error: null, message: "", confirmNew: false };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: "", error: null, confirmNew: false }));
const mjView = requestCache({ keepStale: true });

const thresholdValue = (v) => (v === "" ? null : Number(v));

async function setThreshold(app) {
  const threshold = thresholdValue(ui.threshold);
  const r = await stateOp(app, ui, (state) => ({ op: "pointzero.mj.threshold", state, threshold }));
  if (!r) return;
  ui.message = () => (r.view.threshold === null ? t("pointzero.ui.mj_threshold_cleared") : t("pointzero.ui.mj_threshold_set", { n: r.view.threshold }));
  app.rerender();
}

/** A table setting (public): how Tension dice count when the skill is below the attribute. */
async function setTensionRule(app, rule) {
  const r = await stateOp(app, ui, (state) => ({ op: "pointzero.settings.tension_rule", state, tension_rule: rule }));
  if (!r) return;
  ui.message = () => t("pointzero.ui.tension_rule_saved", { rule: t(`pointzero.ui.tension_rule_${rule}`) });
  app.rerender();
}

async function newScenario(app) {
  const next = ui.next;
  const r = await stateOp(app, ui, (state) => ({ op: "pointzero.mj.new_scenario", state, threshold: thresholdValue(next) }));
  if (!r) return;
  ui.confirmNew = false;
  ui.threshold = next;
  ui.message = () => t("pointzero.ui.mj_new_scenario_done", { n: r.view.scenario });
  app.rerender();
}

function thresholdSelect(id, value, onChange) {
  return html`<select id=${id} @change=${(e) => onChange(e.target.value)}>
    <option value="" ?selected=${value === ""}>${t("pointzero.ui.mj_no_threshold")}</option>
    ${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option value=${String(n)} ?selected=${String(n) === value}>${n}</option>`)}
  </select>`;
}

export function render(app) {
  const answer = mjView(app, { op: "pointzero.mj.view", state: storedState(app.doc) });
  const view = answer && !answer.error ? answer.view : null;
  if (view && ui.threshold === "" && view.threshold !== null && !ui.touched) ui.threshold = String(view.threshold);
  const dis = !ready(app);
  return html`
    ${backLink("#/pointzero", t("pointzero.ui.back_players"))}
    <h1>${t("pointzero.ui.mj_title")}</h1>
    <p class="notice warning">${t("pointzero.ui.mj_warning")}</p>
    <div role="status" aria-live="polite" data-testid="pz-mj-status">
      ${errorLine(ui.error)}
      ${ui.message ? html`<p>${said(ui.message)}</p>` : nothing}
    </div>
    <div class="split" data-testid="pz-mj-split"><div>
    <section class="card" aria-labelledby="pz-mj-gauge-title">
      <h2 id="pz-mj-gauge-title">${t("pointzero.ui.tension_title")}</h2>
      ${view ? html`<dl class="facts" data-testid="pz-mj-view" data-threshold=${view.threshold ?? "none"} data-gauge=${view.gauge}>
          <dt>${t("pointzero.ui.mj_scenario")}</dt><dd>${view.scenario}</dd>
          <dt>${t("pointzero.ui.mj_gauge")}</dt><dd data-testid="pz-mj-gauge">${view.gauge}</dd>
          <dt>${t("pointzero.ui.mj_threshold")}</dt><dd data-testid="pz-mj-threshold">${view.threshold ?? t("pointzero.ui.mj_no_threshold")}</dd>
          <dt>${t("pointzero.ui.mj_left")}</dt><dd>${view.left ?? "—"}</dd>
        </dl>
        ${view.threshold !== null ? html`<meter class="pz-meter" min="0" max=${view.threshold} value=${Math.min(view.gauge, view.threshold)}
          aria-label=${t("pointzero.ui.mj_meter", { gauge: view.gauge, threshold: view.threshold })}></meter>` : nothing}
        ${view.critical ? html`<p class="pz-critical" data-testid="pz-critical">${t("pointzero.ui.critical_banner")}</p>` : nothing}
        ${view.entries.length ? html`<ol class="pz-entries">${view.entries.map((e) => html`<li>${e.who ? html`<strong>${e.who}</strong> — ` : nothing}${e.kind === "dice" ? t("pointzero.ui.entry_dice") : e.note}</li>`)}</ol>` : html`<p class="muted">${t("pointzero.ui.mj_empty")}</p>`}`
      : html`<p class="muted">${t("pointzero.ui.loading")}</p>`}
    </section>
    </div><div>
    <section class="card" aria-labelledby="pz-mj-threshold-title">
      <h2 id="pz-mj-threshold-title">${t("pointzero.ui.mj_threshold_title")}</h2>
      <p class="muted small">${t("pointzero.ui.mj_threshold_help")}</p>
      <div class="row">
        <div class="field"><label for="pz-mj-threshold-input">${t("pointzero.ui.mj_threshold")}</label>
          ${thresholdSelect("pz-mj-threshold-input", ui.threshold, (v) => { ui.threshold = v; ui.touched = true; })}</div>
        <button type="button" class="primary" id="pz-mj-threshold-save" ?disabled=${dis} @click=${() => setThreshold(app)}>${t("pointzero.ui.mj_threshold_save")}</button>
      </div>
    </section>
    <section class="card" aria-labelledby="pz-mj-rule-title">
      <h2 id="pz-mj-rule-title">${t("pointzero.ui.tension_rule_title")}</h2>
      <p class="muted small">${t("pointzero.ui.tension_rule_help")}</p>
      <div class="field"><label for="pz-mj-tension-rule">${t("pointzero.ui.tension_rule")}</label>
        <select id="pz-mj-tension-rule" data-rule=${view?.tension_rule ?? ""} ?disabled=${dis || !view} @change=${(e) => setTensionRule(app, e.target.value)}>
          ${["missing_dice", "difference"].map((rule) => html`<option value=${rule} ?selected=${view?.tension_rule === rule}>${t(`pointzero.ui.tension_rule_${rule}`)}</option>`)}
        </select></div>
    </section>
    <section class="card" aria-labelledby="pz-mj-new-title">
      <h2 id="pz-mj-new-title">${t("pointzero.ui.mj_new_scenario")}</h2>
      <p class="muted small">${t("pointzero.ui.mj_new_scenario_help")}</p>
      <div class="row">
        <div class="field"><label for="pz-mj-next">${t("pointzero.ui.mj_next_threshold")}</label>
          ${thresholdSelect("pz-mj-next", ui.next, (v) => { ui.next = v; })}</div>
        ${ui.confirmNew
          ? html`<span role="group" class="row" aria-label=${t("pointzero.ui.mj_new_confirm")}>
              <span>${t("pointzero.ui.mj_new_confirm")}</span>
              <button type="button" class="danger" id="pz-mj-new-yes" ?disabled=${dis} @click=${() => newScenario(app)}>${t("pointzero.ui.mj_new_yes")}</button>
              <button type="button" @click=${() => { ui.confirmNew = false; app.rerender(); }}>${t("pointzero.ui.cancel")}</button></span>`
          : html`<button type="button" id="pz-mj-new" ?disabled=${dis} @click=${() => { ui.confirmNew = true; app.rerender(); }}>${t("pointzero.ui.mj_new_scenario")}</button>`}
      </div>
    </section>
    </div></div>
  `;
}

// Point Zéro UI: shared helpers. Every rule lives in Python (tablee.systems.pointzero).
// Hidden information: the Jauge de Tension's threshold is in doc.systems.pointzero. Player
// pages never read it: they show `pointzero.tension.view` (gauge, Tension critique, entries)
// and hand the stored state to the ops without looking inside; only mj.js reads the MJ view.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, t, tn } from "../../i18n.js";
import { findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { engineChange, engineData, fieldProblems, loadStylesheet, probability, putSystem, requestCache } from "../../views/ui.js";

export { replaceCharacter } from "../../views/characters.js";

export const SYSTEM = "pointzero";
export const DIFFICULTIES = ["facile", "moyen", "difficile", "tres_difficile", "heroique"];
export const DIFF_VALUE = { facile: 5, moyen: 10, difficile: 15, tres_difficile: 20, heroique: 25 };
export const MODIFIERS = ["legere_defavorable", "legere_favorable", "forte_defavorable", "forte_favorable"];
export const MOD_VALUE = { legere_defavorable: 2, legere_favorable: -2, forte_defavorable: 5, forte_favorable: -5 };
export const EMPTY_STATE = Object.freeze({ threshold: null, scenario: 1, entries: [] });

export function ensureStyles() {
  loadStylesheet(new URL("../../../css/pointzero.css", import.meta.url).href);
}

/** pointzero.rules, fetched once. */
export const rules = engineData("pointzero.rules");

export function ready(app) {
  return app.engineAnswers();
}

export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);

export function nameOf(c) {
  return c?.name?.trim() || t("pointzero.ui.unnamed");
}

/** The table state, passed to the ops as stored (never read here: it holds the MJ's secret). */
export function storedState(doc) {
  return doc.systems?.pointzero ?? structuredClone(EMPTY_STATE);
}

export function saveState(doc, state) {
  putSystem(doc, "pointzero", state);
}

/** An op on the latest Point Zéro table state: `build(state)` gives the request; its answer's
 * state is written only if the state it was computed from is still the saved one, else asked
 * again (views/ui.js engineChange): two quick changes are both applied, in order. */
export function stateOp(app, holder, build) {
  return engineChange(app, holder, {
    request: (doc) => build(storedState(doc)),
    basis: (doc) => doc.systems?.pointzero ?? null,
    apply: (doc, r) => saveState(doc, r.state),
    shallow: true,
    label: (answer, req) => {
      const key = CHANGE_LABELS[req.op];
      if (!key) return null;
      return req.who ? { key, params: { who: req.who } } : { key: key === "pointzero.change.tension" ? "pointzero.change.tension_anon" : key, params: {} };
    },
  });
}

/** What each change of the table state is called in the undo bar and the Table page ("Table
 * Point Zéro modifiée" said nothing of which); the secret threshold's value is never named. */
const CHANGE_LABELS = {
  "pointzero.tension.use": "pointzero.change.tension", "pointzero.mj.threshold": "pointzero.change.threshold",
  "pointzero.settings.tension_rule": "pointzero.change.tension_rule", "pointzero.mj.new_scenario": "pointzero.change.new_scenario",
};

const playerView = requestCache({ keepStale: true });

/** What players see of the Jauge de Tension ({gauge, critical, scenario, entries}), or null. */
export function tensionView(app) {
  const r = playerView(app, { op: "pointzero.tension.view", state: storedState(app.doc) });
  return r && !r.error ? r.view : null;
}

/** Ask whether one Tension point (kind "dice" or "other") can be used: the engine's answer,
 * nothing written (`recordTensionPoint` writes it). */
export async function useTensionPoint(app, kind, who, note = "") {
  return app.call({ op: "pointzero.tension.use", state: storedState(app.doc), kind, who: who.slice(0, 80), note: note.slice(0, 200) });
}

/** Write one Tension point, recorded on the latest table state (stateOp), never on the state
 * read before the roll: the answer, or null (the refusal in `holder.error`). */
export function recordTensionPoint(app, holder, kind, who, note = "") {
  return stateOp(app, holder, (state) => ({ op: "pointzero.tension.use", state, kind, who: who.slice(0, 80), note: note.slice(0, 200) }));
}

/** The gauge as players see it: its points, and Tension critique when reached. */
export function renderGauge(view, { id = "pz-gauge" } = {}) {
  if (!view) return html`<p class="muted">${t("pointzero.ui.loading")}</p>`;
  return html`<div class="pz-gauge" data-testid=${id} data-gauge=${view.gauge} data-critical=${String(view.critical)}>
    <p class="pz-big"><span data-testid="pz-gauge-points">${view.gauge}</span>
      <span class="small muted">${tn("pointzero.ui.gauge_point", view.gauge)}</span></p>
    ${view.critical ? html`<p class="pz-critical" role="status" data-testid="pz-critical">${t("pointzero.ui.critical_banner")}</p>` : nothing}
  </div>`;
}

/** A probability {p, percent}: the percent, the exact fraction beside it. */
export function prob(pr, testid) {
  if (!pr) return nothing;
  return probability(pr.p, pr.percent, { testid, cls: "pz-prob" });
}

export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("pz");

export function backLink(href, label) {
  return html`<p class="pz-back"><a href=${href}>← ${label}</a></p>`;
}

export function errorLine(error, testid = "pz-error") {
  return error ? html`<p class="field-error" role="alert" data-testid=${testid}>${errorMessage(error)}</p>` : nothing;
}

/** A roll-log "terms" entry: the dice rolled, kept and dropped (views/log.js lists them). */
export function diceTerm(result, text) {
  return { kind: "dice", text, sign: 1, dice: result.dice.map((d) => ({ value: d.value, kept: d.kept })) };
}

/** The verdict of a resolved test, in words. */
export function verdict(r) {
  if (r.critical === "success") return t("pointzero.ui.critical_success");
  if (r.critical === "failure") return t("pointzero.ui.critical_failure");
  return r.success ? t("pointzero.ui.success") : t("pointzero.ui.failure");
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// The MJ's screen (#/versality/mj): degradation tokens, the catastrophe scale with its band
// and meaning, power uses (1–5 points, hidden from players), session start (tokens from
// debts), manual adjustments, end of scenario. The only page that shows MJ-only data, and
// only on a device where "Je suis MJ" was chosen (static/js/share/mj-mode.js, the one choice
// for every system): elsewhere the route shows that choice instead of the values.
// Wording: Versality's text is epicene ("le ou la MJ", "au Meneur, ou à la Meneuse", rules 001):
// the versality strings say "le ou la MJ" or "MJ" with no article (tests/test_mj_wording.py).
// At 60rem the panels sit in two columns (shared .split): the scales, then the MJ's actions.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { live } from "../../../vendor/lit-html/directives/live.js";
import { said, t } from "../../i18n.js";
import { engineChange, putSystem, onUndo } from "../../views/ui.js";
import { backLink, characters, nameOf, ready, replaceCharacter, rules, tn, onNavigate, vsError } from "./common.js";
import { fullState as tableState } from "./table.js";

const ui = { power: { character: "", points: 1, note: "" }, error: null, message: null,
  scenario: { objective: false, unhurt: new Map() }, confirmAward: false };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: null, error: null, confirmAward: false }));

onNavigate(() => {
  Object.assign(ui, { error: null, message: null, confirmAward: false });
});

function bandOf(value, bands) {
  return bands?.find((b) => value >= b.min && (b.max === null || value <= b.max))?.id ?? null;
}

/**
 * An MJ op on the latest table (views/ui.js engineChange): `build(state, list)` makes the
 * request from the state and the characters as saved when its turn comes (never from the copy
 * the page showed when clicked); the answer's state, and its `characters` when it has some,
 * are written only if neither changed meanwhile, else it is asked again. `after(answer)` says
 * what happened once it is saved.
 */
async function run(app, build, after) {
  const r = await engineChange(app, ui, {
    request: (doc) => build(tableState(doc), characters(doc)),
    basis: (doc) => [doc.systems?.versality ?? null, characters(doc)],
    apply: (doc, answer) => {
      putSystem(doc, "versality", answer.state);
      for (const c of answer.characters ?? []) replaceCharacter(doc, c);
    },
    shallow: true,
    label: (answer, req) => changeLabel(req),
  });
  if (r) {
    after(r);
    app.rerender();
  }
}

/** What an MJ change is called in the undo bar and the Table page ("Table Versality modifiée"
 * said nothing of which); the secret values themselves are never named there. */
function changeLabel(req) {
  if (req.op === "versality.mj.adjust") return { key: req.catastrophe !== undefined ? "versality.change.catastrophe" : "versality.change.tokens", params: {} };
  const key = { "versality.power.use": "versality.change.power_use", "versality.session.start": "versality.change.session",
    "versality.scenario.award": "versality.change.award" }[req.op];
  return key ? { key, params: {} } : null;
}

function adjust(app, field, delta) {
  run(app, (state) => ({ op: "versality.mj.adjust", state, [field]: delta }), () => {
    ui.message = () => t(`versality.ui.mj_adjusted_${field}`, { delta: delta > 0 ? `+${delta}` : delta });
  });
}

function powerUse(app, list) {
  const id = ui.power.character || list[0]?.id;
  if (!id) return;
  const { points } = ui.power;
  const note = ui.power.note.slice(0, 200);
  run(app, (state, latest) => ({ op: "versality.power.use", state, character_id: id, characters: latest.map((c) => c.id), points, note }), () => {
    ui.message = () => t("versality.ui.mj_power_added", { points });
    ui.power.note = "";
  });
}

function startSession(app) {
  run(app, (state, latest) => ({ op: "versality.session.start", state, characters: latest }), (r) => {
    ui.message = () => tn("versality.ui.mj_session_started", r.tokens_gained, { session: r.state.session });
  });
}

/** End of scenario (versality.scenario.award): once per session, recorded in the table
 * state; a second award in the same session needs the MJ's explicit confirmation. The form
 * is reset after an award so the same boxes are not sent twice by accident. */
function endScenario(app, list, { again = false } = {}) {
  const state = tableState(app.doc);
  if (!again && state.awarded_session === state.session) {
    ui.confirmAward = true;
    app.rerender();
    document.getElementById("vs-award-confirm-title")?.focus();
    return;
  }
  const unhurt = list.filter((c) => ui.scenario.unhurt.get(c.id)).map((c) => c.id);
  const objective = ui.scenario.objective;
  run(app, (latestState, latest) => ({ op: "versality.scenario.award", state: latestState, characters: latest, objective,
    unhurt: unhurt.filter((id) => latest.some((c) => c.id === id)), again }), (r) => {
    const names = new Map(characters(app.doc).map((c) => [c.id, nameOf(c)]));
    ui.message = () => r.awards.map((a) => t("versality.ui.mj_points_earned", { name: names.get(a.character_id), n: a.points.total })).join(" · ");
    ui.scenario = { objective: false, unhurt: new Map() };
    ui.confirmAward = false;
  });
}

function awardConfirm(app, list, state) {
  if (!ui.confirmAward) return nothing;
  return html`<div class="notice warning vs-confirm" role="group" aria-labelledby="vs-award-confirm-title" data-testid="vs-award-confirm">
    <p id="vs-award-confirm-title" tabindex="-1"><strong>${t("versality.ui.mj_award_again_title", { session: state.session })}</strong></p>
    <p>${t("versality.ui.mj_award_again_help")}</p>
    <div class="row">
      <button type="button" class="danger" id="vs-award-again" ?disabled=${!ready(app)} @click=${() => endScenario(app, list, { again: true })}>
        ${t("versality.ui.mj_award_again_yes")}</button>
      <button type="button" id="vs-award-cancel" @click=${() => { ui.confirmAward = false; app.rerender(); }}>${t("versality.ui.cancel")}</button>
    </div>
  </div>`;
}

/** Reshuffles recorded in the roll log (each: catastrophe +1 and one token for the MJ). */
function reshuffleHistory(app) {
  const entries = app.doc.log.filter((e) => e.system === "versality" && e.result?.reshuffles > 0).slice(-5).reverse();
  if (!entries.length) return nothing;
  return html`<section class="card" aria-labelledby="vs-resh-title" data-testid="vs-reshuffles">
    <h2 id="vs-resh-title">${t("versality.ui.mj_reshuffles")}</h2>
    <ul>${entries.map((e) => html`<li>${tn("versality.ui.mj_reshuffle_line", e.result.reshuffles, { name: e.who ?? "—" })}</li>`)}</ul>
  </section>`;
}

export function render(app) {
  const state = tableState(app.doc);
  const list = characters(app.doc);
  const r = rules(app);
  const band = bandOf(state.catastrophe, r?.catastrophe_bands);
  const nameById = new Map(list.map((c) => [c.id, nameOf(c)]));
  const dis = !ready(app);
  return html`
    ${backLink("#/versality", t("versality.ui.back_players"))}
    <h1 id="vs-mj-title" tabindex="-1">${t("versality.ui.mj_title")}</h1>
    <p class="notice warning vs-mj-warning">${t("versality.ui.mj_warning")}</p>
    <div role="status" aria-live="polite" data-testid="vs-mj-status">
      ${ui.error ? html`<p class="field-error">${vsError(ui.error)}</p>` : nothing}
      ${ui.message ? html`<p>${said(ui.message)}</p>` : nothing}
    </div>
    <div class="split" data-testid="vs-mj-split"><div>
    <section class="card" aria-labelledby="vs-cat-title" id="vs-catastrophe">
      <h2 id="vs-cat-title">${t("versality.catastrophe.title")}</h2>
      <p class="vs-big"><span data-testid="vs-catastrophe">${state.catastrophe}</span></p>
      <meter class="vs-meter" min="0" max="20" low="6" high="11" optimum="0" value=${Math.min(state.catastrophe, 20)}
        aria-label=${t("versality.catastrophe.title")}></meter>
      <ol class="vs-bands">
        ${(r?.catastrophe_bands ?? []).map((b) => html`<li class=${b.id === band ? "current" : ""} data-band=${b.id}
          aria-current=${b.id === band ? "true" : "false"}>
          <strong>${b.max === null ? t("versality.ui.band_from", { min: b.min }) : t("versality.ui.band_range", { min: b.min, max: b.max })}</strong>
          — ${t(`versality.catastrophe.${b.id}`)}</li>`)}
      </ol>
      <div class="row" role="group" aria-label=${t("versality.ui.mj_adjust_catastrophe")}>
        <button type="button" ?disabled=${dis} @click=${() => adjust(app, "catastrophe", -1)} aria-label=${t("versality.ui.mj_cat_minus")}>−1</button>
        <button type="button" ?disabled=${dis} @click=${() => adjust(app, "catastrophe", 1)} aria-label=${t("versality.ui.mj_cat_plus")}>+1</button>
      </div>
    </section>
    ${reshuffleHistory(app)}
    <section class="card" aria-labelledby="vs-tokens-title" id="vs-tokens-box">
      <h2 id="vs-tokens-title">${t("versality.tokens.title")}</h2>
      <p class="vs-big"><span data-testid="vs-tokens">${state.tokens}</span></p>
      <p class="muted small">${t("versality.ui.tokens_help")}</p>
      <div class="row" role="group" aria-label=${t("versality.ui.mj_adjust_tokens")}>
        <button type="button" ?disabled=${dis} @click=${() => adjust(app, "tokens", -1)} aria-label=${t("versality.ui.mj_tokens_minus")}>−1</button>
        <button type="button" ?disabled=${dis} @click=${() => adjust(app, "tokens", 1)} aria-label=${t("versality.ui.mj_tokens_plus")}>+1</button>
      </div>
    </section>
    </div><div>
    <section class="card" aria-labelledby="vs-power-title">
      <h2 id="vs-power-title">${t("versality.ui.mj_power_title")}</h2>
      <p class="muted small">${t("versality.ui.mj_power_help")}</p>
      ${list.length === 0 ? html`<p class="muted">${t("versality.ui.no_characters")}</p>` : html`
        <div class="vs-form-grid">
          <div class="field"><label for="vs-power-char">${t("versality.ui.character")}</label>
            <select id="vs-power-char" @change=${(e) => { ui.power.character = e.target.value; }}>
              ${list.map((c) => html`<option value=${c.id} ?selected=${c.id === ui.power.character}>${nameOf(c)}</option>`)}
            </select></div>
          <div class="field"><label for="vs-power-points">${t("versality.ui.mj_power_points")}</label>
            <select id="vs-power-points" @change=${(e) => { ui.power.points = Number(e.target.value); }}>
              ${[1, 2, 3, 4, 5].map((n) => html`<option value=${n} ?selected=${n === ui.power.points}>${n}</option>`)}
            </select></div>
        </div>
        <div class="field"><label for="vs-power-note">${t("versality.ui.mj_power_note")}</label>
          <input id="vs-power-note" maxlength="200" .value=${ui.power.note} @input=${(e) => { ui.power.note = e.target.value; }}></div>
        <button type="button" ?disabled=${dis} id="vs-power-add" @click=${() => powerUse(app, list)}>${t("versality.ui.mj_power_add")}</button>`}
      ${state.power_uses.length ? html`<ol class="vs-power-list" data-testid="vs-power-uses">
        ${[...state.power_uses].reverse().slice(0, 20).map((u) => html`<li>${nameById.get(u.character_id) ?? "—"} : +${u.points}${u.note ? ` — ${u.note}` : ""}</li>`)}
      </ol>` : nothing}
    </section>
    <section class="card" aria-labelledby="vs-session-title">
      <h2 id="vs-session-title">${t("versality.ui.mj_session_title")}</h2>
      <p>${t("versality.ui.mj_session_n", { n: state.session })}</p>
      <p class="muted small">${t("versality.ui.mj_session_help")}</p>
      <button type="button" ?disabled=${dis} id="vs-session-start" @click=${() => startSession(app)}>${t("versality.ui.mj_session_start")}</button>
    </section>
    <section class="card" aria-labelledby="vs-end-title">
      <h2 id="vs-end-title">${t("versality.ui.mj_end_title")}</h2>
      <p class="muted small">${t("versality.ui.mj_end_help")}</p>
      <label class="check"><input type="checkbox" id="vs-objective" .checked=${live(ui.scenario.objective)} @change=${(e) => { ui.scenario.objective = e.target.checked; }}> ${t("versality.points.objective")}</label>
      <fieldset><legend>${t("versality.points.survived_unhurt")}</legend>
        ${list.map((c) => html`<label class="check"><input type="checkbox" .checked=${live(Boolean(ui.scenario.unhurt.get(c.id)))}
          @change=${(e) => { ui.scenario.unhurt.set(c.id, e.target.checked); }}> ${nameOf(c)}</label>`)}
      </fieldset>
      ${state.awarded_session === state.session ? html`<p class="small" data-testid="vs-awarded">${t("versality.ui.mj_awarded_in_session", { session: state.session })}</p>` : nothing}
      <button type="button" id="vs-award" ?disabled=${dis || list.length === 0 || ui.confirmAward} @click=${() => endScenario(app, list)}>${t("versality.ui.mj_end_do")}</button>
      ${awardConfirm(app, list, state)}
    </section>
    </div></div>
  `;
}

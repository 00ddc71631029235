// SYSTMJ home: the entities (PJ, PNJ, Créatures), the universe and its primary special skills
// (shared by every entity), the phase of play, and the way to the review and the Chronoste.

import { html } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { newId } from "../../storage.js";
import { characterList } from "../../views/characters.js";
import { mjSetting } from "../../views/player-gate.js";
import { onNavigate } from "../../views/ui.js";
import { SYSTEM, errorLine, nameOf, ready, specialSkills, stateOp, tableState } from "./common.js";

const listing = characterList({
  system: SYSTEM, prefix: "sj", ns: "systmj", maxName: 80, nameOf,
});

const ui = { skill: "", da: "1", error: null, busy: false, phaseError: null, confirmRemove: null };

onNavigate(() => Object.assign(ui, { error: null, phaseError: null, confirmRemove: null }));

/** A 12-character id "sp-…" of lower-case letters and digits (the schema's pattern). */
function specialId() {
  return `sp-${newId("x").replace(/[^a-z0-9]/gi, "").toLowerCase().slice(-16)}`;
}

async function addSkill(app, event) {
  event.preventDefault();
  const id = specialId();
  const { skill: name, da } = ui;
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.universe.skill.add", state, id, name, da: Number(da) }));
  if (!r) return;
  if (ui.skill === name) ui.skill = "";
  app.rerender();
  app.notify("status", t("systmj.ui.skill_added"));
}

function removeSkill(app, id) {
  ui.confirmRemove = null;
  const name = specialSkills(tableState(app)).find((s) => s.id === id)?.name ?? "";
  app.update((doc) => {
    const st = doc.systems.systmj;
    st.universe.special_skills = st.universe.special_skills.filter((s) => s.id !== id);
    for (const c of doc.characters) {
      if (c.system === SYSTEM && Object.hasOwn(c.special, id)) delete c.special[id];
    }
  }, { label: { key: "systmj.change.skill_removed", params: { name } } });
}

async function setUniverse(app, value) {
  await stateOp(app, ui, (state) => ({ op: "systmj.universe.set", state, name: value }));
}

async function phase(app, request) {
  await stateOp(app, ui, (state) => ({ ...request, state }), { errorKey: "phaseError" });
}

function universeCard(app, state) {
  const skills = specialSkills(state);
  return html`<section class="card" aria-labelledby="sj-universe-title">
    <h2 id="sj-universe-title">${t("systmj.ui.universe")}</h2>
    <div class="field"><label for="sj-universe-name">${t("systmj.ui.universe_name")}</label>
      <input id="sj-universe-name" maxlength="60" .value=${state.universe.name} ?disabled=${!ready(app)}
        @change=${(e) => setUniverse(app, e.target.value)}></div>
    <h3>${t("systmj.ui.special_skills")}</h3>
    <p class="muted small">${t("systmj.ui.special_help")}</p>
    ${skills.length ? html`<ul class="sj-specials" data-testid="sj-specials">
      ${skills.map((s) => html`<li><span>${s.name}</span> <span class="muted small">${t("systmj.ui.da_n", { n: s.da })}</span>
        ${ui.confirmRemove === s.id
          ? html`<span role="group" class="row" aria-label=${t("systmj.ui.confirm_remove", { name: s.name })}>
              <span>${t("systmj.ui.confirm_remove", { name: s.name })}</span>
              <button type="button" class="danger" data-testid="sj-confirm-remove" @click=${() => removeSkill(app, s.id)}>${t("systmj.ui.remove_yes")}</button>
              <button type="button" @click=${() => { ui.confirmRemove = null; app.rerender(); }}>${t("systmj.ui.cancel")}</button></span>`
          : html`<button type="button" class="danger" @click=${() => { ui.confirmRemove = s.id; app.rerender(); }}>${t("systmj.ui.remove")}<span class="visually-hidden"> ${s.name}</span></button>`}</li>`)}
    </ul>` : html`<p class="muted">${t("systmj.ui.no_special")}</p>`}
    <form class="sj-grid" @submit=${(e) => addSkill(app, e)}>
      <div class="field"><label for="sj-special-name">${t("systmj.ui.special_name")}</label>
        <input id="sj-special-name" maxlength="60" autocomplete="off" .value=${ui.skill}
          aria-invalid=${ui.error ? "true" : "false"} aria-describedby="sj-special-error"
          @input=${(e) => { ui.skill = e.target.value; }}></div>
      <div class="field"><label for="sj-special-da">${t("systmj.ui.da")}</label>
        <select id="sj-special-da" @change=${(e) => { ui.da = e.target.value; }}>
          ${[1, 2, 3, 4, 5].map((n) => html`<option value=${String(n)} ?selected=${String(n) === ui.da}>${t(`systmj.da.${n}`)}</option>`)}
        </select></div>
      <div class="field sj-end"><button type="submit" id="sj-special-add" ?disabled=${!ready(app) || ui.busy}>${t("systmj.ui.add")}</button></div>
    </form>
    <div id="sj-special-error">${errorLine(ui.error, state)}</div>
  </section>`;
}

function phaseCard(app, state) {
  const action = state.phase === "action_mouvement";
  return html`<section class="card" aria-labelledby="sj-phase-title">
    <h2 id="sj-phase-title">${t("systmj.ui.phase")}</h2>
    <p aria-live="polite"><strong data-testid="sj-phase-now">${action ? t("systmj.ui.phase_round", { phase: t("systmj.phase.action_mouvement"), round: state.round }) : t("systmj.phase.jeu_libre")}</strong></p>
    <div class="row">
      ${action
        ? html`<button type="button" id="sj-next-round" ?disabled=${!ready(app)} @click=${() => phase(app, { op: "systmj.phase.next_round" })}>${t("systmj.ui.next_round")}</button>
               <button type="button" ?disabled=${!ready(app)} @click=${() => phase(app, { op: "systmj.phase.set", phase: "jeu_libre" })}>${t("systmj.ui.to_free")}</button>`
        : html`<button type="button" id="sj-to-action" ?disabled=${!ready(app)} @click=${() => phase(app, { op: "systmj.phase.set", phase: "action_mouvement" })}>${t("systmj.ui.to_action")}</button>`}
    </div>
    ${errorLine(ui.phaseError, state)}
  </section>`;
}

export function render(app) {
  const state = tableState(app);
  const kind = (c) => t(`systmj.kind.${c.kind}`);
  return html`
    <h1>${t("systmj.ui.title")}</h1>
    <p class="muted">${t("systmj.ui.intro")}</p>
    ${listing.render(app, { meta: (c) => `${kind(c)}${c.language ? ` · ${c.language}` : ""}` })}
    <nav class="card row" aria-label=${t("systmj.ui.tools")}>
      <a class="button" href="#/systmj/review" id="sj-review-link">${t("systmj.ui.review")}</a>
      <a class="button" href="#/systmj/chronoste" id="sj-chronoste-link">${t("systmj.ui.chronoste")}</a>
      <a class="button" href="#/systmj/cards" id="sj-cards-link">${t("systmj.cards.title")}</a>
      <a class="button" href="#/systmj/combat" id="sj-combat-link">${t("systmj.combat.title")}</a>
    </nav>
    ${state ? mjSetting(html`${universeCard(app, state)}${phaseCard(app, state)}`) : html`<p class="muted">${t("systmj.ui.engine_wait")}</p>`}
  `;
}


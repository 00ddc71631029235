// Point Zéro character sheet: name, attributes (code, name, level), skills (name, level),
// atouts (Méticuleux and free text), notes. Every change is checked by
// pointzero.character.check; a sheet with a problem is not saved: the problem shows at its
// field and the saved character stays as it was until the value is corrected.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { live } from "../../../vendor/lit-html/directives/live.js";
import { said, t, tn } from "../../i18n.js";
import { focusFirstInvalid, touchedForm, typedValue } from "../../views/forms.js";
import { disabledWhy } from "../../views/ui.js";
import {
  backLink, fieldErrors, fieldId, findCharacter, hasProblem, nameOf, ready, rules,
} from "./common.js";

const METICULEUX = "Méticuleux";
const ui = { id: null, draft: null, check: null, asked: null, saved: "", previewAsked: null, unsaved: [] };
// Which problems are shown: a field's once it was left (or changed), all once the player asks
// to see why a change was not saved (views/forms.js).
const form = touchedForm();

/** The sheet being edited: the saved character, or the draft a problem keeps unsaved. */
function draftOf(c) {
  const savedKey = JSON.stringify(c);
  const clean = !ui.check || ui.check.valid;
  if (ui.id !== c.id || (clean && ui.asked === null && savedKey !== JSON.stringify(ui.draft))) {
    Object.assign(ui, { id: c.id, draft: structuredClone(c), check: null, asked: null, unsaved: [] });
  }
  return ui.draft;
}

/** While a field already left is being typed in: check the draft as typed (nothing is saved,
 * the draft is unchanged) so its message follows the typing. */
async function preview(app, field, mutate) {
  if (!form.shows(field) || !ready(app)) return;
  const draft = structuredClone(ui.draft);
  mutate(draft);
  const key = JSON.stringify(draft);
  ui.previewAsked = key;
  const r = await app.call({ op: "pointzero.character.check", character: draft });
  if (ui.previewAsked !== key || ui.asked !== null) return;
  ui.previewAsked = null;
  if (!r.error) {
    ui.check = r;
    app.rerender();
  }
}

/** An edit of the sheet: applied to the draft at once and checked; once the draft is valid, the
 * edits not yet saved are written, in order, to the character as it is in the latest table
 * (app.update), never the whole draft: a change another tab, the test page or a live peer made
 * to the same character meanwhile is kept. */
async function change(app, mutate) {
  ui.previewAsked = null;
  mutate(ui.draft);
  ui.unsaved.push(mutate);
  const draft = structuredClone(ui.draft);
  const key = JSON.stringify(draft);
  ui.asked = key;
  app.rerender();
  const r = await app.call({ op: "pointzero.character.check", character: draft });
  if (ui.asked !== key) return;
  ui.asked = null;
  ui.check = r.error ? { valid: false, problems: [{ field: "", ...r.error }] } : r;
  if (ui.check.valid) {
    ui.saved = () => t("pointzero.ui.saved");
    const edits = ui.unsaved.splice(0);
    const id = draft.id;
    app.update((doc) => {
      const cur = doc.characters.find((x) => x.id === id);
      if (cur) for (const edit of edits) edit(cur);
    });
  } else {
    ui.saved = "";
    app.rerender();
  }
}

/** The value of a level input: an integer when it is one, else the raw text (refused at the field). */
function levelValue(text) {
  const trimmed = text.trim();
  const n = Number(trimmed);
  return trimmed !== "" && Number.isFinite(n) ? n : trimmed;
}

const describedBy = (field) => fieldId(field);
/** The check with only the problems to show. */
const shown = () => form.visible(ui.check);
const invalid = (field) => (hasProblem(shown(), field) ? "true" : "false");

function levelInput(app, id, field, value, label, apply, { errors = true } = {}) {
  return html`<div class="field pz-level">
    <label for=${id}>${t("pointzero.ui.level")}<span class="visually-hidden"> (${label})</span></label>
    <input id=${id} type="number" inputmode="numeric" min="0" max="10" step="1" .value=${typedValue(String(value))}
      aria-invalid=${invalid(field)} aria-describedby=${describedBy(field)}
      @input=${(e) => preview(app, field, (d) => apply(d, levelValue(e.target.value)))}
      @blur=${form.leave(app, field)}
      @change=${(e) => { const v = levelValue(e.target.value); form.touch(field); change(app, (d) => apply(d, v)); }}>
    ${errors ? fieldErrors(shown(), field) : nothing}
  </div>`;
}

function textInput(app, id, field, value, label, max, apply, { errors = true } = {}) {
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} maxlength=${max} autocomplete="off" .value=${typedValue(value)}
      aria-invalid=${invalid(field)} aria-describedby=${describedBy(field)}
      @input=${(e) => preview(app, field, (d) => apply(d, e.target.value))}
      @blur=${form.leave(app, field)}
      @change=${(e) => { const v = e.target.value; form.touch(field); change(app, (d) => apply(d, v)); }}>
    ${errors ? fieldErrors(shown(), field) : nothing}
  </div>`;
}

/** A row's field problems under the whole row (full width, still each at its own id). */
function rowErrors(fields) {
  return html`<div class="pz-row-errors">${fields.map((f) => fieldErrors(shown(), f))}</div>`;
}

function attributesSection(app, d) {
  return html`<fieldset class="card" id="pz-attributes">
    <legend>${t("pointzero.ui.attributes")}</legend>
    <p class="muted small">${t("pointzero.ui.attributes_help")}</p>
    <ul class="pz-rows">
      ${d.attributes.map((a, i) => html`<li class="pz-row" data-testid="pz-attribute" data-code=${a.code}>
        ${textInput(app, `pz-attr-${i}-code`, `attributes.${i}.code`, a.code, t("pointzero.ui.code"), 3, (x, v) => { x.attributes[i].code = v.trim().toUpperCase(); }, { errors: false })}
        ${textInput(app, `pz-attr-${i}-name`, `attributes.${i}.name`, a.name, t("pointzero.ui.attribute_name"), 40, (x, v) => { x.attributes[i].name = v; }, { errors: false })}
        ${levelInput(app, `pz-attr-${i}-level`, `attributes.${i}.level`, a.level, a.name || a.code, (x, v) => { x.attributes[i].level = v; }, { errors: false })}
        ${rowErrors([`attributes.${i}.code`, `attributes.${i}.name`, `attributes.${i}.level`])}
        ${removeButton(`pz-attr-${i}-remove`, d.attributes.length <= 1 ? t("pointzero.ui.why_one_attribute") : null,
          () => change(app, (x) => { x.attributes.splice(i, 1); }), a.name)}
      </li>`)}
    </ul>
    ${fieldErrors(shown(), "attributes")}
    ${limitedButton("pz-add-attribute", d.attributes.length >= 12 ? t("pointzero.ui.why_max", { n: 12 }) : null,
      () => change(app, (x) => { x.attributes.push({ code: "", name: "", level: 1 }); }), t("pointzero.ui.add_attribute"))}
  </fieldset>`;
}

/** A button disabled with its reason said (ui.disabledWhy). */
function limitedButton(id, reason, onClick, label) {
  const why = disabledWhy(id, reason);
  return html`<button type="button" id=${id} ?disabled=${Boolean(reason)} aria-describedby=${why.id} @click=${onClick}>${label}</button>${why.note}`;
}

function removeButton(id, reason, onClick, name) {
  const why = disabledWhy(id, reason);
  return html`<button type="button" class="danger pz-remove" ?disabled=${Boolean(reason)} aria-describedby=${why.id}
    @click=${onClick}>${t("pointzero.ui.remove")}<span class="visually-hidden"> ${name}</span></button>${why.note}`;
}

function skillsSection(app, d) {
  const codes = d.attributes.map((a) => a.code).join(", ");
  return html`<fieldset class="card" id="pz-skills">
    <legend>${t("pointzero.ui.skills")}</legend>
    <p class="muted small">${t("pointzero.ui.skills_help", { codes })}</p>
    ${d.skills.length === 0 ? html`<p class="muted">${t("pointzero.ui.no_skills")}</p>` : nothing}
    <ul class="pz-rows">
      ${d.skills.map((s, i) => html`<li class="pz-row pz-skill-row" data-testid="pz-skill">
        ${textInput(app, `pz-skill-${i}-name`, `skills.${i}.name`, s.name, t("pointzero.ui.skill_name"), 60, (x, v) => { x.skills[i].name = v; }, { errors: false })}
        ${levelInput(app, `pz-skill-${i}-level`, `skills.${i}.level`, s.level, s.name || t("pointzero.ui.skill_name"), (x, v) => { x.skills[i].level = v; }, { errors: false })}
        ${rowErrors([`skills.${i}.name`, `skills.${i}.level`])}
        <button type="button" class="danger pz-remove" @click=${() => change(app, (x) => { x.skills.splice(i, 1); })}>${t("pointzero.ui.remove")}<span class="visually-hidden"> ${s.name}</span></button>
      </li>`)}
    </ul>
    <form class="row" @submit=${(e) => { e.preventDefault(); addSkill(app, e.target); }}>
      <div class="field pz-grow"><label for="pz-new-skill">${t("pointzero.ui.new_skill")}</label>
        <input id="pz-new-skill" name="skill" maxlength="60" autocomplete="off" list="pz-skill-ideas"></div>
      <datalist id="pz-skill-ideas">${["Acrobaties", "Aéronefs", "Discrétion", "Informatique", "Mécanique", "Vigilance"].map((n) => html`<option value=${n}></option>`)}</datalist>
      ${skillAdd(d)}
    </form>
  </fieldset>`;
}

function skillAdd(d) {
  const reason = d.skills.length >= 60 ? t("pointzero.ui.why_max", { n: 60 }) : null;
  const why = disabledWhy("pz-add-skill", reason);
  return html`<button type="submit" id="pz-add-skill" ?disabled=${Boolean(reason)} aria-describedby=${why.id}>${t("pointzero.ui.add_skill")}</button>${why.note}`;
}

function addSkill(app, formEl) {
  const input = formEl.elements.skill;
  const name = input.value.trim();
  change(app, (x) => { x.skills.push({ name, level: 1 }); });
  input.value = "";
}

function atoutsSection(app, d) {
  const meticuleux = d.atouts.some((a) => a.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase() === "meticuleux");
  return html`<fieldset class="card" id="pz-atouts">
    <legend>${t("pointzero.ui.atouts")}</legend>
    <label class="check"><input type="checkbox" id="pz-meticuleux" .checked=${live(meticuleux)}
      @change=${(e) => { const on = e.target.checked; change(app, (x) => {
        x.atouts = x.atouts.filter((a) => a.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase() !== "meticuleux");
        if (on) x.atouts.unshift(METICULEUX);
      }); }}> ${t("pointzero.ui.meticuleux")}</label>
    <p class="muted small">${t("pointzero.ui.meticuleux_help")}</p>
    <ul class="pz-rows">
      ${d.atouts.map((a, i) => a === METICULEUX ? nothing : html`<li class="pz-row">
        ${textInput(app, `pz-atout-${i}`, `atouts.${i}`, a, t("pointzero.ui.atout"), 80, (x, v) => { x.atouts[i] = v; })}
        <button type="button" class="danger pz-remove" @click=${() => change(app, (x) => { x.atouts.splice(i, 1); })}>${t("pointzero.ui.remove")}<span class="visually-hidden"> ${a}</span></button>
      </li>`)}
    </ul>
    ${limitedButton("pz-add-atout", d.atouts.length >= 20 ? t("pointzero.ui.why_max", { n: 20 }) : null,
      () => change(app, (x) => { x.atouts.push(""); }), t("pointzero.ui.add_atout"))}
  </fieldset>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  if (!c) return html`${backLink("#/pointzero", t("pointzero.ui.back"))}<p role="alert">${t("pointzero.ui.not_found")}</p>`;
  form.reset(c.id);
  const d = draftOf(c);
  rules(app);
  const pending = ui.check && !ui.check.valid;
  const count = ui.check?.problems?.length ?? 0;
  const hidden = pending && (shown().problems?.length ?? 0) < count;
  return html`
    ${backLink("#/pointzero", t("pointzero.ui.back"))}
    <h1>${nameOf(c)}</h1>
    <p><a class="button primary" href=${`#/pointzero/test/${encodeURIComponent(c.id)}`} id="pz-to-test">${t("pointzero.ui.make_test")}</a></p>
    <div role="status" aria-live="polite" class="small" data-testid="pz-sheet-status">
      ${pending ? html`<p class="field-error">${t("pointzero.ui.not_saved")} ${tn("pointzero.ui.problems", count)}</p>` : html`<p class="muted">${ready(app) ? said(ui.saved) : t("pointzero.ui.engine_wait")}</p>`}
    </div>
    ${hidden ? html`<p><button type="button" id="pz-show-problems" @click=${() => { form.touchAll(); app.rerender(); focusFirstInvalid(); }}>
      ${t("pointzero.ui.show_problems")}</button></p>` : nothing}
    <div class="split pz-sheet-split" data-testid="pz-sheet-columns">
      <div class="pz-col">
        <div class="card">
          ${textInput(app, "pz-name", "name", d.name, t("pointzero.ui.name"), 80, (x, v) => { x.name = v; })}
        </div>
        ${attributesSection(app, d)}
      </div>
      <div class="pz-col">
        ${skillsSection(app, d)}
        ${atoutsSection(app, d)}
        <div class="card field">
          <label for="pz-notes">${t("pointzero.ui.notes")}</label>
          <textarea id="pz-notes" rows="4" maxlength="4000" .value=${typedValue(d.notes)}
            @change=${(e) => { const v = e.target.value.slice(0, 4000); change(app, (x) => { x.notes = v; }); }}></textarea>
        </div>
      </div>
    </div>
    ${fieldErrors(ui.check, "")}
  `;
}

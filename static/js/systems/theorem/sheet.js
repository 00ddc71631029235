// Théorem character sheet: spheres, skills with their level, réalité, dés de Ka (the starting
// value is lowest sphere + 1), the Ka card, notes. Every edit is checked by
// theorem.character.check first: a bad value shows its French message at the field and
// changes nothing in the saved sheet (the field keeps what was typed so it can be fixed).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { liveCharacters } from "../../live/private.js";
import { t } from "../../i18n.js";
import { touchedForm } from "../../views/forms.js";
import {
  ARCANA, SPHERES, backLink, fieldErrors, fieldId, findCharacter, hasProblem, nameOf, ready,
  replaceCharacter, sphereLabel, thError,
} from "./common.js";

const ui = { id: null, check: null, seq: 0, newSkill: "", error: null };
// Which problems are shown (a field's once left or changed) and the numbers being typed
// before they commit, for the live "dés de Ka" start (views/forms.js).
const form = touchedForm();
// While the engine starts, every control is disabled: this note (rendered then) says why.
const WAIT_ID = "th-engine-wait";
const waitWhy = (app) => (ready(app) ? null : WAIT_ID);

function reset(id) {
  form.reset(id);
  if (ui.id === id) return;
  Object.assign(ui, { id, check: null, newSkill: "", error: null });
}

/** "3" → 3; anything that is not a whole number goes to the check as typed (its message says so). */
function asInt(value) {
  const v = String(value).trim();
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

/** Edits run one after the other, each on the sheet as the one before left it: two fields
 * changed in quick succession must both be kept, never one built on a copy taken before the
 * other was saved. */
let editQueue = Promise.resolve();
function tryEdit(app, c, mutate, options) {
  editQueue = editQueue.then(() => tryEditNow(app, c.id, mutate, options)).catch(() => {});
  return editQueue;
}

/** Check the edited sheet; save it only when the engine finds no problem. The change saved is
 * `mutate` applied to the character as it is in the latest table (app.update). */
async function tryEditNow(app, id, mutate, { save = true } = {}) {
  if (!ready(app)) return;
  const c = findCharacter(app.doc, id);
  if (!c) return;
  const candidate = structuredClone(c);
  mutate(candidate);
  const seq = ++ui.seq;
  const r = await app.call({ op: "theorem.character.check", character: candidate });
  if (seq !== ui.seq) return;
  if (r.error) {
    ui.error = r.error;
    app.rerender();
    return;
  }
  ui.error = null;
  ui.check = r;
  if (r.valid && save) {
    app.update((doc) => {
      const cur = findCharacter(doc, id);
      if (!cur) return;
      const next = structuredClone(cur);
      mutate(next);
      replaceCharacter(doc, next);
    });
  } else {
    app.rerender();
  }
}

/** The check with only the problems to show. */
const shown = () => form.visible(ui.check);
const invalid = (field) => (hasProblem(shown(), field) ? "true" : "false");

/** Handlers of a field checked by the engine: typing previews (and, once the field was left,
 * checks without saving, so its message follows the typing); a change checks and saves. */
function checked(app, c, field, mutate) {
  return {
    input: (e) => {
      form.setPreview(field, e.target.value);
      app.rerender();
      if (form.shows(field)) tryEdit(app, c, (d) => mutate(d, e.target.value), { save: false });
    },
    change: (e) => {
      form.touch(field);
      form.clearPreview(field);
      tryEdit(app, c, (d) => mutate(d, e.target.value));
    },
    blur: form.leave(app, field),
  };
}

function numberField(app, c, { field, label, value, min, max, mutate, help = nothing }) {
  const id = `th-${field.replace(/[^a-z0-9]+/gi, "-")}`;
  const on = checked(app, c, field, (d, v) => mutate(d, asInt(v)));
  return html`<div class="field th-num">
    <label for=${id}>${label}</label>
    <input id=${id} type="number" inputmode="numeric" min=${min} max=${max} step="1" .value=${String(value)}
      ?disabled=${!ready(app)} aria-invalid=${invalid(field)} aria-describedby=${fieldId(field)}
      @input=${on.input} @change=${on.change} @blur=${on.blur}>
    ${help}
    ${fieldErrors(shown(), field)}
  </div>`;
}

function skillsSection(app, c) {
  const add = (e) => {
    e.preventDefault();
    // The player tried to add: the new skill's problem (an empty name) shows.
    form.touch(`skills.${c.skills.length}.name`);
    const name = ui.newSkill.trim();
    tryEdit(app, c, (d) => d.skills.push({ name: name.slice(0, 60), level: 1 })).then(() => {
      if (ui.check?.valid) ui.newSkill = "";
      app.rerender();
    });
  };
  const newIndex = c.skills.length;
  return html`<fieldset class="card" id="th-skills">
    <legend>${t("theorem.ui.skills")}</legend>
    ${c.skills.length ? nothing : html`<p class="muted">${t("theorem.ui.no_skills")}</p>`}
    <ul class="th-skill-list">
      ${c.skills.map((sk, i) => html`<li class="th-skill" data-testid="th-skill">
        <div class="field th-grow"><label for=${`th-skill-${i}-name`}>${t("theorem.ui.skill_name")}</label>
          ${((on) => html`<input id=${`th-skill-${i}-name`} maxlength="60" .value=${sk.name} ?disabled=${!ready(app)}
            aria-invalid=${invalid(`skills.${i}.name`)} aria-describedby=${fieldId(`skills.${i}.name`)}
            @input=${on.input} @change=${on.change} @blur=${on.blur}>`)(checked(app, c, `skills.${i}.name`, (d, v) => { d.skills[i].name = v.trim(); }))}
          ${fieldErrors(shown(), `skills.${i}.name`)}</div>
        ${numberField(app, c, { field: `skills.${i}.level`, label: t("theorem.ui.skill_level"), value: sk.level, min: 0, max: 10,
          mutate: (d, v) => { d.skills[i].level = v; } })}
        <button type="button" class="danger th-remove" ?disabled=${!ready(app)} aria-describedby=${waitWhy(app) ?? nothing}
          @click=${() => tryEdit(app, c, (d) => { d.skills.splice(i, 1); })}>${t("theorem.ui.remove_skill")}<span class="visually-hidden"> ${sk.name}</span></button>
      </li>`)}
    </ul>
    <form class="row" @submit=${add}>
      <div class="field th-grow"><label for="th-new-skill">${t("theorem.ui.new_skill")}</label>
        <input id="th-new-skill" maxlength="60" autocomplete="off" .value=${ui.newSkill}
          aria-invalid=${invalid(`skills.${newIndex}.name`)} aria-describedby=${fieldId(`skills.${newIndex}.name`)}
          @input=${(e) => { ui.newSkill = e.target.value; }}>
        ${fieldErrors(shown(), `skills.${newIndex}.name`)}</div>
      <button type="submit" id="th-add-skill" ?disabled=${!ready(app)} aria-describedby=${waitWhy(app) ?? nothing}>${t("theorem.ui.add_skill")}</button>
    </form>
  </fieldset>`;
}

export function render(app, id) {
  reset(id);
  const c = findCharacter(app.doc, id);
  if (!c) return html`${backLink("#/theorem", t("theorem.ui.back"))}<p role="alert">${t("theorem.ui.not_found")}</p>`;
  // The dés de Ka start follows the spheres as they are typed (a whole number typed counts).
  const sphereNow = (s) => {
    const typed = form.preview(`spheres.${s}`);
    const v = typed === undefined ? c.spheres[s] : asInt(typed);
    return Number.isInteger(v) ? v : c.spheres[s];
  };
  const start = Math.min(...SPHERES.map(sphereNow)) + 1;
  // At a live table, another player's character: its sheet is shown, never edited here (the
  // referee refuses a save of a character that is not the player's).
  const mine = liveCharacters();
  const readOnly = mine !== null && !mine.includes(c.id);
  return html`
    ${backLink("#/theorem", t("theorem.ui.back"))}
    <h1>${nameOf(c)}</h1>
    <p><a class="button primary" href=${`#/theorem/test/${encodeURIComponent(c.id)}`} id="th-to-table">${t("theorem.ui.to_table")}</a></p>
    ${ready(app) ? nothing : html`<p class="muted" id=${WAIT_ID}>${t("theorem.ui.engine_wait")}</p>`}
    ${ui.error ? html`<p class="field-error" role="alert">${thError(ui.error)}</p>` : nothing}
    ${readOnly ? html`<p class="notice" data-testid="th-not-yours">${t("theorem.ui.not_yours", { name: nameOf(c) })}</p>` : nothing}
    <fieldset class="th-sheet-fields" ?disabled=${readOnly}>
    <legend class="visually-hidden">${nameOf(c)}</legend>
    <div class="split th-sheet-split" data-testid="th-sheet-columns">
      <div class="th-col">
        <section class="card" aria-labelledby="th-id-title">
          <h2 id="th-id-title">${t("theorem.ui.identity")}</h2>
          <div class="field"><label for="th-name">${t("theorem.ui.name")}</label>
            ${((on) => html`<input id="th-name" maxlength="80" .value=${c.name} ?disabled=${!ready(app)} aria-invalid=${invalid("name")}
              aria-describedby=${fieldId("name")} @input=${on.input} @change=${on.change} @blur=${on.blur}>`)(checked(app, c, "name", (d, v) => { d.name = v.trim(); }))}
            ${fieldErrors(shown(), "name")}</div>
        </section>
        <fieldset class="card" id="th-spheres"><legend>${t("theorem.ui.spheres")}</legend>
          <div class="th-grid">
            ${SPHERES.map((s) => numberField(app, c, { field: `spheres.${s}`, label: sphereLabel(s), value: c.spheres[s], min: 0, max: 10,
              mutate: (d, v) => { d.spheres[s] = v; } }))}
          </div>
          <p class="muted small">${t("theorem.ui.spheres_help")}</p>
        </fieldset>
        <fieldset class="card" id="th-reality"><legend>${t("theorem.ui.existant")}</legend>
          <div class="th-grid">
            ${numberField(app, c, { field: "realite", label: t("theorem.ui.realite"), value: c.realite, min: 0, max: 999,
              mutate: (d, v) => { d.realite = v; } })}
            ${numberField(app, c, { field: "des_ka", label: t("theorem.ui.des_ka"), value: c.des_ka, min: 0, max: 20,
              mutate: (d, v) => { d.des_ka = v; },
              help: html`<p class="muted small" data-testid="th-ka-start">${t("theorem.ui.des_ka_start", { n: start })}</p>` })}
          </div>
          <div class="field"><label for="th-ka-card">${t("theorem.ui.ka_card")}</label>
            <select id="th-ka-card" ?disabled=${!ready(app)} aria-describedby=${fieldId("ka_card")}
              @change=${(e) => { form.touch("ka_card"); tryEdit(app, c, (d) => { d.ka_card = e.target.value === "" ? null : Number(e.target.value); }); }}>
              <option value="" ?selected=${c.ka_card === null}>${t("theorem.ui.ka_none")}</option>
              ${ARCANA.map((name, i) => html`<option value=${i} ?selected=${c.ka_card === i}>${name}</option>`)}
            </select>
            ${fieldErrors(shown(), "ka_card")}
            <p class="muted small">${t("theorem.ui.ka_card_help")}</p></div>
        </fieldset>
      </div>
      <div class="th-col">
        ${skillsSection(app, c)}
        <section class="card" aria-labelledby="th-notes-title">
          <h2 id="th-notes-title">${t("theorem.ui.notes")}</h2>
          <div class="field"><label for="th-notes" class="visually-hidden">${t("theorem.ui.notes")}</label>
            <textarea id="th-notes" rows="4" maxlength="4000" .value=${c.notes} ?disabled=${!ready(app)}
              @change=${(e) => tryEdit(app, c, (d) => { d.notes = e.target.value.slice(0, 4000); })}></textarea></div>
        </section>
      </div>
    </div>
    </fieldset>
  `;
}

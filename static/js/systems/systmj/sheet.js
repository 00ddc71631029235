// SYSTMJ sheet: one model for PJ, PNJ and Créatures (a créature has no language). The seven
// attributes in their three actif/passif pairs plus Chance, the ten generic skills and the
// table's primary special skills, each score with its degree on the skill scale beside it.
// Every change goes through systmj.entity.edit: a bad value is a message at its field and
// changes nothing.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { touchedForm } from "../../views/forms.js";
import { engineChange, onNavigate } from "../../views/ui.js";
import {
  KINDS, PAIRS, SKILL_GROUPS, attrLabel, backLink, checkOf, degreeLabel, errorLine, fieldErrors,
  fieldId, findCharacter, hasProblem, nameOf, ready, replaceCharacter, skillLabel, skillLabelGeneric,
  specialSkills, tableState,
} from "./common.js";

const ui = { id: null, problems: [], error: null };
// Which problems are shown (a field's once left or changed) and the scores being typed before
// they commit, for the live degree beside them (views/forms.js).
const form = touchedForm();

// A bad value typed is gone once the page is left (the input shows the saved score again):
// its message goes too.
onNavigate(() => Object.assign(ui, { problems: [], error: null }));

function reset(id) {
  form.reset(id);
  if (ui.id === id) return;
  Object.assign(ui, { id, problems: [], error: null });
}

function fieldsOf(changes) {
  const out = [];
  for (const [k, v] of Object.entries(changes)) {
    if (v && typeof v === "object") out.push(...Object.keys(v).map((key) => `${k}.${key}`));
    else out.push(k);
  }
  return out;
}

/** Edits run one after the other (views/ui.js engineChange), each on the sheet as the one
 * before left it: two fields changed in quick succession (Tab, Tab) must both be kept, never
 * one overwrite the other, and the sheet the engine answers is written only if the character
 * did not change while it answered (another tab, an action), else the edit is asked again. */
async function edit(app, c, changes) {
  const id = c.id;
  const r = await engineChange(app, ui, {
    request: (doc) => {
      const character = findCharacter(doc, id);
      if (!character) return null;
      const special_ids = specialSkills(tableState(app)).map((s) => s.id);
      return { op: "systmj.entity.edit", character, changes, special_ids };
    },
    basis: (doc) => findCharacter(doc, id),
    apply: (doc, answer) => {
      if (answer.changed) replaceCharacter(doc, answer.character);
    },
    shallow: true,
  });
  if (!r) return;
  const touched = new Set(fieldsOf(changes));
  ui.problems = [...ui.problems.filter((p) => !touched.has(p.field)), ...r.problems];
  app.rerender();
}

/** Once a field was left, its message follows the typing: the edit is asked without saving
 * (the answer's problems for that field replace the old ones; the sheet is unchanged). */
let previewSeq = 0;
async function previewEdit(app, c, field, changes) {
  if (!form.shows(field) || !ready(app)) return;
  const seq = ++previewSeq;
  const special_ids = specialSkills(tableState(app)).map((s) => s.id);
  const r = await app.call({ op: "systmj.entity.edit", character: c, changes, special_ids });
  if (seq !== previewSeq || r.error) return;
  const touched = new Set(fieldsOf(changes));
  ui.problems = [...ui.problems.filter((p) => !touched.has(p.field)), ...r.problems.filter((p) => touched.has(p.field))];
  app.rerender();
}

/** Handlers of an edited field: input previews, change saves, blur marks it left. */
function editing(app, c, field, changes) {
  return {
    input: (e) => {
      form.setPreview(field, e.target.value);
      app.rerender();
      previewEdit(app, c, field, changes(e.target.value));
    },
    change: (e) => {
      previewSeq += 1;
      form.touch(field);
      form.clearPreview(field);
      edit(app, c, changes(e.target.value));
    },
    blur: form.leave(app, field),
  };
}

/** A score as typed when it is one (0..99), else the saved one. */
function scoreNow(field, saved) {
  const typed = form.preview(field);
  if (typed === undefined || !/^\s*\d{1,2}\s*$/.test(typed)) return saved;
  return Number(typed);
}

function allProblems(app, c) {
  const check = checkOf(app, c);
  return form.visible({ problems: [...ui.problems, ...(check?.problems ?? [])] });
}

/** A score input (0..99) with its degree beside it and its message below. */
function scoreField(app, c, probs, field, label, value, changes) {
  const id = `sj-${field.replace(/[^a-z0-9]+/gi, "-")}`;
  const on = editing(app, c, field, changes);
  return html`<div class="field sj-score">
    <label for=${id}>${label}</label>
    <div class="sj-score-row">
      <input id=${id} type="text" inputmode="numeric" autocomplete="off" .value=${String(value)} ?disabled=${!ready(app)}
        aria-invalid=${hasProblem(probs, field) ? "true" : "false"} aria-describedby=${`${fieldId(field)} ${id}-degree`}
        @input=${on.input} @change=${on.change} @blur=${on.blur}>
      <span class="sj-degree" id=${`${id}-degree`} data-testid=${`${id}-degree`}>${degreeLabel(scoreNow(field, value))}</span>
    </div>
    ${fieldErrors(probs, field)}
  </div>`;
}

function textField(app, c, probs, field, label, { max, disabled = false, hint = "" } = {}) {
  const id = `sj-${field}`;
  const on = editing(app, c, field, (v) => ({ [field]: v }));
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} maxlength=${max} autocomplete="off" .value=${c[field]} ?disabled=${!ready(app) || disabled}
      aria-invalid=${hasProblem(probs, field) ? "true" : "false"} aria-describedby=${fieldId(field)}
      @input=${on.input} @change=${on.change} @blur=${on.blur}>
    ${hint ? html`<p class="muted small">${hint}</p>` : nothing}
    ${fieldErrors(probs, field)}
  </div>`;
}

function identity(app, c, probs) {
  const creature = c.kind === "creature";
  return html`<section class="card" aria-labelledby="sj-id-title">
    <h2 id="sj-id-title">${t("systmj.ui.identity")}</h2>
    <div class="sj-grid">
      ${textField(app, c, probs, "name", t("systmj.ui.name"), { max: 80 })}
      <div class="field"><label for="sj-kind">${t("systmj.ui.kind")}</label>
        <select id="sj-kind" ?disabled=${!ready(app)} @change=${(e) => { form.touch("kind"); edit(app, c, { kind: e.target.value }); }}>
          ${KINDS.map((k) => html`<option value=${k} ?selected=${k === c.kind}>${t(`systmj.kind.${k}`)}</option>`)}
        </select></div>
      ${textField(app, c, probs, "language", t("systmj.ui.language"), { max: 60, disabled: creature, hint: creature ? t("systmj.ui.no_language") : "" })}
      ${c.kind === "pj" ? textField(app, c, probs, "player", t("systmj.ui.player"), { max: 80 }) : nothing}
      ${scoreFieldPool(app, c, probs, "pv_max", t("systmj.ui.pv_max"))}
      ${scoreFieldPool(app, c, probs, "pa_max", t("systmj.ui.pa_max"))}
    </div>
  </section>`;
}

function scoreFieldPool(app, c, probs, field, label) {
  const id = `sj-${field.replace("_", "-")}`;
  const on = editing(app, c, field, (v) => ({ [field]: v }));
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} type="text" inputmode="numeric" autocomplete="off" .value=${String(c[field])} ?disabled=${!ready(app)}
      aria-invalid=${hasProblem(probs, field) ? "true" : "false"} aria-describedby=${fieldId(field)}
      @input=${on.input} @change=${on.change} @blur=${on.blur}>
    ${fieldErrors(probs, field)}
  </div>`;
}

/** Play state (issue "the first evening"): current PV/PA (the running round's, else the
 * maximum) and the library cards this character holds after "Donner". */
function playState(app, c) {
  const state = tableState(app);
  const rounds = state?.rounds;
  const vitals = rounds?.entities?.find((e) => e.id === c.id);
  const cards = (state?.library?.cards ?? []).filter((card) => card.holder === c.id);
  return html`<section class="card" aria-labelledby="sj-play-title" data-testid="sj-play-state">
    <h2 id="sj-play-title">${t("systmj.ui.play_state")}</h2>
    <p data-testid="sj-vitals"><strong>${t("systmj.ui.vitals_now", { pv: vitals?.pv ?? c.pv_max, pv_max: c.pv_max, pa: vitals?.pa ?? c.pa_max, pa_max: c.pa_max })}</strong>
      <span class="muted small">${vitals ? t("systmj.ui.vitals_round", { round: rounds.round }) : t("systmj.ui.vitals_rest")}</span></p>
    <h3>${t("systmj.ui.held_cards")}</h3>
    ${cards.length
      ? html`<ul data-testid="sj-held-cards">${cards.map((card) => html`<li data-number=${card.number}>${card.number} — ${card.name}</li>`)}</ul>`
      : html`<p class="muted small" data-testid="sj-held-cards-none">${t("systmj.ui.no_held_cards")}</p>`}
  </section>`;
}

function attributes(app, c, probs) {
  const one = (k) => scoreField(app, c, probs, `attributes.${k}`, attrLabel(k), c.attributes[k], (v) => ({ attributes: { [k]: v } }));
  return html`<section class="card" aria-labelledby="sj-attr-title">
    <h2 id="sj-attr-title">${t("systmj.ui.attributes")}</h2>
    <div class="sj-pairs">
      ${PAIRS.map(([pair, [actif, passif]]) => html`<fieldset class="sj-pair">
        <legend>${t(`systmj.pair.${pair}`)}</legend>
        <div class="sj-pair-row">
          <div><p class="muted small">${t("systmj.ui.actif")}</p>${one(actif)}</div>
          <div><p class="muted small">${t("systmj.ui.passif")}</p>${one(passif)}</div>
        </div>
      </fieldset>`)}
      <fieldset class="sj-pair"><legend>${attrLabel("chance")}</legend>${one("chance")}</fieldset>
    </div>
  </section>`;
}

function skills(app, c, probs, state) {
  const specials = specialSkills(state);
  return html`<section class="card" aria-labelledby="sj-skills-title">
    <h2 id="sj-skills-title">${t("systmj.ui.skills")}</h2>
    ${SKILL_GROUPS.map(([group, keys]) => html`<fieldset class="sj-group">
      <legend>${t(`systmj.group.${group}`)}</legend>
      <div class="sj-grid">
        ${keys.map((k) => scoreField(app, c, probs, `skills.${k}`, skillLabelGeneric(k), c.skills[k], (v) => ({ skills: { [k]: v } })))}
      </div>
    </fieldset>`)}
    <fieldset class="sj-group">
      <legend>${t("systmj.ui.special_skills")}${state?.universe?.name ? ` — ${state.universe.name}` : ""}</legend>
      ${specials.length ? html`<div class="sj-grid">
        ${specials.map((s) => scoreField(app, c, probs, `special.${s.id}`, s.name, Object.hasOwn(c.special, s.id) ? c.special[s.id] : 0, (v) => ({ special: { [s.id]: v } })))}
      </div>` : html`<p class="muted small">${t("systmj.ui.no_special_sheet")} <a href="#/systmj">${t("systmj.ui.define_special")}</a></p>`}
    </fieldset>
  </section>`;
}

function progress(c, state) {
  if (!c.progress.length) return nothing;
  // A Pouvoir card's learning names the card (its key is the card's number).
  const cardName = (number) => state?.library?.cards.find((x) => x.number === number)?.name ?? number;
  const label = (p) => (p.target === "attribute" ? attrLabel(p.key) : p.target === "pouvoir" ? cardName(p.key) : skillLabel(state, p.key));
  return html`<section class="card" aria-labelledby="sj-progress-title">
    <h2 id="sj-progress-title">${t("systmj.ui.progress")}</h2>
    <ol class="sj-progress" data-testid="sj-progress">
      ${[...c.progress].reverse().map((p) => html`<li>
        ${t("systmj.ui.progress_line", { session: p.session, kind: t(`systmj.progress.${p.kind}`), what: label(p), before: p.before, after: p.after })}
        ${p.note ? html`<span class="muted small"> — ${p.note}</span>` : nothing}</li>`)}
    </ol>
  </section>`;
}

export function render(app, id) {
  reset(id);
  const c = findCharacter(app.doc, id);
  if (!c) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p role="alert">${t("systmj.ui.not_found")}</p>`;
  const state = tableState(app);
  const probs = allProblems(app, c);
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${nameOf(c)} <span class="muted small">${t(`systmj.kind.${c.kind}`)}</span></h1>
    <nav class="row" aria-label=${t("systmj.ui.actions")}>
      <a class="button" href=${`#/systmj/test/${encodeURIComponent(c.id)}`} id="sj-to-test">${t("systmj.ui.make_test")}</a>
      <a class="button" href=${`#/systmj/learning/${encodeURIComponent(c.id)}`} id="sj-to-learning">${t("systmj.ui.learning")}</a>
    </nav>
    ${errorLine(ui.error, state)}
    <div class="split sj-sheet-split" data-testid="sj-sheet-columns">
      <div class="sj-col">
        ${identity(app, c, probs)}
        ${playState(app, c)}
        ${attributes(app, c, probs)}
        <section class="card" aria-labelledby="sj-notes-title">
          <h2 id="sj-notes-title"><label for="sj-notes">${t("systmj.ui.notes")}</label></h2>
          <textarea id="sj-notes" rows="4" maxlength="4000" .value=${c.notes} ?disabled=${!ready(app)}
            @blur=${form.leave(app, "notes")}
            @change=${(e) => { form.touch("notes"); edit(app, c, { notes: e.target.value }); }}></textarea>
          ${fieldErrors(probs, "notes")}
        </section>
      </div>
      <div class="sj-col">
        ${skills(app, c, probs, state)}
        ${progress(c, state)}
      </div>
    </div>
  `;
}


// The end-of-session review (3.4, experience as in 2.4.4). The MJ goes through every PJ: the
// skills used in the session (systmj.review.plan reads them from the roll log), +1 or a die
// for each (rolled and logged with its seed), an attribute gain only with a reason; what was
// granted is recorded on the sheet (progress) and shown here; closing the review starts the
// next session.
// Wording: "le MJ", as SYSTMJ's text says (rules 000). From 60rem the PJ's experience sits beside
// the wear review and the closing of the session (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { engineChange, onNavigate, onUndo } from "../../views/ui.js";
import {
  ATTRIBUTES, GENERIC_SKILLS, attrLabel, backLink, characters, errorLine, nameOf, ready, replaceCharacter,
  requestCache, rules, scoreOf, stateOp, sjError, skillLabel, specialSkills, tableState, withScore,
} from "./common.js";

const planCache = requestCache({ keepStale: true });
const wearCache = requestCache({ keepStale: true });
/** The wear review (3.4.1): registry number -> the die the MJ chose (a Map: numbers are data). */
const wearDice = new Map();
const wear = { busy: false, error: null, results: null };
/** character id -> that PJ's form (a Map: ids are untrusted keys). */
const forms = new Map();
const page = { busy: false, error: null };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(wear, { results: null, error: null }));

onNavigate(() => {
  page.error = null;
  wear.error = null;
  for (const f of forms.values()) Object.assign(f, { error: null, gainBad: false });
});

function formOf(id) {
  if (!forms.has(id)) forms.set(id, { dice: new Map(), extra: [], attribute: "", gain: "", reason: "", error: null, gainBad: false, busy: false });
  return forms.get(id);
}

function skillDice(app) {
  return rules(app)?.xp_dice ?? ["1", "1d2", "1d4", "1d6"];
}

/** The experience of one PJ, once per press: a second press while the first is on its way is
 * ignored (it would grant the same dice twice; the form is emptied once the first is saved). */
async function grant(app, c, skills, session) {
  const f = formOf(c.id);
  if (f.sending) return;
  f.sending = true;
  try {
    await grantNow(app, c, skills, session, f);
  } finally {
    f.sending = false;
  }
}

async function grantNow(app, c, skills, session, f) {
  const grants = skills.filter((k) => f.dice.get(k)).map((k) => ({ target: "skill", key: k, score: scoreOf(c, "skill", k), die: f.dice.get(k) }));
  f.gainBad = false;
  if (f.attribute) {
    const gain = /^\s*\d{1,2}\s*$/.test(f.gain) ? Number(f.gain) : NaN;
    if (!(gain >= 1 && gain <= 10)) {
      f.gainBad = true;
      app.rerender();
      return;
    }
    grants.push({ target: "attribute", key: f.attribute, score: c.attributes[f.attribute], gain, reason: f.reason });
  }
  if (!grants.length) {
    f.error = { code: "ui", message_key: "systmj.ui.nothing_to_grant", params: {} };
    app.rerender();
    return;
  }
  // Granted on the sheet as saved when its turn comes (views/ui.js engineChange): each grant's
  // score is read from the latest sheet, and the new scores are written only if the sheet did
  // not change while the engine answered (a sheet edited meanwhile is kept, never overwritten).
  const seed = newSeed();
  const latest = (doc) => doc.characters.find((x) => x.id === c.id) ?? null;
  let request = null;
  const r = await engineChange(app, f, {
    request: (doc) => {
      const cur = latest(doc);
      if (!cur) return null;
      request = { op: "systmj.review.grant", character: c.id, session,
        grants: grants.map((g) => ({ ...g, score: scoreOf(cur, g.target, g.key) })), seed };
      return request;
    },
    basis: latest,
    apply: (doc, answer) => {
      const cur = latest(doc);
      if (!cur) return;
      let next = cur;
      for (const res of answer.results) next = withScore(next, res.target, res.key, res.after);
      next.progress.push(...answer.records);
      if (next.progress.length > 300) next.progress.splice(0, next.progress.length - 300);
      replaceCharacter(doc, next);
    },
    label: () => ({ key: "systmj.change.xp_granted", params: { name: nameOf(c) } }),
  });
  if (!r) return;
  const state = tableState(app);
  const what = (res) => (res.target === "attribute" ? attrLabel(res.key) : skillLabel(state, res.key));
  app.addLog({ kind: "systmj.xp", system: "systmj", who: nameOf(c), label: t("systmj.ui.xp_label", { session }), request,
    result: { summary: r.results.map((res) => `${what(res)} ${res.before} → ${res.after}`).join(" · "),
      terms: r.results.filter((res) => res.rolled !== null).map((res) => ({ kind: "dice", text: `${what(res)} ${res.die}`, sign: 1, dice: [{ value: res.rolled, kept: true }] })) } });
  f.dice.clear();
  Object.assign(f, { extra: [], attribute: "", gain: "", reason: "" });
  app.notify("status", t("systmj.ui.granted_to", { name: nameOf(c) }));
}

async function close(app) {
  const r = await stateOp(app, page, (state) => ({ op: "systmj.session.close", state }));
  if (!r) return;
  forms.clear();
  app.notify("status", t("systmj.ui.session_closed", { n: r.state.session }));
}

async function applyWear(app, items) {
  const chosen = items.map((i) => ({ number: i.number, die: wearDice.get(i.number) ?? "1d4" }));
  const seed = newSeed();
  const request = { op: "systmj.wear.review", items: chosen, seed };
  const r = await stateOp(app, wear, (state) => ({ ...request, state }));
  if (!r) return;
  wear.results = r.results;
  // The log keeps what the entry needs (the items, their dice, the seed), never the table state
  // the request carried (it holds the round's hidden choices).
  app.addLog({ kind: "systmj.wear", system: "systmj", who: "MJ", label: t("systmj.review_wear.log", { session: tableState(app).session }), request: { op: request.op, items: chosen, seed: request.seed },
    result: { summary: r.results.map((x) => `${x.number} ${x.before.pu} → ${x.after.pu}`).join(" · "),
      terms: r.results.map((x) => ({ kind: "dice", text: `${x.number} ${x.die}`, sign: -1, dice: [{ value: x.rolled, kept: true }] })) } });
  app.notify("status", t("systmj.review_wear.done"));
}

/** The wear review: every card used in the session (from the log), a die each, rolled. */
function wearCard(app, state) {
  const log = app.doc.log.filter((e) => e.kind === "systmj.test" || e.kind === "systmj.combat.exchange");
  const plan = wearCache(app, { op: "systmj.wear.plan", state, log });
  const items = plan && !plan.error ? plan.items : [];
  const dice = ["1d4", "1d6", "1d8", "1d10"];
  return html`<section class="card" aria-labelledby="sj-wear-title" data-testid="sj-wear-review">
    <h2 id="sj-wear-title">${t("systmj.review_wear.title")}</h2>
    <p class="muted small">${t("systmj.review_wear.help")}</p>
    ${items.length ? html`<ul class="sj-review-skills">${items.map((i) => html`<li class="field" data-testid="sj-wear-item" data-number=${i.number}>
        <label for=${`sj-wear-${i.number}`}>${i.number} ${i.name} — ${t("systmj.review_wear.pu", { pu: i.pu })}</label>
        <select id=${`sj-wear-${i.number}`} @change=${(e) => wearDice.set(i.number, e.target.value)}>
          ${dice.map((d) => html`<option value=${d} ?selected=${(wearDice.get(i.number) ?? "1d4") === d}>${d.toUpperCase()}</option>`)}
        </select></li>`)}</ul>
      <button type="button" id="sj-wear-apply" ?disabled=${!ready(app) || wear.busy} @click=${() => applyWear(app, items)}>${t("systmj.review_wear.apply")}</button>`
      : html`<p class="muted">${t("systmj.review_wear.none")}</p>`}
    ${errorLine(wear.error, state)}
    <div aria-live="polite">${wear.results ? html`<ul data-testid="sj-wear-results">${wear.results.map((x) => html`<li>${x.number} ${x.name} : ${x.die.toUpperCase()} → ${x.rolled} ; ${x.before.pu} → ${x.after.pu} PU</li>`)}</ul>` : nothing}</div>
  </section>`;
}

function grantedList(c, state, session) {
  const done = c.progress.filter((p) => p.session === session && (p.kind === "xp" || p.kind === "attribute"));
  if (!done.length) return nothing;
  const label = (p) => (p.target === "attribute" ? attrLabel(p.key) : skillLabel(state, p.key));
  return html`<div class="sj-granted" data-testid="sj-granted">
    <p><strong>${t("systmj.ui.granted")}</strong></p>
    <ul>${done.map((p) => html`<li>${label(p)}${colon()}${p.before} → ${p.after} <span class="muted small">(${p.note})</span></li>`)}</ul>
  </div>`;
}

function pjCard(app, c, used, state) {
  const f = formOf(c.id);
  const pid = c.id.replace(/[^a-z0-9]+/gi, "-");
  const skills = [...used, ...f.extra.filter((k) => !used.includes(k))];
  const allSkills = [...GENERIC_SKILLS, ...specialSkills(state).map((s) => s.id)].filter((k) => !skills.includes(k));
  const dice = skillDice(app);
  return html`<section class="card sj-review-pj" aria-labelledby=${`sj-r-${pid}`} data-testid="sj-review-pj" data-id=${c.id}>
    <h2 id=${`sj-r-${pid}`}>${nameOf(c)}</h2>
    ${used.length ? html`<p class="muted small">${t("systmj.ui.used_help")}</p>` : html`<p class="muted">${t("systmj.ui.none_used")}</p>`}
    <ul class="sj-review-skills">
      ${skills.map((k) => html`<li class="field sj-review-skill">
        <label for=${`sj-r-${pid}-${k}`}>${skillLabel(state, k)} (${scoreOf(c, "skill", k)})${used.includes(k) ? html` <span class="sj-used">${t("systmj.ui.used")}</span>` : nothing}</label>
        <select id=${`sj-r-${pid}-${k}`} data-skill=${k} @change=${(e) => { if (e.target.value) f.dice.set(k, e.target.value); else f.dice.delete(k); }}>
          <option value="" ?selected=${!f.dice.get(k)}>${t("systmj.ui.no_xp")}</option>
          ${dice.map((d) => html`<option value=${d} ?selected=${f.dice.get(k) === d}>${t(`systmj.xp.${d}`)}</option>`)}
        </select></li>`)}
    </ul>
    ${allSkills.length ? html`<div class="field"><label for=${`sj-r-${pid}-add`}>${t("systmj.ui.add_skill")}</label>
      <select id=${`sj-r-${pid}-add`} @change=${(e) => { if (e.target.value) { f.extra.push(e.target.value); app.rerender(); } }}>
        <option value="" selected>${t("systmj.ui.choose")}</option>
        ${allSkills.map((k) => html`<option value=${k}>${skillLabel(state, k)}</option>`)}
      </select></div>` : nothing}
    <fieldset class="sj-group"><legend>${t("systmj.ui.attribute_gain")}</legend>
      <p class="muted small">${t("systmj.ui.attribute_help")}</p>
      <div class="sj-grid">
        <div class="field"><label for=${`sj-r-${pid}-attr`}>${t("systmj.ui.attribute")}</label>
          <select id=${`sj-r-${pid}-attr`} @change=${(e) => { f.attribute = e.target.value; app.rerender(); }}>
            <option value="" ?selected=${!f.attribute}>${t("systmj.ui.no_attribute")}</option>
            ${ATTRIBUTES.map((k) => html`<option value=${k} ?selected=${f.attribute === k}>${attrLabel(k)} (${c.attributes[k]})</option>`)}
          </select></div>
        ${f.attribute ? html`<div class="field"><label for=${`sj-r-${pid}-gain`}>${t("systmj.ui.gain_points")}</label>
          <input id=${`sj-r-${pid}-gain`} type="text" inputmode="numeric" .value=${f.gain} aria-invalid=${f.gainBad ? "true" : "false"}
            aria-describedby=${`sj-r-${pid}-gain-err`} @input=${(e) => { f.gain = e.target.value; }}>
          <p class="field-error" id=${`sj-r-${pid}-gain-err`}>${f.gainBad ? t("systmj.ui.gain_bad") : ""}</p></div>
        <div class="field sj-wide"><label for=${`sj-r-${pid}-reason`}>${t("systmj.ui.reason")}</label>
          <input id=${`sj-r-${pid}-reason`} maxlength="200" .value=${f.reason} aria-describedby=${`sj-r-${pid}-reason-err`}
            aria-invalid=${f.error?.code === "systmj.xp.reason_missing" ? "true" : "false"} @input=${(e) => { f.reason = e.target.value; }}>
          <p class="field-error" id=${`sj-r-${pid}-reason-err`}>${f.error?.code === "systmj.xp.reason_missing" ? sjError(f.error, state) : ""}</p></div>` : nothing}
      </div>
    </fieldset>
    <button type="button" class="primary" data-testid="sj-grant" ?disabled=${!ready(app) || f.busy} @click=${() => grant(app, c, skills, state.session)}>${t("systmj.ui.grant")}<span class="visually-hidden"> ${nameOf(c)}</span></button>
    ${f.error && f.error.code !== "systmj.xp.reason_missing" ? (f.error.code === "ui" ? html`<p class="field-error" role="alert">${t(f.error.message_key)}</p>` : errorLine(f.error, state)) : nothing}
    ${grantedList(c, state, state.session)}
  </section>`;
}

export function render(app) {
  const state = tableState(app);
  if (!state) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p class="muted">${t("systmj.ui.engine_wait")}</p>`;
  const log = app.doc.log.filter((e) => e.kind === "systmj.test");
  const plan = planCache(app, { op: "systmj.review.plan", state, log });
  // A Pouvoir card tested (key "PO-…") is not a sheet skill: its score box is on the card.
  const used = (id) => (plan && !plan.error && Object.hasOwn(plan.used, id) ? plan.used[id].filter((k) => !k.startsWith("PO-")) : []);
  const pjs = characters(app.doc).filter((c) => c.kind === "pj");
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${t("systmj.ui.review_title", { n: state.session })}</h1>
    <p class="muted">${t("systmj.ui.review_intro")}</p>
    ${state.reviewed.includes(state.session) ? html`<p>${t("systmj.ui.already_reviewed")}</p>` : nothing}
    <div class="split wide-first" data-testid="sj-review-split"><div>
    ${pjs.length ? pjs.map((c) => pjCard(app, c, used(c.id), state)) : html`<p class="muted">${t("systmj.ui.no_pj")}</p>`}
    </div><div>
    ${wearCard(app, state)}
    <section class="card" aria-labelledby="sj-close-title">
      <h2 id="sj-close-title">${t("systmj.ui.close_session")}</h2>
      <p class="muted small">${t("systmj.ui.close_help")}</p>
      <button type="button" id="sj-close-session" ?disabled=${!ready(app) || page.busy} @click=${() => close(app)}>${t("systmj.ui.close_session_n", { n: state.session })}</button>
      ${errorLine(page.error, state)}
    </section>
    </div></div>
  `;
}

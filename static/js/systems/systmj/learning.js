// A SYSTMJ learning session (2.4): one skill, alone (limit (INT + PER) / 2, refused below the
// skill's DA minimum) or with a mentor (limit ((INT + PER)/2 + (INT + PER of the mentor)/2) / 2;
// the mentor holds the skill at Maîtrise 51+ and can initiate an Inapte student). The MJ picks
// the gain (1 point, 1D4, 1D10, 1D20). Before the roll: the limit and the exact distribution
// of the points gained. The roll (logged with its seed) raises the skill, never past 99.
// Wording: "le MJ", as SYSTMJ's text says (rules 000). From 60rem the setup sits beside the odds,
// the roll and its result (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { formatNumber, t } from "../../i18n.js";
import { livePlayer } from "../../live/private.js";
import { newSeed } from "../../storage.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { disabledWhy, engineChange, onNavigate, reveal, onUndo } from "../../views/ui.js";
import {
  GENERIC_SKILLS, backLink, characters, d100Term, renderD100, degreeLabel, errorLine, findCharacter, nameOf, ready,
  replaceCharacter, requestCache, rules, scoreOf, sessionGain, skillLabel, specialSkills, stateOp, tableState, withScore,
} from "./common.js";

const ui = { id: null, skill: "lire_ecrire", mode: "self", mentor: "", da: null, result: null, error: null, busy: false };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { result: null, error: null }));
const oddsCache = requestCache();

onNavigate(() => { ui.error = null; });

function reset(id) {
  if (ui.id === id) return;
  Object.assign(ui, { id, mode: "self", mentor: "", da: null, result: null, error: null });
}

/** The DA of a skill: the table's for a special skill, the data's default for a generic one. */
function defaultDa(app, key) {
  const sp = specialSkills(tableState(app)).find((s) => s.id === key);
  if (sp) return sp.da;
  const generic = rules(app)?.generic_da;
  return generic && Object.hasOwn(generic, key) ? generic[key] : 1;
}

/** On a player's phone at a live table the MJ's device rolls (py/tablee/referee.py
 * `_sj_learning`): the DA is the table's and the gain the session's, which the MJ chose
 * (2.4.1, `sessionGain`); the page offers neither choice there and its odds are those of the
 * roll the MJ's device will make. Elsewhere the gain chosen here is the session's: it is kept
 * in the table (`systmj.session.gain`) for every roll after, a phone's included. */
function setGain(app, gain) {
  ui.result = null;
  return stateOp(app, ui, (state) => ({ op: "systmj.session.gain", state, gain }));
}

/** The learning request for `c` from the choices `sel` (the form's, or those taken when the roll
 * was pressed) and the table `doc`. */
function request(app, c, doc = app.doc, sel = ui) {
  const mentor = sel.mode === "mentor" ? findCharacter(doc, sel.mentor) : null;
  const session = doc.systems?.systmj?.session ?? tableState(app)?.session ?? 1;
  const phone = livePlayer();
  const req = {
    score: scoreOf(c, "skill", sel.skill),
    intelligence: c.attributes.intelligence,
    personnalite: c.attributes.personnalite,
    da: (phone ? null : sel.da) ?? defaultDa(app, sel.skill),
    gain: sessionGain(doc),
    subject: { character: c.id, target: "skill", key: sel.skill, session },
    // The rolls already made: the engine refuses a second one for this skill in this session
    // (2.4.1, systmj.learning.once_per_session), and the page shows it as done.
    learned: learnedRolls(c, session),
  };
  if (mentor) {
    req.mentor = { intelligence: mentor.attributes.intelligence, personnalite: mentor.attributes.personnalite,
      score: scoreOf(mentor, "skill", sel.skill), character: mentor.id };
  }
  return { req, mentor, missingMentor: sel.mode === "mentor" && !mentor };
}

/** The character's learning rolls already made in `session` ({session, key}), from its
 * progress (only this session's: the request, kept in the log, stays small). */
function learnedRolls(c, session) {
  return (Array.isArray(c.progress) ? c.progress : [])
    .filter((p) => p && p.kind === "learning" && p.target === "skill" && p.session === session && typeof p.key === "string")
    .slice(-300)
    .map((p) => ({ session: p.session, key: p.key }));
}

/**
 * The learning roll, on the character as saved when its turn comes (views/ui.js engineChange):
 * its score, its learning rolls of the session (the engine refuses a second roll of the same
 * skill: two quick presses give one roll and a refusal, never two rolls) and its progress
 * are read from the latest table, and the new score is written only if the sheet (and the
 * mentor's) did not change while the engine answered.
 */
async function learn(app, c) {
  const { missingMentor } = request(app, c);
  if (missingMentor) return;
  const seed = newSeed();
  // The form's choices as they were when pressed (the roll may wait its turn meanwhile).
  const sel = { mode: ui.mode, mentor: ui.mentor, skill: ui.skill, da: ui.da };
  const skill = sel.skill;
  const mentorId = sel.mode === "mentor" ? sel.mentor : null;
  let sent = null;
  let note = "";
  const r = await engineChange(app, ui, {
    request: (doc) => {
      const cur = findCharacter(doc, c.id);
      if (!cur) return null;
      const { req, mentor, missingMentor: gone } = request(app, cur, doc, sel);
      if (gone) return null;
      sent = { op: "systmj.learning.roll", ...req, seed };
      note = mentor ? ` · ${t("systmj.ui.mentor_n", { name: nameOf(mentor) })}` : "";
      return sent;
    },
    basis: (doc) => [findCharacter(doc, c.id), mentorId ? findCharacter(doc, mentorId) : null, doc.systems?.systmj?.session ?? null],
    apply: (doc, answer) => {
      const cur = doc.characters.find((x) => x.id === c.id);
      if (!cur) return;
      // At a live table the MJ's device wrote the score and the roll on its record: the sheet
      // it answers (the player view) is the one the table will bring, never written twice.
      if (answer.character) {
        replaceCharacter(doc, answer.character);
        return;
      }
      const next = withScore(cur, "skill", skill, answer.after);
      next.progress.push({ session: sent.subject.session, kind: "learning", target: "skill", key: skill, before: answer.before, after: answer.after,
        note: `${t(`systmj.quality.${answer.quality}`)}${note}`.slice(0, 200) });
      if (next.progress.length > 300) next.progress.splice(0, next.progress.length - 300);
      replaceCharacter(doc, next);
    },
    label: (answer, req, doc) => ({ key: "systmj.change.learning", params: { name: nameOf(findCharacter(doc, c.id)) } }),
  });
  if (!r) return;
  ui.result = r;
  const label = skillLabel(tableState(app), skill);
  app.addLog({ kind: "systmj.learning", system: "systmj", who: nameOf(c), label: t("systmj.ui.learning_label", { skill: label }), request: sent,
    result: { total: r.capped, summary: t("systmj.ui.learning_summary", { quality: t(`systmj.quality.${r.quality}`), points: r.gained, before: r.before, after: r.after }), terms: [d100Term(r.dice)] } });
  reveal("sj-l-result-title");
}

function oddsBlock(odds) {
  if (!odds) return html`<p class="muted">${t("systmj.ui.odds_loading")}</p>`;
  if (odds.error) return nothing;
  const rows = odds.points.map((p) => ({ label: `+${p.points}`, p: p.fraction, percent: p.percent }));
  return html`<div data-testid="sj-l-odds" data-limit=${odds.limit}>
    <p>${t(odds.mode === "mentor" ? "systmj.ui.limit_mentor" : "systmj.ui.limit_self", { limit: odds.limit })}</p>
    <p class="muted small">${t("systmj.ui.expected", { value: formatNumber(odds.expected.value) })}</p>
    ${renderDistribution(rows, t("systmj.ui.points"))}
  </div>`;
}

function resultBlock(r) {
  if (!r) return nothing;
  return html`<section class="card" aria-labelledby="sj-l-result-title" data-testid="sj-l-result" data-after=${r.after} data-quality=${r.quality}>
    <h2 id="sj-l-result-title">${t("systmj.ui.result")}</h2>
    ${renderD100(r.dice)}
    <p>${t(r.lowered ? "systmj.ui.learn_roll_lowered" : "systmj.ui.learn_roll", { roll: String(r.roll).padStart(2, "0"), capped: r.capped, limit: r.limit })}</p>
    <p role="status" data-testid="sj-l-verdict"><strong>${t(`systmj.quality.${r.quality}`)}</strong>
      ${r.multiplier > 1 ? t("systmj.ui.multiplier", { n: r.multiplier }) : ""} —
      ${t("systmj.ui.learn_gain", { gain: r.gain_value, points: r.gained, before: r.before, after: r.after })}</p>
    ${r.seed === undefined ? nothing : html`<p class="muted small">${t("tray.seed")} ${r.seed}</p>`}
  </section>`;
}

/** The Savoir cards (4.3) the character holds that name the chosen skill: the supports of
 * this learning session (registry numbers and skill ids compared with ===). */
function savoirs(state, c) {
  return (state?.library?.cards ?? []).filter((x) => x.holder === c.id && x.family === "savoir" && x.skills.includes(ui.skill));
}

export function render(app, id) {
  reset(id);
  const c = findCharacter(app.doc, id);
  if (!c) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p role="alert">${t("systmj.ui.not_found")}</p>`;
  const state = tableState(app);
  const specials = specialSkills(state);
  const keys = [...GENERIC_SKILLS, ...specials.map((s) => s.id)];
  if (!keys.includes(ui.skill)) ui.skill = keys[0];
  const mentors = characters(app.doc).filter((x) => x.id !== c.id && x.kind !== "creature");
  const { req, missingMentor } = request(app, c);
  const odds = missingMentor || !rules(app) ? null : oddsCache(app, { op: "systmj.learning.odds", ...req });
  const set = (key) => (e) => { ui[key] = e.target.value; if (key === "skill") ui.da = null; ui.result = null; app.rerender(); };
  const gains = rules(app)?.learning_gains ?? ["1", "1d4", "1d10", "1d20"];
  // A disabled roll says why: the engine, the mentor to choose, a refused study.
  const rollWhy = !ready(app) ? t("systmj.combat.why_engine") : missingMentor ? t("systmj.ui.why_mentor")
    : odds?.error ? t("systmj.ui.why_refused") : !odds ? t("systmj.ui.odds_loading") : null;
  const why = disabledWhy("sj-l-roll", rollWhy);
  return html`
    ${backLink(`#/systmj/character/${encodeURIComponent(id)}`, t("systmj.ui.back_sheet", { name: nameOf(c) }))}
    <h1>${t("systmj.ui.learning_title", { name: nameOf(c) })}</h1>
    <div class="split" data-testid="sj-learning-split"><div>
    <section class="card" aria-labelledby="sj-l-setup">
      <h2 id="sj-l-setup">${t("systmj.ui.learning_setup")}</h2>
      <div class="sj-grid">
        <div class="field sj-wide"><label for="sj-l-skill">${t("systmj.ui.skill")}</label>
          <select id="sj-l-skill" @change=${set("skill")}>
            ${keys.map((k) => { const v = scoreOf(c, "skill", k); return html`<option value=${k} ?selected=${k === ui.skill}>${skillLabel(state, k)} — ${v} (${degreeLabel(v)})</option>`; })}
          </select></div>
        <div class="field"><label for="sj-l-mode">${t("systmj.ui.learning_mode")}</label>
          <select id="sj-l-mode" @change=${set("mode")}>
            <option value="self" ?selected=${ui.mode === "self"}>${t("systmj.ui.mode_self")}</option>
            <option value="mentor" ?selected=${ui.mode === "mentor"}>${t("systmj.ui.mode_mentor")}</option>
          </select></div>
        ${ui.mode === "mentor" ? html`<div class="field"><label for="sj-l-mentor">${t("systmj.ui.mentor")}</label>
          <select id="sj-l-mentor" aria-describedby="sj-l-mentor-err" aria-invalid=${missingMentor ? "true" : "false"} @change=${set("mentor")}>
            <option value="" ?selected=${!ui.mentor}>${t("systmj.ui.choose")}</option>
            ${mentors.map((m) => { const v = scoreOf(m, "skill", ui.skill); return html`<option value=${m.id} ?selected=${m.id === ui.mentor}>${nameOf(m)} — ${v} (${degreeLabel(v)})</option>`; })}
          </select>
          <p class="field-error" id="sj-l-mentor-err">${missingMentor ? t("systmj.ui.mentor_missing") : ""}</p></div>` : nothing}
        ${ui.mode === "self" ? html`<div class="field"><label for="sj-l-da">${t("systmj.ui.da")}</label>
          <select id="sj-l-da" ?disabled=${livePlayer()} @change=${(e) => { ui.da = Number(e.target.value); ui.result = null; app.rerender(); }}>
            ${[1, 2, 3, 4, 5].map((n) => html`<option value=${String(n)} ?selected=${n === req.da}>${t(`systmj.da.${n}`)}</option>`)}
          </select></div>` : nothing}
        <div class="field"><label for="sj-l-gain">${t("systmj.ui.gain")}</label>
          <select id="sj-l-gain" ?disabled=${livePlayer() || ui.busy} @change=${(e) => setGain(app, e.target.value)}>
            ${gains.map((g) => html`<option value=${g} ?selected=${g === req.gain}>${t(`systmj.gain.${g}`)}</option>`)}
          </select></div>
      </div>
      ${livePlayer() ? html`<p class="notice" data-testid="sj-l-live">${t("systmj.ui.learning_live")}</p>` : nothing}
      ${savoirs(state, c).length ? html`<p data-testid="sj-l-savoir">${t("systmj.ui.savoir_support", { cards: savoirs(state, c).map((x) => `${x.name} (${x.number})`).join(", ") })}</p>` : nothing}
      <p class="muted small">${t("systmj.ui.learning_help")}</p>
    </section>
    </div><div>
    <section class="card" aria-labelledby="sj-l-odds-title">
      <h2 id="sj-l-odds-title">${t("systmj.ui.learning_odds")}</h2>
      ${oddsBlock(odds)}
      ${odds?.error?.code === "systmj.learning.once_per_session"
        ? html`<p class="notice" role="status" data-testid="sj-l-done">${t("systmj.ui.learning_done", { session: req.subject.session })}</p>`
        : odds?.error ? errorLine(odds.error, state, "sj-l-refused") : nothing}
      <button type="button" class="primary" id="sj-l-roll" ?disabled=${Boolean(rollWhy) || ui.busy} aria-describedby=${why.id} @click=${() => learn(app, c)}>${t("systmj.ui.learn")}</button>
      ${why.note}
      ${errorLine(ui.error, state)}
    </section>
    ${resultBlock(ui.result)}
    </div></div>
  `;
}


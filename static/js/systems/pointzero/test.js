// A Point Zéro test: skill test (Compétence/ATTR[Difficulté]) or attribute test (ATTR[Difficulté]);
// difficulty from the ladder or a number, stacked modifiers; a Tension point (+2 dice) and the
// Surpassement (only the choices the rules allow, with the reasons of the others). The exact odds
// (pointzero.test.odds) are shown BEFORE the roll, with every allowed sacrifice compared. The roll
// shows every die (kept and dropped), the bonuses, total, margin and criticals; a Méticuleux
// character picks the dice kept (same seed, same dice). Oppositions: odds with the tie-breaks,
// a re-roll when a winner must be named. Every roll goes to the log with its request and seed.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, errorMessage, t, tn } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { liveCharacters } from "../../live/private.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { outcomeBar, segment } from "../../views/odds-bar.js";
import { comparison, testBar } from "./compare.js";
import { loadPrefs, pick, pickInt, savePrefs } from "../../views/prefs.js";
import { requestCache, resultShare, reveal, onUndo } from "../../views/ui.js";
import { audienceField, audienceOf } from "../../views/audience.js";
import { forgetVerify, verifyControl, verifyRecord } from "../../views/verify.js";
import {
  DIFFICULTIES, DIFF_VALUE, MODIFIERS, MOD_VALUE, backLink, characters, diceTerm, errorLine, findCharacter,
  nameOf, prob, ready, recordTensionPoint, renderGauge, signed, tensionView, useTensionPoint, verdict,
} from "./common.js";

/** One opponent's settings: a character of the table (`who`) or an NPC given by its levels. */
function newOpponent() {
  return { who: "", bKind: "skill", bSkill: 0, bAttr: 0, npcName: "", npcSkillName: "", npcCode: "", npcSkill: 3, npcAttr: 3 };
}
/** The most sides of one opposition (the engine's MAX_SIDES, pointzero/ops.py). */
const MAX_SIDES = 8;

const ui = {
  id: null, kind: "skill", skill: 0, attribute: 0, difficulty: "moyen", custom: 15,
  mods: Object.fromEntries(MODIFIERS.map((m) => [m, 0])), tension: false, sacrifice: 0,
  result: null, request: null, logId: null, liveEntry: null, keep: null, error: null, busy: false,
  opp: { ...newOpponent(), extra: [], tension: false, sacrifice: 0, result: null, error: null, request: null },
};
const testOdds = requestCache();
const oppOdds = requestCache({ keepStale: true });
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => {
  Object.assign(ui, { result: null, keep: null, liveEntry: null, logId: null, error: null });
  Object.assign(ui.opp, { result: null, error: null });
});

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, Math.trunc(Number(v)) || 0));
/** Problems of the number fields of this page (a bad value is refused there and changes nothing). */
const numberErrors = {};

/** A whole-number input lo..hi: the value goes to `target[key]` only when valid; else the field says why. */
function wholeNumber(app, target, key, lo, hi) {
  return (e) => {
    const text = e.target.value.trim();
    const n = Number(text);
    if (text === "" || !Number.isInteger(n) || n < lo || n > hi) {
      numberErrors[e.target.id] = t("pointzero.ui.whole_number", { min: lo, max: hi });
    } else {
      delete numberErrors[e.target.id];
      target[key] = n;
      if (target === ui.opp || ui.opp.extra.includes(target)) ui.opp.result = null;
      else {
        ui.result = null;
        remember(app);
      }
    }
    app.rerender();
  };
}

function numberField(app, id, label, target, key, lo, hi) {
  const error = numberErrors[id];
  return html`<div class="field"><label for=${id}>${label}</label>
    <input id=${id} type="number" min=${lo} max=${hi} step="1" inputmode="numeric" .value=${String(target[key])}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${`${id}-error`} @change=${wholeNumber(app, target, key, lo, hi)}>
    <p class="field-error" id=${`${id}-error`}>${error ?? ""}</p></div>`;
}
const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();
const isMeticuleux = (c) => c.atouts.some((a) => fold(a) === "meticuleux");

const PREFS = "pointzero.test";

/** Back on a character's page: the settings the player left there (prefs.js), each checked.
 * A Tension point is spent by a roll: never remembered. */
function reset(app, id, c) {
  if (ui.id === id || !c) return;
  const p = loadPrefs(app, "pointzero", PREFS, id);
  const mods = p && Object.hasOwn(p, "mods") && p.mods && typeof p.mods === "object" ? p.mods : null;
  Object.assign(ui, { more: null, id, kind: pick(p, "kind", ["skill", "attribute"], "skill"),
    skill: pickInt(p, "skill", 0, Math.max(0, c.skills.length - 1), 0),
    attribute: pickInt(p, "attribute", 0, Math.max(0, c.attributes.length - 1), 0),
    difficulty: pick(p, "difficulty", [...DIFFICULTIES, "custom"], "moyen"), custom: pickInt(p, "custom", 0, 99, 15),
    tension: false, sacrifice: pickInt(p, "sacrifice", 0, 10, 0), result: null, request: null,
    logId: null, liveEntry: null, keep: null, error: null, mods: Object.fromEntries(MODIFIERS.map((m) => [m, pickInt(mods, m, 0, 5, 0)])) });
  Object.assign(ui.opp, { who: "", extra: [], tension: false, sacrifice: 0, result: null, error: null, request: null });
  testOdds.clear();
  oppOdds.clear();
}

function remember(app) {
  savePrefs(app, "pointzero", PREFS, ui.id, { kind: ui.kind, skill: ui.skill, attribute: ui.attribute, difficulty: ui.difficulty,
    custom: ui.custom, sacrifice: ui.sacrifice, mods: { ...ui.mods } });
}

function focusResult(id) {
  requestAnimationFrame(() => {
    document.getElementById(id)?.focus({ preventScroll: true });
    reveal(id);
  });
}

/** The outcome fields a replay must reproduce (verify.js); the request is self-contained. */
const VERIFY_KEYS = ["result"];

function modifiers() {
  return MODIFIERS.flatMap((m) => Array(ui.mods[m]).fill(m));
}

/** The side of a test every op shares: kind, levels, names for the notation. */
function side(c, kind, skillIndex, attrIndex) {
  const attr = c.attributes[attrIndex] ?? c.attributes[0];
  const skill = c.skills[skillIndex];
  const s = { kind: kind === "skill" && skill ? "skill" : "attribute", attribute: attr.level, attribute_code: attr.code };
  if (s.kind === "skill") Object.assign(s, { skill: skill.level, skill_name: skill.name.slice(0, 60) });
  return s;
}

/** The table's reading of Tension dice below the attribute (a public table setting, MJ screen). */
const tensionRule = (view) => view?.tension_rule ?? "missing_dice";

/** The test as declared (pointzero.test.* "test"): Tension critique is the public flag only. */
function spec(c, view) {
  const s = side(c, ui.kind, ui.skill, ui.attribute);
  s.difficulty = ui.difficulty === "custom" ? clamp(ui.custom, 0, 99) : ui.difficulty;
  const mods = modifiers();
  if (mods.length) s.modifiers = mods;
  s.critical = Boolean(view?.critical);
  s.meticuleux = isMeticuleux(c);
  if (s.kind === "skill") Object.assign(s, { sacrifice: ui.sacrifice, tension: ui.tension, tension_rule: tensionRule(view) });
  return s;
}

function logLabel(r, s) {
  const extra = [s.sacrifice ? t("pointzero.ui.log_sacrifice", { n: s.sacrifice }) : "", s.tension ? t("pointzero.ui.log_tension") : ""];
  return [r.notation, ...extra].filter(Boolean).join(" · ");
}

function logResult(r) {
  const res = r.result;
  return { total: res.total, summary: `${verdict(res)} (${t("pointzero.ui.margin")} ${signed(res.margin)})`, terms: [diceTerm(res, `${r.plan.dice}d6`)],
    verify: verifyRecord(r, VERIFY_KEYS) };
}

async function roll(app, c) {
  if (ui.busy) return;
  const view = tensionView(app);
  const s = spec(c, view);
  const request = { op: "pointzero.test.roll", test: s, seed: newSeed() };
  // At a live table the roll is a move the MJ's device referees (py/tablee/referee.py): it
  // names the character, reads Tension critique from the whole table and records the Tension
  // point with the roll, so the page neither asks for nor records the point itself.
  const live = liveCharacters() !== null;
  if (live) request.character_id = c.id;
  ui.busy = true;
  ui.error = null;
  app.rerender();
  let tension = null;
  if (s.tension && !live) {
    tension = await useTensionPoint(app, "dice", nameOf(c), "");
    if (tension.error) {
      Object.assign(ui, { busy: false, error: tension.error });
      app.rerender();
      return;
    }
  }
  const r = await app.call(request);
  ui.busy = false;
  if (r.error) {
    ui.error = r.error;
    app.rerender();
    return;
  }
  // At a live table the referee's entry of the roll (answered `logged`) is what a Méticuleux
  // choice names: the seed is the MJ's device's, a second roll would be a new one.
  Object.assign(ui, { result: { ...r, check: { request, ...verifyRecord(r, VERIFY_KEYS) } }, request, keep: null, tension: false,
    liveEntry: live && typeof r.logged === "string" ? r.logged : null });
  forgetVerify(`pz-test-${request.seed}`);
  if (tension) await recordTensionPoint(app, ui, "dice", nameOf(c), "");
  if (!app.addLog({ kind: "pointzero.test", system: "pointzero", who: nameOf(c), label: logLabel(r, s), request, result: logResult(r), ...audienceOf(app) })) app.rerender();
  ui.logId = app.doc.log.at(-1)?.id ?? null;
  focusResult("pz-result-title");
}

/** Méticuleux: the same request (same seed, same dice) with the dice the player keeps. At a
 * live table: a move naming the referee's entry of the roll, which the MJ's device resolves on
 * the dice it recorded and logs as an entry of its own (py/tablee/referee.py, _pz_keep). */
async function keepChosen(app, c) {
  const keep = [...ui.keep].sort((a, b) => a - b);
  const live = ui.liveEntry !== null;
  const request = live
    ? { op: "pointzero.test.roll", test: ui.request.test, character_id: ui.request.character_id, keep, entry: ui.liveEntry }
    : { ...ui.request, keep };
  ui.busy = true;
  app.rerender();
  const r = await app.call(request);
  ui.busy = false;
  if (r.error) {
    ui.error = r.error;
    app.rerender();
    return;
  }
  Object.assign(ui, { result: { ...r, check: { request, ...verifyRecord(r, VERIFY_KEYS) } }, request, keep: null, error: null, liveEntry: null });
  if (live) {
    // The referee logged the choice as an entry of its own: the page's words label it.
    app.addLog({ kind: "pointzero.test", system: "pointzero", who: nameOf(c),
      label: `${logLabel(r, request.test)} · ${t("pointzero.ui.log_meticuleux")}`, request, result: logResult(r) });
    focusResult("pz-result-title");
    return;
  }
  forgetVerify(`pz-test-${request.seed}`);
  // The entry's id is read now, outside the change (the change is applied again to the latest
  // saved table when written: it must find the same entry there).
  const logId = ui.logId;
  app.update((doc) => {
    const entry = doc.log.find((e) => e.id === logId);
    if (entry) Object.assign(entry, { request, result: logResult(r) });
  });
}

function stepper(app, key) {
  const label = t(`pointzero.modifier.${key}`);
  const set = (delta) => { ui.mods[key] = clamp(ui.mods[key] + delta, 0, 5); remember(app); app.rerender(); };
  return html`<div class="pz-stepper" role="group" aria-labelledby=${`pz-mod-${key}-label`}>
    <span id=${`pz-mod-${key}-label`} class="small">${label} (${signed(MOD_VALUE[key])})</span>
    <span class="pz-stepper-row">
      <button type="button" id=${`pz-mod-${key}-minus`} aria-label=${t("pointzero.ui.less", { what: label })} ?disabled=${ui.mods[key] <= 0} @click=${() => set(-1)}>−</button>
      <output id=${`pz-mod-${key}`} aria-live="polite">${ui.mods[key]}</output>
      <button type="button" id=${`pz-mod-${key}-plus`} aria-label=${t("pointzero.ui.more", { what: label })} ?disabled=${ui.mods[key] >= 5} @click=${() => set(1)}>+</button>
    </span>
  </div>`;
}

function setup(app, c, s, view, odds) {
  const choose = (key, num = false) => (e) => { ui[key] = num ? Number(e.target.value) : e.target.value; ui.result = null; remember(app); app.rerender(); };
  const skillTest = s.kind === "skill";
  // Tension and Surpassement, the system's core choices, sit on the first screen (not folded).
  const active = MODIFIERS.filter((m) => ui.mods[m]).length + (skillTest ? 0 : 1);
  return html`<section class="card" aria-labelledby="pz-setup-title">
    <h2 id="pz-setup-title">${t("pointzero.ui.test_setup")}</h2>
    <div class="pz-form-grid">
      ${skillTest ? html`<div class="field"><label for="pz-t-skill">${t("pointzero.ui.skill")}</label>
        <select id="pz-t-skill" @change=${choose("skill", true)}>
          ${c.skills.map((k, i) => html`<option value=${i} ?selected=${i === ui.skill}>${k.name} (${k.level})</option>`)}
        </select></div>` : nothing}
      <div class="field"><label for="pz-t-attr">${t("pointzero.ui.attribute")}</label>
        <select id="pz-t-attr" @change=${choose("attribute", true)}>
          ${c.attributes.map((a, i) => html`<option value=${i} ?selected=${i === ui.attribute}>${a.code} — ${a.name} (${a.level})</option>`)}
        </select></div>
      <div class="field"><label for="pz-t-diff">${t("pointzero.ui.difficulty")}</label>
        <select id="pz-t-diff" @change=${choose("difficulty")}>
          ${DIFFICULTIES.map((k) => html`<option value=${k} ?selected=${k === ui.difficulty}>${t("pointzero.ui.difficulty_option", { label: t(`pointzero.difficulty.${k}`), value: DIFF_VALUE[k] })}</option>`)}
          <option value="custom" ?selected=${ui.difficulty === "custom"}>${t("pointzero.ui.difficulty_custom")}</option>
        </select></div>
      ${ui.difficulty === "custom" ? numberField(app, "pz-t-custom", t("pointzero.ui.difficulty_value"), ui, "custom", 0, 99) : nothing}
    </div>
    ${skillTest ? html`<label class="check pz-tension-box"><input type="checkbox" id="pz-t-tension" .checked=${ui.tension}
        @change=${(e) => { ui.tension = e.target.checked; ui.result = null; app.rerender(); }}>
        ${t("pointzero.ui.use_tension")}</label>
      <p class="muted small">${t("pointzero.ui.use_tension_help", { gauge: view ? view.gauge : "…" })}</p>` : nothing}
    ${odds && !odds.error ? surpassement(app, odds) : nothing}
    <details class="more-options" data-testid="more-options" .open=${(ui.more ??= active > 0)}
      @toggle=${(e) => { ui.more = e.target.open; }}>
      <summary>${t("testpage.more_options")}${active ? html` <span class="muted small">(${tn("testpage.active", active)})</span>` : nothing}</summary>
    <fieldset class="pz-kind inline-choices"><legend>${t("pointzero.ui.kind")}</legend>
        <label class="check"><input type="radio" name="pz-kind" id="pz-kind-skill" value="skill" .checked=${ui.kind === "skill"} ?disabled=${!c.skills.length} @change=${choose("kind")}> ${t("pointzero.ui.kind_skill")}</label>
        <label class="check"><input type="radio" name="pz-kind" id="pz-kind-attribute" value="attribute" .checked=${ui.kind !== "skill" || !c.skills.length} @change=${choose("kind")}> ${t("pointzero.ui.kind_attribute")}</label>
        ${c.skills.length ? nothing : html`<p class="muted small">${t("pointzero.ui.no_skills_test")}</p>`}
      </fieldset>
      <fieldset class="pz-mods"><legend>${t("pointzero.ui.modifiers")}</legend>
        <p class="muted small">${t("pointzero.ui.modifiers_help")}</p>
        <div class="pz-mod-grid">${MODIFIERS.map((m) => stepper(app, m))}</div>
      </fieldset>
    </details>
  </section>`;
}

/** The character's key numbers beside the test (wide screens). */
function sheetSummary(c) {
  return html`<section class="card test-sheet" aria-labelledby="pz-sheet-sum-title" data-testid="test-sheet">
    <h2 id="pz-sheet-sum-title">${t("testpage.sheet_summary")}</h2>
    <dl class="facts">
      ${c.attributes.map((a) => html`<dt>${a.code} — ${a.name}</dt><dd>${a.level}</dd>`)}
      ${c.skills.length ? html`<dt>${t("testpage.skills")}</dt><dd>${c.skills.map((k) => `${k.name} ${k.level}`).join(", ")}</dd>` : nothing}
      ${c.atouts.length ? html`<dt>${t("pointzero.ui.atouts")}</dt><dd>${c.atouts.join(", ")}</dd>` : nothing}
    </dl>
  </section>`;
}

/** Only the sacrifices the rules allow are offered; the others are listed with the reason. */
function surpassement(app, odds) {
  const opts = odds?.surpassement;
  if (!opts) return nothing;
  const critical = opts.refused.some((r) => r.reasons.some((x) => x.code === "pointzero.surpassement.tension_critique"));
  const shown = opts.refused.filter((r) => r.count <= opts.max + 1 || critical && r.count <= 1);
  return html`<fieldset class="pz-surpass" data-testid="pz-surpassement" data-allowed=${opts.allowed.join(",")}>
    <legend>${t("pointzero.ui.surpassement")}</legend>
    <p class="muted small">${t("pointzero.ui.surpassement_help")}</p>
    <div class="row" role="radiogroup" aria-label=${t("pointzero.ui.surpassement")}>
      ${opts.allowed.map((n) => html`<label class="check pz-choice"><input type="radio" name="pz-sacrifice" id=${`pz-sacrifice-${n}`} value=${n}
        .checked=${ui.sacrifice === n} @change=${() => { ui.sacrifice = n; ui.result = null; remember(app); app.rerender(); }}>
        ${n === 0 ? t("pointzero.ui.no_sacrifice") : t(n === 1 ? "pointzero.ui.sacrifice_one" : "pointzero.ui.sacrifice_other", { n, bonus: 2 * n })}</label>`)}
    </div>
    ${critical ? html`<p class="pz-refused" data-testid="pz-surpassement-refused" role="status">${errorMessage({ code: "pointzero.surpassement.tension_critique" })}</p>`
      : shown.length ? html`<ul class="pz-refused-list small" data-testid="pz-surpassement-refused">
        ${shown.map((r) => html`<li>${t(r.count === 1 ? "pointzero.ui.refused_count_one" : "pointzero.ui.refused_count_other", { n: r.count })} ${r.reasons.map((x) => errorMessage(x)).join(" ")}</li>`)}
      </ul>` : nothing}
  </fieldset>`;
}

/** The odds summary (notation, plan, success and criticals) right above the roll button. */
function oddsBlock(app, odds) {
  if (!odds) return html`<p class="muted">${t("pointzero.ui.odds_loading")}</p>`;
  if (odds.error) {
    const zero = odds.error.code === "pointzero.test.skill_zero";
    return html`${errorLine(odds.error, "pz-odds-error")}
      ${zero ? html`<button type="button" id="pz-to-attribute" @click=${() => { ui.kind = "attribute"; remember(app); app.rerender(); }}>${t("pointzero.ui.attribute_instead")}</button>` : nothing}`;
  }
  const o = odds.odds;
  const plan = odds.plan;
  return html`<div class="odds-summary" data-testid="pz-odds" data-notation=${odds.notation} data-difficulty=${odds.difficulty}>
    <p><strong class="pz-notation" data-testid="pz-notation">${odds.notation}</strong>
      ${plan ? html`<span class="small">· ${t(plan.difference_bonus ? "pointzero.ui.plan_all" : "pointzero.ui.plan", { dice: plan.dice, keep: plan.keep, bonus: signed(plan.bonus) })}</span>` : nothing}</p>
    ${o ? html`<p class="pz-odds-facts">${t("pointzero.ui.success_chance")} <strong>${prob(o.success, "pz-odds-success")}</strong></p>
      ${outcomeBar(testBar(o), { testid: "pz-odds-bar", label: t("pointzero.ui.success_chance") })}
      <ul class="odds-inline small">
        <li>${t("pointzero.ui.critical_success")} ${prob(o.critical_success, "pz-odds-crit-success")}</li>
        <li>${t("pointzero.ui.critical_failure")} ${prob(o.critical_failure, "pz-odds-crit-failure")}</li>
      </ul>` : nothing}
  </div>`;
}

/** After the roll button: the margin distribution and the sacrifices compared. */
function oddsDetails(odds) {
  if (!odds || odds.error) return nothing;
  const o = odds.odds;
  return html`${o ? html`<details class="pz-margin"><summary>${t("pointzero.ui.margin_title")}</summary>
      <p class="small" data-testid="pz-margin-starts">${t("pointzero.ui.success_from", { margin: signed(0), total: odds.difficulty })}</p>
      <div class="odds-table-box" data-testid="pz-margin">${renderDistribution(o.margin.map((m, i) => ({ label: signed(m.margin), p: m.p, percent: m.percent,
        tone: m.margin >= 0 ? "win" : "fail", starts: m.margin >= 0 && (i === 0 || o.margin[i - 1].margin < 0) })), t("pointzero.ui.margin"))}</div>
    </details>` : nothing}
    ${comparison(odds, ui.sacrifice)}`;
}

function resultBlock(app, c) {
  const r = ui.result;
  if (!r) return nothing;
  const res = r.result;
  const choosing = ui.keep !== null;
  // A keep is the same seed's dice again; at a live table, the referee's entry of the roll
  // (the MJ's device draws each move's seed), offered once per roll.
  const meticuleux = isMeticuleux(c) && r.plan.keep < r.plan.dice && (liveCharacters() === null || ui.liveEntry !== null);
  const toggle = (i) => {
    const keep = new Set(ui.keep);
    if (keep.has(i)) keep.delete(i); else keep.add(i);
    ui.keep = keep;
    app.rerender();
  };
  const tone = res.success ? "outcome-ok" : "outcome-bad";
  return html`<section class="card pz-result test-result" aria-labelledby="pz-result-title" data-testid="pz-result"
      data-total=${res.total} data-success=${String(res.success)} data-critical=${res.critical ?? "none"}>
    <h2 id="pz-result-title" tabindex="-1">${t("pointzero.ui.result")} — ${r.notation}</h2>
    <ul class="dice" aria-label=${t("pointzero.ui.dice_rolled")}>
      ${res.dice.map((d, i) => choosing
        ? html`<li><button type="button" class="die ${ui.keep.has(i) ? "kept" : "dropped"}" aria-pressed=${String(ui.keep.has(i))}
            data-testid="pz-die" @click=${() => toggle(i)}>${d.value}</button></li>`
        : html`<li class="die ${d.kept ? "kept" : "dropped"}" data-testid="pz-die" data-kept=${String(d.kept)}
            aria-label=${`${t("tray.die")} ${d.value}${d.kept ? "" : ` (${t("tray.dropped")})`}`}>${d.value}</li>`)}
    </ul>
    ${sumLine(res)}
    <p class="pz-verdict ${tone}" role="status" data-testid="pz-verdict">${verdict(res)} · ${t("pointzero.ui.margin")} ${signed(res.margin)}</p>
    ${meticuleux && !choosing ? html`<button type="button" id="pz-choose-keep" @click=${() => { ui.keep = new Set(res.kept); app.rerender(); }}>${t("pointzero.ui.choose_keep", { n: r.plan.keep })}</button>` : nothing}
    ${choosing ? html`<p class="small">${t("pointzero.ui.choose_keep_help", { n: r.plan.keep, chosen: ui.keep.size })}</p>
      <div class="row"><button type="button" class="primary" id="pz-keep-apply" ?disabled=${ui.keep.size !== r.plan.keep || ui.busy} @click=${() => keepChosen(app, c)}>${t("pointzero.ui.keep_apply")}</button>
      <button type="button" @click=${() => { ui.keep = null; app.rerender(); }}>${t("pointzero.ui.cancel")}</button></div>` : nothing}
    ${choosing ? nothing : html`${verifyControl(app, `pz-test-${r.seed}`, r.check)}${resultShare(app, r.seed)}`}
  </section>`;
}

/** The total said as what it adds up: each die kept, then the bonuses ("Dés gardés : 5 + 6 +
 * 1 d'écart = 12"); a single term is the total itself, never "11 = 11" ("Dé gardé : 5"). */
function sumLine(res) {
  const kept = res.dice.filter((d) => d.kept).map((d) => d.value);
  const bonuses = [
    res.difference_bonus ? t("pointzero.ui.difference_bonus", { n: res.difference_bonus }) : "",
    res.surpassement_bonus ? t("pointzero.ui.surpassement_bonus", { n: res.surpassement_bonus }) : "",
  ].filter(Boolean);
  const total = html`<strong data-testid="pz-total">${res.total}</strong>`;
  const terms = kept.length + bonuses.length > 1 ? html`${[kept.join(" + "), ...bonuses].join(" ")} = ${total}` : total;
  return html`<p class="pz-sum" data-testid="pz-sum">${t("pointzero.ui.kept_dice", { n: kept.length })}${colon()}${terms}
    · ${t("pointzero.ui.difficulty")} ${res.difficulty}</p>`;
}

// ----------------------------------------------------------------------------- opposition
/** One opponent's side: a character of the table (its chosen test) or an NPC given by its
 * levels, an attribute code and a skill name for the notation. */
function opponentSide(app, a, ent) {
  const other = ent.who ? findCharacter(app.doc, ent.who) : null;
  if (other) return { side: { ...side(other, ent.bKind, ent.bSkill, ent.bAttr), name: nameOf(other).slice(0, 80) }, other };
  const b = { kind: ent.bKind, attribute: clamp(ent.npcAttr, 0, 10), name: (ent.npcName.trim() || t("pointzero.ui.npc")).slice(0, 80) };
  const code = ent.npcCode || a.attribute_code;
  if (code) b.attribute_code = code.slice(0, 3);
  if (ent.bKind === "skill") {
    b.skill = clamp(ent.npcSkill, 0, 10);
    if (ent.npcSkillName.trim()) b.skill_name = ent.npcSkillName.trim().slice(0, 60);
  }
  return { side: b, other: null };
}

/** The sides. This character's side takes the page's test and, in a skill test, its own
 * Tension point and Surpassement (Tension critique read from the public gauge); then the
 * first opponent (`b`) and the opponents added beyond it ("Deux personnages (ou plus)"). */
function oppSides(app, c, view) {
  const o = ui.opp;
  const a = { ...side(c, ui.kind, ui.skill, ui.attribute), name: nameOf(c).slice(0, 80) };
  if (a.kind === "skill") {
    Object.assign(a, { tension: o.tension, sacrifice: o.sacrifice, critical: Boolean(view?.critical), tension_rule: tensionRule(view) });
  }
  if (isMeticuleux(c)) a.meticuleux = true;
  const { side: b, other } = opponentSide(app, a, o);
  const extra = o.extra.map((ent) => opponentSide(app, a, ent));
  return { a, b, other, extra };
}

/** Two sides go as `a`/`b` (answered "a"/"b"); three or more as `sides` (answered by index). */
function oppRequest(op, { a, b, extra }) {
  return extra.length ? { op, sides: [a, b, ...extra.map((x) => x.side)] } : { op, a, b };
}
/** Every side, in the request's order. */
const allSides = ({ a, b, extra }) => [a, b, ...extra.map((x) => x.side)];
/** This character's answer in the odds (its Surpassement choices), either form. */
const mine = (odds) => (odds && !odds.error ? (odds.sides ? odds.sides[0] : odds.a) : null);
/** The winner's name, from either form's `winner` ("a"/"b" or an index; null: perfect tie). */
function winnerName(r, sides) {
  if (r.winner === null || r.winner === undefined) return null;
  return r.winner === "a" ? sides[0].name : r.winner === "b" ? sides[1].name : sides[r.winner]?.name ?? null;
}
/** Each side's roll, in order, from either form. */
const rolls = (r) => (r.sides ? r.sides : [r.a, r.b]);

async function oppose(app, c) {
  if (ui.busy) return;
  const sides = oppSides(app, c, tensionView(app));
  const { a } = sides;
  const request = { ...oppRequest("pointzero.opposition.roll", sides), seed: newSeed() };
  ui.busy = true;
  app.rerender();
  let tension = null;
  // At a live table the Tension point is a move (recorded once, below), never asked twice.
  if (a.tension && liveCharacters() !== null) tension = { live: true };
  else if (a.tension) {
    tension = await useTensionPoint(app, "dice", a.name, "");
    if (tension.error) {
      Object.assign(ui, { busy: false });
      ui.opp.error = tension.error;
      app.rerender();
      return;
    }
  }
  const r = await app.call(request);
  ui.busy = false;
  if (r.error) {
    ui.opp.error = r.error;
    app.rerender();
    return;
  }
  Object.assign(ui.opp, { result: r, error: null, request, tension: false });
  if (tension) await recordTensionPoint(app, ui.opp, "dice", a.name, "");
  const list = allSides(sides);
  const winner = winnerName(r, list);
  const done = rolls(r);
  app.addLog({ kind: "pointzero.opposition", system: "pointzero", who: a.name, ...audienceOf(app),
    label: t("pointzero.ui.opposition_vs", { a: a.name, b: list.slice(1).map((s) => s.name).join(", ") }), request,
    result: { summary: `${winner ? t("pointzero.ui.wins", { name: winner }) : t("pointzero.ui.perfect_tie")} (${done.map((x) => x.result.total).join(" / ")})`,
      terms: done.map((x, i) => diceTerm(x.result, list[i].name)) } });
}

function oppOddsBlock(odds, sides) {
  if (!odds) return html`<p class="muted">${t("pointzero.ui.odds_loading")}</p>`;
  if (odds.error) return errorLine(odds.error, "pz-opp-odds-error");
  const list = allSides(sides);
  if (odds.sides) {
    return html`<div data-testid="pz-opp-odds">
      <dl class="facts">
        ${odds.sides.map((s, i) => html`<dt>${t("pointzero.ui.wins", { name: list[i].name })}</dt><dd>${prob(s.wins, `pz-opp-side-${i}`)}</dd>`)}
        <dt>${t("pointzero.ui.perfect_tie")}</dt><dd>${prob(odds.perfect_tie, "pz-opp-tie")}</dd>
      </dl>
    </div>`;
  }
  const [a, b] = list;
  const tieTo = odds.tie_goes_to === "a" ? a.name : odds.tie_goes_to === "b" ? b.name : null;
  return html`<div data-testid="pz-opp-odds">
    <dl class="facts">
      <dt>${t("pointzero.ui.wins", { name: a.name })}</dt><dd>${prob(odds.a_wins, "pz-opp-a")}</dd>
      <dt>${t("pointzero.ui.wins", { name: b.name })}</dt><dd>${prob(odds.b_wins, "pz-opp-b")}</dd>
      <dt>${t("pointzero.ui.perfect_tie")}</dt><dd>${prob(odds.perfect_tie, "pz-opp-tie")}</dd>
    </dl>
    ${outcomeBar([segment("b_wins", t("pointzero.ui.wins", { name: b.name }), odds.b_wins.p, "fail-2"),
      segment("perfect_tie", t("pointzero.ui.perfect_tie"), odds.perfect_tie.p, "neutral"),
      segment("a_wins", t("pointzero.ui.wins", { name: a.name }), odds.a_wins.p, "win-3")], { testid: "pz-opp-bar" })}
    <p class="small">${t("pointzero.ui.tie_on_total")} ${prob(odds.tie_on_total)} — ${tieTo ? t(`pointzero.ui.tie_to_${odds.tie_reason}`, { name: tieTo }) : t("pointzero.ui.tie_stays")}</p>
    ${!tieTo && odds.eventual && odds.perfect_tie.percent > 0 ? html`<p class="small muted">${t("pointzero.ui.eventual", { a: a.name, b: b.name })}
      ${prob(odds.eventual.a_wins)} / ${prob(odds.eventual.b_wins)}</p>` : nothing}
  </div>`;
}

/** This character's options in the opposition: a Tension point and the Surpassement (only
 * the sacrifices the rules allow, from pointzero.opposition.odds), as in a test. */
function oppOptions(app, c, a, odds, view) {
  const o = ui.opp;
  if (a.kind !== "skill") return nothing;
  const opts = mine(odds)?.surpassement ?? null;
  return html`<fieldset class="pz-opp-options" data-testid="pz-opp-options"><legend>${t("pointzero.ui.opp_options", { name: a.name })}</legend>
    <label class="check"><input type="checkbox" id="pz-o-tension" .checked=${o.tension}
      @change=${(e) => { o.tension = e.target.checked; o.sacrifice = 0; o.result = null; app.rerender(); }}> ${t("pointzero.ui.use_tension")}</label>
    <p class="muted small">${t("pointzero.ui.use_tension_help", { gauge: view ? view.gauge : "…" })}</p>
    ${opts ? html`<div class="field"><label for="pz-o-sacrifice">${t("pointzero.ui.surpassement")}</label>
      <select id="pz-o-sacrifice" data-allowed=${opts.allowed.join(",")} @change=${(e) => { o.sacrifice = Number(e.target.value); o.result = null; app.rerender(); }}>
        ${opts.allowed.map((n) => html`<option value=${n} ?selected=${n === o.sacrifice}>${n === 0 ? t("pointzero.ui.no_sacrifice")
          : t(n === 1 ? "pointzero.ui.sacrifice_one" : "pointzero.ui.sacrifice_other", { n, bonus: 2 * n })}</option>`)}
      </select></div>` : nothing}
    ${isMeticuleux(c) ? html`<p class="muted small" data-testid="pz-opp-meticuleux">${t("pointzero.ui.opp_meticuleux")}</p>` : nothing}
  </fieldset>`;
}

/** One opponent's fields; `sfx` tells the ids apart ("" for the first opponent, "-3"… after). */
function opponentFields(app, ent, other, sfx, others, codes, a) {
  const o = ui.opp;
  const set = (key, num = false) => (e) => { ent[key] = num ? Number(e.target.value) : e.target.value; o.result = null; app.rerender(); };
  return html`
    <div class="field"><label for=${`pz-o-who${sfx}`}>${t("pointzero.ui.opponent")}</label>
      <select id=${`pz-o-who${sfx}`} @change=${set("who")}>
        <option value="" ?selected=${!ent.who}>${t("pointzero.ui.npc_levels")}</option>
        ${others.map((x) => html`<option value=${x.id} ?selected=${x.id === ent.who}>${nameOf(x)}</option>`)}
      </select></div>
    <div class="field"><label for=${`pz-o-kind${sfx}`}>${t("pointzero.ui.kind")}</label>
      <select id=${`pz-o-kind${sfx}`} @change=${set("bKind")}>
        <option value="skill" ?selected=${ent.bKind === "skill"}>${t("pointzero.ui.kind_skill")}</option>
        <option value="attribute" ?selected=${ent.bKind !== "skill"}>${t("pointzero.ui.kind_attribute")}</option>
      </select></div>
    ${other ? html`
      ${ent.bKind === "skill" ? html`<div class="field"><label for=${`pz-o-skill${sfx}`}>${t("pointzero.ui.skill")}</label>
        <select id=${`pz-o-skill${sfx}`} @change=${set("bSkill", true)}>${other.skills.map((k, i) => html`<option value=${i} ?selected=${i === ent.bSkill}>${k.name} (${k.level})</option>`)}</select></div>` : nothing}
      <div class="field"><label for=${`pz-o-attr${sfx}`}>${t("pointzero.ui.attribute")}</label>
        <select id=${`pz-o-attr${sfx}`} @change=${set("bAttr", true)}>${other.attributes.map((x, i) => html`<option value=${i} ?selected=${i === ent.bAttr}>${x.code} (${x.level})</option>`)}</select></div>`
    : html`
      <div class="field"><label for=${`pz-o-name${sfx}`}>${t("pointzero.ui.npc_name")}</label>
        <input id=${`pz-o-name${sfx}`} maxlength="80" autocomplete="off" .value=${ent.npcName} @change=${set("npcName")}></div>
      ${ent.bKind === "skill" ? html`<div class="field"><label for=${`pz-o-skill-name${sfx}`}>${t("pointzero.ui.npc_skill_name")}</label>
        <input id=${`pz-o-skill-name${sfx}`} maxlength="60" autocomplete="off" .value=${ent.npcSkillName} @change=${set("npcSkillName")}></div>
        ${numberField(app, `pz-o-skill-level${sfx}`, t("pointzero.ui.npc_skill"), ent, "npcSkill", 0, 10)}` : nothing}
      <div class="field"><label for=${`pz-o-code${sfx}`}>${t("pointzero.ui.npc_code")}</label>
        <select id=${`pz-o-code${sfx}`} @change=${set("npcCode")}>
          ${codes.map((code) => html`<option value=${code} ?selected=${code === (ent.npcCode || a.attribute_code)}>${code}</option>`)}
        </select></div>
      ${numberField(app, `pz-o-attr-level${sfx}`, t("pointzero.ui.npc_attribute"), ent, "npcAttr", 0, 10)}`}`;
}

function addSide(app) {
  const o = ui.opp;
  if (2 + o.extra.length >= MAX_SIDES) return;
  o.extra.push(newOpponent());
  o.result = null;
  app.rerender();
}

function removeSide(app, i) {
  const o = ui.opp;
  o.extra.splice(i, 1);
  for (const k of Object.keys(numberErrors)) if (k.startsWith("pz-o-") && /-\d+$/.test(k)) delete numberErrors[k];
  o.result = null;
  app.rerender();
}

function oppResult(app, c, r, sides) {
  const list = allSides(sides);
  const done = rolls(r);
  const keys = r.sides ? done.map((_, i) => String(i)) : ["a", "b"];
  const winner = winnerName(r, list);
  return html`<div class="pz-result" data-testid="pz-opp-result" data-winner=${r.winner ?? "none"} data-reason=${r.reason} role="status">
    <div class="pz-two">
      ${done.map((x, i) => html`<div><p><strong>${list[i].name}</strong> <span class="muted small" data-testid=${`pz-opp-notation-${keys[i]}`}>${x.notation ?? ""}</span></p>
        <ul class="dice" aria-label=${list[i].name}>${x.result.dice.map((d) => html`<li class="die ${d.kept ? "kept" : "dropped"}">${d.value}</li>`)}</ul>
        <p>${t("pointzero.ui.total")} <strong data-testid=${`pz-opp-total-${keys[i]}`}>${x.result.total}</strong></p></div>`)}
    </div>
    <p class="pz-verdict" data-testid="pz-opp-verdict">${winner ? t("pointzero.ui.wins", { name: winner }) : t("pointzero.ui.perfect_tie")}
      <span class="muted small">(${t(`pointzero.ui.reason_${r.reason}`)})</span></p>
    ${r.winner === null ? html`<button type="button" id="pz-opp-reroll" @click=${() => oppose(app, c)}>${t("pointzero.ui.reroll")}</button>` : nothing}
  </div>`;
}

function oppositionSection(app, c) {
  const o = ui.opp;
  const others = characters(app.doc).filter((x) => x.id !== c.id);
  const view = tensionView(app);
  let sides = oppSides(app, c, view);
  let odds = oppOdds(app, oppRequest("pointzero.opposition.odds", sides));
  // A sacrifice no longer allowed (a Tension point unticked, Tension critique): back to none.
  if (mine(odds) && o.sacrifice && !mine(odds).surpassement.allowed.includes(o.sacrifice)) {
    o.sacrifice = 0;
    sides = oppSides(app, c, view);
    odds = oppOdds(app, oppRequest("pointzero.opposition.odds", sides));
  }
  const { a, other } = sides;
  const codes = [...new Set(characters(app.doc).flatMap((x) => x.attributes.map((at) => at.code)))];
  const r = o.result;
  const count = 2 + o.extra.length;
  return html`<section class="card" aria-labelledby="pz-opp-title">
    <h2 id="pz-opp-title">${t("pointzero.ui.opposition")}</h2>
    <p class="muted small">${t("pointzero.ui.opposition_help", { notation: mine(odds)?.notation ?? "…" })}</p>
    <div class="pz-form-grid">${opponentFields(app, o, other, "", others, codes, a)}</div>
    ${o.extra.map((ent, i) => html`<fieldset class="pz-opp-side" data-testid=${`pz-opp-extra-${i + 3}`}>
      <legend>${t("pointzero.ui.side_n", { n: i + 3 })}</legend>
      <div class="pz-form-grid">${opponentFields(app, ent, sides.extra[i].other, `-${i + 3}`, others, codes, a)}</div>
      <button type="button" id=${`pz-o-remove-${i + 3}`} @click=${() => removeSide(app, i)}>${t("pointzero.ui.remove_side", { n: i + 3 })}</button>
    </fieldset>`)}
    <p class="row"><button type="button" id="pz-o-add" ?disabled=${count >= MAX_SIDES} @click=${() => addSide(app)}>${t("pointzero.ui.add_side")}</button>
      <span class="muted small" data-testid="pz-opp-count">${t("pointzero.ui.sides_count", { n: count, max: MAX_SIDES })}</span></p>
    ${oppOptions(app, c, a, odds, view)}
    ${oppOddsBlock(odds, sides)}
    <button type="button" class="primary" id="pz-oppose" ?disabled=${!ready(app) || ui.busy || !odds || Boolean(odds.error)} @click=${() => oppose(app, c)}>${t("pointzero.ui.oppose")}</button>
    ${audienceField(app, "pz-oppose-to")}
    ${errorLine(o.error)}
    ${r ? oppResult(app, c, r, sides) : nothing}
  </section>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  reset(app, id, c);
  if (!c) return html`${backLink("#/pointzero", t("pointzero.ui.back"))}<p role="alert">${t("pointzero.ui.not_found")}</p>`;
  if (ui.skill >= c.skills.length) ui.skill = 0;
  if (ui.attribute >= c.attributes.length) ui.attribute = 0;
  const view = tensionView(app);
  let s = spec(c, view);
  let odds = testOdds(app, { op: "pointzero.test.odds", test: s });
  // A sacrifice no longer allowed (Tension critique, another skill): fall back to the largest allowed.
  if (odds && !odds.error && odds.sacrifice_refused && ui.sacrifice) {
    ui.sacrifice = Math.max(...odds.surpassement.allowed.filter((n) => n <= ui.sacrifice));
    s = spec(c, view);
    odds = testOdds(app, { op: "pointzero.test.odds", test: s });
  }
  const current = Boolean(odds && !odds.error && odds.plan);
  return html`
    <div class="test-head">
      ${backLink(`#/pointzero/character/${encodeURIComponent(id)}`, t("pointzero.ui.back_sheet", { name: nameOf(c) }))}
      <h1>${t("pointzero.ui.test_title", { name: nameOf(c) })}</h1>
    </div>
    <div class="split test-split">
      <div class="test-setup">
        ${setup(app, c, s, view, odds)}
        ${sheetSummary(c)}
      </div>
      <div class="test-side">
        <section class="card test-odds" aria-labelledby="pz-odds-title" data-testid="test-odds">
          <h2 id="pz-odds-title">${t("pointzero.ui.odds_title")}</h2>
          ${oddsBlock(app, odds)}
          <button type="button" class="primary test-roll" id="pz-roll" ?disabled=${!ready(app) || !current || !view} aria-busy=${ui.busy ? "true" : "false"}
            @click=${() => roll(app, c)}>${t(ui.tension ? "pointzero.ui.roll_tension" : "pointzero.ui.roll")}</button>
          ${audienceField(app, "pz-roll-to")}
          ${errorLine(ui.error)}
        </section>
        ${resultBlock(app, c)}
        ${oddsDetails(odds)}
        <section class="card pz-tension-card" aria-labelledby="pz-gauge-title">
          <h2 id="pz-gauge-title">${t("pointzero.ui.tension_title")}</h2>
          ${renderGauge(view)}
        </section>
      </div>
    </div>
    ${oppositionSection(app, c)}
  `;
}

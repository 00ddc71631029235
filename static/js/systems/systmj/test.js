// A SYSTMJ test (2.3): a skill or an attribute, the MJ's bonus/malus from the text's table
// (or any value), an attribute used in place of a missing skill with the MJ's malus (Brutor).
// The exact chance of each outcome is shown BEFORE the roll; the roll shows the two d10
// (tens, units), the outcome and its degree, and enters the roll log with its seed.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { t, tn } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { loadPrefs, pick, savePrefs } from "../../views/prefs.js";
import { callBusy, onNavigate, resultShare, reveal, onUndo } from "../../views/ui.js";
import { forgetVerify, verifyControl, verifyRecord } from "../../views/verify.js";
import {
  ATTRIBUTES, GENERIC_SKILLS, attrLabel, backLink, d100Term, degreeLabel, errorLine, findCharacter, nameOf,
  prob, ready, renderD100, requestCache, rules, scoreOf, skillLabel, specialSkills, tableState,
} from "./common.js";
import { cardRules, wearOf } from "./cards.js";
import { audienceField, audienceOf } from "../../views/audience.js";

const ui = { id: null, item: "", pick: "skill:detection", modifier: "normal", custom: "0", substitute: "0", result: null, error: null, busy: false, inputError: null };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { result: null, error: null }));
const oddsCache = requestCache();

const MOD_ORDER = ["normal", "facilite", "aise", "tres_facile", "extremement_simple", "petite_difficulte", "ardu", "tres_difficile", "quasiment_impossible", "custom"];

onNavigate(() => { ui.error = null; });

const PREFS = "systmj.test";
const numberText = (v) => typeof v === "string" && /^\s*[-+−]?\d{1,3}\s*$/.test(v);

/** Back on a character's page: the settings the player left there (prefs.js), each checked
 * (a pick no longer known falls back in spec()). */
function reset(app, id, c) {
  if (ui.id === id || !c) return;
  const p = loadPrefs(app, "systmj", PREFS, id);
  const str = (key, fallback, ok) => (p && Object.hasOwn(p, key) && typeof p[key] === "string" && p[key].length <= 80 && ok(p[key]) ? p[key] : fallback);
  Object.assign(ui, { more: null,
    id,
    pick: str("pick", "skill:detection", (v) => /^(skill|attribute):/.test(v)),
    item: str("item", "", () => true),
    modifier: pick(p, "modifier", MOD_ORDER, "normal"),
    custom: str("custom", "0", numberText),
    substitute: str("substitute", "0", numberText),
    result: null, error: null, inputError: null,
  });
}

function remember(app) {
  savePrefs(app, "systmj", PREFS, ui.id, { pick: ui.pick, item: ui.item, modifier: ui.modifier, custom: ui.custom, substitute: ui.substitute });
}

function focusResult(id) {
  requestAnimationFrame(() => {
    document.getElementById(id)?.focus({ preventScroll: true });
    reveal(id);
  });
}

/** The outcome fields a replay must reproduce (verify.js); the request is self-contained. */
const VERIFY_KEYS = ["dice", "roll", "effective", "outcome", "degree", "success"];

/** A whole number typed in a field, or null. */
function whole(text) {
  return /^\s*[-+−]?\d{1,3}\s*$/.test(text) ? Number(text.trim().replace("−", "-")) : null;
}

/** The test request (without seed) and whatever is wrong with the inputs. */
/** The cards a character holds (registry numbers compared with ===, never as object keys). */
function heldCards(state, c) {
  return (state?.library?.cards ?? []).filter((x) => x.holder === c.id);
}

function spec(app, c) {
  const state = tableState(app);
  const held = heldCards(state, c);
  const powers = held.filter((x) => x.family === "pouvoir");
  const known = (k) => GENERIC_SKILLS.includes(k) || ATTRIBUTES.includes(k) || specialSkills(state).some((s) => s.id === k) || powers.some((x) => x.number === k);
  if (!known(ui.pick.split(":")[1] ?? "")) ui.pick = "skill:detection"; // a special skill the table removed
  const [target, key] = ui.pick.split(":");
  // A Pouvoir card is a secondary special skill tested like any skill (4.4): its score box.
  const power = powers.find((x) => x.number === key);
  const score = power ? power.score : scoreOf(c, target, key);
  const table = rules(app)?.modifiers;
  const modifiers = [];
  let automatic = false;
  let problem = null;
  if (ui.modifier === "custom") {
    const v = whole(ui.custom);
    if (v === null || v < -100 || v > 100) problem = { field: "custom" };
    else if (v) modifiers.push({ source: "mj", value: v, label: t("systmj.ui.mod_custom") });
  } else if (ui.modifier === "extremement_simple") {
    automatic = true;
  } else if (table && ui.modifier !== "normal") {
    modifiers.push({ source: "mj", value: table[ui.modifier], label: t(`systmj.mod.${ui.modifier}`) });
  }
  if (target === "attribute") {
    const v = whole(ui.substitute);
    if (v === null || v < -100 || v > 0) problem = { field: "substitute" };
    else if (v) modifiers.push({ source: "substitute", value: v, label: t("systmj.ui.substitute") });
  }
  // The item used: its wear malus (wear scale) is a modifier of the test, and the wear review
  // lists it as used in this session.
  const item = held.find((x) => x.number === ui.item && "pu" in x);
  const wear = item ? wearOf(cardRules(app), item.pu) : null;
  if (wear?.malus) modifiers.push({ source: "wear", value: wear.malus, label: item.number });
  const subject = { character: c.id, target, key, session: state?.session ?? 1 };
  if (item) subject.item = item.number;
  const request = { score, subject };
  if (modifiers.length) request.modifiers = modifiers;
  if (automatic) request.automatic = true;
  return { request, problem, target, key, score, held, powers, wear, label: power ? power.name : target === "attribute" ? attrLabel(key) : skillLabel(state, key) };
}

const ROWS = ["critical_success", "notable", "moyenne", "justesse", "failure", "critical_failure"];

function verdict(r) {
  if (r.outcome === "success") return `${t("systmj.outcome.success")} — ${t(`systmj.degree_success.${r.degree}`)}`;
  return t(`systmj.outcome.${r.outcome}`);
}

async function roll(app, c) {
  const s = spec(app, c);
  if (s.problem) return;
  const request = { op: "systmj.test", ...s.request, seed: newSeed() };
  const r = await callBusy(app, ui, request);
  if (!r) {
    app.rerender();
    return;
  }
  const record = verifyRecord(r, VERIFY_KEYS);
  ui.result = { ...r, check: { request, ...record } };
  forgetVerify(`sj-test-${request.seed}`);
  const label = `${s.label} (${s.score}${r.effective !== s.score ? ` → ${r.effective}` : ""})`;
  if (!app.addLog({ kind: "systmj.test", system: "systmj", who: nameOf(c), label, request, ...audienceOf(app),
    result: { ...(r.roll !== null ? { total: r.roll } : {}), summary: verdict(r), terms: r.dice ? [d100Term(r.dice)] : [], verify: record } })) app.rerender();
  focusResult("sj-result-title");
}

function setup(app, c, s) {
  const state = tableState(app);
  const specials = specialSkills(state);
  const set = (key) => (e) => { ui[key] = e.target.value; ui.result = null; remember(app); app.rerender(); };
  const opt = (target, key, label) => {
    const v = scoreOf(c, target, key);
    return html`<option value=${`${target}:${key}`} ?selected=${ui.pick === `${target}:${key}`}>${label} — ${v} (${degreeLabel(v)})</option>`;
  };
  const table = rules(app)?.modifiers;
  const modLabel = (k) => {
    if (k === "custom") return t("systmj.ui.mod_custom");
    if (k === "extremement_simple") return `${t(`systmj.mod.${k}`)} (${t("systmj.ui.automatic")})`;
    const v = table?.[k];
    return v === undefined || v === 0 ? t(`systmj.mod.${k}`) : `${t(`systmj.mod.${k}`)} (${v > 0 ? "+" : "−"}${Math.abs(v)})`;
  };
  const active = (ui.item ? 1 : 0) + (s.target === "attribute" && ui.substitute.trim() !== "0" ? 1 : 0);
  return html`<section class="card" aria-labelledby="sj-setup-title">
    <h2 id="sj-setup-title">${t("systmj.ui.test_setup")}</h2>
    <div class="sj-grid">
      <div class="field sj-wide"><label for="sj-t-pick">${t("systmj.ui.tested")}</label>
        <select id="sj-t-pick" @change=${set("pick")}>
          <optgroup label=${t("systmj.ui.skills")}>${GENERIC_SKILLS.map((k) => opt("skill", k, skillLabel(state, k)))}</optgroup>
          ${specials.length ? html`<optgroup label=${t("systmj.ui.special_skills")}>${specials.map((sp) => opt("skill", sp.id, sp.name))}</optgroup>` : nothing}
          <optgroup label=${t("systmj.ui.attributes")}>${ATTRIBUTES.map((k) => opt("attribute", k, attrLabel(k)))}</optgroup>
          ${s.powers.length ? html`<optgroup label=${t("systmj.family.pouvoir")}>${s.powers.map((x) => html`<option value=${`skill:${x.number}`} ?selected=${ui.pick === `skill:${x.number}`}>${x.name} — ${x.score} (${degreeLabel(x.score)})</option>`)}</optgroup>` : nothing}
        </select></div>
      <div class="field sj-wide"><label for="sj-t-mod">${t("systmj.ui.modifier")}</label>
        <select id="sj-t-mod" @change=${set("modifier")}>
          ${MOD_ORDER.map((k) => html`<option value=${k} ?selected=${k === ui.modifier}>${modLabel(k)}</option>`)}
        </select></div>
      ${ui.modifier === "custom" ? html`<div class="field"><label for="sj-t-custom">${t("systmj.ui.mod_value")}</label>
        <input id="sj-t-custom" type="text" inputmode="numeric" .value=${ui.custom} aria-invalid=${s.problem?.field === "custom" ? "true" : "false"}
          aria-describedby="sj-t-custom-err" @change=${set("custom")}>
        <p class="field-error" id="sj-t-custom-err">${s.problem?.field === "custom" ? t("systmj.ui.mod_value_bad") : ""}</p></div>` : nothing}
      ${s.target === "attribute" ? html`<div class="field"><label for="sj-t-sub">${t("systmj.ui.substitute")}</label>
        <input id="sj-t-sub" type="text" inputmode="numeric" .value=${ui.substitute} aria-invalid=${s.problem?.field === "substitute" ? "true" : "false"}
          aria-describedby="sj-t-sub-help sj-t-sub-err" @change=${set("substitute")}>
        <p class="muted small" id="sj-t-sub-help">${t("systmj.ui.substitute_help")}</p>
        <p class="field-error" id="sj-t-sub-err">${s.problem?.field === "substitute" ? t("systmj.ui.substitute_bad") : ""}</p></div>` : nothing}
    </div>
    <details class="more-options" data-testid="more-options" .open=${(ui.more ??= active > 0)}
      @toggle=${(e) => { ui.more = e.target.open; }}>
      <summary>${t("testpage.more_options")}${active ? html` <span class="muted small">(${tn("testpage.active", active)})</span>` : nothing}</summary>
      <div class="field"><label for="sj-t-item">${t("systmj.ui.item_used")}</label>
        <select id="sj-t-item" @change=${set("item")}>
          <option value="" ?selected=${!ui.item}>${t("systmj.ui.no_item")}</option>
          ${s.held.filter((x) => "pu" in x).map((x) => html`<option value=${x.number} ?selected=${ui.item === x.number}>${x.number} ${x.name} — ${x.pu} PU</option>`)}
        </select>
        ${s.wear ? html`<p class="muted small" data-testid="sj-t-wear">${t("systmj.ui.item_wear", { degree: t(`systmj.wear.${s.wear.degree}`), malus: s.wear.malus })}</p>` : nothing}</div>
    </details>
  </section>`;
}

/** The character's key numbers beside the test (wide screens): attributes, then the skills
 * above zero. */
function sheetSummary(app, c) {
  const state = tableState(app);
  const skills = GENERIC_SKILLS.filter((k) => scoreOf(c, "skill", k) > 0);
  return html`<section class="card test-sheet" aria-labelledby="sj-sheet-sum-title" data-testid="test-sheet">
    <h2 id="sj-sheet-sum-title">${t("testpage.sheet_summary")}</h2>
    <dl class="facts">
      ${ATTRIBUTES.map((k) => html`<dt>${attrLabel(k)}</dt><dd>${scoreOf(c, "attribute", k)}</dd>`)}
      ${skills.length ? html`<dt>${t("testpage.skills")}</dt><dd>${skills.map((k) => `${skillLabel(state, k)} ${scoreOf(c, "skill", k)}`).join(", ")}</dd>` : nothing}
    </dl>
  </section>`;
}

function oddsBlock(odds) {
  if (!odds) return html`<p class="muted">${t("systmj.ui.odds_loading")}</p>`;
  if (odds.error) return errorLine(odds.error);
  if (odds.automatic) {
    return html`<p data-testid="sj-odds" data-automatic=${odds.automatic}><strong>${t(`systmj.outcome.${odds.automatic}`)}</strong> — ${t("systmj.ui.no_roll")}</p>`;
  }
  return html`<div class="odds-summary" data-testid="sj-odds" data-effective=${odds.effective}>
    <p class="small">${t("systmj.ui.effective_line", { score: odds.score, effective: odds.effective, low: Math.max(odds.thirds[0], 0), mid: Math.max(odds.thirds[1], 0) })}</p>
    <p>${t("systmj.ui.success_chance")} <strong>${prob(odds.success, "sj-odds-success")}</strong></p>
  </div>`;
}

/** The full distribution, after the roll button. */
function oddsTable(odds) {
  if (!odds || odds.error || odds.automatic) return nothing;
  const byRow = new Map(odds.rows.map((r) => [r.outcome, r]));
  const rows = ROWS.map((k) => ({ label: t(`systmj.row.${k}`), p: byRow.get(k).fraction, percent: byRow.get(k).percent }));
  return html`<div class="odds-table-box" data-testid="sj-odds-table">${renderDistribution(rows, t("systmj.ui.outcome"))}</div>`;
}

function resultBlock(app, r) {
  if (!r) return nothing;
  const tone = r.success ? "outcome-ok" : "outcome-bad";
  return html`<section class="card test-result" aria-labelledby="sj-result-title" data-testid="sj-result" data-outcome=${r.outcome} data-degree=${r.degree ?? ""}>
    <h2 id="sj-result-title" tabindex="-1">${t("systmj.ui.result")}</h2>
    ${r.dice ? html`${renderD100(r.dice)}<p>${t("systmj.ui.roll_line", { roll: String(r.roll).padStart(2, "0"), effective: r.effective, score: r.score })}</p>` : html`<p>${t("systmj.ui.no_roll")}</p>`}
    <p class="sj-verdict ${tone}" data-testid="sj-verdict" role="status">${verdict(r)}</p>
    ${verifyControl(app, `sj-test-${r.seed}`, r.check)}${resultShare(app, r.seed)}
  </section>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  reset(app, id, c);
  if (!c) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p role="alert">${t("systmj.ui.not_found")}</p>`;
  const s = spec(app, c);
  const odds = s.problem || !rules(app) ? null : oddsCache(app, { op: "systmj.test.odds", ...s.request });
  return html`
    <div class="test-head">
      ${backLink(`#/systmj/character/${encodeURIComponent(id)}`, t("systmj.ui.back_sheet", { name: nameOf(c) }))}
      <h1>${t("systmj.ui.test_title", { name: nameOf(c) })}</h1>
    </div>
    <div class="split test-split">
      <div class="test-setup">
        ${setup(app, c, s)}
        ${sheetSummary(app, c)}
      </div>
      <div class="test-side">
        <section class="card test-odds" aria-labelledby="sj-odds-title" data-testid="test-odds">
          <h2 id="sj-odds-title">${t("systmj.ui.odds_title")}</h2>
          ${s.problem ? nothing : oddsBlock(odds)}
          <button type="button" class="primary test-roll" id="sj-roll" ?disabled=${!ready(app) || !!s.problem || !odds || !!odds.error}
            aria-busy=${ui.busy ? "true" : "false"} @click=${() => roll(app, c)}>${t(odds?.automatic ? "systmj.ui.roll_automatic" : "systmj.ui.roll")}</button>
          ${audienceField(app, "sj-roll-to")}
          ${errorLine(ui.error, tableState(app))}
        </section>
        ${resultBlock(app, ui.result)}
        ${oddsTable(odds)}
      </div>
    </div>
  `;
}

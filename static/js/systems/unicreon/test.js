// A Unicreon test: characteristic, difficulty (Facile … Impossible), stacked bonus/malus steps,
// items that lower the difficulty, a skill. The exact odds (unicreon.test.odds) are shown BEFORE
// the roll; the roll shows both d66 dice, raw and real results, success and its band; logged.
// Oppositions (plain or modified, initiator wins ties; the MJ's choice offers "relancer").

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { formatSigned, t, tn } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { loadPrefs, pick, pickInt, savePrefs } from "../../views/prefs.js";
import { callBusy, resultShare, reveal, onUndo } from "../../views/ui.js";
import { audienceField, audienceOf } from "../../views/audience.js";
import { forgetVerify, verifyControl, verifyRecord } from "../../views/verify.js";
import {
  BANDS, CHARACTERISTICS, DIFFICULTIES, DIFF_VALUE, backLink, charLabel, characters, d66Term, errorLine,
  findCharacter, itemLabel, nameOf, oddsCache, prob, ready, renderD66, skillText, valueLabel,
} from "./common.js";

const ui = {
  id: null, characteristic: "agilite", difficulty: "moyen", bonus: 0, malus: 0, items: [], skill: "",
  result: null, error: null, busy: false,
  opp: { who: "", value: 40, characteristic: "agilite", difficulty: "moyen", initiator: "a", mode: "auto", result: null, error: null },
};
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => {
  Object.assign(ui, { result: null, error: null });
  Object.assign(ui.opp, { result: null, error: null });
});
const testOdds = oddsCache();
const oppOdds = oddsCache();

const PREFS = "unicreon.test";

/** Back on a character's page: the settings the player left there (prefs.js), each checked. */
function reset(app, id, c) {
  if (ui.id === id || !c) return;
  const p = c ? loadPrefs(app, "unicreon", PREFS, id) : null;
  const skills = c ? c.skills.map((_, i) => String(i)) : [];
  const uids = c ? c.inventory.map((i) => i.uid) : [];
  Object.assign(ui, { more: null,
    id,
    characteristic: pick(p, "characteristic", CHARACTERISTICS, "agilite"),
    difficulty: pick(p, "difficulty", DIFFICULTIES, "moyen"),
    bonus: pickInt(p, "bonus", 0, 10, 0),
    malus: pickInt(p, "malus", 0, 10, 0),
    skill: pick(p, "skill", ["", ...skills], ""),
    items: Array.isArray(p?.items) ? p.items.filter((u) => typeof u === "string" && uids.includes(u)).slice(0, 20) : [],
    result: null, error: null,
  });
  ui.opp.result = null;
  ui.opp.error = null;
}

/** Remember this character's settings (UI preferences, outside the table document). */
function remember(app) {
  savePrefs(app, "unicreon", PREFS, ui.id, { characteristic: ui.characteristic, difficulty: ui.difficulty,
    bonus: ui.bonus, malus: ui.malus, skill: ui.skill, items: ui.items });
}

/** After a roll: the result's heading takes the focus (announced; Shift+Tab is the roll button). */
function focusResult(id) {
  requestAnimationFrame(() => {
    document.getElementById(id)?.focus({ preventScroll: true });
    reveal(id);
  });
}

/** The test spec sent to the ops (the skill is the level of the chosen named skill). */
function spec(c) {
  const s = { characteristic: ui.characteristic, difficulty: ui.difficulty, bonus: ui.bonus, malus: ui.malus };
  const items = ui.items.filter((uid) => c.inventory.some((i) => i.uid === uid));
  if (items.length) s.items = items;
  const skill = c.skills[Number(ui.skill)];
  if (ui.skill !== "" && skill) s.skill = skill.level;
  return s;
}

function describe(c, s) {
  const skill = c.skills[Number(ui.skill)];
  return [charLabel(s.characteristic), t(`unicreon.difficulty.${s.difficulty}`),
    s.bonus ? t("unicreon.ui.bonus_n", { n: s.bonus }) : "", s.malus ? t("unicreon.ui.malus_n", { n: s.malus }) : "",
    ...(s.items ?? []).map((uid) => itemLabel(c.inventory.find((i) => i.uid === uid))),
    ui.skill !== "" && skill ? skillText(skill) : ""].filter(Boolean).join(" · ");
}

/** The outcome fields a replay must reproduce (verify.js). */
const VERIFY_KEYS = ["dice", "raw", "real", "target", "success", "band"];

/** The same test without the character: its value and the steps its items took off, so the
 * logged request replays on its own (same seed, same target, same dice). */
function replayRequest(c, s, r, seed) {
  const test = { value: r.value, difficulty: s.difficulty, bonus: s.bonus, malus: s.malus };
  const steps = (r.items_counted ?? []).reduce((sum, uid) => sum + (c.inventory.find((i) => i.uid === uid)?.bonus_steps ?? 0), 0);
  if (steps) test.item_steps = steps;
  if (s.skill) test.skill = s.skill;
  return { op: "unicreon.test", test, seed };
}

async function roll(app, c) {
  const s = spec(c);
  const seed = newSeed();
  const r = await callBusy(app, ui, { op: "unicreon.test", test: s, seed, character: c });
  if (!r) {
    app.rerender();
    return;
  }
  const request = replayRequest(c, s, r, seed);
  const record = verifyRecord(r, VERIFY_KEYS);
  ui.result = { ...r, check: { request, ...record } };
  forgetVerify(`uc-test-${seed}`);
  const verdict = r.success ? `${t("unicreon.ui.success")} — ${t(`unicreon.band.${r.band}`)}` : t("unicreon.ui.failure");
  if (!app.addLog({ kind: "unicreon.test", system: "unicreon", who: nameOf(c), label: describe(c, s), request, ...audienceOf(app),
    result: { total: r.raw, summary: `${verdict} (${t("unicreon.ui.target")} ${formatSigned(r.target)})`, terms: [d66Term(r.dice)], verify: record } })) app.rerender();
  focusResult("uc-result-title");
}

/** A stacked bonus or malus count with − and + buttons (0 to 10 steps). */
function stepper(app, key, label) {
  const change = (delta) => { ui[key] = Math.max(0, Math.min(10, ui[key] + delta)); ui.result = null; remember(app); app.rerender(); };
  return html`<div class="field uc-stepper" role="group" aria-labelledby=${`uc-t-${key}-label`}>
    <span class="uc-label" id=${`uc-t-${key}-label`}>${label}</span>
    <div class="uc-stepper-row">
      <button type="button" id=${`uc-t-${key}-minus`} aria-label=${t("unicreon.ui.less", { what: label })} ?disabled=${ui[key] <= 0} @click=${() => change(-1)}>−</button>
      <output id=${`uc-t-${key}`} aria-live="polite">${ui[key]}</output>
      <button type="button" id=${`uc-t-${key}-plus`} aria-label=${t("unicreon.ui.more", { what: label })} ?disabled=${ui[key] >= 10} @click=${() => change(1)}>+</button>
    </div>
  </div>`;
}

function setup(app, c) {
  const set = (key, num) => (e) => { ui[key] = num ? Math.max(0, Math.min(10, Number(e.target.value) || 0)) : e.target.value; ui.result = null; remember(app); app.rerender(); };
  // An item lowers a test's difficulty once however many are carried (the engine counts each
  // kind once: character.item_bonus): one box per kind.
  const kinds = new Set();
  const helpers = c.inventory.filter((i) => {
    const kind = i.ref ? `ref:${i.ref}` : i.name.trim() ? `name:${i.name.trim().toLowerCase()}` : `uid:${i.uid}`;
    if (i.bonus_steps <= 0 || kinds.has(kind)) return false;
    kinds.add(kind);
    return true;
  });
  // The skill, Unicreon's core choice (83 % → 100 % on one test), is on the first screen.
  const active = (ui.bonus ? 1 : 0) + (ui.malus ? 1 : 0) + ui.items.length;
  return html`<section class="card" aria-labelledby="uc-setup-title">
    <h2 id="uc-setup-title">${t("unicreon.ui.test_setup")}</h2>
    <div class="uc-grid">
      <div class="field"><label for="uc-t-char">${t("unicreon.ui.characteristic")}</label>
        <select id="uc-t-char" @change=${set("characteristic")}>
          ${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === ui.characteristic}>${charLabel(k)} (${c.characteristics[k]} — ${valueLabel(c.characteristics[k])})</option>`)}
        </select></div>
      <div class="field"><label for="uc-t-diff">${t("unicreon.ui.difficulty")}</label>
        <select id="uc-t-diff" @change=${set("difficulty")}>
          ${DIFFICULTIES.map((k) => html`<option value=${k} ?selected=${k === ui.difficulty}>${t(`unicreon.difficulty.${k}`)} (${DIFF_VALUE[k] > 0 ? "+" : ""}${formatSigned(DIFF_VALUE[k])})</option>`)}
        </select></div>
      ${c.skills.length ? html`<div class="field uc-wide"><label for="uc-t-skill">${t("unicreon.ui.skill_applies")}</label>
        <select id="uc-t-skill" @change=${set("skill")}>
          <option value="" ?selected=${ui.skill === ""}>${t("unicreon.ui.no_skill")}</option>
          ${c.skills.map((s, i) => html`<option value=${String(i)} ?selected=${String(i) === ui.skill}>${skillText(s)}</option>`)}
        </select></div>` : nothing}
    </div>
    <details class="more-options" data-testid="more-options" .open=${(ui.more ??= active > 0)}
      @toggle=${(e) => { ui.more = e.target.open; }}>
      <summary>${t("testpage.more_options")}${active ? html` <span class="muted small">(${tn("testpage.active", active)})</span>` : nothing}</summary>
      <div class="uc-grid">
        ${stepper(app, "bonus", t("unicreon.ui.bonus_steps_test"))}
        ${stepper(app, "malus", t("unicreon.ui.malus_steps_test"))}
      </div>
      <p class="muted small">${t("unicreon.ui.steps_help")}</p>
      ${helpers.length ? html`<fieldset class="uc-items-pick"><legend>${t("unicreon.ui.items_help")}</legend>
        ${helpers.map((i) => html`<label class="check"><input type="checkbox" .checked=${ui.items.includes(i.uid)}
          @change=${(e) => { ui.items = e.target.checked ? [...ui.items, i.uid] : ui.items.filter((u) => u !== i.uid); ui.result = null; remember(app); app.rerender(); }}>
          ${itemLabel(i)} <span class="muted small">(${tn("unicreon.ui.bonus_steps", i.bonus_steps)})</span></label>`)}
      </fieldset>` : nothing}
    </details>
  </section>`;
}

/** The character's key numbers beside the test (wide screens). */
function sheetSummary(c) {
  return html`<section class="card test-sheet" aria-labelledby="uc-sheet-sum-title" data-testid="test-sheet">
    <h2 id="uc-sheet-sum-title">${t("testpage.sheet_summary")}</h2>
    <dl class="facts">
      ${CHARACTERISTICS.map((k) => html`<dt>${charLabel(k)}</dt><dd>${c.characteristics[k]} (${valueLabel(c.characteristics[k])})</dd>`)}
      <dt>${t("testpage.state")}</dt><dd>${t("unicreon.ui.pv_po", { pv: c.pv, pv_max: c.pv_max, po: c.po })}</dd>
      ${c.skills.length ? html`<dt>${t("testpage.skills")}</dt><dd>${c.skills.map(skillText).join(", ")}</dd>` : nothing}
    </dl>
  </section>`;
}

/** The odds summary (target, success chance) that sits right above the roll button. */
function oddsSummary(odds) {
  if (!odds) return html`<p class="muted">${t("unicreon.ui.odds_loading")}</p>`;
  if (odds.error) return errorLine(odds.error);
  return html`<div class="odds-summary" data-testid="uc-odds" data-target=${odds.target}>
    <p class="uc-target small">${t("unicreon.ui.target_line", { value: odds.value, difficulty: t(`unicreon.difficulty.${odds.difficulty}`), dv: formatSigned(odds.difficulty_value), skill: odds.skill_value, target: formatSigned(odds.target) })}</p>
    <p class="uc-chance">${t("unicreon.ui.success_chance")} <strong>${prob(odds.success, "uc-odds-success")}</strong></p>
  </div>`;
}

/** The full distribution (each band and failure), after the roll button. */
function oddsTable(odds) {
  if (!odds || odds.error) return nothing;
  const rows = BANDS.map((b) => ({ label: t(`unicreon.ui.band_short.${b}`), p: odds.bands[b].p, percent: odds.bands[b].percent }));
  rows.push({ label: t("unicreon.ui.failure"), p: odds.failure.p, percent: odds.failure.percent });
  return html`<div class="odds-table-box" data-testid="uc-odds-table">${renderDistribution(rows, t("unicreon.ui.band"))}</div>`;
}

function resultBlock(app, r) {
  if (!r) return nothing;
  return html`<section class="card uc-result test-result" aria-labelledby="uc-result-title" data-testid="uc-result" data-success=${String(r.success)} data-raw=${r.raw}>
    <h2 id="uc-result-title" tabindex="-1">${t("unicreon.ui.result")}</h2>
    ${renderD66(r.dice)}
    <p>${t("unicreon.ui.raw")} <strong data-testid="uc-raw">${r.raw}</strong> · ${t("unicreon.ui.real")} <strong>${r.real}</strong> · ${t("unicreon.ui.target")} ${formatSigned(r.target)}</p>
    <p class="uc-verdict ${r.success ? "outcome-ok" : "outcome-bad"}" data-testid="uc-verdict" role="status">
      ${r.success ? html`${t("unicreon.ui.success")} — ${t(`unicreon.band.${r.band}`)}` : t("unicreon.ui.failure")}</p>
    ${verifyControl(app, `uc-test-${r.seed}`, r.check)}${resultShare(app, r.seed)}
  </section>`;
}

// ----------------------------------------------------------------------------- opposition
function oppRequest(app, c) {
  const o = ui.opp;
  const other = o.who ? findCharacter(app.doc, o.who) : null;
  const b = { difficulty: o.difficulty };
  if (other) b.characteristic = o.characteristic;
  else b.value = Math.max(0, Math.min(99, Number(o.value) || 0));
  const req = { a: spec(c), b, character_a: c, mode: o.mode, initiator: o.initiator || null };
  if (other) req.character_b = other;
  return { req, other };
}

async function oppose(app, c) {
  const { req, other } = oppRequest(app, c);
  const request = { op: "unicreon.opposition", a: req.a, b: req.b, mode: req.mode, initiator: req.initiator, seed: newSeed() };
  ui.busy = true;
  app.rerender();
  const r = await app.call({ ...req, ...request });
  ui.busy = false;
  if (r.error) {
    ui.opp.error = r.error;
    app.rerender();
    return;
  }
  ui.opp.error = null;
  ui.opp.result = r;
  const bName = other ? nameOf(other) : t("unicreon.ui.opponent");
  const verdict = r.winner === "a" ? t("unicreon.ui.wins", { name: nameOf(c) }) : r.winner === "b" ? t("unicreon.ui.wins", { name: bName }) : t("unicreon.ui.mj_choice");
  app.addLog({ kind: "unicreon.opposition", system: "unicreon", who: nameOf(c), label: t("unicreon.ui.opposition_vs", { name: bName }), request, ...audienceOf(app),
    result: { summary: `${verdict} (${r.a.raw} / ${r.b.raw})`, terms: [d66Term(r.a.dice, nameOf(c)), d66Term(r.b.dice, bName)] } });
  app.rerender();
}

function oppositionSection(app, c) {
  const o = ui.opp;
  const others = characters(app.doc).filter((x) => x.id !== c.id);
  const { req, other } = oppRequest(app, c);
  const odds = oppOdds(app, { op: "unicreon.opposition.odds", ...req });
  const set = (key) => (e) => { o[key] = e.target.value; o.result = null; app.rerender(); };
  const r = o.result;
  const bName = other ? nameOf(other) : t("unicreon.ui.opponent");
  return html`<section class="card" aria-labelledby="uc-opp-title">
    <h2 id="uc-opp-title">${t("unicreon.ui.opposition")}</h2>
    <p class="muted small">${t("unicreon.ui.opposition_help")}</p>
    <div class="uc-grid uc-flow">
      <div class="field uc-wide"><label for="uc-o-who">${t("unicreon.ui.opponent")}</label>
        <select id="uc-o-who" @change=${set("who")}>
          <option value="" ?selected=${!o.who}>${t("unicreon.ui.opponent_value")}</option>
          ${others.map((x) => html`<option value=${x.id} ?selected=${x.id === o.who}>${nameOf(x)}</option>`)}
        </select></div>
      ${other ? html`<div class="field"><label for="uc-o-char">${t("unicreon.ui.characteristic")}</label>
          <select id="uc-o-char" @change=${set("characteristic")}>${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === o.characteristic}>${charLabel(k)} (${other.characteristics[k]})</option>`)}</select></div>`
        : html`<div class="field"><label for="uc-o-value">${t("unicreon.ui.value")}</label>
          <input id="uc-o-value" type="number" min="0" max="99" .value=${String(o.value)} @change=${set("value")}></div>`}
      <div class="field"><label for="uc-o-diff">${t("unicreon.ui.opp_difficulty")}</label>
        <select id="uc-o-diff" @change=${set("difficulty")}>${DIFFICULTIES.map((k) => html`<option value=${k} ?selected=${k === o.difficulty}>${t(`unicreon.difficulty.${k}`)}</option>`)}</select></div>
      <div class="field uc-wide"><label for="uc-o-init">${t("unicreon.ui.initiator")}</label>
        <select id="uc-o-init" @change=${set("initiator")}>
          <option value="a" ?selected=${o.initiator === "a"}>${nameOf(c)}</option>
          <option value="b" ?selected=${o.initiator === "b"}>${bName}</option>
          <option value="" ?selected=${!o.initiator}>${t("unicreon.ui.nobody")}</option>
        </select></div>
      <div class="field uc-wide"><label for="uc-o-mode">${t("unicreon.ui.opp_mode")}</label>
        <select id="uc-o-mode" @change=${set("mode")}>${["auto", "plain", "modified"].map((k) => html`<option value=${k} ?selected=${k === o.mode}>${t(`unicreon.ui.mode_${k}`)}</option>`)}</select></div>
    </div>
    ${odds && !odds.error ? html`<div data-testid="uc-opp-odds">
      <p class="small">${odds.modified ? t("unicreon.ui.modified_rule") : t("unicreon.ui.plain_rule")} · ${t("unicreon.ui.targets", { a: formatSigned(odds.a.target), b: formatSigned(odds.b.target) })}</p>
      <dl class="facts"><dt>${nameOf(c)}</dt><dd>${prob(odds.a_wins)}</dd><dt>${bName}</dt><dd>${prob(odds.b_wins)}</dd>
        <dt>${t("unicreon.ui.mj_choice_short")}</dt><dd>${prob(odds.mj_choice)}</dd></dl></div>` : odds?.error ? errorLine(odds.error) : html`<p class="muted">${t("unicreon.ui.odds_loading")}</p>`}
    <button type="button" class="primary" id="uc-oppose" ?disabled=${!ready(app) || ui.busy} @click=${() => oppose(app, c)}>${r?.mj_choice ? t("unicreon.ui.reroll") : t("unicreon.ui.oppose")}</button>
    ${audienceField(app, "uc-oppose-to")}
    ${errorLine(o.error)}
    ${r ? html`<div class="uc-result" data-testid="uc-opp-result" data-winner=${r.winner ?? "none"} role="status">
      <div class="uc-two">
        <div><p><strong>${nameOf(c)}</strong></p>${renderD66(r.a.dice, nameOf(c))}<p class="small">${r.a.raw} / ${r.a.target} ${r.a.success ? "✓" : "✗"}</p></div>
        <div><p><strong>${bName}</strong></p>${renderD66(r.b.dice, bName)}<p class="small">${r.b.raw} / ${r.b.target} ${r.b.success ? "✓" : "✗"}</p></div>
      </div>
      <p class="uc-verdict">${r.winner === "a" ? t("unicreon.ui.wins", { name: nameOf(c) }) : r.winner === "b" ? t("unicreon.ui.wins", { name: bName }) : t("unicreon.ui.mj_choice")}
        <span class="muted small">(${t(`unicreon.ui.reason_${r.reason}`)})</span></p>
      ${r.mj_choice ? html`<p class="row"><button type="button" id="uc-reroll" @click=${() => oppose(app, c)}>${t("unicreon.ui.reroll")}</button>
        <button type="button" @click=${() => { o.result = null; app.rerender(); }}>${t("unicreon.ui.draw_match")}</button></p>` : nothing}
    </div>` : nothing}
  </section>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  reset(app, id, c);
  if (!c) return html`${backLink("#/unicreon", t("unicreon.ui.back"))}<p role="alert">${t("unicreon.ui.not_found")}</p>`;
  const odds = testOdds(app, { op: "unicreon.test.odds", test: spec(c), character: c });
  return html`
    <div class="test-head">
      ${backLink(`#/unicreon/character/${encodeURIComponent(id)}`, t("unicreon.ui.back_sheet", { name: nameOf(c) }))}
      <h1>${t("unicreon.ui.test_title", { name: nameOf(c) })}</h1>
    </div>
    <div class="split test-split">
      <div class="test-setup">
        ${setup(app, c)}
        ${sheetSummary(c)}
      </div>
      <div class="test-side">
        <section class="card test-odds" aria-labelledby="uc-odds-title" data-testid="test-odds">
          <h2 id="uc-odds-title">${t("unicreon.ui.odds_title")}</h2>
          ${oddsSummary(odds)}
          <button type="button" class="primary test-roll" id="uc-roll" ?disabled=${!ready(app) || !odds || odds.error} aria-busy=${ui.busy ? "true" : "false"}
            @click=${() => roll(app, c)}>${t("unicreon.ui.roll")}</button>
          ${audienceField(app, "uc-roll-to")}
          ${errorLine(ui.error)}
        </section>
        ${resultBlock(app, ui.result)}
        ${oddsTable(odds)}
      </div>
    </div>
    ${oppositionSection(app, c)}
  `;
}

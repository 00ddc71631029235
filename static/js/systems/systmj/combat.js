// Action & Mouvement and combat (#/systmj/combat): the round tracker (hidden Action/Mouvement
// choices revealed together, the MJ's order, who has acted, PV and PA) and an attack with its
// formulas, exact odds before the roll, the roll, and the damage written back to the tracker.
// Rules: tablee.systems.systmj.rounds (3.2) and .combat (3.3). The page renders the round
// from systmj.round.view: before the reveal it holds who has chosen, never what.
// Wording: SYSTMJ's text says "le MJ" (rules 000, "Le MJ décide…"): so do the systmj strings
// (tests/test_mj_wording.py). A verdict names who won in a neutral colour (never a successful
// defence in the failure colour); the damage line says PA then PV and what is left of what.
// At 60rem the round tracker and the attack sit side by side (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { callBusy, disabledWhy, engineChange, onNavigate, putSystem, requestCache, onUndo } from "../../views/ui.js";
import { cardRules } from "./cards.js";
import { backLink, changeLabel, characters, d100Term, errorLine, findCharacter, nameOf, prob, ready, stateOp, tableState } from "./common.js";

const viewCache = requestCache({ keepStale: true });
const oddsCache = requestCache();
const ui = {
  picked: new Set(), busy: false, error: null,
  attacker: "", defender: "", kind: "force", category: "trait", weapon: "", defence: "none", defenceCard: "", aware: true,
  result: null, initiative: null, weaponPicked: false, defenceCardPicked: false, counter: false,
};
onNavigate(() => Object.assign(ui, { error: null, result: null, initiative: null, counter: false }));

async function roundOp(app, request) {
  return stateOp(app, ui, (state) => ({ ...request, state }));
}

/** Initiative for open melee (3.3.1): Rapidité tests of the round's entities, logged; the
 * order found becomes the round's order (the MJ can still move anyone). */
async function initiative(app, view) {
  const fighters = view.entities.map((e) => ({ id: e.id, rapidite: findCharacter(app.doc, e.id)?.attributes.rapidite ?? 0 }));
  const request = { op: "systmj.combat.initiative", fighters, seed: newSeed() };
  const r = await callBusy(app, ui, request);
  if (!r) return;
  ui.initiative = r.order;
  app.addLog({ kind: "systmj.initiative", system: "systmj", who: "MJ", label: t("systmj.combat.initiative"), request,
    result: { summary: r.order.map((f) => `${nameOf(findCharacter(app.doc, f.id))} ${f.roll ?? "—"}`).join(" · "),
      terms: r.order.filter((f) => f.dice).map((f) => d100Term(f.dice, nameOf(findCharacter(app.doc, f.id)))) } });
  await roundOp(app, { op: "systmj.round.order", order: r.order.map((f) => f.id) });
}

async function start(app) {
  const picked = new Set(ui.picked);
  await stateOp(app, ui, (state) => ({ op: "systmj.round.start", state, characters: characters(app.doc).filter((c) => picked.has(c.id)) }));
}

function heldCards(state, id) {
  return (state.library?.cards ?? []).filter((c) => c.holder === id && c.family === "equipement");
}

/** The card a fighter holds for this use, by default (4.1: an equipment card of type "arme",
 * its categories saying how it is used; "holder" is who has it, py/tablee/systems/systmj/library.py):
 * for a melee attack a corps-à-corps weapon, for a parade the same or else a shield, for a ranged
 * attack one of the chosen category, for an encaissement a shield; "" (no card) when none is held. */
function heldFor(state, id, use, category) {
  const weapons = heldCards(state, id).filter((c) => c.types.includes("arme"));
  // A parade is made with a weapon (3.3.3): a corps-à-corps one, else a shield held.
  const wants = use === "encaissement" ? ["bouclier"] : use === "ranged" ? [category] : use === "parade" ? ["corps_a_corps", "bouclier"] : ["corps_a_corps"];
  for (const want of wants) {
    const card = weapons.find((c) => c.categories.includes(want));
    if (card) return card.number;
  }
  return "";
}

function fighter(c, vitals, sel = ui) {
  return {
    id: c.id, attributes: c.attributes, dissimulation: c.skills.dissimulation, detection: c.skills.detection,
    pv: vitals?.pv ?? c.pv_max, pa: vitals?.pa ?? c.pa_max, aware: sel.aware,
  };
}

/** The exchange request from the form (null until both fighters are chosen). */
function exchangeRequest(app, state, sel = ui) {
  const a = findCharacter(app.doc, sel.attacker);
  const d = findCharacter(app.doc, sel.defender);
  if (!a || !d || a.id === d.id) return null;
  const vit = (id) => state.rounds?.entities.find((e) => e.id === id);
  const find = (n) => (state.library?.cards ?? []).find((c) => c.number === n);
  // A counter-attack (3.3.2) is an attack in force with no defence possible.
  const kind = sel.counter ? "force" : sel.kind;
  const req = { kind, attacker: fighter(a, vit(a.id), sel), defender: fighter(d, vit(d.id), sel), defence: sel.counter ? "none" : sel.defence };
  delete req.attacker.aware;
  if (sel.counter) req.counter = true;
  // With a round in progress the engine binds the attack to it (Action revealed, not acted yet).
  if (state.rounds) req.state = state;
  const weapon = kind === "thrown" ? null : find(sel.weapon);
  if (weapon) req.weapon = weapon;
  if (kind === "ranged") req.category = sel.category;
  const dcard = !sel.counter && (sel.defence === "parade" || sel.defence === "encaissement") ? find(sel.defenceCard) : null;
  if (dcard) req.defence_card = dcard;
  const items = [weapon, dcard].filter(Boolean).map((c) => c.number);
  req.subject = { session: state.session, attacker: a.id, defender: d.id, items };
  return req;
}

/** An exchange, built from the round and the sheets as saved when its turn comes (views/ui.js
 * engineChange: the fighters' PV and PA of the latest round, never those the page showed
 * when clicked); the round the engine bound the attack to (the attacker has acted, the
 * defender's PV and PA) is written only if it did not change while the engine answered. */
/** One exchange per press: a second press while the first is on its way is ignored (a double
 * tap would roll a second attack). */
let attacking = false;
async function attack(app) {
  if (attacking || !exchangeRequest(app, tableState(app))) return;
  attacking = true;
  try {
    await attackNow(app);
  } finally {
    attacking = false;
  }
}

async function attackNow(app) {
  const seed = newSeed();
  // The form's choices as they were when pressed (the exchange may wait its turn meanwhile).
  const sel = { ...ui };
  let logged = null;
  const r = await engineChange(app, ui, {
    request: () => {
      const req = exchangeRequest(app, tableState(app), sel);
      if (!req) return null;
      logged = { op: "systmj.combat.exchange", ...req, seed };
      delete logged.state;
      return { op: "systmj.combat.exchange", ...req, seed };
    },
    basis: (doc) => [doc.systems?.systmj ?? null, findCharacter(doc, sel.attacker), findCharacter(doc, sel.defender)],
    apply: (doc, answer) => {
      const next = pendingCounter(answer.state ?? doc.systems?.systmj ?? tableState(app), answer, sel);
      if (next) putSystem(doc, "systmj", next);
    },
    shallow: true,
    // (an exchange outside a round changes the table when it opens or closes a counter-attack)
    writes: (answer) => Boolean(answer.state) || answer.outcome === "counter_attack" || Boolean(tableState(app)?.counter),
    label: (answer, req, doc) => changeLabel(req, answer, doc),
  });
  if (!r) return;
  // The result belongs to this exchange (its round, fighters, counter-attack or not): it is shown
  // while the form still shows that exchange, never under the next one (resultShown). A
  // counter-attack's form stays on screen with it, its button saying it was played.
  ui.result = { answer: r, key: exchangeKey(tableState(app), sel) };
  const a = findCharacter(app.doc, sel.attacker);
  const d = findCharacter(app.doc, sel.defender);
  if (!r.state && r.outcome === "hit" && tableState(app)?.rounds?.entities.some((e) => e.id === d.id)) {
    await roundOp(app, { op: "systmj.round.vitals", entity: d.id, pv: r.damage.pv, pa: r.damage.pa });
  }
  // The log keeps what the entry needs, never the table state (the round's hidden choices).
  app.addLog({ kind: "systmj.combat.exchange", system: "systmj", who: nameOf(a), label: t("systmj.combat.log", { target: nameOf(d) }), request: logged,
    result: { summary: verdict(app, r, sel), terms: r.steps.filter((s) => s.dice).map((s) => d100Term(s.dice, t(`systmj.combat.step.${s.step}`))) } });
  app.rerender();
}

function trackerCard(app, state, view) {
  const name = (id) => nameOf(findCharacter(app.doc, id));
  return html`<section class="card" aria-labelledby="sj-round-title" data-testid="sj-tracker">
    <h2 id="sj-round-title">${t("systmj.combat.round_n", { n: view.round })}</h2>
    <p aria-live="polite" data-testid="sj-round-state">${view.revealed ? t("systmj.combat.revealed") : t("systmj.combat.hidden_help")}</p>
    <ol class="sj-tracker">
      ${view.entities.map((e, i) => html`<li data-testid="sj-round-entity" data-id=${e.id}>
        <strong>${name(e.id)}</strong> <span class="muted small">${t("systmj.combat.vitals", { pv: e.pv, pa: e.pa })}</span>
        ${view.revealed
          ? html`<span data-testid="sj-choice">${t(`systmj.combat.choice.${e.choice}`)}</span>
              ${e.acted ? html`<span class="sj-used" data-testid="sj-acted">${t("systmj.combat.acted")}</span>`
                : html`<button type="button" data-testid="sj-mark-acted" ?disabled=${ui.busy} @click=${() => roundOp(app, { op: "systmj.round.acted", entity: e.id })}>${t("systmj.combat.mark_acted")}<span class="visually-hidden"> ${name(e.id)}</span></button>`}`
          : html`<span data-testid="sj-chosen">${e.chosen ? t("systmj.combat.chosen") : t("systmj.combat.not_chosen")}</span>
              <span class="row" role="group" aria-label=${t("systmj.combat.choose_for", { name: name(e.id) })}>
                <button type="button" data-testid="sj-choose-action" ?disabled=${ui.busy} @click=${() => roundOp(app, { op: "systmj.round.choose", entity: e.id, choice: "action" })}>${t("systmj.combat.choice.action")}</button>
                <button type="button" data-testid="sj-choose-mouvement" ?disabled=${ui.busy} @click=${() => roundOp(app, { op: "systmj.round.choose", entity: e.id, choice: "mouvement" })}>${t("systmj.combat.choice.mouvement")}</button>
              </span>`}
        ${i > 0 ? html`<button type="button" @click=${() => { const order = view.entities.map((x) => x.id); [order[i - 1], order[i]] = [order[i], order[i - 1]]; roundOp(app, { op: "systmj.round.order", order }); }}>${t("systmj.combat.up")}<span class="visually-hidden"> ${name(e.id)}</span></button>` : nothing}
      </li>`)}
    </ol>
    <div class="row">
      ${view.revealed ? html`<button type="button" id="sj-round-next" ?disabled=${ui.busy} @click=${() => roundOp(app, { op: "systmj.round.next" })}>${t("systmj.combat.next")}</button>`
        : html`<button type="button" id="sj-round-reveal" class="primary" ?disabled=${ui.busy} @click=${() => roundOp(app, { op: "systmj.round.reveal" })}>${t("systmj.combat.reveal")}</button>`}
      <button type="button" id="sj-initiative" ?disabled=${ui.busy} @click=${() => initiative(app, view)}>${t("systmj.combat.initiative")}</button>
      <button type="button" @click=${() => roundOp(app, { op: "systmj.round.end" })}>${t("systmj.combat.end")}</button>
    </div>
    <div aria-live="polite">${ui.initiative ? html`<ol class="sj-tracker" data-testid="sj-initiative">${ui.initiative.map((f) => html`<li>${name(f.id)} : ${f.roll ?? "—"} / ${f.effective} → ${t(`systmj.outcome.${f.outcome}`)}${f.may_attack_first ? "" : html` <span class="muted small">${t("systmj.combat.cannot_first")}</span>`}</li>`)}</ol>` : nothing}</div>
  </section>`;
}

function startCard(app) {
  const all = characters(app.doc);
  const why = disabledWhy("sj-round-start", ready(app) ? null : t("systmj.combat.why_engine"));
  return html`<section class="card" aria-labelledby="sj-start-title">
    <h2 id="sj-start-title">${t("systmj.combat.start_title")}</h2>
    <fieldset><legend>${t("systmj.combat.who")}</legend>
      ${all.map((c) => html`<label class="sj-check"><input type="checkbox" data-testid="sj-pick" value=${c.id} .checked=${ui.picked.has(c.id)}
        @change=${(e) => { if (e.target.checked) ui.picked.add(c.id); else ui.picked.delete(c.id); }}> ${nameOf(c)}</label>`)}
    </fieldset>
    <button type="button" class="primary" id="sj-round-start" ?disabled=${!ready(app)} aria-describedby=${why.id} @click=${() => start(app)}>${t("systmj.combat.start")}</button>${why.note}
  </section>`;
}

function select(id, labelKey, value, options, onChange) {
  return html`<div class="field"><label for=${id}>${t(labelKey)}</label>
    <select id=${id} @change=${(e) => { onChange(e.target.value); }}>
      ${options.map(([v, text]) => html`<option value=${v} .selected=${v === value}>${text}</option>`)}
    </select></div>`;
}

/** The damage step said plainly: the d6, the amount, what the PA took then the PV, and what is
 * left ("−2 PA puis −1 PV → 9 PV sur 10, 0 PA restants"). */
function damageLine(app, s, defenderId) {
  const max = findCharacter(app.doc, defenderId)?.pv_max ?? "?";
  return t("systmj.combat.damage_line", { d6: s.d6, amount: s.amount, pa: s.from_pa, pv: s.from_pv, pa_left: s.pa, pv_left: s.pv, pv_max: max });
}

/**
 * The SYSTMJ state after an exchange, with the counter-attack it opened kept in the table (3.3.2:
 * a failed attack lets its target strike back, no defence possible; the state's `counter`,
 * py/tablee/systems/systmj/state.py), or without the one it answered or left behind; null when
 * the state has nothing to change. A reload keeps the offer, as Théorem keeps its pending figure.
 */
function pendingCounter(state, answer, sel) {
  if (!state) return null;
  const { counter, ...rest } = state;
  if (answer.outcome === "counter_attack" && !sel.counter) {
    return { ...rest, counter: { attacker: sel.defender, defender: sel.attacker, round: state.round } };
  }
  return counter || answer.state ? rest : null;
}

/** The counter-attack offered and not rolled yet, kept in the table (this round's only). */
function offeredCounter(state) {
  const c = state?.counter;
  return c && c.round === state.round ? c : null;
}

/** The counter-attack a failed attack opened (3.3.2): the target strikes back, no defence.
 * `offer` is the one the table keeps (after a reload the form is empty). */
function counterAttack(app, offer = null) {
  const [attacker, defender] = offer ? [offer.attacker, offer.defender] : [ui.defender, ui.attacker];
  Object.assign(ui, { attacker, defender, counter: true, kind: "force", defence: "none", result: null, weaponPicked: false, defenceCardPicked: false });
  app.rerender();
}

/** The counter-attack the table still offers when no result on screen offers it (after a
 * reload, or on another page and back): who may strike back, at whom, and the button. */
function counterOffer(app, state, result) {
  const offer = offeredCounter(state);
  if (!offer || result || ui.counter) return nothing;
  const name = (id) => nameOf(findCharacter(app.doc, id));
  return html`<div class="notice status" data-testid="sj-counter-pending">
    <p>${t("systmj.combat.counter_pending", { a: name(offer.attacker), d: name(offer.defender) })}</p>
    <button type="button" id="sj-counter" @click=${() => counterAttack(app, offer)}>${t("systmj.combat.counter")}</button>
  </div>`;
}

/** Which exchange the form shows: the round it is in (none outside a round), who attacks whom,
 * and whether it is a counter-attack. A result is shown only under the exchange it belongs to. */
function exchangeKey(state, sel = ui) {
  return JSON.stringify([state?.rounds ? state.rounds.round : null, sel.attacker, sel.defender, Boolean(sel.counter)]);
}

/** The answer of the exchange the form shows, or null (none yet, or the result of another
 * exchange: the round moved on, other fighters were chosen). */
function resultShown(state) {
  return ui.result && ui.result.key === exchangeKey(state) ? ui.result.answer : null;
}

/** Who won the exchange, by name, with no gendered agreement. */
function verdict(app, r, sel = ui) {
  const a = nameOf(findCharacter(app.doc, sel.attacker));
  const d = nameOf(findCharacter(app.doc, sel.defender));
  return t(`systmj.combat.verdict.${r.outcome}`, { a, d });
}

/** Why the attack cannot be rolled now (null when it can). */
function attackWhy(app, state, req, odds) {
  if (!ready(app)) return t("systmj.combat.why_engine");
  if (!ui.attacker || !ui.defender) return t("systmj.combat.why_no_target");
  if (ui.attacker === ui.defender) return t("systmj.combat.why_same");
  if (state.rounds?.entities.some((e) => e.id === ui.attacker && e.pv <= 0)) {
    return t("systmj.combat.why_down", { name: nameOf(findCharacter(app.doc, ui.attacker)) });
  }
  // The round binds the attack (3.2, 3.3): the engine refuses it too (the odds say why).
  // A counter-attack is one strike (3.3.2): once rolled, the next exchange is another one.
  if (ui.counter && resultShown(state)) return t("systmj.combat.why_counter_done");
  const inRound = state.rounds?.entities.find((e) => e.id === ui.attacker);
  if (inRound && !ui.counter) {
    const name = nameOf(findCharacter(app.doc, ui.attacker));
    if (!state.rounds.revealed) return t("systmj.combat.why_not_revealed");
    if (inRound.choice !== "action") return t("systmj.combat.why_mouvement", { name });
    if (inRound.acted) return t("systmj.combat.why_acted", { name });
  }
  if (!req) return t("systmj.combat.why_no_target");
  if (odds?.error) return t("systmj.combat.why_odds_error");
  return null;
}

function attackButton(app, state, reason) {
  const why = disabledWhy("sj-attack", reason);
  return html`<button type="button" class="primary" id="sj-attack" ?disabled=${Boolean(reason) || ui.busy} aria-describedby=${why.id}
    @click=${() => attack(app)}>${t("systmj.combat.roll")}</button>${why.note}`;
}

function attackCard(app, state) {
  const all = characters(app.doc);
  const who = [["", t("systmj.ui.choose")], ...all.map((c) => [c.id, nameOf(c)])];
  const cardOpts = (id) => [["", t("systmj.combat.no_card")], ...heldCards(state, id).map((c) => [c.number, `${c.number} ${c.name}`])];
  const rerender = (fn) => (v) => { fn(v); ui.result = null; app.rerender(); };
  // Other fighters chosen: another exchange, no longer the counter-attack that was offered.
  const fighters = (fn) => rerender((v) => { fn(v); ui.counter = false; });
  // The weapon (and the defence card) the fighter holds, until the person picks another.
  if (!ui.weaponPicked) ui.weapon = ui.kind === "thrown" ? "" : heldFor(state, ui.attacker, ui.kind === "ranged" ? "ranged" : "melee", ui.category);
  if (!ui.defenceCardPicked) ui.defenceCard = ["parade", "encaissement"].includes(ui.defence) ? heldFor(state, ui.defender, ui.defence) : "";
  const req = exchangeRequest(app, state);
  const odds = req && ready(app) ? oddsCache(app, { op: "systmj.combat.odds", ...req }) : null;
  const rules = cardRules(app);
  const result = resultShown(state);
  // Why the attack cannot be rolled, said once: by the button when it knows (the round not
  // revealed yet, a Mouvement, an Action spent), the engine's refusal of the odds otherwise.
  const reason = attackWhy(app, state, req, odds);
  const oddsError = odds?.error && reason === t("systmj.combat.why_odds_error") ? odds.error : null;
  const oddsState = !req ? "none" : !odds ? "waiting" : odds.error ? "error" : "ok";
  return html`<section class="card" aria-labelledby="sj-attack-title" data-testid="sj-attack-card" data-odds=${oddsState}>
    <h2 id="sj-attack-title">${t("systmj.combat.attack_title")}</h2>
    <div class="sj-grid">
      ${select("sj-att-who", "systmj.combat.attacker", ui.attacker, who, fighters((v) => { ui.attacker = v; ui.weaponPicked = false; }))}
      ${select("sj-def-who", "systmj.combat.defender", ui.defender, who, fighters((v) => { ui.defender = v; ui.defenceCardPicked = false; }))}
      ${ui.counter ? nothing : select("sj-att-kind", "systmj.combat.kind", ui.kind, ["force", "stealth", "ranged", "thrown"].map((k) => [k, t(`systmj.combat.kinds.${k}`)]), rerender((v) => { ui.kind = v; ui.weaponPicked = false; }))}
      ${ui.kind === "ranged" ? select("sj-att-cat", "systmj.combat.category", ui.category, (rules?.ranged ?? []).map((k) => [k, t(`systmj.cv.${k}`)]), rerender((v) => { ui.category = v; ui.weaponPicked = false; })) : nothing}
      ${ui.kind !== "thrown" ? select("sj-att-weapon", "systmj.combat.weapon", ui.weapon, cardOpts(ui.attacker), rerender((v) => { ui.weapon = v; ui.weaponPicked = true; })) : nothing}
      ${ui.counter ? html`<p class="field" data-testid="sj-counter-note">${t("systmj.combat.counter_note")}</p>` : select("sj-def-kind", "systmj.combat.defence", ui.defence, ["none", "esquive", "parade", "encaissement"].map((k) => [k, t(`systmj.combat.defences.${k}`)]), rerender((v) => { ui.defence = v; ui.defenceCardPicked = false; }))}
      ${!ui.counter && (ui.defence === "parade" || ui.defence === "encaissement") ? select("sj-def-card", "systmj.combat.defence_card", ui.defenceCard, cardOpts(ui.defender), rerender((v) => { ui.defenceCard = v; ui.defenceCardPicked = true; })) : nothing}
      ${ui.kind === "ranged" || ui.kind === "thrown" ? html`<div class="field"><label><input type="checkbox" id="sj-aware" .checked=${ui.aware} @change=${(e) => { ui.aware = e.target.checked; app.rerender(); }}> ${t("systmj.combat.aware")}</label></div>` : nothing}
    </div>
    ${odds && !odds.error ? html`<div class="sj-odds" data-testid="sj-combat-odds">
      <ul class="sj-formulas">${Object.entries(odds.scores).filter(([, s]) => s.text).map(([k, s]) => html`<li data-formula=${k}><strong>${t(`systmj.combat.score.${k}`)}</strong> ${s.text}${s.modifiers.length ? html` <span class="muted">(${t("systmj.cards.wear")} ${s.modifiers[0]})</span>` : nothing}</li>`)}</ul>
      <ul>${Object.entries(odds.outcomes).map(([k, p]) => html`<li>${t(`systmj.combat.outcome.${k}`)}${colon()}${prob(p, `sj-odds-${k}`)}</li>`)}</ul>
      <p class="muted small">${t("systmj.combat.damage_table", { a: odds.damage_table[0], b: odds.damage_table[1], c: odds.damage_table[2] })}</p>
    </div>` : oddsError ? errorLine(oddsError, state, "sj-odds-error") : nothing}
    ${attackButton(app, state, reason)}
    ${counterOffer(app, state, result)}
    <div aria-live="polite" data-testid="sj-combat-result">${result ? html`
      <ol>${result.steps.map((s) => html`<li>${t(`systmj.combat.step.${s.step}`)}${colon()}${s.step === "damage"
        ? html`<span data-testid="sj-damage-line">${damageLine(app, s, ui.defender)}</span>`
        : html`${s.roll ?? "—"} / ${s.effective} → ${t(`systmj.outcome.${s.outcome}`)}`}</li>`)}</ol>
      <p class="sj-verdict outcome-neutral" data-testid="sj-combat-outcome" data-winner=${result.outcome === "hit" ? "attacker" : "defender"}>${verdict(app, result)}</p>
      ${result.outcome === "counter_attack" ? html`<button type="button" id="sj-counter" @click=${() => counterAttack(app)}>${t("systmj.combat.counter")}</button>`
        : ui.counter ? html`<button type="button" id="sj-next-exchange" @click=${() => { Object.assign(ui, { counter: false, result: null }); app.rerender(); }}>${t("systmj.combat.next_exchange")}</button>` : nothing}` : nothing}</div>
  </section>`;
}

const sent = new Map(); // entity id -> the choice the MJ's device accepted (this phone's own)
const defended = new Map(); // entity id -> the defence the MJ's device accepted for a round
/** The phone's forms, per entity of the player's: the defence to declare, the attack. */
const phone = { defence: {}, card: {}, target: {}, kind: {}, weapon: {}, result: null };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => {
  Object.assign(ui, { result: null, initiative: null, counter: false, error: null });
  phone.result = null;
});

/** The defence one of the player's characters will try this round if an attack on it
 * succeeds (3.3.3): a move (systmj.round.defend) the MJ's device keeps hidden from the others. */
async function declareDefence(app, entity, round) {
  const defence = phone.defence[entity] ?? "none";
  const card = defence === "parade" || defence === "encaissement" ? phone.card[entity] ?? "" : "";
  const request = { op: "systmj.round.defend", state: tableState(app), entity, defence };
  if (card) request.card = card;
  const r = await callBusy(app, ui, request);
  if (!r) return;
  defended.set(entity, { defence, round });
  app.rerender();
}

/** An attack by one of the player's characters, declared on the phone: its side only (who,
 * whom, how, with which of its weapon cards); the MJ's device builds both fighters from its
 * records and takes the defence the target declared (py/tablee/referee.py, _sj_attack). */
async function phoneAttack(app, state, entity) {
  const target = phone.target[entity];
  if (!target) return;
  const kind = phone.kind[entity] ?? "force";
  const number = phone.weapon[entity] ?? heldFor(state, entity, kind === "ranged" ? "ranged" : "melee", "trait");
  const weapon = kind === "thrown" ? null : (state.library?.cards ?? []).find((c) => c.number === number) ?? null;
  const a = findCharacter(app.doc, entity);
  const d = findCharacter(app.doc, target);
  const request = { op: "systmj.combat.exchange", state, kind, attacker: { id: entity }, defender: { id: target }, seed: newSeed() };
  if (weapon) request.weapon = weapon;
  if (kind === "ranged") request.category = weapon?.categories.find((c) => ["jet", "trait", "poing", "epaule"].includes(c)) ?? "trait";
  const r = await callBusy(app, ui, request);
  if (!r) return;
  const summary = t(`systmj.combat.verdict.${r.outcome}`, { a: nameOf(a), d: nameOf(d) });
  phone.result = { entity, outcome: r.outcome, summary, round: state.rounds?.round ?? null };
  const subject = { session: state.session, attacker: entity, defender: target, items: weapon ? [weapon.number] : [] };
  app.addLog({ kind: "systmj.combat.exchange", system: "systmj", who: nameOf(a), label: t("systmj.combat.log", { target: nameOf(d) }),
    request: { op: "systmj.combat.exchange", kind, attacker: { id: entity }, defender: { id: target }, subject },
    result: { summary, terms: r.steps.filter((s) => s.dice).map((s) => d100Term(s.dice, t(`systmj.combat.step.${s.step}`))) } });
  app.rerender();
}

function defenceForm(app, state, e, round) {
  const mine = defended.get(e.id);
  const value = phone.defence[e.id] ?? "none";
  const cards = heldCards(state, e.id);
  const set = (key) => (ev) => { phone[key][e.id] = ev.target.value; app.rerender(); };
  return html`<div class="sj-grid" data-testid="sj-defence-form">
    ${select(`sj-def-${e.id}`, "systmj.combat.defence", value, ["none", "esquive", "parade", "encaissement"].map((k) => [k, t(`systmj.combat.defences.${k}`)]), (v) => { phone.defence[e.id] = v; app.rerender(); })}
    ${value === "parade" || value === "encaissement" ? html`<div class="field"><label for=${`sj-defcard-${e.id}`}>${t("systmj.combat.defence_card")}</label>
      <select id=${`sj-defcard-${e.id}`} @change=${set("card")}><option value="">${t("systmj.combat.no_card")}</option>
        ${cards.map((c) => html`<option value=${c.number} ?selected=${c.number === phone.card[e.id]}>${c.number} ${c.name}</option>`)}</select></div>` : nothing}
    <button type="button" data-testid="sj-declare-defence" ?disabled=${ui.busy} @click=${() => declareDefence(app, e.id, round)}>${t("systmj.combat.declare_defence")}</button>
    ${mine && mine.round === round ? html`<span data-testid="sj-my-defence">${t("systmj.combat.my_defence", { defence: t(`systmj.combat.defences.${mine.defence}`) })}</span>` : nothing}
  </div>`;
}

function attackForm(app, state, view, e) {
  const name = (id) => nameOf(findCharacter(app.doc, id));
  const targets = view.entities.filter((x) => x.id !== e.id);
  if (!phone.target[e.id]) phone.target[e.id] = targets[0]?.id ?? "";
  const kind = phone.kind[e.id] ?? "force";
  const weapons = heldCards(state, e.id).filter((c) => c.types.includes("arme"));
  const current = phone.weapon[e.id] ?? heldFor(state, e.id, kind === "ranged" ? "ranged" : "melee", "trait");
  return html`<div class="sj-grid" data-testid="sj-phone-attack">
    ${select(`sj-target-${e.id}`, "systmj.combat.defender", phone.target[e.id], targets.map((x) => [x.id, name(x.id)]), (v) => { phone.target[e.id] = v; app.rerender(); })}
    ${select(`sj-kind-${e.id}`, "systmj.combat.kind", kind, ["force", "stealth", "ranged", "thrown"].map((k) => [k, t(`systmj.combat.kinds.${k}`)]), (v) => { phone.kind[e.id] = v; app.rerender(); })}
    ${kind !== "thrown" ? select(`sj-weapon-${e.id}`, "systmj.combat.weapon", current, [["", t("systmj.combat.no_card")], ...weapons.map((c) => [c.number, `${c.number} ${c.name}`])], (v) => { phone.weapon[e.id] = v; app.rerender(); }) : nothing}
    <button type="button" class="primary" data-testid="sj-phone-attack-roll" ?disabled=${ui.busy || !phone.target[e.id]} @click=${() => phoneAttack(app, state, e.id)}>${t("systmj.combat.roll")}</button>
  </div>`;
}

/** A player's own choice for the round, sent to the MJ's device (a move it referees); shown
 * here once accepted, hidden from everyone else until the MJ reveals the round. */
async function choose(app, entity, choice, round) {
  const r = await callBusy(app, ui, { op: "systmj.round.choose", state: tableState(app), entity, choice });
  if (!r) return;
  sent.set(entity, { choice, round });
  app.rerender();
}

/**
 * The combat page on a player's phone at a live table: the round's entities (who has chosen
 * is hidden from players: only the reveal shows the choices) and, for the player's own
 * characters, the secret Action/Mouvement choice, the defence declared for the round and,
 * once the round is revealed, the attack of a character that chose Action and has not acted.
 * Everything else (order, reveal, the counter-attack, NPCs) is the MJ's screen.
 */
export function renderPlayer(app, mine) {
  const state = tableState(app);
  const view = state?.rounds ? viewCache(app, { op: "systmj.round.view", state: { ...state } })?.view : null;
  const name = (id) => nameOf(findCharacter(app.doc, id));
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${t("systmj.combat.title")}</h1>
    <div aria-live="polite">${errorLine(ui.error, state ?? {}, "sj-round-error")}</div>
    ${!state?.rounds ? html`<p class="muted" data-testid="sj-no-round">${t("systmj.combat.no_round")}</p>`
      : !view ? html`<p class="muted" aria-busy="true" data-testid="sj-round-loading">${t("systmj.combat.round_loading")}</p>` : html`
    <section class="card" aria-labelledby="sj-round-title" data-testid="sj-tracker" data-revealed=${view.revealed ? "yes" : "no"}>
      <h2 id="sj-round-title">${t("systmj.combat.round_n", { n: view.round })}</h2>
      <p>${view.revealed ? t("systmj.combat.revealed") : t("systmj.combat.hidden_help")}</p>
      <ol class="sj-tracker">${view.entities.map((e) => {
        const own = mine.includes(e.id);
        const mineSent = sent.get(e.id);
        const shown = mineSent && mineSent.round === view.round ? mineSent.choice : null;
        return html`<li data-testid="sj-round-entity" data-id=${e.id}><strong>${name(e.id)}</strong>
          ${view.revealed ? html`<span data-testid="sj-choice">${t(`systmj.combat.choice.${e.choice}`)}</span>`
            : own ? html`${shown ? html`<span data-testid="sj-my-choice">${t(`systmj.combat.choice.${shown}`)}</span>` : nothing}
              <span class="row" role="group" aria-label=${t("systmj.combat.choose_for", { name: name(e.id) })}>
                <button type="button" data-testid="sj-choose-action" ?disabled=${ui.busy} @click=${() => choose(app, e.id, "action", view.round)}>${t("systmj.combat.choice.action")}</button>
                <button type="button" data-testid="sj-choose-mouvement" ?disabled=${ui.busy} @click=${() => choose(app, e.id, "mouvement", view.round)}>${t("systmj.combat.choice.mouvement")}</button>
              </span>` : nothing}
          ${own ? defenceForm(app, state, e, view.round) : nothing}
          ${own && view.revealed && e.choice === "action" && !e.acted ? attackForm(app, state, view, e) : nothing}
          ${own && phone.result?.entity === e.id && phone.result.round === view.round ? html`<p class="sj-verdict outcome-neutral" data-testid="sj-phone-outcome" data-outcome=${phone.result.outcome}>${phone.result.summary}</p>` : nothing}
        </li>`;
      })}</ol>
    </section>`}`;
}

export function render(app) {
  const state = tableState(app);
  if (!state) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p class="muted">${t("systmj.ui.engine_wait")}</p>`;
  const view = state.rounds ? viewCache(app, { op: "systmj.round.view", state: { ...state } })?.view : null;
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${t("systmj.combat.title")}</h1>
    <p class="muted">${t("systmj.combat.intro")}</p>
    <div aria-live="polite">${errorLine(ui.error, state, "sj-round-error")}</div>
    <div class="split" data-testid="sj-combat-split">
      <div>${state.rounds ? (view ? trackerCard(app, state, view) : html`<p class="muted">${t("systmj.ui.engine_wait")}</p>`) : startCard(app)}</div>
      <div>${attackCard(app, state)}</div>
    </div>
  `;
}


// Versality character sheet: guided creation checked at every step by
// versality.character.check (each problem shown at its field), then the played sheet:
// wounds, soulager an ally, improvement purchases. Source of every rule: the Python engine.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { live } from "../../../vendor/lit-html/directives/live.js";
import { said, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderStrip } from "../../views/cards.js";
import { engineWhy, focusFirstInvalid, touchedForm, typedValue } from "../../views/forms.js";
import { disabledWhy, fieldLimit, own, refusalAt, onUndo } from "../../views/ui.js";
import {
  CHARACTERISTICS, KINDS, SKILLS, backLink, cardFace, characters, checkOf, fieldErrors, fieldId,
  characterOp, findCharacter, hasProblem, isCreated, nameOf, outcomeLabel, ready, rules,
  tn, budgetLine,
  onNavigate, transientApp, vsError,
} from "./common.js";
import { hasTableDeck, playerCall } from "./table.js";

const ui = { id: null, error: null, heal: { ally: "", characteristic: "physique", outcome: "oui" },
  improve: { power: "", characteristic: "physique", skill: "traquer", compensation: "" }, message: null };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: null, error: null }));

// Which of the check's problems are shown (a field's once left, all once the player tried to
// validate), and the scores being typed before they commit (views/forms.js).
const form = touchedForm();

onNavigate(() => {
  ui.error = null;
  ui.message = null;
});

function reset(id) {
  form.reset(id);
  if (ui.id === id) return;
  ui.id = id;
  ui.error = null;
  ui.message = null;
  ui.improve.power = "";
  ui.heal.ally = "";
}

/** Change the character `id`; `at` names the field it came from (a refusal is shown there). */
function edit(app, id, mutate, at = null) {
  return app.update((doc) => {
    const c = findCharacter(doc, id);
    if (c) mutate(c);
  }, { at });
}

const clampInt = (value, lo, hi) => {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
};

const describedBy = (...fields) => fields.map(fieldId).join(" ");

/** The sheet as being typed: the saved character with the scores typed but not yet
 * committed (change), for the live counters and the check (nothing is saved). */
function withPreview(c) {
  const typed = form.previews();
  if (!typed.length) return c;
  const d = structuredClone(c);
  for (const [field, text] of typed) {
    const [group, name] = field.split(".");
    if (own(d[group], name) !== undefined) d[group][name] = clampInt(text, 0, 20);
  }
  return d;
}

/** Run a character op on the characters as they are in the latest table (common.js
 * characterOp: a field edited meanwhile is kept), then say what happened (`onOk`, after the
 * write) or show the error. */
async function runCharacterOp(app, request, { onOk } = {}) {
  const response = await characterOp(app, ui, request);
  if (response) {
    await onOk?.(response);
    app.rerender();
  }
  return response;
}

// --------------------------------------------------------------------------- creation
function powerSection(app, c, check, locked) {
  const powers = c.powers.length ? c.powers : [{ text: "", approved: false }];
  return html`<fieldset class="card vs-step" id="vs-step-power">
    <legend>${t(locked ? "versality.ui.sheet_power" : "versality.ui.step_power")}</legend>
    <p class="muted small">${t("versality.ui.power_help")}</p>
    ${powers.map((p, i) => html`<div class="field">
      <label for=${`vs-power-${i}`}>${i === 0 ? t("versality.ui.power") : t("versality.ui.power_n", { n: i + 1 })}</label>
      <textarea id=${`vs-power-${i}`} maxlength="500" rows="2" .value=${typedValue(p.text)}
        aria-invalid=${hasProblem(check, "powers") && i === 0 ? "true" : "false"}
        aria-describedby=${describedBy("powers")} @blur=${form.leave(app, "powers")}
        @input=${(e) => edit(app, c.id, (d) => {
          if (!d.powers.length) d.powers.push({ text: "", approved: false });
          d.powers[i].text = e.target.value.slice(0, 500);
        })}></textarea>
      <label class="check"><input type="checkbox" id=${`vs-power-${i}-approved`} .checked=${live(p.approved)}
        aria-invalid=${hasProblem(check, `powers.${i}.approved`) ? "true" : "false"}
        aria-describedby=${describedBy(`powers.${i}.approved`)} @blur=${form.leave(app, `powers.${i}.approved`)}
        @change=${(e) => edit(app, c.id, (d) => {
          form.touch(`powers.${i}.approved`);
          if (!d.powers.length) d.powers.push({ text: "", approved: false });
          d.powers[i].approved = e.target.checked;
        })}> ${t("versality.ui.approved_by_mj")}</label>
      ${fieldErrors(check, `powers.${i}.approved`)}
    </div>`)}
    ${fieldErrors(check, "powers")}
  </fieldset>`;
}

function creationSpent(c, prices) {
  return c.deck.filter((k) => k.origin === "creation").reduce((s, k) => s + (prices[k.kind] ?? 0), 0);
}

function removeCard(app, c, index) {
  edit(app, c.id, (d) => {
    if (d.deck[index]?.origin === "creation") d.deck.splice(index, 1);
  });
}

function cardChips(app, c, kinds, locked) {
  const items = c.deck.map((card, index) => ({ card, index })).filter(({ card }) => kinds.includes(card.kind));
  return html`<ul class="vs-chips" aria-label=${t("versality.ui.cards_in_deck")}>
    ${items.map(({ card, index }) => html`<li class="vs-chip tone-${cardFace(card).tone}" data-testid="vs-deck-card" data-kind=${card.kind} data-origin=${card.origin}>
      <span>${outcomeLabel(card.kind)}</span>
      <span class="muted small">${t(`versality.ui.origin.${card.origin}`)}</span>
      ${!locked && card.origin === "creation"
        ? html`<button type="button" class="vs-chip-remove" aria-label=${t("versality.ui.remove_card", { card: outcomeLabel(card.kind) })}
            @click=${() => removeCard(app, c, index)}>✕</button>`
        : html`<span class="visually-hidden">${t("versality.ui.locked")}</span>`}
    </li>`)}
  </ul>`;
}

function failureAllowed(gap, value, cheapest) {
  return gap > 0 && (value <= gap || gap < cheapest);
}

function deckSection(app, c, check, locked, r) {
  const prices = r?.success_prices ?? {};
  const values = r?.failure_values ?? {};
  const budget = r?.creation?.success_points ?? 5;
  const spent = creationSpent(c, prices);
  const left = budget - spent;
  const ledger = check?.ledger;
  const cheapest = Math.min(...Object.values(values), Infinity);
  const addCard = (kind) => edit(app, c.id, (d) => { d.deck.push({ kind, origin: "creation" }); });
  const deckInvalid = hasProblem(check, "deck");
  return html`<fieldset class="card vs-step" id="vs-step-deck" @focusout=${form.leaveGroup(app, "deck")}>
    <legend>${t("versality.ui.step_deck")}</legend>
    <p class="muted small">${t("versality.ui.deck_help")}</p>
    ${cardChips(app, c, ["oui-et", "oui", "oui-mais"], locked)}
    ${locked ? nothing : html`
      <p class="vs-remaining" data-testid="vs-success-left" aria-live="polite">${budgetLine(left, budget)}</p>
      <div class="row" role="group" aria-label=${t("versality.ui.buy_success")}>
        ${["oui-et", "oui", "oui-mais"].map((kind) => {
          const reason = !r ? engineWhy(app) || t("versality.ui.checking")
            : (prices[kind] ?? 99) > left ? tn("versality.ui.why_points", prices[kind], { left: Math.max(left, 0) }) : null;
          const why = disabledWhy(`vs-buy-${kind}`, reason);
          return html`<div class="vs-buy"><button type="button" data-testid=${`vs-buy-${kind}`}
          aria-describedby=${why.id === nothing ? describedBy("deck") : `${why.id} ${describedBy("deck")}`}
          ?disabled=${Boolean(reason)} @click=${() => addCard(kind)}>
          + ${outcomeLabel(kind)} <span class="small">(${kind in prices ? tn("versality.ui.price", prices[kind]) : "…"})</span></button>${why.note}</div>`;
        })}
      </div>
      <p class="muted small">${t("versality.ui.never_removed")}</p>`}
  </fieldset>
  <fieldset class="card vs-step" id="vs-step-failure" @focusout=${form.leaveGroup(app, "deck")}>
    <legend>${t("versality.ui.step_failure")}</legend>
    <p class="muted small">${t("versality.ui.failure_help")}</p>
    ${cardChips(app, c, ["non-mais", "non-et"], locked)}
    ${ledger ? html`<dl class="facts vs-ledger" data-testid="vs-ledger">
      <dt>${t("versality.ui.ledger_success")}</dt><dd>${ledger.success_points}</dd>
      <dt>${t("versality.ui.ledger_required")}</dt><dd>${ledger.failure_required}</dd>
      <dt>${t("versality.ui.ledger_value")}</dt><dd>${ledger.failure_value}</dd>
      <dt>${t("versality.ui.ledger_gap")}</dt><dd data-testid="vs-gap">${Math.max(ledger.gap, 0)}</dd>
    </dl>
    ${ledger.debt ? html`<p class="vs-choice" data-testid="vs-debt">${tn("versality.ui.shortfall_choice", ledger.gap)}<br>${tn("versality.ledger.debt", ledger.debt)}</p>` : nothing}
    ${ledger.credit ? html`<p data-testid="vs-credit">${tn("versality.ledger.credit", ledger.credit)}</p>` : nothing}` : nothing}
    ${locked ? nothing : html`<div class="row" role="group" aria-label=${t("versality.ui.buy_failure")}>
      ${["non-mais", "non-et"].map((kind) => {
        const reason = !ledger ? engineWhy(app) || t("versality.ui.checking")
          : ledger.gap <= 0 ? t("versality.ui.why_nothing_owed")
            : !failureAllowed(ledger.gap, values[kind] ?? 99, cheapest) ? t("versality.ui.why_too_much", { value: values[kind], gap: ledger.gap }) : null;
        const why = disabledWhy(`vs-buy-${kind}`, reason);
        return html`<div class="vs-buy"><button type="button" data-testid=${`vs-buy-${kind}`}
        aria-describedby=${why.id === nothing ? describedBy("deck") : `${why.id} ${describedBy("deck")}`}
        ?disabled=${Boolean(reason)} @click=${() => addCard(kind)}>
        + ${outcomeLabel(kind)} <span class="small">(${t("versality.ui.compensates", { n: values[kind] ?? "…" })})</span></button>${why.note}</div>`;
      })}
    </div>`}
    <div aria-invalid=${deckInvalid ? "true" : "false"}>${fieldErrors(check, "deck")}</div>
  </fieldset>`;
}

function traitsSection(app, c, check, played = false) {
  const three = c.forces.length >= 3;
  const nf = three ? 3 : 2;
  const nw = three ? 2 : 1;
  const setMode = (isThree) => edit(app, c.id, (d) => {
    const f = isThree ? 3 : 2;
    const w = isThree ? 2 : 1;
    d.forces = Array.from({ length: f }, (_, i) => d.forces[i] ?? "");
    d.faiblesses = Array.from({ length: w }, (_, i) => d.faiblesses[i] ?? "");
  });
  const input = (list, i, label) => html`<div class="field">
    <label for=${`vs-${list}-${i}`}>${label}</label>
    <input id=${`vs-${list}-${i}`} maxlength="200" .value=${typedValue(c[list][i] ?? "")}
      aria-invalid=${hasProblem(check, "forces") && !(c[list][i] ?? "").trim() ? "true" : "false"} aria-describedby=${describedBy("forces")}
      @blur=${form.leave(app, `${list}.${i}`)}
      @input=${(e) => edit(app, c.id, (d) => {
        const n = list === "forces" ? nf : nw;
        d[list] = Array.from({ length: n }, (_, k) => d[list][k] ?? "");
        d[list][i] = e.target.value.slice(0, 200);
      })}>
  </div>`;
  return html`<fieldset class="card vs-step" id="vs-step-traits" @focusout=${form.leaveGroup(app, "forces")}>
    <legend>${t(played ? "versality.ui.sheet_traits" : "versality.ui.step_traits")}</legend>
    <div class="row" role="radiogroup" aria-label=${t("versality.ui.traits_mode")}>
      <label class="check"><input type="radio" name="vs-traits-mode" .checked=${live(!three)} @change=${() => setMode(false)}> ${t("versality.ui.traits_2_1")}</label>
      <label class="check"><input type="radio" name="vs-traits-mode" .checked=${live(three)} @change=${() => setMode(true)}> ${t("versality.ui.traits_3_2")}</label>
    </div>
    ${Array.from({ length: nf }, (_, i) => input("forces", i, t("versality.ui.force_n", { n: i + 1 })))}
    ${Array.from({ length: nw }, (_, i) => input("faiblesses", i, t("versality.ui.faiblesse_n", { n: i + 1 })))}
    ${fieldErrors(check, "forces")}
    <label class="check"><input type="checkbox" id="vs-traits-approved" .checked=${live(c.traits_approved)}
      aria-invalid=${hasProblem(check, "traits_approved") ? "true" : "false"} aria-describedby=${describedBy("traits_approved")}
      @blur=${form.leave(app, "traits_approved")}
      @change=${(e) => { form.touch("traits_approved"); edit(app, c.id, (d) => { d.traits_approved = e.target.checked; }); }}> ${t("versality.ui.approved_by_mj")}</label>
    ${fieldErrors(check, "traits_approved")}
  </fieldset>`;
}

function scoresSection(app, c, check, { group, names, labelKey, budget, max, legend, locked }) {
  const total = names.reduce((s, n) => s + c[group][n], 0);
  return html`<fieldset class="card vs-step" id=${`vs-step-${group}`} @focusout=${form.leaveGroup(app, group)}>
    <legend>${legend}</legend>
    ${locked ? nothing : html`<p class="vs-remaining" data-testid=${`vs-${group}-left`} aria-live="polite">
      ${budgetLine(budget - total, budget)}${max ? html` · ${t("versality.ui.max_per_skill", { max })}` : nothing}</p>`}
    <div class="vs-scores">
      ${names.map((n) => {
        const field = `${group}.${n}`;
        const bad = hasProblem(check, field);
        return html`<div class="field vs-score">
          <label for=${`vs-${group}-${n}`}>${t(`${labelKey}.${n}`)}</label>
          <input type="number" inputmode="numeric" min="0" max="20" id=${`vs-${group}-${n}`} .value=${typedValue(form.preview(field) ?? String(c[group][n]))}
            ?readonly=${locked} aria-invalid=${bad ? "true" : "false"} aria-describedby=${describedBy(field, group)}
            @input=${(e) => { form.setPreview(field, e.target.value); app.rerender(); }}
            @blur=${form.leave(app, field)}
            @change=${(e) => { form.clearPreview(field); edit(app, c.id, (d) => { d[group][n] = clampInt(e.target.value, 0, 20); }); }}>
          ${fieldErrors(check, field)}
        </div>`;
      })}
    </div>
    ${fieldErrors(check, group)}
  </fieldset>`;
}

/** "Valider la création": the engine refuses while character.check has problems. */
function validate(app, c, check) {
  // Problems left: every one shows at its field and the first takes the focus.
  if (!check?.valid) {
    form.touchAll();
    app.rerender();
    focusFirstInvalid();
    return null;
  }
  return runCharacterOp(app, { op: "versality.character.finish", character: c }, {
    onOk: () => {
      transientApp(app).notify("status", t("versality.ui.validated", { name: nameOf(c) }));
    },
  });
}

// --------------------------------------------------------------------------- played sheet
function woundsSection(app, c, check) {
  const wound = (characteristic) => runCharacterOp(app, { op: "versality.wound", character: c, characteristic }, {
    onOk: (r) => {
      ui.message = () => t("versality.ui.wounded", { name: nameOf(c), characteristic: t(`versality.characteristic.${characteristic}`), status: t(`versality.status.${r.status}`) });
    },
  });
  // La MJ's correction of a wound added by mistake (versality.wound.remove), logged as such.
  const takeBack = (characteristic) => runCharacterOp(app, { op: "versality.wound.remove", character: c, characteristic }, {
    onOk: (r) => {
      const what = t(`versality.characteristic.${characteristic}`);
      ui.message = () => t("versality.ui.wound_removed", { name: nameOf(c), characteristic: t(`versality.characteristic.${characteristic}`), status: t(`versality.status.${r.status}`) });
      app.addLog({ kind: "versality.wound.remove", system: "versality", who: t("versality.ui.mj_correction_who"),
        label: t("versality.ui.wound_removed_log", { name: nameOf(c), characteristic: what }),
        request: { op: "versality.wound.remove", characteristic }, result: { summary: said(ui.message) } });
    },
  });
  // One reason for the three "+ blessure" buttons, said once under the list.
  const woundReason = c.incapacitated ? t("versality.ui.why_incapacitated") : engineWhy(app);
  const woundWhy = disabledWhy("vs-wound", woundReason);
  return html`<section class="card" aria-labelledby="vs-wounds-title" id="vs-wounds">
    <h2 id="vs-wounds-title">${t("versality.ui.wounds")}</h2>
    <p>${t("versality.ui.status")} <strong data-testid="vs-status">${check?.status ? t(`versality.status.${check.status}`) : "…"}</strong>
      ${check?.untreated_wounds ? html` · <span data-testid="vs-untreated">${tn("versality.ui.untreated", check.untreated_wounds)}</span>` : nothing}</p>
    <ul class="vs-wound-list">
      ${CHARACTERISTICS.map((k) => {
        const label = t(`versality.characteristic.${k}`);
        return html`<li>
        <span>${label} : <strong data-testid=${`vs-wounds-${k}`}>${c.wounds[k]}</strong></span>
        <button type="button" ?disabled=${Boolean(woundReason)} aria-describedby=${woundWhy.id} data-testid=${`vs-wound-${k}`}
          @click=${() => wound(k)}>${t("versality.ui.add_wound")}<span class="visually-hidden"> (${label})</span></button>
        ${c.wounds[k] > 0 ? html`<button type="button" class="small-btn" data-testid=${`vs-unwound-${k}`} ?disabled=${!ready(app)}
          @click=${() => takeBack(k)}>${t("versality.ui.remove_wound")}<span class="visually-hidden"> (${label})</span></button>` : nothing}
      </li>`;
      })}
    </ul>
    ${woundWhy.note}
    <p class="muted small">${t("versality.ui.remove_wound_help")}</p>
    <p class="muted small">${t("versality.ui.wounds_help")}</p>
  </section>`;
}

function healSection(app, c) {
  const allies = characters(app.doc).filter((x) => x.id !== c.id);
  const ally = allies.find((x) => x.id === ui.heal.ally) ?? allies[0] ?? null;
  const doHeal = () => runCharacterOp(app, {
    op: "versality.heal", healer: c, target: ally, characteristic: ui.heal.characteristic, outcome: ui.heal.outcome,
  }, {
    onOk: (r) => {
      const healed = ui.heal.characteristic;
      ui.message = () => (r.healed
        ? t("versality.ui.healed", { name: nameOf(ally), characteristic: t(`versality.characteristic.${healed}`) })
        : t("versality.ui.heal_failed", { name: nameOf(ally) }));
      app.addLog({ kind: "versality.heal", system: "versality", who: nameOf(c), label: t("versality.ui.heal_log", { name: nameOf(ally) }),
        request: { op: "versality.heal", characteristic: ui.heal.characteristic, outcome: ui.heal.outcome }, result: { summary: said(ui.message) } });
    },
  });
  return html`<section class="card" aria-labelledby="vs-heal-title" id="vs-heal">
    <h2 id="vs-heal-title">${t("versality.ui.heal")}</h2>
    <p class="muted small">${t("versality.ui.heal_help")}</p>
    ${c.heal_used ? html`<p data-testid="vs-heal-used" id="vs-heal-used">${t("versality.ui.heal_used")}</p>` : nothing}
    ${allies.length === 0 ? html`<p class="muted">${t("versality.ui.no_ally")}</p>` : html`
      <div class="vs-form-grid">
        <div class="field"><label for="vs-heal-ally">${t("versality.ui.ally")}</label>
          <select id="vs-heal-ally" @change=${(e) => { ui.heal.ally = e.target.value; app.rerender(); }}>
            ${allies.map((a) => html`<option value=${a.id} ?selected=${a.id === ally.id}>${nameOf(a)}</option>`)}
          </select></div>
        <div class="field"><label for="vs-heal-char">${t("versality.ui.wounded_characteristic")}</label>
          <select id="vs-heal-char" @change=${(e) => { ui.heal.characteristic = e.target.value; app.rerender(); }}>
            ${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === ui.heal.characteristic}>${t(`versality.characteristic.${k}`)} (${ally.wounds[k]})</option>`)}
          </select></div>
      </div>
      ${c.incapacitated ? html`<p data-testid="vs-heal-incapacitated" id="vs-heal-why">${t("versality.ui.heal_incapacitated")}</p>` : nothing}
      ${c.heal_used || c.incapacitated
        ? html`<button type="button" id="vs-heal-test" disabled aria-describedby=${c.incapacitated ? "vs-heal-why" : "vs-heal-used"}>${t("versality.ui.heal_test")}</button>`
        : html`<a class="button primary" id="vs-heal-test"
            href=${`#/versality/test/${encodeURIComponent(c.id)}/heal/${encodeURIComponent(ally.id)}/${ui.heal.characteristic}`}>${t("versality.ui.heal_test")}</a>`}
      <details class="vs-heal-manual">
        <summary>${t("versality.ui.heal_manual")}</summary>
        <div class="field"><label for="vs-heal-outcome">${t("versality.ui.heal_outcome")}</label>
          <select id="vs-heal-outcome" @change=${(e) => { ui.heal.outcome = e.target.value; }}>
            ${["oui-et", "oui", "oui-mais", "non-mais", "non-et", "echec-critique"].map((o) => html`<option value=${o} ?selected=${o === ui.heal.outcome}>${outcomeLabel(o)}</option>`)}
          </select></div>
        <button type="button" id="vs-heal-do" ?disabled=${!ready(app) || c.heal_used || c.incapacitated}
          aria-describedby=${c.incapacitated ? "vs-heal-why" : c.heal_used ? "vs-heal-used" : nothing} @click=${doHeal}>${t("versality.ui.heal_do")}</button>
      </details>`}
  </section>`;
}

/** A card bought goes into the table deck (versality.deck.sync: shuffled into the draw
 * pile only; the discard keeps waiting for the deck to run out, with its penalty). Whether the
 * table has a deck for the character is read from the table itself (table.hasTableDeck): the
 * player view's cache is empty on a sheet opened directly, and the card never reached the deck. */
async function syncDeck(app, character) {
  if (!hasTableDeck(app.doc, character.id)) return false;
  const r = await playerCall(app, { op: "versality.deck.sync", character, seed: newSeed() });
  if (r.error) {
    ui.error = r.error;
    return false;
  }
  return r.added.length > 0;
}

function progressionSection(app, c, r) {
  const chars = c.characteristics;
  const charCost = 1 + CHARACTERISTICS.reduce((s, k) => s + chars[k], 0);
  const skillCost = Math.max(1, c.skills[ui.improve.skill]);
  // `label()` names what was bought, in the language shown when the message is.
  const buy = (purchase, label) => runCharacterOp(app, { op: "versality.improve", character: c, purchase }, {
    onOk: async (res) => {
      const bought = () => (purchase.compensation?.length
        ? t("versality.ui.bought_with", { what: label(), with: purchase.compensation.map(outcomeLabel).join(", "), cost: res.cost })
        : t("versality.ui.bought", { what: label(), cost: res.cost }));
      ui.message = bought;
      if (purchase.compensation) ui.improve.compensation = "";
      if (purchase.type === "card" && await syncDeck(app, res.character)) {
        ui.message = () => `${bought()} ${t("versality.ui.deck_synced")}`;
      }
      if (purchase.type === "card") app.rerender();
      if (purchase.type === "power") ui.improve.power = "";
    },
  });
  const prices = r?.success_prices ?? {};
  const points = c.improvement_points;
  // A purchase the points cannot pay is disabled and says so (the engine refuses it anyway).
  const short = (cost) => (cost > points ? t("versality.ui.why_improve_points", { cost, points }) : null);
  const buyButton = (id, testid, reason, onClick, body) => {
    const why = disabledWhy(id, reason);
    return html`<div class="vs-buy"><button type="button" id=${id} data-testid=${testid ?? nothing} ?disabled=${Boolean(reason)}
      aria-describedby=${why.id} @click=${onClick}>${body}</button>${why.note}</div>`;
  };
  const powerPrice = r?.power_price ?? 5;
  return html`<section class="card" aria-labelledby="vs-prog-title" id="vs-progression">
    <h2 id="vs-prog-title">${t("versality.ui.progression")}</h2>
    <p>${t("versality.ui.improvement_points")} <strong data-testid="vs-improvement-points">${c.improvement_points}</strong></p>
    <p class="muted small">${t("versality.ui.progression_help")}</p>
    <h3>${t("versality.ui.buy_card")}</h3>
    <div class="field"><label for="vs-improve-compensation">${t("versality.ui.compensation")}</label>
      <select id="vs-improve-compensation" aria-describedby="vs-improve-compensation-help"
        @change=${(e) => { ui.improve.compensation = e.target.value; }}>
        ${["", "non-mais", "non-et"].map((k) => html`<option value=${k} ?selected=${k === ui.improve.compensation}>${k ? outcomeLabel(k) : t("versality.ui.compensation_none")}</option>`)}
      </select>
      <p class="muted small" id="vs-improve-compensation-help">${t("versality.ui.compensation_help")}</p></div>
    <div class="row">
      ${KINDS.map((kind) => buyButton(`vs-improve-${kind}`, `vs-improve-${kind}`, engineWhy(app) || (kind in prices ? short(prices[kind]) : null),
        () => buy({ type: "card", kind, ...(kind in prices && ui.improve.compensation ? { compensation: [ui.improve.compensation] } : {}) }, () => outcomeLabel(kind)),
        html`+ ${outcomeLabel(kind)}
        <span class="small">(${kind in prices ? tn("versality.ui.price", prices[kind]) : t("versality.ui.free_compensation")})</span>`))}
    </div>
    <h3>${t("versality.purchase.power")}</h3>
    <div class="field"><label for="vs-new-power">${t("versality.ui.new_power_text")}</label>
      <input id="vs-new-power" maxlength="500" .value=${typedValue(ui.improve.power)} aria-describedby="vs-new-power-help"
        @input=${(e) => { const was = ui.improve.power.trim(); ui.improve.power = e.target.value; if (!was !== !ui.improve.power.trim()) app.rerender(); }}>
      <p class="muted small" id="vs-new-power-help">${t("versality.ui.new_power_help")}</p></div>
    ${buyButton("vs-buy-power", null, engineWhy(app) || short(powerPrice) || (ui.improve.power.trim() ? null : t("versality.ui.why_power_text")),
      () => buy({ type: "power", text: ui.improve.power.slice(0, 500) }, () => t("versality.purchase.power")),
      t("versality.ui.buy_power", { n: powerPrice }))}
    <h3>${t("versality.purchase.characteristic")}</h3>
    <div class="row">
      <div class="field"><label for="vs-improve-char">${t("versality.ui.characteristic")}</label>
        <select id="vs-improve-char" @change=${(e) => { ui.improve.characteristic = e.target.value; app.rerender(); }}>
          ${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === ui.improve.characteristic}>${t(`versality.characteristic.${k}`)} (${chars[k]})</option>`)}
        </select></div>
      ${buyButton("vs-improve-characteristic", "vs-improve-characteristic", engineWhy(app) || short(charCost),
        () => { const k = ui.improve.characteristic; buy({ type: "characteristic", name: k }, () => t(`versality.characteristic.${k}`)); },
        t("versality.ui.raise", { n: charCost }))}
    </div>
    <h3>${t("versality.purchase.skill")}</h3>
    <div class="row">
      <div class="field"><label for="vs-improve-skill">${t("versality.ui.skill")}</label>
        <select id="vs-improve-skill" @change=${(e) => { ui.improve.skill = e.target.value; app.rerender(); }}>
          ${SKILLS.map((k) => html`<option value=${k} ?selected=${k === ui.improve.skill}>${t(`versality.skill.${k}`)} (${c.skills[k]})</option>`)}
        </select></div>
      ${buyButton("vs-improve-skill", "vs-improve-skill", engineWhy(app) || short(skillCost),
        () => { const k = ui.improve.skill; buy({ type: "skill", name: k }, () => t(`versality.skill.${k}`)); },
        t("versality.ui.raise", { n: skillCost }))}
    </div>
  </section>`;
}

function scoresSummary(c) {
  return html`<section class="card" aria-labelledby="vs-summary-title">
    <h2 id="vs-summary-title">${t("versality.ui.sheet_scores")}</h2>
    <dl class="facts">
      ${CHARACTERISTICS.map((k) => html`<dt>${t(`versality.characteristic.${k}`)}</dt><dd>${c.characteristics[k]}</dd>`)}
    </dl>
    <dl class="facts vs-skills">
      ${SKILLS.map((k) => html`<dt>${t(`versality.skill.${k}`)}</dt><dd>${c.skills[k]}</dd>`)}
    </dl>
  </section>`;
}

function deckSummary(c, check) {
  return html`<section class="card" aria-labelledby="vs-deck-title">
    <h2 id="vs-deck-title">${t("versality.ui.deck")} (${c.deck.length})</h2>
    ${renderStrip(c.deck.map((k, i) => ({ id: String(i), kind: k.kind })), { face: cardFace, label: t("versality.ui.deck"), testid: "vs-sheet-deck" })}
    ${check?.ledger?.debt ? html`<p>${tn("versality.ledger.debt", check.ledger.debt)}</p>` : nothing}
    ${check?.ledger?.credit ? html`<p>${tn("versality.ledger.credit", check.ledger.credit)}</p>` : nothing}
    ${check?.ledger?.due ? html`<p class="field-error">${t("error.versality.deck.compensation_due", { due: check.ledger.due })}</p>` : nothing}
  </section>`;
}

export function render(app, id) {
  reset(id);
  const c = findCharacter(app.doc, id);
  if (!c) {
    return html`${backLink("#/versality", t("versality.ui.back"))}<p role="alert">${t("versality.ui.not_found")}</p>`;
  }
  // The check of the sheet as typed (scores not yet committed included): live counters and
  // messages; only the problems of fields left (or all, after a try) are shown.
  const typed = withPreview(c);
  const raw = checkOf(app, typed);
  const check = form.visible(raw);
  const r = rules(app);
  const created = isCreated(c);
  const status = html`<div role="status" aria-live="polite" class="vs-status-line" data-testid="vs-sheet-status">
    ${ui.error ? html`<p class="field-error">${vsError(ui.error)}</p>` : nothing}
    ${ui.message ? html`<p>${said(ui.message)}</p>` : nothing}</div>`;
  const nameMax = fieldLimit(app, "versality", "name", 80);
  const header = html`
    ${backLink("#/versality", t("versality.ui.back"))}
    <h1>${nameOf(c)}</h1>
    <div class="field">
      <label for="vs-name">${t("versality.ui.name")}</label>
      <input id="vs-name" maxlength=${nameMax} .value=${typedValue(c.name)} aria-describedby="vs-name-refusal"
        @input=${(e) => edit(app, id, (d) => { d.name = Array.from(e.target.value).slice(0, nameMax).join(""); }, "vs-name")}>
      <div id="vs-name-refusal">${refusalAt(app, "vs-name")}</div>
    </div>`;
  if (!created) {
    // The count of rules left comes with their messages (forms.count): until every one shows
    // at its field, the line says how to see them.
    const count = form.count(raw);
    const validateReason = engineWhy(app);
    const validateWhy = disabledWhy("vs-validate", validateReason);
    return html`${header}
      <p class="muted">${t("versality.ui.creation_intro")}</p>
      <div class="split vs-sheet-split" data-testid="vs-sheet-columns">
      <div class="vs-col">
      ${powerSection(app, c, check, false)}
      ${traitsSection(app, c, check)}
      ${scoresSection(app, typed, check, { group: "characteristics", names: CHARACTERISTICS, labelKey: "versality.characteristic",
        budget: r?.creation?.characteristic_points ?? 3, legend: t("versality.ui.step_characteristics") })}
      ${scoresSection(app, typed, check, { group: "skills", names: SKILLS, labelKey: "versality.skill",
        budget: r?.creation?.skill_points ?? 5, max: r?.creation?.skill_max ?? 3, legend: t("versality.ui.step_skills") })}
      </div>
      <div class="vs-col">
      ${deckSection(app, c, check, false, r)}
      <section class="card" aria-labelledby="vs-validate-title">
        <h2 id="vs-validate-title">${t("versality.ui.validate_title")}</h2>
        <p data-testid="vs-problem-count" aria-live="polite" class=${count?.n && !count.later ? "field-error" : ""}>${count === null ? t("versality.ui.checking")
          : !count.n ? t("versality.ui.all_good") : count.later ? t("versality.ui.problems_later") : tn("versality.ui.problems_left", count.n)}</p>
        <p class="muted small">${t("versality.ui.validate_help")}</p>
        <button type="button" class="primary" id="vs-validate" ?disabled=${Boolean(validateReason)} aria-describedby=${validateWhy.id}
          @click=${() => validate(app, c, raw)}>${t("versality.ui.validate")}</button>${validateWhy.note}
        <div role="status" aria-live="polite" data-testid="vs-validate-status">
          ${ui.error ? html`<p class="field-error">${vsError(ui.error)}</p>` : nothing}</div>
      </section>
      </div>
      </div>`;
  }
  return html`${header}
    <div class="row vs-actions">
      <a class="button primary" href=${`#/versality/test/${encodeURIComponent(id)}`} id="vs-go-test">${t("versality.ui.make_test")}</a>
    </div>
    ${status}
    <div class="split vs-sheet-split" data-testid="vs-sheet-columns">
      <div class="vs-col">
        ${powerSection(app, c, check, true)}
        ${traitsSection(app, c, check, true)}
        ${scoresSummary(c)}
      </div>
      <div class="vs-col">
        ${deckSummary(c, raw)}
        ${woundsSection(app, c, raw)}
        ${healSection(app, c)}
        ${progressionSection(app, c, r)}
      </div>
    </div>`;
}

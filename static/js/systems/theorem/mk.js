// The MK's screen (#/theorem/mk): the MK's arcana hand for the session (3..10 cards, shown only
// when the MK chooses to look), turns (one arcane per player per turn), the success table and
// the arcana's effects as data the MK edits, and the players' failed attempts (re-tests).
// Wording: Théorem's text speaks of "le maître de Ka", "le MK" (rules 003), never of an MJ: the
// theorem strings say "MK" / "maître de Ka" (tests/test_mj_wording.py). From 60rem the hand and
// the turns sit beside the success table and the effects (shared .split).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, said, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderCard } from "../../views/cards.js";
import { ARCANA, MK, arcaneFace, arcaneName, backLink, characters, ensureState, eventsText, levelLabel, logDraw, nameOf,
  ready, tableAction, tableState, thError, tn } from "./common.js";
import { onUndo } from "../../views/ui.js";

const ui = { size: 5, looking: false, hand: null, busy: false, error: null, message: "", table: null, effects: null, effectsOpen: false, editing: null, pick: null };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: "", error: null }));

/** An MJ op on the latest table state (tableAction: the `state` of `request` is replaced by
 * the saved one when its turn comes, and the answer written only if that state is unchanged);
 * `after(answer)` once it is written. */
async function run(app, request, after) {
  const r = await tableAction(app, ui, null, (state) =>
    app.call({ ...request, state }).then((a) => (a.error ? a : { ...a, character: null })));
  if (!r) return;
  after(r);
  app.rerender();
}

function mkHand(app, state) {
  if (!ui.looking) return null;
  const arc = state.arcana[MK];
  const key = JSON.stringify(arc?.piles.discard.cards ?? []) + (arc?.piles.hand.cards.length ?? 0);
  if (ui.hand?.key === key) return ui.hand.cards;
  if (ui.hand?.asked === key || !ready(app)) return null;
  ui.hand = { asked: key, key: null, cards: null };
  app.call({ op: "theorem.view.player", state, viewer: MK }).then((r) => {
    if (!ui.looking || ui.hand?.asked !== key || r.error) return;
    const a = r.view.arcana[MK];
    ui.hand = { key, asked: key, cards: a.piles.hand.cards.map((id) => a.cards[id]) };
    app.rerender();
  });
  return null;
}

function handSection(app, state) {
  const arc = state.arcana[MK];
  const count = arc?.piles.hand.cards.length ?? 0;
  const hand = mkHand(app, state);
  const draw = () => {
    const seed = newSeed();
    run(app, { op: "theorem.mk.hand", state, size: ui.size, seed }, (r) => {
      ui.message = () => `${tn("theorem.ui.hand_drawn", r.count)} ${eventsText(r.events)}`;
      ui.hand = null;
      logDraw(app, { kind: "theorem.hand", who: t("theorem.ui.mk"), label: t("theorem.ui.mk_hand_log", { n: r.count }),
        request: { op: "theorem.mk.hand", size: ui.size, seed }, deck: null, summary: said(ui.message) });
    });
  };
  const play = (card) => run(app, { op: "theorem.mk.discard", state, card: card.id }, () => {
    ui.message = () => t("theorem.ui.mk_played", { name: arcaneName(card.number) });
    ui.hand = null;
  });
  return html`<section class="card" aria-labelledby="th-mk-hand-title" data-testid="th-mk-hand">
    <h2 id="th-mk-hand-title">${tn("theorem.ui.mk_hand", count)}</h2>
    <p class="muted small">${t("theorem.ui.mk_hand_help")}</p>
    ${count === 0 ? html`<div class="row">
      <div class="field"><label for="th-mk-size">${t("theorem.ui.mk_size")}</label>
        <select id="th-mk-size" @change=${(e) => { ui.size = Number(e.target.value); }}>
          ${[3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option value=${n} ?selected=${n === ui.size}>${n}</option>`)}
        </select></div>
      <button type="button" class="primary" id="th-mk-draw" ?disabled=${!ready(app) || ui.busy} @click=${draw}>${t("theorem.ui.mk_draw")}</button>
    </div>` : ui.looking ? html`
      <ul class="card-hand" data-testid="th-mk-cards">${hand ? hand.map((card) => html`<li>${renderCard(card, { face: arcaneFace })}
        <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => play(card)}>${t("theorem.ui.mk_play")}<span class="visually-hidden"> ${arcaneName(card.number)}</span></button>
        ${state.effects[card.number] ? html`<p class="small th-effect">${state.effects[card.number]}</p>` : nothing}</li>`) : html`<li>${t("theorem.ui.loading")}</li>`}</ul>
      <button type="button" id="th-mk-hide" @click=${() => { ui.looking = false; ui.hand = null; app.rerender(); }}>${t("theorem.ui.hide_hand")}</button>`
    : html`<ul class="card-hand">${Array.from({ length: count }, () => html`<li>${renderCard(null, { faceDown: true })}</li>`)}</ul>
      <button type="button" id="th-mk-look" @click=${() => { ui.looking = true; app.rerender(); }}>${t("theorem.ui.mk_look")}</button>`}
  </section>`;
}

function turnSection(app, state) {
  const next = () => run(app, { op: "theorem.turn.next", state }, (r) => {
    ui.message = () => t("theorem.ui.turn_now", { n: r.state.turn + 1 });
  });
  const list = characters(app.doc).filter((c) => state.fails[c.id]);
  const clear = (c) => run(app, { op: "theorem.retest.clear", state, character_id: c.id }, () => {});
  return html`<section class="card" aria-labelledby="th-turn-title">
    <h2 id="th-turn-title">${t("theorem.ui.turn_title", { n: state.turn + 1 })}</h2>
    <p class="muted small">${t("theorem.ui.turn_help")}</p>
    <button type="button" id="th-next-turn" ?disabled=${!ready(app) || ui.busy} @click=${next}>${t("theorem.ui.next_turn")}</button>
    <h3>${t("theorem.ui.retests")}</h3>
    ${list.length ? html`<ul class="th-fails">${list.map((c) => html`<li>${nameOf(c)} : ${(state.fails[c.id].skill ? tn("theorem.ui.fails", state.fails[c.id].count, { skill: state.fails[c.id].skill }) : tn("theorem.ui.fails_no_skill", state.fails[c.id].count))}
      <button type="button" @click=${() => clear(c)}>${t("theorem.ui.retest_clear")}<span class="visually-hidden"> ${nameOf(c)}</span></button></li>`)}</ul>`
      : html`<p class="muted small">${t("theorem.ui.no_fails")}</p>`}
  </section>`;
}

function tableSection(app, state) {
  const rows = ui.table ?? structuredClone(state.success_table);
  ui.table = rows;
  const set = (i, key) => (e) => { rows[i][key] = Number.parseInt(e.target.value, 10); };
  const save = () => {
    if (rows.some((r) => ["min", "cases", "bonus"].some((k) => !Number.isInteger(r[k])))) {
      ui.error = { code: "theorem.table.bad", message_key: "error.theorem.table.bad", params: {} };
      app.rerender();
      return;
    }
    run(app, { op: "theorem.table.set", state, success_table: rows }, () => {
      ui.message = () => t("theorem.ui.table_saved");
      ui.table = null;
    });
  };
  return html`<section class="card" aria-labelledby="th-success-title">
    <h2 id="th-success-title">${t("theorem.ui.success_table")}</h2>
    <p class="muted small">${t("theorem.ui.success_help")}</p>
    <div class="th-table-scroll"><table class="th-success">
      <thead><tr><th scope="col">${t("theorem.ui.level")}</th><th scope="col">${t("theorem.ui.from")}</th><th scope="col">${t("theorem.ui.cases_col")}</th><th scope="col">${t("theorem.ui.bonus_col")}</th></tr></thead>
      <tbody>${rows.map((row, i) => html`<tr><th scope="row">${levelLabel(row.level)}</th>
        ${["min", "cases", "bonus"].map((k) => html`<td data-label=${t(`theorem.ui.${k === "min" ? "from" : `${k}_col`}`)}><input type="number" class="th-small-input" aria-label=${`${levelLabel(row.level)} — ${t(`theorem.ui.${k === "min" ? "from" : `${k}_col`}`)}`}
          .value=${String(row[k])} @change=${set(i, k)}></td>`)}</tr>`)}</tbody>
    </table></div>
    <button type="button" id="th-save-table" ?disabled=${!ready(app) || ui.busy} @click=${save}>${t("theorem.ui.save")}</button>
  </section>`;
}

/** The arcana's effects, written by the table (the text gives none). Closed until the MK opens
 * it, and then on demand: the effects written so far (each with "Modifier"), and one arcane
 * chosen from a list to write ("Écrire son effet"), its text box only then: 22 empty boxes made
 * a 3,774 px screen on a phone. */
function effectsSection(app, state) {
  const effects = ui.effects ?? [...state.effects];
  ui.effects = effects;
  ui.editing ??= [];
  ui.pick ??= ARCANA.findIndex((_, i) => !state.effects[i].trim());
  if (ui.pick < 0) ui.pick = 0;
  const save = () => run(app, { op: "theorem.table.set", state, effects: effects.map((e) => e.slice(0, 300)) }, () => {
    ui.message = () => t("theorem.ui.effects_saved");
    ui.effects = null;
    ui.editing = null;
    ui.pick = null;
  });
  const edit = (i) => {
    if (!ui.editing.includes(i)) ui.editing.push(i);
    app.rerender();
    requestAnimationFrame(() => document.getElementById(`th-effect-${i}`)?.focus());
  };
  const written = state.effects.filter((e) => e.trim()).length;
  const shown = ARCANA.map((name, i) => i).filter((i) => state.effects[i].trim() && !ui.editing.includes(i));
  return html`<details class="card th-effects" data-testid="th-effects" .open=${Boolean(ui.effectsOpen)} @toggle=${(e) => { ui.effectsOpen = e.target.open; }}>
    <summary><h2 class="th-inline">${t("theorem.ui.effects")}</h2> <span class="muted small" data-testid="th-effects-count">${t("theorem.ui.effects_written", { n: written })}</span></summary>
    <p class="muted small">${t("theorem.ui.effects_help")}</p>
    ${shown.length ? html`<ul class="th-effect-list">${shown.map((i) => html`<li data-testid="th-effect-row" data-arcane=${i}>
      <strong>${ARCANA[i]}</strong>${colon()}${state.effects[i]}
      <button type="button" class="th-effect-edit" id=${`th-effect-edit-${i}`} @click=${() => edit(i)}>${t("theorem.ui.effect_change")}<span class="visually-hidden"> ${ARCANA[i]}</span></button>
    </li>`)}</ul>` : nothing}
    <div class="row th-effect-pick">
      <div class="field"><label for="th-effect-pick">${t("theorem.ui.effect_pick")}</label>
        <select id="th-effect-pick" @change=${(e) => { ui.pick = Number(e.target.value); }}>
          ${ARCANA.map((name, i) => html`<option value=${i} ?selected=${i === ui.pick}>${name}${state.effects[i].trim() ? ` (${t("theorem.ui.effect_written_mark")})` : ""}</option>`)}
        </select></div>
      <button type="button" id="th-effect-write" @click=${() => edit(ui.pick)}>${t("theorem.ui.effect_write")}</button>
    </div>
    ${ui.editing.map((i) => html`<div class="field"><label for=${`th-effect-${i}`}>${ARCANA[i]}</label>
      <textarea id=${`th-effect-${i}`} rows="2" maxlength="300" .value=${effects[i]} @input=${(e) => { effects[i] = e.target.value; }}></textarea></div>`)}
    ${ui.editing.length ? html`<button type="button" id="th-save-effects" ?disabled=${!ready(app) || ui.busy} @click=${save}>${t("theorem.ui.save")}</button>` : nothing}
  </details>`;
}

export function render(app) {
  ensureState(app);
  const state = tableState(app.doc);
  return html`
    ${backLink("#/theorem", t("theorem.ui.back"))}
    <h1>${t("theorem.ui.mk_title")}</h1>
    <div role="status" aria-live="polite" class="th-message">${said(ui.message)}</div>
    ${ui.error ? html`<p class="field-error" role="alert">${thError(ui.error)}</p>` : nothing}
    ${state ? html`<div class="split" data-testid="th-mk-split"><div>${handSection(app, state)}${turnSection(app, state)}</div>
      <div>${tableSection(app, state)}${effectsSection(app, state)}</div></div>`
      : html`<p class="muted">${t("theorem.ui.engine_wait")}</p>`}
  `;
}

// A Versality test on the card table: choose characteristic, skill, difficulty (untreated
// wounds add to it), force/faiblesse; see the number of cards, the rule and the exact odds
// (versality.test.odds, from the deck as it stands) BEFORE drawing; draw (versality.test.draw),
// choose a card when allowed, the MJ's tokens, resolve (versality.test.resolve), log it.
// Player view: this page reads the table through table.js's player projection only
// (versality.view.player) and calls the ops through playerCall: catastrophe, token counts
// and power uses never reach it (they are the MJ screen's).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, formatSigned, said, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderHand, renderPile, renderStrip } from "../../views/cards.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { loadPrefs, pick, pickBool, savePrefs } from "../../views/prefs.js";
import { callBusy, loggedEntry, own, probability, requestCache, resultShare, reveal, onUndo } from "../../views/ui.js";
import { checkOf, verifyControl, verifyRecord } from "../../views/verify.js";
import { mjMode } from "../../share/mj-mode.js";
import { livePlayer } from "../../live/private.js";
import {
  CHARACTERISTICS, DIFFICULTIES, SKILLS, backLink, cardFace, findCharacter, nameOf, outcomeLabel,
  characterOp, ready, tn, tone,
  onNavigate, vsError,
} from "./common.js";
import { deckSize, playerApp, playerCall, playerView } from "./table.js";

const DIFF_VALUE = { facile: 1, conventionnelle: 2, inhabituelle: 3, complexe: 4, epique: 5 };

const ui = {
  id: null, characteristic: "physique", skill: "combattre", difficulty: "conventionnelle",
  force: false, faiblesse: false, tokens: 0, choice: null,
  odds: null, error: null, busy: false,
  result: null, announce: "", fresh: false,
};
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { result: null, announce: "", runout: "", healMessage: "", choice: null, fresh: false, error: null }));

/** versality.test.odds for the form as it stands; the last answer stays shown while asking. */
const testOdds = requestCache({ keepStale: true });

onNavigate(() => Object.assign(ui, { announce: "", error: null }));

const PREFS = "versality.test";

/** Back on a character's page: the settings the player left there (prefs.js), each checked. */
function reset(key, app, c) {
  if (ui.id === key || !c) return;
  const p = loadPrefs(app, "versality", PREFS, c.id);
  Object.assign(ui, { more: null, id: key, characteristic: pick(p, "characteristic", CHARACTERISTICS, "physique"),
    skill: pick(p, "skill", SKILLS, "combattre"), difficulty: pick(p, "difficulty", DIFFICULTIES, "conventionnelle"),
    force: pickBool(p, "force", false), faiblesse: pickBool(p, "faiblesse", false), tokens: 0, choice: null, odds: null,
    error: null, result: null, announce: "", runout: "", healMessage: "" });
  // A Soulager test opened from the sheet starts on the skill soulager.
  if (app.params[2] === "heal") ui.skill = "soulager";
  testOdds.clear();
}

function remember(app, c) {
  if (app.params[2] === "heal") return; // a Soulager test for an ally is not the usual setting
  savePrefs(app, "versality", PREFS, c.id, { characteristic: ui.characteristic, skill: ui.skill, difficulty: ui.difficulty,
    force: ui.force, faiblesse: ui.faiblesse });
}

function oddsRequest(c) {
  return { op: "versality.test.odds", character: c, characteristic: ui.characteristic, skill: ui.skill,
    difficulty: ui.difficulty, force: ui.force, faiblesse: ui.faiblesse };
}

/** The odds from the deck as the players see it (playerCall adds the table state; the
 * cache key holds the projected deck, so a new draw pile asks again). */
function refreshOdds(app, c, deck) {
  const request = oddsRequest(c);
  ui.odds = testOdds(playerApp(app), request, JSON.stringify([request, deck]));
}

const RUN_OUT = new Set(["reshuffle", "exhausted"]);

/** What the player hears about events: the deck ran out (reshuffled, or every card drawn)
 * and what that costs, as the odds announced it; never the MJ's counts. */
function announceEvents(events) {
  const out = events.filter((e) => RUN_OUT.has(e.type))
    .map((e) => t(e.type === "reshuffle" ? "versality.ui.reshuffled" : "versality.ui.exhausted"));
  return out.length ? [...out, t("versality.ui.penalty")].join(" ") : "";
}

async function draw(app, c) {
  if (ui.busy) return;
  ui.result = null;
  ui.choice = null;
  ui.tokens = 0;
  const request = { op: "versality.test.draw", characteristic: ui.characteristic, skill: ui.skill, difficulty: ui.difficulty, seed: newSeed() };
  const r = await callBusy(playerApp(app), ui, { ...request, character: c });
  if (!r) return;
  ui.fresh = true;
  // Logged with the test: the deck as it stood and how many cards were drawn replay the draw
  // with its seed (versality.draw.replay, from the log's "Vérifier / rejouer").
  ui.lastDraw = { ...request, deck: r.test.deck_used, count: r.test.count };
  ui.lastDrawn = [r.test.drawn.map((d) => d.id)];
  ui.lastEvents = r.test.events;
  // Kept as functions: made at each render in the language shown then.
  ui.runout = () => announceEvents(r.test.events);
  ui.announce = () => [tn("versality.ui.drawn_announce", r.test.drawn.length, { cards: r.test.drawn.map((d) => outcomeLabel(d.kind)).join(", ") }),
    announceEvents(r.test.events)].filter(Boolean).join(" ");
  if (r.test.rule === "choose" && r.test.drawn.length === 1) ui.choice = r.test.drawn[0].id;
  app.rerender();
  // The draw button is gone: keep keyboard and screen-reader users at the drawn cards.
  focusHeading("vs-hand-title");
}

/** Move focus to a heading (tabindex=-1) that the last render put in place of the button pressed. */
function focusHeading(id) {
  document.getElementById(id)?.focus({ preventScroll: true });
  reveal(id);
}

async function resolve(app, c, pending) {
  if (ui.busy) return;
  ui.busy = true;
  app.rerender();
  const request = { op: "versality.test.resolve", character_id: c.id, force: ui.force, faiblesse: ui.faiblesse, tokens: mjMode() ? ui.tokens : 0, seed: newSeed() };
  if (pending.rule === "choose" && ui.choice) request.choice = ui.choice;
  const r = await playerCall(app, request);
  ui.busy = false;
  if (r.error) {
    // Never tell the players how many tokens the MJ holds.
    ui.error = r.error.code === "versality.tokens.not_enough" ? { code: "x", message_key: "versality.ui.not_enough_tokens", params: {} } : r.error;
    app.rerender();
    return;
  }
  ui.error = null;
  ui.fresh = false;
  // At a live table the draw was the referee's, with a seed no phone gets: none to show here.
  ui.result = { ...r.result, pending, seed: livePlayer() ? null : ui.lastDraw?.seed ?? request.seed };
  ui.choice = null;
  const reshuffle = announceEvents(r.result.events);
  ui.runout = () => announceEvents(r.result.events);
  // Reshuffles of the draw and of the resolve: each one raised the scale and gave a token (MJ screen).
  const reshuffles = [...(ui.lastEvents ?? []), ...r.result.events].filter((e) => RUN_OUT.has(e.type)).length;
  ui.lastEvents = [];
  ui.announce = () => [t("versality.ui.result_announce", { outcome: outcomeLabel(r.result.final) }), announceEvents(r.result.events)].filter(Boolean).join(" ");
  app.rerender();
  focusHeading("vs-result-title");
  const label = `${t(`versality.characteristic.${pending.characteristic}`)} + ${t(`versality.skill.${pending.skill}`)} · ${t(`versality.difficulty.${pending.difficulty}`)}`;
  app.addLog({
    kind: "versality.test", system: "versality", who: nameOf(c), label,
    request: { ...(ui.lastDraw ?? {}), resolve: request },
    result: { reshuffles, ...(ui.lastDraw?.deck ? { verify: verifyRecord({ drawn: ui.lastDrawn }, ["drawn"]) } : {}), summary: `${outcomeLabel(r.result.final)} — ${t("versality.ui.played_card", { card: outcomeLabel(r.result.played.kind) })}${reshuffle ? ` · ${reshuffle}` : ""}` },
  });
}

/** The sheet has cards the table lacks: add them (sync). Rebuilding (which also brings the
 * discard back without the exhaustion penalty) is offered only when sync cannot work. */
async function updateDeck(app, c, op) {
  const r = await playerCall(app, { op, character: c, seed: newSeed() });
  if (r.error) {
    ui.error = r.error;
    app.rerender();
    return;
  }
  ui.error = null;
  ui.announce = () => t(op === "versality.deck.sync" ? "versality.ui.deck_synced_many" : "versality.ui.deck_rebuilt");
  app.rerender();
}

function setupForm(app, c, pending) {
  const wounds = CHARACTERISTICS.reduce((s, k) => s + c.wounds[k], 0);
  const score = c.characteristics[ui.characteristic] + c.skills[ui.skill] - DIFF_VALUE[ui.difficulty] - wounds;
  const locked = Boolean(pending);
  const set = (key) => (e) => { ui[key] = e.target.type === "checkbox" ? e.target.checked : e.target.value; ui.result = null; remember(app, c); app.rerender(); };
  const active = (ui.force ? 1 : 0) + (ui.faiblesse ? 1 : 0);
  return html`<section class="card" aria-labelledby="vs-test-setup-title">
    <h2 id="vs-test-setup-title">${t("versality.ui.test_setup")}</h2>
    <div class="vs-form-grid">
      <div class="field"><label for="vs-test-char">${t("versality.ui.characteristic")}</label>
        <select id="vs-test-char" ?disabled=${locked} @change=${set("characteristic")}>
          ${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === ui.characteristic}>${t(`versality.characteristic.${k}`)} (${c.characteristics[k]})</option>`)}
        </select></div>
      <div class="field"><label for="vs-test-skill">${t("versality.ui.skill")}</label>
        <select id="vs-test-skill" ?disabled=${locked} @change=${set("skill")}>
          ${SKILLS.map((k) => html`<option value=${k} ?selected=${k === ui.skill}>${t(`versality.skill.${k}`)} (${c.skills[k]})</option>`)}
        </select></div>
      <div class="field"><label for="vs-test-diff">${t("versality.ui.difficulty")}</label>
        <select id="vs-test-diff" ?disabled=${locked} @change=${set("difficulty")}>
          ${DIFFICULTIES.map((k) => html`<option value=${k} ?selected=${k === ui.difficulty}>${t(`versality.difficulty.${k}`)}</option>`)}
        </select></div>
      <p class="vs-score-line small" data-testid="vs-score">${t("versality.ui.score_line", {
        characteristic: c.characteristics[ui.characteristic], skill: c.skills[ui.skill], difficulty: DIFF_VALUE[ui.difficulty], wounds, score: formatSigned(score) })}</p>
    </div>
    ${wounds ? html`<p class="vs-wound-note" data-testid="vs-test-wounds">${t("versality.ui.wounds_difficulty", { n: wounds })}</p>` : nothing}
    <details class="more-options" data-testid="more-options" .open=${(ui.more ??= active > 0)}
      @toggle=${(e) => { ui.more = e.target.open; }}>
      <summary>${t("testpage.more_options")}${active ? html` <span class="muted small">(${tn("testpage.active", active)})</span>` : nothing}</summary>
    <fieldset class="vs-mods"><legend>${t("versality.ui.mods")}</legend>
      <label class="check"><input type="checkbox" id="vs-force" ?disabled=${locked} .checked=${ui.force} @change=${set("force")}>
        ${t("versality.ui.force_applies")}${c.forces.some((x) => x.trim()) ? html` <span class="muted small">(${c.forces.filter((x) => x.trim()).join(", ")})</span>` : nothing}</label>
      <label class="check"><input type="checkbox" id="vs-faiblesse" ?disabled=${locked} .checked=${ui.faiblesse} @change=${set("faiblesse")}>
        ${t("versality.ui.faiblesse_applies")}${c.faiblesses.some((x) => x.trim()) ? html` <span class="muted small">(${c.faiblesses.filter((x) => x.trim()).join(", ")})</span>` : nothing}</label>
    </fieldset>
    </details>
  </section>`;
}

/** The odds summary (the rule, then each possible outcome's exact chance) above the draw button.
 * A deck that cannot be drawn from says why (the draw button is then disabled: it would only
 * repeat the refusal) and, for a creation not validated, where to validate it. */
function oddsSection(odds, c) {
  if (!odds) return html`<p class="muted">${t("versality.ui.odds_loading")}</p>`;
  if (odds.error) {
    return html`<div id="vs-odds-error"><p class="field-error" role="alert">${vsError(odds.error)}</p>
      ${odds.error.code === "versality.deck.not_created" ? html`<p><a href=${`#/versality/character/${encodeURIComponent(c.id)}`} data-testid="vs-to-creation">${t("versality.ui.go_validate")}</a></p>` : nothing}</div>`;
  }
  return html`<div class="odds-summary" data-testid="vs-odds">
    <p><strong class="vs-rule" data-testid="vs-rule" data-rule=${odds.rule} data-count=${odds.count}>${tn(`versality.rule.${odds.rule}`, odds.count)}</strong>
      ${odds.rule === "choose" && odds.count > 1 ? html`<span class="muted small" data-testid="vs-odds-best">${t("versality.ui.odds_best")}</span>` : nothing}</p>
    ${odds.penalties ? html`<div class="small" data-testid="vs-odds-runout" data-penalties=${odds.penalties}>
      ${odds.reshuffle ? html`<p>${t("versality.ui.odds_reshuffle")}</p>` : nothing}
      ${odds.exhausted ? html`<p>${t("versality.ui.odds_exhausted", { drawn: odds.drawn })}</p>` : nothing}
      <p>${t("versality.ui.penalty")}</p></div>` : nothing}
    <ul class="vs-fractions odds-inline small">${odds.final.filter((r) => r.fraction !== "0/1").map((r) => html`<li data-outcome=${r.outcome} data-p=${r.fraction}>${outcomeLabel(r.outcome)}${colon()}${probability(r.fraction, r.percent)}</li>`)}</ul>
  </div>`;
}

/** The full distribution (every outcome with its bar), after the cards. */
function oddsTable(odds) {
  if (!odds || odds.error) return nothing;
  const rows = odds.final.map((row) => ({ label: outcomeLabel(row.outcome), p: row.fraction, percent: row.percent }));
  return html`<div class="odds-table-box" data-testid="vs-odds-table">${renderDistribution(rows, t("versality.ui.outcome"))}</div>`;
}

/** The draw (no test pending) or the drawn cards, the MJ's box and the resolve button. */
function playSection(app, c, deck, pending) {
  const hand = (deck?.piles.hand.cards ?? []).map((id) => own(deck.cards, id));
  let appliedId = null;
  if (pending?.rule === "worst" && hand.length) {
    const order = ["echec-critique", "non-et", "non-mais", "oui-mais", "oui", "oui-et"];
    appliedId = hand.reduce((w, card) => (order.indexOf(card.kind) < order.indexOf(w.kind) ? card : w)).id;
  }
  if (!pending) {
    const refused = Boolean(ui.odds?.error);
    return html`<button type="button" class="primary test-roll" id="vs-draw" ?disabled=${!ready(app) || c.incapacitated || !playerView(app) || refused}
      aria-describedby=${refused ? "vs-odds-error" : nothing} aria-busy=${ui.busy ? "true" : "false"} @click=${() => draw(app, c)}>${ui.odds && !ui.odds.error ? tn("versality.ui.draw_n", ui.odds.count) : t("versality.ui.draw")}</button>`;
  }
  return html`
      <h3 id="vs-hand-title" tabindex="-1">${t("versality.ui.drawn_cards", { count: hand.length })}</h3>
      <p>${pending.rule === "choose" ? t("versality.ui.choose_help") : t("versality.ui.worst_help")}</p>
      ${renderHand(hand, {
        face: cardFace, fresh: ui.fresh, choose: pending.rule === "choose", selectedId: ui.choice, appliedId,
        onSelect: (card) => { ui.choice = card.id; ui.fresh = false; app.rerender(); },
        label: t("versality.ui.drawn_cards", { count: hand.length }),
      })}
      ${mjMode() ? html`<fieldset class="vs-mj-box" data-testid="vs-mj-box"><legend>${t("versality.ui.mj_box")}</legend>
        <div class="field vs-tokens"><label for="vs-tokens">${t("versality.ui.tokens_spent")}</label>
          <select id="vs-tokens" aria-describedby="vs-tokens-help" @change=${(e) => { ui.tokens = Number(e.target.value); }}>
            ${[0, 1, 2, 3].map((n) => html`<option value=${n} ?selected=${n === ui.tokens}>${t(`versality.ui.tokens_${n}`)}</option>`)}
          </select></div>
        <p class="muted small" id="vs-tokens-help">${t("versality.ui.tokens_spent_help")}</p>
      </fieldset>` : nothing}
      <button type="button" class="primary" id="vs-resolve" ?disabled=${!ready(app) || ui.busy || (pending.rule === "choose" && !ui.choice)}
        @click=${() => resolve(app, c, pending)}>${pending.rule === "choose" && !ui.choice ? t("versality.ui.choose_first") : t("versality.ui.resolve")}</button>`;
}

/** The piles: the discard shows the card just played on top; a run-out of the deck is said here. */
function tableSection(deck, c) {
  const drawCount = deck?.piles.draw.cards.length ?? c.deck.length;
  const discardIds = deck?.piles.discard.cards ?? [];
  // The discard pile grows at its end (cards.discard): the last card is the one just played.
  const discard = discardIds.map((id) => own(deck.cards, id)).reverse();
  return html`<section class="card vs-table" aria-labelledby="vs-table-title" data-testid="vs-card-table">
    <h2 id="vs-table-title">${t("versality.ui.card_table")}</h2>
    <div class="card-piles">
      ${renderPile({ id: "draw", label: t("cards.pile.draw"), count: drawCount, faceDown: true })}
      ${renderPile({ id: "discard", label: t("cards.pile.discard"), count: discard.length, top: discard[0] ?? null, faceDown: false, face: cardFace })}
    </div>
    ${said(ui.runout) ? html`<p class="notice warning vs-runout" data-testid="vs-runout">${said(ui.runout)}</p>` : nothing}
    ${discard.length ? html`<details class="vs-discard"><summary>${t("versality.ui.discard_list", { count: discard.length })}</summary>
      ${renderStrip(discard, { face: cardFace, label: t("cards.pile.discard"), testid: "vs-discard" })}</details>` : nothing}
  </section>`;
}

/** The character's key numbers beside the test (wide screens). */
function sheetSummary(c) {
  const wounds = CHARACTERISTICS.filter((k) => c.wounds[k]).map((k) => `${t(`versality.characteristic.${k}`)} ${c.wounds[k]}`);
  return html`<section class="card test-sheet" aria-labelledby="vs-sheet-sum-title" data-testid="test-sheet">
    <h2 id="vs-sheet-sum-title">${t("testpage.sheet_summary")}</h2>
    <dl class="facts">
      ${CHARACTERISTICS.map((k) => html`<dt>${t(`versality.characteristic.${k}`)}</dt><dd>${c.characteristics[k]}</dd>`)}
      <dt>${t("testpage.skills")}</dt><dd>${SKILLS.filter((k) => c.skills[k]).map((k) => `${t(`versality.skill.${k}`)} ${c.skills[k]}`).join(", ") || "—"}</dd>
      ${wounds.length ? html`<dt>${t("testpage.state")}</dt><dd>${wounds.join(", ")}</dd>` : nothing}
    </dl>
  </section>`;
}

function resultSection(app) {
  const r = ui.result;
  if (!r) return nothing;
  return html`<section class="card vs-result test-result" aria-labelledby="vs-result-title" data-testid="vs-result" data-final=${r.final} data-played=${r.played.kind}>
    <h2 id="vs-result-title" tabindex="-1">${t("versality.ui.result")}</h2>
    <p class="vs-final tone-${tone(r.final)}" data-testid="vs-final">${outcomeLabel(r.final)}</p>
    <p>${t("versality.ui.played_card", { card: outcomeLabel(r.played.kind) })} · ${t(`versality.ui.rule_applied_${r.rule}`)}</p>
    ${r.steps.length ? html`<ol class="vs-steps" data-testid="vs-steps">
      ${r.steps.map((s) => html`<li>${t(`versality.step.${s.by}`)}${s.by === "tokens" ? ` (${s.spent})` : ""}${colon()}${outcomeLabel(s.from)} → ${outcomeLabel(s.to)}</li>`)}
    </ol>` : html`<p class="muted small">${t("versality.ui.no_steps")}</p>`}
    ${verifyControl(app, `vs-test-${r.seed ?? ""}`, checkOf(loggedEntry(app, r.seed)), r.seed ?? null)}${resultShare(app, r.seed)}
  </section>`;
}

/** `#/versality/test/<healer>/heal/<ally>/<characteristic>`: a Soulager test whose result
 * can then be applied to the ally's wound (versality.heal with the outcome played). */
function healContext(app) {
  const [, , mode, allyId, characteristic] = app.params;
  if (mode !== "heal" || !CHARACTERISTICS.includes(characteristic)) return null;
  const ally = findCharacter(app.doc, allyId);
  return ally ? { ally, characteristic } : null;
}

async function applyHeal(app, c, heal) {
  if (ui.busy) return;
  const outcome = ui.result.final;
  // Run on the healer and the ally as saved when its turn comes (common.js characterOp).
  const r = await characterOp(app, ui, { op: "versality.heal", healer: c, target: heal.ally, characteristic: heal.characteristic, outcome });
  if (!r) {
    app.rerender();
    return;
  }
  ui.healMessage = () => (r.healed ? t("versality.ui.healed", { name: nameOf(heal.ally), characteristic: t(`versality.characteristic.${heal.characteristic}`) })
    : t("versality.ui.heal_failed", { name: nameOf(heal.ally) }));
  ui.announce = ui.healMessage;
  app.addLog({ kind: "versality.heal", system: "versality", who: nameOf(c), label: t("versality.ui.heal_log", { name: nameOf(heal.ally) }),
    request: { op: "versality.heal", characteristic: heal.characteristic, outcome }, result: { summary: said(ui.healMessage) } });
  focusHeading("vs-heal-box-title");
}

function healBox(app, c, heal) {
  if (!heal) return nothing;
  const where = t(`versality.characteristic.${heal.characteristic}`);
  const played = ui.result?.pending?.skill === "soulager";
  return html`<section class="card vs-heal-box" aria-labelledby="vs-heal-box-title" data-testid="vs-heal-box">
    <h2 id="vs-heal-box-title" tabindex="-1">${t("versality.ui.heal_for", { name: nameOf(heal.ally), characteristic: where })}</h2>
    ${ui.healMessage ? html`<p data-testid="vs-heal-result">${said(ui.healMessage)}</p>`
      : c.heal_used ? html`<p>${t("versality.ui.heal_used")}</p>`
      : html`<p class="muted small">${t(played ? "versality.ui.heal_apply_below" : "versality.ui.heal_play_first")}</p>`}
  </section>`;
}

/** After a Soulager test of the heal route: apply its outcome to the ally's wound. */
function healApply(app, c, heal) {
  if (!heal || ui.healMessage || c.heal_used || ui.result?.pending?.skill !== "soulager") return nothing;
  return html`<button type="button" class="primary" id="vs-heal-apply" ?disabled=${!ready(app) || ui.busy}
    @click=${() => applyHeal(app, c, heal)}>${t("versality.ui.heal_apply", { name: nameOf(heal.ally), outcome: outcomeLabel(ui.result.final) })}</button>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  reset(`${id}/${app.params.slice(2).join("/")}`, app, c);
  const heal = healContext(app);
  if (!c) return html`${backLink("#/versality", t("versality.ui.back"))}<p role="alert">${t("versality.ui.not_found")}</p>`;
  const view = playerView(app);
  const deck = view && Object.hasOwn(view.decks, id) ? view.decks[id] : null;
  const pending = view && Object.hasOwn(view.pending, id) ? view.pending[id] : null;
  if (!pending && view) refreshOdds(app, c, deck);
  const tableSize = deck ? deckSize(deck) : 0;
  const stale = deck && !pending && tableSize !== c.deck.length;
  return html`
    <div class="test-head">
      ${backLink(`#/versality/character/${encodeURIComponent(id)}`, t("versality.ui.back_sheet", { name: nameOf(c) }))}
      <h1>${t("versality.ui.test_title", { name: nameOf(c) })}</h1>
    </div>
    <div class="visually-hidden" role="status" aria-live="polite" data-testid="vs-announce">${said(ui.announce)}</div>
    ${ui.announce ? html`<p class="vs-announce-visible" aria-hidden="true" data-testid="vs-announce-visible">${said(ui.announce)}</p>` : nothing}
    ${c.incapacitated ? html`<p class="field-error">${t("error.versality.test.incapacitated")}</p>` : nothing}
    ${stale ? html`<p class="notice warning">${t("versality.ui.deck_stale", { table: tableSize, sheet: c.deck.length })}
      ${tableSize < c.deck.length
        ? html`<button type="button" id="vs-sync" ?disabled=${!ready(app)} @click=${() => updateDeck(app, c, "versality.deck.sync")}>${t("versality.ui.sync")}</button>`
        : html`<button type="button" id="vs-rebuild" ?disabled=${!ready(app)} @click=${() => updateDeck(app, c, "versality.deck.build")}>${t("versality.ui.rebuild")}</button>`}</p>` : nothing}
    ${healBox(app, c, heal)}
    <div class="split test-split">
      <div class="test-setup">
        ${setupForm(app, c, pending)}
        ${sheetSummary(c)}
      </div>
      <div class="test-side">
        <section class="card test-odds" aria-labelledby="vs-odds-title" data-testid="test-odds">
          <h2 id="vs-odds-title">${t("versality.ui.odds_title")}</h2>
          ${pending ? html`<p class="small muted">${tn(`versality.rule.${pending.rule}`, pending.count)}</p>` : oddsSection(ui.odds, c)}
          ${playSection(app, c, deck, pending)}
          ${ui.error ? html`<p class="field-error" role="alert" data-testid="vs-test-error">${vsError(ui.error)}</p>` : nothing}
        </section>
        ${pending ? nothing : html`${resultSection(app)}${healApply(app, c, heal)}`}
        ${tableSection(deck, c)}
        ${pending ? nothing : oddsTable(ui.odds)}
      </div>
    </div>
  `;
}

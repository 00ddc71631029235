// The tarot table for one player (#/theorem/test/<id>): the MK's numbered deck and its discard,
// the chain in play with each card's sign, the player's set-aside figures, the player's own
// arcana (a face-down hand shown only after the player chooses to look, hidden again after;
// the Ka card set aside), and the simple action: sphère + compétence + modificateur + exploit
// (− re-test) with the exact odds from the deck as it stands, before every draw.
// Hidden data: the faces of the hand come only from theorem.view.player for this player, asked
// while they look and forgotten when they hide it; other hands are never read here.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, formatPercent, said, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderCard, renderPile } from "../../views/cards.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { loadPrefs, pick, pickBool, pickInt, savePrefs } from "../../views/prefs.js";
import { loggedEntry, requestCache, resultShare, reveal, onUndo } from "../../views/ui.js";
import { checkOf, verifyControl } from "../../views/verify.js";
import { liveCharacters, livePlayer, ownPile } from "../../live/private.js";
import {
  SPHERES, arcaneFace, arcaneName, backLink, cardName, deckCard, deckUsed, ensureState, eventsText,
  findCharacter, levelLabel, logDraw, nameOf, numberFace, ready, rules,
  signed, sphereLabel, tableAction, tableState, thError, tn,
} from "./common.js";

const ui = {
  id: null, sphere: "animalite", skill: "", modifier: 0, exploit: 0, retest: false, arcaneOdds: false,
  mortal: false, looking: false, hand: null, busy: false, error: null, result: null, announce: "", last: null, effect: null,
};
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { result: null, announce: "", last: null, effect: null, error: null }));

const odds = requestCache({ keepStale: true });

const PREFS = "theorem.test";

/** Back on a character's page: the settings the player left there (prefs.js), each checked
 * (a re-test and a mortal situation are decided each time: never remembered). */
function reset(app, id, c) {
  if (ui.id === id || !c) return;
  const p = loadPrefs(app, "theorem", PREFS, id);
  const skills = c.skills.map((sk) => sk.name);
  Object.assign(ui, { more: null, id, sphere: pick(p, "sphere", SPHERES, "animalite"), skill: pick(p, "skill", ["", ...skills], skills[0] ?? ""),
    modifier: pickInt(p, "modifier", -20, 20, 0), exploit: pickInt(p, "exploit", 0, Math.min(c.spheres.divinite, c.realite), 0), retest: false,
    arcaneOdds: pickBool(p, "arcaneOdds", false), mortal: false, looking: false, hand: null, error: null, result: null, announce: "", last: null, effect: null });
  odds.clear();
}

function remember(app) {
  savePrefs(app, "theorem", PREFS, ui.id, { sphere: ui.sphere, skill: ui.skill, modifier: ui.modifier, exploit: ui.exploit, arcaneOdds: ui.arcaneOdds });
}

// ---------------------------------------------------------------- engine calls
function actionFields() {
  const out = { sphere: ui.sphere, modifier: ui.modifier, exploit: ui.retest ? 0 : ui.exploit, retest: ui.retest };
  out.skill = ui.skill || null;
  return out;
}

/** Announce the action (theorem.action.begin) unless one is pending: {state, character}, or
 * the engine's {error}. Runs inside a tableAction, on the latest table. */
async function begin(app, state, character) {
  if (state.pending[character.id]) return { state, character };
  const r = await app.call({ op: "theorem.action.begin", state, character, ...actionFields() });
  return r.error ? r : { state: r.state, character: r.character };
}

/** A step refused after the action was announced: the announcement is kept (written), the
 * refusal shown once it is. */
const keepBegun = (begun, error) => ({ state: begun.state, character: begun.character, refused: error });

/** Only the table state of an answer is written (the op does not change the sheet). */
const stateOnly = (r) => (r.error ? r : { ...r, character: null });

function showRefused(app, r) {
  if (!r?.refused) return false;
  ui.error = r.refused;
  app.rerender();
  return true;
}

/** The chase side a pending action plays (its name in the chase tracker), read at render. */
let chaseSides = null;
const chaseSideOf = (p) => chaseSides?.[p.chase]?.name ?? p.chase;

/** A chase side's action is over: its score, and the round when both sides have drawn. */
function chaseAnnounce(res) {
  const rd = res.round;
  const head = t("theorem.ui.chase_side_done", { score: res.score });
  if (!rd) return `${head} ${t("theorem.ui.chase_wait_other")}`;
  const name = (k) => chaseSides?.[k]?.name ?? k;
  return [head, rd.winner ? t("theorem.ui.round_winner", { name: name(rd.winner), gain: rd.gain }) : t("theorem.ui.tie"),
    rd.done ? t("theorem.ui.chase_won", { name: name(rd.done) }) : ""].filter(Boolean).join(" ");
}

const resultSummary = (res) => (res.chase_side ? chaseAnnounce(res) : t("theorem.ui.log_result", { value: res.value, score: res.score, level: levelLabel(res.level) }));

function describe(c, p) {
  if (p.chase) return t("theorem.ui.chase_turn", { side: chaseSideOf(p) });
  const skill = p.skill ? ` + ${p.skill}` : "";
  return `${sphereLabel(p.sphere)}${skill}${p.modifier ? ` ${signed(p.modifier)}` : ""}${p.exploit ? ` · ${t("theorem.ui.exploit_short", { n: p.exploit })}` : ""}${p.retest ? ` · ${t("theorem.ui.retest_short")}` : ""}`;
}

function finish(app, c, result, label, seed = null) {
  // At a live table a phone's draw is the referee's, with a seed the MJ's device drew and no
  // phone gets (it would tell the hidden deck's order): the phone's own seed replays nothing,
  // so its result says it cannot be replayed here, with no number.
  ui.result = { ...result, seed: livePlayer() ? null : seed };
  ui.announce = () => (result.chase_side ? chaseAnnounce(result) : t("theorem.ui.result_announce", { score: result.score, level: levelLabel(result.level) }));
  odds.clear();
  requestAnimationFrame(() => {
    document.getElementById("th-result-title")?.focus({ preventScroll: true });
    reveal("th-result-title");
  });
  return label;
}

async function drawCard(app, c) {
  ui.result = null;
  ui.effect = null;
  const seed = newSeed();
  let deck = null;
  let pending = null;
  const r = await tableAction(app, ui, c.id, async (state, character) => {
    const begun = await begin(app, state, character);
    if (begun.error) return begun;
    deck = deckUsed(begun.state);
    pending = begun.state.pending[c.id];
    const drawn = await app.call({ op: "theorem.action.draw", state: begun.state, character: begun.character, seed });
    return drawn.error ? keepBegun(begun, drawn.error) : { ...drawn, character: begun.character };
  }, "draw");
  if (!r || showRefused(app, r)) return;
  const res = r.result;
  const card = cardName(res.card);
  const label = `${t("theorem.ui.log_draw", { card })} — ${describe(c, pending)}`;
  let summary = card;
  if (res.done) {
    finish(app, c, res, undefined, seed);
    summary = resultSummary(res);
  } else if (res.awaiting) {
    ui.announce = () => t("theorem.ui.figure_drawn", { card: cardName(res.card) });
    requestAnimationFrame(() => document.getElementById("th-figure-play")?.focus());
  } else {
    ui.announce = () => t("theorem.ui.figure_chain", { card: cardName(res.card) });
    requestAnimationFrame(() => document.getElementById("th-draw")?.focus());
  }
  const reshuffle = eventsText(res.events);
  const drawn = ui.announce;
  if (reshuffle) ui.announce = () => `${eventsText(res.events)} ${said(drawn)}`;
  logDraw(app, { kind: "theorem.draw", who: nameOf(c), label,
    request: { op: "theorem.action.draw", character_id: c.id, seed }, deck, drawn: [[res.card.id]],
    summary: [summary, reshuffle].filter(Boolean).join(" · ") });
}

async function figure(app, c, decision) {
  const r = await tableAction(app, ui, c.id, (state, character) =>
    app.call({ op: "theorem.action.figure", state, character, decision }).then(stateOnly), decision === "aside" ? "figure_aside" : "figure_played");
  if (!r) return;
  ui.announce = () => t(decision === "aside" ? "theorem.ui.figure_set_aside" : "theorem.ui.figure_played", { card: cardName(r.result.card) });
  app.rerender();
  requestAnimationFrame(() => document.getElementById("th-draw")?.focus());
}

async function playAside(app, c, cardId) {
  ui.result = null;
  const r = await tableAction(app, ui, c.id, async (state, character) => {
    const begun = await begin(app, state, character);
    if (begun.error) return begun;
    const played = await app.call({ op: "theorem.action.aside", state: begun.state, character_id: c.id, card: cardId });
    return played.error ? keepBegun(begun, played.error) : { ...played, character: begun.character };
  }, "aside");
  if (!r || showRefused(app, r)) return;
  ui.announce = () => t("theorem.ui.aside_played", { card: cardName(r.result.card) });
  app.rerender();
}

async function cancel(app, c) {
  await tableAction(app, ui, c.id, (state, character) => app.call({ op: "theorem.action.cancel", state, character }), "cancel");
}

async function playArcane(app, c, cardId, mode) {
  ui.result = null;
  const seed = newSeed();
  const mortal = ui.mortal;
  const r = await tableAction(app, ui, c.id, async (state, character) => {
    const begun = mode === "value" ? await begin(app, state, character) : { state, character };
    if (begun.error) return begun;
    const played = await app.call({ op: "theorem.arcane.play", state: begun.state, character: begun.character, card: cardId, mode, mortal, seed });
    if (!played.error) return played;
    return begun.state !== state ? keepBegun(begun, played.error) : played;
  }, "arcane");
  if (!r || showRefused(app, r)) return;
  ui.hand = null; // the hand changed: ask again (only while looking)
  const res = r.result;
  const name = arcaneName(res.arcane);
  const label = t(mode === "value" ? "theorem.ui.log_arcane_value" : "theorem.ui.log_arcane_effect", { name, cost: res.cost });
  let summary = label;
  // Played "pour son effet": the effect the table wrote for this arcane (MK screen) is shown
  // and logged; an arcane with none says where it is written.
  ui.effect = mode === "effect" ? { number: res.arcane, name, cost: res.cost, text: typeof res.effect === "string" ? res.effect : "" } : null;
  if (ui.effect?.text) summary = `${label}${colon()}${ui.effect.text}`;
  if (res.done) {
    finish(app, c, res, undefined, seed);
    summary = resultSummary(res);
  } else {
    const text = ui.effect?.text ?? "";
    ui.announce = () => [t("theorem.ui.arcane_effect_played", { name: arcaneName(res.arcane), cost: res.cost }), text].filter(Boolean).join(" ");
  }
  const played = ui.announce;
  if (res.refilled) ui.announce = () => `${said(played)} ${tn("theorem.ui.hand_refilled", res.refilled)}`;
  logDraw(app, { kind: "theorem.arcane", who: nameOf(c), label,
    request: { op: "theorem.arcane.play", character_id: c.id, card: cardId, mode, mortal, seed }, deck: null, summary });
}

async function drawHand(app, c) {
  const seed = newSeed();
  let st = null;
  const r = await tableAction(app, ui, c.id, (state, character) => {
    st = state;
    return app.call({ op: "theorem.hand.draw", state, character, seed }).then(stateOnly);
  }, "hand");
  if (!r) return;
  ui.hand = null;
  const ka = r.events.some((e) => e.type === "ka");
  ui.announce = () => [tn("theorem.ui.hand_drawn", r.count), ka ? t("theorem.ui.ka_set_aside") : "", eventsText(r.events)].filter(Boolean).join(" ");
  const arc = st.arcana[c.id];
  logDraw(app, { kind: "theorem.hand", who: nameOf(c), label: tn("theorem.ui.hand_drawn", r.count),
    request: { op: "theorem.hand.draw", character_id: c.id, seed },
    deck: arc ? { draw_count: arc.piles.draw.cards.length, discard_count: arc.piles.discard.cards.length } : { new: true },
    summary: said(ui.announce) });
}

/** A player's hand at a live table: the ids in their private doc (the public table holds no
 * hand), or null on one device. */
function liveHand(c) {
  return ownPile(`systems.theorem.arcana.${c.id}.piles.hand`);
}

/** The player's own hand, face up: asked from theorem.view.player only while they look (at a
 * live table, read from the player's private doc: the faces are the deck's public cards). */
function ownHand(app, c, state) {
  if (!ui.looking) return null;
  const live = liveHand(c);
  if (live) return live.map((id) => state.arcana[c.id]?.cards[id]).filter(Boolean);
  const key = JSON.stringify(state.arcana[c.id]?.piles.hand.cards.length ?? 0) + JSON.stringify(state.arcana[c.id]?.piles.discard.cards ?? []);
  if (ui.hand?.key === key) return ui.hand.cards;
  if (ui.hand?.asked === key || !ready(app)) return null;
  ui.hand = { key: null, asked: key, cards: null };
  app.call({ op: "theorem.view.player", state, viewer: c.id }).then((r) => {
    if (!ui.looking || ui.hand?.asked !== key || r.error) return;
    const arc = r.view.arcana[c.id];
    ui.hand = { key, asked: key, cards: arc.piles.hand.cards.map((id) => arc.cards[id]) };
    app.rerender();
  });
  return null;
}

function look(app, on) {
  ui.looking = on;
  ui.hand = null; // hiding forgets the faces
  app.rerender();
  requestAnimationFrame(() => document.getElementById(on ? "th-hide-hand" : "th-look-hand")?.focus());
}

// ---------------------------------------------------------------- sections
function deckSection(app, c, state) {
  const piles = state.deck.piles;
  const discardTop = piles.discard.cards.length ? deckCard(state, piles.discard.cards.at(-1)) : null;
  const p = state.pending[c.id];
  const chain = p ? p.chain.map((id) => deckCard(state, id)) : [];
  const awaiting = p?.awaiting ? deckCard(state, p.awaiting) : null;
  const aside = (state.aside[c.id] ?? []).map((id) => deckCard(state, id));
  const canAside = !p || (!p.drawn && !p.awaiting);
  return html`<section class="card" aria-labelledby="th-deck-title" data-testid="th-deck">
    <h2 id="th-deck-title">${t("theorem.ui.deck_title")}</h2>
    <div class="card-piles">
      ${renderPile({ id: "draw", label: t("cards.pile.draw"), count: piles.draw.cards.length, faceDown: true })}
      ${renderPile({ id: "discard", label: t("cards.pile.discard"), count: piles.discard.cards.length, top: discardTop, faceDown: false, face: numberFace })}
    </div>
    ${chain.length || awaiting ? html`<h3>${t("theorem.ui.in_play")}</h3>
      ${chainView(chain, awaiting)}` : nothing}
    <h3 id="th-aside-title">${tn("theorem.ui.aside_title", aside.length, { max: c.spheres.humanite })}</h3>
    ${aside.length ? html`<ul class="card-hand" aria-labelledby="th-aside-title" data-testid="th-aside">
      ${aside.map((card) => html`<li class="th-aside-card">${renderCard(card, { face: numberFace, testid: "th-aside-card" })}
        <button type="button" data-testid="th-play-aside" ?disabled=${!ready(app) || ui.busy || !canAside}
          @click=${() => playAside(app, c, card.id)}>${t("theorem.ui.play_aside")}<span class="visually-hidden"> ${cardName(card)}</span></button></li>`)}
    </ul>
    ${canAside ? nothing : html`<p class="muted small">${t("theorem.ui.aside_locked")}</p>`}` : html`<p class="muted small">${t("theorem.ui.aside_none")}</p>`}
  </section>`;
}

function chainView(chain, awaiting) {
  return html`<ol class="th-chain" data-testid="th-chain">
    ${chain.map((card, i) => html`<li data-card-id=${card.id}>${renderCard(card, { face: numberFace, testid: "th-chain-card" })}
      <span class="th-term" data-testid="th-term">${chain.length > 1 || card.kind === "number" ? signTerm(chain, i) : "?"}</span></li>`)}
    ${awaiting ? html`<li data-card-id=${awaiting.id}>${renderCard(awaiting, { face: numberFace, testid: "th-awaiting-card" })}
      <span class="th-term">${t("theorem.ui.awaiting")}</span></li>` : nothing}
  </ol>`;
}

/** A chain card's term as the reading signs it (same suit as the card before: negative). */
function signTerm(chain, i) {
  const sign = (k) => (chain[k].suit === chain[k - 1].suit ? -1 : 1);
  const s = i === 0 ? (chain.length > 1 ? sign(1) : 1) : sign(i);
  return signed(s * chain[i].value);
}

function arcanaSection(app, c, state) {
  const arc = state.arcana[c.id];
  const handCount = liveHand(c)?.length ?? arc?.piles.hand.cards.length ?? 0;
  const ka = arc ? arc.piles.ka.cards.map((id) => arc.cards[id]) : [];
  const hand = ownHand(app, c, state);
  const turnUsed = state.arcane_turn[c.id] === state.turn;
  const p = state.pending[c.id];
  const valueOk = !p || (!p.drawn && !p.chain.length && !p.awaiting);
  const cost = (card) => (c.ka_card !== null && card.number === c.ka_card) || (ui.mortal && c.des_ka === 1) ? 1 : 5;
  const playButtons = (card) => html`<div class="th-arcane-actions">
    <button type="button" data-testid="th-arcane-value" ?disabled=${!ready(app) || ui.busy || turnUsed || !valueOk}
      @click=${() => playArcane(app, c, card.id, "value")}>${t("theorem.ui.arcane_value", { cost: cost(card) })}<span class="visually-hidden"> ${arcaneName(card.number)}</span></button>
    <button type="button" data-testid="th-arcane-effect" ?disabled=${!ready(app) || ui.busy || turnUsed}
      @click=${() => playArcane(app, c, card.id, "effect")}>${t("theorem.ui.arcane_effect", { cost: cost(card) })}<span class="visually-hidden"> ${arcaneName(card.number)}</span></button>
    ${state.effects[card.number] ? html`<p class="small th-effect">${state.effects[card.number]}</p>` : nothing}
  </div>`;
  return html`<section class="card" aria-labelledby="th-arcana-title" data-testid="th-arcana">
    <h2 id="th-arcana-title">${t("theorem.ui.arcana_title")}</h2>
    ${arc ? html`<div class="card-piles">
      ${renderPile({ id: "arcana-draw", label: t("theorem.ui.arcana_deck"), count: arc.piles.draw.cards.length, faceDown: true })}
      ${renderPile({ id: "arcana-discard", label: t("cards.pile.discard"), count: arc.piles.discard.cards.length,
        top: arc.piles.discard.cards.length ? arc.cards[arc.piles.discard.cards.at(-1)] : null, faceDown: false, face: arcaneFace })}
    </div>` : html`<p class="muted">${t("theorem.ui.no_hand_yet", { n: c.spheres.divinite })}</p>`}
    ${turnUsed ? html`<p class="small" data-testid="th-turn-used">${t("theorem.ui.arcane_turn_used")}</p>` : nothing}
    <label class="check"><input type="checkbox" id="th-mortal" .checked=${ui.mortal} ?disabled=${c.des_ka !== 1}
      @change=${(e) => { ui.mortal = e.target.checked; app.rerender(); }}> ${t("theorem.ui.mortal")}</label>
    ${c.des_ka !== 1 ? html`<p class="muted small">${t("theorem.ui.mortal_help")}</p>` : nothing}
    ${ka.length ? html`<h3>${t("theorem.ui.ka_aside")}</h3>
      <ul class="card-hand" data-testid="th-ka">${ka.map((card) => html`<li>${renderCard(card, { face: arcaneFace, testid: "th-ka-card" })}${playButtons(card)}</li>`)}</ul>` : nothing}
    <h3 id="th-hand-title">${tn("theorem.ui.hand_title", handCount)}</h3>
    ${handCount === 0 ? html`<button type="button" class="primary" id="th-draw-hand" ?disabled=${!ready(app) || ui.busy}
        @click=${() => drawHand(app, c)}>${tn("theorem.ui.draw_hand", arc ? state.hand_size[c.id] : c.spheres.divinite)}</button>`
      : ui.looking ? html`
        <ul class="card-hand" aria-labelledby="th-hand-title" data-testid="th-hand" data-shown="true">
          ${hand ? hand.map((card) => html`<li>${renderCard(card, { face: arcaneFace, testid: "th-hand-card" })}${playButtons(card)}</li>`)
            : html`<li class="muted">${t("theorem.ui.loading")}</li>`}
        </ul>
        <button type="button" id="th-hide-hand" @click=${() => look(app, false)}>${t("theorem.ui.hide_hand")}</button>`
      : html`
        <ul class="card-hand" aria-labelledby="th-hand-title" data-testid="th-hand" data-shown="false">
          ${Array.from({ length: handCount }, () => html`<li>${renderCard(null, { faceDown: true, testid: "th-hand-back" })}</li>`)}
        </ul>
        <button type="button" id="th-look-hand" ?disabled=${!ready(app)} @click=${() => look(app, true)}>${t("theorem.ui.look_hand", { name: nameOf(c) })}</button>
        <p class="muted small">${t("theorem.ui.look_help")}</p>`}
  </section>`;
}

function actionForm(app, c, state) {
  const p = state.pending[c.id];
  const locked = Boolean(p);
  const ladder = rules(app)?.ladder ?? [];
  const fails = state.fails[c.id];
  const active = (ui.exploit ? 1 : 0) + (ui.retest ? 1 : 0) + (ui.arcaneOdds ? 1 : 0);
  const set = (key, parse = (v) => v) => (e) => {
    ui[key] = parse(e.target.type === "checkbox" ? e.target.checked : e.target.value);
    ui.result = null;
    remember(app);
    app.rerender();
  };
  return html`<section class="card" aria-labelledby="th-action-title">
    <h2 id="th-action-title">${t("theorem.ui.action_title")}</h2>
    ${p ? html`<p data-testid="th-pending">${t("theorem.ui.pending", { what: describe(c, p), base: p.base })}</p>` : nothing}
    <div class="th-grid">
      <div class="field"><label for="th-sphere">${t("theorem.ui.sphere")}</label>
        <select id="th-sphere" ?disabled=${locked} @change=${set("sphere")}>
          ${SPHERES.map((s) => html`<option value=${s} ?selected=${s === ui.sphere}>${sphereLabel(s)} (${c.spheres[s]})</option>`)}
        </select></div>
      <div class="field"><label for="th-skill">${t("theorem.ui.skill")}</label>
        <select id="th-skill" ?disabled=${locked} @change=${set("skill")}>
          <option value="" ?selected=${!ui.skill}>${t("theorem.ui.no_skill")}</option>
          ${c.skills.map((sk) => html`<option value=${sk.name} ?selected=${sk.name === ui.skill}>${sk.name} (${sk.level})</option>`)}
        </select></div>
      <div class="field"><label for="th-modifier">${t("theorem.ui.modifier")}</label>
        <select id="th-modifier" ?disabled=${locked} @change=${set("modifier", Number)}>
          ${ladder.map((row) => html`<option value=${row.value} ?selected=${row.value === ui.modifier}>${signed(row.value)} · ${t(`theorem.ladder.${row.id}`)}</option>`)}
        </select></div>
    </div>
    <details class="more-options" data-testid="more-options" .open=${(ui.more ??= active > 0)}
      @toggle=${(e) => { ui.more = e.target.open; }}>
      <summary>${t("testpage.more_options")}${active ? html` <span class="muted small">(${tn("testpage.active", active)})</span>` : nothing}</summary>
      <div class="field"><label for="th-exploit">${t("theorem.ui.exploit", { max: c.spheres.divinite })}</label>
        <select id="th-exploit" ?disabled=${locked || ui.retest} aria-describedby="th-exploit-help" @change=${set("exploit", Number)}>
          ${Array.from({ length: Math.min(c.spheres.divinite, c.realite) + 1 }, (_, n) => html`<option value=${n} ?selected=${n === ui.exploit}>${n === 0 ? t("theorem.ui.no_exploit") : `+${n}`}</option>`)}
        </select>
        <p class="muted small" id="th-exploit-help">${t("theorem.ui.exploit_help", { realite: c.realite })}</p></div>
      <label class="check"><input type="checkbox" id="th-retest" ?disabled=${locked} .checked=${ui.retest} @change=${set("retest")}> ${t("theorem.ui.retest")}</label>
      <label class="check"><input type="checkbox" id="th-arcane-odds" ?disabled=${locked} .checked=${ui.arcaneOdds} @change=${set("arcaneOdds")}> ${t("theorem.ui.odds_with_arcane")}</label>
    </details>
    ${fails ? html`<p class="th-retest" data-testid="th-retest-status" data-count=${fails.count}>${(fails.skill ? tn("theorem.ui.fails", fails.count, { skill: fails.skill }) : tn("theorem.ui.fails_no_skill", fails.count))}
      ${t(`theorem.ui.wait_${fails.count === 1 ? "next_action" : fails.count === 2 ? "hour" : "day"}`)}</p>` : nothing}
  </section>`;
}

/** The odds (base, each level's chance) with the draw button right after; the value
 * distribution follows. */
function oddsSection(app, c, state, play) {
  const request = { op: "theorem.action.odds", state, character: c, ...actionFields(), arcane: ui.arcaneOdds };
  const r = ready(app) ? odds(app, request) : null;
  let body;
  let table = nothing;
  if (!r) body = html`<p class="muted">${t("theorem.ui.odds_loading")}</p>`;
  else if (r.error) body = html`<p class="field-error" role="alert">${thError(r.error)}</p>`;
  else {
    const levels = [...r.levels].reverse();
    body = html`<div class="odds-summary" data-testid="th-odds" data-base=${r.base} data-remaining=${r.remaining}>
      <ul class="th-levels odds-inline small" data-testid="th-level-odds">
        ${levels.map((row) => html`<li data-level=${row.level} data-p=${row.fraction}><strong>${levelLabel(row.level)}</strong>${colon()}<span class="nowrap">${formatPercent(row.percent)}</span></li>`)}
      </ul>
    </div>`;
    // The exact fractions after the button: over 56 cards they run to 40 digits, so the shared
    // table shows each percentage with its fraction on demand (views/ui.js probability).
    table = html`<div class="odds-table-box" data-testid="th-level-table">${renderDistribution(levels.map((row) => ({ label: levelLabel(row.level), p: row.fraction, percent: row.percent })), t("theorem.ui.level"))}</div>
      <details class="th-value-odds"><summary>${t("theorem.ui.value_odds")}</summary>
        <div class="odds-table-box" tabindex="0" role="region" aria-label=${t("theorem.ui.value_odds")}>${renderDistribution(r.value.map((row) => ({ label: signed(row.value), p: row.fraction, percent: row.percent })), t("theorem.ui.value"))}</div>
      </details>`;
  }
  return html`<section class="card test-odds" aria-labelledby="th-odds-title" data-testid="test-odds">
    <h2 id="th-odds-title">${t("theorem.ui.odds_title")}</h2>
    ${body}
    ${play}
    ${r && !r.error ? html`<p class="small">${t("theorem.ui.odds_line", { base: r.base, remaining: r.remaining })}</p>` : nothing}
    <p class="muted small">${t("theorem.ui.odds_help")}</p>
    ${table}
  </section>`;
}

/** The character's key numbers beside the table (wide screens). */
function sheetSummary(c) {
  return html`<section class="card test-sheet" aria-labelledby="th-sheet-sum-title" data-testid="test-sheet">
    <h2 id="th-sheet-sum-title">${t("testpage.sheet_summary")}</h2>
    <dl class="facts">
      ${SPHERES.map((k) => html`<dt>${sphereLabel(k)}</dt><dd>${c.spheres[k]}</dd>`)}
      ${c.skills.length ? html`<dt>${t("testpage.skills")}</dt><dd>${c.skills.map((sk) => `${sk.name} ${sk.level}`).join(", ")}</dd>` : nothing}
    </dl>
  </section>`;
}

function playSection(app, c, state) {
  const p = state.pending[c.id];
  const disabled = !ready(app) || ui.busy;
  if (p?.awaiting) {
    const card = deckCard(state, p.awaiting);
    const full = (state.aside[c.id]?.length ?? 0) >= c.spheres.humanite;
    return html`<section class="card th-decide" aria-labelledby="th-decide-title" data-testid="th-decide">
      <h2 id="th-decide-title">${t("theorem.ui.figure_choice", { card: cardName(card) })}</h2>
      <p class="muted small">${t("theorem.ui.figure_choice_help", { max: c.spheres.humanite })}</p>
      <div class="row">
        <button type="button" class="primary" id="th-figure-play" ?disabled=${disabled} @click=${() => figure(app, c, "play")}>${t("theorem.ui.figure_play")}</button>
        <button type="button" id="th-figure-aside" ?disabled=${disabled || full} @click=${() => figure(app, c, "aside")}>${t("theorem.ui.figure_aside")}</button>
      </div>
    </section>`;
  }
  const canCancel = p && !p.drawn && !p.chain.length && p.effect === null;
  return html`<div class="row th-play">
    <button type="button" class="primary test-roll" id="th-draw" ?disabled=${!ready(app)} aria-busy=${ui.busy ? "true" : "false"} @click=${() => drawCard(app, c)}>
      ${p ? (p.must_play ? t("theorem.ui.draw_after_aside") : p.chain.length ? t("theorem.ui.draw_next") : t("theorem.ui.draw")) : t("theorem.ui.draw")}</button>
    ${canCancel ? html`<button type="button" id="th-cancel" ?disabled=${disabled} @click=${() => cancel(app, c)}>${t("theorem.ui.cancel_action")}</button>` : nothing}
  </div>`;
}

function chaseResult(r) {
  return html`<section class="card th-result test-result" aria-labelledby="th-result-title" data-testid="th-result"
    data-chase-side=${r.chase_side} data-score=${r.score} data-value=${r.value} data-round=${r.round ? (r.round.winner ?? "tie") : "waiting"}>
    <h2 id="th-result-title" tabindex="-1">${t("theorem.ui.chase_side_result")}</h2>
    <p>${t("theorem.ui.chase_side_done", { score: r.score })}</p>
    ${r.chain.length ? html`<ol class="th-chain" aria-label=${t("theorem.ui.chain")}>
      ${r.chain.map((card) => html`<li>${renderCard(card, { face: numberFace, testid: "th-result-card" })}<span class="th-term">${signed(card.term)}</span></li>`)}
    </ol>` : html`<p>${t("theorem.ui.arcane_ten")}</p>`}
    <p role="status">${chaseAnnounce(r)}</p>
    <p><a href="#/theorem/chase" id="th-back-chase">${t("theorem.ui.back_chase")}</a></p>
    </section>`;
}

function effectSection() {
  const e = ui.effect;
  if (!e) return nothing;
  return html`<section class="card th-effect-played" aria-labelledby="th-effect-title" data-testid="th-effect-played" data-arcane=${e.number}>
    <h2 id="th-effect-title" tabindex="-1">${t("theorem.ui.arcane_effect_played", { name: e.name, cost: e.cost })}</h2>
    ${e.text ? html`<p data-testid="th-effect-text">${e.text}</p>`
      : html`<p class="muted" data-testid="th-effect-none">${t("theorem.ui.effect_none")}</p>`}
  </section>`;
}

function resultSection(app) {
  const r = ui.result;
  if (!r) return nothing;
  if (r.chase_side) return chaseResult(r);
  return html`<section class="card th-result test-result" aria-labelledby="th-result-title" data-testid="th-result"
    data-level=${r.level} data-score=${r.score} data-value=${r.value}>
    <h2 id="th-result-title" tabindex="-1">${t("theorem.ui.result")}</h2>
    <p class="th-level th-level-${r.level}" data-testid="th-level">${levelLabel(r.level)}</p>
    <p>${t("theorem.ui.score_line", { base: r.base, value: r.value, score: r.score })}</p>
    ${r.chain.length ? html`<ol class="th-chain" aria-label=${t("theorem.ui.chain")}>
      ${r.chain.map((card) => html`<li>${renderCard(card, { face: numberFace, testid: "th-result-card" })}<span class="th-term" data-testid="th-result-term">${signed(card.term)}</span></li>`)}
    </ol>` : html`<p>${t("theorem.ui.arcane_ten")}</p>`}
    <p class="small">${tn("theorem.ui.cases", r.cases, { bonus: r.bonus })}</p>
    ${r.level === "echec" ? html`<p class="small">${t(`theorem.ui.wait_${r.retest.wait}`)}</p>` : nothing}
    ${verifyControl(app, `th-${r.seed ?? ""}`, checkOf(loggedEntry(app, r.seed)), r.seed ?? null)}${resultShare(app, r.seed)}
  </section>`;
}

/** At a live table, another player's character (the referee refuses every action on it from
 * this phone: its hand, its actions, its arcana): the page shows its sheet and the public piles,
 * and offers no action. */
function othersCharacter(c) {
  const mine = liveCharacters();
  return mine !== null && !mine.includes(c.id);
}

/** An opposition waiting for this character's side: where to draw it (the chase page). */
function waitingSide(c, state) {
  const op = state.opposition;
  if (!op || op.result !== null || othersCharacter(c)) return nothing;
  const key = ["a", "b"].find((k) => op[k].character_id === c.id && !op.current?.[k]);
  if (!key) return nothing;
  const other = op[key === "a" ? "b" : "a"].name;
  return html`<p class="notice" data-testid="th-opp-waiting-here">${t("theorem.ui.opp_your_turn", { name: nameOf(c), other })}
    <a href="#/theorem/chase">${t("theorem.ui.opp_go_draw")}</a></p>`;
}

export function render(app, id) {
  const c = findCharacter(app.doc, id);
  reset(app, id, c);
  if (!c) return html`${backLink("#/theorem", t("theorem.ui.back"))}<p role="alert">${t("theorem.ui.not_found")}</p>`;
  ensureState(app);
  const state = tableState(app.doc);
  chaseSides = state?.chase ?? null;
  return html`
    <div class="test-head">
      ${backLink(`#/theorem/character/${encodeURIComponent(id)}`, t("theorem.ui.back_sheet", { name: nameOf(c) }))}
      <h1>${t("theorem.ui.table_title", { name: nameOf(c) })}</h1>
    </div>
    <div class="visually-hidden" role="status" aria-live="polite" data-testid="th-announce">${said(ui.announce)}</div>
    <p class="th-stats small" data-testid="th-stats" data-realite=${c.realite}>${t("theorem.ui.stats", { realite: c.realite, ka: c.des_ka, humanite: c.spheres.humanite })}</p>
    ${ui.error ? html`<p class="field-error" role="alert" data-testid="th-error">${thError(ui.error)}</p>` : nothing}
    ${state ? waitingSide(c, state) : nothing}
    ${state && othersCharacter(c) ? html`
      <p class="notice" data-testid="th-not-yours">${t("theorem.ui.not_yours", { name: nameOf(c) })}</p>
      ${sheetSummary(c)}
      <section class="card" aria-labelledby="th-deck-title" data-testid="th-deck">
        <h2 id="th-deck-title">${t("theorem.ui.deck_title")}</h2>
        <div class="card-piles">
          ${renderPile({ id: "draw", label: t("cards.pile.draw"), count: state.deck.piles.draw.cards.length, faceDown: true })}
          ${renderPile({ id: "discard", label: t("cards.pile.discard"), count: state.deck.piles.discard.cards.length,
            top: state.deck.piles.discard.cards.length ? deckCard(state, state.deck.piles.discard.cards.at(-1)) : null, faceDown: false, face: numberFace })}
        </div>
      </section>`
    : state ? html`
      <div class="split test-split">
        <div class="test-setup">
          ${actionForm(app, c, state)}
          ${sheetSummary(c)}
        </div>
        <div class="test-side">
          ${oddsSection(app, c, state, playSection(app, c, state))}
          ${effectSection()}
          ${resultSection(app)}
          ${deckSection(app, c, state)}
        </div>
      </div>
      ${arcanaSection(app, c, state)}
    ` : html`<p class="muted">${t("theorem.ui.engine_wait")}</p>`}
  `;
}

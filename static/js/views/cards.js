// Generic card-table pieces: a card face, a pile (with its size), a hand of face-up cards
// the player may choose from, and a small strip of cards. System-agnostic: the caller says how
// a card looks through `face(card) -> {label, tone, note, aria?, symbol?, corner?, face?, suit?,
// rank?, number?}`:
//   label   the card's word (big), note a second line (a suit, a numeral);
//   tone    a colour family (tone-<tone> class); symbol a glyph drawn large in the middle and
//           corner a short index (a rank and suit; the symbol when absent) drawn in two corners — both aria-hidden:
//           colour is never the only cue (the label is a word, the symbol a shape);
//   aria    the screen-reader name when the visible label and note do not read well together;
//   face    the kind of face (data-face: "versality", "tarot", "arcane"…); suit/rank/number
//           are set as data attributes for styles and tests.
// Versality, Théorem and SYSTMJ use it. Every interactive card is a real <button>. A card
// marked `fresh` turns over once (≤ 300 ms, CSS only, none under prefers-reduced-motion).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { loadStylesheet } from "./ui.js";

/** Load static/css/cards.css once (index.html belongs to the shell). */
export function ensureCardStyles() {
  loadStylesheet(new URL("../../css/cards.css", import.meta.url).href);
}

const defaultFace = (card) => ({ label: card?.kind ?? "?", tone: "", note: "" });

/** The accessible name of a face: its `aria`, else "label (note)". */
export function faceName(f) {
  return f.aria ?? (f.note ? `${f.label} (${f.note})` : f.label);
}

function faceBody(f) {
  const symbol = f.symbol ?? "";
  const corner = f.corner ?? symbol; // a corner index: the face's own, else its symbol
  return html`${corner
    ? html`<span class="card-corner top" aria-hidden="true">${corner}</span><span class="card-corner bottom" aria-hidden="true">${corner}</span>`
    : nothing}
    ${symbol ? html`<span class="card-symbol" aria-hidden="true">${symbol}</span>` : nothing}
    <span class="card-label">${f.label}</span>${f.note ? html`<span class="card-note">${f.note}</span>` : nothing}`;
}

/**
 * One card face up (or down). With `onSelect` it is a toggle button (aria-pressed).
 * `small` draws the compact size (strips, chains).
 */
export function renderCard(card, { face = defaultFace, faceDown = false, selected = false, applied = false,
  dimmed = false, fresh = false, onSelect = null, disabled = false, testid = "card", label = null, small = false } = {}) {
  if (faceDown || !card) {
    return html`<div class="play-card face-down ${small ? "small" : ""}" data-testid=${testid} role="img" aria-label=${label ?? t("cards.ui.face_down")}></div>`;
  }
  const f = face(card);
  const cls = `play-card tone-${f.tone || "plain"} ${f.face ? `face-${f.face}` : ""} ${f.symbol ? "has-symbol" : ""} ${small ? "small" : ""}
    ${applied ? "applied" : ""} ${dimmed ? "dimmed" : ""} ${fresh ? "fresh" : ""}`;
  const name = label ?? faceName(f);
  if (onSelect) {
    return html`<button type="button" class=${cls} data-testid=${testid} data-card-id=${card.id} data-kind=${card.kind}
      data-face=${f.face ?? nothing} data-suit=${f.suit ?? nothing} data-rank=${f.rank ?? nothing} data-number=${f.number ?? nothing}
      aria-label=${name}
      aria-pressed=${selected ? "true" : "false"} ?disabled=${disabled} @click=${() => onSelect(card)}>${faceBody(f)}</button>`;
  }
  return html`<div class="${cls} ${selected ? "selected" : ""}" data-testid=${testid} data-card-id=${card.id}
    data-kind=${card.kind} data-face=${f.face ?? nothing} data-suit=${f.suit ?? nothing} data-rank=${f.rank ?? nothing}
    data-number=${f.number ?? nothing} role="img" aria-label=${name}>${faceBody(f)}</div>`;
}

/**
 * A pile: its name, its size and its top card (face down for a hidden pile).
 * `top` is the visible top card (or null); `count` the number of cards in it.
 */
export function renderPile({ id, label, count, top = null, faceDown = true, face = defaultFace }) {
  const stack = count === 0
    ? html`<div class="pile-stack empty" aria-hidden="true"></div>`
    : html`<div class="pile-stack ${count > 1 ? "deep" : ""}" aria-hidden="true">
        ${renderCard(top, { face, faceDown: faceDown || !top })}</div>`;
  return html`<div class="pile" data-testid=${`pile-${id}`} data-count=${count}>
    ${stack}
    <span class="pile-label">${label}</span>
    <span class="pile-count" aria-label=${t("cards.ui.pile_count", { pile: label, count })}>${t(count === 1 ? "cards.ui.count_one" : "cards.ui.count", { count })}</span>
  </div>`;
}

/**
 * A hand of face-up cards. With `choose` each card is a button; `selectedId` is pressed.
 * `appliedId` marks a card that applies without a choice (e.g. the worst one).
 */
export function renderHand(cards, { face = defaultFace, choose = false, selectedId = null, appliedId = null,
  onSelect = null, label = t("cards.pile.hand"), fresh = false, disabled = false }) {
  return html`<ul class="card-hand" aria-label=${label} data-testid="hand">
    ${cards.map((card) => html`<li>${renderCard(card, {
      face,
      fresh,
      testid: "hand-card",
      selected: selectedId === card.id,
      applied: appliedId === card.id,
      dimmed: appliedId !== null && appliedId !== card.id,
      onSelect: choose ? onSelect : null,
      disabled,
    })}</li>`)}
  </ul>`;
}

/** A compact row of small face-up cards (a discard, a deck's contents). */
export function renderStrip(cards, { face = defaultFace, label, testid = "strip" }) {
  return html`<ul class="card-strip" aria-label=${label} data-testid=${testid}>
    ${cards.map((card) => html`<li>${renderCard(card, { face, testid: `${testid}-card`, small: true })}</li>`)}
  </ul>`;
}

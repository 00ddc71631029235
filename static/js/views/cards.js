// Generic card-table pieces: a card face, a pile (with its size), a hand of face-up cards
// the player may choose from, and a small strip of cards. System-agnostic: the caller
// says how a card looks through `face(card) -> {label, tone, note, aria?}` (`aria` is the
// screen-reader name when the visible label and note do not read well together). Versality and
// Théorem use it; SYSTMJ can too. Every interactive card is a real <button>.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { loadStylesheet } from "./ui.js";

/** Load static/css/cards.css once (index.html belongs to the shell). */
export function ensureCardStyles() {
  loadStylesheet(new URL("../../css/cards.css", import.meta.url).href);
}

const defaultFace = (card) => ({ label: card?.kind ?? "?", tone: "", note: "" });

/** One card face up (or down). With `onSelect` it is a toggle button (aria-pressed). */
export function renderCard(card, { face = defaultFace, faceDown = false, selected = false, applied = false,
  dimmed = false, fresh = false, onSelect = null, disabled = false, testid = "card", label = null } = {}) {
  if (faceDown || !card) {
    return html`<div class="play-card face-down" data-testid=${testid} role="img" aria-label=${label ?? t("cards.ui.face_down")}></div>`;
  }
  const f = face(card);
  const cls = `play-card tone-${f.tone || "plain"} ${applied ? "applied" : ""} ${dimmed ? "dimmed" : ""} ${fresh ? "fresh" : ""}`;
  const inner = html`<span>${f.label}</span>${f.note ? html`<span class="card-note">${f.note}</span>` : nothing}`;
  if (onSelect) {
    return html`<button type="button" class=${cls} data-testid=${testid} data-card-id=${card.id} data-kind=${card.kind}
      aria-label=${f.aria ?? nothing}
      aria-pressed=${selected ? "true" : "false"} ?disabled=${disabled} @click=${() => onSelect(card)}>${inner}</button>`;
  }
  return html`<div class="${cls} ${selected ? "selected" : ""}" data-testid=${testid} data-card-id=${card.id}
    data-kind=${card.kind} role="img" aria-label=${f.aria ?? (f.note ? `${f.label} (${f.note})` : f.label)}>${inner}</div>`;
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
    ${cards.map((card) => html`<li>${renderCard(card, { face, testid: `${testid}-card` })}</li>`)}
  </ul>`;
}

// Théorem UI: shared helpers. The rules live in Python (tablee.systems.theorem); this file
// names cards, reads the table document and keeps the hidden hands out of the pages: a hand's
// faces are only ever read from `theorem.view.player` for its own player, asked when that
// player chooses to look (see `handView`), and forgotten when they hide it again.

import { html } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, has, t, tn } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { ensureCardStyles } from "../../views/cards.js";
import { checkCache, findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { engineChange, engineData, fieldProblems, loadStylesheet, putSystem } from "../../views/ui.js";
import { verifyRecord } from "../../views/verify.js";

import { replaceCharacter } from "../../views/characters.js";

export { replaceCharacter };
export { tn };

export const SYSTEM = "theorem";
export const MK = "@mk";
export const SPHERES = ["animalite", "humanite", "divinite"];
export const SUITS = ["baton", "coupe", "denier", "epee"];
export const LEVELS = ["echec", "normale", "moyenne", "grande"];
/** The 22 major arcana (the rules op theorem.rules gives the same list). */
export const ARCANA = ["Le Mat", "Le Bateleur", "La Papesse", "L'Impératrice", "L'Empereur", "Le Pape",
  "L'Amoureux", "Le Chariot", "La Justice", "L'Ermite", "La Roue de Fortune", "La Force", "Le Pendu",
  "L'Arcane sans nom", "Tempérance", "Le Diable", "La Maison Dieu", "L'Étoile", "La Lune", "Le Soleil",
  "Le Jugement", "Le Monde"];
const ROMAN = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
  "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"];

export function ensureStyles() {
  ensureCardStyles();
  loadStylesheet(new URL("../../../css/theorem.css", import.meta.url).href);
}

export const rules = engineData("theorem.rules");
export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);
export const ready = (app) => app.engineAnswers();
export const nameOf = (c) => c?.name?.trim() || t("theorem.ui.unnamed");

/** The Théorem table state, or null before the first one was made (`ensureState`). */
export function tableState(doc) {
  return doc.systems?.theorem ?? null;
}

/** An action on the latest table state and the latest sheet of the character `id` (none when
 * null): `steps(state, character)` makes its engine calls and answers {state, character?, ...}
 * (or {error}); the state (and character) are written only if neither changed while the engine
 * answered, else the action is asked again on the new table (views/ui.js engineChange): two
 * quick actions are both applied, in order, the second on the table the first left. `label`
 * (an i18n key under theorem.change, given the character's name as {name}) names the change in
 * the undo bar and the Table page ("Table Théorem modifiée" said nothing of what was done). */
export function tableAction(app, holder, id, steps, label = null) {
  const characterOf = (doc) => (id ? findCharacter(doc, id) ?? null : null);
  return engineChange(app, holder, {
    request: (doc) => {
      const state = tableState(doc);
      const character = characterOf(doc);
      return state && (character || !id) ? { state, character } : null;
    },
    call: ({ state, character }) => steps(state, character),
    basis: (doc) => [tableState(doc), characterOf(doc)],
    apply: (doc, r) => {
      putSystem(doc, SYSTEM, r.state);
      if (r.character) replaceCharacter(doc, r.character);
    },
    shallow: true,
    label: label ? (answer, req, doc) => ({ key: `theorem.change.${label}`, params: { name: nameOf(characterOf(doc)) } }) : null,
  });
}

let making = false;
/** Make the table (the 56 numbered cards shuffled) once the engine is up, if there is none. */
export function ensureState(app) {
  if (tableState(app.doc) || making || !ready(app)) return;
  making = true;
  const seed = newSeed();
  app.call({ op: "theorem.state.new", seed }).then((r) => {
    making = false;
    // Only into a table that still has none (another tab may have made it meanwhile: its deck
    // is kept, checked again on the latest saved table when this change is written). Not a
    // change of the person's to undo: opening a Théorem page put "Table Théorem modifiée" first
    // in the Table page's list and its Annuler, for something they never did.
    if (!r.error && !tableState(app.doc)) {
      app.update((doc) => {
        if (!tableState(doc)) doc.systems.theorem = r.state;
      }, { record: false });
    }
  });
}

// ---------------------------------------------------------------- cards
export const suitLabel = (suit) => t(`theorem.suit.${suit}`);
export const rankLabel = (rank) => (/^\d+$/.test(rank) ? rank : t(`theorem.rank.${rank}`));

/** The suits as the French pack draws them (bâton ♣, coupe ♥, denier ♦, épée ♠), and the
 * figures' glyphs: a symbol beside the suit's word, never colour alone. */
export const SUIT_SYMBOL = new Map([["baton", "♣"], ["coupe", "♥"], ["denier", "♦"], ["epee", "♠"]]);
/** A figure's corner mark, each its own in both languages (documented in docs/ARCHITECTURE.md). */
const RANK_MARK = { valet: () => t("theorem.rank_mark.valet"), cavalier: () => t("theorem.rank_mark.cavalier"),
  reine: () => t("theorem.rank_mark.reine"), roi: () => t("theorem.rank_mark.roi") };
const FIGURE_SYMBOL = new Map([["valet", "♟"], ["cavalier", "♞"], ["reine", "♛"], ["roi", "♚"]]);

/** A numbered card: its rank big, its suit under it, the suit's symbol in the middle and the
 * corners (a number, or a figure's unambiguous mark, with the suit's symbol); read "7 de coupe" /
 * "Roi de denier". */
export function numberFace(card) {
  const number = /^\d+$/.test(card.rank);
  const figure = FIGURE_SYMBOL.get(card.rank);
  const suit = SUIT_SYMBOL.get(card.suit) ?? "";
  return {
    label: rankLabel(card.rank),
    note: suitLabel(card.suit),
    tone: card.suit,
    aria: t("theorem.ui.card_name", { rank: rankLabel(card.rank), suit: suitLabel(card.suit) }),
    face: "tarot",
    suit: card.suit,
    rank: card.rank,
    symbol: figure ?? suit,
    // A figure's corner mark is its own (theorem.rank_mark): V, C, Re, Ro in French, J, Kn, Q, K
    // in English. A first letter read R for both Roi and Reine, and K for both King and Knight.
    corner: number ? `${card.rank}${suit}` : `${RANK_MARK[card.rank]?.() ?? ""}${suit}`,
  };
}

export const cardName = (card) => numberFace(card).aria;

export function arcaneName(number) {
  return ARCANA[number] ?? "?";
}

/** An arcane: its numeral big (roman, 0 for Le Mat), its name under it; read "Le Monde, arcane XXI". */
export function arcaneFace(card) {
  const number = card.number ?? Number(String(card.id).slice(-2));
  // A line may break after "L'" (a zero-width space), so "L'Impératrice" never splits mid-word on a small card.
  return { label: arcaneName(number).replace(/^L'/u, "L'\u200b"), note: "", tone: "arcane", face: "arcane", number,
    symbol: ROMAN[number] ?? "?",
    aria: t("theorem.ui.arcane_name", { name: arcaneName(number), number: ROMAN[number] }) };
}

/** The numbered deck's card definition by id (the deck's `cards` map is public data). */
export const deckCard = (state, id) => state.deck.cards[id];

export const levelLabel = (level) => t(`theorem.level.${level}`);
export const sphereLabel = (s) => t(`theorem.sphere.${s}`);
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** Field problems of theorem.character.check (ids "th-err-…"). */
export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("th");
export const checkOf = checkCache("theorem.character.check");

export function thError(error) {
  if (!error) return "";
  const params = { ...error.params };
  if (typeof params.card === "string" && /^arcane-\d\d$/.test(params.card)) params.card = arcaneName(Number(params.card.slice(-2)));
  if (typeof params.field === "string" && has(`theorem.field.${params.field}`)) params.field = t(`theorem.field.${params.field}`);
  return errorMessage({ ...error, params });
}

export function backLink(href, label) {
  return html`<p class="th-back"><a href=${href}>← ${label}</a></p>`;
}

/** The deck state a draw used (for the log: with the seed it replays the draw exactly). */
export function deckUsed(state) {
  return { draw: [...state.deck.piles.draw.cards], discard: [...state.deck.piles.discard.cards] };
}

/** A log entry for a seeded draw: the request with its seed and the deck it used, and a summary.
 * `drawn` (the card ids drawn, chain by chain) is kept as a digest: "Vérifier / rejouer" draws
 * again from that deck with that seed (theorem.draw.replay) and compares. */
export function logDraw(app, { kind, who, label, request, deck, summary, drawn = null }) {
  const result = drawn ? { summary, verify: verifyRecord({ drawn }, ["drawn"]) } : { summary };
  app.addLog({ kind, system: SYSTEM, who, label: label.slice(0, 200), request: { ...request, deck }, result });
}

/** Reshuffle events in words (the discard turned over). */
export function eventsText(events = []) {
  return events.filter((e) => e.type === "reshuffle").map((e) => tn("theorem.ui.reshuffled", e.count)).join(" ");
}

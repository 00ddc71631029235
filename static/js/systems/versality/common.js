// Versality UI: shared helpers. The rules live in Python (tablee.systems.versality);
// this file only names the ids the sheet lays out before the engine is ready and reads
// the table document. Player-facing modules never read catastrophe, tokens or power uses:
// only mj.js does (the phone is handed around on the player view).

import { html } from "../../../vendor/lit-html/lit-html.js";
import { language, t } from "../../i18n.js";
import { ensureCardStyles } from "../../views/cards.js";
import { checkCache, findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { engineData, fieldProblems, loadStylesheet } from "../../views/ui.js";

export { replaceCharacter } from "../../views/characters.js";

export const SYSTEM = "versality";
/** Layout order of the sheet; the rules op (versality.rules) gives the same lists. */
export const CHARACTERISTICS = ["physique", "mental", "personnalite"];
export const SKILLS = ["traquer", "survivre", "terroriser", "combattre", "soulager", "comprendre", "fureter", "resister"];
export const DIFFICULTIES = ["facile", "conventionnelle", "inhabituelle", "complexe", "epique"];
/** Card kinds best first (display order only). */
export const KINDS = ["oui-et", "oui", "oui-mais", "non-mais", "non-et"];
const SUCCESS = new Set(["oui-et", "oui", "oui-mais"]);

export function ensureStyles() {
  ensureCardStyles();
  loadStylesheet(new URL("../../../css/versality.css", import.meta.url).href);
}

/** The rules as data, fetched once from the engine (prices, creation budgets, bands). */
export const rules = engineData("versality.rules");

export const EMPTY_STATE = Object.freeze({ catastrophe: 0, tokens: 0, session: 0, awarded_session: null, power_uses: [], decks: {}, pending: {} });

/** The whole Versality table state (MJ data included): pass it to the ops, never display it here. */
export function tableState(doc) {
  return doc.systems?.versality ?? structuredClone(EMPTY_STATE);
}

export function saveState(app, state) {
  app.update((doc) => {
    doc.systems.versality = state;
  });
}

export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);

/** Creation is validated once (versality.character.finish sets `created`): its cards are then locked. */
export function isCreated(character) {
  return character?.created === true;
}

/** A count in words: key `<key>_one` or `<key>_other`, chosen by the language's plural
 * rules (French: 0 and 1 are singular), with `{count}` and the other params. */
export function tn(key, count, params = {}) {
  const form = new Intl.PluralRules(language()).select(count) === "one" ? "one" : "other";
  return t(`${key}_${form}`, { ...params, count });
}

/** Points left of a budget, never negative: past it, how many points too many. */
export function budgetLine(left, total) {
  return left < 0 ? tn("versality.ui.points_over", -left) : tn("versality.ui.points_left", left, { total });
}

export function tone(kind) {
  if (kind === "echec-critique") return "critical";
  return SUCCESS.has(kind) ? "success" : "failure";
}

export const outcomeLabel = (kind) => t(`versality.outcome.${kind}`);
export const cardFace = (card) => ({ label: outcomeLabel(card.kind), tone: tone(card.kind), note: "" });

export function ready(app) {
  return app.engine.state === "ready";
}

export function nameOf(c) {
  return c.name?.trim() || t("versality.ui.unnamed");
}

/** Field problems of versality.character.check, laid out at their field (ids "vs-err-…"). */
export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("vs");

/** versality.character.check, re-run whenever the sheet changes (the previous answer meanwhile). */
export const checkOf = checkCache("versality.character.check");

export function backLink(href, label) {
  return html`<p class="vs-back"><a href=${href}>← ${label}</a></p>`;
}

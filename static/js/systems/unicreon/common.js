// Unicreon UI: shared helpers. Every rule lives in Python (tablee.systems.unicreon); this
// file reads the table document, caches unicreon.data, and lays out field problems.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, t } from "../../i18n.js";
import { findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { renderPair } from "../../views/faces.js";
import { engineData, fieldProblems, loadStylesheet, probability, requestCache } from "../../views/ui.js";

export { replaceCharacter } from "../../views/characters.js";
export { requestCache as oddsCache } from "../../views/ui.js";

export const SYSTEM = "unicreon";
export const CHARACTERISTICS = ["puissance", "agilite", "perception", "volonte"];
export const VALUES = [10, 20, 30, 40, 50];
export const VALUE_LABEL = { 10: "expert", 20: "fort", 30: "bon", 40: "moyen", 50: "faible" };
export const DIFFICULTIES = ["facile", "moyen", "difficile", "tres_difficile", "improbable", "impossible"];
export const DIFF_VALUE = { facile: -10, moyen: 0, difficile: 10, tres_difficile: 20, improbable: 30, impossible: 40 };
export const SKILL_LEVELS = ["faible", "moyen", "bon", "fort"];
export const BANDS = ["bof", "bien", "top"]; // d6 edition: the résultat réel runs 1-6
export const TIERS = ["faible", "moyen", "fort", "mortel"];
export const BEASTS = ["rongeurs", "canides", "grands_felins", "grands_mammiferes"];

export function ensureStyles() {
  loadStylesheet(new URL("../../../css/unicreon.css", import.meta.url).href);
}

/** unicreon.data, fetched once (price lists, NPC tiers, bestiary). */
export const rulesData = engineData("unicreon.data");

export function ready(app) {
  return app.engineAnswers();
}

export function tableState(doc) {
  return doc.systems?.unicreon ?? { combat: null, custom_items: [] };
}

export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);

export function nameOf(c) {
  return c?.name?.trim() || t("unicreon.ui.unnamed");
}

export const charLabel = (k) => t(`unicreon.char.${k}`);
export const valueLabel = (v) => (VALUE_LABEL[v] ? t(`unicreon.value.${VALUE_LABEL[v]}`) : String(v));

/** A catalogue item's label, or a custom item's own name. */
/** A named skill with its level, "Tir à l'arc — Bon (+20)" (never "Tir à l'arc (Bon (+20))"). */
export function skillText(skill) {
  return `${skill.name} — ${t(`unicreon.skill.${skill.level}`)}`;
}

export function itemLabel(item) {
  return item.ref ? t(`unicreon.item.${item.ref}`) : item.name || "?";
}

export function amountLabel(amount) {
  if (!amount) return "";
  return t(`unicreon.amount.${amount.kind}`, { value: amount.value });
}

/** "[Agilité max 4 PV]" for a weapon or protection. */
export function statsLabel(item) {
  if (item.weapon) return `[${charLabel(item.weapon.characteristic)} ${amountLabel(item.weapon.damage)}]`;
  if (item.protection) return `[${charLabel(item.protection.characteristic)} ${amountLabel(item.protection.absorb)}]`;
  return "";
}

/** A probability {p, percent}: the percent, the exact fraction beside it. */
export function prob(pr, testid) {
  if (!pr) return nothing;
  return probability(pr.p, pr.percent, { testid, cls: "uc-prob" });
}

/** Field problems of unicreon.character.check, laid out at their field (ids "uc-err-…"). */
export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("uc");

/** The table setting "creation purchases cost PO" (systems.unicreon.creation_pay; absent: the
 * equipment chosen at creation is free and the 40 PO are for play — rules/README.md, Unicreon). */
export function creationPay(doc) {
  return tableState(doc).creation_pay === true;
}

/** unicreon.character.check (with the table's creation_pay), re-run whenever the sheet or the
 * setting changes; while it runs, the character's previous answer stays. */
const checks = new Map();
export function checkOf(app, c) {
  if (!c) return null;
  if (!checks.has(c.id)) checks.set(c.id, requestCache({ keepStale: true }));
  const r = checks.get(c.id)(app, { op: "unicreon.character.check", character: c, creation_pay: creationPay(app.doc) });
  return r?.error ? { error: r.error } : r;
}

/** Both dice of a d66 as faces (views/faces.js): tens (dark) then units (light), pips, named
 * "Dizaines 4" / "Unités 2"; the short roll animation is visual only. */
export function renderD66(dice, label, { fresh = true } = {}) {
  return renderPair("d66", dice, { label: label ?? "d66", fresh });
}

/** A log "terms" entry for a d66 (the roll log lists the dice). */
export function d66Term(dice, text = "d66") {
  return { kind: "d66", text, sign: 1, dice: dice.map((value) => ({ value, kept: true })) };
}

export function backLink(href, label) {
  return html`<p class="uc-back"><a href=${href}>← ${label}</a></p>`;
}

export function errorLine(error, testid) {
  return error ? html`<p class="field-error" role="alert" data-testid=${testid ?? "uc-error"}>${errorMessage(error)}</p>` : nothing;
}

/**
 * PV during a fight. Model: while a fight is open (not "over"), the combatant holds the
 * character's current PV. The sheet and the list show them (with an "en combat" marker), every
 * PV change made on the sheet starts from them and is copied onto the combatant
 * (unicreon.combat.sync), and ending the fight copies the combatant back. The two never diverge,
 * so the end of the fight cannot overwrite a change made on the sheet.
 */
export function combatantOf(doc, id) {
  const combat = tableState(doc).combat;
  if (!combat || combat.phase === "over") return null;
  return combat.combatants.find((x) => x.character_id === id) ?? null;
}

/** The character as the rules see it now: its fight's PV and down state while in a fight. */
export function effective(doc, c) {
  const fighter = c && combatantOf(doc, c.id);
  return fighter ? { ...c, pv: Math.min(fighter.pv, c.pv_max), down: fighter.down } : c;
}

/** The combat state with these characters' PV copied onto their combatants (null: no change). */
export async function syncedCombat(app, changed) {
  let combat = tableState(app.doc).combat;
  let touched = false;
  for (const ch of changed) {
    if (!ch || !combatantOf(app.doc, ch.id)) continue;
    const r = await app.call({ op: "unicreon.combat.sync", state: combat, character: ch });
    if (!r.error) { combat = r.state; touched = true; }
  }
  return touched ? combat : null;
}

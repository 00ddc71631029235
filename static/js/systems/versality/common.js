// Versality UI: shared helpers. The rules live in Python (tablee.systems.versality);
// this file only names the ids the sheet lays out before the engine is ready. The table
// state (catastrophe, tokens, power uses: the MJ's) is read by table.js and mj.js only;
// player pages use table.js's player view and player calls (the phone is handed around).

import { html } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, has, language, t, tn } from "../../i18n.js";
import { ensureCardStyles } from "../../views/cards.js";
import { checkCache, findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { engineChange, engineData, fieldProblems, loadStylesheet } from "../../views/ui.js";
import { replaceCharacter } from "../../views/characters.js";

export { replaceCharacter };

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

export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);

/** Creation is validated once (versality.character.finish sets `created`): its cards are then locked. */
export function isCreated(character) {
  return character?.created === true;
}

export { tn }; // the pages import it from here with the rest of Versality's helpers

/** Points left of a budget, never negative: past it, how many points too many. */
export function budgetLine(left, total) {
  return left < 0 ? tn("versality.ui.points_over", -left) : tn("versality.ui.points_left", left, { total });
}

// Status lines cleared on navigation: shared with the other systems (views/ui.js).
export { onNavigate, transientApp } from "../../views/ui.js";

export function tone(kind) {
  if (kind === "echec-critique") return "critical";
  return SUCCESS.has(kind) ? "success" : "failure";
}

export const outcomeLabel = (kind) => t(`versality.outcome.${kind}`);

/** Each rung of the ladder has its own symbol (shape, not only colour: filled triangles up for
 * a success, down for a failure, hollow for the "mais" ones, a cross for the échec critique). */
export const KIND_SYMBOL = new Map([
  ["oui-et", "▲▲"], ["oui", "▲"], ["oui-mais", "△"], ["non-mais", "▽"], ["non-et", "▼"], ["echec-critique", "✖"],
]);

/** A Versality card's face (views/cards.js): the outcome's word, its symbol, its colour
 * (cards.css, by data-kind), named by its word for a screen reader ("Oui, et…"). */
export const cardFace = (card) => ({
  label: outcomeLabel(card.kind),
  tone: tone(card.kind),
  note: "",
  symbol: KIND_SYMBOL.get(card.kind) ?? "",
  face: "versality",
  aria: outcomeLabel(card.kind),
});

export function ready(app) {
  return app.engineAnswers();
}

export function nameOf(c) {
  return c.name?.trim() || t("versality.ui.unnamed");
}

/** Field problems of versality.character.check, laid out at their field (ids "vs-err-…"). */
export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("vs");

const rawCheck = checkCache("versality.character.check");
const localized = new WeakMap();

/** Error params that are rule ids ("combattre", "physique", "non-mais") shown by their label. */
const PARAM_LABELS = { skill: "versality.skill", characteristic: "versality.characteristic", kind: "versality.outcome" };

function readableParams(params = {}) {
  const out = { ...params };
  for (const [name, prefix] of Object.entries(PARAM_LABELS)) {
    if (typeof out[name] === "string" && has(`${prefix}.${out[name]}`)) out[name] = t(`${prefix}.${out[name]}`);
  }
  return out;
}

/** An engine error in words, its skill/characteristic/card params by their label. */
export function vsError(error) {
  return error ? errorMessage({ ...error, params: readableParams(error.params) }) : "";
}

/** versality.character.check, re-run whenever the sheet changes (the previous answer
 * meanwhile); problem params name skills and characteristics by their label. */
export function checkOf(app, c) {
  const r = rawCheck(app, c);
  if (!r?.problems) return r;
  const cached = localized.get(r);
  if (cached?.lang === language()) return cached.value;
  const value = { ...r, problems: r.problems.map((p) => ({ ...p, params: readableParams(p.params) })) };
  localized.set(r, { lang: language(), value });
  return value;
}

export function backLink(href, label) {
  return html`<p class="vs-back"><a href=${href}>← ${label}</a></p>`;
}

/** The request's characters (the sheet's `character`, a heal's `healer` and `target`). */
const ROLES = ["character", "healer", "target"];

/** A character op (improve, wound, heal) run on the characters as they are in the latest
 * table, read again by id when its turn comes (never the copy the page held when clicked),
 * the characters it answers written only if none of them changed meanwhile (views/ui.js
 * engineChange). Resolves with the answer once saved, or null (the error is in `holder`). */
export function characterOp(app, holder, request) {
  const ids = Object.fromEntries(ROLES.filter((k) => request[k]?.id).map((k) => [k, request[k].id]));
  return engineChange(app, holder, {
    request: (doc) => {
      const req = { ...request };
      for (const [k, id] of Object.entries(ids)) {
        req[k] = findCharacter(doc, id);
        if (!req[k]) return null;
      }
      return req;
    },
    basis: (doc) => Object.values(ids).map((id) => findCharacter(doc, id)),
    apply: (doc, r) => {
      for (const k of ROLES) if (r[k]?.id && findCharacter(doc, r[k].id)) replaceCharacter(doc, r[k]);
    },
    shallow: true,
  });
}

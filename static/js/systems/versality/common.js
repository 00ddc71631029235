// Versality UI: shared helpers. The rules live in Python (tablee.systems.versality);
// this file only names the ids the sheet lays out before the engine is ready and reads
// the table document. Player-facing modules never read catastrophe, tokens or power uses:
// only mj.js does (the phone is handed around on the player view).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, t } from "../../i18n.js";
import { ensureCardStyles } from "../../views/cards.js";

export const SYSTEM = "versality";
/** Layout order of the sheet; the rules op (versality.rules) gives the same lists. */
export const CHARACTERISTICS = ["physique", "mental", "personnalite"];
export const SKILLS = ["traquer", "survivre", "terroriser", "combattre", "soulager", "comprendre", "fureter", "resister"];
export const DIFFICULTIES = ["facile", "conventionnelle", "inhabituelle", "complexe", "epique"];
/** Card kinds best first (display order only). */
export const KINDS = ["oui-et", "oui", "oui-mais", "non-mais", "non-et"];
const SUCCESS = new Set(["oui-et", "oui", "oui-mais"]);

let cssLoaded = false;
export function ensureStyles() {
  ensureCardStyles();
  if (cssLoaded) return;
  cssLoaded = true;
  document.head.append(
    Object.assign(document.createElement("link"), {
      rel: "stylesheet",
      href: new URL("../../../css/versality.css", import.meta.url).href,
    }),
  );
}

/** The rules as data, fetched once from the engine (prices, creation budgets, bands). */
export const rulesCache = { data: null, pending: false };
export function rules(app) {
  if (!rulesCache.data && !rulesCache.pending && app.engine.state === "ready") {
    rulesCache.pending = true;
    app.call({ op: "versality.rules" }).then((r) => {
      rulesCache.pending = false;
      if (!r.error) {
        rulesCache.data = r;
        app.rerender();
      }
    });
  }
  return rulesCache.data;
}

export const EMPTY_STATE = Object.freeze({ catastrophe: 0, tokens: 0, session: 0, power_uses: [], decks: {}, pending: {} });

/** The whole Versality table state (MJ data included): pass it to the ops, never display it here. */
export function tableState(doc) {
  return doc.systems?.versality ?? structuredClone(EMPTY_STATE);
}

export function saveState(app, state) {
  app.update((doc) => {
    doc.systems.versality = state;
  });
}

export function characters(doc) {
  return doc.characters.filter((c) => c.system === SYSTEM);
}

export function findCharacter(doc, id) {
  return doc.characters.find((c) => c.system === SYSTEM && c.id === id) ?? null;
}

export function replaceCharacter(doc, character) {
  const i = doc.characters.findIndex((c) => c.id === character.id);
  if (i >= 0) doc.characters[i] = character;
}

/** Creation is validated once (versality.character.finish sets `created`): its cards are then locked. */
export function isCreated(character) {
  return character?.created === true;
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

/** The problems of a check response on one field (exact) or under it (prefix). */
export function problemsAt(check, field, { under = false } = {}) {
  if (!check?.problems) return [];
  return check.problems.filter((p) => p.field === field || (under && p.field.startsWith(`${field}.`)));
}

export function fieldId(field) {
  return `vs-err-${field.replace(/[^a-z0-9]+/gi, "-")}`;
}

/** `<p class="field-error">` for the problems of a field (always rendered: stable aria-describedby). */
export function fieldErrors(check, field, opts) {
  const list = problemsAt(check, field, opts);
  return html`<p class="field-error" id=${fieldId(field)} data-field=${field}>${list.map((p, i) => html`${i ? html`<br>` : nothing}${errorMessage(p)}`)}</p>`;
}

export function hasProblem(check, field, opts) {
  return problemsAt(check, field, opts).length > 0;
}

/** A character check cache: re-run versality.character.check whenever the sheet changes. */
const checks = new Map();
export function checkOf(app, character) {
  if (!character) return null;
  const key = JSON.stringify(character);
  const entry = checks.get(character.id);
  if (entry?.key === key) return entry.result;
  if (ready(app) && entry?.asked !== key) {
    checks.set(character.id, { ...entry, asked: key });
    app.call({ op: "versality.character.check", character }).then((result) => {
      const cur = checks.get(character.id);
      if (cur?.asked !== key) return;
      checks.set(character.id, { key, asked: key, result: result.error ? { error: result.error } : result });
      app.rerender();
    });
  }
  return entry?.result ?? null; // the previous answer while the new one comes
}

export function backLink(href, label) {
  return html`<p class="vs-back"><a href=${href}>← ${label}</a></p>`;
}

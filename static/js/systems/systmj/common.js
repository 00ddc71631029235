// SYSTMJ UI: shared helpers. Every rule lives in Python (tablee.systems.systmj); this file
// reads the table document, names the sheet's fields, and draws the status bar (phase and
// Chronoste) shown on every SYSTMJ screen.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, has, t } from "../../i18n.js";
import { checkCache, findSystemCharacter, systemCharacters } from "../../views/characters.js";
import { renderPair } from "../../views/faces.js";
import { engineChange, engineData, fieldProblems, loadStylesheet, probability, putSystem } from "../../views/ui.js";

export { replaceCharacter } from "../../views/characters.js";
export { requestCache } from "../../views/ui.js";

export const SYSTEM = "systmj";
/** Layout of the sheet (the systmj.rules op gives the same lists). */
export const PAIRS = [["physique", ["force", "resistance"]], ["mouvement", ["agilite", "rapidite"]], ["psychologie", ["intelligence", "personnalite"]]];
export const ATTRIBUTES = ["force", "resistance", "agilite", "rapidite", "intelligence", "personnalite", "chance"];
export const SKILL_GROUPS = [
  ["linguistiques", ["lire_ecrire", "parler"]],
  ["physiques", ["acrobatie", "danse", "nage"]],
  ["sante", ["cuisine", "premiers_soins"]],
  ["comportementale", ["dissimulation"]],
  ["sensorielles", ["detection", "sang_froid"]],
];
export const GENERIC_SKILLS = SKILL_GROUPS.flatMap(([, skills]) => skills);
export const KINDS = ["pj", "pnj", "creature"];
/** The skill scale, for the degree shown beside a score before the engine answers. */
const SCALE = [[0, "inapte"], [20, "debutant"], [35, "novice"], [50, "standard"], [65, "maitrise"], [79, "specialiste"], [89, "expert"], [98, "virtuose"], [99, "legendaire"]];

export function ensureStyles() {
  loadStylesheet(new URL("../../../css/systmj.css", import.meta.url).href);
}

/** The rules as data (modifier table, DA table, dice), fetched once. */
export const rules = engineData("systmj.rules");
const freshState = engineData("systmj.state.new");

export function ready(app) {
  return app.engineAnswers();
}

/** The SYSTMJ table state, or a fresh one (from the engine) when the table has none yet. */
export function tableState(app) {
  return app.doc.systems?.systmj ?? freshState(app)?.state ?? null;
}

/** An op on the latest SYSTMJ table state: `build(state)` gives the request (null: nothing to
 * do); its answer's state (and `also(doc, answer)`) is written only if the state it was
 * computed from is still the saved one, else asked again (views/ui.js engineChange): two quick
 * actions are both applied, in order, the second on the state the first left. The change is
 * named in the undo history by what it did (changeLabel), not "Table SYSTMJ modifiée". */
export function stateOp(app, holder, build, { errorKey, also } = {}) {
  return engineChange(app, holder, {
    request: () => {
      const state = tableState(app);
      return state ? build(state) : null;
    },
    basis: (doc) => doc.systems?.systmj ?? null,
    apply: (doc, r) => {
      putSystem(doc, "systmj", r.state);
      also?.(doc, r); // (must only replace values, as putSystem and replaceCharacter do)
    },
    shallow: true,
    errorKey,
    label: (answer, req, doc) => changeLabel(req, answer, doc),
  });
}

/** The gain of the session's learning rolls, the MJ's choice kept in the table state (2.4.1;
 * `systmj.session.gain`): what a roll made on a player's phone gains, and every roll's default. */
export const sessionGain = (doc) => doc.systems?.systmj?.learning_gain ?? "1";

/** The units of a Chronoste advance, each with its own words ("de 3 jours"). */
const ADVANCED = {
  minutes: "systmj.change.chronoste_minutes", hours: "systmj.change.chronoste_hours", days: "systmj.change.chronoste_days",
};

/**
 * What a change of the SYSTMJ table was, for the undo bar, the Table page's list and the log's
 * "Annulé : …" (app.update's `label`: {key, params}, names and numbers only, so the words are
 * those of the language shown): "Tour 2 révélé", "Carte EQ-00001 donnée à Léa", "Chronoste
 * avancé de 3 jours". `req` is the op's request, `answer` its answer, `doc` the table it ran on.
 * Null for an op it does not know (the change's paths then name it: "Table SYSTMJ modifiée").
 * A choice stays secret here too: "Choix fait pour Aldric", never which.
 */
export function changeLabel(req, answer, doc) {
  const who = (id) => nameOf(findCharacter(doc, id));
  const card = (number) => (doc.systems?.systmj?.library?.cards ?? []).find((c) => c.number === number);
  const round = (state) => state?.rounds?.round ?? state?.round ?? 1;
  const label = (key, params = {}) => ({ key: `systmj.change.${key}`, params });
  switch (req?.op) {
    case "systmj.universe.skill.add": return label("skill_added", { name: req.name });
    case "systmj.universe.set": return label("universe_named", { name: req.name });
    case "systmj.phase.next_round": return label("round_next", { n: round(answer.state) });
    case "systmj.phase.set": return req.phase === "jeu_libre" ? label("phase_free") : label("phase_action", { n: round(answer.state) });
    case "systmj.chronoste.advance": return Object.hasOwn(ADVANCED, req.unit) ? { key: ADVANCED[req.unit], params: { n: req.amount } } : label("chronoste_set");
    case "systmj.chronoste.set": return label("chronoste_set");
    case "systmj.chronoste.months": return label("chronoste_months");
    case "systmj.card.save": return label(req.card?.number ? "card_edited" : "card_created", { number: answer.card.number, name: answer.card.name });
    case "systmj.card.delete": return label("card_deleted", { number: req.number, name: card(req.number)?.name ?? "" });
    case "systmj.card.give": return label("card_given", { number: req.number, name: nameOf(req.character) });
    case "systmj.card.take": return label("card_taken", { number: req.number, name: nameOf(req.character) });
    case "systmj.card.learn": return label("card_learned", { number: req.number, name: nameOf(req.character) });
    case "systmj.wear.repair": return label("card_repaired", { number: req.number });
    case "systmj.wear.review": return label("wear_rolled", { session: req.state.session });
    case "systmj.session.close": return label("session_closed", { n: answer.state.session });
    case "systmj.session.gain": return req.gain === "1" ? label("session_gain_1") : label("session_gain", { gain: String(req.gain).toUpperCase() });
    case "systmj.round.start": return label("round_started", { n: round(answer.state) });
    case "systmj.round.choose": return label("round_chosen", { name: who(req.entity) });
    case "systmj.round.reveal": return label("round_revealed", { n: round(req.state) });
    case "systmj.round.next": return label("round_next", { n: round(answer.state) });
    case "systmj.round.end": return label("rounds_ended");
    case "systmj.round.order": return label("round_order", { n: round(req.state) });
    case "systmj.round.acted": return label("round_acted", { name: who(req.entity) });
    case "systmj.round.vitals": return label("round_vitals", { name: who(req.entity) });
    case "systmj.combat.exchange": return label(req.counter ? "counter_attack" : "attack", { a: who(req.attacker.id), d: who(req.defender.id) });
    default: return null;
  }
}

export const characters = (doc) => systemCharacters(doc, SYSTEM);
export const findCharacter = (doc, id) => findSystemCharacter(doc, SYSTEM, id);

export function nameOf(c) {
  return c?.name?.trim() || t("systmj.ui.unnamed");
}

/** The degree of a score on the skill scale (2.2). */
export function degreeOf(score) {
  return SCALE.find(([max]) => score <= max)?.[1] ?? "legendaire";
}
export const degreeLabel = (score) => t(`systmj.degree.${degreeOf(score)}`);

export const attrLabel = (k) => t(`systmj.attr.${k}`);
export const skillLabelGeneric = (k) => t(`systmj.skill.${k}`);

/** The table's special skills (a list; ids are "sp-…", matched with ===, never as object keys). */
export function specialSkills(state) {
  return state?.universe?.special_skills ?? [];
}

/** A skill's label: a generic skill by its name, a special skill by the table's name. */
export function skillLabel(state, key) {
  if (GENERIC_SKILLS.includes(key)) return skillLabelGeneric(key);
  return specialSkills(state).find((s) => s.id === key)?.name ?? key;
}

/** A score of an entity: generic skill, special skill (0 when absent) or attribute. */
export function scoreOf(c, target, key) {
  if (target === "attribute") return ATTRIBUTES.includes(key) ? c.attributes[key] : 0;
  if (GENERIC_SKILLS.includes(key)) return c.skills[key];
  return Object.hasOwn(c.special, key) ? c.special[key] : 0;
}

/** The entity with one score replaced (inside app.update: a copy). */
export function withScore(c, target, key, value) {
  const copy = structuredClone(c);
  if (target === "attribute") copy.attributes[key] = value;
  else if (GENERIC_SKILLS.includes(key)) copy.skills[key] = value;
  else if (value > 0) copy.special[key] = value;
  else delete copy.special[key];
  return copy;
}

/** A probability {fraction, percent}: the percent, the exact fraction beside it. */
export function prob(pr, testid) {
  if (!pr) return nothing;
  return probability(pr.fraction, pr.percent, { testid, cls: "sj-prob" });
}

/** The two d10 of a d100 as faces (views/faces.js): tens (dark, shown "40") then units (light),
 * named "Dizaines 4" / "Unités 7"; read 00–99 as the project does. */
export function renderD100(dice, label = "d100", { fresh = true } = {}) {
  return renderPair("d100", dice, { label, fresh });
}

/** A log "terms" entry for a d100 (the roll log lists the dice). */
export function d100Term(dice, text = "d100") {
  return { kind: "d100", text, sign: 1, dice: dice.map((value) => ({ value, kept: true })) };
}

/** Field problems (ids "sj-err-…"). */
export const { problemsAt, fieldId, fieldErrors, hasProblem } = fieldProblems("sj");
export const checkOf = checkCache("systmj.entity.check");

export function backLink(href, label) {
  return html`<p class="sj-back"><a href=${href}>← ${label}</a></p>`;
}

/** Error params naming a skill or attribute are shown by their label. */
export function sjError(error, state) {
  if (!error) return "";
  const params = { ...(error.params ?? {}) };
  if (typeof params.key === "string") params.key = ATTRIBUTES.includes(params.key) ? attrLabel(params.key) : skillLabel(state, params.key);
  if (typeof params.degree === "string" && has(`systmj.degree.${params.degree}`)) params.degree = t(`systmj.degree.${params.degree}`);
  return errorMessage({ ...error, params });
}

export function errorLine(error, state, testid = "sj-error") {
  return error ? html`<p class="field-error" role="alert" data-testid=${testid}>${sjError(error, state)}</p>` : nothing;
}

// ------------------------------------------------------------------ Chronoste and phase

/** The Chronoste's default calendar as the engine stores it (py/tablee/systems/systmj/data.py
 * DEFAULT_MONTHS, tests/systmj checks they agree): the Gregorian months (rules README, SYSTMJ:
 * "the table chooses the calendar's month names, default: the Gregorian months"). */
export const DEFAULT_MONTHS = [
  ["Janvier", 31], ["Février", 28], ["Mars", 31], ["Avril", 30], ["Mai", 31], ["Juin", 30],
  ["Juillet", 31], ["Août", 31], ["Septembre", 30], ["Octobre", 31], ["Novembre", 30], ["Décembre", 31],
];
/** Their names in the interface's language (French writes them in lower case in a sentence). */
const MONTH_KEYS = [
  "systmj.month.1", "systmj.month.2", "systmj.month.3", "systmj.month.4", "systmj.month.5", "systmj.month.6",
  "systmj.month.7", "systmj.month.8", "systmj.month.9", "systmj.month.10", "systmj.month.11", "systmj.month.12",
];

/** Whether the table kept the default calendar (names and days as the engine made them). */
export function defaultCalendar(months) {
  return months.length === DEFAULT_MONTHS.length && months.every((m, i) => m.name === DEFAULT_MONTHS[i][0] && m.days === DEFAULT_MONTHS[i][1]);
}

/** The calendar's months as the interface shows them: the default calendar in the interface's
 * language ("janvier", "January"); the names a table chose, as it wrote them. */
export function monthNames(months) {
  return defaultCalendar(months) ? MONTH_KEYS.map((key) => t(key)) : months.map((m) => m.name);
}

export function monthName(state, month) {
  return monthNames(state.chronoste.months)[month - 1] ?? String(month);
}

/** The day of the month as a date says it: French "1er" for the first, then "2", "3"… */
export function dayText(day) {
  return day === 1 ? t("systmj.ui.first_day") : String(day);
}

export function clockText(minute) {
  const h = Math.floor(minute / 60);
  return `${String(h).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

export function isDay(minute) {
  const h = Math.floor(minute / 60);
  return h >= 6 && h < 20;
}

/** "1er janvier, an 1 — 08:00 (jour)", "2 janvier…"; in English "1 January, year 1…". */
export function timeText(state, at = state.chronoste) {
  return t("systmj.ui.datetime", {
    day: dayText(at.day), month: monthName(state, at.month), year: at.year, time: clockText(at.minute),
    period: t(isDay(at.minute) ? "systmj.ui.day" : "systmj.ui.night"),
  });
}

export function phaseText(state) {
  return state.phase === "action_mouvement"
    ? t("systmj.ui.phase_round", { phase: t("systmj.phase.action_mouvement"), round: state.round })
    : t("systmj.phase.jeu_libre");
}

/** The status bar on every SYSTMJ screen: the phase of play and the Chronoste's time. */
export function statusBar(app) {
  const state = tableState(app);
  if (!state) return nothing;
  return html`<p class="sj-status" data-testid="sj-status">
    <span data-testid="sj-phase">${phaseText(state)}</span>
    <span aria-hidden="true"> · </span>
    <a href="#/systmj/chronoste" data-testid="sj-time">${timeText(state)}</a>
    <span aria-hidden="true"> · </span>
    <span>${t("systmj.ui.session_n", { n: state.session })}</span>
  </p>`;
}


// The table's card library (#/systmj/cards): the four families of section 4 as forms with the
// text's closed lists, cards rendered as printable cards, given to a character and taken
// back, repaired (wear). Every rule (numbers, fields, wear scale) is in Python
// (tablee.systems.systmj.library / wear); this page collects the form and draws the cards.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { has, t } from "../../i18n.js";
import { ensureCardStyles } from "../../views/cards.js";
import { liveCharacters } from "../../live/private.js";
import { livePlayer, playerHides } from "../../views/player-gate.js";
import { newSeed } from "../../storage.js";
import { engineChange, engineData, onNavigate, putSystem, requestCache, onUndo } from "../../views/ui.js";
import {
  backLink, changeLabel, characters, errorLine, findCharacter, nameOf, ready, replaceCharacter, sessionGain, stateOp,
  tableState,
} from "./common.js";

export const cardRules = engineData("systmj.cards.rules");

/** Which form control each field is: text, number, one of a list, several of a list. */
const FIELDS = {
  equipement: [
    ["types", "multi", (r) => r.eq_types], ["categories", "multi", (r, f) => f.types.flatMap((x) => r.eq_categories[x] ?? [])],
    ["quality", "one", (r) => r.qualities], ["size", "one", (r) => r.sizes], ["weight", "text"], ["slot", "text"],
    ["load", "text"], ["att", "number"], ["def", "number"], ["er_skills", "text"], ["pu", "number"],
    ["damage", "damage"], ["pa_bonus", "number"], ["range", "text"], ["ammunition", "text"],
    ["charge_duration", "text"], ["effect_duration", "text"], ["worn", "bool"],
  ],
  ressource: [
    ["type", "one", (r) => Object.keys(r.re_types)], ["subtype", "one", (r, f) => r.re_types[f.type] ?? []],
    ["effect_duration", "text"], ["conservation", "text"], ["owner", "text"], ["surface", "text"], ["location", "text"],
  ],
  savoir: [
    ["type", "one", (r) => r.sa_types], ["author", "text"], ["language", "text"], ["weight", "text"], ["pu", "number"],
    ["requires", "text"], ["skills", "list"],
  ],
  pouvoir: [
    ["types", "multi", (r) => r.po_types], ["families", "list"], ["da", "one", () => [1, 2, 3, 4, 5]], ["cost", "text"],
    ["score", "number"],
  ],
};
const FAMILY_ORDER = ["equipement", "ressource", "savoir", "pouvoir"];

const ui = { family: "equipement", form: null, editing: null, error: null, busy: false, give: new Map(), repair: new Map(), gain: new Map(), learned: new Map() };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => { ui.learned.clear(); ui.error = null; });
onNavigate(() => Object.assign(ui, { error: null }));
const learnOdds = requestCache();

/** Delete a card of the library (never a held one: the engine refuses it; the number is never
 * given again). */
async function deleteCard(app, card) {
  if (!confirm(t("systmj.ui.confirm_delete", { name: `${card.number} ${card.name}` }))) return;
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.card.delete", state, number: card.number }));
  if (!r) return;
  app.notify("status", t("systmj.cards.deleted", { number: card.number }));
}

/** The gain of a card's learning: the MJ's to grant (2.4.1), the session's unless chosen
 * here for this card. On a player's phone at a live table the MJ's device rolls it with the
 * session's gain (py/tablee/referee.py `_sj_gain`), so the page offers no other there. */
function gainOf(app, number) {
  return liveCharacters() !== null ? sessionGain(app.doc) : ui.gain.get(number) ?? sessionGain(app.doc);
}

/** The request that learns a Pouvoir card held by `holder` (4.4, 2.4): odds, then the roll. */
function learnRequest(app, card) {
  const who = findCharacter(app.doc, card.holder);
  if (!who) return null;
  return { state: tableState(app), character: who, number: card.number, gain: gainOf(app, card.number) };
}

/** The roll, on the card and its holder as saved when its turn comes (views/ui.js
 * engineChange): the card's new score and the learner's sheet (the roll in its progress) are
 * written only if neither changed while the engine answered, so two quick presses are one roll
 * and a refusal (once per card and session, systmj.learning.once_per_session), never two. */
async function learn(app, card) {
  if (!learnRequest(app, card)) return;
  const seed = newSeed();
  const gain = gainOf(app, card.number);
  const holderOf = (doc) => library(doc.systems?.systmj).find((x) => x.number === card.number)?.holder ?? "";
  let logged = null;
  let who = null;
  const r = await engineChange(app, ui, {
    request: (doc) => {
      const state = tableState(app);
      who = findCharacter(doc, holderOf(doc));
      if (!state || !who) return null;
      const request = { op: "systmj.card.learn", state, character: who, number: card.number, gain, seed };
      logged = { ...request };
      delete logged.state;
      return request;
    },
    basis: (doc) => [doc.systems?.systmj ?? null, findCharacter(doc, holderOf(doc))],
    apply: (doc, answer) => {
      putSystem(doc, "systmj", answer.state);
      // The roll in the learner's progress: a second one this session is refused (2.4.1).
      replaceCharacter(doc, answer.character);
    },
    shallow: true,
    label: (answer, req, doc) => changeLabel(req, answer, doc),
  });
  if (!r) return;
  ui.learned.set(card.number, r);
  // The log keeps what the entry needs: the learner's sheet and the card's number, no state.
  app.addLog({ kind: "systmj.card.learn", system: "systmj", who: nameOf(who), label: t("systmj.cards.learn_log", { name: card.name }),
    request: logged,
    result: { summary: t("systmj.ui.learn_gain", { gain: t(`systmj.gain.${r.gain}`), points: r.gained ?? r.points, before: r.before, after: r.after }),
      terms: [{ kind: "dice", text: "1D100", sign: 1, dice: [{ value: r.roll, kept: true }] }] } });
}

/** Learning controls of a held Pouvoir card: the gain, the exact chances, the roll. */
function learnControls(app, card) {
  if (card.family !== "pouvoir" || !card.holder) return nothing;
  const req = learnRequest(app, card);
  const odds = req && ready(app) ? learnOdds(app, { op: "systmj.card.learn.odds", ...req }) : null;
  const done = ui.learned.get(card.number);
  const gains = ["1", "1d4", "1d10", "1d20"];
  return html`<div class="row sj-card-learn" data-testid="sj-learn">
    <label for=${`sj-learn-gain-${card.number}`}>${t("systmj.ui.gain")}</label>
    <select id=${`sj-learn-gain-${card.number}`} ?disabled=${liveCharacters() !== null} @change=${(e) => { ui.gain.set(card.number, e.target.value); app.rerender(); }}>
      ${gains.map((g) => html`<option value=${g} ?selected=${gainOf(app, card.number) === g}>${t(`systmj.gain.${g}`)}</option>`)}
    </select>
    ${odds && !odds.error ? html`<span class="muted small" data-testid="sj-learn-odds">${t("systmj.cards.learn_odds", { limit: odds.limit, chance: odds.improve.percent })}</span>`
      : odds?.error ? errorLine(odds.error, tableState(app), `sj-learn-error-${card.number}`) : nothing}
    <button type="button" data-testid="sj-learn-roll" ?disabled=${!ready(app) || ui.busy || Boolean(odds?.error)} @click=${() => learn(app, card)}>${t("systmj.cards.learn")}<span class="visually-hidden"> ${card.number}</span></button>
    ${done ? html`<span aria-live="polite" data-testid="sj-learn-result">${t("systmj.ui.learn_gain", { gain: t(`systmj.gain.${done.gain}`), points: done.gained ?? done.points, before: done.before, after: done.after })}</span>` : nothing}
  </div>`;
}

function blank(r, family) {
  return { family, name: "", description: "", ...structuredClone(r.defaults[family]) };
}

function library(state) {
  return state?.library?.cards ?? [];
}

/** The request's card from the form: numbers as numbers when they are whole numbers (the
 * engine refuses anything else at its field); lists split on commas. */
function formCard(form) {
  const card = {};
  for (const [k, v] of Object.entries(form)) {
    if (k === "_text") continue;
    card[k] = v;
  }
  for (const [key, kind] of FIELDS[form.family]) {
    if (kind === "number") card[key] = /^\s*-?\d{1,4}\s*$/.test(String(form[key])) ? Number(form[key]) : String(form[key]);
    if (kind === "damage") card[key] = form[key].map((x) => (/^\s*\d{1,4}\s*$/.test(String(x)) ? Number(x) : String(x)));
    if (kind === "list") card[key] = String(form._text?.[key] ?? form[key].join(", ")).split(",").map((s) => s.trim()).filter(Boolean);
    if (key === "da") card[key] = Number(form[key]);
  }
  return card;
}

async function saveCard(app, event) {
  event.preventDefault();
  const card = formCard(ui.form);
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.card.save", state, card }));
  if (!r) return;
  ui.form = null;
  ui.editing = null;
  app.rerender();
  app.notify("status", t("systmj.cards.saved", { number: r.card.number, name: r.card.name }));
}

/** An op on the latest state and the latest sheet of the character `id` (give, take back):
 * both written only if neither changed while the engine answered (views/ui.js engineChange). */
function cardHolderOp(app, id, build) {
  return engineChange(app, ui, {
    request: (doc) => {
      const who = findCharacter(doc, id);
      const state = tableState(app);
      return who && state ? build(state, who) : null;
    },
    basis: (doc) => [doc.systems?.systmj ?? null, findCharacter(doc, id) ?? null],
    apply: (doc, r) => {
      putSystem(doc, "systmj", r.state);
      replaceCharacter(doc, r.character);
    },
    shallow: true,
    label: (answer, req, doc) => changeLabel(req, answer, doc),
  });
}

async function give(app, number) {
  const id = ui.give.get(number) ?? "";
  const who = findCharacter(app.doc, id);
  if (!who) return;
  const r = await cardHolderOp(app, id, (state, character) => ({ op: "systmj.card.give", state, character, number }));
  if (!r) return;
  app.notify("status", t("systmj.cards.given", { number, name: nameOf(who) }));
}

async function takeBack(app, number, holder) {
  if (!findCharacter(app.doc, holder)) return;
  await cardHolderOp(app, holder, (state, character) => ({ op: "systmj.card.take", state, character, number }));
}

async function repair(app, number) {
  const points = Number(ui.repair.get(number) ?? "0");
  const r = await stateOp(app, ui, (state) => ({ op: "systmj.wear.repair", state, number, points: Number.isInteger(points) && points > 0 ? points : 0 }));
  if (!r) return;
  app.notify("status", t("systmj.cards.repaired", { number, pu: r.after.pu }));
}

const label = (field) => t(`systmj.cardf.${field}`);
const value = (v) => (v === "" ? t("systmj.cv.none") : t(`systmj.cv.${v}`));

/** A wear scale row for a PU, from the rules (degree and malus). */
export function wearOf(r, pu) {
  return r?.wear_scale.find((w) => pu >= w.min && pu <= w.max) ?? null;
}

/** The four families of the library (section 4.1–4.4), each with its own symbol and band
 * colour (cards.css, by data-family) beside its word: colour is never the only cue. */
export const FAMILY_SYMBOL = new Map([["equipement", "⚒"], ["ressource", "⚗"], ["savoir", "✎"], ["pouvoir", "✦"]]);

/** One card drawn as a card (printable): its family band (symbol, word, number), name and
 * every filled field; a screen reader names it "Équipement EQ-00001, Épée longue". */
export function renderCardFace(r, card, holderName) {
  const shown = FIELDS[card.family].filter(([key, kind]) => {
    const v = card[key];
    if (kind === "bool") return v;
    if (Array.isArray(v)) return v.length && (kind !== "damage" || v.some((x) => x));
    return v !== "" && v !== 0;
  });
  const wear = "pu" in card ? wearOf(r, card.pu) : null;
  const show = (key, kind) => {
    const v = card[key];
    if (kind === "damage") return html`<span class="sj-damage">${v.map((x, i) => html`<span><small>${["1-2", "3-4", "5-6"][i]}</small> ${x}</span>`)}</span>`;
    if (kind === "multi") return v.map(value).join(", ");
    if (kind === "one" && key !== "da") return value(v);
    if (kind === "bool") return t("systmj.cards.yes");
    if (kind === "list") return v.join(", ");
    return String(v);
  };
  return html`<article class="sj-card sj-card-${card.family}" data-testid="sj-card" data-number=${card.number}
    data-family=${card.family} aria-labelledby=${`sj-card-${card.number}-family sj-card-${card.number}-number sj-card-${card.number}`}>
    <header><span class="sj-card-family" id=${`sj-card-${card.number}-family`}><span class="sj-card-symbol" aria-hidden="true">${FAMILY_SYMBOL.get(card.family) ?? ""}</span>${t(`systmj.family.${card.family}`)}</span>
      <span class="sj-card-number" id=${`sj-card-${card.number}-number`}>${card.number}</span></header>
    <h3 id=${`sj-card-${card.number}`}>${card.name}</h3>
    <dl>
      ${shown.map(([key, kind]) => html`<div><dt>${label(key)}</dt><dd data-field=${key}>${show(key, kind)}</dd></div>`)}
      ${wear ? html`<div><dt>${t("systmj.cards.wear")}</dt><dd data-field="wear">${t(`systmj.wear.${wear.degree}`)}${wear.malus ? ` (${wear.malus})` : ""}</dd></div>` : nothing}
    </dl>
    ${card.description ? html`<p class="sj-card-desc">${card.description}</p>` : nothing}
    <footer class="muted small" data-testid="sj-card-holder">${card.holder ? t("systmj.cards.held_by", { name: holderName }) : t("systmj.cards.in_library")}</footer>
  </article>`;
}

/** What a field is for (section 4.1–4.4), under the field; a family's own reading first. */
function fieldHelp(family, key) {
  const own = `systmj.cardh.${family}.${key}`;
  if (has(own)) return t(own);
  return has(`systmj.cardh.${key}`) ? t(`systmj.cardh.${key}`) : "";
}

function control(app, r, form, [key, kind, options]) {
  const id = `sj-cf-${key}`;
  const help = kind === "list" ? "" : fieldHelp(form.family, key);
  const helpLine = help ? html`<p class="muted small sj-field-help" id=${`${id}-help`}>${help}</p>` : nothing;
  const described = help ? `sj-card-error-box ${id}-help` : "sj-card-error-box";
  // The field the engine refused (its message is under the form, naming the field).
  const bad = (ui.error?.params?.field ?? "").split(".")[0] === key ? "true" : "false";
  const rerender = () => app.rerender();
  if (kind === "text") {
    return html`<div class="field"><label for=${id}>${label(key)}</label><input id=${id} maxlength="120" aria-invalid=${bad} aria-describedby=${described} .value=${form[key]} @input=${(e) => { form[key] = e.target.value; }}>${helpLine}</div>`;
  }
  if (kind === "number") {
    return html`<div class="field"><label for=${id}>${label(key)}</label><input id=${id} inputmode="numeric" aria-invalid=${bad} aria-describedby=${described} .value=${String(form[key])} @input=${(e) => { form[key] = e.target.value; }}>${helpLine}</div>`;
  }
  if (kind === "bool") {
    return html`<div class="field"><label><input type="checkbox" id=${id} aria-describedby=${help ? `${id}-help` : nothing} .checked=${form[key]} @change=${(e) => { form[key] = e.target.checked; }}> ${label(key)}</label>${helpLine}</div>`;
  }
  if (kind === "one") {
    const list = options(r, form);
    return html`<div class="field"><label for=${id}>${label(key)}</label><select id=${id} aria-describedby=${help ? `${id}-help` : nothing} @change=${(e) => { form[key] = key === "da" ? Number(e.target.value) : e.target.value; if (key === "type") form.subtype = (r.re_types[form.type] ?? [""])[0]; rerender(); }}>
      ${list.map((v) => html`<option value=${String(v)} ?selected=${String(v) === String(form[key])}>${key === "da" ? t(`systmj.da.${v}`) : value(v)}</option>`)}</select>${helpLine}</div>`;
  }
  if (kind === "multi") {
    const list = options(r, form);
    if (!list.length) return nothing;
    return html`<fieldset class="sj-wide" aria-invalid=${bad} aria-describedby=${help ? `${id}-help sj-card-error-box` : "sj-card-error-box"}><legend>${label(key)}</legend>${helpLine}<div class="sj-checks">
      ${list.map((v) => html`<label><input type="checkbox" name=${key} value=${v} .checked=${form[key].includes(v)} @change=${(e) => {
        form[key] = e.target.checked ? [...form[key], v] : form[key].filter((x) => x !== v);
        if (key === "types") form.categories = form.categories.filter((c) => form.types.some((ty) => (r.eq_categories[ty] ?? []).includes(c)));
        rerender();
      }}> ${value(v)}</label>`)}</div></fieldset>`;
  }
  if (kind === "damage") {
    return html`<fieldset class="sj-wide" aria-describedby=${help ? `${id}-help` : nothing}><legend>${label(key)}</legend>${helpLine}<div class="sj-damage-form">
      ${["1-2", "3-4", "5-6"].map((band, i) => html`<div class="field"><label for=${`${id}-${i}`}>${t("systmj.cards.d6", { band })}</label>
        <input id=${`${id}-${i}`} inputmode="numeric" aria-invalid=${bad} aria-describedby="sj-card-error-box" .value=${String(form[key][i])} @input=${(e) => { form[key][i] = e.target.value; }}></div>`)}
    </div></fieldset>`;
  }
  // list: comma-separated text
  form._text ??= {};
  return html`<div class="field sj-wide"><label for=${id}>${label(key)}</label><input id=${id} maxlength="400" .value=${form._text[key] ?? form[key].join(", ")}
    aria-describedby=${`${id}-help`} @input=${(e) => { form._text[key] = e.target.value; }}><p class="muted small" id=${`${id}-help`}>${t(`systmj.cards.help_${key}`)}</p></div>`;
}

function cardForm(app, r, state) {
  const form = ui.form;
  const errField = ui.error?.params?.field ?? "";
  return html`<form class="card" aria-labelledby="sj-cform-title" @submit=${(e) => saveCard(app, e)} data-testid="sj-card-form">
    <h2 id="sj-cform-title" tabindex="-1">${ui.editing ? t("systmj.cards.edit_title", { number: ui.editing }) : t("systmj.cards.new_title", { family: t(`systmj.family.${form.family}`) })}</h2>
    <p class="muted" data-testid="sj-family-for">${t(`systmj.family_for.${form.family}`)}</p>
    <div class="sj-grid">
      <div class="field sj-wide"><label for="sj-cf-name">${t("systmj.cards.name")}</label>
        <input id="sj-cf-name" maxlength="80" .value=${form.name} aria-invalid=${errField === "name" || ui.error?.code === "systmj.card.name_empty" ? "true" : "false"} aria-describedby="sj-card-error-box" @input=${(e) => { form.name = e.target.value; }}></div>
      ${FIELDS[form.family].map((f) => control(app, r, form, f))}
      <div class="field sj-wide"><label for="sj-cf-description">${t("systmj.cards.description")}</label>
        <textarea id="sj-cf-description" maxlength="2000" rows="3" .value=${form.description} @input=${(e) => { form.description = e.target.value; }}></textarea></div>
    </div>
    <div class="row"><button type="submit" class="primary" id="sj-card-save" ?disabled=${!ready(app) || ui.busy}>${t("systmj.cards.save")}</button>
      <button type="button" @click=${() => { ui.form = null; ui.editing = null; ui.error = null; app.rerender(); }}>${t("systmj.ui.cancel")}</button></div>
    <div aria-live="polite" id="sj-card-error-box">${errorLine(ui.error && errField ? { ...ui.error, params: { ...ui.error.params, field: label(errField.split(".")[0]) } } : ui.error, state, "sj-card-error")}</div>
  </form>`;
}

function cardActions(app, r, card) {
  const pcs = characters(app.doc);
  const number = card.number;
  return html`<div class="row sj-card-actions no-print">
    ${playerHides(html`<button type="button" @click=${() => { ui.form = { ...structuredClone(card) }; delete ui.form.holder; ui.editing = number; ui.family = card.family; app.rerender(); }}>${t("systmj.cards.edit")}<span class="visually-hidden"> ${number}</span></button>`)}
    ${card.holder
      ? html`<button type="button" data-testid="sj-take" ?disabled=${!ready(app) || ui.busy} @click=${() => takeBack(app, number, card.holder)}>${t("systmj.cards.take_back")}<span class="visually-hidden"> ${number}</span></button>`
      : html`<label class="visually-hidden" for=${`sj-give-${number}`}>${t("systmj.cards.give_to", { number })}</label>
        <select id=${`sj-give-${number}`} data-testid="sj-give-who" @change=${(e) => ui.give.set(number, e.target.value)}>
          <option value="">${t("systmj.cards.choose_holder")}</option>
          ${pcs.map((c) => html`<option value=${c.id} ?selected=${ui.give.get(number) === c.id}>${nameOf(c)}</option>`)}
        </select>
        <button type="button" data-testid="sj-give" ?disabled=${!ready(app) || ui.busy} @click=${() => give(app, number)}>${t("systmj.cards.give")}<span class="visually-hidden"> ${number}</span></button>`}
    ${"pu" in card && !livePlayer() ? html`<label class="visually-hidden" for=${`sj-repair-${number}`}>${t("systmj.cards.repair_points", { number })}</label>
      <input id=${`sj-repair-${number}`} class="sj-small" inputmode="numeric" placeholder=${t("systmj.cards.pu")} @input=${(e) => ui.repair.set(number, e.target.value)}>
      <button type="button" ?disabled=${!ready(app)} @click=${() => repair(app, number)}>${t("systmj.cards.repair")}<span class="visually-hidden"> ${number}</span></button>` : nothing}
    ${card.holder || livePlayer() ? nothing : html`<button type="button" class="danger" data-testid="sj-card-delete" ?disabled=${!ready(app) || ui.busy} @click=${() => deleteCard(app, card)}>${t("systmj.ui.delete")}<span class="visually-hidden"> ${number}</span></button>`}
  </div>
  ${learnControls(app, card)}`;
}

/** Open a new card of `family` and bring its form to the person. */
function newCard(app, r, family) {
  ui.family = family;
  ui.form = blank(r, family);
  ui.error = null;
  app.rerender();
  requestAnimationFrame(() => {
    const title = document.getElementById("sj-cform-title");
    title?.focus({ preventScroll: true });
    title?.scrollIntoView({ block: "start" });
  });
}

/** An empty library: what each of the four families is for (4.1–4.4), each opening a new card. */
function emptyLibrary(app, r) {
  return html`<section class="card" aria-labelledby="sj-empty-title" data-testid="sj-empty-library">
    <h2 id="sj-empty-title">${t("systmj.cards.empty_title")}</h2>
    <p class="muted">${t("systmj.cards.empty_help")}</p>
    <ul class="sj-families">${FAMILY_ORDER.map((f) => html`<li class="sj-family sj-card-${f}" data-family=${f} data-testid="sj-family">
      <h3><span class="sj-card-symbol" aria-hidden="true">${FAMILY_SYMBOL.get(f)}</span> ${t(`systmj.family.${f}`)}</h3>
      <p class="small">${t(`systmj.family_for.${f}`)}</p>
      <button type="button" data-testid="sj-family-new" @click=${() => newCard(app, r, f)}>${t("systmj.cards.create_family", { family: t(`systmj.family.${f}`) })}</button>
    </li>`)}</ul>
  </section>`;
}

export function render(app) {
  ensureCardStyles();
  const state = tableState(app);
  const r = cardRules(app);
  if (!state || !r) return html`${backLink("#/systmj", t("systmj.ui.back"))}<p class="muted">${t("systmj.ui.engine_wait")}</p>`;
  const cards = library(state);
  const holder = (id) => nameOf(findCharacter(app.doc, id));
  return html`
    ${backLink("#/systmj", t("systmj.ui.back"))}
    <h1>${t("systmj.cards.title")}</h1>
    <p class="muted">${t("systmj.cards.intro")}</p>
    ${ui.form && !livePlayer() ? cardForm(app, r, state) : playerHides(html`<section class="card no-print" aria-labelledby="sj-cnew-title">
      <h2 id="sj-cnew-title">${t("systmj.cards.new")}</h2>
      <div class="row">
        <label for="sj-card-family">${t("systmj.cards.family")}</label>
        <select id="sj-card-family" @change=${(e) => { ui.family = e.target.value; }}>
          ${FAMILY_ORDER.map((f) => html`<option value=${f} ?selected=${ui.family === f}>${t(`systmj.family.${f}`)}</option>`)}
        </select>
        <button type="button" id="sj-card-new" @click=${() => newCard(app, r, ui.family)}>${t("systmj.cards.create")}</button>
        <button type="button" id="sj-card-print" @click=${() => window.print()}>${t("systmj.cards.print")}</button>
      </div>
      ${errorLine(ui.error, state)}
    </section>`)}
    ${cards.length ? html`<ul class="sj-cards" data-testid="sj-cards">${cards.map((c) => html`<li>${renderCardFace(r, c, holder(c.holder))}${cardActions(app, r, c)}</li>`)}</ul>`
      : ui.form || livePlayer() ? html`<p class="muted">${t("systmj.cards.empty")}</p>` : emptyLibrary(app, r)}
  `;
}

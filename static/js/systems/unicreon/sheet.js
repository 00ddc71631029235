// Unicreon character sheet: creation checked by unicreon.character.check (each problem at its
// field), skills, equipment (shop, encumbrance, uses, sell/remove, MJ's custom items) and health
// (damage, heal, rest, new adventure, poisons/diseases/infections, diagnosis, adventure day).

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { live } from "../../../vendor/lit-html/directives/live.js";
import { errorMessage, said, t, tn } from "../../i18n.js";
import { liveCharacters } from "../../live/private.js";
import { newSeed } from "../../storage.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { engineWhy, focusFirstInvalid, touchedForm, typedValue } from "../../views/forms.js";
import { callBusy, disabledWhy, engineChange, fieldLimit, refusalAt, onUndo } from "../../views/ui.js";
import {
  CHARACTERISTICS, SKILL_LEVELS, VALUES, backLink, charLabel, characters, checkOf, combatantOf, creationPay, d66Term, effective, errorLine,
  fieldErrors, fieldId, findCharacter, hasProblem, itemLabel, nameOf, oddsCache, prob, ready,
  renderD66, replaceCharacter, rulesData, skillText, statsLabel, syncedCombat, tableState, valueLabel,
} from "./common.js";

const SYSTEM_ID = "unicreon";
const TEXT_FIELDS = [
  ["name", 80, false], ["job", 200, false], ["origins", 500, true], ["story", 2000, true],
  ["description", 1000, true], ["don", 300, false], ["defaut", 300, false],
];
const SHOP_GROUPS = [
  ["bags", (d) => d.bags], ["gear", (d) => d.gear], ["weapons", (d) => d.weapons], ["armours", (d) => d.armours],
];

const ui = {
  id: null, error: null, message: null, busy: false, showSecret: false,
  skill: { name: "", level: "moyen" }, amount: 1, afflict: { kind: "poison", name: "" },
  healer: "", useTarget: "", poisonTarget: "", lastRoll: null, selling: null, finishError: null, errorAt: null, errorFrom: null,
  custom: { name: "", category: "gear", cost: 0, pe: 0, uses: "", heal: 0, bonus_steps: 0, characteristic: "agilite", kind: "fixed", value: 1, pay: false, cures: false,
    ranged: false, thrown: false, melee_ok: false, ideal: "", max: "" },
};
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: null, lastRoll: null, error: null }));
// Which of the check's problems are shown: a field's once it was left, all once the player
// tried to finish (views/forms.js).
const form = touchedForm();
const dayOdds = oddsCache();

function reset(id) {
  form.reset(id);
  if (ui.id === id) return;
  Object.assign(ui, { id, error: null, message: null, showSecret: false, healer: "", useTarget: "", poisonTarget: "", errorAt: null, lastRoll: null, selling: null, finishError: null });
}

/** Change the character `id`; `at` names the field it came from (a refusal is shown there). */
function edit(app, id, mutate, at = null) {
  return app.update((doc) => {
    const c = findCharacter(doc, id);
    if (c) mutate(c);
  }, { at });
}

const describedBy = (...fields) => fields.map(fieldId).join(" ");

/** Whether the sheet shows a problem at `field` beside its field (fieldErrors below). */
function shownAtAField(field) {
  return TEXT_FIELDS.some(([f]) => f === field) || ["secret", "characteristics", "inventory", "po"].includes(field)
    || /^(characteristics|inventory|skills\.\d+)\./.test(field) || /^skills\.\d+$/.test(field);
}
const clampInt = (value, lo, hi) => {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
};

/** Run an op that answers {character, ...}: store the character, say `message` (a function of
 * the answer, made again at each render so it follows a switch of language), or show the
 * error (beside the control `at` names — an item uid or "buy-<ref>" — when given). While a fight
 * is open, the PV the op returns are copied onto the combatants too (see common.effective). */
async function charOp(app, request, message, { after, at = null } = {}) {
  ui.errorAt = at;
  // The op runs on the character (and target) as they are in the latest table when its turn
  // comes, never on the copy the page held when clicked: a field edited meanwhile is kept.
  const id = request.character.id;
  const targetId = request.target?.id ?? null;
  const latest = (doc, cid) => effective(doc, findCharacter(doc, cid));
  const r = await engineChange(app, ui, {
    request: (doc) => {
      const character = latest(doc, id);
      if (!character) return null;
      const req = { ...request, character };
      if (targetId) {
        req.target = latest(doc, targetId);
        if (!req.target) return null;
      }
      return req;
    },
    call: async (req) => {
      const answer = await app.call(req);
      if (answer.error) return answer;
      return { ...answer, combat: await syncedCombat(app, [answer.character, answer.target]) };
    },
    basis: (doc) => [findCharacter(doc, id), targetId && findCharacter(doc, targetId), tableState(doc)?.combat],
    apply: (doc, answer) => {
      replaceCharacter(doc, answer.character);
      if (answer.target && answer.target.id !== answer.character.id) replaceCharacter(doc, answer.target);
      if (answer.combat) doc.systems.unicreon.combat = answer.combat;
      after?.(doc, answer);
    },
  });
  if (!r) {
    // A refusal about the characteristics (their sum is not 150 yet: the engine checks the sheet
    // before any op) belongs with them, not under the item chosen: it is shown there, and the
    // control clicked points to it.
    if (String(ui.error?.params?.field ?? "").startsWith("character.characteristics")) {
      ui.errorFrom = at;
      ui.errorAt = "characteristics";
      app.rerender();
    }
    return null;
  }
  ui.errorAt = null;
  ui.message = typeof message === "function" ? () => message(r) : message;
  app.rerender();
  return r;
}

/** The refusal of an op started from the control `at`, shown beside it (a live region); a
 * refusal that belongs with the characteristics is shown there, and here a button goes to it. */
function errorAt(at) {
  const elsewhere = ui.error && ui.errorAt === "characteristics" && ui.errorFrom === at;
  return html`<div class="uc-inline-status" role="status" aria-live="polite">${ui.error && ui.errorAt === at ? html`<p class="field-error" data-testid="uc-item-error">${errorMessage(ui.error)}</p>` : nothing}${elsewhere
    ? html`<p class="field-error" data-testid="uc-item-error">${t("unicreon.ui.refused_see_characteristics")}
        <button type="button" data-testid="uc-go-characteristics" @click=${goToCharacteristics}>${t("unicreon.ui.go_characteristics")}</button></p>` : nothing}</div>`;
}

function goToCharacteristics() {
  const first = document.querySelector("#uc-chars select");
  first?.scrollIntoView({ block: "center" });
  first?.focus();
}

/** "Terminer la création": unicreon.character.finish refuses while character.check has problems
 * (its refusal is shown beside the button); once `created`, check drops the creation-only rules. */
async function finish(app, c, raw) {
  // Problems left: show them all at their fields and go to the first (nothing is asked).
  if (raw && !raw.ok) {
    form.touchAll();
    app.rerender();
    focusFirstInvalid();
    return;
  }
  const r = await callBusy(app, ui, { op: "unicreon.character.finish", character: c, creation_pay: creationPay(app.doc) }, { errorKey: "finishError" });
  // finish only sets `created`: keep any edit typed while the engine answered.
  if (r) edit(app, c.id, (d) => { d.created = r.character.created; });
}

// ----------------------------------------------------------------------------- identity
function identity(app, c, check) {
  return html`<section class="card" aria-labelledby="uc-id-title">
    <h2 id="uc-id-title">${t("unicreon.ui.identity")}</h2>
    ${TEXT_FIELDS.map(([f, fallback, long]) => {
      const max = fieldLimit(app, SYSTEM_ID, f, fallback);
      const at = `uc-${f}`;
      const set = (e) => edit(app, c.id, (d) => { d[f] = Array.from(e.target.value).slice(0, max).join(""); }, at);
      return html`<div class="field">
      <label for=${at}>${t(`unicreon.field.${f}`)}</label>
      ${long
        ? html`<textarea id=${at} maxlength=${max} rows="2" .value=${typedValue(c[f])}
            aria-invalid=${hasProblem(check, f) ? "true" : "false"} aria-describedby=${`${describedBy(f)} ${at}-refusal`}
            @input=${set} @blur=${form.leave(app, f)}></textarea>`
        : html`<input id=${at} maxlength=${max} autocomplete="off" .value=${typedValue(c[f])}
            aria-invalid=${hasProblem(check, f) ? "true" : "false"} aria-describedby=${`${describedBy(f)} ${at}-refusal`}
            @input=${set} @blur=${form.leave(app, f)}>`}
      ${fieldErrors(check, f)}
      <div id=${`${at}-refusal`}>${refusalAt(app, at)}</div>
    </div>`;
    })}
    <div class="field uc-secret">
      <button type="button" id="uc-secret-toggle" aria-expanded=${ui.showSecret ? "true" : "false"} aria-controls="uc-secret-box"
        @click=${() => { ui.showSecret = !ui.showSecret; app.rerender(); }}>
        ${ui.showSecret ? t("unicreon.ui.hide_secret") : t("unicreon.ui.show_secret")}</button>
      <div id="uc-secret-box" ?hidden=${!ui.showSecret}>
        ${ui.showSecret ? html`<label for="uc-secret">${t("unicreon.field.secret")} <span class="muted small">(${t("unicreon.ui.optional")})</span></label>
          <textarea id="uc-secret" maxlength="1000" rows="2" .value=${typedValue(c.secret)}
            @input=${(e) => edit(app, c.id, (d) => { d.secret = e.target.value.slice(0, 1000); })}></textarea>` : nothing}
      </div>
      ${!ui.showSecret ? html`<p class="muted small">${c.secret ? t("unicreon.ui.secret_hidden") : t("unicreon.ui.secret_none")}</p>` : nothing}
      ${fieldErrors(check, "secret")}
    </div>
  </section>`;
}

// ----------------------------------------------------------------------------- characteristics
function characteristicsSection(app, c, check) {
  const sum = CHARACTERISTICS.reduce((s, k) => s + (c.characteristics[k] ?? 0), 0);
  return html`<fieldset class="card" id="uc-chars" aria-invalid=${hasProblem(check, "characteristics") ? "true" : "false"}
    aria-describedby=${describedBy("characteristics")} @focusout=${form.leaveGroup(app, "characteristics")}>
    <legend>${t("unicreon.field.characteristics")}</legend>
    <p class="muted small">${t("unicreon.ui.chars_help")}</p>
    <div class="uc-grid">
      ${CHARACTERISTICS.map((k) => {
        const f = `characteristics.${k}`;
        return html`<div class="field">
          <label for=${`uc-char-${k}`}>${charLabel(k)}</label>
          <select id=${`uc-char-${k}`} aria-invalid=${hasProblem(check, f) ? "true" : "false"} aria-describedby=${describedBy(f, "characteristics")}
            @change=${(e) => edit(app, c.id, (d) => { d.characteristics[k] = Number(e.target.value); })} @blur=${form.leave(app, f)}>
            ${VALUES.includes(c.characteristics[k]) ? nothing : html`<option value=${c.characteristics[k]} selected>${c.characteristics[k]}</option>`}
            ${VALUES.map((v) => html`<option value=${v} ?selected=${v === c.characteristics[k]}>${v} — ${valueLabel(v)}</option>`)}
          </select>
          ${fieldErrors(check, f)}
        </div>`;
      })}
    </div>
    <p class="uc-sum ${sum === 150 ? "ok" : "bad"}" data-testid="uc-sum" aria-live="polite">${t("unicreon.ui.sum", { sum, expected: 150 })}</p>
    ${fieldErrors(check, "characteristics")}
    ${ui.error && ui.errorAt === "characteristics" && sum !== 150
      ? html`<p class="field-error" role="alert" data-testid="uc-chars-refusal">${errorMessage(ui.error)}</p>` : nothing}
  </fieldset>`;
}

// ----------------------------------------------------------------------------- skills
function skillsSection(app, c, check) {
  const add = (e) => {
    e.preventDefault();
    const name = ui.skill.name.trim().slice(0, 60);
    if (!name) return;
    if (edit(app, c.id, (d) => { d.skills.push({ name, level: ui.skill.level }); }, "uc-skill-name")) ui.skill.name = "";
  };
  return html`<section class="card" aria-labelledby="uc-skills-title" @focusout=${form.leaveGroup(app, "skills")}>
    <h2 id="uc-skills-title">${t("unicreon.field.skills")}</h2>
    <p class="muted small">${t("unicreon.ui.skills_help")}</p>
    ${c.skills.length ? html`<ul class="uc-list" data-testid="uc-skills">${c.skills.map((s, i) => html`<li>
      <span>${skillText(s)}</span>
      <button type="button" class="danger small-btn" aria-label=${t("unicreon.ui.remove_named", { name: s.name })}
        @click=${() => edit(app, c.id, (d) => { d.skills.splice(i, 1); })}>✕</button>
      ${fieldErrors(check, `skills.${i}`, { under: true })}</li>`)}</ul>` : html`<p class="muted">${t("unicreon.ui.no_skills")}</p>`}
    <form class="row" @submit=${add}>
      <div class="field uc-grow"><label for="uc-skill-name">${t("unicreon.ui.skill_name")}</label>
        <input id="uc-skill-name" maxlength="60" .value=${typedValue(ui.skill.name)} aria-describedby="uc-skill-name-refusal" @input=${(e) => { ui.skill.name = e.target.value; }}>
        <div id="uc-skill-name-refusal">${refusalAt(app, "uc-skill-name")}</div></div>
      <div class="field"><label for="uc-skill-level">${t("unicreon.ui.skill_level")}</label>
        <select id="uc-skill-level" @change=${(e) => { ui.skill.level = e.target.value; }}>
          ${SKILL_LEVELS.map((l) => html`<option value=${l} ?selected=${l === ui.skill.level}>${t(`unicreon.skill.${l}`)}</option>`)}
        </select></div>
      <button type="submit" id="uc-skill-add">${t("unicreon.ui.add")}</button>
    </form>
  </section>`;
}

// ----------------------------------------------------------------------------- equipment
function encumbranceLine(c, enc) {
  if (!enc) return nothing;
  if (c.ignore_encumbrance) return html`<p class="muted" data-testid="uc-encumbrance">${t("unicreon.ui.encumbrance_ignored", { load: enc.load })}</p>`;
  return html`<p class=${enc.over ? "field-error" : ""} data-testid="uc-encumbrance">
    ${t("unicreon.ui.encumbrance", { load: enc.load, capacity: enc.capacity })}
    <meter class="uc-meter" min="0" max=${Math.max(enc.capacity, 1)} value=${enc.load} aria-hidden="true"></meter></p>`;
}

function itemDetails(item) {
  const bits = [t(`unicreon.category.${item.category}`)];
  const stats = statsLabel(item);
  if (stats) bits.push(stats);
  if (item.capacity) bits.push(t("unicreon.ui.capacity", { n: item.capacity }));
  if (item.pe) bits.push(`${item.pe} PE`);
  if (item.heal) bits.push(t("unicreon.ui.heals", { n: item.heal }));
  if (item.cures) bits.push(t("unicreon.ui.cures"));
  if (item.bonus_steps) bits.push(tn("unicreon.ui.bonus_steps", item.bonus_steps));
  if (item.weapon?.range) bits.push(t("unicreon.ui.range", item.weapon.range));
  if (item.weapon?.malus_steps) bits.push(t("unicreon.ui.with_malus"));
  return bits.join(" · ");
}

function inventorySection(app, c, enc) {
  const others = characters(app.doc).filter((x) => x.id !== c.id);
  if (!others.some((o) => o.id === ui.poisonTarget)) ui.poisonTarget = "";
  return html`<section class="card" aria-labelledby="uc-inv-title" @focusout=${form.leaveGroup(app, "inventory", "po")}>
    <h2 id="uc-inv-title">${t("unicreon.field.inventory")}</h2>
    <p class="uc-big-line"><span>${t("unicreon.ui.label_colon", { label: t("unicreon.field.po") })} <strong data-testid="uc-po">${c.po}</strong></span></p>
    ${encumbranceLine(c, enc)}
    ${c.inventory.length === 0 ? html`<p class="muted">${t("unicreon.ui.no_items")}</p>` : nothing}
    <ul class="uc-items" data-testid="uc-inventory">
      ${c.inventory.map((item) => html`<li class="uc-item" data-testid="uc-item" data-ref=${item.ref ?? ""} data-uid=${item.uid}>
        <div><strong>${itemLabel(item)}</strong>
          ${item.uses !== null ? html` <span class="uc-uses" data-testid="uc-uses">${tn("unicreon.ui.uses_left", item.uses)}</span>` : nothing}
          <br><span class="small muted">${itemDetails(item)}</span></div>
        <div class="row">
          <label class="visually-hidden" for=${`uc-carry-${item.uid}`}>${t("unicreon.ui.carried_label", { name: itemLabel(item) })}</label>
          <select id=${`uc-carry-${item.uid}`} class="uc-carry" ?disabled=${!ready(app) || ui.busy}
            @change=${(e) => charOp(app, { op: "unicreon.inventory.carry", character: c, uid: item.uid, carried: e.target.value }, null)}>
            ${["bag", "hand", "worn", "following"].map((k) => html`<option value=${k} ?selected=${k === item.carried}>${t(`unicreon.carried.${k}`)}</option>`)}
          </select>
          ${item.uses !== null ? useButton(app, c, item) : nothing}
          ${ui.selling?.uid === item.uid ? nothing : html`<button type="button" data-testid="uc-sell" ?disabled=${!ready(app) || ui.busy}
            @click=${() => { ui.selling = { uid: item.uid, price: item.cost }; app.rerender(); }}>${t("unicreon.ui.sell")}</button>`}
          <button type="button" class="danger" ?disabled=${!ready(app) || ui.busy}
            @click=${() => charOp(app, { op: "unicreon.inventory.remove", character: c, uid: item.uid }, () => t("unicreon.ui.removed", { name: itemLabel(item) }))}>${t("unicreon.ui.remove")}</button>
        </div>
        ${item.afflicts ? (others.length ? html`<div class="field"><label for="uc-poison-target">${t("unicreon.ui.poison_target")}</label>
          <select id="uc-poison-target" @change=${(e) => { ui.poisonTarget = e.target.value; app.rerender(); }}>
            <option value="" ?selected=${!ui.poisonTarget}>${t("unicreon.ui.choose_victim")}</option>
            ${others.map((o) => html`<option value=${o.id} ?selected=${o.id === ui.poisonTarget}>${nameOf(o)}</option>`)}
          </select></div>` : html`<p class="muted small" id="uc-poison-target">${t("unicreon.ui.no_victim")}</p>`) : nothing}
        ${errorAt(item.uid)}
        ${ui.selling?.uid === item.uid ? html`<form class="row uc-sell-form" @submit=${(e) => {
            e.preventDefault();
            const price = clampInt(ui.selling.price, 0, 1000000);
            ui.selling = null;
            charOp(app, { op: "unicreon.shop.sell", character: c, uid: item.uid, price, creation_pay: creationPay(app.doc) }, (r) => t("unicreon.ui.sold", { name: itemLabel(item), price, po: r.character.po }));
          }}>
          <div class="field"><label for=${`uc-sell-${item.uid}`}>${t("unicreon.ui.sell_price")}</label>
            <input id=${`uc-sell-${item.uid}`} type="number" min="0" .value=${String(ui.selling.price)} @input=${(e) => { ui.selling.price = e.target.value; }}></div>
          <button type="submit" class="primary" data-testid="uc-sell-confirm">${t("unicreon.ui.sell_confirm")}</button>
          <button type="button" @click=${() => { ui.selling = null; app.rerender(); }}>${t("unicreon.ui.cancel")}</button>
        </form>` : nothing}
      </li>`)}
    </ul>
    ${c.inventory.some((i) => i.heal) && others.length ? html`<div class="field"><label for="uc-use-target">${t("unicreon.ui.care_target")}</label>
      <select id="uc-use-target" @change=${(e) => { ui.useTarget = e.target.value; }}>
        <option value="" ?selected=${!ui.useTarget}>${nameOf(c)}</option>
        ${others.map((o) => html`<option value=${o.id} ?selected=${o.id === ui.useTarget}>${nameOf(o)}</option>`)}
      </select></div>` : nothing}
    <div class="uc-status" role="status" aria-live="polite" data-testid="uc-sheet-status">${said(ui.message)}</div>
    ${ui.errorAt ? nothing : errorLine(ui.error, "uc-sheet-error")}
    ${shop(app, c)}
    ${customForm(app, c)}
  </section>`;
}

/** "Utiliser", disabled with its reason said (no use left, no victim chosen, engine). */
function useButton(app, c, item) {
  const reason = item.uses < 1 ? t("unicreon.ui.why_no_use")
    : item.afflicts && !ui.poisonTarget ? t("unicreon.ui.why_no_victim") : engineWhy(app);
  const why = disabledWhy(`uc-use-${item.uid}`, reason);
  return html`<button type="button" data-testid="uc-use" ?disabled=${Boolean(reason) || ui.busy} aria-describedby=${why.id}
    @click=${() => useItem(app, c, item)}>${t("unicreon.ui.use")}</button>${why.note}`;
}

function useItem(app, c, item) {
  const request = { op: "unicreon.item.use", character: c, uid: item.uid };
  const targetId = item.afflicts ? ui.poisonTarget : item.heal ? ui.useTarget : "";
  const target = targetId ? effective(app.doc, findCharacter(app.doc, targetId)) : null;
  if (target) request.target = target;
  return charOp(app, request, (r) => {
    const who = r.target ?? r.character;
    if (item.afflicts) return t("unicreon.ui.poisoned", { who: nameOf(who) });
    return item.heal ? t("unicreon.ui.used_heal", { name: itemLabel(item), who: nameOf(who), pv: who.pv, pv_max: who.pv_max })
      : t("unicreon.ui.used", { name: itemLabel(item) });
  }, { at: item.uid });
}

/** During the creation equipment is chosen, not bought (the 40 PO are for play), unless the
 * table's setting makes creation purchases cost PO (rules/README.md, Unicreon). */
const choosing = (app, c) => !c.created && !creationPay(app.doc);

function shop(app, c) {
  const data = rulesData(app);
  const choose = choosing(app, c);
  const pay = creationPay(app.doc);
  return html`<details class="uc-shop" id="uc-shop">
    <summary>${choose ? t("unicreon.ui.shop_choose") : t("unicreon.ui.shop")}</summary>
    <p class="muted small" data-testid="uc-shop-mode">${choose ? t("unicreon.ui.choose_help") : !c.created && pay ? t("unicreon.ui.pay_help") : t("unicreon.ui.buy_help")}</p>
    ${!data ? html`<p class="muted">${t("unicreon.ui.loading")}</p>` : SHOP_GROUPS.map(([g, pick]) => html`
      <h3>${t(`unicreon.ui.shop_${g}`)}</h3>
      <ul class="uc-items">
        ${Object.entries(pick(data)).map(([ref, item]) => {
          const dear = !choose && item.cost > c.po;
          return html`<li class="uc-item">
          <div><strong>${t(`unicreon.item.${ref}`)}</strong>${item.uses !== null ? html` <span class="small">(${tn("unicreon.ui.uses_n", item.uses)})</span>` : nothing}
            <br><span class="small muted">${itemDetails(item)}${choose ? ` · ${item.cost} PO` : ""}</span></div>
          <div class="row">
            <button type="button" data-testid=${`uc-buy-${ref}`} ?disabled=${!ready(app) || ui.busy || dear}
              aria-describedby=${dear ? `uc-dear-${ref}` : nothing}
              @click=${() => charOp(app, { op: "unicreon.shop.buy", character: c, ref, creation_pay: pay }, (r) => (choose ? t("unicreon.ui.chosen", { name: t(`unicreon.item.${ref}`) }) : t("unicreon.ui.bought", { name: t(`unicreon.item.${ref}`), po: r.character.po })), { at: `buy-${ref}` })}>
              ${choose ? t("unicreon.ui.choose_item") : t("unicreon.ui.buy_for", { cost: item.cost })}</button>
            ${dear ? html`<span class="uc-dear small" id=${`uc-dear-${ref}`} data-testid="uc-too-expensive">${t("unicreon.ui.too_expensive", { missing: item.cost - c.po })}</span>` : nothing}
          </div>
          ${errorAt(`buy-${ref}`)}
        </li>`;
        })}
      </ul>`)}
  </details>`;
}

/** The MJ's item, as the ops take it (no uid, no ref). */
function strip(item) {
  const { uid: _uid, ref: _ref, free: _free, ...rest } = item; // "free" is the give op's to set
  return rest;
}

/** Give a custom item (paid or not); a new one also goes to the table's library. A refusal
 * shows beside the control `at` (a library entry) when given. */
async function giveCustom(app, c, item, pay, remember, at = null) {
  // The library copy's uid is made once, outside the change (applied again when written).
  const libraryUid = `lib${Date.now().toString(36)}`;
  const r = await charOp(app, { op: "unicreon.inventory.custom", character: c, item, pay, creation_pay: creationPay(app.doc) }, () => t("unicreon.ui.custom_given", { name: item.name }), {
    at,
    after: (doc, res) => {
      if (!remember) return;
      const full = res.character.inventory[res.character.inventory.length - 1];
      const st = doc.systems.unicreon ?? (doc.systems.unicreon = { combat: null, custom_items: [] });
      if (!st.custom_items) st.custom_items = [];
      if (st.custom_items.length < 200) st.custom_items.push({ ...full, uid: libraryUid });
    },
  });
  return r;
}

function customForm(app, c) {
  const f = ui.custom;
  const set = (key, num) => (e) => { f[key] = e.target.type === "checkbox" ? e.target.checked : num ? Number(e.target.value) : e.target.value; if (key === "category") app.rerender(); };
  const armed = f.category === "weapon" || f.category === "armour" || f.category === "shield";
  const give = (e) => {
    e.preventDefault();
    const amount = { kind: f.kind, value: f.kind === "infinite" ? 0 : clampInt(f.value, 0, 999) };
    const item = {
      name: f.name.trim().slice(0, 80) || t("unicreon.ui.custom_default"), category: f.category,
      cost: clampInt(f.cost, 0, 1000000), pe: clampInt(f.pe, 0, 100000),
      uses: f.uses === "" ? null : clampInt(f.uses, 0, 999), heal: clampInt(f.heal, 0, 999), bonus_steps: clampInt(f.bonus_steps, 0, 5),
      cures: f.category === "care" && Boolean(f.cures),
    };
    if (f.category === "weapon") {
      // A ranged weapon ("Combat à distance"): thrown or shooting, its ideal and maximum range
      // (none given: the MJ judges the distance), usable in melee only when the MJ ticks it
      // ("manipulables facilement d'une seule main").
      const range = f.ranged && f.ideal !== "" && f.max !== "" ? { ideal: clampInt(f.ideal, 0, 100000), max: clampInt(f.max, 0, 100000) } : null;
      item.weapon = { characteristic: f.characteristic, damage: amount, ranged: Boolean(f.ranged), thrown: Boolean(f.ranged && f.thrown),
        melee_ok: f.ranged ? Boolean(f.melee_ok) : true, range, malus_steps: 0 };
      item.carried = "hand";
    } else if (armed) {
      item.protection = { characteristic: f.characteristic, absorb: amount };
      item.carried = f.category === "shield" ? "hand" : "worn";
    }
    giveCustom(app, c, item, f.pay, true);
  };
  const library = tableState(app.doc).custom_items ?? [];
  return html`<details class="uc-custom" id="uc-custom">
    <summary>${t("unicreon.ui.custom_title")}</summary>
    ${library.length ? html`<h3>${t("unicreon.ui.library")}</h3><ul class="uc-items" data-testid="uc-library">
      ${library.map((item, i) => html`<li class="uc-item"><div><strong>${item.name}</strong> <span class="small">(${item.cost} PO)</span><br><span class="small muted">${itemDetails(item)}</span></div>
        <div class="row">
          <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => giveCustom(app, c, strip(item), false, false, `lib-${i}`)}>${t("unicreon.ui.give_free")}</button>
          <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => giveCustom(app, c, strip(item), true, false, `lib-${i}`)}>${t("unicreon.ui.buy_for", { cost: item.cost })}</button>
          <button type="button" class="danger" aria-label=${t("unicreon.ui.remove_named", { name: item.name })}
            @click=${() => app.update((doc) => { doc.systems.unicreon.custom_items.splice(i, 1); })}>✕</button>
        </div>${errorAt(`lib-${i}`)}</li>`)}
    </ul><h3>${t("unicreon.ui.custom_new")}</h3>` : nothing}
    <form class="stack" @submit=${give}>
      <div class="uc-grid">
        <div class="field"><label for="uc-cu-name">${t("unicreon.field.name")}</label><input id="uc-cu-name" maxlength="80" .value=${typedValue(f.name)} @input=${set("name")}></div>
        <div class="field"><label for="uc-cu-cat">${t("unicreon.ui.category")}</label>
          <select id="uc-cu-cat" @change=${set("category")}>${["gear", "care", "bag", "animal", "weapon", "armour", "shield"].map((k) => html`<option value=${k} ?selected=${k === f.category}>${t(`unicreon.category.${k}`)}</option>`)}</select></div>
        <div class="field"><label for="uc-cu-cost">${t("unicreon.ui.cost")}</label><input id="uc-cu-cost" type="number" min="0" .value=${typedValue(String(f.cost))} @input=${set("cost", true)}></div>
        <div class="field"><label for="uc-cu-pe">${t("unicreon.field.pe")}</label><input id="uc-cu-pe" type="number" min="0" .value=${typedValue(String(f.pe))} @input=${set("pe", true)}></div>
        <div class="field"><label for="uc-cu-uses">${t("unicreon.ui.uses")}</label><input id="uc-cu-uses" type="number" min="0" placeholder="∞" .value=${typedValue(String(f.uses))} @input=${set("uses")}></div>
        <div class="field"><label for="uc-cu-heal">${t("unicreon.ui.heal_pv")}</label><input id="uc-cu-heal" type="number" min="0" .value=${typedValue(String(f.heal))} @input=${set("heal", true)}></div>
        <div class="field"><label for="uc-cu-bonus">${t("unicreon.ui.bonus_steps_label")}</label><input id="uc-cu-bonus" type="number" min="0" max="5" .value=${typedValue(String(f.bonus_steps))} @input=${set("bonus_steps", true)}></div>
        ${armed ? html`
          <div class="field uc-wide"><label for="uc-cu-kind">${f.category === "weapon" ? t("unicreon.ui.damage") : t("unicreon.ui.absorb")}</label>
            <select id="uc-cu-kind" @change=${set("kind")}>${["fixed", "max", "infinite"].map((k) => html`<option value=${k} ?selected=${k === f.kind}>${t(`unicreon.ui.amount_${k}`)}</option>`)}</select></div>
          <div class="field"><label for="uc-cu-char">${t("unicreon.ui.characteristic")}</label>
            <select id="uc-cu-char" @change=${set("characteristic")}>${CHARACTERISTICS.map((k) => html`<option value=${k} ?selected=${k === f.characteristic}>${charLabel(k)}</option>`)}</select></div>
          <div class="field"><label for="uc-cu-value">${t("unicreon.field.pv")}</label><input id="uc-cu-value" type="number" min="0" .value=${typedValue(String(f.value))} @input=${set("value", true)}></div>` : nothing}
      </div>
      ${f.category === "weapon" ? html`<label class="check"><input type="checkbox" id="uc-cu-ranged" .checked=${live(f.ranged)} @change=${(e) => { f.ranged = e.target.checked; app.rerender(); }}> ${t("unicreon.ui.custom_ranged")}</label>` : nothing}
      ${f.category === "weapon" && f.ranged ? html`<div class="uc-grid">
        <label class="check"><input type="checkbox" id="uc-cu-thrown" .checked=${live(f.thrown)} @change=${set("thrown")}> ${t("unicreon.ui.custom_thrown")}</label>
        <label class="check"><input type="checkbox" id="uc-cu-melee" .checked=${live(f.melee_ok)} @change=${set("melee_ok")}> ${t("unicreon.ui.custom_melee_ok")}</label>
        <div class="field"><label for="uc-cu-ideal">${t("unicreon.ui.custom_ideal")}</label><input id="uc-cu-ideal" type="number" min="0" .value=${typedValue(String(f.ideal))} @input=${set("ideal")}></div>
        <div class="field"><label for="uc-cu-max">${t("unicreon.ui.custom_max")}</label><input id="uc-cu-max" type="number" min="0" .value=${typedValue(String(f.max))} @input=${set("max")}></div>
      </div>` : nothing}
      ${f.category === "care" ? html`<label class="check"><input type="checkbox" id="uc-cu-cures" .checked=${live(f.cures)} @change=${set("cures")}> ${t("unicreon.ui.custom_cures")}</label>` : nothing}
      <label class="check"><input type="checkbox" id="uc-cu-pay" .checked=${live(f.pay)} @change=${set("pay")}> ${t("unicreon.ui.custom_pay")}</label>
      <button type="submit" ?disabled=${!ready(app) || ui.busy}>${t("unicreon.ui.custom_give")}</button>
    </form>
  </details>`;
}

// ----------------------------------------------------------------------------- health
function healthSection(app, c) {
  // On a player's phone at a live table the healer is one of the player's own characters: the
  // MJ's device reads its Perception from its record (py/tablee/referee.py `_uc_health`).
  const mine = liveCharacters();
  const all = characters(app.doc).filter((o) => mine === null || o.id === c.id || mine.includes(o.id));
  const fighting = Boolean(combatantOf(app.doc, c.id));
  const healer = findCharacter(app.doc, ui.healer) ?? c;
  const cures = c.inventory.filter((i) => i.cures && (i.uses ?? 1) > 0);
  // An infected wound is dressed with a care item that heals (bandage, trousses): it ends.
  const dressings = c.inventory.filter((i) => i.heal > 0 && !i.cures && !i.afflicts && (i.uses ?? 1) > 0);
  const dOdds = c.conditions.length ? dayOdds(app, { op: "unicreon.health.day.odds", character: c }) : null;
  const amount = () => clampInt(ui.amount, 0, 999);
  const pct = c.pv_max ? Math.round((100 * c.pv) / c.pv_max) : 0;
  return html`<section class="card" aria-labelledby="uc-health-title">
    <h2 id="uc-health-title">${t("unicreon.ui.health")}</h2>
    <p class="uc-big-line">${t("unicreon.ui.label_colon", { label: t("unicreon.field.pv") })} <strong data-testid="uc-pv">${c.pv}</strong> / ${c.pv_max}
      ${c.down ? html` · <strong class="outcome-bad" data-testid="uc-down">${t(`unicreon.down.${c.down}`)}</strong>` : nothing}
      ${fighting ? html` · <a class="uc-in-combat" href="#/unicreon/combat" data-testid="uc-in-combat">${t("unicreon.ui.in_combat")}</a>` : nothing}</p>
    ${fighting ? html`<p class="muted small">${t("unicreon.ui.in_combat_note")}</p>` : nothing}
    <div class="uc-pvbar" aria-hidden="true"><div style="width:${pct}%"></div></div>
    <div class="row">
      <div class="field"><label for="uc-amount">${t("unicreon.ui.amount")}</label>
        <input id="uc-amount" type="number" min="0" max="999" .value=${typedValue(String(ui.amount))} @input=${(e) => { ui.amount = e.target.value; }}></div>
      <button type="button" class="danger" id="uc-damage" ?disabled=${!ready(app) || ui.busy}
        @click=${() => charOp(app, { op: "unicreon.health.damage", character: c, amount: amount() }, (r) => t("unicreon.ui.pv_now", { pv: r.character.pv }))}>${t("unicreon.ui.damage_btn")}</button>
      <button type="button" id="uc-heal" ?disabled=${!ready(app) || ui.busy}
        @click=${() => charOp(app, { op: "unicreon.health.heal", character: c, amount: amount() }, (r) => t("unicreon.ui.pv_now", { pv: r.character.pv }))}>${t("unicreon.ui.heal_btn")}</button>
    </div>
    <div class="row">
      <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => charOp(app, { op: "unicreon.health.rest", character: c, kind: "short" }, (r) => t("unicreon.ui.pv_now", { pv: r.character.pv }))}>${t("unicreon.ui.rest_short")}</button>
      <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => charOp(app, { op: "unicreon.health.rest", character: c, kind: "full" }, (r) => t("unicreon.ui.pv_now", { pv: r.character.pv }))}>${t("unicreon.ui.rest_full")}</button>
      <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => charOp(app, { op: "unicreon.health.new_adventure", character: c }, (r) => t("unicreon.ui.pv_now", { pv: r.character.pv }))}>${t("unicreon.ui.new_adventure")}</button>
    </div>
    <div class="field"><label for="uc-down-state">${t("unicreon.ui.down_state")}</label>
      <select id="uc-down-state" ?disabled=${!ready(app) || ui.busy}
        @change=${(e) => charOp(app, { op: "unicreon.health.down", character: c, state: e.target.value || null }, null)}>
        <option value="" ?selected=${!c.down}>${t("unicreon.ui.up")}</option>
        ${["down", "unconscious", "dead"].map((k) => html`<option value=${k} ?selected=${k === c.down}>${t(`unicreon.down.${k}`)}</option>`)}
      </select></div>

    <h3>${t("unicreon.ui.conditions")}</h3>
    ${c.conditions.length === 0 ? html`<p class="muted">${t("unicreon.ui.no_conditions")}</p>` : html`<ul class="uc-list" data-testid="uc-conditions">
      ${c.conditions.map((cond, i) => {
        const odds = cond.diagnosed ? null : diagOddsFor(app, c, i, healer);
        const label = `${t(`unicreon.condition.${cond.kind}`)}${cond.name ? ` — ${cond.name}` : ""}`;
        return html`<li class="uc-cond" data-testid="uc-condition" data-kind=${cond.kind}>
          <div><strong>${t(`unicreon.condition.${cond.kind}`)}</strong>${cond.name ? ` — ${cond.name}` : ""}
            <span class="small ${cond.diagnosed ? "" : "muted"}">· ${cond.diagnosed ? t("unicreon.ui.diagnosed") : t("unicreon.ui.not_diagnosed")}</span></div>
          <div class="row">
            ${cond.kind === "infection" ? dressings.map((item) => html`<button type="button" data-testid="uc-dress" ?disabled=${!ready(app) || ui.busy}
                @click=${() => charOp(app, { op: "unicreon.item.use", character: c, uid: item.uid, condition: i }, () => t("unicreon.ui.dressed", { name: itemLabel(item) }))}>${t("unicreon.ui.dress_with", { name: itemLabel(item) })}</button>`) : nothing}
            ${cond.diagnosed ? cures.map((item) => html`<button type="button" ?disabled=${!ready(app) || ui.busy}
                @click=${() => charOp(app, { op: "unicreon.item.use", character: c, uid: item.uid, condition: i }, () => t("unicreon.ui.cured", { name: itemLabel(item) }))}>${t("unicreon.ui.use_on", { name: itemLabel(item) })}</button>`)
              : html`<button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => diagnose(app, c, i, healer)}>
                ${t("unicreon.ui.diagnose_btn", { who: nameOf(healer) })}</button>
                <span class="small">${t("unicreon.ui.chance")} ${odds && !odds.error ? prob(odds.success) : "…"}</span>`}
            <button type="button" data-testid="uc-cure" ?disabled=${!ready(app) || ui.busy} aria-label=${t("unicreon.ui.cure_named", { name: label })}
              @click=${() => charOp(app, { op: "unicreon.health.cure", character: c, condition: i }, () => t("unicreon.ui.cure_done", { name: `${t(`unicreon.condition.${cond.kind}`)}${cond.name ? ` — ${cond.name}` : ""}` }))}>${t("unicreon.ui.cure_btn")}</button>
          </div>
        </li>`;
      })}</ul>
      ${all.length > 1 ? html`<div class="field"><label for="uc-healer">${t("unicreon.ui.healer")}</label>
        <select id="uc-healer" @change=${(e) => { ui.healer = e.target.value; app.rerender(); }}>
          ${all.map((o) => html`<option value=${o.id} ?selected=${o.id === healer.id}>${nameOf(o)} (${charLabel("perception")} ${o.characteristics.perception})</option>`)}
        </select></div>` : nothing}
      <h3>${t("unicreon.ui.day")}</h3>
      ${dOdds && !dOdds.error ? renderDistribution(Object.entries(dOdds.pv_lost).map(([n, p]) => ({ label: n, p: p.p, percent: p.percent })), t("unicreon.ui.pv_lost")) : nothing}
      <button type="button" id="uc-day" ?disabled=${!ready(app) || ui.busy} @click=${() => day(app, c)}>${t("unicreon.ui.day_btn")}</button>`}
    ${ui.lastRoll?.id === c.id ? html`<div class="uc-roll" data-testid="uc-health-roll">${ui.lastRoll.body}</div>` : nothing}
    <form class="row" @submit=${(e) => { e.preventDefault(); charOp(app, { op: "unicreon.health.afflict", character: c, kind: ui.afflict.kind, name: ui.afflict.name.trim().slice(0, 80) }, null); ui.afflict.name = ""; }}>
      <div class="field"><label for="uc-afflict-kind">${t("unicreon.ui.afflict_kind")}</label>
        <select id="uc-afflict-kind" @change=${(e) => { ui.afflict.kind = e.target.value; }}>
          ${["poison", "disease", "infection"].map((k) => html`<option value=${k} ?selected=${k === ui.afflict.kind}>${t(`unicreon.condition.${k}`)}</option>`)}
        </select></div>
      <div class="field uc-grow"><label for="uc-afflict-name">${t("unicreon.ui.afflict_name")}</label>
        <input id="uc-afflict-name" maxlength="80" .value=${typedValue(ui.afflict.name)} @input=${(e) => { ui.afflict.name = e.target.value; }}></div>
      <button type="submit" ?disabled=${!ready(app) || ui.busy}>${t("unicreon.ui.afflict_btn")}</button>
    </form>
  </section>`;
}

const diagCaches = new Map();
function diagOddsFor(app, c, i, healer) {
  const key = `${c.id}:${i}`;
  if (!diagCaches.has(key)) diagCaches.set(key, oddsCache());
  return diagCaches.get(key)(app, { op: "unicreon.health.diagnose.odds", character: c, condition: i, perception: healer.characteristics.perception });
}

async function diagnose(app, c, i, healer) {
  const request = { op: "unicreon.health.diagnose", condition: i, perception: healer.characteristics.perception, seed: newSeed() };
  // At a live table the move names the healer (its Perception is read from the MJ's record).
  const named = liveCharacters() !== null && healer.id !== c.id ? { healer: healer.id } : {};
  const r = await charOp(app, { ...request, ...named, character: c }, (res) => (res.test.success ? t("unicreon.ui.diagnose_ok") : t("unicreon.ui.diagnose_ko")));
  if (!r) return;
  ui.lastRoll = { id: c.id, body: html`${renderD66(r.test.dice)}<p>${t("unicreon.ui.raw")} ${r.test.raw} / ${t("unicreon.ui.target")} ${r.test.target} —
    <strong class=${r.test.success ? "outcome-ok" : "outcome-bad"}>${r.test.success ? t("unicreon.ui.success") : t("unicreon.ui.failure")}</strong></p>` };
  app.addLog({ kind: "unicreon.diagnose", system: "unicreon", who: nameOf(healer), label: `${t("unicreon.ui.diagnose")} — ${nameOf(c)}`, request,
    result: { total: r.test.raw, summary: r.test.success ? t("unicreon.ui.success") : t("unicreon.ui.failure"), terms: [d66Term(r.test.dice)] } });
}

async function day(app, c) {
  const request = { op: "unicreon.health.day", seed: newSeed() };
  const r = await charOp(app, { ...request, character: c }, (res) => t("unicreon.ui.day_lost", { n: res.pv_lost, pv: res.character.pv }));
  if (!r) return;
  ui.lastRoll = { id: c.id, body: html`<ul class="dice">${r.dice.map((d) => html`<li class="die kept">${d}</li>`)}</ul>
    <p>${t("unicreon.ui.day_lost", { n: r.pv_lost, pv: r.character.pv })}</p>` };
  app.addLog({ kind: "unicreon.day", system: "unicreon", who: nameOf(c), label: t("unicreon.ui.day"), request,
    result: { total: r.pv_lost, summary: t("unicreon.ui.day_lost", { n: r.pv_lost, pv: r.character.pv }), terms: [{ kind: "dice", text: `${r.dice.length}d6`, sign: 1, dice: r.dice.map((value) => ({ value, kept: true })) }] } });
}

// ----------------------------------------------------------------------------- options
function optionsSection(app, c) {
  return html`<section class="card" aria-labelledby="uc-opt-title">
    <h2 id="uc-opt-title">${t("unicreon.ui.mj_options")}</h2>
    <label class="check"><input type="checkbox" id="uc-ignore-enc" .checked=${live(c.ignore_encumbrance)}
      @change=${(e) => edit(app, c.id, (d) => { d.ignore_encumbrance = e.target.checked; })}> ${t("unicreon.field.ignore_encumbrance")}</label>
    <label class="check"><input type="checkbox" id="uc-important" .checked=${live(c.important_npc)}
      @change=${(e) => edit(app, c.id, (d) => { d.important_npc = e.target.checked; })}> ${t("unicreon.field.important_npc")}</label>
  </section>`;
}

export function render(app, id) {
  reset(id);
  // While a fight is open, the sheet works on the fight's PV (common.effective).
  const c = effective(app.doc, findCharacter(app.doc, id));
  if (!c) return html`${backLink("#/unicreon", t("unicreon.ui.back"))}<p role="alert">${t("unicreon.ui.not_found")}</p>`;
  const created = c.created === true;
  const raw = checkOf(app, c);
  const check = form.visible(raw);
  // The count of what is left to correct is said once every problem is shown at its field
  // (forms.count: before, a count with no message anywhere could not be followed); a problem
  // at a field this page has no place for is listed under the count.
  const count = form.count(raw);
  const elsewhere = (check?.problems ?? []).filter((p) => !shownAtAField(p.field ?? ""));
  // Busy (an op under way, a blink) disables without a note; the engine starting says so.
  const finishReason = engineWhy(app);
  const finishWhy = disabledWhy("uc-finish-creation", finishReason);
  return html`
    ${backLink("#/unicreon", t("unicreon.ui.back"))}
    <h1>${nameOf(c)}</h1>
    <p class="row"><a class="button primary" id="uc-go-test" href=${`#/unicreon/test/${encodeURIComponent(c.id)}`}>${t("unicreon.ui.make_test")}</a></p>
    <nav class="uc-jump" aria-label=${t("unicreon.ui.jump")}>
      ${[["uc-chars", "unicreon.field.characteristics"], ["uc-skills-title", "unicreon.field.skills"], ["uc-inv-title", "unicreon.field.inventory"], ["uc-health-title", "unicreon.ui.health"]].map(([target, key]) => html`<button type="button" class="uc-jump-btn"
        @click=${() => { const el = document.getElementById(target); el?.scrollIntoView({ block: "start", behavior: "smooth" }); el?.querySelector("select, input, button")?.focus({ preventScroll: true }); }}>${t(key)}</button>`)}
    </nav>
    <p class="small ${count?.n && !count.later ? "field-error" : "muted"}" data-testid="uc-problem-count" aria-live="polite">
      ${count === null ? "" : !count.n ? t("unicreon.ui.all_good") : count.later ? t("unicreon.ui.problems_later") : tn("unicreon.ui.problems", count.n)}</p>
    ${elsewhere.length ? html`<ul class="field-error small" data-testid="uc-other-problems">${elsewhere.map((p) => html`<li>${errorMessage(p)}</li>`)}</ul>` : nothing}
    ${check?.error ? html`<p class="field-error">${errorMessage(check.error)}</p>` : nothing}
    <div class="row">${created
      ? html`<span class="muted small" data-testid="uc-created">${t("unicreon.ui.in_play")}</span>
        <button type="button" class="uc-jump-btn" @click=${() => edit(app, c.id, (d) => { d.created = false; })}>${t("unicreon.ui.reopen_creation")}</button>`
      : html`<button type="button" id="uc-finish-creation" ?disabled=${Boolean(finishReason) || ui.busy} aria-describedby=${finishWhy.id}
        @click=${() => finish(app, c, raw)}>${t("unicreon.ui.finish_creation")}</button>
        <span class="muted small">${t("unicreon.ui.finish_help")}</span>${finishWhy.note}`}</div>
    <div role="status" aria-live="polite" data-testid="uc-finish-status">${created ? nothing : errorLine(ui.finishError, "uc-finish-error")}</div>
    <div class="split uc-sheet-split" data-testid="uc-sheet-columns">
      <div class="uc-col">
        ${identity(app, c, check)}
        ${characteristicsSection(app, c, check)}
        ${optionsSection(app, c)}
      </div>
      <div class="uc-col">
        ${skillsSection(app, c, check)}
        ${inventorySection(app, c, check?.encumbrance)}
        ${fieldErrors(check, "inventory", { under: true })}
        ${fieldErrors(check, "po")}
        ${healthSection(app, c)}
      </div>
    </div>
  `;
}

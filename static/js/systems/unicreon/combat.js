// Unicreon combat tracker (#/unicreon/combat; state in doc.systems.unicreon.combat, kept by
// the pure ops unicreon.combat.*): add PCs and NPCs (generic tiers, bestiary), surprise round,
// initiative (odds shown; the MJ rolls once for every NPC), turns of two actions, passes
// d'armes with their exact odds before the roll, escape, engage, pickup, MJ adjustments,
// and the end of the fight writing PV back onto the characters.
// Wording: Unicreon's text says "la MJ" (rules 004, e.g. "la MJ fait un seul jet"): every fr
// string of the unicreon namespace does too (tests/test_mj_wording.py). Combat lines name the
// fighter without agreeing with a gender ("Coup paré par Alice", "Alice : −4 PV → 2 PV restants").

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { said, t, tn } from "../../i18n.js";
import { livePlayer } from "../../live/private.js";
import { newSeed } from "../../storage.js";
import { renderDistribution } from "../../views/dice-ui.js";
import { compareBars, fractionMinus, outcomeBar, segment, successBar } from "../../views/odds-bar.js";
import { disabledWhy, engineChange, own, putSystem, onUndo } from "../../views/ui.js";
import {
  BEASTS, SKILL_LEVELS, TIERS, amountLabel, backLink, charLabel, characters, d66Term, errorLine,
  findCharacter, nameOf, oddsCache, prob, ready, renderD66, replaceCharacter, skillText, tableState,
} from "./common.js";

const ui = {
  busy: false, error: null, count: 1, announce: "",
  attacker: "", defender: "", weapon: "", protection: "", ranged: false, distance: 0, aim: false, surprise: false,
  attackerSkill: "", defenderSkill: "", defenderMalus: 0, escapeFrom: "", escapeMode: "opposition", surpriseSet: [],
  weaponFor: "", protectionFor: "",
};
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { announce: "", error: null }));
const initOdds = oddsCache();
const attackOdds = oddsCache();
const escapeOdds = oddsCache();

const combatOf = (doc) => tableState(doc).combat;

/** Put a combat state (null: none) in the table, inside app.update. */
function putCombat(doc, combat) {
  const state = doc.systems.unicreon ?? {};
  putSystem(doc, "unicreon", { ...state, custom_items: state.custom_items ?? [], combat });
}

/**
 * A combat change on the latest table (views/ui.js engineChange): `request(doc)` is asked of
 * the table as saved when its turn comes (quick clicks are queued, none dropped), `call`
 * defaults to one engine call, the answer's state (and `also(doc, answer)`: characters) is
 * written only if the combat, and the characters `ids(answer)` names, did not change while the
 * engine answered; else it is asked again on the new table. Resolves with the answer once
 * saved, or null (the error is shown).
 */
function combatChange(app, { request, call, also, characterIds = () => [] }) {
  return engineChange(app, ui, {
    request,
    ...(call ? { call } : {}),
    basis: (doc) => [combatOf(doc), characterIds(doc).map((id) => findCharacter(doc, id))],
    apply: (doc, r) => {
      putCombat(doc, r.state);
      also?.(doc, r); // (replaceCharacter only: the change stays shallow)
    },
    shallow: true,
    // Named in the undo bar and the Table page ("Table Unicreon modifiée" said nothing of which).
    label: (answer, req) => (COMBAT_LABELS.has(req?.op) ? { key: `unicreon.change.${req.op.slice("unicreon.combat.".length)}`, params: {} } : null),
  });
}

const COMBAT_LABELS = new Set(["add_character", "add_npc", "adjust", "apply", "attack", "end", "engage", "escape", "initiative",
  "new", "next", "pickup", "remove", "seat", "surprise"].map((op) => `unicreon.combat.${op}`));

/** Run a combat op on the latest stored state; stores the new state; returns the response or null. */
async function run(app, request, { announce } = {}) {
  // A sheet in the request (a character joining) is read again from the latest table too.
  const id = request.character?.id ?? null;
  const r = await combatChange(app, {
    request: (doc) => {
      if (!combatOf(doc)) return null;
      if (id === null) return { ...request, state: combatOf(doc) };
      const character = findCharacter(doc, id);
      return character ? { ...request, character, state: combatOf(doc) } : null;
    },
    characterIds: () => (id === null ? [] : [id]),
  });
  if (!r) return null;
  // Kept as a function of the answer: made again at each render, in the language shown then.
  if (announce) ui.announce = () => (typeof announce === "function" ? announce(r) : announce);
  app.rerender();
  return r;
}

export function cname(c) {
  if (!c) return "?";
  if (c.kind === "character") return c.name || t("unicreon.ui.unnamed");
  const m = /\s(\d+)$/.exec(c.name);
  const base = c.name.replace(/\s\d+$/, "");
  const short = base === c.ref ? t(`unicreon.ui.short.${c.ref}`) : base;
  return m ? `${short} ${m[1]}` : short;
}
const byCid = (st, cid) => st.combatants.find((c) => c.cid === cid) ?? null;

function currentMembers(st) {
  if (!["fight", "surprise"].includes(st.phase) || !st.order.length) return [];
  const entry = st.order[st.turn];
  if (entry === "mj") return st.combatants.filter((c) => c.side === "npc" && !c.down);
  const c = byCid(st, entry);
  return c && !c.down ? [c] : [];
}

// ----------------------------------------------------------------------------- setup
function addSection(app, st) {
  if (st.phase !== "setup") return html`<details class="card" id="uc-reinforcements"><summary>${t("unicreon.ui.reinforcements")}</summary>${addBody(app, st)}</details>`;
  return html`<section class="card" aria-labelledby="uc-add-title"><h2 id="uc-add-title">${t("unicreon.ui.add_fighters")}</h2>${addBody(app, st)}</section>`;
}

function addBody(app, st) {
  const inFight = new Set(st.combatants.map((c) => c.character_id).filter(Boolean));
  const pcs = characters(app.doc).filter((c) => !inFight.has(c.id));
  const count = Math.max(1, Math.min(20, Number(ui.count) || 1));
  const dis = !ready(app) || ui.busy;
  return html`
    ${pcs.length ? html`<h3>${t("unicreon.ui.table_characters")}</h3><div class="row">
      ${pcs.map((c) => html`<button type="button" data-testid="uc-add-pc" ?disabled=${dis}
        @click=${() => run(app, { op: "unicreon.combat.add_character", character: c, side: c.important_npc ? "npc" : "pc" }, { announce: () => t("unicreon.ui.added", { name: nameOf(c) }) })}>
        + ${nameOf(c)}${c.important_npc ? ` (${t("unicreon.ui.npc")})` : ""}</button>`)}</div>` : html`<p class="muted small">${t("unicreon.ui.all_pcs_in")}</p>`}
    <h3>${t("unicreon.ui.npcs")}</h3>
    <div class="field uc-count"><label for="uc-npc-count">${t("unicreon.ui.count")}</label>
      <input id="uc-npc-count" type="number" min="1" max="20" .value=${String(ui.count)} @change=${(e) => { ui.count = e.target.value; app.rerender(); }}></div>
    <div class="row">${TIERS.map((k) => html`<button type="button" data-testid=${`uc-add-tier-${k}`} ?disabled=${dis}
      @click=${() => run(app, { op: "unicreon.combat.add_npc", tier: k, count, name: t(`unicreon.ui.short.${k}`) }, { announce: () => t("unicreon.ui.added", { name: `${count} × ${t(`unicreon.tier.${k}`)}` }) })}>+ ${t(`unicreon.tier.${k}`)}</button>`)}</div>
    <div class="row">${BEASTS.map((k) => html`<button type="button" data-testid=${`uc-add-beast-${k}`} ?disabled=${dis}
      @click=${() => run(app, { op: "unicreon.combat.add_npc", beast: k, count, name: t(`unicreon.ui.short.${k}`) }, { announce: () => t("unicreon.ui.added", { name: `${count} × ${t(`unicreon.ui.short.${k}`)}` }) })}>+ ${t(`unicreon.ui.short.${k}`)}</button>`)}</div>`;
}

function initiativeSection(app, st) {
  const odds = initOdds(app, { op: "unicreon.combat.initiative.odds", state: st });
  const entries = odds && !odds.error ? odds.entries : {};
  const npcs = st.combatants.filter((c) => c.side === "npc" && !c.down);
  const pcs = st.combatants.filter((c) => c.side === "pc" && !c.down);
  const canSurprise = st.phase === "setup" && st.round === 0;
  return html`<section class="card" aria-labelledby="uc-init-title">
    <h2 id="uc-init-title">${t("unicreon.ui.initiative")}</h2>
    <p class="muted small">${t("unicreon.ui.initiative_help")}</p>
    <dl class="facts" data-testid="uc-init-odds">
      ${pcs.map((c) => html`<dt>${cname(c)} (${charLabel("agilite")} ${c.characteristics.agilite})</dt><dd>${own(entries, c.cid) ? prob(own(entries, c.cid).success) : "…"}</dd>`)}
      ${npcs.length ? html`<dt>${t("unicreon.ui.mj")}</dt><dd>${entries.mj ? html`${prob(entries.mj.success)} <span class="small muted">(${t("unicreon.ui.target")} ${entries.mj.target})</span>` : "…"}</dd>` : nothing}
    </dl>
    ${initButton(app, st)}
    ${canSurprise && st.combatants.length > 1 ? html`<details class="uc-surprise"><summary>${t("unicreon.ui.surprise_round")}</summary>
      <p class="muted small">${t("unicreon.ui.surprise_help")}</p>
      ${st.combatants.map((c) => html`<label class="check"><input type="checkbox" .checked=${ui.surpriseSet.includes(c.cid)}
        @change=${(e) => { ui.surpriseSet = e.target.checked ? [...ui.surpriseSet, c.cid] : ui.surpriseSet.filter((x) => x !== c.cid); }}> ${cname(c)}</label>`)}
      <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${() => { const a = ui.surpriseSet.filter((x) => byCid(st, x)); if (a.length) run(app, { op: "unicreon.combat.surprise", attackers: a }, { announce: () => t("unicreon.ui.surprise_started") }); }}>${t("unicreon.ui.start_surprise")}</button>
    </details>` : nothing}
  </section>`;
}

/** Why a button of this page cannot be pressed now (null when it can): the engine first. */
function engineWhy(app) {
  return ready(app) ? null : t("unicreon.ui.why_engine");
}

function initButton(app, st) {
  const reason = engineWhy(app) ?? (st.combatants.length ? null : t("unicreon.ui.why_no_fighters"));
  const why = disabledWhy("uc-initiative", reason);
  return html`<button type="button" class="primary" id="uc-initiative" ?disabled=${Boolean(reason) || ui.busy} aria-describedby=${why.id}
    @click=${() => rollInitiative(app)}>${t("unicreon.ui.roll_initiative")}</button>${why.note}`;
}

async function rollInitiative(app) {
  const seed = newSeed();
  const r = await run(app, { op: "unicreon.combat.initiative", seed });
  if (!r) return;
  const st = r.state;
  const lines = st.combatants.filter((c) => c.initiative).map((c) => `${cname(c)} ${c.initiative.raw}${c.initiative.success ? "✓" : "✗"}`);
  if (st.npc_initiative) lines.push(`${t("unicreon.ui.mj")} ${st.npc_initiative.raw}${st.npc_initiative.success ? "✓" : "✗"}`);
  const order = () => st.order.map((e) => (e === "mj" ? t("unicreon.ui.mj") : cname(byCid(st, e)))).join(" → ");
  ui.announce = () => t("unicreon.ui.order_is", { order: order() });
  const terms = st.combatants.filter((c) => c.initiative).map((c) => d66Term(c.initiative.dice, cname(c)));
  if (st.npc_initiative) terms.push(d66Term(st.npc_initiative.dice, t("unicreon.ui.mj")));
  app.addLog({ kind: "unicreon.initiative", system: "unicreon", who: t("unicreon.ui.combat"), label: t("unicreon.ui.initiative"),
    request: { op: "unicreon.combat.initiative", seed }, result: { summary: `${lines.join(" · ")} — ${order()}`, terms } });
}

// ----------------------------------------------------------------------------- seating
/** The table's seating order (state.seating; trackers saved before it existed: derived as the
 * engine does, in the order the fighters joined). Initiative goes clockwise in this order. */
function seatsOf(st) {
  const entries = [...new Set(st.combatants.map((c) => (c.side === "npc" ? "mj" : c.cid)))];
  const seats = [...new Set(st.seating ?? [])].filter((e) => entries.includes(e));
  return [...seats, ...entries.filter((e) => !seats.includes(e))];
}

const entryName = (st, e) => (e === "mj" ? t("unicreon.ui.mj") : cname(byCid(st, e)));

function seatingSection(app, st) {
  const seats = seatsOf(st);
  if (seats.length < 2) return nothing;
  const dis = !ready(app) || ui.busy;
  const move = async (e, dir) => {
    const r = await run(app, { op: "unicreon.combat.seat", entry: e, move: dir }, {
      announce: (res) => t("unicreon.ui.seating_now", { order: res.seating.map((x) => entryName(res.state, x)).join(", ") }),
    });
    if (!r) return;
    // Keep the keyboard on the seat that moved (the rows re-render in their new order).
    const row = [...document.querySelectorAll("[data-testid=uc-seating] li")].find((li) => li.dataset.entry === e);
    const buttons = row ? [row.querySelector(`[data-testid=uc-seat-${dir}]`), row.querySelector("button:not([disabled])")] : [];
    buttons.find((b) => b && !b.disabled)?.focus();
  };
  return html`<section class="card" aria-labelledby="uc-seating-title">
    <h2 id="uc-seating-title">${t("unicreon.ui.seating")}</h2>
    <p class="muted small">${t("unicreon.ui.seating_help")}</p>
    <ol class="uc-seating" data-testid="uc-seating">${seats.map((e, i) => html`<li data-entry=${e}>
      <span class="uc-grow">${entryName(st, e)}</span>
      <button type="button" class="small-btn" data-testid="uc-seat-up" ?disabled=${dis || i === 0}
        aria-label=${t("unicreon.ui.seat_up", { name: entryName(st, e) })} @click=${() => move(e, "up")}>↑</button>
      <button type="button" class="small-btn" data-testid="uc-seat-down" ?disabled=${dis || i === seats.length - 1}
        aria-label=${t("unicreon.ui.seat_down", { name: entryName(st, e) })} @click=${() => move(e, "down")}>↓</button>
    </li>`)}</ol>
  </section>`;
}

// ----------------------------------------------------------------------------- fighters
function fighters(app, st) {
  const members = new Set(currentMembers(st).map((c) => c.cid));
  const dis = !ready(app) || ui.busy;
  return html`<section class="card uc-fighters-card" aria-labelledby="uc-fighters-title">
    <h2 id="uc-fighters-title">${t("unicreon.ui.fighters")}</h2>
    ${st.combatants.length === 0 ? html`<p class="muted">${t("unicreon.ui.no_fighters")}</p>` : nothing}
    <ul class="uc-fighters" data-testid="uc-fighters">
      ${st.combatants.map((c) => {
        const pct = c.pv_max ? Math.round((100 * c.pv) / c.pv_max) : 0;
        return html`<li class="uc-fighter ${members.has(c.cid) ? "current" : ""} ${c.down ? "down" : ""} side-${c.side}" data-testid="uc-fighter" data-cid=${c.cid} data-pv=${c.pv}>
          <div class="uc-fighter-head"><strong>${cname(c)}</strong>
            <span class="small">${c.side === "pc" ? t("unicreon.ui.pc") : t("unicreon.ui.npc")}</span>
            <span class="uc-pv" data-testid="uc-fighter-pv">${c.pv}/${c.pv_max} PV</span>
            ${c.down ? html`<strong class="outcome-bad">${t(`unicreon.down.${c.down}`)}</strong>` : nothing}
            ${members.has(c.cid) ? html`<span class="uc-actions" data-testid="uc-actions-left">${tn("unicreon.ui.actions_left", c.actions)}</span>` : nothing}</div>
          <div class="uc-pvbar" role="meter" aria-label=${t("unicreon.ui.pv_of", { name: cname(c) })} aria-valuemin="0" aria-valuemax=${c.pv_max} aria-valuenow=${c.pv}><div style="width:${pct}%"></div></div>
          <p class="small muted">${["puissance", "agilite", "perception", "volonte"].map((k) => `${charLabel(k).slice(0, 3)}. ${c.characteristics[k]}`).join(" · ")}
            ${c.engaged.length ? html`<br>${t("unicreon.ui.engaged_with", { names: c.engaged.map((x) => cname(byCid(st, x))).join(", ") })}` : nothing}
            ${c.lost.length ? html`<br>${tn("unicreon.ui.lost_weapons", c.lost.length)}` : nothing}</p>
          ${c.down === "down" ? html`<p class="uc-hint small">${t("unicreon.ui.down_choice", { name: cname(c) })}</p>` : nothing}
          <details class="uc-adjust" ?open=${c.down === "down"}><summary>${t("unicreon.ui.adjust")}</summary>
            <div class="row">
              <button type="button" ?disabled=${dis} aria-label=${t("unicreon.ui.pv_minus", { name: cname(c) })} @click=${() => run(app, { op: "unicreon.combat.adjust", cid: c.cid, pv_delta: -1 })}>−1 PV</button>
              <button type="button" ?disabled=${dis} aria-label=${t("unicreon.ui.pv_plus", { name: cname(c) })} @click=${() => run(app, { op: "unicreon.combat.adjust", cid: c.cid, pv_delta: 1 })}>+1 PV</button>
              <label class="visually-hidden" for=${`uc-down-${c.cid}`}>${t("unicreon.ui.down_state")}</label>
              <select id=${`uc-down-${c.cid}`} ?disabled=${dis} @change=${(e) => run(app, { op: "unicreon.combat.adjust", cid: c.cid, down: e.target.value || null })}>
                <option value="" ?selected=${!c.down}>${t("unicreon.ui.up")}</option>
                ${["down", "unconscious", "dead"].map((k) => html`<option value=${k} ?selected=${k === c.down}>${t(`unicreon.down.${k}`)}</option>`)}
              </select>
              <button type="button" class="danger" ?disabled=${dis} @click=${() => run(app, { op: "unicreon.combat.remove", cid: c.cid })}>${t("unicreon.ui.remove")}</button>
            </div>
          </details>
        </li>`;
      })}
    </ul>
  </section>`;
}

// ----------------------------------------------------------------------------- turn & actions
function initiativeLine(st) {
  const rolls = st.combatants.filter((c) => c.initiative).map((c) => ({ name: cname(c), r: c.initiative }));
  if (st.npc_initiative) rolls.push({ name: t("unicreon.ui.mj"), r: st.npc_initiative });
  if (!rolls.length) return nothing;
  return html`<p class="small" data-testid="uc-init-rolls">${t("unicreon.ui.label_colon", { label: t("unicreon.ui.initiative") })} ${rolls.map(({ name, r }, i) => html`${i ? " · " : ""}${name}
    <span class="uc-mini-dice" aria-label=${`d66 ${r.dice.join(" ")}`}>${r.dice[0]}${r.dice[1]}</span>/${r.target} ${r.success ? "✓" : "✗"}`)}</p>`;
}

function turnSection(app, st) {
  const entry = st.order[st.turn];
  const who = entry === "mj" ? t("unicreon.ui.mj") : cname(byCid(st, entry));
  return html`<section class="card uc-turn" aria-labelledby="uc-turn-title">
    <h2 id="uc-turn-title">${st.phase === "surprise" ? t("unicreon.ui.surprise_round") : t("unicreon.ui.round_n", { n: st.round })}</h2>
    <ol class="uc-order" data-testid="uc-order">${st.order.map((e, i) => html`<li class=${i === st.turn ? "current" : ""} aria-current=${i === st.turn ? "step" : "false"}>
      ${e === "mj" ? t("unicreon.ui.mj") : cname(byCid(st, e))}</li>`)}</ol>
    ${initiativeLine(st)}
    <p class="uc-whose" data-testid="uc-whose">${t("unicreon.ui.whose_turn", { who })}</p>
    <button type="button" id="uc-next" ?disabled=${!ready(app) || ui.busy} @click=${() => { run(app, { op: "unicreon.combat.next" }, { announce: (r) => { const e = r.state.order[r.state.turn]; return r.state.phase === "setup" ? t("unicreon.ui.surprise_over") : t("unicreon.ui.whose_turn", { who: e === "mj" ? t("unicreon.ui.mj") : cname(byCid(r.state, e)) }); } }); }}>${t("unicreon.ui.next_turn")}</button>
  </section>`;
}

function attackRequest(st) {
  const req = { attacker: ui.attacker, defender: ui.defender };
  const a = byCid(st, ui.attacker);
  const d = byCid(st, ui.defender);
  if (a?.weapons.some((w) => w.uid === ui.weapon && !a.lost.includes(w.uid))) req.weapon = ui.weapon;
  if (d?.protections.some((p) => p.uid === ui.protection)) req.protection = ui.protection;
  if (ui.ranged) {
    req.ranged = true;
    req.distance = Math.max(0, Math.min(100000, Number(ui.distance) || 0));
  }
  if (ui.aim) req.aim = true;
  if (ui.surprise) req.surprise = true;
  if (ui.attackerSkill) req.attacker_skill = skillLevel(ui.attackerSkill);
  // The defender's skill and malus are the MJ's to set: a player's phone neither offers nor
  // sends them (the MJ's device, which referees the move, would drop them).
  if (livePlayer()) return req;
  if (ui.defenderSkill) req.defender_skill = skillLevel(ui.defenderSkill);
  const malus = Math.max(0, Math.min(4, Number(ui.defenderMalus) || 0));
  if (malus) req.defender_malus = malus;
  return req;
}

/** Whether this page is a player's phone at a live table (the MJ's device referees its moves). */

/** A combat skill choice's level: "<index>:<level>" (a character's own skill) or "<level>". */
function skillLevel(value) {
  return String(value).split(":").pop();
}

/** The skills a fighter may use in this exchange: a character's own, by name ("Escrime — Bon"),
 * else (an NPC of the bestiary) the generic levels. */
function skillOptions(app, fighter, current) {
  const ch = fighter?.character_id ? findCharacter(app.doc, fighter.character_id) : null;
  if (ch?.skills?.length) {
    return ch.skills.map((sk, i) => html`<option value=${`${i}:${sk.level}`} ?selected=${`${i}:${sk.level}` === current}>${skillText(sk)}</option>`);
  }
  return SKILL_LEVELS.map((l) => html`<option value=${l} ?selected=${l === current}>${t(`unicreon.skill.${l}`)}</option>`);
}

function weaponLabel(w) {
  const range = w.range ? ` · ${t("unicreon.ui.range", w.range)}` : "";
  return `${w.ref ? t(`unicreon.item.${w.ref}`) : w.name} [${charLabel(w.characteristic)} ${amountLabel(w.damage)}]${range}`;
}

/** The uids of a fighter's items carried in a given way (`carried` of the character's inventory:
 * "hand", "worn", "bag", "following"; py/tablee/systems/unicreon/character.py), or null for a
 * fighter that is not a character (generic NPCs and beasts carry nothing). */
function carriedUids(app, c, ways) {
  const ch = c.character_id ? findCharacter(app.doc, c.character_id) : null;
  if (!ch) return null;
  return new Set((ch.inventory ?? []).filter((i) => ways.includes(i.carried)).map((i) => i.uid));
}

/** The weapon a character holds (in hand), else the natural attack / bare hands (""): a sword
 * in the bag is not drawn by default. */
function heldWeapon(app, c, weapons) {
  const inHand = carriedUids(app, c, ["hand"]);
  return (inHand && weapons.find((w) => inHand.has(w.uid))?.uid) ?? "";
}

/** The armour worn or shield in hand of the defender; a fighter with no sheet: its first one. */
function wornProtection(app, c) {
  const on = carriedUids(app, c, ["hand", "worn"]);
  if (!on) return c.protections[0]?.uid ?? "";
  return c.protections.find((p) => on.has(p.uid))?.uid ?? "";
}

/** A choice among a fighter's weapons (or protections) as radio buttons whose words wrap: a
 * weapon with its stats and range ("Arbalète (avec malus) [Perception max 9 PV] · portée 15 m
 * (max 30 m)") did not fit a select on a phone, which cut it. `options`: [value, words]; the
 * buttons' ids are `<id>-<value>` (`<id>-none` for ""). */
function choices(id, legend, value, options, onChange) {
  return html`<fieldset class="uc-wide uc-choices" id=${id}><legend>${legend}</legend>
    ${options.map(([v, words]) => html`<label class="check"><input type="radio" name=${id} id=${`${id}-${v || "none"}`} value=${v}
      .checked=${v === value} @change=${() => onChange(v)}> <span>${words}</span></label>`)}
  </fieldset>`;
}

function actionSection(app, st) {
  const members = currentMembers(st).filter((c) => c.actions > 0);
  if (!members.some((c) => c.cid === ui.attacker)) ui.attacker = members[0]?.cid ?? "";
  const a = byCid(st, ui.attacker);
  const foes = st.combatants.filter((c) => c.cid !== ui.attacker && !c.down && (!a || c.side !== a.side));
  if (!foes.some((c) => c.cid === ui.defender)) ui.defender = (a && foes.find((f) => a.engaged.includes(f.cid)))?.cid ?? foes[0]?.cid ?? "";
  const d = byCid(st, ui.defender);
  if (!a) return html`<section class="card uc-action-card"><p class="muted" data-testid="uc-no-actions">${t("unicreon.ui.no_actions_left")}</p></section>`;
  const weapons = a.weapons.filter((w) => !a.lost.includes(w.uid));
  // Another attacker (or the chosen weapon thrown away): the weapon in hand, as the sheet says.
  if (ui.weaponFor !== a.cid || (ui.weapon && !weapons.some((w) => w.uid === ui.weapon))) {
    ui.weapon = heldWeapon(app, a, weapons);
    ui.weaponFor = a.cid;
  }
  const w = weapons.find((x) => x.uid === ui.weapon);
  if (!w?.ranged && ui.ranged) ui.ranged = false;
  if (d && (ui.protectionFor !== d.cid || (ui.protection && !d.protections.some((p) => p.uid === ui.protection)))) {
    ui.protection = wornProtection(app, d);
    ui.protectionFor = d.cid;
  }
  const req = d ? attackRequest(st) : null;
  const odds = req ? attackOdds(app, { op: "unicreon.combat.attack.odds", state: st, ...req }) : null;
  const engaged = d && a.engaged.includes(d.cid);
  const needsEngage = d && !ui.ranged && !engaged;
  const dis = !ready(app) || ui.busy;
  const set = (key, kind) => (e) => { ui[key] = kind === "bool" ? e.target.checked : e.target.value; app.rerender(); };
  const natural = a.natural ? `${t("unicreon.ui.natural")} [${charLabel(a.natural.characteristic)} ${a.natural.damage} PV]` : `${t("unicreon.ui.unarmed")} [${charLabel("puissance")} 1 PV]`;
  const escapable = a.engaged.map((x) => byCid(st, x)).filter(Boolean);
  if (!escapable.some((x) => x.cid === ui.escapeFrom)) ui.escapeFrom = escapable[0]?.cid ?? "";
  return html`<section class="card uc-action-card" aria-labelledby="uc-attack-title">
    <h2 id="uc-attack-title">${t("unicreon.ui.passe")}</h2>
    <div class="uc-grid uc-flow">
      <div class="field"><label for="uc-a-attacker">${t("unicreon.ui.attacker")}</label>
        <select id="uc-a-attacker" @change=${set("attacker")}>${members.map((c) => html`<option value=${c.cid} ?selected=${c.cid === ui.attacker}>${cname(c)}</option>`)}</select></div>
      <div class="field"><label for="uc-a-defender">${t("unicreon.ui.defender")}</label>
        <select id="uc-a-defender" @change=${set("defender")}>${foes.map((c) => html`<option value=${c.cid} ?selected=${c.cid === ui.defender}>${cname(c)} (${c.pv} PV)</option>`)}</select></div>
      ${choices("uc-a-weapon", t("unicreon.ui.weapon"), ui.weapon, [["", natural], ...weapons.map((x) => [x.uid, weaponLabel(x)])], (v) => { ui.weapon = v; app.rerender(); })}
      ${choices("uc-a-protection", t("unicreon.ui.protection"), ui.protection, [["", t("unicreon.ui.no_protection")],
        ...(d?.protections ?? []).map((p) => [p.uid, `${p.ref ? t(`unicreon.item.${p.ref}`) : p.name} [${charLabel(p.characteristic)} ${amountLabel(p.absorb)}]`])],
      (v) => { ui.protection = v; app.rerender(); })}
    </div>
    <div class="row">
      ${w?.ranged ? html`<label class="check"><input type="checkbox" id="uc-a-ranged" .checked=${ui.ranged} @change=${set("ranged", "bool")}> ${t("unicreon.ui.ranged")}</label>` : nothing}
      ${ui.ranged ? html`<div class="field"><label for="uc-a-distance">${t("unicreon.ui.distance")}</label>
        <input id="uc-a-distance" type="number" min="0" .value=${String(ui.distance)} @change=${set("distance")}></div>
        <label class="check"><input type="checkbox" id="uc-a-aim" .checked=${ui.aim} @change=${set("aim", "bool")}> ${t("unicreon.ui.aim")}</label>` : nothing}
      ${!ui.ranged ? html`<label class="check"><input type="checkbox" id="uc-a-surprise" .checked=${ui.surprise} @change=${set("surprise", "bool")}> ${t("unicreon.ui.surprise")}</label>` : nothing}
    </div>
    <div class="uc-grid uc-flow">
      <div class="field"><label for="uc-a-askill">${t("unicreon.ui.attacker_skill")}</label>
        <select id="uc-a-askill" @change=${set("attackerSkill")}><option value="">${t("unicreon.ui.no_skill")}</option>
          ${skillOptions(app, a, ui.attackerSkill)}</select></div>
      ${d && !livePlayer() ? html`<div class="field"><label for="uc-a-dskill">${t("unicreon.ui.defender_skill")}</label>
        <select id="uc-a-dskill" @change=${set("defenderSkill")}><option value="">${t("unicreon.ui.no_skill")}</option>
          ${skillOptions(app, d, ui.defenderSkill)}</select></div>` : nothing}
    </div>
    ${livePlayer() ? nothing : html`<details class="uc-more" ?open=${Boolean(Number(ui.defenderMalus))}><summary>${t("unicreon.ui.skills_in_combat")}</summary>
      <div class="uc-grid uc-flow">
      <div class="field uc-wide"><label for="uc-a-dmalus">${t("unicreon.ui.defender_malus")}</label>
        <select id="uc-a-dmalus" @change=${set("defenderMalus")}>
          ${[0, 1, 2, 3, 4].map((n) => html`<option value=${String(n)} ?selected=${n === Number(ui.defenderMalus)}>${n ? tn("unicreon.ui.steps_harder", n) : t("unicreon.ui.no_malus")}</option>`)}</select></div>
      </div>
    </details>`}
    ${needsEngage ? html`<p class="uc-guide" data-testid="uc-must-engage">${t("unicreon.ui.must_engage")}</p>
      <button type="button" id="uc-engage" ?disabled=${dis} @click=${() => run(app, { op: "unicreon.combat.engage", cid: a.cid, target: d.cid }, { announce: () => t("unicreon.ui.engaged_now", { a: cname(a), d: cname(d) }) })}>${t("unicreon.ui.engage")} (${cname(d)})</button>`
      : d ? html`${oddsView(odds)}${attackButton(app, st, a, d, odds)}` : html`<p class="muted">${t("unicreon.ui.no_foe")}</p>`}
    ${a.lost.length ? html`<div class="row">${a.weapons.filter((x) => a.lost.includes(x.uid)).map((x) => html`<button type="button" ?disabled=${dis}
      @click=${() => run(app, { op: "unicreon.combat.pickup", cid: a.cid, uid: x.uid }, { announce: () => t("unicreon.ui.picked", { name: weaponLabel(x) }) })}>${t("unicreon.ui.label_colon", { label: t("unicreon.ui.pickup") })} ${x.ref ? t(`unicreon.item.${x.ref}`) : x.name}</button>`)}</div>` : nothing}
    ${escapable.length ? escapeView(app, st, a, escapable) : nothing}
  </section>`;
}

function attackButton(app, st, a, d, odds) {
  const reason = engineWhy(app) ?? (!odds ? t("unicreon.ui.why_odds") : odds.error ? t("unicreon.ui.why_odds_error") : null);
  const why = disabledWhy("uc-attack", reason);
  return html`<button type="button" class="primary" id="uc-attack" ?disabled=${Boolean(reason) || ui.busy} aria-describedby=${why.id}
    @click=${() => attack(app, st)}>${t("unicreon.ui.attack_btn", { a: cname(a), d: cname(d) })}</button>${why.note}`;
}

function oddsView(odds) {
  if (!odds) return html`<p class="muted">${t("unicreon.ui.odds_loading")}</p>`;
  if (odds.error) return errorLine(odds.error, "uc-attack-odds-error");
  const s = odds.setup;
  const rows = Object.entries(odds.pv_lost).map(([n, p]) => ({ label: n, p: p.p, percent: p.percent }));
  return html`<div data-testid="uc-attack-odds">
    <p class="small">${t("unicreon.ui.attack_setup", { ac: charLabel(s.attack.characteristic), at: s.attack.target, dmg: amountLabel(s.attack.damage), dc: charLabel(s.defence.characteristic), dt: s.defence.target })}
      ${s.defence.absorb ? html` · ${t("unicreon.ui.absorb")} ${amountLabel(s.defence.absorb)}` : nothing}</p>
    <dl class="facts"><dt>${t("unicreon.ui.hit")}</dt><dd>${prob(odds.hit, "uc-odds-hit")}</dd>
      <dt>${t("unicreon.ui.miss")}</dt><dd>${prob(odds.miss)}</dd>
      <dt>${t("unicreon.ui.absorbed")}</dt><dd>${prob(odds.absorbed)}</dd></dl>
    ${outcomeBar([segment("miss", t("unicreon.ui.miss"), odds.miss.p, "fail-2"),
      segment("absorbed", t("unicreon.ui.hit_absorbed"), odds.absorbed.p, "win-1"),
      segment("hit", t("unicreon.ui.hit_clean"), fractionMinus(odds.hit.p, odds.absorbed.p), "win-3")], { testid: "uc-attack-bar", label: t("unicreon.ui.hit") })}
    ${penaltyLine(odds.defender_penalty, odds)}
    ${renderDistribution(rows, t("unicreon.ui.pv_lost"))}
  </div>`;
}

/** What the defender's difficulty (surprise, extra melee attackers, the MJ's malus) changes:
 * the hit chance the same attack would have against him at Moyen, and both side by side. */
function penaltyLine(pen, odds) {
  if (!pen) return nothing;
  const hitOrMiss = (hit) => [segment("miss", t("unicreon.ui.miss"), fractionMinus("1/1", hit), "fail-2"), segment("hit", t("unicreon.ui.hit"), hit, "win-3")];
  return html`<p class="small" data-testid="uc-defender-penalty" data-steps=${pen.steps}>
    ${tn(pen.steps > 0 ? "unicreon.ui.defender_harder" : "unicreon.ui.defender_easier", Math.abs(pen.steps))}
    ${t("unicreon.ui.hit_at_moyen")} ${prob(pen.hit_at_moyen, "uc-odds-hit-at-moyen")}</p>
    ${compareBars([{ key: "now", label: t("unicreon.ui.whatif_now"), current: true, segments: hitOrMiss(odds.hit.p) },
      { key: "moyen", label: t("unicreon.ui.whatif_moyen"), segments: hitOrMiss(pen.hit_at_moyen.p) }], { testid: "uc-whatif" })}`;
}

async function attack(app, st) {
  const a = byCid(st, ui.attacker);
  const d = byCid(st, ui.defender);
  const seed = newSeed();
  const req = { op: "unicreon.combat.attack", ...attackRequest(st), seed };
  const r = await run(app, req);
  if (!r) return;
  const x = r.exchange;
  const verdict = resultLine(x, cname(d), r.defender_pv, d.pv_max);
  ui.announce = () => resultLine(x, cname(d), r.defender_pv, d.pv_max);
  app.addLog({ kind: "unicreon.attack", system: "unicreon", who: cname(a), label: t("unicreon.ui.passe_vs", { d: cname(d) }), request: req,
    result: { total: x.pv_lost, summary: `${verdict} (${x.attacker.raw} / ${x.defender.raw})`, terms: [d66Term(x.attacker.dice, cname(a)), d66Term(x.defender.dice, cname(d))] } });
  requestAnimationFrame(() => document.getElementById("uc-last")?.scrollIntoView({ block: "nearest", behavior: "smooth" }));
}

/** One line saying what the passe did to the defender, with no gendered agreement:
 * "Touché : Alice −4 PV → 2 PV restants sur 10." / "Coup paré par Alice : aucun dégât." (the
 * attack succeeded, the defence did better) / "Attaque ratée contre Alice : aucun dégât." */
function resultLine(x, name, pv, max) {
  if (!x.hit) return t(x.attacker.success ? "unicreon.ui.parry_result" : "unicreon.ui.miss_result", { d: name });
  if (!x.pv_lost) return t("unicreon.ui.hit_absorbed_result", { d: name, pv, max });
  return t("unicreon.ui.hit_result", { d: name, n: x.pv_lost, pv, max });
}

/** The last passe d'armes of this turn, from the stored state (state.last): it survives a reload. */
function lastView(st) {
  const last = st.last;
  if (!last) return nothing;
  const x = last.exchange;
  const defender = byCid(st, last.defender);
  const r = { aName: cname(byCid(st, last.attacker)), dName: cname(defender), defender_pv: last.defender_pv };
  const max = defender?.pv_max ?? "?";
  // The verdict is good news for one side and bad for the other, and the tracker is shared by
  // the players and the MJ: it is written in a neutral colour and says who won; the winner's
  // column is marked ("l'emporte"), never a successful defence in the failure colour.
  const side = (who, test, won) => html`<div class=${won ? "uc-won" : ""} data-testid=${`uc-side-${who}`}>
    <p><strong>${who === "attacker" ? r.aName : r.dName}</strong>${won ? html` <span class="uc-won-tag">${t("unicreon.ui.wins_tag")}</span>` : nothing}</p>
    ${renderD66(test.dice, who === "attacker" ? r.aName : r.dName)}
    <p class="small">${t("unicreon.ui.raw")} ${test.raw} / ${test.target} ${test.success ? "✓" : "✗"}</p></div>`;
  return html`<div class="uc-result" id="uc-last" data-testid="uc-attack-result" data-hit=${String(x.hit)} data-pv-lost=${x.pv_lost}>
    <div class="uc-two">${side("attacker", x.attacker, x.hit)}${side("defender", x.defender, !x.hit)}</div>
    <p class="uc-verdict outcome-neutral" data-testid="uc-verdict" data-winner=${x.hit ? "attacker" : "defender"}>${x.hit ? t("unicreon.ui.hit_outcome", { name: r.aName })
      : t(x.attacker.success ? "unicreon.ui.parry_outcome" : "unicreon.ui.miss_outcome", { name: r.dName })}</p>
    <p data-testid="uc-damage-line">${x.hit
      ? t("unicreon.ui.damage_line", { d: r.dName, damage: x.damage, absorbed: x.absorbed, lost: x.pv_lost, pv: r.defender_pv, max })
      : t("unicreon.ui.no_damage", { d: r.dName, pv: r.defender_pv, max })}</p>
  </div>`;
}

function escapeView(app, st, a, foes) {
  const odds = ui.escapeFrom ? escapeOdds(app, { op: "unicreon.combat.escape.odds", state: st, cid: a.cid, from: ui.escapeFrom, mode: ui.escapeMode }) : null;
  return html`<details class="uc-escape"><summary>${t("unicreon.ui.escape")}</summary>
    <div class="uc-grid uc-flow">
      <div class="field"><label for="uc-e-from">${t("unicreon.ui.escape_from")}</label>
        <select id="uc-e-from" @change=${(e) => { ui.escapeFrom = e.target.value; app.rerender(); }}>${foes.map((f) => html`<option value=${f.cid} ?selected=${f.cid === ui.escapeFrom}>${cname(f)}</option>`)}</select></div>
      <div class="field"><label for="uc-e-mode">${t("unicreon.ui.escape_mode")}</label>
        <select id="uc-e-mode" @change=${(e) => { ui.escapeMode = e.target.value; app.rerender(); }}>
          ${["opposition", "two_actions"].map((m) => html`<option value=${m} ?selected=${m === ui.escapeMode} ?disabled=${m === "two_actions" && a.actions < 2}>${t(`unicreon.ui.escape_${m}`)}</option>`)}</select></div>
    </div>
    <p>${t("unicreon.ui.chance")} ${odds && !odds.error ? prob(odds.success) : "…"}</p>
    ${odds && !odds.error ? outcomeBar(successBar(odds.success.p), { testid: "uc-escape-bar", label: t("unicreon.ui.escape") }) : nothing}
    <button type="button" ?disabled=${!ready(app) || ui.busy} @click=${async () => {
      const seed = newSeed();
      const r = await run(app, { op: "unicreon.combat.escape", cid: a.cid, from: ui.escapeFrom, mode: ui.escapeMode, seed },
        { announce: (res) => (res.escape?.success === false ? t("unicreon.ui.escape_failed", { name: cname(a) }) : t("unicreon.ui.escaped", { name: cname(a) })) });
      if (r) app.addLog({ kind: "unicreon.escape", system: "unicreon", who: cname(a), label: t("unicreon.ui.escape"), request: { op: "unicreon.combat.escape", cid: a.cid, from: ui.escapeFrom, mode: ui.escapeMode, seed },
        result: { summary: said(ui.announce) } });
    }}>${t("unicreon.ui.escape_btn")}</button>
  </details>`;
}

// ----------------------------------------------------------------------------- end
async function endCombat(app) {
  // The end and the PV written back onto each character, computed from the combat and the
  // sheets as saved when its turn comes, written together (a sheet edited meanwhile: asked again).
  const fighters = (doc) => (combatOf(doc)?.combatants ?? []).map((c) => c.character_id).filter((id) => id && findCharacter(doc, id));
  const r = await combatChange(app, {
    request: (doc) => (combatOf(doc) ? { state: combatOf(doc), sheets: fighters(doc).map((id) => findCharacter(doc, id)) } : null),
    call: async ({ state, sheets }) => {
      const end = await app.call({ op: "unicreon.combat.end", state });
      if (end.error) return end;
      const updated = [];
      for (const back of end.characters) {
        const c = sheets.find((x) => x.id === back.character_id);
        if (!c) continue;
        const applied = await app.call({ op: "unicreon.combat.apply", state: end.state, character: c });
        if (!applied.error) updated.push(applied.character);
      }
      return { ...end, updated };
    },
    characterIds: fighters,
    also: (doc, answer) => answer.updated.forEach((c) => replaceCharacter(doc, c)),
  });
  if (!r) return;
  ui.announce = () => t("unicreon.ui.ended", { names: r.updated.map((c) => `${nameOf(c)} ${c.pv}/${c.pv_max} PV`).join(", ") || "—" });
  app.rerender();
}

export function render(app) {
  const st = combatOf(app.doc);
  const dis = !ready(app) || ui.busy;
  const head = html`${backLink("#/unicreon", t("unicreon.ui.back"))}<h1>${t("unicreon.ui.combat")}</h1>
    <div class="visually-hidden" role="status" aria-live="polite">${said(ui.announce)}</div>
    ${ui.announce ? html`<p class="uc-announce" aria-hidden="true" data-testid="uc-announce">${said(ui.announce)}</p>` : nothing}
    ${errorLine(ui.error, "uc-combat-error")}`;
  const whyEngine = disabledWhy("uc-new-combat", engineWhy(app));
  if (!st) {
    return html`${head}<section class="card"><p>${t("unicreon.ui.no_combat")}</p>
      <button type="button" class="primary" id="uc-new-combat" ?disabled=${dis} aria-describedby=${whyEngine.id} @click=${async () => {
        ui.announce = "";
        // Only on a table that still has no fight (another tab may have opened one meanwhile).
        await combatChange(app, { request: (doc) => (combatOf(doc) ? null : { op: "unicreon.combat.new" }) });
      }}>${t("unicreon.ui.new_combat")}</button>${whyEngine.note}</section>`;
  }
  const fighting = st.phase === "fight" || st.phase === "surprise";
  const endWhy = engineWhy(app) ?? (st.combatants.length ? null : t("unicreon.ui.why_no_fighters"));
  const whyEnd = disabledWhy("uc-end-combat", endWhy);
  return html`${head}
    <p class="small muted" data-testid="uc-phase" data-phase=${st.phase}>${t(`unicreon.ui.phase_${st.phase}`)}</p>
    ${fighting ? html`<div class="split uc-fight">
      <div class="uc-exchange-col" data-testid="uc-exchange-col">
        ${actionSection(app, st)}
        ${st.last ? html`<section class="card uc-last-card" aria-labelledby="uc-last-title"><h2 id="uc-last-title">${t("unicreon.ui.last_passe")}</h2>${lastView(st)}</section>` : nothing}
      </div>
      <div class="uc-tracker-col" data-testid="uc-tracker-col">
        ${turnSection(app, st)}
        ${fighters(app, st)}
      </div>
    </div>` : fighters(app, st)}
    ${st.phase === "setup" || st.phase === "fight" ? seatingSection(app, st) : nothing}
    ${st.phase === "setup" ? initiativeSection(app, st) : nothing}
    ${st.phase !== "over" ? addSection(app, st) : nothing}
    <section class="card">
      ${st.phase !== "over" ? html`<button type="button" class="danger" id="uc-end-combat" ?disabled=${Boolean(endWhy) || ui.busy} aria-describedby=${whyEnd.id} @click=${() => endCombat(app)}>${t("unicreon.ui.end_combat")}</button>
        ${whyEnd.note}<p class="muted small">${t("unicreon.ui.end_help")}</p>`
        : html`<button type="button" id="uc-clear-combat" ?disabled=${dis} @click=${() => { ui.announce = ""; app.update((doc) => putCombat(doc, null)); }}>${t("unicreon.ui.clear_combat")}</button>`}
    </section>`;
}

// Oppositions and chases (#/theorem/chase). Both sides draw from the MK's shared deck as for
// a simple action (figure chains included, every figure played); an opposition compares the
// scores once; a chase repeats oppositions round by round, only the round's winner adding its
// success bonus, until one side's total exceeds the other's by the target (+3 or +5).
// A chase side played by a character is an action like any other each round: announced here
// (theorem.chase.begin, with an exploit), then played on the character's table page (draw, set
// aside, play a set-aside figure, arcane for 10 or its effect). An NPC side draws at once. The
// round's odds (theorem.chase.odds) are shown before each side draws.
// A side "Joué par" a character takes its sphere and skill, as a test does: its base is the
// sheet's (the engine reads it, theorem.opposition.odds answers it), and a one-off opposition
// shows each side's exact level odds before the draw. At a live table a phone draws an
// opposition for its own characters; against another player's character it proposes one
// (theorem.opposition.start) that each side draws on its own phone, or the MK on the MJ's
// device (theorem.opposition.side). A phone is only offered what the referee accepts
// (systems/theorem/moves.py).
// Source: 003_0f8319d4d007e1fe.txt "3) Les actions d'opposition"; reading: rules/README.md.
// Wording: "le MK" / "maître de Ka" as the text says (never "MJ"); a result names who won.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, formatPercent, language, said, t } from "../../i18n.js";
import { newSeed } from "../../storage.js";
import { renderCard } from "../../views/cards.js";
import { disabledWhy, requestCache, onUndo } from "../../views/ui.js";
import {
  SPHERES, backLink, characters, ensureState, eventsText, findCharacter, levelLabel, logDraw, nameOf, numberFace, ready,
  signed, sphereLabel, tableAction, tableState, thError,
} from "./common.js";
import { oppositionOdds, waitingOpposition } from "./opposition.js";
import { levelBar } from "./odds.js";
import { outcomeBar, segment } from "../../views/odds-bar.js";
import { liveCharacters, livePlayer } from "../../live/private.js";

const side = (name, base, start) => ({ name, base, start, who: "", sphere: "animalite", skill: "" });
const ui = { a: side("", 6, 0), b: side("", 6, 0), target: 5, busy: false, error: null, opposition: null, announce: "", exploit: { a: 0, b: 0 } };
const roundOdds = requestCache({ keepStale: true });
const oppOdds = requestCache({ keepStale: true });
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { opposition: null, announce: "", error: null }));

/** A chase op on the latest table state (and the latest sheet of the character `id`, when the
 * op plays one): tableAction replaces the request's `state` (and `character`) by the saved ones
 * when its turn comes and writes the answer only if they are unchanged; `after(answer)` once
 * it is written. */
async function run(app, request, after, id = null) {
  const r = await tableAction(app, ui, id, (state, character) =>
    app.call({ ...request, state, ...(id ? { character } : {}) }).then((a) => (a.error || id ? a : { ...a, character: null })));
  if (!r) return;
  after(r);
  app.rerender();
}

/** A side as the results name it: its name if one is typed, else its character's, else the
 * form's own legend ("Premier camp"): a bare "A" read as "A l'emporte." in the result. */
function sideName(app, s, key) {
  const c = s.who ? findCharacter(app.doc, s.who) : null;
  return s.name.trim().slice(0, 80) || (c ? nameOf(c).slice(0, 80) : t(key === "a" ? "theorem.ui.side_a" : "theorem.ui.side_b"));
}
/** A side as the engine takes it: a side played by a character names it with its sphere and
 * skill (its base is the sheet's: theorem.opposition.*, chase.start read it from `sheets`). */
function sideOf(app, s, key) {
  const out = { name: sideName(app, s, key), base: s.base, start: s.start };
  const c = s.who ? findCharacter(app.doc, s.who) : null;
  if (c) Object.assign(out, { character_id: c.id, sphere: s.sphere, skill: c.skills.some((k) => k.name === s.skill) ? s.skill : null });
  return out;
}
const chaseSideOf = sideOf;
/** The sheets of the characters who play a side (the engine reads their sphere and skill). */
function sheetsOf(app) {
  return ["a", "b"].map((k) => (ui[k].who ? findCharacter(app.doc, ui[k].who) : null)).filter(Boolean)
    .filter((c, i, all) => all.findIndex((x) => x.id === c.id) === i);
}
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, Number.parseInt(v, 10) || 0));

/** Who draws a side on this device: "npc" (no character), "mine" (a character this device may
 * play: any on one device or the MJ's, the player's own on a phone) or "other" (another
 * player's character, on a phone: its player draws it, or the MK). */
function owner(app, s) {
  if (!s.who) return "npc";
  const mine = liveCharacters();
  return mine === null || mine.includes(s.who) ? "mine" : "other";
}

/** What a move from a phone names as the acting character (the referee checks it is theirs). */
function acting(app, request) {
  const mine = liveCharacters();
  if (mine === null) return request;
  const own = ["a", "b"].map((k) => ui[k].who).find((id) => id && mine.includes(id));
  if (own) request.character_id = own;
  return request;
}

/** Choosing who plays a side: a character's side takes a sphere and a skill of its sheet, as a
 * test does (its best skill first), and its base is their sum, shown, never typed. */
function choose(app, s, id) {
  s.who = id;
  const c = id ? findCharacter(app.doc, id) : null;
  if (c) {
    s.sphere = SPHERES.reduce((best, k) => (c.spheres[k] > c.spheres[best] ? k : best), SPHERES[0]);
    s.skill = c.skills[0]?.name ?? "";
  }
  app.rerender();
}

function sideForm(app, key, legend) {
  const s = ui[key];
  const c = s.who ? findCharacter(app.doc, s.who) : null;
  const skill = c?.skills.find((k) => k.name === s.skill) ?? null;
  // Shown as the sheet gives it (the engine reads the same sum from the sheet when it draws).
  const base = c ? c.spheres[s.sphere] + (skill?.level ?? 0) : null;
  return html`<fieldset class="th-side"><legend>${legend}</legend>
    <div class="field"><label for=${`th-${key}-who`}>${t("theorem.ui.side_who")}</label>
      <select id=${`th-${key}-who`} @change=${(e) => choose(app, s, e.target.value)}>
        <option value="" ?selected=${!s.who}>${t("theorem.ui.side_npc")}</option>
        ${characters(app.doc).map((x) => html`<option value=${x.id} ?selected=${x.id === s.who}>${nameOf(x)}</option>`)}
      </select></div>
    <div class="field"><label for=${`th-${key}-name`}>${t("theorem.ui.side_name")}</label>
      <input id=${`th-${key}-name`} maxlength="80" .value=${s.name} placeholder=${c ? nameOf(c) : ""} @input=${(e) => { s.name = e.target.value; }}></div>
    ${c ? html`<div class="th-grid">
      <div class="field"><label for=${`th-${key}-sphere`}>${t("theorem.ui.sphere")}</label>
        <select id=${`th-${key}-sphere`} @change=${(e) => { s.sphere = e.target.value; app.rerender(); }}>
          ${SPHERES.map((k) => html`<option value=${k} ?selected=${k === s.sphere}>${sphereLabel(k)} (${c.spheres[k]})</option>`)}
        </select></div>
      <div class="field"><label for=${`th-${key}-skill`}>${t("theorem.ui.skill")}</label>
        <select id=${`th-${key}-skill`} @change=${(e) => { s.skill = e.target.value; app.rerender(); }}>
          <option value="" ?selected=${!skill}>${t("theorem.ui.no_skill")}</option>
          ${c.skills.map((k) => html`<option value=${k.name} ?selected=${k.name === skill?.name}>${k.name} (${k.level})</option>`)}
        </select></div>
    </div>
    <p data-testid=${`th-${key}-base-sheet`} data-base=${base}>${t("theorem.ui.side_base_sheet", {
      base, sphere: sphereLabel(s.sphere), level: c.spheres[s.sphere], skill: skill ? ` + ${skill.name} ${skill.level}` : "" })}</p>` : nothing}
    <div class="th-grid">
      ${c ? nothing : html`<div class="field"><label for=${`th-${key}-base`}>${t("theorem.ui.side_base")}</label>
        <input id=${`th-${key}-base`} type="number" min="-20" max="40" .value=${String(s.base)} @change=${(e) => { s.base = clamp(e.target.value, -20, 40); e.target.value = s.base; app.rerender(); }}></div>`}
      <div class="field"><label for=${`th-${key}-start`}>${t("theorem.ui.side_start")}</label>
        <input id=${`th-${key}-start`} type="number" min="-10" max="10" .value=${String(s.start)} @change=${(e) => { s.start = clamp(e.target.value, -10, 10); e.target.value = s.start; app.rerender(); }}></div>
    </div>
  </fieldset>`;
}

function chainCards(chain) {
  return html`<ol class="th-chain th-chain-small">${chain.map((card) => html`<li>${renderCard(card, { face: numberFace, testid: "th-opp-card" })}<span class="th-term">${signed(card.term)}</span></li>`)}</ol>`;
}

function opposition(app) {
  const state = tableState(app.doc);
  const seed = newSeed();
  // At a live table the draw is a move: each side played by a character must be the player's
  // (the page offers "Proposer l'opposition" otherwise); the MJ's device reads the sheets from
  // its own records (systems/theorem/moves.py).
  const a = sideOf(app, ui.a, "a");
  const b = sideOf(app, ui.b, "b");
  // The sides as the form named them: an unnamed side is named in the language shown ("Premier
  // camp", "First side"), also after the language changes.
  const named = { a: { ...ui.a }, b: { ...ui.b } };
  run(app, { op: "theorem.opposition.draw", state, a, b, sheets: sheetsOf(app), seed }, (r) => {
    const names = [() => sideName(app, named.a, "a"), () => sideName(app, named.b, "b")];
    ui.opposition = { ...r.result, names };
    const res = r.result;
    ui.announce = () => {
      const winner = res.winner === null ? t("theorem.ui.tie") : t("theorem.ui.winner", { name: said(names[res.winner === "a" ? 0 : 1]) });
      return `${winner} (${res.score_a} — ${res.score_b}) ${eventsText(res.events)}`;
    };
    logDraw(app, { kind: "theorem.opposition", who: `${a.name} / ${b.name}`, label: t("theorem.ui.opposition_log", { a: a.name, b: b.name }),
      request: { op: "theorem.opposition.draw", a: { ...a, base: res.base_a }, b: { ...b, base: res.base_b }, seed }, deck: r.deck_used, summary: said(ui.announce),
      drawn: [res.chain_a.map((x) => x.id), res.chain_b.map((x) => x.id)] });
  });
}

/** A side's score, the level its score reaches on the success table and, when the opposition
 * changed it, what it became: "22 → Grande réussite, réduite à Réussite normale". */
function sideLine(name, score, raw, out, won) {
  const params = { name, score, raw: levelLabel(raw.level), level: levelLabel(out.level) };
  if (raw.level === out.level) return t("theorem.ui.opp_side", params);
  return t(won ? "theorem.ui.opp_side_reduced" : "theorem.ui.opp_side_lost", params);
}

/** Why the winner's degree is what it is (003, "3) Les actions d'opposition": « On déduit les
 * cases de réussite du perdant du nombre de cases de réussite du vainqueur », and « Le
 * vainqueur d'un tirage d'opposition ne pourra jamais obtenir moins qu'une réussite normale »):
 * a total of 22 against a 17 is a grande réussite (3 cases) less a moyenne (2): 1 case, a
 * réussite normale. Said only when the loser's success took something off. */
function oppositionWhy(o) {
  if (o.winner === null) return nothing;
  const [won, lost] = o.winner === "a" ? [o.raw_a, o.raw_b] : [o.raw_b, o.raw_a];
  if (lost.cases <= 0) return nothing;
  const final = o.winner === "a" ? o.a : o.b;
  const n = won.cases - lost.cases;
  const key = n < final.cases ? "theorem.ui.opp_why_floor" : "theorem.ui.opp_why";
  // In a French sentence the level is a common noun ("soit une réussite normale"); English keeps
  // Théorem's French term as the interface names it.
  const level = language() === "fr" ? levelLabel(final.level).toLocaleLowerCase("fr") : levelLabel(final.level);
  return html`<p class="small" data-testid="th-opp-why">${t(key, { won: won.cases, lost: lost.cases, n, level })}</p>`;
}

function oppositionResult() {
  const o = ui.opposition;
  if (!o) return nothing;
  const [na, nb] = o.names.map(said);
  return html`<div class="th-opp-result" data-testid="th-opp-result" data-winner=${o.winner ?? "tie"}>
    <p><strong>${o.winner === null ? t("theorem.ui.tie") : t("theorem.ui.winner", { name: o.winner === "a" ? na : nb })}</strong></p>
    ${oppositionWhy(o)}
    <p data-testid="th-opp-side">${sideLine(na, o.score_a, o.raw_a, o.a, o.winner !== "b")}</p>${chainCards(o.chain_a)}
    <p data-testid="th-opp-side">${sideLine(nb, o.score_b, o.raw_b, o.b, o.winner !== "a")}</p>${chainCards(o.chain_b)}
  </div>`;
}

function startChase(app) {
  const a = chaseSideOf(app, ui.a, "a");
  const b = chaseSideOf(app, ui.b, "b");
  run(app, { op: "theorem.chase.start", state: tableState(app.doc), a, b, target: ui.target, sheets: sheetsOf(app) }, () => {
    ui.announce = () => t("theorem.ui.chase_started");
  });
}

function chaseRound(app) {
  const state = tableState(app.doc);
  const seed = newSeed();
  run(app, { op: "theorem.chase.round", state, seed }, (r) => {
    const rd = r.round;
    const ch = r.state.chase;
    const name = (k) => (k === "a" ? ch.a.name : ch.b.name);
    ui.announce = () => [
      t("theorem.ui.round_announce", { n: ch.rounds.length, a: rd.score_a, b: rd.score_b }),
      rd.winner ? t("theorem.ui.round_winner", { name: name(rd.winner), gain: rd.gain }) : t("theorem.ui.tie"),
      rd.done ? t("theorem.ui.chase_won", { name: name(rd.done) }) : "",
      eventsText(rd.events),
    ].filter(Boolean).join(" ");
    logDraw(app, { kind: "theorem.chase", who: `${ch.a.name} / ${ch.b.name}`, label: t("theorem.ui.chase_log", { n: ch.rounds.length }),
      request: { op: "theorem.chase.round", seed }, deck: r.deck_used, summary: said(ui.announce), drawn: [rd.cards_a, rd.cards_b] });
  });
}

/** One side's turn: an NPC side draws now; a character's side is announced (its exploit paid)
 * and played on its table page like any action. */
function beginSide(app, ch, key) {
  const state = tableState(app.doc);
  const seed = newSeed();
  const cid = ch[key].character_id;
  const c = cid ? findCharacter(app.doc, cid) : null;
  const request = { op: "theorem.chase.begin", state, side: key, seed };
  if (c) Object.assign(request, { character: c, exploit: ui.exploit[key] });
  run(app, request, (r) => {
    if (c) {
      location.hash = `#/theorem/test/${encodeURIComponent(c.id)}`;
      return;
    }
    const res = r.result;
    const rd = res.round;
    const name = (k) => (k === "a" ? ch.a.name : ch.b.name);
    ui.announce = () => [
      t("theorem.ui.side_drew", { name: ch[key].name, score: res.score }),
      rd ? (rd.winner ? t("theorem.ui.round_winner", { name: name(rd.winner), gain: rd.gain }) : t("theorem.ui.tie")) : "",
      rd?.done ? t("theorem.ui.chase_won", { name: name(rd.done) }) : "",
      eventsText(res.events),
    ].filter(Boolean).join(" ");
    logDraw(app, { kind: "theorem.chase", who: ch[key].name, label: t("theorem.ui.chase_log", { n: ch.rounds.length + 1 }),
      request: { op: "theorem.chase.begin", side: key, seed }, deck: r.deck_used, summary: said(ui.announce) });
  }, c?.id ?? null);
}

/** Before each side draws: each side's chance of each level, and the round's exact odds once
 * one side has drawn. */
function roundPanel(app, ch, state) {
  const r = ready(app) ? roundOdds(app, { op: "theorem.chase.odds", state }) : null;
  const odds = r && !r.error ? r : null;
  const current = ch.current ?? {};
  const sideRow = (key) => {
    const sd = ch[key];
    const c = sd.character_id ? findCharacter(app.doc, sd.character_id) : null;
    const pending = c ? state.pending[c.id] : null;
    const so = odds?.sides[key];
    let action;
    if (current[key]) action = html`<p data-testid=${`th-side-score-${key}`}>${t("theorem.ui.side_drew", { name: sd.name, score: current[key].score })}</p>`;
    else if (pending?.chase === key) {
      action = html`<a class="button" id=${`th-play-${key}`} href=${`#/theorem/test/${encodeURIComponent(c.id)}`}>${t("theorem.ui.play_turn", { name: sd.name })}</a>`;
    } else if (sd.character_id && !c) action = html`<p class="field-error">${t("theorem.ui.not_found")}</p>`;
    else if (livePlayer() && !(c && liveCharacters().includes(c.id))) {
      // A phone announces its own character's turn only: an NPC's side is the MK's to draw, another
      // player's character's is that player's (the referee refuses both from this phone).
      action = html`<p class="muted small" data-testid=${`th-round-wait-${key}`}>${t(c ? "theorem.ui.round_wait_player" : "theorem.ui.round_wait_mk", { name: sd.name })}</p>`;
    } else {
      action = html`${c ? html`<div class="field"><label for=${`th-exploit-${key}`}>${t("theorem.ui.exploit", { max: c.spheres.divinite })}</label>
          <select id=${`th-exploit-${key}`} @change=${(e) => { ui.exploit[key] = Number(e.target.value); }}>
            ${Array.from({ length: Math.min(c.spheres.divinite, c.realite) + 1 }, (_, n) => html`<option value=${n} ?selected=${n === ui.exploit[key]}>${n === 0 ? t("theorem.ui.no_exploit") : `+${n}`}</option>`)}
          </select></div>` : nothing}
        <button type="button" class=${c ? "primary" : ""} id=${`th-begin-${key}`} ?disabled=${!ready(app) || ui.busy || Boolean(pending)}
          @click=${() => beginSide(app, ch, key)}>${t(c ? "theorem.ui.announce_turn" : "theorem.ui.draw_for", { name: sd.name })}</button>`;
    }
    return html`<div class="th-round-side" data-testid=${`th-round-side-${key}`} data-drawn=${String(Boolean(current[key]))}>
      <h3>${sd.name}</h3>
      ${so && !so.drawn ? html`<ul class="th-levels odds-inline small" data-testid=${`th-round-levels-${key}`}>
        ${[...so.levels].reverse().map((row) => html`<li data-level=${row.level} data-p=${row.fraction}><strong>${levelLabel(row.level)}</strong>${colon()}<span class="nowrap">${formatPercent(row.percent)}</span></li>`)}
      </ul>${outcomeBar(levelBar(so.levels), { testid: `th-round-bar-${key}`, label: sd.name })}` : nothing}
      ${action}
    </div>`;
  };
  return html`<div class="th-round" data-testid="th-round-panel">
    <h3>${t("theorem.ui.round_n", { n: ch.rounds.length + 1 })}</h3>
    ${odds?.round ? html`<p data-testid="th-round-odds" data-a=${odds.round.a.fraction} data-b=${odds.round.b.fraction} data-tie=${odds.round.tie.fraction}>
      ${t("theorem.ui.round_odds", { a: ch.a.name, pa: formatPercent(odds.round.a.percent), b: ch.b.name, pb: formatPercent(odds.round.b.percent), tie: formatPercent(odds.round.tie.percent) })}</p>
      ${outcomeBar([segment("b", ch.b.name, odds.round.b.fraction, "fail-2"), segment("tie", t("theorem.ui.round_tie"), odds.round.tie.fraction, "neutral"),
        segment("a", ch.a.name, odds.round.a.fraction, "win-3")], { testid: "th-round-bar" })}`
      : html`<p class="muted small">${t("theorem.ui.round_odds_later")}</p>`}
    <div class="th-sides">${sideRow("a")}${sideRow("b")}</div>
  </div>`;
}

function endChase(app) {
  run(app, { op: "theorem.chase.end", state: tableState(app.doc) }, () => {
    ui.announce = () => t("theorem.ui.chase_closed");
  });
}

function chaseTracker(app, ch, state) {
  const card = (id) => state.deck.cards[id];
  return html`<section class="card" aria-labelledby="th-chase-title" data-testid="th-chase" data-done=${ch.done ?? ""}>
    <h2 id="th-chase-title">${t("theorem.ui.chase_title", { a: ch.a.name, b: ch.b.name })}</h2>
    <p>${t("theorem.ui.chase_rule", { target: ch.target })}</p>
    <p class="th-totals" data-testid="th-chase-totals" data-a=${ch.total_a} data-b=${ch.total_b}>
      ${ch.a.name} : <strong>+${ch.total_a}</strong> · ${ch.b.name} : <strong>+${ch.total_b}</strong></p>
    ${ch.done ? html`<p class="th-level th-level-grande" data-testid="th-chase-done">${t("theorem.ui.chase_won", { name: ch.done === "a" ? ch.a.name : ch.b.name })}</p>` : nothing}
    <div class="th-table-scroll"><table class="th-rounds" data-testid="th-rounds">
      <caption class="visually-hidden">${t("theorem.ui.rounds")}</caption>
      <thead><tr><th scope="col">#</th><th scope="col">${ch.a.name}</th><th scope="col">${ch.b.name}</th><th scope="col">${t("theorem.ui.round_result")}</th></tr></thead>
      <tbody>${ch.rounds.map((rd, i) => html`<tr data-testid="th-round">
        <th scope="row">${i + 1}</th>
        <td>${rd.score_a} <span class="small muted">(${rd.cards_a.map((id) => numberFace(card(id)).aria).join(", ")})</span></td>
        <td>${rd.score_b} <span class="small muted">(${rd.cards_b.map((id) => numberFace(card(id)).aria).join(", ")})</span></td>
        <td>${rd.winner ? `${rd.winner === "a" ? ch.a.name : ch.b.name} +${rd.gain}` : t("theorem.ui.tie")} · ${rd.total_a}/${rd.total_b}</td>
      </tr>`)}</tbody>
    </table></div>
    ${ch.done || !(ch.a.character_id || ch.b.character_id || ch.current) ? nothing : roundPanel(app, ch, state)}
    ${livePlayer() ? html`<p class="muted small" data-testid="th-chase-mk-only">${t("theorem.ui.chase_mk_only")}</p>` : html`<div class="row">
      ${ch.done || ch.a.character_id || ch.b.character_id || ch.current ? nothing : html`<button type="button" class="primary" id="th-chase-round" ?disabled=${!ready(app) || ui.busy} @click=${() => chaseRound(app)}>${t("theorem.ui.chase_next")}</button>`}
      <button type="button" id="th-chase-end" ?disabled=${!ready(app) || ui.busy} @click=${() => endChase(app)}>${t("theorem.ui.chase_end")}</button>
    </div>`}
  </section>`;
}

/** Start an opposition drawn side by side: each side draws on its own (its player's phone, or
 * the MK's device). A phone names its own character as the acting one. */
function propose(app) {
  const a = sideOf(app, ui.a, "a");
  const b = sideOf(app, ui.b, "b");
  run(app, acting(app, { op: "theorem.opposition.start", state: tableState(app.doc), a, b, sheets: sheetsOf(app) }), () => {
    ui.opposition = null;
    ui.announce = () => t("theorem.ui.opp_proposed", { a: a.name, b: b.name });
  });
}

/** Why this device cannot draw or propose the opposition the form describes (null: it can). */
function drawWhyNot(app, state, own) {
  if (!ready(app) || !state) return t("theorem.ui.why_engine");
  if (ui.a.who && ui.a.who === ui.b.who) return t("error.theorem.opposition.same");
  if (liveCharacters() !== null && own.a !== "mine" && own.b !== "mine") return t("theorem.ui.why_opp_none_mine");
  return null;
}

export function render(app) {
  ensureState(app);
  const state = tableState(app.doc);
  const ch = state?.chase ?? null;
  // A disabled button says why: the engine first, then a chase still running.
  const engineWhy = !ready(app) || !state ? t("theorem.ui.why_engine") : null;
  const startWhy = engineWhy ?? (ch && !ch.done ? t("theorem.ui.why_chase_running") : null);
  const own = { a: owner(app, ui.a), b: owner(app, ui.b) };
  const player = livePlayer();
  // Against another player's character a phone proposes (each draws their own side); the MJ's
  // device may draw both at once or propose when both sides are characters.
  const mustPropose = own.a === "other" || own.b === "other";
  const mayPropose = mustPropose || (!player && Boolean(ui.a.who) && Boolean(ui.b.who));
  const waiting = state?.opposition && state.opposition.result === null;
  const oppWhy = drawWhyNot(app, state, own);
  const proposeWhy = oppWhy ?? (waiting ? t("theorem.ui.why_opp_waiting") : null);
  const whyDraw = disabledWhy("th-opp-draw", oppWhy);
  const whyPropose = disabledWhy("th-opp-start", proposeWhy);
  const whyStart = disabledWhy("th-chase-start", startWhy);
  const oddsAnswer = !oppWhy ? oppOdds(app, { op: "theorem.opposition.odds", state, a: sideOf(app, ui.a, "a"), b: sideOf(app, ui.b, "b"), sheets: sheetsOf(app) }) : null;
  const odds = oddsAnswer && !oddsAnswer.error ? oddsAnswer : null;
  return html`
    ${backLink("#/theorem", t("theorem.ui.back"))}
    <h1>${t("theorem.ui.chase_page")}</h1>
    <div class="visually-hidden" role="status" aria-live="polite" data-testid="th-announce">${said(ui.announce)}</div>
    ${ui.error ? html`<p class="field-error" role="alert">${thError(ui.error)}</p>` : nothing}
    ${state && ch ? chaseTracker(app, ch, state) : nothing}
    ${state ? waitingOpposition(app, state, { run: (request, after) => run(app, request, after), holder: ui }) : nothing}
    <section class="card" aria-labelledby="th-sides-title">
      <h2 id="th-sides-title">${t("theorem.ui.sides")}</h2>
      <p class="muted small">${t("theorem.ui.sides_help")}</p>
      <div class="th-sides">${sideForm(app, "a", t("theorem.ui.side_a"))}${sideForm(app, "b", t("theorem.ui.side_b"))}</div>
      ${odds ? oppositionOdds(odds, { a: sideName(app, ui.a, "a"), b: sideName(app, ui.b, "b") }) : nothing}
      <div class="row">
        ${mustPropose ? nothing : html`<button type="button" id="th-opp-draw" class=${mayPropose ? "" : "primary"} ?disabled=${Boolean(oppWhy) || ui.busy} aria-describedby=${whyDraw.id} @click=${() => opposition(app)}>${t("theorem.ui.opposition_draw")}</button>`}
        ${mayPropose ? html`<button type="button" id="th-opp-start" class=${mustPropose ? "primary" : ""} ?disabled=${Boolean(proposeWhy) || ui.busy} aria-describedby=${whyPropose.id} @click=${() => propose(app)}>${t("theorem.ui.opp_propose")}</button>` : nothing}
      </div>${mustPropose ? whyPropose.note : whyDraw.note}
      ${mayPropose ? html`<p class="small muted" data-testid="th-opp-propose-help">${t(mustPropose ? "theorem.ui.opp_propose_help_player" : "theorem.ui.opp_propose_help")}</p>` : nothing}
      ${oppositionResult()}
      ${player ? (ch ? nothing : html`<p class="muted small" data-testid="th-chase-mk-only">${t("theorem.ui.chase_mk_only")}</p>`) : html`
      <fieldset class="th-target"><legend>${t("theorem.ui.target")}</legend>
        ${[3, 5].map((n) => html`<label class="check"><input type="radio" name="th-target" value=${n} .checked=${ui.target === n}
          @change=${() => { ui.target = n; }}> +${n}</label>`)}
      </fieldset>
      <button type="button" class="primary" id="th-chase-start" ?disabled=${Boolean(startWhy) || ui.busy} aria-describedby=${whyStart.id}
        @click=${() => startChase(app)}>${t("theorem.ui.chase_start")}</button>${whyStart.note}`}
    </section>
  `;
}

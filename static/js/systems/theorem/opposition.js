// Théorem oppositions, the parts the chase page (#/theorem/chase) shows beside its form: each
// side's exact level odds before a one-off draw, and an opposition drawn side by side (two
// players' characters at a live table: each side is drawn by its own player on their phone, or
// by the MK on the MJ's device). Source: 003_0f8319d4d007e1fe.txt "3) Les actions
// d'opposition"; the engine's side: py/tablee/systems/theorem/oppositions.py.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { colon, formatPercent, said, t } from "../../i18n.js";
import { liveCharacters } from "../../live/private.js";
import { newSeed } from "../../storage.js";
import { renderCard } from "../../views/cards.js";
import { eventsText, levelLabel, logDraw, numberFace, ready, signed } from "./common.js";
import { outcomeBar } from "../../views/odds-bar.js";
import { levelBar } from "./odds.js";

/** Each side's chance of each level (theorem.opposition.odds), shown before the draw. */
export function oppositionOdds(odds, names) {
  if (!odds || odds.error) return nothing;
  const side = (key, name) => html`<div data-testid=${`th-opp-odds-${key}`} data-base=${odds[key].base}>
    <h3 class="th-odds-head">${name}</h3>
    <ul class="th-levels odds-inline small">
      ${[...odds[key].levels].reverse().map((row) => html`<li data-level=${row.level} data-p=${row.fraction}><strong>${levelLabel(row.level)}</strong>${colon()}<span class="nowrap">${formatPercent(row.percent)}</span></li>`)}
    </ul>${outcomeBar(levelBar(odds[key].levels), { testid: `th-opp-bar-${key}`, label: name })}</div>`;
  return html`<div class="th-opp-odds" data-testid="th-opp-odds">
    <p class="small muted">${t("theorem.ui.opp_odds_help")}</p>
    <div class="th-sides">${side("a", names.a)}${side("b", names.b)}</div>
  </div>`;
}

/** Whether this device draws a side of the waiting opposition: the MJ's device (or one device)
 * any side; a player's phone only its own character's side (the referee refuses the rest). */
function mayDraw(sd) {
  const mine = liveCharacters();
  return mine === null || (Boolean(sd.character_id) && mine.includes(sd.character_id));
}

const chain = (state, ids) => html`<ol class="th-chain th-chain-small">${ids.map((id) => html`<li>${renderCard(state.deck.cards[id], { face: numberFace, testid: "th-opp-card" })}</li>`)}</ol>`;

/** The opposition waiting for its sides' draws (or just settled), with what this device may do.
 * `run(request, after)` makes a table change as the chase page does; `holder` is its busy state. */
export function waitingOpposition(app, state, { run, holder }) {
  const op = state.opposition;
  if (!op) return nothing;
  const mine = liveCharacters();
  const current = op.current ?? {};
  const draw = (key) => {
    const seed = newSeed();
    const request = { op: "theorem.opposition.side", state, side: key, seed };
    if (mine !== null) request.character_id = op[key].character_id;
    run(request, (r) => {
      const name = op[key].name;
      holder.announce = () => [
        t("theorem.ui.side_drew", { name, score: r.score }),
        r.result ? (r.result.winner === null ? t("theorem.ui.tie") : t("theorem.ui.winner", { name: op[r.result.winner].name })) : "",
        eventsText(r.events),
      ].filter(Boolean).join(" ");
      logDraw(app, { kind: "theorem.opposition", who: name, label: t("theorem.ui.opposition_log", { a: op.a.name, b: op.b.name }),
        request: { op: "theorem.opposition.side", side: key, seed }, deck: r.deck_used, summary: said(holder.announce),
        drawn: [r.chain.map((x) => x.id)] });
    });
  };
  const cancel = () => {
    const request = { op: "theorem.opposition.cancel", state };
    if (mine !== null) request.character_id = [op.a, op.b].find((sd) => sd.character_id && mine.includes(sd.character_id))?.character_id;
    run(request, () => { holder.announce = () => t("theorem.ui.opp_cancelled"); });
  };
  const res = op.result;
  const sideRow = (key) => {
    const sd = op[key];
    const drawn = current[key];
    let action;
    if (drawn) {
      action = html`<p data-testid=${`th-opp-side-score-${key}`} data-score=${drawn.score}>${t("theorem.ui.side_drew", { name: sd.name, score: drawn.score })}
        <span class="small muted">(${signed(drawn.value)})</span></p>${chain(state, drawn.cards)}`;
    } else if (res === null && mayDraw(sd)) {
      action = html`<button type="button" class="primary" id=${`th-opp-side-${key}`} ?disabled=${!ready(app) || holder.busy}
        @click=${() => draw(key)}>${t(mine === null && sd.character_id ? "theorem.ui.opp_draw_for_mk" : "theorem.ui.draw_for", { name: sd.name })}</button>`;
    } else if (res === null) {
      action = html`<p class="muted" data-testid=${`th-opp-wait-${key}`}>${t(sd.character_id ? "theorem.ui.opp_wait_player" : "theorem.ui.opp_wait_mk", { name: sd.name })}</p>`;
    }
    return html`<div class="th-round-side" data-testid=${`th-opp-side-${key}`} data-drawn=${String(Boolean(drawn))}>
      <h3>${sd.name}</h3>${action ?? nothing}</div>`;
  };
  const mayCancel = res === null && (mine === null || [op.a, op.b].some((sd) => sd.character_id && mine.includes(sd.character_id)));
  return html`<section class="card" aria-labelledby="th-opp-waiting-title" data-testid="th-opp-waiting"
      data-winner=${res ? res.winner ?? "tie" : nothing}>
    <h2 id="th-opp-waiting-title">${t("theorem.ui.opp_waiting_title", { a: op.a.name, b: op.b.name })}</h2>
    ${res ? html`<p data-testid="th-opp-waiting-result"><strong>${res.winner === null ? t("theorem.ui.tie") : t("theorem.ui.winner", { name: op[res.winner].name })}</strong>
      (${res.score_a} — ${res.score_b}) · ${op.a.name}${colon()}${levelLabel(res.level_a)} · ${op.b.name}${colon()}${levelLabel(res.level_b)}</p>`
      : html`<p class="small muted">${t("theorem.ui.opp_waiting_help")}</p>`}
    <div class="th-sides">${sideRow("a")}${sideRow("b")}</div>
    ${mayCancel ? html`<button type="button" id="th-opp-cancel" ?disabled=${!ready(app) || holder.busy} @click=${cancel}>${t("theorem.ui.opp_cancel")}</button>` : nothing}
  </section>`;
}

// Who is at the live table, on both sides (views/live.js): the people and their state, what a
// player asks to play and the MJ confirms, a phone's waiting moves and its hand, and leaving.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { colon, t } from "../i18n.js";
import { arcaneName } from "../systems/theorem/common.js";
import { current, leave, tableClosed } from "../live/connect.js";
import { closeForEveryone } from "./live-host.js";
import { opLabel } from "./live-feed.js";

function characterName(app, id) {
  return app.doc.characters.find((c) => c.id === id)?.name ?? id;
}

function peopleList(app, session) {
  const people = session.presence();
  return html`<ul class="live-people" data-testid="live-people">
    ${people.map((p) => html`<li data-member=${p.id} data-here=${p.here ? "yes" : "no"}>
      <strong>${p.name}</strong>${p.me ? html` <span class="muted">(${t("live.you")})</span>` : nothing}
      — ${p.role === "mj" ? t("live.role_mj") : t("live.role_player")}, ${p.here ? t("live.here") : p.me ? t("live.me_offline") : t("live.away_short")}
      ${p.characters.length ? html`<span class="muted"> · ${t("live.plays", { names: p.characters.map((id) => characterName(app, id)).join(", ") })}</span>` : nothing}
    </li>`)}
  </ul>`;
}

function claimForm(app, session) {
  const chars = app.doc.characters;
  if (!chars.length) return html`<p class="muted">${t("live.claim_none")}</p>`;
  const mine = new Set(session.assigned());
  const asked = session.asked();
  // The whole set this player wants: asking sends it, the MJ confirms it on their device.
  const wanted = new Set(asked.length ? asked : mine);
  const toggle = (id, on) => session.ask(on ? [...wanted, id] : [...wanted].filter((x) => x !== id));
  return html`<fieldset class="live-claim"><legend>${t("live.claim_title")}</legend>
    <p class="muted small">${t("live.claim_help")}</p>
    ${chars.map((c) => html`<label class="check"><input type="checkbox" data-character=${c.id} data-assigned=${mine.has(c.id) ? "yes" : "no"}
      .checked=${wanted.has(c.id)} @change=${(e) => toggle(c.id, e.target.checked)}>
      ${c.name}</label>`)}
    ${asked.length ? html`<p class="muted small" data-testid="live-asked">${t("live.asked", { names: asked.map((id) => characterName(app, id)).join(", ") })}</p>` : nothing}
  </fieldset>`;
}

/** The MJ confirms what players asked for (a character is played by one player at a time). A
 * character another player plays already is said plainly and has its own button, which says
 * that it takes the character from that player: never handed over by the « Confirmer » of the
 * rest (a phone under a known name could otherwise take a player's character and hand). */
function assignSection(app, session) {
  const asking = session.presence().filter((p) => p.role === "player" && p.asked.length);
  if (!asking.length) return nothing;
  const holder = new Map();
  for (const p of session.presence()) for (const c of p.characters) holder.set(c, p);
  return html`<div data-testid="live-assign"><h3>${t("live.assign_title")}</h3><ul>
    ${asking.map((p) => {
      const free = p.asked.filter((id) => !holder.get(id) || holder.get(id).id === p.id);
      const taken = p.asked.filter((id) => !free.includes(id));
      return html`<li data-member=${p.id}><strong>${p.name}</strong>${colon()}${free.map((id) => html`${characterName(app, id)}; `)}
      ${free.length ? html`<button type="button" data-confirm=${p.id} @click=${() => session.assign(p.id, free)}>${t("live.assign_confirm")}</button>` : nothing}
      ${taken.map((id) => html`<p class="live-contested" data-contested=${id}>${t("live.assigned_elsewhere_plain", { character: characterName(app, id), other: holder.get(id).name })}
        <button type="button" data-take=${id} @click=${() => session.assign(p.id, [...new Set([...p.characters, id])])}>${t("live.assign_take", { character: characterName(app, id), other: holder.get(id).name, name: p.name })}</button></p>`)}</li>`;
    })}
  </ul></div>`;
}

/** A phone's moves waiting for the table (no link): each can be cancelled. */
function pendingSection(session) {
  if (!session.queue.length) return nothing;
  return html`<div data-testid="live-pending" role="status"><h3>${t("live.pending_title", { n: session.queue.length })}</h3>
    <p class="muted small">${t("live.pending_help")}</p>
    <ul>${session.queue.map((q) => html`<li data-move=${q.id}>${q.label ?? opLabel(q.move.op)}
      <button type="button" @click=${() => session.cancel(q.id)}>${t("live.pending_cancel")}</button></li>`)}</ul>
  </div>`;
}

/** A hidden card as its player reads it: an arcane by its name ("Le Bateleur"), never its id. */
function cardWords(id) {
  return typeof id === "string" && /^arcane-\d\d$/.test(id) ? arcaneName(Number(id.slice(-2))) : id;
}

function handsSection(app, session) {
  const { hands } = session.privateContent();
  return html`<div data-testid="live-hands"><h3>${t("live.hand_title")}</h3>
    ${hands.length === 0
      ? html`<p class="muted">${t("live.no_hand")}</p>`
      : html`<ul>${hands.map((h) => html`<li data-owner=${h.owner}>${characterName(app, h.owner)} (${t(`nav.${h.system}`)})${colon()}${h.cards.length ? h.cards.map(cardWords).join(", ") : t("live.hand_empty")}</li>`)}</ul>`}
  </div>`;
}

export function sessionSection(app) {
  const session = current();
  if (!session || (session.role === "mj" && tableClosed())) return nothing; // (closing: the page says it)
  if (session.role === "player" && !session.joined) {
    return html`<section class="card" data-testid="live-session" data-joined="no"><p role="status">${t("live.syncing")}</p></section>`;
  }
  return html`<section class="card" aria-labelledby="live-session-title" data-testid="live-session" data-joined="yes">
    <h2 id="live-session-title">${t("live.session_title")}</h2>
    <div aria-live="polite">${peopleList(app, session)}</div>
    ${session.role === "player" ? html`${pendingSection(session)}${claimForm(app, session)}${handsSection(app, session)}`
      : assignSection(app, session)}
    ${session.role === "mj" ? closeControls(app) : html`<div class="row"><button type="button" id="live-leave" @click=${() => { leave(); app.rerender(); }}>${t("live.leave")}</button></div>
    <p class="muted small">${t("live.leave_help")}</p>`}
  </section>`;
}

/** Whether the MJ is asked to confirm closing the table. */
let confirming = false;

/** The MJ's « Quitter la table en direct »: it closes the table for every device, so it asks
 * first (views/live-host.js closeForEveryone). */
function closeControls(app) {
  const ask = () => {
    confirming = true;
    app.rerender();
    queueMicrotask(() => document.getElementById("live-close-cancel")?.focus());
  };
  const cancel = () => {
    confirming = false;
    app.rerender();
    queueMicrotask(() => document.getElementById("live-leave")?.focus());
  };
  if (!confirming) {
    return html`<div class="row"><button type="button" id="live-leave" @click=${ask}>${t("live.leave")}</button></div>
      <p class="muted small">${t("live.close_help")}</p>`;
  }
  return html`<div class="notice warning" role="alertdialog" aria-labelledby="live-close-ask" data-testid="live-close-ask">
    <p id="live-close-ask">${t("live.close_ask")}</p>
    <div class="row"><button type="button" class="danger" id="live-close-confirm" @click=${() => { confirming = false; closeForEveryone(app); }}>${t("live.close_confirm")}</button>
      <button type="button" id="live-close-cancel" @click=${cancel}>${t("live.close_cancel")}</button></div>
  </div>`;
}


// Point Zéro characters: create, open, duplicate, delete (with confirmation); the Jauge de
// Tension as players see it (points, Tension critique; never the threshold), other uses of a
// Tension point recorded as free text; the way to the MJ's screen.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { said, t, tn } from "../../i18n.js";
import { characterList } from "../../views/characters.js";
import { playerHides } from "../../views/player-gate.js";
import {
  SYSTEM, characters, errorLine, nameOf, ready, renderGauge, stateOp, tensionView,
} from "./common.js";
import { onUndo } from "../../views/ui.js";

const listing = characterList({ system: SYSTEM, prefix: "pz", ns: "pointzero", maxName: 80, nameOf });
const ui = { who: "", note: "", error: null, busy: false, message: "" };
// An undo or redo here takes away what this page showed of a move (views/ui.js onUndo).
onUndo(() => Object.assign(ui, { message: "", error: null }));

function meta(c) {
  const attrs = c.attributes.map((a) => `${a.code} ${a.level}`).join(" · ");
  return `${attrs} · ${tn("pointzero.ui.skills_count", c.skills.length)}`;
}

async function otherUse(app, event) {
  event.preventDefault();
  const note = ui.note.trim();
  if (!note) {
    ui.error = { code: "pointzero.ui.note_needed", message_key: "pointzero.ui.note_needed", params: {} };
    app.rerender();
    return;
  }
  const list = characters(app.doc);
  const who = list.find((c) => c.id === ui.who) ?? null;
  const r = await stateOp(app, ui, (state) => ({ op: "pointzero.tension.use", state, kind: "other", who: who ? nameOf(who) : "", note: note.slice(0, 200) }));
  if (!r) return;
  if (ui.note.trim() === note) ui.note = "";
  ui.message = () => t("pointzero.ui.other_recorded", { gauge: r.view.gauge });
  app.rerender();
}

function entryLine(e) {
  const what = e.kind === "dice" ? t("pointzero.ui.entry_dice") : e.note;
  return html`<li>${e.who ? html`<strong>${e.who}</strong> — ` : nothing}${what}${e.kind === "dice" && e.note ? html` <span class="muted small">(${e.note})</span>` : nothing}</li>`;
}

function tensionCard(app) {
  const view = tensionView(app);
  const list = characters(app.doc);
  return html`<section class="card" aria-labelledby="pz-tension-title">
    <h2 id="pz-tension-title">${t("pointzero.ui.tension_title")}</h2>
    <p class="muted small">${t("pointzero.ui.tension_help")}</p>
    ${renderGauge(view)}
    ${view?.entries.length ? html`<details><summary>${t("pointzero.ui.entries", { n: view.entries.length })}</summary>
      <ol class="pz-entries">${view.entries.map(entryLine)}</ol></details>` : nothing}
    <form class="pz-other" @submit=${(e) => otherUse(app, e)}>
      <h3>${t("pointzero.ui.other_use")}</h3>
      <p class="muted small">${t("pointzero.ui.other_use_help")}</p>
      <div class="pz-form-grid">
        <div class="field"><label for="pz-other-who">${t("pointzero.ui.who")}</label>
          <select id="pz-other-who" @change=${(e) => { ui.who = e.target.value; }}>
            <option value="" ?selected=${!ui.who}>${t("pointzero.ui.nobody")}</option>
            ${list.map((c) => html`<option value=${c.id} ?selected=${c.id === ui.who}>${nameOf(c)}</option>`)}
          </select></div>
        <div class="field"><label for="pz-other-note">${t("pointzero.ui.other_note")}</label>
          <input id="pz-other-note" maxlength="200" autocomplete="off" .value=${ui.note}
            aria-describedby="pz-other-error" @input=${(e) => { ui.note = e.target.value; }}></div>
      </div>
      <button type="submit" id="pz-other-add" ?disabled=${!ready(app) || ui.busy}>${t("pointzero.ui.other_add")}</button>
      <div id="pz-other-error">${errorLine(ui.error)}</div>
      <p role="status" class="small">${said(ui.message)}</p>
    </form>
  </section>`;
}

export function render(app) {
  return html`
    <h1>${t("pointzero.ui.title")}</h1>
    <p class="muted">${t("pointzero.ui.intro")}</p>
    ${listing.render(app, { meta })}
    ${tensionCard(app)}
    ${playerHides(html`<section class="card" aria-labelledby="pz-mj-title">
      <h2 id="pz-mj-title">${t("pointzero.ui.mj_section")}</h2>
      <p class="muted small">${t("pointzero.ui.mj_hint")}</p>
      <a class="button" href="#/pointzero/mj" id="pz-mj-link">${t("pointzero.ui.mj_link")}</a>
    </section>`)}
  `;
}

// Unicreon characters: create, open, duplicate, delete (with confirmation); the NPC
// reference (generic tiers, bestiary) and the way to the combat tracker.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, t } from "../../i18n.js";
import { newId } from "../../storage.js";
import {
  BEASTS, CHARACTERISTICS, TIERS, charLabel, characters, nameOf, ready, rulesData, tableState,
} from "./common.js";

const ui = { confirmDelete: null, name: "", error: null, busy: false };

async function create(app, event) {
  event.preventDefault();
  if (ui.busy) return;
  ui.busy = true;
  const id = newId("uc");
  const response = await app.call({ op: "unicreon.character.new", id, name: ui.name.trim().slice(0, 80) });
  ui.busy = false;
  if (response.error) {
    ui.error = response.error;
    app.rerender();
    return;
  }
  ui.name = "";
  ui.error = null;
  app.update((doc) => {
    doc.characters.push(response.character);
  });
  location.hash = `#/unicreon/character/${encodeURIComponent(id)}`;
}

function duplicate(app, c) {
  const copy = structuredClone(c);
  copy.id = newId("uc");
  copy.name = t("unicreon.ui.copy_of", { name: nameOf(c) }).slice(0, 80);
  app.update((doc) => {
    doc.characters.push(copy); // `created` travels with the copy
  });
  app.notify("status", t("unicreon.ui.duplicated", { name: copy.name }));
}

function remove(app, c) {
  ui.confirmDelete = null;
  app.update((doc) => {
    doc.characters = doc.characters.filter((x) => x.id !== c.id);
  });
  app.notify("status", t("unicreon.ui.deleted", { name: nameOf(c) }));
}

function reference(app) {
  const data = rulesData(app);
  if (!data) return html`<p class="muted">${t("unicreon.ui.loading")}</p>`;
  return html`
    <h3>${t("unicreon.ui.generic_npcs")}</h3>
    <div class="uc-scroll"><table class="odds-table uc-ref" data-testid="uc-ref-tiers">
      <thead><tr><th scope="col">${t("unicreon.ui.npc")}</th><th scope="col" class="num">${t("unicreon.ui.value")}</th>
        <th scope="col" class="num">${t("unicreon.field.pv")}</th><th scope="col" class="num">${t("unicreon.ui.damage")}</th></tr></thead>
      <tbody>${TIERS.map((k) => {
        const d = data.npc_tiers[k];
        return html`<tr><th scope="row">${t(`unicreon.tier.${k}`)}<br><span class="muted small">${d.skills.map((s) => t(`unicreon.skill.${s}`)).join(", ")}</span></th>
          <td class="num">${d.value}</td><td class="num">${d.pv}</td><td class="num">${d.damage}</td></tr>`;
      })}</tbody>
    </table></div>
    <h3>${t("unicreon.ui.bestiary")}</h3>
    <ul class="uc-beasts" data-testid="uc-ref-beasts">
      ${BEASTS.map((k) => {
        const b = data.bestiary[k];
        return html`<li><strong>${t(`unicreon.beast.${k}`)}</strong><br>
          <span class="small">${t("unicreon.ui.beast_line", { pv: b.pv, damage: b.damage, attack: charLabel(b.attack) })}</span><br>
          <span class="small muted">${CHARACTERISTICS.map((c) => `${charLabel(c)} ${c === "volonte" && b.volonte_range ? b.volonte_range.join("–") : b.characteristics[c]}`).join(" · ")}</span></li>`;
      })}
    </ul>`;
}

export function render(app) {
  const list = characters(app.doc);
  const combat = tableState(app.doc).combat;
  return html`
    <h1>${t("unicreon.ui.title")}</h1>
    <p class="muted">${t("unicreon.ui.intro")}</p>
    <section class="card" aria-labelledby="uc-chars-title">
      <h2 id="uc-chars-title">${t("unicreon.ui.characters")}</h2>
      ${list.length === 0 ? html`<p class="muted">${t("unicreon.ui.no_characters")}</p>` : nothing}
      <ul class="uc-char-list" data-testid="uc-char-list">
        ${list.map((c) => html`<li class="uc-char" data-testid="uc-char" data-id=${c.id}>
          <div class="uc-char-head">
            <a href=${`#/unicreon/character/${encodeURIComponent(c.id)}`} class="uc-char-name">${nameOf(c)}</a>
            <span class="muted small">${c.created ? "" : `${t("unicreon.ui.in_creation")} · `}${t("unicreon.ui.pv_po", { pv: c.pv, pv_max: c.pv_max, po: c.po })}${c.important_npc ? ` · ${t("unicreon.field.important_npc")}` : ""}${c.down ? ` · ${t(`unicreon.down.${c.down}`)}` : ""}</span>
          </div>
          <div class="row">
            <a class="button" href=${`#/unicreon/test/${encodeURIComponent(c.id)}`}>${t("unicreon.ui.make_test")}</a>
            <button type="button" @click=${() => duplicate(app, c)}>${t("unicreon.ui.duplicate")}</button>
            ${ui.confirmDelete === c.id
              ? html`<span role="group" aria-label=${t("unicreon.ui.confirm_delete", { name: nameOf(c) })} class="row">
                  <span>${t("unicreon.ui.confirm_delete", { name: nameOf(c) })}</span>
                  <button type="button" class="danger" data-testid="uc-confirm-delete" @click=${() => remove(app, c)}>${t("unicreon.ui.delete_yes")}</button>
                  <button type="button" @click=${() => { ui.confirmDelete = null; app.rerender(); }}>${t("unicreon.ui.cancel")}</button>
                </span>`
              : html`<button type="button" class="danger" @click=${() => { ui.confirmDelete = c.id; app.rerender(); }}>${t("unicreon.ui.delete")}</button>`}
          </div>
        </li>`)}
      </ul>
      <form class="row" @submit=${(e) => create(app, e)}>
        <div class="field uc-grow">
          <label for="uc-new-name">${t("unicreon.ui.new_name")}</label>
          <input id="uc-new-name" maxlength="80" autocomplete="off" .value=${ui.name}
            @input=${(e) => { ui.name = e.target.value; }}>
        </div>
        <button type="submit" class="primary" id="uc-create" ?disabled=${!ready(app) || ui.busy}>${t("unicreon.ui.create")}</button>
      </form>
      ${ui.error ? html`<p class="field-error" role="alert">${errorMessage(ui.error)}</p>` : nothing}
    </section>
    <section class="card" aria-labelledby="uc-combat-title">
      <h2 id="uc-combat-title">${t("unicreon.ui.combat")}</h2>
      <p class="muted small">${combat && combat.phase !== "over" ? t("unicreon.ui.combat_running", { round: combat.round, count: combat.combatants.length }) : t("unicreon.ui.combat_hint")}</p>
      <a class="button primary" href="#/unicreon/combat" id="uc-combat-link">${t("unicreon.ui.combat_link")}</a>
    </section>
    <details class="card" id="uc-reference">
      <summary><h2 class="uc-inline">${t("unicreon.ui.reference")}</h2></summary>
      ${reference(app)}
    </details>
  `;
}

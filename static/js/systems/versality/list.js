// Versality characters: create, open, duplicate, delete (with confirmation). Player view:
// nothing of the MJ's data is shown here.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { errorMessage, t } from "../../i18n.js";
import { newId } from "../../storage.js";
import { characters, isCreated, nameOf, ready, tableState } from "./common.js";

const ui = { confirmDelete: null, name: "", error: null, busy: false };

async function create(app, event) {
  event.preventDefault();
  if (ui.busy) return;
  ui.busy = true;
  const id = newId("vs");
  const response = await app.call({ op: "versality.character.new", id, name: ui.name.trim().slice(0, 100) });
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
  location.hash = `#/versality/character/${encodeURIComponent(id)}`;
}

function duplicate(app, c) {
  const copy = structuredClone(c);
  copy.id = newId("vs");
  copy.name = t("versality.ui.copy_of", { name: nameOf(c) }).slice(0, 100);
  app.update((doc) => {
    doc.characters.push(copy); // `created` travels with the copy
  });
  app.notify("status", t("versality.ui.duplicated", { name: copy.name }));
}

function remove(app, c) {
  ui.confirmDelete = null;
  app.update((doc) => {
    doc.characters = doc.characters.filter((x) => x.id !== c.id);
    const st = doc.systems.versality;
    if (st) {
      delete st.decks[c.id];
      delete st.pending[c.id];
    }
  });
  app.notify("status", t("versality.ui.deleted", { name: nameOf(c) }));
}

export function render(app) {
  const list = characters(app.doc);
  const state = tableState(app.doc);
  return html`
    <h1>${t("versality.ui.title")}</h1>
    <p class="muted">${t("versality.ui.intro")}</p>
    <section class="card" aria-labelledby="vs-chars-title">
      <h2 id="vs-chars-title">${t("versality.ui.characters")}</h2>
      ${list.length === 0 ? html`<p class="muted">${t("versality.ui.no_characters")}</p>` : nothing}
      <ul class="vs-char-list" data-testid="vs-char-list">
        ${list.map((c) => {
          const deck = state.decks[c.id];
          const size = deck ? Object.keys(deck.cards).length : c.deck.length;
          return html`<li class="vs-char" data-testid="vs-char" data-id=${c.id}>
            <div class="vs-char-head">
              <a href=${`#/versality/character/${encodeURIComponent(c.id)}`} class="vs-char-name">${nameOf(c)}</a>
              <span class="muted small">${isCreated(c) ? t("versality.ui.deck_size", { count: size }) : t("versality.ui.in_creation")}</span>
            </div>
            <div class="row">
              <a class="button" href=${`#/versality/test/${encodeURIComponent(c.id)}`}>${t("versality.ui.make_test")}</a>
              <button type="button" @click=${() => duplicate(app, c)}>${t("versality.ui.duplicate")}</button>
              ${ui.confirmDelete === c.id
                ? html`<span role="group" aria-label=${t("versality.ui.confirm_delete", { name: nameOf(c) })} class="row">
                    <span>${t("versality.ui.confirm_delete", { name: nameOf(c) })}</span>
                    <button type="button" class="danger" data-testid="vs-confirm-delete" @click=${() => remove(app, c)}>${t("versality.ui.delete_yes")}</button>
                    <button type="button" @click=${() => { ui.confirmDelete = null; app.rerender(); }}>${t("versality.ui.cancel")}</button>
                  </span>`
                : html`<button type="button" class="danger" @click=${() => { ui.confirmDelete = c.id; app.rerender(); }}>${t("versality.ui.delete")}</button>`}
            </div>
          </li>`;
        })}
      </ul>
      <form class="row" @submit=${(e) => create(app, e)}>
        <div class="field vs-grow">
          <label for="vs-new-name">${t("versality.ui.new_name")}</label>
          <input id="vs-new-name" maxlength="100" autocomplete="off" .value=${ui.name}
            @input=${(e) => { ui.name = e.target.value; }}>
        </div>
        <button type="submit" class="primary" id="vs-create" ?disabled=${!ready(app) || ui.busy}>${t("versality.ui.create")}</button>
      </form>
      ${ui.error ? html`<p class="field-error" role="alert">${errorMessage(ui.error)}</p>` : nothing}
    </section>
    <section class="card" aria-labelledby="vs-mj-title">
      <h2 id="vs-mj-title">${t("versality.ui.mj_section")}</h2>
      <p class="muted small">${t("versality.ui.mj_hint")}</p>
      <a class="button" href="#/versality/mj" id="vs-mj-link">${t("versality.ui.mj_link")}</a>
    </section>
  `;
}

// A system's characters in the table document, shared by every system view: find and replace
// them, cache their check op, and the list card (open, test, duplicate, delete with a
// confirmation; create by name through `<system>.character.new`). System-agnostic: the system
// gives its id, its element prefix and i18n namespace, and what its list line shows.
// Unicreon and Versality use it; Point Zéro, Théorem and SYSTMJ can too.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { errorMessage, t } from "../i18n.js";
import { newId } from "../storage.js";
import { engineWhy } from "./forms.js";
import { ownsCharacter, playerHides } from "./player-gate.js";
import { callBusy, disabledWhy, fieldLimit, refusalAt } from "./ui.js";

/** The characters of one system, in document order. */
export function systemCharacters(doc, system) {
  return doc.characters.filter((c) => c.system === system);
}

export function findSystemCharacter(doc, system, id) {
  return doc.characters.find((c) => c.system === system && c.id === id) ?? null;
}

/** Put an op's answer in place of the character with the same id (inside app.update). The list
 * is replaced, never changed in place, so a `shallow` change (app.update) may use it: the table
 * it was copied from keeps its own list. */
export function replaceCharacter(doc, character) {
  const i = doc.characters.findIndex((c) => c.id === character.id);
  if (i < 0) return;
  const list = [...doc.characters];
  list[i] = character;
  doc.characters = list;
}

/**
 * A cache of `<op>` ({op, character} → check answer) per character: `checkOf(app, character)`
 * re-runs the op whenever the character changes and returns the previous answer meanwhile
 * (`{error}` when refused, null before the first answer).
 */
export function checkCache(op) {
  const checks = new Map();
  return (app, character) => {
    if (!character) return null;
    const key = JSON.stringify(character);
    const entry = checks.get(character.id);
    if (entry?.key === key) return entry.result;
    if (app.engineAnswers() && entry?.asked !== key) {
      checks.set(character.id, { ...entry, asked: key });
      app.call({ op, character }).then((result) => {
        const cur = checks.get(character.id);
        if (cur?.asked !== key) return;
        checks.set(character.id, { key, asked: key, result: result.error ? { error: result.error } : result });
        app.rerender();
      });
    }
    return entry?.result ?? null;
  };
}

/**
 * The characters card of a system's home page. Options: `system` ("unicreon"), `prefix` of ids,
 * classes and test ids ("uc"), `ns` the i18n namespace (keys `<ns>.ui.characters`, `no_characters`,
 * `make_test`, `duplicate`, `duplicated`, `copy_of`, `delete`, `confirm_delete`, `delete_yes`,
 * `cancel`, `deleted`, `new_name`, `create`), `maxName` (the schema's name length), `nameOf(c)`,
 * and `onRemove(doc, c)` to drop the system's table data of a deleted character.
 * `render(app, {meta})` draws it; `meta(c)` is the short line after each name.
 * A duplicate is a deep copy with a new id: every field travels (`created` included).
 */
export function characterList({ system, prefix, ns, maxName, nameOf, onRemove = null }) {
  const ui = { confirmDelete: null, name: "", error: null, busy: false };
  const key = (k) => `${ns}.ui.${k}`;
  const route = (page, id) => `#/${system}/${page}/${encodeURIComponent(id)}`;

  const nameMax = (app) => fieldLimit(app, system, "name", maxName);
  const nameField = `${prefix}-new-name`;

  async function create(app, event) {
    event.preventDefault();
    const id = newId(prefix);
    const name = ui.name.trim().slice(0, nameMax(app));
    // An empty name is refused at the field before anything is asked or written.
    if (!name) {
      app.refuse(nameField, { path: "name", reason: "unnamed", params: {} });
      return;
    }
    const response = await callBusy(app, ui, { op: `${system}.character.new`, id, name });
    if (!response) return;
    if (!app.update((doc) => { doc.characters.push(response.character); }, { at: nameField })) return;
    ui.name = "";
    // The new sheet opens at its top, the focus in its first field (the list's button may be
    // far down the page that was scrolled to it).
    app.openAtTop(route("character", id));
  }

  function duplicate(app, c) {
    const copy = structuredClone(c);
    copy.id = newId(prefix);
    copy.name = Array.from(t(key("copy_of"), { name: nameOf(c) })).slice(0, nameMax(app)).join("");
    if (app.update((doc) => { doc.characters.push(copy); })) app.notify("status", () => t(key("duplicated"), { name: copy.name }));
  }

  function remove(app, c) {
    ui.confirmDelete = null;
    app.update((doc) => {
      doc.characters = doc.characters.filter((x) => x.id !== c.id);
      onRemove?.(doc, c);
    });
    app.notify("status", () => t(key("deleted"), { name: nameOf(c) }));
  }

  // Each row repeats the same buttons: the character's name, hidden from sight, makes each
  // accessible name unique ("Dupliquer Béa") while the visible label stays short and is still
  // the start of the accessible name (WCAG 2.5.3, label in name).
  const named = (c) => html`<span class="visually-hidden"> ${nameOf(c)}</span>`;

  function deleteControls(app, c) {
    if (ui.confirmDelete !== c.id) {
      return html`<button type="button" class="danger" @click=${() => { ui.confirmDelete = c.id; app.rerender(); }}>${t(key("delete"))}${named(c)}</button>`;
    }
    return html`<span role="group" aria-label=${t(key("confirm_delete"), { name: nameOf(c) })} class="row">
      <span>${t(key("confirm_delete"), { name: nameOf(c) })}</span>
      <button type="button" class="danger" data-testid=${`${prefix}-confirm-delete`} @click=${() => remove(app, c)}>${t(key("delete_yes"))}</button>
      <button type="button" @click=${() => { ui.confirmDelete = null; app.rerender(); }}>${t(key("cancel"))}</button>
    </span>`;
  }

  function render(app, { meta }) {
    const list = systemCharacters(app.doc, system);
    const createReason = engineWhy(app);
    const createWhy = disabledWhy(`${prefix}-create`, createReason);
    return html`<section class="card" aria-labelledby=${`${prefix}-chars-title`}>
      <h2 id=${`${prefix}-chars-title`}>${t(key("characters"))}</h2>
      ${list.length === 0 ? html`<p class="muted">${t(key("no_characters"))}</p>` : nothing}
      <ul class=${`${prefix}-char-list`} data-testid=${`${prefix}-char-list`}>
        ${list.map((c) => html`<li class=${`${prefix}-char`} data-testid=${`${prefix}-char`} data-id=${c.id}>
          <div class=${`${prefix}-char-head`}>
            <a href=${route("character", c.id)} class=${`${prefix}-char-name`}>${nameOf(c)}</a>
            <span class="muted small">${meta(c)}</span>
          </div>
          <div class="row">
            <a class="button" href=${route("test", c.id)}>${t(key("make_test"))}</a>
            ${ownsCharacter(c.id) ? html`<button type="button" @click=${() => duplicate(app, c)}>${t(key("duplicate"))}${named(c)}</button>` : nothing}
            ${playerHides(deleteControls(app, c))}
          </div>
        </li>`)}
      </ul>
      <form class="row" @submit=${(e) => create(app, e)}>
        <div class=${`field ${prefix}-grow`}>
          <label for=${`${prefix}-new-name`}>${t(key("new_name"))}</label>
          <input id=${nameField} maxlength=${nameMax(app)} autocomplete="off" .value=${ui.name}
            aria-describedby=${`${nameField}-refusal`}
            @input=${(e) => { ui.name = e.target.value; }}>
          <div id=${`${nameField}-refusal`}>${refusalAt(app, nameField)}</div>
        </div>
        <button type="submit" class="primary" id=${`${prefix}-create`} ?disabled=${Boolean(createReason) || ui.busy}
          aria-describedby=${createWhy.id}>${t(key("create"))}</button>
      </form>
      ${createWhy.note}
      ${ui.error ? html`<p class="field-error" role="alert">${errorMessage(ui.error)}</p>` : nothing}
    </section>`;
  }

  return { render };
}

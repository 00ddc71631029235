// Import that adds (the Table page): a friend's table file, a player's exported character or a
// shared copy is read, checked by the engine, then offered piece by piece — which characters
// to bring in and, for a whole table, which systems' states (each replaces this table's state of
// that system). Ids that clash with this table's are renamed ("uc-bea" → "uc-bea-2"). The
// merged table is checked again by the engine (store.open) and only then replaces the current
// one through app.replaceDocument, which first keeps a verified backup: nothing of the current
// table changes otherwise. Replacing the whole table stays in table.js (importTableFile).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { ensureNamespaces, errorMessage, has, said, t, tn } from "../i18n.js";
import { SHARE_APP, SHARE_VERSION } from "../share/codec.js";
import { SYSTEM_IDS } from "../storage.js";
import { recognise, sniffFile } from "./filekind.js";
import { backupLabel } from "./when.js";

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const MAX_ID = 64;

/** This page's state: `offer` (what the file holds, and what is ticked), `error`, `ok`. */
export const adding = { offer: null, error: null, ok: null, failed: false };

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** The message for a file that is not what an import takes (filekind.js said what it is). */
export function wrongKindMessage(kind, params, file) {
  const extra = {
    file: file.name,
    system: params.system && has(`nav.${params.system}`) ? t(`nav.${params.system}`) : params.system ?? "",
    app: params.app ? ` (${params.app})` : "",
    rolls: typeof params.n === "number" ? tn("filekind.rolls", params.n) : "",
  };
  return t(`filekind.${kind}`, { ...params, ...extra });
}

/**
 * What a parsed file offers to add: {characters} for one character (a sheet on its own, or a
 * shared character's envelope), {table} for a table (exported whole, or a shared table's
 * envelope), else {problem} (a message).
 */
function offered(parsed, file) {
  if (isObject(parsed) && parsed.app === SHARE_APP && Object.hasOwn(parsed, "data") && parsed.v === SHARE_VERSION) {
    if (parsed.kind === "character" && isObject(parsed.data)) return { characters: [parsed.data] };
    if (parsed.kind === "table") return { table: parsed.data };
  }
  const wrong = recognise(parsed);
  if (wrong?.kind === "character") return { characters: [parsed] };
  if (wrong) return { problem: wrongKindMessage(wrong.kind, wrong.params, file) };
  return { table: parsed };
}

/** `id` made free among `taken` (which it joins): "uc-bea" → "uc-bea-2", "uc-bea-3"… */
export function freeId(id, taken) {
  let out = id;
  for (let n = 2; taken.has(out); n += 1) out = `${id.slice(0, MAX_ID - String(n).length - 1)}-${n}`;
  taken.add(out);
  return out;
}

/**
 * Read a file for adding: what it is is checked first, a table is opened by the engine
 * (store.open: validated, migrated, bad records set apart), and the offer is shown with every
 * character ticked and no system state (bringing one replaces this table's). Nothing changes.
 */
export async function readForAdding(app, file) {
  Object.assign(adding, { offer: null, error: null, ok: null, failed: false });
  const fail = (text) => {
    adding.error = text;
    app.rerender();
  };
  if (!file) return;
  if (file.size > MAX_IMPORT_BYTES) return fail(t("import.too_large", { max: "5 Mo" }));
  const seen = await sniffFile(file);
  if (seen.kind === "json") await ensureNamespaces(["share"]);
  if (seen.kind === "text") return fail(t("import.unreadable", { file: file.name }));
  if (seen.kind !== "json") return fail(wrongKindMessage(seen.kind, { detail: seen.detail }, file));
  const what = offered(seen.parsed, file);
  if (what.problem) return fail(what.problem);
  let characters = what.characters ?? [];
  let systems = {};
  if (what.table !== undefined) {
    const response = await app.openTable(what.table);
    if (response.error) return fail(t("import.refused", { file: file.name, reason: errorMessage(response.error) }));
    characters = response.document.characters;
    systems = Object.fromEntries(Object.entries(response.document.systems ?? {}).filter(([id, s]) => SYSTEM_IDS.includes(id) && s !== null));
  }
  if (!characters.length && !Object.keys(systems).length) return fail(t("import_add.nothing", { file: file.name }));
  adding.offer = { file: file.name, characters, systems, picked: characters.map(() => true), pickedSystems: {} };
  app.rerender();
}

/** The current table with the ticked characters (clashing ids renamed) and system states. */
function merged(doc, offer) {
  const out = structuredClone(doc);
  const taken = new Set(out.characters.map((c) => c.id));
  const renamed = [];
  offer.characters.forEach((c, i) => {
    if (!offer.picked[i]) return;
    const copy = structuredClone(c);
    const id = typeof copy.id === "string" && copy.id ? copy.id : "personnage";
    copy.id = freeId(id, taken);
    if (copy.id !== id) renamed.push({ name: copy.name, from: id, to: copy.id });
    out.characters.push(copy);
  });
  out.systems = { ...out.systems };
  for (const [id, state] of Object.entries(offer.systems)) {
    if (offer.pickedSystems[id]) out.systems[id] = structuredClone(state);
  }
  return { doc: out, renamed };
}

/** Add what is ticked: the merged table is checked by the engine, then replaces the current
 * one after a verified backup; a refusal changes nothing and says why. */
export async function addPicked(app) {
  const offer = adding.offer;
  if (!offer) return;
  const count = offer.picked.filter(Boolean).length;
  const states = Object.keys(offer.systems).filter((id) => offer.pickedSystems[id]);
  if (!count && !states.length) {
    adding.error = t("import_add.none_picked");
    app.rerender();
    return;
  }
  const { doc, renamed } = merged(app.doc, offer);
  const response = await app.openTable(doc);
  if (response.error) {
    adding.error = t("import.refused", { file: offer.file, reason: errorMessage(response.error) });
    app.rerender();
    return;
  }
  const key = app.replaceDocument(response.document);
  adding.failed = key === null;
  if (key) {
    const names = renamed.map((r) => t("import_add.renamed", { name: r.name, from: r.from, to: r.to }));
    adding.ok = () => [...(count ? [tn("import_add.done", count)] : []),
      ...states.map((id) => t("import_add.state_done", { system: t(`nav.${id}`) })), ...names,
      t("import_add.backup", { key: backupLabel(key) })].join(" ");
    adding.offer = null;
    adding.error = null;
    if (response.quarantined > 0) app.notify("warning", tn("quarantine.found", response.quarantined));
  }
  app.rerender();
}

/** The offer: a checkbox per character (ticked) and per system state (not ticked), the add
 * and cancel buttons; then the outcome. */
export function addSection(app, { ready }) {
  const offer = adding.offer;
  const rerender = () => app.rerender();
  return html`<div class="stack" data-testid="import-add">
    <div class="row">
      <label class="button" for="import-add-file">${t("import_add.choose")}</label>
      <input id="import-add-file" class="visually-hidden" type="file" accept="application/json,.json" ?disabled=${!ready}
        @change=${(e) => { const file = e.target.files?.[0]; e.target.value = ""; readForAdding(app, file); }}>
    </div>
    <p class="muted small">${t("import_add.help")}</p>
    ${offer ? html`<fieldset class="stack" data-testid="import-add-offer">
      <legend>${t("import_add.from", { file: offer.file })}</legend>
      ${offer.characters.length ? html`<p class="small">${t("import_add.characters")}</p>
        <ul class="plain-list">${offer.characters.map((c, i) => html`<li><label class="check"><input type="checkbox" data-id=${c.id}
          .checked=${offer.picked[i]} @change=${(e) => { offer.picked[i] = e.target.checked; rerender(); }}>
          ${c.name} <span class="muted small">(${has(`nav.${c.system}`) ? t(`nav.${c.system}`) : c.system})</span></label></li>`)}</ul>` : nothing}
      ${Object.keys(offer.systems).length ? html`<p class="small">${t("import_add.systems")}</p>
        <ul class="plain-list">${Object.keys(offer.systems).map((id) => html`<li><label class="check"><input type="checkbox" data-system=${id}
          .checked=${Boolean(offer.pickedSystems[id])} @change=${(e) => { offer.pickedSystems[id] = e.target.checked; rerender(); }}>
          ${t("import_add.system_state", { system: t(`nav.${id}`) })}</label></li>`)}</ul>` : nothing}
      <div class="row">
        <button type="button" class="primary" id="import-add-confirm" ?disabled=${!ready} @click=${() => addPicked(app)}>${t("import_add.add")}</button>
        <button type="button" @click=${() => { Object.assign(adding, { offer: null, error: null }); rerender(); }}>${t("import_add.cancel")}</button>
      </div>
    </fieldset>` : nothing}
    <p class="field-error" role="alert" data-testid="import-add-error">${adding.error ?? nothing}</p>
    ${adding.failed ? html`<p class="notice error" role="alert">${t("replace.failed")}</p>` : nothing}
    ${adding.ok ? html`<p role="status" class="outcome-ok" data-testid="import-add-done">${said(adding.ok)}</p>` : nothing}
  </div>`;
}

// The table itself: its name and language, export/import of the whole document, the records
// set apart "à réparer" (repair as JSON, export, delete), the storage used and the backups.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { engineBoot } from "../engine.js";
import { ensureNamespaces, errorMessage, formatNumber, has, language, said, t, tn } from "../i18n.js";
import { setApartTooDeep } from "../guard.js";
import { SHARE_APP, SHARE_AUDIENCES, SHARE_VERSION, versionProblem } from "../share/codec.js";
import {
  BACKUP_PREFIX, backupDate, backupSummary, downloadBlob, downloadJson, fileStamp, listBackups, newSeed, noteExport, readableText, STORAGE_PARTS, storageParts, storageUsage, storedBytes, SYSTEM_IDS, todayStamp,
} from "../storage.js";
import { looksLikeATable, recognise, sniffFile } from "./filekind.js";
import { exportTable, keepSection, safeFileName } from "./keep.js";
import { backupLabel } from "./when.js";
import { mjSetting, playerHides } from "./player-gate.js";

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const state = { importError: null, importOk: null, nameError: null, replaceFailed: false, editing: null, draft: "", repairError: null };

/** A size in bytes of the site's storage (storage.storedBytes) in words. */
function sizeLabel(bytes) {
  if (bytes >= 1_000_000) return t("storage.size_mb", { n: formatNumber(bytes / 1_000_000, 2) });
  return t("storage.size_kb", { n: formatNumber(Math.ceil(bytes / 1000), 0) });
}

function downloadCurrent(app) {
  const raw = readableText(localStorage.getItem("tablee.document")) ?? JSON.stringify(app.doc);
  downloadBlob(`tablee-${safeFileName(app.doc.name)}-${todayStamp()}.json`, new Blob([raw], { type: "application/json" }));
}

/** The whole-table replace (import, restore): false, and the refusal shown, when no backup. */
function replace(app, doc, box = state) {
  const key = app.replaceDocument(doc);
  box.replaceFailed = key === null;
  return key;
}

/** The message for a file that is not a table (filekind.js said what it is). */
function wrongKindMessage(kind, params, file) {
  const extra = {
    file: file.name,
    system: params.system && has(`nav.${params.system}`) ? t(`nav.${params.system}`) : params.system ?? "",
    app: params.app ? ` (${params.app})` : "",
    rolls: typeof params.n === "number" ? tn("filekind.rolls", params.n) : "",
  };
  return t(`filekind.${kind}`, { ...params, ...extra });
}

/**
 * A table saved from the share page ("Télécharger": the link's envelope, {app: "tablee", kind:
 * "table", v, audience, data}): {data, audience} (audience null when the file does not say), or
 * {problem: "version"} for a newer Tablée's copy; null for any other JSON (a table exported
 * whole, from "Exporter", is the document itself).
 */
function sharedTable(parsed) {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  if (parsed.app !== SHARE_APP || parsed.kind !== "table" || !Object.hasOwn(parsed, "data")) return null;
  if (parsed.v !== SHARE_VERSION) {
    // a newer Tablée's copy says so; a broken mark is no copy of ours (the table check refuses it)
    return versionProblem(parsed.v, SHARE_VERSION) === "version" ? { problem: "version" } : null;
  }
  return { data: parsed.data, audience: SHARE_AUDIENCES.includes(parsed.audience) ? parsed.audience : null };
}

/** A player's copy opened as its link is (views/share.js): store.open_share deals its hidden
 * piles again from a fresh seed (their order stayed with the MJ); the MJ's copy keeps its order.
 * The records too deep for a request are set apart first, as app.openTable does. */
async function openPlayersCopy(app, data, audience) {
  const { doc, parked } = setApartTooDeep(data, app.limits);
  const response = await app.call({ op: "store.open_share", document: doc, audience, seed: newSeed() });
  if (!response.error) response.quarantined += parked;
  return response;
}

/**
 * Import a file as the whole table: what it is is checked first (a file of another kind says
 * what it is), then the engine opens it (store.open: validation, migration, bad records set
 * apart), then the person consents, then the current table goes to a verified backup and is
 * replaced. `box` receives {importError, importOk} (this page's state, or the home page's).
 * Nothing changes unless every step passed. Returns true when the table was replaced.
 */
export async function importTableFile(app, file, box = state) {
  Object.assign(box, { importError: null, importOk: null });
  if (!file) return false;
  const fail = (text) => {
    box.importError = text;
    app.rerender();
    return false;
  };
  if (file.size > MAX_IMPORT_BYTES) return fail(t("import.too_large", { max: "5 Mo" }));
  const seen = await sniffFile(file);
  if (seen.kind === "json") await ensureNamespaces(["share"]); // (a player's copy speaks of its decks)
  if (seen.kind === "text") return fail(t("import.unreadable", { file: file.name }));
  if (seen.kind !== "json") return fail(wrongKindMessage(seen.kind, { detail: seen.detail }, file));
  const shared = sharedTable(seen.parsed);
  if (shared?.problem) return fail(t("import.refused", { file: file.name, reason: t(`share.bad.${shared.problem}`) }));
  const parsed = shared ? shared.data : seen.parsed;
  const wrong = recognise(parsed);
  if (wrong) return fail(wrongKindMessage(wrong.kind, wrong.params, file));
  const response = shared ? await openPlayersCopy(app, parsed, shared.audience) : await app.openTable(parsed);
  if (response.error) {
    if (!looksLikeATable(parsed)) return fail(wrongKindMessage("foreign", { app: "" }, file));
    return fail(t("import.refused", { file: file.name, reason: errorMessage(response.error) }));
  }
  const apart = response.quarantined > 0 ? ` ${tn("quarantine.found", response.quarantined)}` : "";
  // A player's copy says, as its link does, that its hidden decks are not the MJ's.
  const copy = shared && shared.audience !== "mj" ? ` ${t("share.players_copy")}` : "";
  if (!confirm(`${t("import.confirm", { name: response.document.name })}${apart}${copy}`)) {
    app.rerender();
    return false;
  }
  const key = replace(app, response.document, box);
  if (key) {
    noteExport(); // (the table saved now is the file just imported: as safe as an export)
    const dealt = response.shuffled > 0 ? ` ${t("share.players_copy_dealt")}` : "";
    box.importOk = () => `${t("import.done", { name: response.document.name, key: backupLabel(key) })}${dealt}`;
    if (response.quarantined > 0) app.notify("warning", () => tn("quarantine.found", response.quarantined));
  }
  app.rerender();
  return Boolean(key);
}

async function importFile(app, input) {
  const file = input.files?.[0];
  input.value = "";
  await importTableFile(app, file, state);
}

function rename(app, value) {
  const name = value.trim();
  if (!name || name.length > 80) {
    state.nameError = t("table.name_invalid");
    app.rerender();
    return;
  }
  state.nameError = null;
  app.update((doc) => {
    doc.name = name;
  }, { at: "table-name-input" });
}

export { backupLabel };

/** "Ma table · 4 personnages · dernier jet : Alice · Perception = 7" (or why it is no table). */
function backupLine(key) {
  const s = backupSummary(key);
  if (!s) return t("backup.not_a_table");
  const parts = [s.name, tn("backup.characters", s.characters)];
  parts.push(s.lastRoll ? t("backup.last_roll", { roll: s.lastRoll }) : t("backup.no_roll"));
  return parts.join(" · ");
}

function backupFileName(key) {
  const date = backupDate(key);
  const s = backupSummary(key);
  const name = s ? `-${safeFileName(s.name)}` : "";
  return `tablee-sauvegarde${name}-${date ? fileStamp(date) : safeFileName(key.slice(BACKUP_PREFIX.length))}.json`;
}

async function restore(app, key) {
  let parsed;
  try {
    parsed = JSON.parse(localStorage.getItem(key));
  } catch {
    app.notify("error", () => t("backup.unreadable"));
    return;
  }
  const response = await app.openTable(parsed);
  if (response.error) {
    app.notify("error", () => t("backup.refused", { reason: errorMessage(response.error) }));
    return;
  }
  if (!confirm(t("import.confirm", { name: response.document.name }))) return;
  if (replace(app, response.document)) app.notify("status", () => t("backup.restored"));
  app.rerender();
}

// ----------------------------------------------------------------------------- à réparer

function quarantine(app) {
  return Array.isArray(app.doc.quarantine) ? app.doc.quarantine : [];
}

/** Where a repaired item goes back: characters and log entries are appended, a system's
 * state goes back under its id. Other kinds (unknown fields) can only be exported or deleted. */
function canRepair(item) {
  if (item.kind === "character" || item.kind === "log") return true;
  return item.kind === "system" && SYSTEM_IDS.includes(item.path.slice("systems.".length));
}

function putBack(doc, item, data) {
  if (item.kind === "character") doc.characters.push(data);
  else if (item.kind === "log") doc.log.push(data);
  else Object.defineProperty(doc.systems, item.path.slice("systems.".length), { value: data, enumerable: true, writable: true, configurable: true });
}

const sameItem = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function removeItem(doc, item) {
  const list = Array.isArray(doc.quarantine) ? doc.quarantine : [];
  const i = list.findIndex((q) => sameItem(q, item));
  if (i >= 0) list.splice(i, 1);
  if (!list.length) delete doc.quarantine;
}

/** What the editor shows for a set-apart item: its data as JSON, or, for a record kept as its
 * JSON text (nested too deep), that text itself. */
function draftOf(item) {
  const deep = typeof item.data === "string" && (item.problems ?? []).some((p) => p?.params?.reason === "too_deep");
  return deep ? item.data : JSON.stringify(item.data, null, 2);
}

/** Put an edited item back: the table with it is opened by the engine, and accepted only when
 * nothing is set apart again. */
async function repair(app, item) {
  let data;
  try {
    data = JSON.parse(state.draft);
  } catch {
    state.repairError = t("quarantine.not_json");
    app.rerender();
    return;
  }
  const candidate = structuredClone(app.doc);
  removeItem(candidate, item);
  putBack(candidate, item, data);
  const r = await app.call({ op: "store.open", document: candidate });
  if (r.error || r.quarantined > 0) {
    const problem = r.error ?? r.document.quarantine.at(-1).problems[0];
    state.repairError = t("quarantine.still_invalid", { reason: errorMessage(problem) });
    app.rerender();
    return;
  }
  const ok = app.update((doc) => {
    removeItem(doc, item);
    putBack(doc, item, data);
  }, { at: "quarantine-draft" });
  if (ok) {
    Object.assign(state, { editing: null, draft: "", repairError: null });
    app.notify("status", () => t("quarantine.restored"));
  }
}

function quarantineSection(app) {
  const items = quarantine(app);
  if (!items.length) return nothing;
  const ready = app.engine.state === "ready";
  return html`<section class="card stack" aria-labelledby="quarantine-title" id="quarantine">
    <h2 id="quarantine-title">${t("quarantine.title")} (${items.length})</h2>
    <p class="muted small">${t("quarantine.help")}</p>
    <ul class="stack" data-testid="quarantine-list">
      ${items.map((item, i) => html`<li class="stack" data-testid="quarantine-item" data-kind=${item.kind}>
        <p><strong>${t(`quarantine.kind.${item.kind}`)}</strong>
          ${item.data && typeof item.data === "object" && typeof item.data.name === "string" ? html` ${t("quarantine.named", { name: item.data.name })}` : nothing}
          <span class="muted small">(${item.path})</span></p>
        <ul class="small">${item.problems.map((p) => html`<li>${errorMessage(p)}</li>`)}</ul>
        <div class="row">
          <button type="button" @click=${() => downloadJson(`tablee-a-reparer-${i + 1}-${todayStamp()}.json`, item)}>${t("quarantine.export")}</button>
          ${canRepair(item) ? html`<button type="button" data-testid="quarantine-edit" ?disabled=${!ready}
            @click=${() => { Object.assign(state, { editing: i, draft: draftOf(item), repairError: null }); app.rerender(); }}>${t("quarantine.edit")}</button>` : nothing}
          <button type="button" class="danger" data-testid="quarantine-delete"
            @click=${() => { if (confirm(t("quarantine.delete_confirm"))) app.update((doc) => removeItem(doc, item)); }}>${t("quarantine.delete")}</button>
        </div>
        ${state.editing === i ? html`<div class="field">
          <label for="quarantine-draft">${t("quarantine.json_label")}</label>
          <textarea id="quarantine-draft" rows="10" .value=${state.draft} aria-describedby="quarantine-error"
            aria-invalid=${state.repairError ? "true" : "false"} @input=${(e) => { state.draft = e.target.value; }}></textarea>
          <p id="quarantine-error" class="field-error" role="alert">${state.repairError ?? nothing}</p>
          <div class="row">
            <button type="button" class="primary" data-testid="quarantine-save" ?disabled=${!ready} @click=${() => repair(app, item)}>${t("quarantine.save")}</button>
            <button type="button" @click=${() => { state.editing = null; app.rerender(); }}>${t("quarantine.cancel")}</button>
          </div></div>` : nothing}
      </li>`)}
    </ul>
  </section>`;
}

/** The last changes of the table, newest first, with Annuler and Rétablir (app.undo). */
function historySection(app) {
  const { undo, redo } = app.history();
  const item = (e) => html`<li data-testid="undo-entry">${app.changeLabel(e)}
    <time class="muted small" datetime=${e.at}>${formatWhen(e.at)}</time></li>`;
  return html`<section class="card stack" aria-labelledby="undo-title" data-testid="undo-section">
    <h2 id="undo-title">${t("undo.title")}</h2>
    <p class="muted small">${t("undo.help")}</p>
    <div class="row">
      <button type="button" id="undo-last" ?disabled=${!undo.length} @click=${() => app.undo()}>${t("undo.undo")}</button>
      <button type="button" id="redo-last" ?disabled=${!redo.length} @click=${() => app.redo()}>${t("undo.redo")}</button>
    </div>
    ${undo.length ? html`<ol class="undo-list" data-testid="undo-list">${[...undo].reverse().slice(0, 20).map(item)}</ol>`
      : html`<p class="muted">${t("undo.none")}</p>`}
    ${redo.length ? html`<h3>${t("undo.undone_list")}</h3>
      <ol class="undo-list" data-testid="redo-list">${[...redo].reverse().slice(0, 20).map(item)}</ol>` : nothing}
  </section>`;
}

function formatWhen(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
}

/** Each part of the storage in words (storage.js STORAGE_PARTS). */
const PART_TEXT = {
  table: "storage.part.table",
  backups: "storage.part.backups",
  live: "storage.part.live",
  undo: "storage.part.undo",
  other: "storage.part.other",
};

/** What takes the room in this site's storage, part by part (the table, its backups, the live
 * table, the undo history, the rest), largest first, the empty parts left out: a person sees
 * what to free. */
function storagePartsList() {
  let parts;
  try {
    parts = storageParts();
  } catch {
    return nothing;
  }
  const shown = STORAGE_PARTS.filter((p) => parts[p] > 0).sort((a, b) => parts[b] - parts[a]);
  if (!shown.length) return nothing;
  return html`<ul class="muted small" data-testid="storage-parts" aria-label=${t("storage.parts")}>
    ${shown.map((p) => html`<li data-part=${p}>${t(PART_TEXT[p], { size: sizeLabel(parts[p]) })}</li>`)}
  </ul>`;
}

export function render(app) {
  const ready = app.engine.state === "ready";
  const backups = listBackups();
  const usage = storageUsage();
  return html`
    <h1>${t("table.title")}</h1>
    ${quarantineSection(app)}
    <div class="split">
    <div>
    <section class="card stack">
      ${mjSetting(html`<div class="field">
        <label for="table-name-input">${t("table.name")}</label>
        <div class="row">
          <input id="table-name-input" maxlength="80" .value=${app.doc.name}
            aria-invalid=${state.nameError ? "true" : "false"} aria-describedby="table-name-error"
            @change=${(e) => rename(app, e.target.value)}>
        </div>
        <p id="table-name-error" class="field-error" role="alert">${state.nameError ?? (app.refusal?.at === "table-name-input" ? app.refusal.text : nothing)}</p>
      </div>`)}
      <p class="muted small">${tn("table.characters", app.doc.characters.length)} ${tn("table.log_entries", app.doc.log.length)}</p>
    </section>

    ${historySection(app)}

    <section class="card stack" aria-labelledby="transfer-title">
      <h2 id="transfer-title">${t("table.transfer")}</h2>
      <p class="muted small">${t("table.transfer_help")}</p>
      <div class="row">
        <button type="button" id="export-table" @click=${() => exportTable(app)}>${t("table.export")}</button>
        ${playerHides(html`<label class="button" for="import-table">${t("table.import")}</label>
        <input id="import-table" class="visually-hidden" type="file" accept="application/json,.json"
          ?disabled=${!ready} @change=${(e) => importFile(app, e.target)}>`)}
      </div>
      ${ready ? nothing : html`<p class="muted small">${t("engine.wait_for_import")}</p>`}
      <p id="import-error" class="field-error" role="alert">${state.importError ?? nothing}</p>
      ${state.replaceFailed ? html`<div class="notice error" role="alert" data-testid="replace-failed"><p>${t("replace.failed")}</p>
        <button type="button" @click=${() => downloadCurrent(app)}>${t("replace.download")}</button></div>` : nothing}
      ${state.importOk ? html`<p role="status" class="outcome-ok">${said(state.importOk)}</p>` : nothing}
    </section>

    ${keepSection(app)}
    </div>

    <section class="card stack" aria-labelledby="backups-title">
      <h2 id="backups-title">${t("backup.title")}</h2>
      <p class="muted small">${t("backup.help")}</p>
      <p data-testid="storage-usage">${t("storage.usage", { used: sizeLabel(usage.used), quota: sizeLabel(usage.quota), left: sizeLabel(usage.left) })}</p>
      ${storagePartsList()}
      ${usage.warn ? html`<p class="notice warning" role="status" data-testid="storage-warning">${t("storage.usage_warn")}</p>` : nothing}
      ${engineBoot().snapshot_bytes ? html`<p class="muted small" data-testid="snapshot-usage">${t("storage.snapshot", { size: sizeLabel(engineBoot().snapshot_bytes) })}</p>` : nothing}
      ${backups.length
        ? html`<ul class="stack" id="backup-list">
            ${backups.map(
              (key) => html`<li class="row backup-item" data-key=${key}>
                <span class="backup-label"><strong data-testid="backup-when">${backupLabel(key)}</strong> — <span data-testid="backup-summary">${backupLine(key)}</span>
                  <span class="muted small">(${sizeLabel(storedBytes(localStorage.getItem(key) ?? ""))})</span></span>
                <button type="button" @click=${() => downloadBlob(backupFileName(key), new Blob([readableText(localStorage.getItem(key) ?? "")], { type: "application/json" }))}>${t("backup.download")}</button>
                <button type="button" ?disabled=${!ready} @click=${() => restore(app, key)}>${t("backup.restore")}</button>
                <button type="button" class="danger" @click=${() => { if (confirm(t("backup.delete_confirm"))) { localStorage.removeItem(key); app.rerender(); } }}>${t("backup.delete")}</button>
              </li>`,
            )}
          </ul>`
        : html`<p class="muted">${t("backup.none")}</p>`}
    </section>
    </div>
  `;
}

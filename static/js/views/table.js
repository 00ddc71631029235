// The table itself: its name and language, export/import of the whole document, backups.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { errorMessage, t, tn } from "../i18n.js";
import { BACKUP_PREFIX, downloadBlob, downloadJson, listBackups, todayStamp } from "../storage.js";

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const state = { importError: null, importOk: null, nameError: null };

function safeFileName(name) {
  return name.normalize("NFKD").replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "table";
}

async function importFile(app, input) {
  const file = input.files?.[0];
  input.value = "";
  Object.assign(state, { importError: null, importOk: null });
  if (!file) return;
  if (file.size > MAX_IMPORT_BYTES) {
    state.importError = t("import.too_large", { max: "5 Mo" });
    app.rerender();
    return;
  }
  let parsed;
  try {
    parsed = JSON.parse(await file.text());
  } catch {
    state.importError = t("import.unreadable", { file: file.name });
    app.rerender();
    return;
  }
  const response = await app.call({ op: "store.load", document: parsed });
  if (response.error) {
    state.importError = t("import.refused", { file: file.name, reason: errorMessage(response.error) });
    app.rerender();
    return;
  }
  if (!confirm(t("import.confirm", { name: response.document.name }))) {
    app.rerender();
    return;
  }
  const key = app.replaceDocument(response.document);
  state.importOk = t("import.done", { name: response.document.name, key: key ?? "—" });
  app.rerender();
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
  });
}

function backupLabel(key) {
  return key.slice(BACKUP_PREFIX.length);
}

async function restore(app, key) {
  let parsed;
  try {
    parsed = JSON.parse(localStorage.getItem(key));
  } catch {
    app.notify("error", t("backup.unreadable"));
    return;
  }
  const response = await app.call({ op: "store.load", document: parsed });
  if (response.error) {
    app.notify("error", t("backup.refused", { reason: errorMessage(response.error) }));
    return;
  }
  if (!confirm(t("import.confirm", { name: response.document.name }))) return;
  app.replaceDocument(response.document);
  app.notify("status", t("backup.restored"));
}

export function render(app) {
  const ready = app.engine.state === "ready";
  const backups = listBackups();
  return html`
    <h1>${t("table.title")}</h1>
    <section class="card stack">
      <div class="field">
        <label for="table-name-input">${t("table.name")}</label>
        <div class="row">
          <input id="table-name-input" maxlength="80" .value=${app.doc.name}
            aria-invalid=${state.nameError ? "true" : "false"} aria-describedby="table-name-error"
            @change=${(e) => rename(app, e.target.value)}>
        </div>
        <p id="table-name-error" class="field-error" role="alert">${state.nameError ?? nothing}</p>
      </div>
      <p class="muted small">${tn("table.characters", app.doc.characters.length)} ${tn("table.log_entries", app.doc.log.length)}</p>
    </section>

    <section class="card stack" aria-labelledby="transfer-title">
      <h2 id="transfer-title">${t("table.transfer")}</h2>
      <p class="muted small">${t("table.transfer_help")}</p>
      <div class="row">
        <button type="button" id="export-table"
          @click=${() => downloadJson(`tablee-${safeFileName(app.doc.name)}-${todayStamp()}.json`, app.doc)}>
          ${t("table.export")}</button>
        <label class="button" for="import-table">${t("table.import")}</label>
        <input id="import-table" class="visually-hidden" type="file" accept="application/json,.json"
          ?disabled=${!ready} @change=${(e) => importFile(app, e.target)}>
      </div>
      ${ready ? nothing : html`<p class="muted small">${t("engine.wait_for_import")}</p>`}
      <p id="import-error" class="field-error" role="alert">${state.importError ?? nothing}</p>
      ${state.importOk ? html`<p role="status" class="outcome-ok">${state.importOk}</p>` : nothing}
    </section>

    <section class="card stack" aria-labelledby="backups-title">
      <h2 id="backups-title">${t("backup.title")}</h2>
      <p class="muted small">${t("backup.help")}</p>
      ${backups.length
        ? html`<ul class="stack" id="backup-list">
            ${backups.map(
              (key) => html`<li class="row">
                <span>${backupLabel(key)}</span>
                <button type="button" @click=${() => downloadBlob(`tablee-sauvegarde-${safeFileName(backupLabel(key))}.json`, new Blob([localStorage.getItem(key) ?? ""], { type: "application/json" }))}>${t("backup.download")}</button>
                <button type="button" ?disabled=${!ready} @click=${() => restore(app, key)}>${t("backup.restore")}</button>
                <button type="button" class="danger" @click=${() => { if (confirm(t("backup.delete_confirm"))) { localStorage.removeItem(key); app.rerender(); } }}>${t("backup.delete")}</button>
              </li>`,
            )}
          </ul>`
        : html`<p class="muted">${t("backup.none")}</p>`}
    </section>
  `;
}

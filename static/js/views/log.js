// Roll log: every roll and test of the table, newest first, kept in the document.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { formatTime, t, tn } from "../i18n.js";
import { downloadJson, fileStamp } from "../storage.js";
import { downloadLogCsv } from "./exports.js";
import { checkOf, verifyControl } from "./verify.js";

function diceSummary(result) {
  if (!result || !Array.isArray(result.terms)) return "";
  return result.terms
    .filter((term) => Array.isArray(term.dice) && term.dice.length > 0)
    .map((term) => `${term.text}: ${term.dice.map((d) => (d.kept ? d.value : `(${d.value})`)).join(" ")}`)
    .join(" · ");
}

function clearLog(app) {
  if (!confirm(t("log.clear_confirm"))) return;
  app.update((doc) => {
    doc.log = [];
  });
}

/** One entry: who and what, when, the total and outcome, the dice; the seed only behind
 * "Vérifier / rejouer" (verify.js), which replays the logged request and compares. */
function entryView(app, e) {
  return html`<li class="log-entry" data-testid="log-entry" data-kind=${e.kind}>
    <header>
      <span><strong>${e.who ? `${e.who} · ` : ""}${e.label}</strong></span>
      <time class="muted small" datetime=${e.at}>${formatTime(e.at)}</time>
    </header>
    ${e.result?.total !== undefined ? html`<span class="log-total">${e.result.total}</span>` : nothing}
    ${e.result?.summary ? html`<p>${e.result.summary}</p>` : nothing}
    ${diceSummary(e.result) ? html`<p class="muted small">${diceSummary(e.result)}</p>` : nothing}
    ${e.request?.seed !== undefined ? verifyControl(app, `log-${e.id}`, checkOf(e), e.request.seed) : nothing}
  </li>`;
}

export function render(app) {
  const entries = [...app.doc.log].reverse();
  return html`
    <h1>${t("log.title")}</h1>
    <div class="row">
      <button type="button" id="export-log" ?disabled=${!entries.length}
        @click=${() => downloadJson(`tablee-journal-${fileStamp()}.json`, { app: "tablee", kind: "log", table: app.doc.name, log: app.doc.log })}>
        ${t("log.export_json")}</button>
      <button type="button" id="export-log-csv" ?disabled=${!entries.length} @click=${() => downloadLogCsv(app)}>${t("log.export_tsv")}</button>
      <button type="button" class="danger" ?disabled=${!entries.length} @click=${() => clearLog(app)}>${t("log.clear")}</button>
    </div>
    <p class="muted small">${tn("log.count", entries.length)}</p>
    ${entries.length
      ? html`<ol class="log-list" id="log-list" reversed>
          ${entries.map((e) => entryView(app, e))}
        </ol>`
      : html`<p class="muted">${t("log.empty")}</p>`}
  `;
}

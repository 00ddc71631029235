// Roll log: every roll and test of the table, newest first, kept in the document.
// The latest PAGE entries are drawn; "Afficher plus" adds PAGE more (a full log is 1000 entries,
// about 2 s to paint on a loaded phone when drawn at once). Each entry can be shared
// ("Partager", ui.shareButton) and, when it carries its seed, verified and replayed (verify.js).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { colon, formatTime, t, tn } from "../i18n.js";
import { downloadJson, fileStamp } from "../storage.js";
import { memberNow } from "./audience.js";
import { downloadLogCsv } from "./exports.js";
import { labelOf, signerOf, summaryOf } from "./log-words.js";
import { shareButton } from "./ui.js";
import { checkOf, offersVerify, seedOf, verifyControl } from "./verify.js";

/** How many entries are drawn at first, and added by each "Afficher plus". */
export const PAGE = 50;
/** How many of the latest entries are drawn (kept while the app is open; the log grows at its
 * newest end, so a new roll never hides one that was shown). */
let shown = PAGE;

/** The dice of an entry, a term a line: "4d6 : 5 6 (4) (4)". A d66 or a d100 is one number
 * read from its two dice (tens, then units): "d100 : 08", "d66 : 23", never "0 8". */
function diceSummary(result) {
  if (!result || !Array.isArray(result.terms)) return "";
  return result.terms
    .filter((term) => Array.isArray(term.dice) && term.dice.length > 0)
    .map((term) => {
      const pair = (term.kind === "d66" || term.kind === "d100") && term.dice.length === 2;
      const dice = pair ? term.dice.map((d) => d.value).join("") : term.dice.map((d) => (d.kept ? d.value : `(${d.value})`)).join(" ");
      return `${term.text}${colon()}${dice}`;
    })
    .join(" · ");
}

function clearLog(app) {
  if (!confirm(t("log.clear_confirm"))) return;
  app.update((doc) => {
    doc.log = [];
  });
}

/** One entry: who and what (in the reader's language, log-words.js), when, the total and
 * outcome, the dice; the seed only behind "Vérifier / rejouer" (verify.js), which replays the
 * logged request and compares. */
function entryView(app, e) {
  const label = labelOf(e, app);
  const summary = summaryOf(e, app);
  return html`<li class="log-entry" data-testid="log-entry" data-kind=${e.kind} tabindex="-1">
    <header>
      <span><strong>${signerOf(e) ? `${signerOf(e)} · ` : ""}${label || e.kind}</strong>${e.to ? html` <span class="log-to" data-testid="log-to">${audience(app, e.to)}</span>` : nothing}</span>
      <time class="muted small" datetime=${e.at}>${formatTime(e.at)}</time>
    </header>
    ${e.result?.total !== undefined ? html`<span class="log-total">${e.result.total}</span>` : nothing}
    ${summary ? html`<p data-testid="log-summary">${summary}</p>` : nothing}
    ${diceSummary(e.result) ? html`<p class="muted small">${diceSummary(e.result)}</p>` : nothing}
    <div class="row log-actions">
      ${offersVerify(e) ? verifyControl(app, `log-${e.id}`, checkOf(e), seedOf(e.request)) : nothing}
      ${shareButton(`entry:${e.id}`, label)}
    </div>
  </li>`;
}

/** Who a private entry was for: the MJ alone (a secret roll), this phone's player, or the
 * player the MJ sent it to (named from the live table's members). */
function audience(app, to) {
  if (to === "mj") return t("log.to_secret");
  const session = app.liveSession?.();
  if (session?.role === "player") return t("log.to_you");
  return t("log.to_player", { name: memberNow(session?.members, to)?.name ?? to });
}

function showMore(app) {
  const first = shown;
  shown += PAGE;
  app.rerender();
  // Keyboard and screen-reader users go on from the first entry just drawn.
  document.querySelectorAll("#log-list > li")[first]?.focus({ preventScroll: false });
}

export function render(app) {
  const all = app.doc.log;
  const entries = all.slice(Math.max(0, all.length - shown)).reverse();
  const more = all.length - entries.length;
  return html`
    <h1>${t("log.title")}</h1>
    <div class="row">
      <button type="button" id="export-log" ?disabled=${!entries.length}
        @click=${() => downloadJson(`tablee-journal-${fileStamp()}.json`, { app: "tablee", kind: "log", table: app.doc.name, log: app.doc.log })}>
        ${t("log.export_json")}</button>
      <button type="button" id="export-log-csv" ?disabled=${!entries.length} @click=${() => downloadLogCsv(app)}>${t("log.export_tsv")}</button>
      <button type="button" class="danger" ?disabled=${!entries.length} @click=${() => clearLog(app)}>${t("log.clear")}</button>
    </div>
    <p class="muted small" data-testid="log-count">${more > 0 ? tn("log.count_shown", all.length, { shown: entries.length }) : tn("log.count", all.length)}</p>
    ${entries.length
      ? html`<ol class="log-list" id="log-list" reversed>
          ${entries.map((e) => entryView(app, e))}
        </ol>
        ${more > 0 ? html`<div class="row"><button type="button" id="log-more" data-testid="log-more" @click=${() => showMore(app)}>${tn("log.more", Math.min(PAGE, more))}</button></div>` : nothing}`
      : html`<p class="muted">${t("log.empty")}</p>`}
  `;
}

// Shared pieces of dice views: a rolled result (every die, kept and dropped told apart)
// and an exact distribution as an accessible table with bars.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { formatPercent, t } from "../i18n.js";

/** One roll result as returned by the `roll` op. */
export function renderDiceResult(result, { fresh = true } = {}) {
  return html`
    <p class="total" aria-live="polite">
      <span class="visually-hidden">${t("tray.total")} </span><span data-testid="total">${result.total}</span>
    </p>
    <p class="muted small">${result.expr}</p>
    ${result.terms.map((term) => renderTerm(term, fresh))}
  `;
}

function renderTerm(term, fresh) {
  if (term.kind === "const") {
    return html`<p class="die-term">${term.sign < 0 ? "−" : "+"} ${Math.abs(term.value)}</p>`;
  }
  const sign = term.sign < 0 ? "−" : "";
  return html`
    <div class="die-term">
      <span>${sign}${term.text}${term.display !== undefined ? html` = <strong>${term.display}</strong>` : nothing}</span>
      <ul class="dice" aria-label=${term.text}>
        ${term.dice.map(
          (die, index) => html`<li class="die ${die.kept ? "kept" : "dropped"} ${fresh ? "fresh" : ""}"
              data-kept=${die.kept ? "true" : "false"}
              aria-label=${`${dieLabel(term, index)} ${die.value}${die.kept ? "" : ` (${t("tray.dropped")})`}`}>
              ${die.value}</li>`,
        )}
      </ul>
    </div>
  `;
}

function dieLabel(term, index) {
  if (term.kind === "d66" || term.kind === "d100") return index === 0 ? t("tray.tens") : t("tray.units");
  return t("tray.die");
}

/** Past this many rows the table scrolls inside its own box instead of growing the page. */
const SCROLL_ROWS = 24;

/**
 * An exact distribution as a table: each row with its percentage, its exact fraction
 * (visible, not only in a tooltip) and a bar. rows: [{total|label, p: "num/den", percent}]
 */
export function renderDistribution(rows, header) {
  const max = Math.max(...rows.map((r) => r.percent), 0.0001);
  const long = rows.length > SCROLL_ROWS;
  const table = html`
    <table class="odds-table">
      <thead><tr><th scope="col">${header}</th><th scope="col" class="num">%</th>
        <th scope="col" class="exact">${t("tray.exact")}</th>
        <th scope="col" class="bar-cell"><span class="visually-hidden">${t("tray.bar")}</span></th></tr></thead>
      <tbody>
        ${rows.map(
          (r) => html`<tr>
            <th scope="row">${r.label ?? r.total}</th>
            <td class="num">${formatPercent(r.percent)}</td>
            <td class="exact">${r.p}</td>
            <td class="bar-cell" aria-hidden="true"><div class="bar" style="width: ${(100 * r.percent) / max}%"></div></td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  if (!long) return table;
  return html`
    <p class="muted small">${t("tray.rows", { n: rows.length })}</p>
    <div class="odds-scroll" tabindex="0" role="region" aria-label=${t("tray.distribution")}>${table}</div>
  `;
}

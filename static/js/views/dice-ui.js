// Shared pieces of dice views: a rolled result (every die drawn as its face, views/faces.js:
// kept and dropped told apart) and an exact distribution as an accessible table with bars.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { keyed } from "../../vendor/lit-html/directives/keyed.js";
import { formatPercent, t } from "../i18n.js";
import { pairLegend, renderDie } from "./faces.js";
import { LONG_FRACTION, probability } from "./ui.js";

/** One roll result as returned by the `roll` op. Its dice are new elements for each roll (keyed
 * by seed), so every roll plays the short roll animation, not only the first. */
export function renderDiceResult(result, { fresh = true } = {}) {
  return html`
    <p class="total" aria-live="polite">
      <span class="visually-hidden">${t("tray.total")} </span><span data-testid="total">${result.total}</span>
    </p>
    <p class="muted small">${result.expr}</p>
    ${keyed(`${result.seed}|${result.expr}`, result.terms.map((term) => renderTerm(term, fresh)))}
  `;
}

function renderTerm(term, fresh) {
  if (term.kind === "const") {
    return html`<p class="die-term">${term.sign < 0 ? "−" : "+"} ${Math.abs(term.value)}</p>`;
  }
  const sign = term.sign < 0 ? "−" : "";
  const pair = term.kind === "d66" || term.kind === "d100";
  const sides = term.kind === "d100" ? 10 : term.kind === "d66" ? 6 : term.sides;
  return html`
    <div class="die-term" data-kind=${term.kind}>
      <span>${sign}${term.text}${term.display !== undefined ? html` = <strong>${term.display}</strong>` : nothing}</span>
      <ul class="dice ${pair ? term.kind : ""}" aria-label=${term.text}>
        ${term.dice.map((die, index) => renderDie({
          value: die.value, sides, kept: die.kept, fresh, place: pair ? (index === 0 ? "tens" : "units") : null,
        }))}
      </ul>
      ${pair ? pairLegend() : nothing}
    </div>
  `;
}

/** An outcome that cannot happen, or must: its row says so in words ("impossible (0 %)"),
 * like every headline (`probability()`), never "0 %" beside "0/1". */
const sureOutcome = (p) => ["0", "0/1", "1", "1/1"].includes(String(p));

/** Past this many rows the table scrolls inside its own box instead of growing the page. */
const SCROLL_ROWS = 24;

/**
 * An exact distribution as a table: each row with its percentage, its exact fraction
 * (visible, not only in a tooltip) and a bar. rows: [{total|label, p: "num/den", percent, tone?,
 * starts?}]: `tone` "win"/"fail" colours a row's bar as the outcome bars do (views/odds-bar.js),
 * `starts` draws a rule above the row where success starts.
 * When a fraction is too long for a phone (a deck's, 20 digits), the percentage and the fraction
 * share one column drawn by the shared `probability()`: the percentage, the fraction on demand
 * (a tap or the keyboard) and always for screen readers. Every row carries its fraction in
 * `data-p` (what a test compares with the page's headline and the engine).
 */
export function renderDistribution(rows, header) {
  const max = Math.max(...rows.map((r) => r.percent), 0.0001);
  const long = rows.length > SCROLL_ROWS;
  const folded = rows.some((r) => String(r.p).length > LONG_FRACTION);
  const table = html`
    <table class="odds-table ${folded ? "odds-folded" : ""}">
      <thead><tr><th scope="col">${header}</th><th scope="col" class="num">%</th>
        ${folded ? nothing : html`<th scope="col" class="exact">${t("tray.exact")}</th>`}
        <th scope="col" class="bar-cell"><span class="visually-hidden">${t("tray.bar")}</span></th></tr></thead>
      <tbody>
        ${rows.map(
          (r) => html`<tr data-p=${r.p} class=${[r.tone ? `row-${r.tone}` : "", r.starts ? "row-starts" : ""].join(" ").trim() || nothing}>
            <th scope="row">${r.label ?? r.total}</th>
            ${folded
              ? html`<td class="num">${probability(r.p, r.percent)}</td>`
              : sureOutcome(r.p)
                ? html`<td class="num" colspan="2">${probability(r.p, r.percent)}</td>`
                : html`<td class="num">${formatPercent(r.percent)}</td><td class="exact">${r.p}</td>`}
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

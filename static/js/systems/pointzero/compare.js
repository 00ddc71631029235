// Point Zéro's odds at a glance: a test's four outcomes as one bar (views/odds-bar.js) and the
// Surpassements allowed compared side by side with their table.

import { html, nothing } from "../../../vendor/lit-html/lit-html.js";
import { formatNumber, formatPercent, t } from "../../i18n.js";
import { compareBars, successBar } from "../../views/odds-bar.js";

const sacrificeLabel = (row) => (row.sacrifice === 0 ? t("pointzero.ui.no_sacrifice")
  : t(row.sacrifice === 1 ? "pointzero.ui.sacrifice_one" : "pointzero.ui.sacrifice_other", { n: row.sacrifice, bonus: row.bonus }));

/** The Surpassements allowed, compared: bars side by side (the one chosen now marked), the ★
 * of the best choice explained in words, and the table of each option's dice and exact odds
 * (rule text 002_61483667e16cef6b.txt, "sURPASSEMENT"). */
export function comparison(odds, chosen) {
  if (!odds?.comparison || odds.comparison.length < 2) return nothing;
  const best = Math.max(...odds.comparison.map((row) => row.success.percent));
  const rows = odds.comparison.map((row) => ({
    key: String(row.sacrifice), current: row.sacrifice === chosen, said: sacrificeLabel(row),
    label: html`${sacrificeLabel(row)}${row.success.percent === best ? html` <span class="pz-star" aria-hidden="true">★</span><span class="visually-hidden"> (${t("pointzero.ui.best")})</span>` : nothing}`,
    segments: testBar(row),
  }));
  return html`<h3>${t("pointzero.ui.compare_title")}</h3>
    ${compareBars(rows, { testid: "pz-compare-bars" })}
    <p class="small" data-testid="pz-best-note"><span aria-hidden="true">★ </span>${t("pointzero.ui.best_note")}</p>
    <div class="pz-scroll" tabindex="0" role="region" aria-label=${t("pointzero.ui.compare_title")}><table class="odds-table pz-compare" data-testid="pz-compare">
      <thead><tr><th scope="col">${t("pointzero.ui.compare_sacrifice")}</th>
        <th scope="col" class="num">${t("pointzero.ui.success")}</th><th scope="col" class="num">${t("pointzero.ui.crit_short")}</th>
        </tr></thead>
      <tbody>${odds.comparison.map((row) => html`<tr class=${row.success.percent === best ? "pz-best" : ""} data-sacrifice=${row.sacrifice}>
        <th scope="row">${row.sacrifice} <span class="muted small">(+${row.bonus})</span>${row.success.percent === best ? html` <span class="pz-star" role="img" aria-label=${t("pointzero.ui.best")}>★</span>` : nothing}
          <br><span class="muted small">${t(row.dice === 1 ? "pointzero.ui.dice_count_one" : "pointzero.ui.dice_count_other", { n: row.dice })} · ${t("pointzero.ui.mean")} ${formatNumber(row.mean_total_value, 1)}</span></th>
        <td class="num"><span data-p=${row.success.p}>${formatPercent(row.success.percent)}</span><br><span class="muted small pz-frac">${row.success.p}</span></td>
        <td class="num small"><span data-p=${row.critical_success.p}>${formatPercent(row.critical_success.percent)}</span></td></tr>`)}</tbody>
    </table></div>`;
}

/** A test's four outcomes (rule text "Réussites et échecs critiques": a critical failure is a
 * failure, a critical success a success), from the engine's exact odds. */
export function testBar(o) {
  return successBar(o.success.p, { criticalFailure: o.critical_failure.p, criticalSuccess: o.critical_success.p });
}

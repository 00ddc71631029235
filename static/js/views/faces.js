// Dice faces, shared by the tray and every system page.
//
// A die is an <li class="die"> in a <ul class="dice">: a d6 shows its pips (drawn here, as a
// 3×3 grid of <span class="pip">, aria-hidden), any other die a polyhedral-looking face with
// its number (the outline comes from the die's size: d4 triangle, d8 diamond, d10 kite, d12
// pentagon, d20 hexagon). A d66 or d100 is a pair: the tens die dark, the units die light;
// the colours are said in a visible legend and each die's accessible name says which it is
// ("Dizaines 4", "Unités 7"), so a screen reader never hears the pips.
//
// The li's text is the die's value (visually hidden for a d6), so `innerText` reads the
// value; `data-value`, `data-sides`, `data-kept` and `data-place` carry the same for tests and
// styles. A d100's tens die shows "40" for a 4 (the "0" is CSS generated content): the
// project reads d100 as 00–99, tens × 10 + units (py/tablee/dice.py).
//
// The short roll animation is CSS only (`.die.fresh`, app.css, ≤ 300 ms, none under
// prefers-reduced-motion): the value, total and live region are in the DOM at once.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";

/** Cells of a 3×3 grid (1 = top left, row by row) holding a pip, for 1 to 6. */
export const PIPS = {
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};

const SHAPED = new Set([4, 6, 8, 10, 12, 20]);

/** A die's accessible name: "Dé 5", "Dizaines 4", "Unités 7", "+ (écarté)" when dropped. */
export function dieName(value, { place = null, kept = true } = {}) {
  const head = place === "tens" ? t("tray.tens") : place === "units" ? t("tray.units") : t("tray.die");
  return `${head} ${value}${kept ? "" : ` (${t("tray.dropped")})`}`;
}

function pips(value) {
  return html`<span class="die-face pips" aria-hidden="true">${PIPS[value].map((cell) => html`<span class="pip c${cell}"></span>`)}</span>`;
}

/**
 * One die as a list item. `sides` chooses the face (6 with a value 1–6: pips; otherwise a
 * numbered polyhedral face); `place` ("tens" | "units") colours a d66/d100 die; `label`
 * replaces the accessible name; `testid` sets data-testid.
 */
export function renderDie({ value, sides = 6, kept = true, place = null, fresh = false, label = null, testid = null }) {
  const asPips = sides === 6 && Number.isInteger(value) && value >= 1 && value <= 6;
  const shape = asPips ? "d6" : SHAPED.has(sides) ? `poly d${sides}` : "poly dn";
  const cls = `die ${shape} ${kept ? "kept" : "dropped"} ${place ?? ""} ${fresh ? "fresh" : ""}`;
  return html`<li class=${cls} data-value=${value} data-sides=${sides} data-kept=${kept ? "true" : "false"}
    data-place=${place ?? nothing} data-testid=${testid ?? nothing}
    aria-label=${label ?? dieName(value, { place, kept })}>${asPips
      ? html`${pips(value)}<span class="visually-hidden">${value}</span>`
      : html`<span class="die-face" aria-hidden="true"></span><span class="die-num">${value}</span>`}</li>`;
}

/** The legend of a tens/units pair: which colour is which (the colours are not the only cue). */
export function pairLegend() {
  return html`<span class="dice-legend muted small">${t("tray.pair_legend")}</span>`;
}

/**
 * A d66 or d100 as two dice: tens (dark) then units (light), with the legend under them.
 * `dice` is [tens, units] (numbers, or {value, kept} objects).
 */
export function renderPair(kind, dice, { label = null, fresh = false, legend = true } = {}) {
  const sides = kind === "d100" ? 10 : 6;
  const value = (d) => (typeof d === "object" && d !== null ? d.value : d);
  const kept = (d) => (typeof d === "object" && d !== null ? d.kept !== false : true);
  return html`<div class="dice-pair" data-kind=${kind}>
    <ul class="dice ${kind}" aria-label=${label ?? kind}>
      ${renderDie({ value: value(dice[0]), sides, kept: kept(dice[0]), place: "tens", fresh })}
      ${renderDie({ value: value(dice[1]), sides, kept: kept(dice[1]), place: "units", fresh })}
    </ul>
    ${legend ? pairLegend() : nothing}
  </div>`;
}

/** A row of plain dice of one size (values only, all kept), e.g. a sheet's 2d6 roll. */
export function renderDiceRow(values, { sides = 6, label = null, fresh = false } = {}) {
  return html`<ul class="dice" aria-label=${label ?? nothing}>
    ${values.map((value) => renderDie({ value, sides, fresh }))}
  </ul>`;
}

// The odds at a glance: one outcome bar beside a test's headline number, and bars side by side
// to compare options. Drawn with the project's own HTML and CSS (no chart library).
//
// A bar is a row of segments, failures on the left and successes on the right, each as wide as
// its exact probability. The colours (Okabe–Ito: orange/vermilion for failures, blues for
// successes) are told apart by people with any common colour blindness, and failures are
// hatched as well, so no segment depends on colour alone; a wide segment writes its percentage
// inside it, and a key under the bar names each colour with its percentage. The exact fraction
// is one tap away (the bar opens, as a <details>, onto each outcome with its fraction; a
// segment's tooltip gives it on hover), and screen readers read the whole bar as one sentence
// in the summary ("Échec 58,3 % (7/12), Réussite 41,7 % (5/12)"). Every segment carries its
// fraction in `data-p`: a test compares it with the engine's exact odds.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { colon, formatPercent, t } from "../i18n.js";

/**
 * The tones a segment takes, from the worst outcome to the best: `fail-3` (a critical failure),
 * `fail-2`, `fail-1` (a failure with a consolation), `neutral`, `win-1` (a success at a cost,
 * a narrow one), `win-2`, `win-3`, `win-4` (a critical success). A system picks one per
 * outcome of its own bands.
 */
export const TONES = ["fail-3", "fail-2", "fail-1", "neutral", "win-1", "win-2", "win-3", "win-4"];

/** A bar of more outcomes than this names them on a phone only once opened (views: .ob-many). */
const MANY = 4;

/** Below this share (percent) a segment writes no percentage inside itself (the key does). */
const INSIDE_MIN = 18;

// ----- exact fractions ("num/den" strings, as the engine writes them)

function parts(p) {
  const [n, d = "1"] = String(p).split("/");
  return [BigInt(n), BigInt(d)];
}

function gcd(a, b) {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

function written(n, d) {
  const g = gcd(n, d) || 1n;
  return `${n / g}/${d / g}`;
}

/** `a - b` for two exact fractions, written "num/den" in lowest terms ("0/1" for nothing). */
export function fractionMinus(a, b) {
  const [an, ad] = parts(a);
  const [bn, bd] = parts(b);
  return written(an * bd - bn * ad, ad * bd);
}

/** The percentage of an exact fraction (6 decimals, as the engine gives them). */
export function fractionPercent(p) {
  const [n, d] = parts(p);
  return Number((n * 100_000_000n) / d) / 1_000_000;
}

/** Whether an exact fraction is nothing (an outcome that cannot happen: no segment). */
export function isNothing(p) {
  return parts(p)[0] === 0n;
}

/** A segment `{key, label, p, tone}` whose percentage is worked out from its exact fraction. */
export function segment(key, label, p, tone) {
  return { key, label, p: String(p), percent: fractionPercent(p), tone };
}

// ----- drawing

function said(s) {
  return `${s.label} ${formatPercent(s.percent)} (${s.p})`;
}

function drawn(s) {
  return html`<span class="ob-seg ob-${s.tone}" data-outcome=${s.key} data-p=${s.p} data-percent=${s.percent}
    style="flex-grow: ${s.percent}" title=${`${s.label}${colon()}${formatPercent(s.percent)} (${s.p})`}>${s.percent >= INSIDE_MIN ? html`<span class="ob-in">${formatPercent(Math.round(s.percent))}</span>` : nothing}</span>`;
}

/**
 * One outcome bar. `segments`: [{key, label, p: "num/den", percent, tone}] from the worst
 * outcome to the best (an outcome that cannot happen draws nothing). `label` names the bar for
 * screen readers ("Chances de réussite"); `testid` marks it for tests; `exact` replaces the
 * list the bar opens onto (a page's own list of each outcome with its exact fraction).
 */
export function outcomeBar(segments, { testid, label, exact } = {}) {
  const shown = segments.filter((s) => !isNothing(s.p));
  if (!shown.length) return nothing;
  return html`<details class=${shown.length > MANY ? "ob ob-many" : "ob"} data-testid=${testid ?? nothing}>
    <summary>
      <span class="ob-track" aria-hidden="true">${shown.map(drawn)}</span>
      <span class="ob-key small" aria-hidden="true">${shown.map((s) => html`<span class="ob-key-item"><span class="ob-swatch ob-${s.tone}"></span>${s.label} ${formatPercent(s.percent)}</span>`)}<span class="ob-more">${t("odds.bar_exact")}</span></span>
      <span class="visually-hidden">${label ? `${label}${colon()}` : ""}${shown.map(said).join(", ")}</span>
    </summary>
    ${exact ?? html`<ul class="ob-exact small">${shown.map((s) => html`<li data-outcome=${s.key} data-p=${s.p}><span class="ob-swatch ob-${s.tone}" aria-hidden="true"></span>${s.label}${colon()}<strong>${formatPercent(s.percent)}</strong> <span class="ob-frac">(${s.p})</span></li>`)}</ul>`}
  </details>`;
}

/**
 * Options compared as bars side by side, one under the other on the same scale: `rows`
 * [{key, label, said?, segments, note?, current?}] (`said`: the label as plain text for screen
 * readers, when `label` is a template); the row of the option chosen now is marked
 * (`current`) in words as well as by its frame.
 */
export function compareBars(rows, { testid, caption } = {}) {
  return html`<figure class="ob-compare" data-testid=${testid ?? nothing}>
    ${caption ? html`<figcaption class="small">${caption}</figcaption>` : nothing}
    <ul>${rows.map((r) => html`<li class=${r.current ? "ob-row ob-current" : "ob-row"} data-key=${r.key} aria-current=${r.current ? "true" : nothing}>
      <span class="ob-row-label">${r.label}${r.current ? html` <span class="ob-chosen small">${t("odds.bar_chosen")}</span>` : nothing}${r.note ? html` <span class="muted small">${r.note}</span>` : nothing}</span>
      ${outcomeBar(r.segments, { testid: testid ? `${testid}-${r.key}` : undefined, label: r.said ?? String(r.label) })}</li>`)}</ul>
  </figure>`;
}

/**
 * A test's two or four outcomes from its success chance and its criticals (each critical a
 * part of its side, as Point Zéro and the d100 systems count them): critical failure, failure,
 * success, critical success. Fractions "num/den"; a missing critical is none.
 */
export function successBar(success, { criticalFailure = "0/1", criticalSuccess = "0/1" } = {}) {
  const failure = fractionMinus("1/1", success);
  return [
    segment("critical_failure", t("odds.critical_failure"), criticalFailure, "fail-3"),
    segment("failure", t("odds.failure"), fractionMinus(failure, criticalFailure), "fail-2"),
    segment("success", t("odds.success"), fractionMinus(success, criticalSuccess), "win-2"),
    segment("critical_success", t("odds.critical_success"), criticalSuccess, "win-4"),
  ];
}

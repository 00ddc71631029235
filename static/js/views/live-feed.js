// The MJ's feed of the moves that arrived from the phones (views/live.js), and the words of a
// move and of a refusal.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { colon, errorMessage, formatClock, has, t } from "../i18n.js";
import { labelOf, summaryOf } from "./log-words.js";

/** How many feed lines were new when the MJ last opened the feed (marked "nouveau"). */
const seen = { fresh: 0 };

/** What a move does, in words ("Théorem : pioche sa main d'arcanes"); an op no page sends (a
 * hostile phone's) is quoted as it came, as text. */
export function opLabel(op) {
  return has(`live.op.${op}`) ? t(`live.op.${op}`) : t("live.op.unknown", { op });
}

/** Why the referee refused a move, said to the MJ ("ce personnage n'est pas l'un des siens");
 * a rule's refusal by the engine is its own message. */
function refusalReason(code) {
  return has(`live.why.${code}`) ? t(`live.why.${code}`) : errorMessage({ code });
}

/** What a feed line says happened: done, refused and why, or for a member's grouped refusals
 * how many and the commonest reason ("57 refus, dont 31 : message illisible"). */
function feedOutcome(f) {
  if (!f.code) return t("live.feed_done");
  const count = Number.isInteger(f.count) ? f.count : 1;
  if (count < 2) return t("live.feed_refused", { reason: refusalReason(f.code) });
  const [top, k] = Object.entries(f.kinds ?? { [f.code]: count }).sort((a, b) => b[1] - a[1])[0];
  return k === count ? t("live.feed_refusals_one", { n: count, reason: refusalReason(top) })
    : t("live.feed_refusals", { n: count, k, reason: refusalReason(top) });
}

/** What a feed line's move did, in the words of the log entry the referee wrote for it (its
 * label and its result line, as the phone's page worded them: "Mécanique 7d6 · Réussite
 * (marge +3)"), or the move's name when it logged nothing. */
function feedWhat(app, f) {
  const entry = f.logged && !f.code ? app.doc.log.findLast((e) => e?.id === f.logged) : null;
  if (!entry) return html`<span data-op=${f.op}>${opLabel(f.op)}</span> · ${feedOutcome(f)}`;
  const summary = summaryOf(entry, app); // in the MJ's language (log-words.js)
  const total = entry.result?.total !== undefined && entry.result?.total !== null ? ` (${entry.result.total})` : "";
  return html`<span data-op=${f.op} data-testid="live-feed-words">${labelOf(entry, app) || opLabel(f.op)}${summary || total ? `${colon()}${summary}${total}` : ""}</span>`;
}

/** What the MJ still has to decide for the moves that arrived, with its one tap: Point Zéro's
 * gauge counts the players' points from their first move (py/tablee/referee.py _first_state),
 * and its Tension critique waits for the scenario's secret threshold, the MJ's alone
 * (rules/README.md, Point Zéro, "Jauge de Tension"). */
function feedToDecide(session, app) {
  const pz = app.doc.systems?.pointzero;
  if (!pz || pz.threshold !== null || !session.feed.some((f) => !f.code && String(f.op).startsWith("pointzero."))) return nothing;
  return html`<p class="notice" data-testid="live-feed-decide">${t("live.feed_pz_threshold")}
    <a class="button" href="#/pointzero/mj">${t("live.feed_pz_threshold_go")}</a></p>`;
}

/** The MJ's feed of the moves that arrived (newest first), with how many are unseen: the last
 * `unseen` lines, each marked "nouveau" (every one of them is shown). */
export function feedSection(session, app) {
  if (session.unseen > 0) {
    // The MJ opened the feed: what arrived is seen (the count beside the link goes), and the
    // lines that were new say so until the next ones come.
    seen.fresh = session.unseen;
    queueMicrotask(() => session.seen());
  }
  // One line per move: a page's words for its move's entry (live.log.label) are that line's
  // words (feedWhat), never a line (a feed kept from before said them apart). The lines marked
  // "nouveau" are the last `fresh` of the feed, and the heading counts those marks.
  const fresh = seen.fresh ?? 0;
  const shown = session.feed.map((f, at) => ({ f, fresh: at >= session.feed.length - fresh }))
    .filter(({ f }) => !(f.op === "live.log.label" && !f.code));
  const items = shown.slice(-Math.max(30, fresh)).reverse();
  const marked = items.filter((line) => line.fresh).length;
  return html`<section class="card" aria-labelledby="live-feed-title" data-testid="live-feed" data-unseen=${marked}><h2 id="live-feed-title">${marked ? t("live.feed_title", { n: marked }) : t("live.feed_title_none")}</h2>
    ${feedToDecide(session, app)}
    ${items.length ? html`<ul>${items.map(({ f, fresh: isNew }) => html`<li data-code=${f.code ?? ""} data-count=${f.count ?? 1} data-new=${isNew ? "yes" : "no"}>${isNew ? html`<span class="live-new">${t("live.feed_new")}</span> ` : nothing}<strong>${f.name}</strong> · ${feedWhat(app, f)}
      <span class="muted small">(${formatClock(f.at, { seconds: true })})</span></li>`)}</ul>` : html`<p class="muted">${t("live.feed_empty")}</p>`}
    ${session.unseen ? html`<button type="button" @click=${() => session.seen()}>${t("live.feed_seen")}</button>` : nothing}
  </section>`;
}


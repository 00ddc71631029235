// The MJ's answer to a new device under a known player's name (live/admission.js), at the top
// of the live page: « Un nouvel appareil se présente comme Léa… » with « C'est Léa : lui rendre
// sa place » and « Refuser ». Until the MJ chooses, the device is not in the player list, gets
// no doc and none of its moves runs. The sentence is announced to a screen reader when it comes
// (role alert), each button says whose place it is about, and what the MJ chose is said in a
// status line that keeps the focus once the buttons are gone.

import { html } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";

/** What the MJ's last choice did, in words (the status line). */
let said = "";

function characterNames(app, ids) {
  return ids.map((id) => app.doc.characters.find((c) => c.id === id)?.name ?? id).join(", ");
}

function sayAndFocus(app, text) {
  said = text;
  app.rerender();
  queueMicrotask(() => document.getElementById("live-recognise-status")?.focus({ preventScroll: true }));
}

/** The panel, or only its (empty) status line when no device waits. `admitted(id, name, link)`
 * is the page's: the device recognised joins its list of players. */
export function recogniseSection(app, session, admitted) {
  const claims = session.pendingClaims();
  const status = html`<p role="status" tabindex="-1" class=${said ? "notice" : "visually-hidden"} id="live-recognise-status"
    data-testid="live-recognise-status">${said}</p>`;
  if (!claims.length) return status;
  const choose = (claim, yes) => {
    const link = session.claimsMap().get(claim.id)?.link ?? null;
    if (!yes) {
      session.refuseClaim(claim.id);
      sayAndFocus(app, t("live.recognise_refused", { name: claim.name }));
      return;
    }
    if (session.recognise(claim.id)) {
      admitted(claim.id, claim.name, link, claim.as);
      sayAndFocus(app, t("live.recognise_done", { name: claim.name }));
    } else sayAndFocus(app, t("live.recognise_gone", { name: claim.name }));
  };
  return html`<section class="card live-recognise" aria-labelledby="live-recognise-title" data-testid="live-recognise">
    <h2 id="live-recognise-title">${t("live.recognise_title")}</h2>
    <ul>${claims.map((c) => html`<li data-claim=${c.id} data-as=${c.as}>
      <p role="alert" id=${`live-recognise-${c.id}`}><strong>${t("live.recognise_text", { name: c.asName })}</strong></p>
      <p class="small">${c.characters.length ? t("live.recognise_plays", { name: c.asName, names: characterNames(app, c.characters) })
        : t("live.recognise_plays_none", { name: c.asName })}</p>
      <p class="muted small" id=${`live-recognise-help-${c.id}`}>${t("live.recognise_help", { name: c.asName })}</p>
      <div class="row">
        <button type="button" class="primary" data-recognise=${c.id} aria-describedby=${`live-recognise-${c.id} live-recognise-help-${c.id}`}
          @click=${() => choose(c, true)}>${t("live.recognise_yes", { name: c.asName })}</button>
        <button type="button" data-refuse-claim=${c.id} aria-label=${t("live.recognise_no_label", { name: c.name })}
          @click=${() => choose(c, false)}>${t("live.recognise_no")}</button>
      </div>
    </li>`)}</ul>
  </section>${status}`;
}

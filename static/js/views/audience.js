// Who sees a roll, on the MJ's device at a live table: the whole table, the MJ alone (a secret
// roll) or one player. One choice for the MJ's rolls, shown beside every roll button (the dice
// tray and the systems' test pages), so the MJ sees where their rolls go before rolling.
// A log entry carries the choice as `to` ("mj" or a member id): store.share leaves such an
// entry out of the public table, and live/session.js writes an entry sent to a player into that
// player's private doc only. Elsewhere (one device, a player's phone) there is no choice.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";

/** "" the whole table, "mj" the MJ only, else the member id the roll is sent to alone. */
let to = "";

/** The live table's session when this device is its MJ's, else null. */
function mjSession(app) {
  const session = app.liveSession?.();
  return session?.role === "mj" ? session : null;
}

/** The players a roll can be sent to: [{id, name}] (the MJ's members). */
function recipients(app) {
  const session = mjSession(app);
  return session ? [...session.members].map(([id, m]) => ({ id, name: m?.name || id })) : [];
}

/** The fields a roll's log entry takes from the choice: {to} for a secret roll or a roll sent
 * to a player still at the table, {} otherwise (a choice that no longer holds is not kept). */
export function audienceOf(app) {
  if (!mjSession(app) || !to) return {};
  if (to === "mj" || recipients(app).some((r) => r.id === to)) return { to };
  return {};
}

/** The "Qui voit ce jet" field (`id` for its select), or nothing where there is no choice. */
export function audienceField(app, id) {
  if (!mjSession(app)) return nothing;
  return html`<div class="field">
    <label for=${id}>${t("tray.to")}</label>
    <select id=${id} data-testid="roll-to" @change=${(e) => { to = e.target.value; app.rerender(); }}>
      <option value="" ?selected=${to === ""}>${t("tray.to_all")}</option>
      <option value="mj" ?selected=${to === "mj"}>${t("tray.to_secret")}</option>
      ${recipients(app).map((r) => html`<option value=${r.id} ?selected=${to === r.id}>${t("tray.to_player", { name: r.name })}</option>`)}
    </select>
    <p class="muted small">${t("tray.to_help")}</p>
  </div>`;
}

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

/** The member known as `id` now, in `members` (a Map of the live session): `id` itself, or the
 * member whose new device took the place of device `id` (live/admission.js keeps each member's
 * former devices in `replaces`); null when no member has it. */
export function memberNow(members, id) {
  if (!members || typeof id !== "string" || !id) return null;
  if (members.has(id)) return { id, name: members.get(id)?.name || id };
  for (const [other, m] of members) {
    if (Array.isArray(m?.replaces) && m.replaces.some((r) => r && r.id === id)) return { id: other, name: m?.name || other };
  }
  return null;
}

/** The choice as it holds now: a player whose device was replaced is that player's new device;
 * a player no longer at the table leaves the roll to the MJ alone, never to the whole table (a
 * roll meant for one person is not widened by a change the MJ did not make). */
function current(app) {
  if (!to || to === "mj") return to;
  const now = memberNow(mjSession(app)?.members, to);
  return now ? now.id : "mj";
}

/** The fields a roll's log entry takes from the choice: {to} for a secret roll or a roll sent
 * to one player, {} for the whole table. */
export function audienceOf(app) {
  if (!mjSession(app) || !to) return {};
  return { to: current(app) };
}

/** The MJ's choice: "" the whole table, "mj" the MJ alone, or a member id. */
export function chooseAudience(app, value) {
  to = typeof value === "string" ? value : "";
  app.rerender?.();
}

/** The "Qui voit ce jet" field (`id` for its select), or nothing where there is no choice. */
export function audienceField(app, id) {
  if (!mjSession(app)) return nothing;
  const chosen = current(app);
  return html`<div class="field">
    <label for=${id}>${t("tray.to")}</label>
    <select id=${id} data-testid="roll-to" @change=${(e) => chooseAudience(app, e.target.value)}>
      <option value="" ?selected=${chosen === ""}>${t("tray.to_all")}</option>
      <option value="mj" ?selected=${chosen === "mj"}>${t("tray.to_secret")}</option>
      ${recipients(app).map((r) => html`<option value=${r.id} ?selected=${chosen === r.id}>${t("tray.to_player", { name: r.name })}</option>`)}
    </select>
    <p class="muted small">${t("tray.to_help")}</p>
  </div>`;
}

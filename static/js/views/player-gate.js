// What a player's phone at a live table shows of the controls the referee refuses by design
// (py/tablee/referee.py: a phone's message is a move the MJ's device checks, never a write):
// one place for every system page, so a phone never offers what the table would refuse.
// - `playerHides(content)`: a control no player sends (deleting a character): absent.
// - `mjSetting(content)`: a table setting or MJ tool (the universe, the phase, a table
//   option): shown as the table has it, its controls disabled, with words saying whose it is.
// - `ownOnly(characterId, content)`: a page of a character that is not this phone's (another
//   player's, an NPC of the MJ's): shown, its controls disabled, with words saying so.
// Anywhere else (one device, the MJ's device) each gives `content` as it is.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { livePlayer, ownsCharacter } from "../player-role.js";

export { livePlayer, ownsCharacter };

/** A control no player sends at a live table: absent on a player's phone. */
export function playerHides(content) {
  return livePlayer() ? nothing : content;
}

/** The MJ's setting or tool: on a player's phone, the table's value shown, not changed here. */
export function mjSetting(content) {
  if (!livePlayer()) return content;
  return html`<fieldset class="live-gated" disabled data-testid="live-mj-setting">
    <p class="muted small live-gated-why">${t("gate.mj_setting")}</p>${content}</fieldset>`;
}

/** A character's page (sheet, test, learning) on a player's phone: changed only when it is one
 * of this phone's (private.js ownsCharacter); another's is shown as the table has it. */
export function ownOnly(characterId, content) {
  if (!livePlayer() || ownsCharacter(characterId)) return content;
  return html`<p class="notice" data-testid="live-not-yours">${t("gate.not_yours")}</p>
    <fieldset class="live-gated" disabled data-testid="live-not-yours-page">${content}</fieldset>`;
}

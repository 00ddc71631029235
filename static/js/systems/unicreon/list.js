// Unicreon characters: create, open, duplicate, delete (with confirmation); the NPC
// reference (generic tiers, bestiary) and the way to the combat tracker.

import { html } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { characterList } from "../../views/characters.js";
import { mjSetting } from "../../views/player-gate.js";
import { BEASTS, CHARACTERISTICS, SYSTEM, TIERS, charLabel, creationPay, effective, nameOf, rulesData, tableState } from "./common.js";

// A duplicate keeps `created`: the flag is a field of the character.
const listing = characterList({ system: SYSTEM, prefix: "uc", ns: "unicreon", maxName: 80, nameOf });

/** The line after a character's name: in creation, PV (the fight's while in one), PO, important NPC, down. */
function meta(app, c0) {
  const c = effective(app.doc, c0);
  const fighting = c !== c0;
  return `${c.created ? "" : `${t("unicreon.ui.in_creation")} · `}${t("unicreon.ui.pv_po", { pv: c.pv, pv_max: c.pv_max, po: c.po })}${c.important_npc ? ` · ${t("unicreon.field.important_npc")}` : ""}${c.down ? ` · ${t(`unicreon.down.${c.down}`)}` : ""}${fighting ? ` · ${t("unicreon.ui.in_combat")}` : ""}`;
}

function reference(app) {
  const data = rulesData(app);
  if (!data) return html`<p class="muted">${t("unicreon.ui.loading")}</p>`;
  return html`
    <h3>${t("unicreon.ui.generic_npcs")}</h3>
    <div class="uc-scroll"><table class="odds-table uc-ref" data-testid="uc-ref-tiers">
      <thead><tr><th scope="col">${t("unicreon.ui.npc")}</th><th scope="col" class="num">${t("unicreon.ui.value")}</th>
        <th scope="col" class="num">${t("unicreon.field.pv")}</th><th scope="col" class="num">${t("unicreon.ui.damage")}</th></tr></thead>
      <tbody>${TIERS.map((k) => {
        const d = data.npc_tiers[k];
        return html`<tr><th scope="row">${t(`unicreon.tier.${k}`)}<br><span class="muted small">${d.skills.map((s) => t(`unicreon.skill.${s}`)).join(", ")}</span></th>
          <td class="num">${d.value}</td><td class="num">${d.pv}</td><td class="num">${d.damage}</td></tr>`;
      })}</tbody>
    </table></div>
    <h3>${t("unicreon.ui.bestiary")}</h3>
    <ul class="uc-beasts" data-testid="uc-ref-beasts">
      ${BEASTS.map((k) => {
        const b = data.bestiary[k];
        return html`<li><strong>${t(`unicreon.beast.${k}`)}</strong><br>
          <span class="small">${t("unicreon.ui.beast_line", { pv: b.pv, damage: b.damage, attack: charLabel(b.attack) })}</span><br>
          <span class="small muted">${CHARACTERISTICS.map((c) => `${charLabel(c)} ${c === "volonte" && b.volonte_range ? b.volonte_range.join("–") : b.characteristics[c]}`).join(" · ")}</span></li>`;
      })}
    </ul>`;
}

export function render(app) {
  const combat = tableState(app.doc).combat;
  return html`
    <h1>${t("unicreon.ui.title")}</h1>
    <p class="muted">${t("unicreon.ui.intro")}</p>
    ${listing.render(app, { meta: (c) => meta(app, c) })}
    <section class="card" aria-labelledby="uc-combat-title">
      <h2 id="uc-combat-title">${t("unicreon.ui.combat")}</h2>
      <p class="muted small">${combat && combat.phase !== "over" ? t("unicreon.ui.combat_running", { round: combat.round, count: combat.combatants.length }) : t("unicreon.ui.combat_hint")}</p>
      <a class="button primary" href="#/unicreon/combat" id="uc-combat-link">${t("unicreon.ui.combat_link")}</a>
    </section>
    ${mjSetting(html`<section class="card" aria-labelledby="uc-settings-title">
      <h2 id="uc-settings-title">${t("unicreon.ui.table_settings")}</h2>
      <label class="check"><input type="checkbox" id="uc-creation-pay" .checked=${creationPay(app.doc)}
        aria-describedby="uc-creation-pay-help"
        @change=${(e) => app.update((doc) => {
          doc.systems.unicreon = { combat: null, custom_items: [], ...(doc.systems.unicreon ?? {}), creation_pay: e.target.checked };
        })}> ${t("unicreon.ui.creation_pay")}</label>
      <p class="muted small" id="uc-creation-pay-help">${t("unicreon.ui.creation_pay_help")}</p>
    </section>`)}
    <details class="card" id="uc-reference">
      <summary><h2 class="uc-inline">${t("unicreon.ui.reference")}</h2></summary>
      ${reference(app)}
    </details>
  `;
}

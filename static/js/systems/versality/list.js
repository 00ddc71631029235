// Versality characters: create, open, duplicate, delete (with confirmation). Player view:
// nothing of the MJ's data is shown here.

import { html } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { characterList } from "../../views/characters.js";
import { playerHides } from "../../views/player-gate.js";
import { SYSTEM, isCreated, nameOf, tn, transientApp } from "./common.js";
import { deckSize, forgetCharacter, playerView } from "./table.js";

// A duplicate keeps `created`: the flag is a field of the character. A deleted character's
// deck and pending test go with it.
const listing = characterList({
  system: SYSTEM, prefix: "vs", ns: "versality", maxName: 80, nameOf,
  onRemove: (doc, c) => forgetCharacter(doc, c.id),
});

export function render(app) {
  const view = playerView(app);
  /** Deck size once created (the table's deck when built), else "in creation". */
  const meta = (c) => {
    const deck = view && Object.hasOwn(view.decks, c.id) ? view.decks[c.id] : null;
    const size = deck ? deckSize(deck) : c.deck.length;
    return isCreated(c) ? tn("versality.ui.deck_size", size) : t("versality.ui.in_creation");
  };
  return html`
    <h1>${t("versality.ui.title")}</h1>
    <p class="muted">${t("versality.ui.intro")}</p>
    ${listing.render(transientApp(app), { meta })}
    ${playerHides(html`<section class="card" aria-labelledby="vs-mj-title">
      <h2 id="vs-mj-title">${t("versality.ui.mj_section")}</h2>
      <p class="muted small">${t("versality.ui.mj_hint")}</p>
      <a class="button" href="#/versality/mj" id="vs-mj-link">${t("versality.ui.mj_link")}</a>
    </section>`)}
  `;
}

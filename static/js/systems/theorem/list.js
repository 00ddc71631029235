// Théorem characters: create, open, duplicate, delete (with confirmation); links to the
// chase tracker and the MK's screen. A deleted character's arcana and set-aside figures
// leave the table (the figures and any chain in play go to the discard: no card is lost).

import { html } from "../../../vendor/lit-html/lit-html.js";
import { t } from "../../i18n.js";
import { characterList } from "../../views/characters.js";
import { SYSTEM, ensureState, nameOf, sphereLabel } from "./common.js";

function dropFromTable(doc, c) {
  const st = doc.systems.theorem;
  if (!st) return;
  const piles = st.deck.piles;
  const back = [...(st.aside[c.id] ?? [])];
  piles.aside.cards = piles.aside.cards.filter((x) => !back.includes(x));
  const p = st.pending[c.id];
  const played = p ? [...p.chain, ...(p.awaiting ? [p.awaiting] : [])] : [];
  piles.play.cards = piles.play.cards.filter((x) => !played.includes(x));
  piles.discard.cards.push(...back, ...played);
  for (const key of ["aside", "pending", "arcana", "hand_size", "arcane_turn", "fails"]) delete st[key][c.id];
}

const listing = characterList({ system: SYSTEM, prefix: "th", ns: "theorem", maxName: 80, nameOf, onRemove: dropFromTable });

export function render(app) {
  ensureState(app);
  const meta = (c) => ["animalite", "humanite", "divinite"].map((s) => `${sphereLabel(s)} ${c.spheres[s]}`).join(" · ")
    + ` · ${t("theorem.ui.realite_short", { n: c.realite })}`;
  return html`
    <h1>${t("theorem.ui.title")}</h1>
    <p class="muted">${t("theorem.ui.intro")}</p>
    ${listing.render(app, { meta })}
    <section class="card" aria-labelledby="th-more-title">
      <h2 id="th-more-title">${t("theorem.ui.more")}</h2>
      <div class="row">
        <a class="button" href="#/theorem/chase" id="th-chase-link">${t("theorem.ui.chase_link")}</a>
        <a class="button" href="#/theorem/mk" id="th-mk-link">${t("theorem.ui.mk_link")}</a>
      </div>
    </section>
  `;
}

// SYSTMJ: the system view. Routes:
//   #/systmj                       entities, the universe's special skills, the phase of play
//   #/systmj/character/<id>        the sheet (attributes in pairs, skills with their degree)
//   #/systmj/test/<id>             a d100 test with its odds
//   #/systmj/learning/<id>         a learning session (alone or with a mentor)
//   #/systmj/review                the end-of-session review (experience)
//   #/systmj/chronoste             the Chronoste (calendar, clock, history)
//   #/systmj/cards                 the card library (four families), give / take back, repairs
//   #/systmj/combat                Action & Mouvement rounds and combat

import { html } from "../../vendor/lit-html/lit-html.js";
import { renderSystemPage, transientApp } from "../views/ui.js";
import { ensureStyles, statusBar } from "./systmj/common.js";
import * as cards from "./systmj/cards.js";
import * as chronoste from "./systmj/chronoste.js";
import { liveCharacters } from "../live/private.js";
import * as combat from "./systmj/combat.js";
import * as learning from "./systmj/learning.js";
import * as list from "./systmj/list.js";
import * as review from "./systmj/review.js";
import * as sheet from "./systmj/sheet.js";
import * as test from "./systmj/test.js";
import { mjOnly } from "../share/mj-mode.js";
import { mjSetting } from "../views/player-gate.js";

const PAGES = {
  character: { id: true, render: sheet.render },
  test: { id: true, render: test.render },
  learning: { id: true, render: learning.render },
  // The review (experience, wear) and the Chronoste are the MJ's: a player's phone shows them as
  // the table has them, not changed there (views/player-gate.js).
  review: { render: (app) => mjSetting(review.render(app)) },
  chronoste: { render: (app) => mjSetting(chronoste.render(app)) },
  cards: { render: cards.render },
  // At a live table a player's phone gets its own view: its characters' secret choices.
  combat: { render: (app, id) => (liveCharacters() ? combat.renderPlayer(app, liveCharacters()) : mjOnly(combat.render)(app, id)) },
};

export function render(app) {
  ensureStyles();
  // Status lines ("Compétence ajoutée.") belong to their page: cleared on navigation.
  const view = transientApp(app);
  return html`${statusBar(view)}${renderSystemPage(view, "systmj", PAGES, list.render)}`;
}

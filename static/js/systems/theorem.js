// Théorem: the system view. Routes:
//   #/theorem                  characters
//   #/theorem/character/<id>   the character sheet
//   #/theorem/test/<id>        the tarot table for one player: arcana hand, simple actions, figures, odds
//   #/theorem/chase            oppositions and chases
//   #/theorem/mk               the MK's screen (hand, success table, arcana effects, turns, re-tests)

import { renderSystemPage } from "../views/ui.js";
import * as chase from "./theorem/chase.js";
import { ensureStyles } from "./theorem/common.js";
import * as list from "./theorem/list.js";
import * as mk from "./theorem/mk.js";
import * as sheet from "./theorem/sheet.js";
import * as table from "./theorem/table.js";
import { mjOnly } from "../share/mj-mode.js";

const PAGES = {
  character: { id: true, render: sheet.render },
  test: { id: true, render: table.render },
  chase: { render: chase.render },
  mk: { render: mjOnly(mk.render) },
};

export function render(app) {
  ensureStyles();
  return renderSystemPage(app, "theorem", PAGES, list.render);
}

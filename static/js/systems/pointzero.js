// Point Zéro: the system view. Routes:
//   #/pointzero                    characters, the Jauge de Tension (player view)
//   #/pointzero/character/<id>     the sheet: attributes, skills, atouts, notes
//   #/pointzero/test/<id>          a test (odds before the roll, Surpassement, Tension) and oppositions
//   #/pointzero/mj                 the MJ's screen: the secret threshold, new scenario

import { renderSystemPage } from "../views/ui.js";
import { ensureStyles, rules } from "./pointzero/common.js";
import * as list from "./pointzero/list.js";
import * as mj from "./pointzero/mj.js";
import * as sheet from "./pointzero/sheet.js";
import * as test from "./pointzero/test.js";
import { mjOnly } from "../share/mj-mode.js";

const PAGES = {
  character: { id: true, render: sheet.render },
  test: { id: true, render: test.render },
  mj: { render: mjOnly(mj.render) },
};

export function render(app) {
  ensureStyles();
  rules(app);
  return renderSystemPage(app, "pointzero", PAGES, list.render);
}

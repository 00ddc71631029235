// Versality: the system view. Routes:
//   #/versality                    characters (player view)
//   #/versality/character/<id>     guided creation / sheet, wounds, progression
//   #/versality/test/<id>          a test on the card table
//   #/versality/mj                 the MJ's screen (catastrophe, tokens, power uses, sessions)

import { renderSystemPage } from "../views/ui.js";
import { ensureStyles } from "./versality/common.js";
import * as list from "./versality/list.js";
import * as mj from "./versality/mj.js";
import * as sheet from "./versality/sheet.js";
import * as test from "./versality/test.js";
import { mjOnly } from "../share/mj-mode.js";

const PAGES = {
  character: { id: true, render: sheet.render },
  test: { id: true, render: test.render },
  mj: { render: mjOnly(mj.render) },
};

export function render(app) {
  ensureStyles();
  return renderSystemPage(app, "versality", PAGES, list.render);
}

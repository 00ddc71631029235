// Unicreon: the system view. Routes:
//   #/unicreon                    characters, NPC reference, links to the combat tracker
//   #/unicreon/character/<id>     creation / sheet: characteristics, skills, equipment, health
//   #/unicreon/test/<id>          a test (odds before the roll) and oppositions
//   #/unicreon/combat             the combat tracker (state in doc.systems.unicreon.combat)

import { renderSystemPage } from "../views/ui.js";
import * as combat from "./unicreon/combat.js";
import { ensureStyles, rulesData } from "./unicreon/common.js";
import * as list from "./unicreon/list.js";
import * as sheet from "./unicreon/sheet.js";
import * as test from "./unicreon/test.js";

const PAGES = {
  character: { id: true, render: sheet.render },
  test: { id: true, render: test.render },
  combat: { render: combat.render },
};

export function render(app) {
  ensureStyles();
  rulesData(app);
  return renderSystemPage(app, "unicreon", PAGES, list.render);
}

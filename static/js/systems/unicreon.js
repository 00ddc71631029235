// Unicreon: the system view. Routes:
//   #/unicreon                    characters, NPC reference, links to the combat tracker
//   #/unicreon/character/<id>     creation / sheet: characteristics, skills, equipment, health
//   #/unicreon/test/<id>          a test (odds before the roll) and oppositions
//   #/unicreon/combat             the combat tracker (state in doc.systems.unicreon.combat)

import { html } from "../../vendor/lit-html/lit-html.js";
import * as combat from "./unicreon/combat.js";
import { ensureStyles, rulesData } from "./unicreon/common.js";
import * as list from "./unicreon/list.js";
import * as sheet from "./unicreon/sheet.js";
import * as test from "./unicreon/test.js";

export function render(app) {
  ensureStyles();
  rulesData(app);
  const [page, id] = app.params;
  let body;
  if (page === "character" && id) body = sheet.render(app, id);
  else if (page === "test" && id) body = test.render(app, id);
  else if (page === "combat") body = combat.render(app);
  else body = list.render(app);
  return html`<div class="unicreon" data-page=${page ?? "list"}>${body}</div>`;
}

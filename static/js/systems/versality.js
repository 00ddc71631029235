// Versality: the system view. Routes:
//   #/versality                    characters (player view)
//   #/versality/character/<id>     guided creation / sheet, wounds, progression
//   #/versality/test/<id>          a test on the card table
//   #/versality/mj                 the MJ's screen (catastrophe, tokens, power uses, sessions)

import { html } from "../../vendor/lit-html/lit-html.js";
import { ensureStyles } from "./versality/common.js";
import * as list from "./versality/list.js";
import * as mj from "./versality/mj.js";
import * as sheet from "./versality/sheet.js";
import * as test from "./versality/test.js";

export function render(app) {
  ensureStyles();
  const [page, id] = app.params;
  let body;
  if (page === "character" && id) body = sheet.render(app, id);
  else if (page === "test" && id) body = test.render(app, id);
  else if (page === "mj") body = mj.render(app);
  else body = list.render(app);
  return html`<div class="versality" data-page=${page ?? "list"}>${body}</div>`;
}

// The undo module (static/js/undo.js) driven from tests/test_undo.py over JSON lines.
import { serveLines } from "../live/lines.mjs";
import { apply, conflicts, diff, record, readHistory, bound, HISTORY_CHARS, HISTORY_ENTRIES } from "../../static/js/undo.js";

/** Walk `states` (documents) recording each step's difference, then undo every step back to
 * the first and redo every step forward again: the documents seen on the way. */
function roundtrip({ states }) {
  const history = { undo: [], redo: [] };
  for (let i = 1; i < states.length; i += 1) {
    record(history, "change", { before: states[i - 1], after: states[i], id: `e${i}`, at: "" });
  }
  let doc = structuredClone(states[states.length - 1]);
  const undone = [];
  const refused = [];
  while (history.undo.length) {
    const entry = history.undo[history.undo.length - 1];
    refused.push(conflicts(doc, entry.changes, "undo").length);
    apply(doc, entry.changes, "undo");
    record(history, "undo", { entry });
    undone.push(structuredClone(doc));
  }
  const redone = [];
  while (history.redo.length) {
    const entry = history.redo[history.redo.length - 1];
    refused.push(conflicts(doc, entry.changes, "redo").length);
    apply(doc, entry.changes, "redo");
    record(history, "redo", { entry });
    redone.push(structuredClone(doc));
  }
  return { undone, redone, refused };
}

serveLines({
  roundtrip,
  diff: ({ before, after }) => diff(before, after),
  conflicts: ({ doc, changes, direction }) => conflicts(doc, changes, direction).length,
  apply: ({ doc, changes, direction }) => apply(doc, changes, direction),
  bound: ({ history }) => bound(history),
  limits: () => ({ chars: HISTORY_CHARS, entries: HISTORY_ENTRIES }),
  read: ({ text }) => readHistory({ getItem: () => text }),
});

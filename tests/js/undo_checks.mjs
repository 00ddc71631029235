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
  const doc = structuredClone(states[states.length - 1]);
  const refused = [];
  // Take every entry of one list in turn (undo, then redo), noting the conflicts it would have.
  const unwind = (direction) => {
    const seen = [];
    while (history[direction].length) {
      const entry = history[direction][history[direction].length - 1];
      refused.push(conflicts(doc, entry.changes, direction).length);
      apply(doc, entry.changes, direction);
      record(history, direction, { entry });
      seen.push(structuredClone(doc));
    }
    return seen;
  };
  const undone = unwind("undo");
  const redone = unwind("redo");
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

// A memory snapshot's round trip through static/js/pyodide-snapshot.js under Node, with the
// vendored Pyodide (tests/test_snapshot_api.py): make one, restore it twice, answer, reseed.
// Prints one JSON line.
import { makeSnapshot, restoreSnapshot, PRE_IMPORTS } from "../static/js/pyodide-snapshot.js";

const quiet = { stdout: () => {}, stderr: () => {} };
const { pyodide, bytes } = await makeSnapshot(quiet);
const draw = "import random as _r; [_r.getrandbits(64) for _ in range(3)]";
const made = { draws: String(pyodide.runPython(draw).toJs()) };
const restored = [];
for (let i = 0; i < 2; i += 1) {
  const py = await restoreSnapshot(quiet, bytes);
  restored.push({
    draws: String(py.runPython(draw).toJs()),
    answer: py.runPython("import json; json.dumps({'a': [1, 2]})"),
    preImported: py.runPython(`import sys; all(m in sys.modules for m in ${JSON.stringify(PRE_IMPORTS)})`),
  });
}
let foreign = null;
const other = bytes.slice();
other[20] ^= 0xff; // another build's id
try {
  await restoreSnapshot(quiet, other);
} catch (error) {
  foreign = String(error.message).split("\n")[0];
}
process.stdout.write(JSON.stringify({ bytes: bytes ? bytes.length : 0, made, restored, foreign }) + "\n");

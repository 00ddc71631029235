// The standard library modules the engine can import, found inside the vendored Pyodide
// (tools/stdlib_trim.py; tools/vendor.py write_stdlib_trimmed builds the trimmed archive).
//
//   node tools/stdlib_trim.mjs <pyodide dir> <work dir>
//
// <work dir> holds stdlib/ (Pyodide's standard library as sources), src/ (the rules package,
// its wheels unpacked, py/worker.py) and roots.json (more module names: PyScript's imports).
// What Pyodide imports when it starts is added to the roots here. Prints the sorted names as
// JSON on the last line of stdout.

import { pathToFileURL } from "node:url";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [pyodideDir, workDir] = process.argv.slice(2, 4).map((p) => resolve(p));
const tools = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const py = await loadPyodide({ indexURL: `${pyodideDir}/` });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: workDir }, "/work");
py.FS.mkdirTree("/tools");
py.FS.mount(py.FS.filesystems.NODEFS, { root: tools }, "/tools");
const answer = py.runPython(`
import json, sys
started = sorted(sys.modules)
sys.path.insert(0, "/tools")
import stdlib_trim
roots = json.load(open("/work/roots.json"))
json.dumps(stdlib_trim.needed("/work/stdlib", ["/work/src"], [*started, *roots]))
`);
process.stdout.write(`${answer}\n`);

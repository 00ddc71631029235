// Import modules in the vendored Pyodide with a given standard library archive, beside the
// worker's two archives unpacked as PyScript unpacks them (tests/test_stdlib_trim.py).
//
//   node tests/stdlib_imports.mjs <pyodide dir> <stdlib zip | "default"> <vendor dir> <names.json> <requests.json>
//
// Prints one JSON line: {"failed": {name: "ErrorType: message"}, "answers": [answer JSON text]}:
// the modules of names.json that could not be imported, and the engine's answers to each
// request of requests.json (tablee.api.handle_json), after tablee.api.load_all().

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [pyodideDir, stdlib, vendorDir, namesFile, requestsFile] = process.argv.slice(2, 7);
const { loadPyodide } = await import(pathToFileURL(`${resolve(pyodideDir)}/pyodide.mjs`).href);
const options = { indexURL: `${resolve(pyodideDir)}/` };
if (stdlib !== "default") options.stdLibURL = resolve(stdlib);
const py = await loadPyodide(options);
for (const name of ["tablee.zip", "tablee-lib.zip"]) {
  const bytes = readFileSync(`${resolve(vendorDir)}/${name}`);
  py.unpackArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), "zip", { extractDir: py.FS.cwd() });
}
py.globals.set("names_json", readFileSync(namesFile, "utf-8"));
py.globals.set("requests_json", readFileSync(requestsFile, "utf-8"));
const out = py.runPython(`
import importlib, json, os, sys
sys.path.insert(0, os.getcwd())
failed = {}
for name in json.loads(names_json):
    try:
        importlib.import_module(name)
    except BaseException as error:  # (an import can raise anything)
        failed[name] = f"{type(error).__name__}: {error}"
from tablee import api
api.load_all()
answers = [api.handle_json(json.dumps(r)) for r in json.loads(requests_json)]
json.dumps({"failed": failed, "answers": answers})
`);
process.stdout.write(`${out}\n`);

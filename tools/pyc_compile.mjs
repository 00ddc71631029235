// Compile Python sources to bytecode with the vendored Pyodide's own interpreter.
//
//   node tools/pyc_compile.mjs <pyodide dir> <work dir> [file name prefix]
//
// Every <work dir>/src/**/*.py becomes <work dir>/out/**/*.pyc: sourceless, hash-based and
// unchecked (py_compile's UNCHECKED_HASH: the source's hash is in the header, and the import
// system never reads the source to check it), with the prefix and the path relative to src as
// its file name. It also compiles Pyodide's standard library (tools/vendor.py write_stdlib).
// tools/vendor.py runs it when the worker's archive is built, so the worker imports bytecode
// instead of compiling the rules, icepool and fastjsonschema at each start (CPython can check
// a .pyc's hash against its source, but cannot write Pyodide's bytecode: only its own
// interpreter can).
//
// Docstrings are left out of the bytecode (tools/pyc_strip.py: about a seventh of the bytes the
// engine downloads; nothing the worker runs reads one, tests/test_pyc_strip.py), except in
// Pyodide's own packages (pyodide, _pyodide), which are kept as they are.

import { pathToFileURL } from "node:url";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [pyodideDir, workDir] = process.argv.slice(2, 4).map((p) => resolve(p));
const prefix = process.argv[4] ?? "";
const tools = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const py = await loadPyodide({ indexURL: `${pyodideDir}/` });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: workDir }, "/work");
py.FS.mkdirTree("/tools");
py.FS.mount(py.FS.filesystems.NODEFS, { root: tools }, "/tools");
py.globals.set("prefix", prefix);
py.runPython(`
import os, sys

sys.path.insert(0, "/tools")
import pyc_strip

for folder, _dirs, files in sorted(os.walk("/work/src")):
    for name in sorted(files):
        if not name.endswith(".py"):
            continue
        source = os.path.join(folder, name)
        rel = os.path.relpath(source, "/work/src")
        target = os.path.join("/work/out", rel + "c")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(source, "rb") as file:
            data = file.read()
        with open(target, "wb") as out:
            out.write(pyc_strip.pyc_bytes(data, prefix + rel, strip=pyc_strip.strips(rel)))
`);

"""Set-up step: vendor the pinned runtime into static/vendor/ and write the precache list.

Run by ``make setup`` (and so by ``make serve`` and ``make test``) and by the Pages
workflow. It needs only the package registries: npm (``npm ci`` from package-lock.json)
for PyScript, Pyodide and lit-html, and PyPI (``pip download``) for the pure-Python wheels
pinned in requirements-runtime.txt. Nothing under static/vendor/ is committed.

Steps, each skipped when its output is already up to date:
1. ``npm ci`` when node_modules/ is missing or older than package-lock.json;
2. copy the runtime files the app loads into static/vendor/{pyscript,pyodide,lit-html,...}, with
   the camera scan's QR decoder (barcode-detector and zxing-wasm's reader .wasm, checked to be
   the pair the package was built for: check_decoder_wasm);
3. download the pinned wheels into static/vendor/wheels/;
4. always: build static/vendor/tablee.zip, the one archive the worker fetches:
   every .py file under py/tablee, the set-up's answers (tablee/answer.<op>.json for
   ``describe`` and ``store.limits``, see py/tablee/answers.py) and the pinned wheels' contents, with
   every module as Pyodide bytecode (a sourceless .pyc compiled by the vendored Pyodide under
   Node, tools/pyc_compile.mjs; see with_bytecode), sorted entries and fixed timestamps so the
   same sources give the same bytes; the page's
   copy of the ``store.limits`` answer (static/vendor/store-limits.json, see page_limits); write
   pyscript.toml's generated ``[files]`` block (that archive, unpacked: ``"./*"``) and
   static/vendor/precache.js (every file the app needs offline, with a content hash, and
   a cache version derived from all of them).
5. the precompiled standard library (write_stdlib): Pyodide's python_stdlib.zip with every
   module as sourceless bytecode compiled by the vendored Pyodide, served at the URL Pyodide
   fetches; cut from it, the standard library the engine mounts: only the modules the
   worker's code can import (write_stdlib_trimmed, tools/stdlib_trim.py); and
   static/vendor/snapshot-key.json, the key of the engine's memory snapshot
   (write_snapshot_key; see static/js/pyodide-snapshot.js);
6. the live table's ES modules (yjs, y-protocols, lib0: only what their import graph reaches)
   into static/vendor/, and index.html's import map for them with its CSP hash
   (tools/live_vendor.py).
"""

from __future__ import annotations

import _imp
import argparse
import gzip
import hashlib
import io
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "static" / "vendor"
NODE = ROOT / "node_modules"

# What the browser loads from each npm package (source dir in node_modules -> dest, globs).
NPM_FILES: dict[str, tuple[str, list[str]]] = {
    "pyscript": ("@pyscript/core/dist", ["*.js", "*.css"]),
    "pyodide": (
        "pyodide",
        # python_stdlib.zip is not copied: write_stdlib writes its precompiled version.
        ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"],
    ),
    "lit-html": ("lit-html", ["*.js", "directives/*.js"]),
    # QR codes for share links (static/js/views/share.js); the ES module only, its MIT
    # licence is in the file's header.
    "qrcode-generator": ("qrcode-generator/dist", ["qrcode.mjs"]),
    # The QR decoder the camera scan loads where the browser has no BarcodeDetector
    # (static/js/views/scan.js): barcode-detector's ponyfill (one self-contained ES module and its
    # entry) and zxing-wasm's reader build, whose .wasm scan.js points zxing at (never its CDN
    # default). Loaded only when a scan starts; precached like the rest, for an offline scan.
    "barcode-detector": ("barcode-detector", ["dist/es/ponyfill.js", "dist/es/zxing-exported.js", "LICENSE"]),
    "zxing-wasm": ("zxing-wasm", ["dist/reader/zxing_reader.wasm", "LICENSE"]),
}
#: The decoder's wasm (see NPM_FILES): its bytes must be the ones the pinned barcode-detector was
#: built against (it exports their sha256), checked by check_decoder_wasm.
DECODER_ENTRY = NODE / "barcode-detector" / "dist" / "es" / "ponyfill.js"
DECODER_WASM = NODE / "zxing-wasm" / "dist" / "reader" / "zxing_reader.wasm"
# Files vendored but not precached: source maps, the wheels (inside tablee.zip), and the chunks
# of PyScript's page-side plugins (editor, terminal, game, donkey): index.html's
# <py-config>/<mpy-config> switch them off, so they are never fetched (~850 kB).
NOT_PRECACHED = re.compile(
    r"\.map$|^static/vendor/wheels/"
    # (the whole precompiled standard library: the engine fetches the trimmed one, STDLIB_TRIMMED)
    r"|^static/vendor/pyodide/python_stdlib\.zip$"
    # (the archives the worker gets compressed as a whole, ARCHIVES_PACKED: only the packed file
    # is fetched and precached; the zip beside it is what it was made from)
    r"|^static/vendor/tablee-lib\.zip$|^static/vendor/pyodide/stdlib-trimmed\.zip$"
    # PyScript: only its core and the error chunk it imports are ever requested (index.html's
    # <py-config> switches the page-side plugins off, the worker's config is an object, not
    # TOML, and Pyodide unpacks the archives): every other chunk (editor, terminal, game,
    # donkey, TOML and zip readers, the packages' graph, its own service worker) is not
    # precached (~100 kB on the wire).
    r"|^static/vendor/pyscript/(?!core[-.]|error-)"
)
#: Precached on demand (static/vendor/precache.js's `ondemand`): the service worker keeps each
#: the first time the page fetches it, not at install. The camera scan's QR decoder (0.48 MB on
#: the wire, needed only on the device that scans, and there often never): an offline scan
#: works once the decoder was used online (static/js/views/scan.js says so when it is missing).
ON_DEMAND = re.compile(r"^static/vendor/(barcode-detector|zxing-wasm)/")

# The app's own files, precached for offline use (globs relative to ROOT). The rules
# package reaches the worker inside static/vendor/tablee.zip: only the worker's entry is
# fetched from py/.
APP_GLOBS = [
    "index.html",
    "pyscript.toml",
    "manifest.webmanifest",
    "py/worker.py",
    "static/js/**/*.js",
    "static/css/**/*.css",
    "static/i18n/**/*.json",
    "static/icons/*",
]

# The worker's two archives (pyscript.toml's [files]): what answers the first requests (the
# modules `import tablee.api` loads and the set-up's answers), unpacked before the worker
# starts, and the rest (the systems, the kernel, icepool, fastjsonschema), copied beside it and
# unpacked by py/worker.py on the first import the first one cannot answer (see boot_names).
ARCHIVE = VENDOR / "tablee.zip"
LIB_ARCHIVE = VENDOR / "tablee-lib.zip"
#: What the worker fetches of the library archive: that zip, its entries stored, compressed as a
#: whole with xz (LZMA2), which py/worker.py (and the snapshot's preload) decompresses with the
#: interpreter's own lzma. 0.50 MB on the wire instead of 0.77 MB as a zip of deflated entries: a
#: solid stream finds what the 150 modules share (Pages sends an archive as it is, no gzip).
LIB_PACKED = VENDOR / "tablee-lib.zip.xz"
#: The set-up's store.limits for the page's guard at boot (see page_limits).
PAGE_LIMITS = VENDOR / "store-limits.json"
#: The archive's zip comment: which Pyodide compiled its bytecode (see with_bytecode).
ARCHIVE_STAMP = "tablee: bytecode of Pyodide {version}, compiler {compiler}"
# Every entry gets this timestamp (zip's earliest), so the archive's bytes depend on content only.
ARCHIVE_DATE = (1980, 1, 1, 0, 0, 0)

#: Pyodide's standard library, precompiled (see write_stdlib), at the URL Pyodide fetches it from.
STDLIB = VENDOR / "pyodide" / "python_stdlib.zip"
#: The precompiled standard library's zip comment: what it was compiled from.
STDLIB_STAMP = "tablee: bytecode of Pyodide {version}, compiler {compiler}, from python_stdlib.zip sha256 {digest}"
#: The standard library the engine fetches (Pyodide's `stdLibURL`, set by
#: static/js/pyodide-snapshot.js): only the modules the worker's code can import (see
#: write_stdlib_trimmed).
STDLIB_TRIMMED = VENDOR / "pyodide" / "stdlib-trimmed.zip"
#: Its zip comment: the digest of everything it was made from.
STDLIB_TRIMMED_STAMP = "tablee: trimmed standard library {digest}, entries stored"
#: What the engine fetches of it: that zip, its entries stored (zipimport reads them without
#: inflating), gzipped as a whole, which static/js/pyodide-snapshot.js decompresses with the
#: browser's DecompressionStream as it arrives: 1.65 MB on the wire instead of 1.75 MB (the
#: interpreter starts before any Python could decompress it, so no xz here).
STDLIB_PACKED = VENDOR / "pyodide" / "stdlib-trimmed.zip.gz"
#: What the engine's memory snapshot depends on (see write_snapshot_key).
SNAPSHOT_KEY = VENDOR / "snapshot-key.json"

FILES_BEGIN = "# --- generated by tools/vendor.py: do not edit below this line ---"
FILES_END = "# --- end of generated block ---"


sys.path.insert(0, str(Path(__file__).resolve().parent))
import live_vendor  # noqa: E402
import shell_graph  # noqa: E402


def log(msg: str) -> None:
    print(f"[vendor] {msg}", flush=True)


def installed_as_locked() -> bool:
    """Whether node_modules/ holds what package-lock.json pins: every package npm installed
    (node_modules/.package-lock.json) at its locked version and every locked package that is
    not optional installed. Read from the files' content, not their dates: a fresh checkout's
    lock file is newer than any install, though it pins the same packages."""
    try:
        locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
        installed = json.loads((NODE / ".package-lock.json").read_text())["packages"]
    except (OSError, ValueError, KeyError):
        return False
    wanted = {k: v for k, v in locked.items() if k.startswith("node_modules/")}
    return all(wanted.get(k, {}).get("version") == v.get("version") for k, v in installed.items()) and all(
        k in installed for k, v in wanted.items() if not v.get("optional"))


def npm_ci() -> None:
    if installed_as_locked():
        return
    if NODE.is_symlink():
        # npm ci empties node_modules/ through the link: the install others share would be gone
        log(f"node_modules/ is a link to {os.readlink(NODE)} and differs from package-lock.json:"
            " run `npm ci` there, not through the link")
        return
    if shutil.which("npm") is None:
        sys.exit("[vendor] npm is missing: install Node.js (Debian: apt-get install nodejs npm)")
    log("npm ci (PyScript, Pyodide, lit-html pinned in package-lock.json)")
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True)


# PyScript's core chunk (the page's and, inside it as a string, the worker's copy of
# coincident) probes for growable SharedArrayBuffers with `try{new SAB(4,{maxByteLength:8})}`.
# A page that is not cross-origin isolated (GitHub Pages sends no COOP/COEP headers) has no
# SharedArrayBuffer, so this throws "… is not a constructor" while the module is evaluated, and
# to word that message V8 parses the whole enclosing function again: the chunk's top level,
# 136 kB, on the main thread (about 7 ms on the bench machine, 30 ms at Lighthouse's 4x CPU
# slowdown: half the chunk's evaluation), and the worker's bundle in the worker. The guard
# throws a plain value when there is no constructor instead, which the same catch handles:
# same fallback, nothing to word, nothing parsed again.
SAB_PROBE = re.compile(r"try\{new (\w+)\(4,\{maxByteLength:8\}\)\}catch\((\w+)\)\{")
SAB_PROBE_GUARDED = r"try{if(!\1)throw 0;new \1(4,{maxByteLength:8})}catch(\2){"
#: Each probe: the page's coincident and the worker's (its source is a string in the chunk).
SAB_PROBES = 2


def guard_sab_probe(text: str, name: str) -> str:
    """PyScript's core chunk with its SharedArrayBuffer probes guarded (see SAB_PROBE); stops the
    set-up when the pinned @pyscript/core no longer has exactly the probes this expects."""
    guarded, count = SAB_PROBE.subn(SAB_PROBE_GUARDED, text)
    if count != SAB_PROBES:
        sys.exit(f"[vendor] {name}: expected {SAB_PROBES} SharedArrayBuffer probes, found {count}:"
                 " check tools/vendor.py SAB_PROBE against the pinned @pyscript/core")
    return guarded


def lock_without_packages(text: str, name: str) -> str:
    """Pyodide's lock file with its ``info`` and no package: the engine loads no package of
    Pyodide's distribution (its Python is the standard library, the package's archives and
    their wheels' contents), yet every start fetched and parsed the list of 357 (119 kB, 27 kB
    gzipped on a first visit). A ``loadPackage`` would now fail loudly, naming the package."""
    lock = json.loads(text)
    if not isinstance(lock.get("info"), dict) or not isinstance(lock.get("packages"), dict):
        sys.exit(f"[vendor] {name}: not the lock file layout this expects (info, packages)")
    return json.dumps({"info": lock["info"], "packages": {}}, indent=1) + "\n"


#: Vendored files written through a function of their text: (dest dir, file name) -> edit.
EDITS = {("pyscript", re.compile(r"core-[\w-]+\.js$")): guard_sab_probe,
         ("pyodide", re.compile(r"pyodide-lock\.json$")): lock_without_packages}


def edit_for(dest_name: str, file_name: str):
    for (dest, pattern), edit in EDITS.items():
        if dest == dest_name and pattern.match(file_name):
            return edit
    return None


def copy_npm() -> None:
    for dest_name, (src_rel, globs) in NPM_FILES.items():
        src = NODE / src_rel
        dest = VENDOR / dest_name
        for pattern in globs:
            for path in sorted(src.glob(pattern)):
                if path.name.endswith(".d.ts"):
                    continue
                target = dest / path.relative_to(src)
                edit = edit_for(dest_name, path.name)
                if edit is not None:
                    text = edit(path.read_text(encoding="utf-8"), path.name)
                    if not target.exists() or target.read_text(encoding="utf-8") != text:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_text(text, encoding="utf-8")
                    continue
                if target.exists() and target.stat().st_size == path.stat().st_size and (
                    target.stat().st_mtime >= path.stat().st_mtime
                ):
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)


def check_decoder_wasm() -> None:
    """Stop the set-up when zxing-wasm's reader .wasm is not the one the pinned barcode-detector
    expects (ZXING_WASM_SHA256, read by importing its entry under Node): a mismatched pair fails
    only when a scan starts, on a device without BarcodeDetector."""
    code = "import(process.argv[1]).then((m) => process.stdout.write(`${m.ZXING_WASM_SHA256} ${m.ZXING_WASM_VERSION}`))"
    done = subprocess.run(["node", "-e", code, DECODER_ENTRY.as_uri()], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"[vendor] reading the QR decoder's expected wasm failed:\n{done.stderr[-2000:]}")
    expected, version = done.stdout.split()
    actual = hashlib.sha256(DECODER_WASM.read_bytes()).hexdigest()
    if actual != expected:
        sys.exit(f"[vendor] {DECODER_WASM.relative_to(ROOT)} is not the zxing-wasm {version} build barcode-detector"
                 f" expects (sha256 {actual[:12]}, not {expected[:12]}): pin the zxing-wasm it depends on")


def pinned_wheels() -> list[str]:
    reqs = []
    for line in (ROOT / "requirements-runtime.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            if "==" not in line:
                sys.exit(f"[vendor] runtime requirement {line!r} must be pinned with ==")
            reqs.append(line)
    return reqs


def wheel_name(req: str) -> str:
    name, version = req.split("==")
    return f"{name.replace('-', '_').lower()}-{version}-"


def download_wheels() -> list[Path]:
    dest = VENDOR / "wheels"
    dest.mkdir(parents=True, exist_ok=True)
    wheels = []
    for req in pinned_wheels():
        prefix = wheel_name(req)
        found = [p for p in dest.glob("*.whl") if p.name.lower().startswith(prefix)]
        if not found:
            log(f"pip download {req}")
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                 "--dest", str(dest), req],
                check=True,
            )
            found = [p for p in dest.glob("*.whl") if p.name.lower().startswith(prefix)]
        if len(found) != 1 or not found[0].name.endswith("-py3-none-any.whl"):
            sys.exit(f"[vendor] expected one pure-Python wheel for {req}, found {[p.name for p in found]}")
        wheels.append(found[0])
    # drop wheels no longer pinned, so the config and the cache list stay exact
    for stale in set(dest.glob("*.whl")) - set(wheels):
        stale.unlink()
    return wheels


def python_files() -> list[Path]:
    return sorted(p for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts)


def write_pyscript_toml() -> None:
    """Keep pyscript.toml's [files] block equal to the one archive, unpacked in the worker."""
    path = ROOT / "pyscript.toml"
    text = path.read_text()
    head = text.split(FILES_BEGIN, 1)[0].rstrip() + "\n\n"
    lines = [
        FILES_BEGIN,
        "[files]",
        f'"./{ARCHIVE.relative_to(ROOT).as_posix()}" = "./*"',
        f'"./{LIB_PACKED.relative_to(ROOT).as_posix()}" = "./{LIB_PACKED.name}"',
        FILES_END,
    ]
    new = head + "\n".join(lines) + "\n"
    if new != text:
        path.write_text(new)
        log("pyscript.toml [files] updated")


def live_answers(wheels: list[Path]) -> dict[str, bytes]:
    """The set-up's answers, op -> the JSON text tablee.api.handle_json would send:
    tablee.api.live_answers() run on py/ with the pinned wheels (zip imports) in a fresh
    interpreter, so the set-up needs no installed package."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "py"), *(str(w) for w in sorted(wheels))])
    code = "import json, sys\nfrom tablee import api\nsys.stdout.write(json.dumps(api.live_answers()))\n"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, check=False)
    if done.returncode:
        sys.exit(f"[vendor] computing the set-up's answers failed:\n{done.stderr.decode()}")
    return {op: json.dumps(answer, ensure_ascii=False).encode() for op, answer in json.loads(done.stdout).items()}


def archive_entries(wheels: list[Path], answers: dict[str, bytes]) -> dict[str, bytes]:
    """Every file of the worker's archive, name -> bytes: the wheels' contents, the rules
    package's .py files (as tablee/...) and the set-up's answers (tablee/answer.<op>.json)."""
    entries: dict[str, bytes] = {}
    for wheel in sorted(wheels):
        with zipfile.ZipFile(wheel) as whl:
            for info in whl.infolist():
                if not info.is_dir():
                    entries[info.filename] = whl.read(info)
    package = ROOT / "py"
    for py in python_files():
        rel = py.relative_to(package).as_posix()
        if rel != "worker.py":
            entries[rel] = py.read_bytes()
    for op, text in answers.items():
        entries[f"tablee/answer.{op}.json"] = text
    return entries


def pyodide_version() -> str:
    return json.loads((NODE / "pyodide" / "package.json").read_text())["version"]


def compiler_digest() -> str:
    """A digest of the compiler's own files (tools/pyc_compile.mjs, tools/pyc_strip.py), in the
    archives' stamps: a change to how bytecode is made rebuilds them."""
    total = hashlib.sha256()
    for name in ("pyc_compile.mjs", "pyc_strip.py"):
        total.update((ROOT / "tools" / name).read_bytes())
    return total.hexdigest()[:12]


def pyc_matches(pyc: bytes, source: bytes) -> bool:
    """Whether ``pyc`` is an unchecked hash-based .pyc of ``source`` (any interpreter: the
    header holds that interpreter's magic number, the key of its source hash)."""
    if len(pyc) < 16 or int.from_bytes(pyc[4:8], "little") != 1:  # hash-based, unchecked
        return False
    return pyc[8:16] == _imp.source_hash(int.from_bytes(pyc[:4], "little"), source)


def compile_pyc(sources: dict[str, bytes], prefix: str = "") -> dict[str, bytes]:
    """name.py -> name.pyc bytes, compiled by the vendored Pyodide's interpreter under Node
    (tools/pyc_compile.mjs): CPython cannot write Pyodide's bytecode. ``prefix`` is put before
    each name to make the file name the code objects (and so tracebacks) carry."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, data in sources.items():
            path = work / "src" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        done = subprocess.run(
            ["node", str(ROOT / "tools" / "pyc_compile.mjs"), str(NODE / "pyodide"), str(work), prefix],
            capture_output=True, check=False,
        )
        if done.returncode:
            sys.exit(f"[vendor] compiling the worker's bytecode with Pyodide failed:\n{done.stderr.decode()[-2000:]}")
        return {name + "c": (work / "out" / (name + "c")).read_bytes() for name in sources}


def with_bytecode(entries: dict[str, bytes], stamp: str) -> dict[str, bytes]:
    """The archive's entries with every .py replaced by its sourceless .pyc (the
    worker imports bytecode instead of compiling the rules, icepool and fastjsonschema at each
    start; first answers about twice as fast). The .pyc of the archive in place are kept when
    they were compiled by this Pyodide (their zip comment is ``stamp``) from these very
    sources; otherwise all are compiled again (one Node run, a few seconds)."""
    sources = {name: data for name, data in entries.items() if name.endswith(".py")}
    previous: dict[str, bytes] = {}
    for path in (ARCHIVE, LIB_ARCHIVE):
        try:
            with zipfile.ZipFile(path) as old:
                if old.comment.decode() == stamp:
                    names = set(old.namelist())
                    previous.update({n + "c": old.read(n + "c") for n in sources if n + "c" in names})
        except (zipfile.BadZipFile, OSError, UnicodeDecodeError):
            continue
    fresh = len(previous) == len(sources) and all(pyc_matches(previous[n + "c"], d) for n, d in sources.items())
    compiled = previous if fresh else compile_pyc(sources)
    if not fresh:
        log(f"compiled {len(compiled)} modules to Pyodide bytecode")
    out = {name: data for name, data in entries.items() if not name.endswith(".py")}
    out.update(compiled)
    return out


def archive_bytes(entries: dict[str, bytes], comment: str = "", stored: bool = False) -> bytes:
    """A reproducible zip of ``entries``: sorted names, fixed date and mode, deflated (each entry
    on its own), or ``stored`` as they are (for an archive then compressed as a whole: see
    packed_bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.comment = comment.encode()
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ARCHIVE_DATE)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, whatever builds it
            info.external_attr = 0o100644 << 16
            archive.writestr(info, entries[name], compresslevel=9)
    return out.getvalue()


def packed_bytes(path: Path, data: bytes) -> bytes:
    """``data`` (a zip of stored entries) compressed as a whole for ``path``: xz for a name
    ending in .xz (LZMA2 at its strongest: the worker decompresses it once, with Python's lzma),
    gzip at level 9 for .gz (the browser's DecompressionStream), with no name or time in the
    header, so the same zip gives the same bytes."""
    if path.suffix == ".xz":
        return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=9 | lzma.PRESET_EXTREME)
    return gzip.compress(data, compresslevel=9, mtime=0)


def unpacked_bytes(path: Path) -> bytes:
    """The zip inside a packed archive (see packed_bytes)."""
    data = path.read_bytes()
    return lzma.decompress(data) if path.suffix == ".xz" else gzip.decompress(data)


def write_packed(path: Path, data: bytes) -> None:
    """Write ``path``, the packed copy of the zip ``data``, when its content changed."""
    if path.exists():
        try:
            if unpacked_bytes(path) == data:
                return
        except (OSError, lzma.LZMAError, EOFError, gzip.BadGzipFile):
            pass
    packed = packed_bytes(path, data)
    path.write_bytes(packed)
    log(f"{path.name}: {len(data)} -> {len(packed)} bytes")


def page_limits(limits_answer: bytes) -> bytes:
    """What the page's pre-save guard reads at boot (static/vendor/store-limits.json): the
    set-up's ``store.limits`` answer, compact, so the systems' character and state schemas
    guard every change from the first render on, before the engine has started (a change is
    "refused at the field", never set apart at the next load)."""
    limits = json.loads(limits_answer)
    return json.dumps(limits, ensure_ascii=False, separators=(",", ":")).encode()


def boot_modules() -> list[str]:
    """The package's modules ``import tablee.api`` loads (a fresh interpreter on py/): with the
    set-up's answers, what the worker needs to answer store.limits and describe."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT / "py"))
    code = "import sys, tablee.api\nprint('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] == 'tablee')))\n"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, check=False, text=True)
    if done.returncode:
        sys.exit(f"[vendor] listing the boot modules failed:\n{done.stderr}")
    return done.stdout.split()


def boot_names(entries: dict[str, bytes], modules: list[str]) -> set[str]:
    """The entries of the first archive: the files of ``modules`` (source or bytecode) and the
    set-up's answers. Everything else goes to the library archive."""
    names = {n for n in entries if n.startswith("tablee/answer.")}
    for module in modules:
        for base in (module.replace(".", "/"), module.replace(".", "/") + "/__init__"):
            names.update(n for n in (f"{base}.py", f"{base}.pyc") if n in entries)
    return names


#: In the first archive: the library archive's top-level names (a JSON list), which py/worker.py's
#: Library finder reads to know whether a missing module is the library's without decompressing it.
LIBRARY_NAMES = "tablee-lib.names.json"


def split_entries(entries: dict[str, bytes], modules: list[str]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(first archive, library archive) of ``entries``; the first also names the library's
    top-level packages and modules (LIBRARY_NAMES)."""
    boot = boot_names(entries, modules)
    lib = {n: d for n, d in entries.items() if n not in boot}
    tops = sorted({n.split("/")[0].removesuffix(".pyc").removesuffix(".py") for n in lib})
    first = {n: d for n, d in entries.items() if n in boot} | {LIBRARY_NAMES: json.dumps(tops).encode()}
    return first, lib


def write_archive(wheels: list[Path]) -> None:
    """Build static/vendor/tablee.zip, static/vendor/tablee-lib.zip and
    static/vendor/store-limits.json; rewrite each only when its bytes change."""
    answers = live_answers(wheels)
    stamp = ARCHIVE_STAMP.format(version=pyodide_version(), compiler=compiler_digest())
    boot, lib = split_entries(with_bytecode(archive_entries(wheels, answers), stamp), boot_modules())
    for path, entries in ((ARCHIVE, boot), (LIB_ARCHIVE, lib)):
        data = archive_bytes(entries, stamp, stored=path == LIB_ARCHIVE)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            log(f"{path.name}: {len(entries)} files, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:12]}")
    write_packed(LIB_PACKED, LIB_ARCHIVE.read_bytes())
    limits = page_limits(answers["store.limits"])
    if not PAGE_LIMITS.exists() or PAGE_LIMITS.read_bytes() != limits:
        PAGE_LIMITS.write_bytes(limits)
        log(f"{PAGE_LIMITS.name}: {len(limits)} bytes")


#: What static/js/pyodide-snapshot.js uses of Pyodide's private snapshot API, by file.
SNAPSHOT_API = {
    "pyodide.mjs": ["_loadSnapshot", "createPyodideModule"],
    "pyodide.asm.mjs": ["_makeSnapshot", "makeMemorySnapshot", "restoreSnapshot", "growMemory"],
}


def missing_snapshot_api(folder: Path = NODE / "pyodide") -> list[str]:
    """The names of Pyodide's private snapshot API that the pinned Pyodide's files lack."""
    missing = []
    for name, needed in SNAPSHOT_API.items():
        try:
            text = (folder / name).read_text(encoding="utf-8")
        except OSError:
            text = ""
        missing += [word for word in needed if word not in text]
    return missing


def check_snapshot_api() -> None:
    """Fail the set-up, loudly, when the pinned Pyodide lacks what the engine's memory snapshot
    needs: the app would still start (plainly, every time), and nobody would notice."""
    missing = missing_snapshot_api()
    if missing:
        sys.exit(f"[vendor] the pinned Pyodide {pyodide_version()} lacks the private snapshot API "
                 f"static/js/pyodide-snapshot.js uses: {', '.join(missing)}")


def stdlib_python_name() -> str:
    """The file name Pyodide gives its stdlib archive in the worker (/lib/python3XX.zip), read
    from the lock file's Python version, for the file names in the bytecode."""
    lock = json.loads((NODE / "pyodide" / "pyodide-lock.json").read_text())
    major, minor = lock["info"]["python"].split(".")[:2]
    return f"/lib/python{major}{minor}.zip/"


def write_stdlib() -> None:
    """static/vendor/pyodide/python_stdlib.zip: Pyodide's own standard library archive with
    every .py replaced by its sourceless, unchecked .pyc, compiled by the vendored Pyodide
    (tools/pyc_compile.mjs), every other file as it is. Pyodide's archive holds no bytecode, so
    each start compiled `pyodide/`, `_pyodide/` and every stdlib module it imports (a warm
    engine-ready about 0.7 s slower, a cold one up to 2 s); zipimport loads a sourceless .pyc
    like a module. Served at the URL Pyodide fetches, so nothing else changes. Rebuilt only
    when its zip comment does not name this Pyodide and this source archive."""
    source = (NODE / "pyodide" / "python_stdlib.zip").read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    stamp = STDLIB_STAMP.format(version=pyodide_version(), compiler=compiler_digest(), digest=digest)
    try:
        with zipfile.ZipFile(STDLIB) as current:
            if current.comment.decode() == stamp:
                return
    except (zipfile.BadZipFile, OSError, UnicodeDecodeError):
        pass
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(source)) as stdlib:
        for info in stdlib.infolist():
            if not info.is_dir():
                entries[info.filename] = stdlib.read(info)
    sources = {name: data for name, data in entries.items() if name.endswith(".py")}
    compiled = compile_pyc(sources, prefix=stdlib_python_name())
    out = {name: data for name, data in entries.items() if not name.endswith(".py")} | compiled
    data = archive_bytes(out, stamp)
    STDLIB.parent.mkdir(parents=True, exist_ok=True)
    STDLIB.write_bytes(data)
    log(f"{STDLIB.name}: {len(compiled)} modules precompiled, {len(source)} -> {len(data)} bytes")


def pyscript_imports() -> list[str]:
    """The modules PyScript's own Python imports: its sources travel inside its JavaScript
    bundles as string literals, read here by their import statements (a name that is no
    standard library module is ignored by the search)."""
    pattern = re.compile(r'(?:^|\\n|;|")[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b'
                         r'|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))')
    names: set[str] = set()
    for path in sorted((VENDOR / "pyscript").glob("*.js")):
        for one, many in pattern.findall(path.read_text(encoding="utf-8")):
            names.update(n.strip().split(" ")[0] for n in (one or many).split(","))
    return sorted(n for n in names if n)


def trimmed_stdlib_inputs(wheels: list[Path]) -> tuple[str, dict[str, bytes]]:
    """The digest of everything the trimmed archive is made from (the precompiled standard
    library, the worker's code, the wheels, PyScript's bundles, the search itself), and the
    worker's code as files (name -> bytes) for the search."""
    own: dict[str, bytes] = {}
    for wheel in sorted(wheels):
        with zipfile.ZipFile(wheel) as whl:
            own.update({i.filename: whl.read(i) for i in whl.infolist() if i.filename.endswith(".py")})
    for py in python_files():
        own[py.relative_to(ROOT / "py").as_posix()] = py.read_bytes()
    digest = hashlib.sha256(STDLIB.read_bytes())
    search = [ROOT / "tools" / "stdlib_trim.py", ROOT / "tools" / "stdlib_trim.mjs"]
    for path in [*search, *sorted((VENDOR / "pyscript").glob("*.js"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for name, data in sorted(own.items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest(), own


def stdlib_needed(own: dict[str, bytes]) -> list[str]:
    """The standard library modules the worker's code can import, found by tools/stdlib_trim.py
    inside the vendored Pyodide (tools/stdlib_trim.mjs) over Pyodide's sources."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        with zipfile.ZipFile(NODE / "pyodide" / "python_stdlib.zip") as source:
            source.extractall(work / "stdlib")
        for name, data in own.items():
            path = work / "src" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (work / "roots.json").write_text(json.dumps(pyscript_imports()))
        done = subprocess.run(
            ["node", str(ROOT / "tools" / "stdlib_trim.mjs"), str(NODE / "pyodide"), str(work)],
            capture_output=True, check=False,
        )
        if done.returncode:
            tail = done.stderr.decode()[-2000:]
            sys.exit(f"[vendor] finding the standard library the engine imports failed:\n{tail}")
        return json.loads(done.stdout.decode().strip().splitlines()[-1])


def trimmed_entries(full: zipfile.ZipFile, modules: list[str]) -> dict[str, bytes]:
    """The precompiled archive's .pyc of `modules` (a package by its __init__), nothing else."""
    wanted = {m.replace(".", "/") + ".pyc" for m in modules} | {m.replace(".", "/") + "/__init__.pyc" for m in modules}
    return {i.filename: full.read(i) for i in full.infolist() if i.filename in wanted}


def write_stdlib_trimmed(wheels: list[Path]) -> None:
    """static/vendor/pyodide/stdlib-trimmed.zip: the precompiled standard library (write_stdlib)
    cut to the modules the worker's code can import (tools/stdlib_trim.py: every import of the
    rules package, its wheels and py/worker.py, what Pyodide imports when it starts and what
    PyScript's Python imports, each with what it imports when imported; a few codecs), the
    archive static/js/pyodide-snapshot.js names as Pyodide's `stdLibURL`. The whole archive
    (4.5 MB, and its entries do not compress further) is no longer fetched nor precached.
    Rebuilt only when its zip comment does not name the digest of its inputs;
    tests/test_stdlib_trim.py imports every module the package references under it."""
    if not STDLIB.is_file():
        return  # (written by write_stdlib, which a manifest-only run skips)
    digest, own = trimmed_stdlib_inputs(wheels)
    stamp = STDLIB_TRIMMED_STAMP.format(digest=digest)
    try:
        with zipfile.ZipFile(STDLIB_TRIMMED) as current:
            if current.comment.decode() == stamp:
                write_packed(STDLIB_PACKED, STDLIB_TRIMMED.read_bytes())
                return
    except (zipfile.BadZipFile, OSError, UnicodeDecodeError):
        pass
    modules = stdlib_needed(own)
    with zipfile.ZipFile(STDLIB) as full:
        entries = trimmed_entries(full, modules)
    data = archive_bytes(entries, stamp, stored=True)
    STDLIB_TRIMMED.write_bytes(data)
    write_packed(STDLIB_PACKED, data)
    log(f"{STDLIB_TRIMMED.name}: {len(entries)} of the standard library's modules, "
        f"{STDLIB.stat().st_size} -> {len(data)} bytes")


#: The site's build id as the pages read it (static/js/live/versions.js): the precache version,
#: written by write_precache, which leaves this file out of the version it derives (the id is
#: made from every other file) and lists it, with its hash, among the files to precache.
BUILD = VENDOR / "build.js"


def snapshot_key(files: list[Path]) -> str:
    """The key of the engine's memory snapshot: a hash of every other precached file's path and
    content, so it changes with anything the snapshot's heap could depend on (Pyodide's
    modules and build, the standard library archive, the pre-import list in
    static/js/pyodide-snapshot.js) and with every new version of the app."""
    total = hashlib.sha256(b"tablee engine snapshot\n")
    for path in files:
        if path not in (SNAPSHOT_KEY, BUILD):  # (the build id is made from the others)
            total.update(f"{path.relative_to(ROOT).as_posix()}:{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return total.hexdigest()[:32]


def write_snapshot_key() -> None:
    """static/vendor/snapshot-key.json: {"key": snapshot_key(...), "pyodide": version}. The
    worker reads it (cache-first, so offline too) before it restores or makes a snapshot; the
    file is precached and counted in the precache version like any other."""
    files = [p for p in precache_list() if p != SNAPSHOT_KEY]
    body = json.dumps({"key": snapshot_key(files), "pyodide": pyodide_version()}) + "\n"
    if not SNAPSHOT_KEY.exists() or SNAPSHOT_KEY.read_text() != body:
        SNAPSHOT_KEY.write_text(body)
        log(f"{SNAPSHOT_KEY.name}: {body.strip()}")


def precache_list() -> list[Path]:
    files: set[Path] = set()
    for pattern in APP_GLOBS:
        files.update(p for p in ROOT.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)
    for p in VENDOR.rglob("*"):
        if p.is_file() and not p.name.startswith(".") and p.name != "precache.js":
            files.add(p)
    rels = sorted(p.relative_to(ROOT).as_posix() for p in files)
    return [ROOT / r for r in rels if not NOT_PRECACHED.search(r)]


def write_precache() -> None:
    """static/vendor/precache.js: `files`, cached when the service worker installs, and
    `ondemand` (ON_DEMAND), cached the first time the page fetches one; each with its content
    hash, and a version derived from all of them but BUILD, which holds that version (the
    site's build id: one source for the service worker's cache name and the live table's
    exchange of versions)."""
    lists: dict[str, list[dict]] = {"files": [], "ondemand": []}
    total = hashlib.sha256()
    files = [p for p in precache_list() if p != BUILD]
    digests = {p: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in files}
    for path in files:
        total.update(f"{path.relative_to(ROOT).as_posix()}:{digests[path]}\n".encode())
    version = total.hexdigest()[:12]
    build = (
        "// Generated by tools/vendor.py: this site's build id (static/vendor/precache.js's version).\n"
        f"export const BUILD = {json.dumps(version)};\n"
    )
    if not BUILD.exists() or BUILD.read_text() != build:
        BUILD.write_text(build)
    digests[BUILD] = hashlib.sha256(build.encode()).hexdigest()[:16]
    for path in sorted(digests, key=lambda p: p.relative_to(ROOT).as_posix()):
        rel = path.relative_to(ROOT).as_posix()
        lists["ondemand" if ON_DEMAND.search(rel) else "files"].append(
            {"url": "./" + rel if rel != "index.html" else "./", "hash": digests[path]})
    body = (
        "// Generated by tools/vendor.py: the files the app needs offline, with content hashes.\n"
        f"self.TABLEE_PRECACHE = {json.dumps({'version': version, **lists}, indent=1)};\n"
    )
    target = VENDOR / "precache.js"
    if not target.exists() or target.read_text() != body:
        target.write_text(body)
        log(f"precache.js: {len(lists['files'])} files and {len(lists['ondemand'])} on demand, version {version}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest-only", action="store_true", help="only regenerate the generated lists")
    args = parser.parse_args()
    VENDOR.mkdir(parents=True, exist_ok=True)
    if not args.manifest_only:
        npm_ci()
        check_decoder_wasm()
        copy_npm()
        if live_vendor.copy_files():
            log("live table modules (yjs, y-protocols, lib0) copied")
    wheels = download_wheels() if not args.manifest_only else sorted((VENDOR / "wheels").glob("*.whl"))
    if not args.manifest_only:
        check_snapshot_api()
        write_stdlib()
    write_archive(wheels)
    write_stdlib_trimmed(wheels)
    write_pyscript_toml()
    if live_vendor.write_index(ROOT):
        log("index.html import map and its CSP hash updated")
    if shell_graph.write_index(ROOT):
        log("index.html modulepreload block updated")
    write_snapshot_key()
    write_precache()


if __name__ == "__main__":
    main()

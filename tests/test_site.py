"""The static site's own promises, checked without a browser.

- pyscript.toml fetches one archive, static/vendor/tablee.zip, holding exactly the package's
  .py files, the pinned wheels and the set-up's answers (equal to the live ones), reproducibly;
- every URL in the shell is relative (the site works under any sub-path);
- the French and English UI texts have the same keys;
- the JS fallback credits on the "À propos" page agree with tablee.systems;
- the service worker serves from a generated list (never maintained by hand).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import tomllib
import zipfile
from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import live_vendor  # noqa: E402
import vendor  # noqa: E402
from tablee import answers, api  # noqa: E402
from tablee.systems import SYSTEMS  # noqa: E402


def test_pyscript_toml_fetches_the_two_archives():
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert config["files"] == {
        "./static/vendor/tablee.zip": "./*",  # unpacked before py/worker.py runs
        "./static/vendor/tablee-lib.zip.xz": "./tablee-lib.zip.xz",  # unpacked by py/worker.py when needed
    }, "pyscript.toml is out of date: run `make setup`"
    assert "interpreter" not in config, "a worker ignores it; the engine passes the local Pyodide instead"


def _open_archive(name: str):
    path = ROOT / "static/vendor" / name
    assert path.exists(), f"static/vendor/{name} is missing: run `make setup`"
    with zipfile.ZipFile(path) as z:
        yield z


@pytest.fixture(scope="module")
def archive() -> zipfile.ZipFile:
    yield from _open_archive("tablee.zip")


@pytest.fixture(scope="module")
def library() -> zipfile.ZipFile:
    yield from _open_archive("tablee-lib.zip")


def test_archives_hold_exactly_the_sources_bytecode_the_wheels_and_the_answers(archive, library):
    """The worker's two package archives are up to date with py/ and the pinned wheels: every
    module as a sourceless .pyc compiled from exactly its current source (the hash in the
    .pyc's header), by the vendored Pyodide (each archive's comment names it), and every other
    file as it is; the first archive holds the modules `import tablee.api` loads and the
    set-up's answers, the library archive everything else, once."""
    wheels = sorted((ROOT / "static/vendor/wheels").glob("*.whl"))
    pins = vendor.pinned_wheels()
    assert len(wheels) == len(pins)
    for pin, wheel in zip(sorted(pins), wheels, strict=True):
        name, version = pin.split("==")
        assert wheel.name.startswith(f"{name}-{version}-"), (pin, wheel)
    sources = vendor.archive_entries(wheels, answers=dict.fromkeys(answers.OPS, b""))
    first = {name: archive.read(name) for name in archive.namelist()}
    rest = {name: library.read(name) for name in library.namelist()}
    # (the first archive names the library's top-level packages, for py/worker.py's finder)
    tops = json.loads(first.pop(vendor.LIBRARY_NAMES))
    assert tops == sorted({n.split("/")[0].removesuffix(".pyc") for n in rest}) and "icepool" in tops
    assert not set(first) & set(rest)
    stored = first | rest
    expected = sorted(n + "c" if n.endswith(".py") else n for n in sources)
    assert sorted(stored) == expected, "static/vendor/tablee*.zip are out of date: run `make setup`"
    assert set(first) == vendor.boot_names(stored, vendor.boot_modules())
    assert {"tablee/api.pyc", "tablee/answer.describe.json", "tablee/answer.store.limits.json"} <= set(first)
    assert not any(n.startswith(("tablee/systems/unicreon/", "icepool/", "fastjsonschema/")) for n in first)
    for z in (archive, library):
        stamp = vendor.ARCHIVE_STAMP.format(version=vendor.pyodide_version(), compiler=vendor.compiler_digest())
        assert z.comment.decode() == stamp
    stale = [n for n, data in sources.items() if n.endswith(".py") and not vendor.pyc_matches(stored[n + "c"], data)]
    data_files = [n for n in sources if not n.endswith(".py") and not n.startswith("tablee/answer.")]
    stale += [n for n in data_files if stored[n] != sources[n]]
    assert not stale, f"static/vendor/tablee.zip is out of date (run `make setup`): {stale}"
    # One interpreter's bytecode: the magic number of Python 3.14 (Pyodide 314), never CPython's here.
    magics = {stored[n][:4] for n in stored if n.endswith(".pyc")}
    assert len(magics) == 1 and magics != {importlib.util.MAGIC_NUMBER}, magics
    assert "py/worker.py" not in stored and "worker.py" not in stored  # the entry is fetched on its own
    assert any(n.startswith("icepool/") for n in stored) and any(n.startswith("fastjsonschema/") for n in stored)


def test_a_pyc_matches_only_its_own_source(archive):
    """The freshness check itself: the header hash of a .pyc names its source, byte for byte."""
    pyc = archive.read("tablee/api.pyc")
    source = (ROOT / "py/tablee/api.py").read_bytes()
    assert vendor.pyc_matches(pyc, source)
    assert not vendor.pyc_matches(pyc, source + b"\n")
    assert not vendor.pyc_matches(pyc[:4] + (3).to_bytes(4, "little") + pyc[8:], source)  # a checked one


def test_archive_answers_equal_the_live_answers(archive):
    """describe and store.limits come from the archive in the worker (sent as is by
    handle_json): a stale file fails here, byte for byte."""
    live = api.live_answers()
    assert sorted(live) == sorted(answers.OPS)
    for op, answer in live.items():
        text = archive.read(f"tablee/{answers.file_name(op)}").decode()
        assert json.loads(text) == json.loads(json.dumps(answer)), f"{op}: run `make setup`"
        assert text == json.dumps(answer, ensure_ascii=False), op


def test_page_limits_equal_the_live_store_limits():
    """static/vendor/store-limits.json, which the page's guard reads at boot, is the live
    store.limits answer, the systems' character and state schemas included, and it is
    precached (the guard needs it offline)."""
    path = ROOT / "static/vendor/store-limits.json"
    assert path.exists(), "static/vendor/store-limits.json is missing: run `make setup`"
    expected = dict(api.live_answers()["store.limits"])
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(expected)), "run `make setup`"
    assert set(expected["character_schemas"]) == {"systmj", "versality", "pointzero", "theorem", "unicreon"}
    assert set(expected["state_schemas"]) == set(expected["character_schemas"])
    assert '"./static/vendor/store-limits.json"' in (ROOT / "static/vendor/precache.js").read_text()


@pytest.mark.parametrize("name", ["tablee.zip", "tablee-lib.zip"])
def test_archive_is_reproducible(name):
    """Sorted entries, one fixed date and mode: the same content gives the same bytes (stable hash)."""
    with zipfile.ZipFile(ROOT / "static/vendor" / name) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.date_time for i in infos} == {vendor.ARCHIVE_DATE}
        assert {i.external_attr for i in infos} == {0o100644 << 16}
        entries = {i.filename: archive.read(i) for i in infos}
        comment = archive.comment.decode()
    rebuilt = vendor.archive_bytes(entries, comment, stored=name == "tablee-lib.zip")
    assert rebuilt == (ROOT / "static/vendor" / name).read_bytes()
    assert vendor.archive_bytes(dict(reversed(entries.items())), comment, stored=name == "tablee-lib.zip") == rebuilt


@pytest.mark.parametrize(("name", "packed"), [("tablee-lib.zip", "tablee-lib.zip.xz"),
                                              ("pyodide/stdlib-trimmed.zip", "pyodide/stdlib-trimmed.zip.gz")])
def test_the_worker_gets_each_large_archive_compressed_as_a_whole(name, packed):
    """The library and the standard library reach the worker as one compressed stream over a zip
    of stored entries (xz, gzip): exactly the zip built, far smaller than it, smaller than the
    same zip with each entry deflated; only the packed file is precached and fetched."""
    zipped, shipped = ROOT / "static/vendor" / name, ROOT / "static/vendor" / packed
    assert shipped.exists(), f"static/vendor/{packed} is missing: run `make setup`"
    assert vendor.unpacked_bytes(shipped) == zipped.read_bytes()
    with zipfile.ZipFile(zipped) as archive:
        entries = {i.filename: archive.read(i) for i in archive.infolist()}
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    deflated = vendor.archive_bytes(entries)
    assert shipped.stat().st_size * 2 < zipped.stat().st_size and shipped.stat().st_size < len(deflated) * 0.95
    precache = (ROOT / "static/vendor/precache.js").read_text()
    assert f'"./static/vendor/{packed}"' in precache and f'"./static/vendor/{name}"' not in precache
    fetched = (ROOT / "static/js/pyodide-snapshot.js").read_text() + (ROOT / "static/js/engine.js").read_text()
    assert packed.rsplit("/", 1)[-1] in fetched


def test_runtime_requirements_are_pinned_once_for_cpython_and_pyodide():
    pins = dict(p.split("==") for p in vendor.pinned_wheels())
    assert pins["icepool"] == "2.1.3"
    import fastjsonschema
    import icepool

    assert icepool.__version__ == pins["icepool"]
    assert fastjsonschema.VERSION == pins["fastjsonschema"]


def test_npm_runtime_is_pinned_exactly():
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["dependencies"] == {"@pyscript/core": "0.7.31", "lit-html": "3.3.1", "pyodide": "314.0.7",
                                     "qrcode-generator": "2.0.4", "yjs": "13.6.33", "y-protocols": "1.0.7",
                                     "lib0": "0.2.120", "barcode-detector": "3.2.2"}
    for name, version in package["dependencies"].items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


SHELL_FILES = [
    "index.html",
    "sw.js",
    "manifest.webmanifest",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "static" / "js").rglob("*.js")),
]


@pytest.mark.parametrize("path", SHELL_FILES)
def test_no_absolute_or_foreign_urls_in_the_shell(path):
    text = (ROOT / path).read_text()
    # src/href attributes and fetch/import/URL arguments must be relative.
    for match in re.finditer(r"""(?:href|src)=["']([^"']+)["']|(?:fetch|import|new URL)\(\s*["'`]([^"'`]+)""", text):
        url = match.group(1) or match.group(2)
        assert not url.startswith("/"), f"{path}: absolute URL {url}"
        assert not re.match(r"^[a-z]+://", url), f"{path}: foreign URL {url}"


def test_french_and_english_texts_have_the_same_keys():
    fr_dir, en_dir = ROOT / "static/i18n/fr", ROOT / "static/i18n/en"
    assert sorted(p.name for p in fr_dir.glob("*.json")) == sorted(p.name for p in en_dir.glob("*.json"))
    for fr_file in fr_dir.glob("*.json"):
        fr = json.loads(fr_file.read_text())
        en = json.loads((en_dir / fr_file.name).read_text())
        assert set(fr) == set(en), f"{fr_file.name}: {sorted(set(fr) ^ set(en))}"
        assert all(isinstance(v, str) and v for v in [*fr.values(), *en.values()]), fr_file.name
        for key in fr:
            assert set(re.findall(r"\{(\w+)\}", fr[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_every_i18n_namespace_file_is_loaded_by_the_page():
    loader = (ROOT / "static/js/i18n.js").read_text()
    namespaces = json.loads(re.search(r"NAMESPACES = (\[[^\]]*\])", loader).group(1))
    assert sorted(namespaces) == sorted(p.stem for p in (ROOT / "static/i18n/fr").glob("*.json"))


def test_about_page_fallback_agrees_with_the_rules_package():
    about = (ROOT / "static/js/views/about.js").read_text()
    for system in SYSTEMS.values():
        line = next(line for line in about.splitlines() if f'id: "{system["id"]}"' in line)
        assert f'name: "{system["name"]}"' in line
        for author in system["authors"]:
            assert json.dumps(author, ensure_ascii=False) in line
        licence = json.dumps(system["licence"]) if system["licence"] else "null"
        assert f"licence: {licence}" in line


def test_service_worker_uses_the_generated_precache_list():
    sw = (ROOT / "sw.js").read_text()
    assert 'importScripts("./static/vendor/precache.js")' in sw
    assert "skipWaiting" in sw and "SKIP_WAITING" in sw  # updates wait for the user
    globs = vendor.APP_GLOBS
    for needed in ("index.html", "pyscript.toml", "py/worker.py", "static/js/**/*.js", "static/i18n/**/*.json"):
        assert needed in globs
    precache = (ROOT / "static/vendor/precache.js").read_text()
    assert '"./static/vendor/tablee.zip"' in precache and '"./py/worker.py"' in precache
    assert "/py/tablee/" not in precache and "/wheels/" not in precache  # inside the archive


def test_manifest_makes_the_app_installable():
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone" and manifest["lang"] == "fr"
    sizes = {}
    for icon in manifest["icons"]:
        path = ROOT / icon["src"]
        assert path.exists(), icon["src"]
        if icon["type"] == "image/png":
            header = path.read_bytes()[:24]
            assert header[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"], icon["src"]
            sizes[icon["sizes"]] = True
    assert {"192x192", "512x512"} <= set(sizes)


def test_import_map_and_its_csp_hash_are_up_to_date():
    """index.html's import map for the live table (yjs, y-protocols, lib0) equals the one
    tools/live_vendor.py derives from node_modules, and the CSP allows exactly that inline script."""
    html = (ROOT / "index.html").read_text()
    assert live_vendor.index_with_import_map(html) == html, "index.html's import map is stale: run `make setup`"
    script = re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert live_vendor.csp_hash(script) in script_src.split(), "CSP hash of the import map is stale: run `make setup`"
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    # the import map comes before any module script or modulepreload (else it is ignored)
    assert html.index('type="importmap"') < html.index('type="module"') < html.index("modulepreload")


def test_the_csp_allows_exactly_the_page_s_inline_scripts():
    """Every inline script of index.html (the boot route, the import map, the loader of the
    app's module after the first frame) has its sha256 in script-src, and script-src allows no
    other inline script."""
    html = (ROOT / "index.html").read_text()
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)
    assert len(inline) == 3, inline
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src")).split()
    assert sorted(t for t in script_src if t.startswith("'sha256-")) == sorted(live_vendor.csp_hash(s) for s in inline)


def test_the_static_welcome_is_the_home_page_s_french_text():
    """index.html paints the home page's title and pitch before any script ran (the
    largest paint): they are exactly the French texts the shell's first render draws in their place, as the
    i18n layer writes them (its no-break space before a colon included)."""
    from i18n_words import rendered

    html = (ROOT / "index.html").read_text()
    block = re.search(r'<div class="home boot-home"[^>]*>(.*?)</div>\s*</div>', html, re.S).group(1)
    painted = [unescape(re.sub(r"[ \t\n]+", " ", t).strip())
               for t in re.findall(r"<(?:h1|p)>(.*?)</(?:h1|p)>", block, re.S)]
    assert painted == [rendered()["fr"][key][0] for key in ("home.title", "home.pitch_1", "home.pitch_2")]
    css = (ROOT / "static/css/app.css").read_text()
    assert 'html:not([data-boot-route="home"]) .boot-home { display: none; }' in css


def test_every_mapped_module_is_vendored_here_and_nothing_comes_from_a_cdn():
    html = (ROOT / "index.html").read_text()
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', html, re.S).group(1))["imports"]
    assert {"yjs", "y-protocols/sync", "y-protocols/awareness", "lib0/encoding", "lib0/decoding"} <= set(imports)
    for spec, url in imports.items():
        assert url.startswith("./static/vendor/"), f"{spec}: {url} is not vendored"
        assert (ROOT / url).is_file(), f"{spec}: {url} is missing: run `make setup`"
    _imports, files = live_vendor.graph()
    for path in files:
        target = live_vendor.vendored(path)
        assert target.is_file() and target.read_bytes() == path.read_bytes(), f"{target} is stale: run `make setup`"
        assert not target.name.endswith((".map", ".cjs", ".d.ts"))
    for name in live_vendor.PACKAGES:
        assert "MIT" in (ROOT / "static/vendor" / name / "LICENSE").read_text()
    precache = (ROOT / "static/vendor/precache.js").read_text()
    assert '"./static/vendor/yjs/dist/yjs.mjs"' in precache


def test_the_live_modules_are_not_in_the_boot_graph():
    """The live table's modules load lazily, from the live pages only: the boot is unchanged."""
    import shell_graph

    boot = shell_graph.static_graph(ROOT)
    assert not [m for m in boot if m.startswith(("static/js/live/", "static/vendor/yjs", "static/vendor/lib0"))]


@pytest.fixture(scope="module")
def stdlib() -> zipfile.ZipFile:
    yield from _open_archive("pyodide/python_stdlib.zip")


@pytest.mark.slow  # checks every module of the standard library against its source
def test_the_standard_library_is_pyodide_s_own_precompiled(stdlib, archive):
    """static/vendor/pyodide/python_stdlib.zip is the pinned Pyodide's archive with every
    module as a sourceless .pyc compiled from exactly its source
    (the hash in its header) by that Pyodide (the same magic number as the package's bytecode),
    every other file as it is, reproducibly; its comment names the archive it was made from.
    The engine fetches the trimmed archive cut from it (tests/test_stdlib_trim.py): this one
    is not precached."""
    source_path = ROOT / "node_modules/pyodide/python_stdlib.zip"
    with zipfile.ZipFile(source_path) as source:
        sources = {i.filename: source.read(i) for i in source.infolist() if not i.is_dir()}
    stored = {i.filename: stdlib.read(i) for i in stdlib.infolist()}
    assert sorted(stored) == sorted(n + "c" if n.endswith(".py") else n for n in sources), "run `make setup`"
    stale = [n for n, data in sources.items() if n.endswith(".py") and not vendor.pyc_matches(stored[n + "c"], data)]
    stale += [n for n, data in sources.items() if not n.endswith(".py") and stored[n] != data]
    assert not stale, f"the precompiled standard library is out of date (run `make setup`): {stale[:5]}"
    assert {"json/__init__.pyc", "dataclasses.pyc", "_pyodide/_base.pyc", "pyodide/__init__.pyc"} <= set(stored)
    magics = {data[:4] for n, data in stored.items() if n.endswith(".pyc")}
    assert magics == {archive.read("tablee/api.pyc")[:4]}
    # A module's file name is the one Pyodide's own import of the source would give it.
    assert b"/lib/python314.zip/json/decoder.py" in stored["json/decoder.pyc"]
    digest = hashlib.sha256(source_path.read_bytes()).hexdigest()
    version, compiler = vendor.pyodide_version(), vendor.compiler_digest()
    stamp = vendor.STDLIB_STAMP.format(version=version, compiler=compiler, digest=digest)
    assert stdlib.comment.decode() == stamp
    rebuilt = vendor.archive_bytes(stored, stdlib.comment.decode())
    assert rebuilt == (ROOT / "static/vendor/pyodide/python_stdlib.zip").read_bytes()
    assert '"./static/vendor/pyodide/python_stdlib.zip"' not in (ROOT / "static/vendor/precache.js").read_text()


def test_the_snapshot_key_covers_every_other_precached_file():
    """The engine's memory snapshot is restored only under the key it was made with: a hash of
    every other precached file (Pyodide's modules and wasm, the standard library archive, the
    interpreter module and its pre-import list, the whole app), so any update makes a new one."""
    files = vendor.precache_list()
    key_file = ROOT / "static/vendor/snapshot-key.json"
    assert key_file in files, "the key must be there offline"
    rels = {p.relative_to(ROOT).as_posix() for p in files}
    assert {"static/vendor/pyodide/stdlib-trimmed.zip.gz", "static/vendor/pyodide/pyodide.asm.wasm",
            "static/vendor/pyodide/pyodide.mjs", "static/js/pyodide-snapshot.js", "static/js/engine.js"} <= rels
    stored = json.loads(key_file.read_text())
    others = [p for p in files if p != key_file]
    expected = {"key": vendor.snapshot_key(others), "pyodide": vendor.pyodide_version()}
    assert stored == expected, "static/vendor/snapshot-key.json is out of date: run `make setup`"
    # One file fewer (or any file's content changed) gives another key.
    assert vendor.snapshot_key(others[1:]) != stored["key"]


def test_the_engine_names_the_snapshot_module_and_the_service_worker_its_cache():
    """PyScript imports the interpreter module engine.js names; sw.js's cleanup spares the
    snapshot's cache on a first install and deletes it on an update, by the module's name."""
    engine = (ROOT / "static/js/engine.js").read_text()
    assert 'new URL(abs("static/js/pyodide-snapshot.js"))' in engine and "version: module.href," in engine
    module = (ROOT / "static/js/pyodide-snapshot.js").read_text()
    name = re.search(r'export const SNAPSHOT_CACHE = "([^"]+)";', module).group(1)
    sw = (ROOT / "sw.js").read_text()
    assert f'const SNAPSHOT_CACHE = `${{PREFIX}}{name.removeprefix("tablee-")}`;' in sw
    assert 'import { loadPyodide as loadPlain, version } from "../vendor/pyodide/pyodide.mjs";' in module


def test_pyscript_core_probes_shared_array_buffer_without_throwing():
    """The vendored core chunk is @pyscript/core's with its two SharedArrayBuffer probes (the
    page's, the worker's) guarded: without cross-origin isolation they threw a TypeError V8 had
    to word by parsing the chunk's top level again (tools/vendor.py SAB_PROBE)."""
    original = sorted((ROOT / "node_modules/@pyscript/core/dist").glob("core-*.js"))
    vendored = sorted((ROOT / "static/vendor/pyscript").glob("core-*.js"))
    assert original and [p.name for p in original] == [p.name for p in vendored]
    for source, copy in zip(original, vendored, strict=True):
        text = source.read_text(encoding="utf-8")
        assert len(vendor.SAB_PROBE.findall(text)) == vendor.SAB_PROBES, source.name
        edited = copy.read_text(encoding="utf-8")
        assert edited == vendor.guard_sab_probe(text, source.name), "stale: run python3 tools/vendor.py"
        assert not vendor.SAB_PROBE.search(edited)
        assert edited.count("throw 0;new ") == vendor.SAB_PROBES
        # Nothing else differs: the edit only adds the guards.
        guards = sum(len(f"if(!{m.group(1)})throw 0;") for m in vendor.SAB_PROBE.finditer(text))
        assert len(edited) - len(text) == guards


def test_the_vendored_lock_file_lists_no_package():
    """The engine loads none of Pyodide's packages: its lock file keeps only its ``info`` (the
    interpreter's version and platform, which Pyodide reads) instead of 357 packages that every
    start fetched and parsed."""
    vendored = json.loads((ROOT / "static/vendor/pyodide/pyodide-lock.json").read_text())
    published = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text())
    assert vendored == {"info": published["info"], "packages": {}} and len(published["packages"]) > 100

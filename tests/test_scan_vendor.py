"""The camera scan's QR decoder as vendored (tools/vendor.py, static/js/views/scan.js): the pinned
barcode-detector ponyfill and the zxing-wasm reader .wasm it was built for, copied into
static/vendor byte for byte, precached by the service worker (a scan works offline), named by
scan.js by their vendored paths (zxing's CDN default is never used), and outside the boot's
static module graph (loaded only when a scan starts)."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import shell_graph  # noqa: E402
import vendor  # noqa: E402

DECODER = "static/vendor/barcode-detector/dist/es/ponyfill.js"
DECODER_CHUNK = "static/vendor/barcode-detector/dist/es/zxing-exported.js"
WASM = "static/vendor/zxing-wasm/dist/reader/zxing_reader.wasm"


def test_the_decoder_is_pinned_and_vendored_byte_for_byte():
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["dependencies"]["barcode-detector"] == "3.2.2"
    assert lock["packages"]["node_modules/zxing-wasm"]["version"] == "3.1.3"
    for vendored, source in ((DECODER, "barcode-detector/dist/es/ponyfill.js"),
                             (DECODER_CHUNK, "barcode-detector/dist/es/zxing-exported.js"),
                             (WASM, "zxing-wasm/dist/reader/zxing_reader.wasm")):
        assert (ROOT / vendored).read_bytes() == (vendor.NODE / source).read_bytes(), f"{vendored}: run `make setup`"
    # the .wasm is the build the ponyfill expects (it names that build's sha256)
    expected = re.search(r'"([0-9a-f]{64})"', (ROOT / DECODER_CHUNK).read_text()).group(1)
    assert hashlib.sha256((ROOT / WASM).read_bytes()).hexdigest() == expected
    for name in ("barcode-detector", "zxing-wasm"):
        assert "MIT" in (ROOT / "static/vendor" / name / "LICENSE").read_text()


def test_the_decoder_is_kept_on_demand_not_downloaded_with_the_app():
    """Not in the files the service worker downloads at install (0.48 MB on a first visit), but
    in its on-demand list: kept the first time a scan loads it, for an offline scan."""
    text = (ROOT / "static/vendor/precache.js").read_text()
    precache = json.loads(text[text.index("{"):text.rindex("}") + 1])
    installed = {f["url"] for f in precache["files"]}
    on_demand = {f["url"] for f in precache["ondemand"]}
    for path in (DECODER, DECODER_CHUNK, WASM):
        assert f"./{path}" in on_demand and f"./{path}" not in installed
    assert "./static/vendor/tablee.zip" in installed and "./static/vendor/tablee.zip" not in on_demand
    sw = (ROOT / "sw.js").read_text()
    assert "TABLEE_PRECACHE.ondemand" in sw and "KEEP_ON_DEMAND" in sw
    assert "KEEP_ON_DEMAND" in (ROOT / "static/js/views/scan.js").read_text()


def test_scan_js_names_the_vendored_files_and_no_cdn():
    scan = (ROOT / "static/js/views/scan.js").read_text()
    base = ROOT / "static/js/views"
    urls = re.findall(r'new URL\("([^"]+)", import\.meta\.url\)', scan)
    resolved = {(base / url).resolve().relative_to(ROOT).as_posix() for url in urls}
    assert {DECODER, WASM} <= resolved
    assert "locateFile" in scan and "jsdelivr" not in scan and "unpkg" not in scan


def test_the_decoder_is_not_loaded_at_boot():
    boot = shell_graph.static_graph(ROOT)
    assert not [m for m in boot if m.startswith(("static/vendor/barcode-detector", "static/vendor/zxing-wasm"))]
    assert "static/js/views/scan.js" not in boot

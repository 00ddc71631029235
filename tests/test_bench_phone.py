"""The phone profile of `make bench` (tools/bench_phone.py): its named networks, its server
(bytes as GitHub Pages sends them: wasm gzipped, zip archives as they are), its summaries and
its rows. The browser run itself is a measurement, not a test."""

from __future__ import annotations

import gzip
import http.client
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "e2e")]

import bench_phone  # noqa: E402

WASM = ROOT / "static/vendor/pyodide/pyodide.asm.wasm"
STDLIB = ROOT / "static/vendor/pyodide/stdlib-trimmed.zip"


def test_networks_are_the_named_presets():
    slow, fast = bench_phone.NETWORKS["slow-4g"], bench_phone.NETWORKS["fast-4g"]
    # Lighthouse's mobileSlow4G with DevTools' factors: 562.5 ms, 1474.56 kbit/s down, 675 up.
    assert slow["latency"] == 562.5
    assert round(slow["downloadThroughput"]) == 188_744
    assert round(slow["uploadThroughput"]) == 86_400
    # Chrome DevTools' "Fast 4G": 165 ms, 9 Mbit/s × 0.9 down, 1.5 Mbit/s × 0.9 up.
    assert fast["latency"] == 165
    assert fast["downloadThroughput"] == 1_012_500
    assert fast["uploadThroughput"] == 168_750


def test_wire_summary_counts_each_body_and_names_the_largest():
    sent = [("/tablee/a.wasm", 3_000), ("/tablee/", 500), ("/tablee/b.zip", 2_000), ("/tablee/a.wasm", 100)]
    summary = bench_phone.wire_summary(sent, top=2)
    assert summary == {
        "bytes": 5_600,
        "requests": 4,
        "largest": [{"path": "/tablee/a.wasm", "bytes": 3_100}, {"path": "/tablee/b.zip", "bytes": 2_000}],
        "repeated": ["/tablee/a.wasm"],
    }


def test_report_rows_put_goals_beside_the_figures():
    result = {
        "cpu_slowdown": 4, "network_name": "Slow 4G", "first_ready_ms": 59_298.4,
        "to_ready": {"bytes": 7_000_000, "requests": 52},
        "first_visit": {"bytes": 8_060_000, "requests": 223},
        "return_ready_runs_ms": [5043.0, 4125.0, 5134.0], "return_ready_ms": 5043.0,
    }
    lines = bench_phone.report_lines(result)
    assert lines[0] == "| phone (CPU 4×, Slow 4G): first visit, engine ready | 59298 ms | | | |"
    assert "| 8.06 MB in 223 files | | | ≤ 6.00 MB |" in lines[2]
    assert lines[3] == ("| phone: return visit, engine ready (median of 3: 5043, 4125, 5134 ms)"
                        " | 5043 ms | | | ≤ 2000 ms |")
    assert bench_phone.report_lines({"error": "not measured: x"}) == ["| phone profile | not measured: x | | | |"]


@pytest.fixture
def server():
    if not WASM.exists() or not STDLIB.exists():
        pytest.skip("static/vendor not set up (make setup)")
    httpd, site = bench_phone.start_server()
    yield httpd, site
    httpd.shutdown()


def get(httpd, path: str, headers: dict) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", httpd.server_address[1], timeout=60)
    conn.request("GET", path, headers=headers)
    return conn.getresponse()


def test_server_gzips_wasm_not_zip_and_records_what_it_sent(server):
    httpd, _ = server
    wasm = get(httpd, "/tablee/static/vendor/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip"})
    body = wasm.read()
    assert wasm.status == 200
    assert wasm.getheader("Content-Encoding") == "gzip"
    assert wasm.getheader("Content-Type") == "application/wasm"
    assert gzip.decompress(body) == WASM.read_bytes()
    assert len(body) == len(gzip.compress(WASM.read_bytes(), compresslevel=6, mtime=0)) < WASM.stat().st_size // 2
    archive = get(httpd, "/tablee/static/vendor/pyodide/stdlib-trimmed.zip", {"Accept-Encoding": "gzip"})
    assert archive.getheader("Content-Encoding") is None
    assert len(archive.read()) == STDLIB.stat().st_size
    plain = get(httpd, "/tablee/static/vendor/pyodide/pyodide.asm.wasm", {})
    assert plain.getheader("Content-Encoding") is None
    assert len(plain.read()) == WASM.stat().st_size
    assert httpd.sent == [
        ("/tablee/static/vendor/pyodide/pyodide.asm.wasm", len(body)),
        ("/tablee/static/vendor/pyodide/stdlib-trimmed.zip", STDLIB.stat().st_size),
        ("/tablee/static/vendor/pyodide/pyodide.asm.wasm", WASM.stat().st_size),
    ]

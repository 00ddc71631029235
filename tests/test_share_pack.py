"""Share links packed against a preset dictionary (store.share_link, static/js/share/codec.js):
a player's copy of a small table fits a QR code, the page's codec reads what the engine packs,
a damaged packed link is refused, and an older (unmarked) link still opens."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess

import pytest

from node_harness import NODE, ROOT
from tablee.api import handle
from tablee.share_dictionary import DICTIONARY_1
from tablee.store import new_document
from tablee.systems.theorem.state import new_state

#: static/js/share/qr.js's limit: version 25 at level L holds 1,273 bytes.
QR_BYTES = 1273
BASE = "https://example.github.io/tablee/#/share/"


def ok(request: dict) -> dict:
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def theorem_table() -> dict:
    doc = new_document("Soirée Théorem", "fr")
    doc["systems"] = {"theorem": new_state(random.Random(5))}
    return doc


def decode(payloads: dict[str, str]) -> dict:
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/share_pack.mjs"],
        cwd=ROOT, input=json.dumps(payloads), capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


def test_a_players_copy_of_a_theorem_table_fits_a_qr_code():
    answer = ok({"op": "store.share_link", "kind": "table", "data": theorem_table(), "audience": "player"})
    assert answer["payload"].startswith("d1.")
    # 1,514 characters before (its 78-card deck alone deflated to about 1,000 bytes)
    assert len(BASE + answer["payload"]) < 200 < QR_BYTES
    shared = ok({"op": "store.share", "kind": "table", "data": theorem_table(), "audience": "player"})
    assert answer["data"] == shared["data"]  # the same secrets taken out as store.share


def test_a_share_link_keeps_refusing_what_store_share_refuses():
    doc = theorem_table()
    doc["app"] = "autre"
    assert handle({"op": "store.share_link", "kind": "table", "data": doc, "audience": "player"})["error"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_pages_codec_reads_packed_links_and_older_ones():
    table = ok({"op": "store.share_link", "kind": "table", "data": theorem_table(), "audience": "player"})
    payloads = {"table": table["payload"], "damaged": table["payload"][:-8] + "AAAAAAAA", "bare": "d1.", "bad": "d1.!!"}
    got = decode(payloads)
    assert got["dictionary"] == DICTIONARY_1
    opened = got["decoded"]["table"]["ok"]
    assert opened["kind"] == "table" and opened["audience"] == "player"
    assert opened["data"] == table["data"]
    draw = opened["data"]["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]
    assert draw[:3] == ["baton-01", "baton-02", "baton-03"]  # a player's copy: the canonical order
    assert got["decoded"]["damaged"] == {"error": "corrupt"}
    assert got["decoded"]["bad"] == {"error": "encoding"}
    assert "error" in got["decoded"]["bare"]
    # A link made before the dictionary (no mark) still opens.
    assert not got["legacy"]["payload"].startswith("d1.")
    assert got["legacy"]["ok"]["data"]["name"] == "Ancienne"


def test_the_dictionary_never_changes():
    # Links packed d1. must open for ever: a better dictionary is a new mark (d2.), not an edit.
    digest = hashlib.sha256(DICTIONARY_1.encode()).hexdigest()
    assert digest == "fb77a8577400c8e77dac562918a25d3e9b6010416aafc69b440631c22c197650"

"""A table's link packed against the links' preset dictionary (``d1.``, static/js/share/codec.js)
is read by the page's own codec in Firefox and in WebKitGTK (Safari's engine) as in Chromium:
the dictionary goes in front of the link's bytes as a stored deflate block, and each engine's
DecompressionStream("deflate-raw") must follow the back-references into it. An older, unmarked
link still opens, and a damaged packed one is refused. In the test process's Firefox and WebKitGTK
(e2e/conftest.py, as e2e/test_engines.py drives them); a missing one skips and says why (fails
under CI)."""

from __future__ import annotations

import pytest

from engines import journeys as J
from tablee.api import handle

pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")

DECODE = """async (payloads) => {
  const codec = await import(new URL('static/js/share/codec.js', document.baseURI).href);
  const out = {};
  for (const [label, payload] of Object.entries(payloads)) {
    try {
      const { kind, data, audience } = await codec.decodeShare(payload);
      out[label] = { kind, audience, name: data.name, draw: data.systems?.theorem?.deck.piles.draw.cards.length ?? null };
    } catch (error) {
      out[label] = { error: error?.code ?? String(error) };
    }
  }
  return out;
}"""


def payloads() -> dict[str, str]:
    doc = handle({"op": "store.new", "name": "Soirée Théorem", "language": "fr"})["document"]
    doc["systems"] = {"theorem": handle({"op": "theorem.state.new", "seed": 3})["state"]}
    packed = handle({"op": "store.share_link", "kind": "table", "data": doc, "audience": "player"})["payload"]
    old = J.payload({"app": "tablee", "kind": "table", "v": 1, "audience": "player", "data": {**doc, "systems": {}}})
    return {"packed": packed, "old": old, "damaged": packed[:-8] + "AAAAAAAA"}


@pytest.mark.parametrize("engine", ["firefox", "webkit"])
def test_each_engine_reads_a_packed_table_link_and_an_older_one(request, engine_site, engine):
    page = request.getfixturevalue(engine)
    J.open_with(page, engine_site.url, None, "share")
    got = page.call(DECODE, payloads())
    assert got["packed"] == {"kind": "table", "audience": "player", "name": "Soirée Théorem", "draw": got["packed"]["draw"]}
    assert got["packed"]["draw"] > 40
    assert got["old"] == {"kind": "table", "audience": "player", "name": "Soirée Théorem", "draw": None}
    assert got["damaged"] == {"error": "corrupt"}

"""The ICE servers of a table across the internet (static/js/live/ice-servers.js) and their place
in the invitation's short form (static/js/live/sdp-pack.js), run in Node.

The MJ's TURN setting is checked before it is saved (nothing changes on a bad one); an
invitation carries its servers (packed after the candidates, in the offer format 3, so an older
Tablée says it is from a newer version), and a phone reads them as untrusted: a URL that is not
a STUN or TURN one, a TURN server without its credential, or a line break anywhere refuses the
invitation.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from node_harness import NODE, NodeHarness
from sdp_offers import CAMERA_OFFER, HARNESS, OFFER

ROOT = Path(__file__).resolve().parent.parent
ICE_HARNESS = ROOT / "tests" / "live" / "ice_servers_harness.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the live layer runs in JavaScript")

TURN = {"urls": ["turn:turn.example.org:3478", "turns:turn.example.org:5349?transport=tcp"],
        "username": "1733130000:table", "credential": "Zk2+/w=="}
SERVERS = [{"urls": ["stun:stun.example.org:3478"]}, TURN]


@pytest.fixture(scope="module")
def packer():
    harness = NodeHarness(HARNESS)
    yield harness
    harness.close()


@pytest.fixture(scope="module")
def ice():
    harness = NodeHarness(ICE_HARNESS)
    yield harness
    harness.close()


def test_an_invitation_carries_its_servers_and_reads_them_back(packer):
    packed = base64.b64decode(packer("pack", body={**OFFER, "sdp": CAMERA_OFFER, "ice": SERVERS}))
    assert packed[1] == 3  # an offer with servers: a Tablée that does not know them says "version"
    body = packer("unpack", bytes=base64.b64encode(packed).decode())
    assert body["ice"] == SERVERS
    assert body["sdp"] == packer("unpack", bytes=packer("pack", body={**OFFER, "sdp": CAMERA_OFFER}))["sdp"]
    # Without servers the invitation is the same as before (format 1, no field).
    plain = base64.b64decode(packer("pack", body={**OFFER, "sdp": CAMERA_OFFER}))
    assert plain[1] == 1 and "ice" not in packer("unpack", bytes=base64.b64encode(plain).decode())
    # What servers add to the link: their URLs and secrets, and a few lengths.
    urls = sum(len(u) + 1 for s in SERVERS for u in s["urls"])
    extra = 1 + 2 + urls + (1 + len(TURN["username"])) + (1 + len(TURN["credential"])) + 2
    assert len(packed) == len(plain) + extra


@pytest.mark.parametrize("url", ["turn:evil.example\nb=AS:1", "http://turn.example.org", "turn:host:99999", "turn:"])
def test_an_invitation_whose_servers_are_not_ice_servers_is_refused(packer, url):
    good = base64.b64decode(packer("pack", body={**OFFER, "sdp": CAMERA_OFFER, "ice": [TURN]}))
    # The first URL is written last-but-two in the bytes: replace it by one of the same length.
    first = TURN["urls"][0].encode()
    bad_url = url.encode()
    at = good.index(first)
    forged = good[: at - 1] + bytes([len(bad_url)]) + bad_url + good[at + len(first):]
    assert packer("unpack", bytes=base64.b64encode(forged).decode()) == {"error": "corrupt"}
    # An unknown offer format is a newer Tablée's.
    newer = good[:1] + bytes([4]) + good[2:]
    assert packer("unpack", bytes=base64.b64encode(newer).decode()) == {"error": "version"}


def test_servers_read_from_an_invitation_are_checked(ice):
    assert ice("servers", servers=SERVERS) == SERVERS
    assert ice("servers", servers=[{"urls": "turn:t.example:3478"}]) is None  # TURN without its credential
    assert ice("servers", servers=[{"urls": "stun:s.example", "credential": "x"}]) is None
    assert ice("servers", servers=[{"urls": "turn:t.example", "username": "a b", "credential": "c"}]) is None
    assert ice("servers", servers=[SERVERS[0]] * 5) is None
    assert ice("servers", servers="turn:t.example") is None


def test_the_mjs_turn_setting_is_checked_before_it_is_saved(ice):
    assert ice("remote", fields={"urls": "  "}) == {"value": None}
    assert ice("remote", fields={"urls": "turn:a.example:3478, turns:[2001:db8::1]:5349", "username": "u",
                                 "credential": "p"}) == {
        "value": {"urls": ["turn:a.example:3478", "turns:[2001:db8::1]:5349"], "username": "u", "credential": "p"}}
    assert ice("remote", fields={"urls": "stun:a.example", "username": "u", "credential": "p"}) == {
        "error": "url", "url": "stun:a.example"}
    assert ice("remote", fields={"urls": "turn:a.example", "username": "", "credential": "p"}) == {"error": "username"}
    too_long = {"urls": "turn:a.example", "username": "u", "credential": "x" * 129}
    assert ice("remote", fields=too_long) == {"error": "credential"}
    assert ice("remote", fields={"urls": " ".join(["turn:a.example"] * 5), "username": "u", "credential": "p"}) == {
        "error": "too_many"}

"""The short form of the live table's signalling texts (static/js/live/sdp-pack.js), run in Node
by tests/live/sdp_pack_harness.mjs.

Once the MJ's page has been allowed the camera, Chromium gathers the device's real IPv4 and IPv6
addresses instead of mDNS `.local` names and names its default candidate in the media and
connection lines. The invitation must stay in the short form then (about 210 characters, not the
~570 of the text form): these SDPs are the ones Chromium 14x gave on this machine after
`getUserMedia`, as rtc.js's `compactSdp` leaves them.
"""

from __future__ import annotations

import base64
import ipaddress

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from node_harness import NODE, NodeHarness
from sdp_offers import CAMERA_OFFER, FINGERPRINT, HARNESS, OFFER, sdp

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: sdp-pack.js runs in JavaScript")


ANSWER = {"k": "answer", "id": "AbCdEfGh1234", "m": "zYxWvUtS9876", "s": "KeyKeyKeyKey0123", "n": "Zoé"}


@pytest.fixture(scope="module")
def node():
    harness = NodeHarness(HARNESS)
    yield harness
    harness.close()


def pack(node, body: dict) -> bytes | None:
    packed = node("pack", body=body)
    return None if packed is None else base64.b64decode(packed)


def unpack(node, packed: bytes) -> dict:
    return node("unpack", bytes=base64.b64encode(packed).decode())


def lines_of(body: dict) -> list[str]:
    return body["sdp"].split("\n")


def test_an_invitation_made_after_the_camera_was_allowed_stays_short(node):
    packed = pack(node, {**OFFER, "sdp": CAMERA_OFFER})
    assert packed is not None
    # 12 of envelope and id, 4 of time, 58 of credentials, fingerprint and sizes, 12 for the
    # IPv4 host candidate, 24 for the IPv6 one.
    assert len(packed) == 12 + 4 + 1 + 1 + 4 + 1 + 24 + 32 + 4 + 1 + 12 + 24
    # the invitation's text: "T." + base64url, well under the text form's ~570 characters
    assert len("T." + base64.urlsafe_b64encode(packed).decode().rstrip("=")) == 162
    back = unpack(node, packed)
    assert {k: back[k] for k in ("app", "v", "k", "id", "t")} == {"app": "tablee", "v": 1, **OFFER}
    assert lines_of(back) == [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
        "a=candidate:1 1 udp 2122194687 192.0.2.2 40703 typ host",
        "a=candidate:2 1 udp 2122265343 fd00:0:0:0:0:0:0:2 53058 typ host",
        "a=ice-ufrag:q0Su", "a=ice-pwd:Bxt3Z1U+acTf+xibsELoa+J/", FINGERPRINT, "a=setup:actpass", "a=mid:0",
        "a=sctp-port:5000", "a=max-message-size:262144",
    ]


def test_an_answer_whose_default_candidate_is_ipv6_stays_short(node):
    text = sdp("m=application 53058 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP6 fd00::2",
               ["a=candidate:2426340316 1 udp 2122265343 fd00::2 53058 typ host"], setup="active")
    packed = pack(node, {**ANSWER, "sdp": text})
    assert packed is not None
    back = unpack(node, packed)
    assert (back["m"], back["s"], back["n"]) == (ANSWER["m"], ANSWER["s"], "Zoé")
    assert "c=IN IP4 0.0.0.0" in lines_of(back) and "a=setup:active" in lines_of(back)
    assert "a=candidate:1 1 udp 2122265343 fd00:0:0:0:0:0:0:2 53058 typ host" in lines_of(back)


@pytest.mark.parametrize(("media", "connection", "why"), [
    ("m=application 40704 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 192.0.2.2", "a port no candidate has"),
    ("m=application 40703 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 192.0.2.3", "an address no candidate has"),
    ("m=application 53058 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 fd00::2", "an IPv6 address said IPv4"),
    ("m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP6 0.0.0.0", "the placeholder said IPv6"),
    ("m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "", "no connection line"),
    ("m=application 9 UDP/DTLS/SCTP webrtc-datachannel\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel",
     "c=IN IP4 0.0.0.0", "two media lines"),
    ("m=application 40703 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 192.0.2.2", "another media"),
])
def test_media_and_connection_lines_of_another_shape_go_to_the_text_form(node, media, connection, why):
    text = CAMERA_OFFER.replace("m=application 40703 UDP/DTLS/SCTP webrtc-datachannel\nc=IN IP4 192.0.2.2",
                                "\n".join(line for line in (media, connection) if line))
    assert pack(node, {**OFFER, "sdp": text}) is None, why


IPV4 = st.ip_addresses(v=4).map(str)
IPV6 = st.ip_addresses(v=6).map(lambda a: a.compressed)
PORT = st.integers(min_value=1, max_value=65535)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(addresses=st.lists(st.tuples(st.one_of(IPV4, IPV6), PORT), min_size=1, max_size=6),
       default=st.integers(min_value=0))
def test_any_ipv4_and_ipv6_host_candidates_round_trip(node, addresses, default):
    """Whatever real addresses a device has, and whichever is its default candidate, the packed
    invitation reads back the same addresses (IPv6 written in full), ports and priorities."""
    candidates = [f"a=candidate:{i} 1 udp {2122194687 - i} {a} {p} typ host" for i, (a, p) in enumerate(addresses)]
    address, port = addresses[default % len(addresses)]
    family = "IP6" if ":" in address else "IP4"
    text = sdp(f"m=application {port} UDP/DTLS/SCTP webrtc-datachannel", f"c=IN {family} {address}", candidates)
    packed = pack(node, {**OFFER, "sdp": text})
    assert packed is not None
    back = [line.split(" ") for line in lines_of(unpack(node, packed)) if line.startswith("a=candidate:")]
    assert [(int(c[3]), ipaddress.ip_address(c[4]), int(c[5])) for c in back] == [
        (2122194687 - i, ipaddress.ip_address(a), p) for i, (a, p) in enumerate(addresses)]


#: Firefox ESR 153's answer to a Chromium invitation on this machine, as rtc.js's compactSdp leaves it.
FIREFOX_ANSWER = "\n".join([
    "v=0", "o=mozilla...THIS_IS_SDPARTA-99.0 1 0 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=sendrecv",
    "a=fingerprint:sha-256 7A:70:FD:23:BE:7A:0D:16:3C:77:9F:34:74:79:44:49:C1:0A:38:C3:AE:E4:79:49:6D:FA:74:5D:F6:53:"
    "D0:56",
    "a=group:BUNDLE 0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    "a=candidate:0 1 UDP 2122187007 ac02f36d-1ee1-4b9a-83da-da424b88220c.local 55931 typ host",
    "a=candidate:1 1 UDP 2122252543 192.168.1.23 48969 typ host",
    "a=sendrecv", "a=end-of-candidates", "a=ice-pwd:ba86427c41e25c54f08c88dbf655bc22", "a=ice-ufrag:82e66638",
    "a=mid:0", "a=setup:active", "a=sctp-port:5000", "a=max-message-size:1073741823",
])


def test_a_firefox_answer_is_as_short_as_a_chromium_one(node):
    """Firefox's origin line, its `a=sendrecv` and `a=end-of-candidates` and its capital "UDP"
    carry nothing a data channel needs: its answer packs (it went to the ~680-character text
    form before) and reads back with the same credentials, fingerprint, role and candidates."""
    packed = pack(node, {**ANSWER, "sdp": FIREFOX_ANSWER})
    assert packed is not None
    assert len("T." + base64.urlsafe_b64encode(packed).decode().rstrip("=")) == 208
    back = lines_of(unpack(node, packed))
    assert back == [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
        "a=candidate:1 1 udp 2122187007 ac02f36d-1ee1-4b9a-83da-da424b88220c.local 55931 typ host",
        "a=candidate:2 1 udp 2122252543 192.168.1.23 48969 typ host",
        "a=ice-ufrag:82e66638", "a=ice-pwd:ba86427c41e25c54f08c88dbf655bc22",
        "a=fingerprint:sha-256 7A:70:FD:23:BE:7A:0D:16:3C:77:9F:34:74:79:44:49:C1:0A:38:C3:AE:E4:79:49:6D:FA:74:5D:"
        "F6:53:D0:56",
        "a=setup:active", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:1073741823",
    ]


@pytest.mark.parametrize("line", [
    "a=sendonly", "a=end-of-candidates:1", "o=mozilla...THIS_IS_SDPARTA-99.0 1 0 IN IP4 10.0.0.1",
    "a=candidate:2 1 Udp 2122252543 192.168.1.24 48970 typ host",
])
def test_a_firefox_line_of_another_shape_goes_to_the_text_form(node, line):
    assert pack(node, {**ANSWER, "sdp": FIREFOX_ANSWER + "\n" + line}) is None


def test_a_truncated_camera_invitation_is_refused_as_corrupt(node):
    packed = pack(node, {**OFFER, "sdp": CAMERA_OFFER})
    assert unpack(node, packed[:-3]) == {"error": "corrupt"}

"""Offers as the browsers write them (OFFER, CAMERA_OFFER) and the Node harness of the short
connection codes (tests/live/sdp_pack_harness.mjs)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "live" / "sdp_pack_harness.mjs"


FINGERPRINT = ("a=fingerprint:sha-256 5F:16:83:66:52:6C:ED:F6:E6:15:B4:B8:2B:82:C2:41:1A:35:31:A7:DB:62:C4:84:CE:49:64:"
               "39:51:EF:6D:B0")


def sdp(media: str, connection: str, candidates: list[str], setup: str = "actpass") -> str:
    return "\n".join([
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", media, connection, *candidates,
        "a=ice-ufrag:q0Su", "a=ice-pwd:Bxt3Z1U+acTf+xibsELoa+J/", FINGERPRINT, f"a=setup:{setup}", "a=mid:0",
        "a=sctp-port:5000", "a=max-message-size:262144",
    ])


#: Chromium's offer once the page may use the camera: its real addresses, the IPv4 one as default.
CAMERA_OFFER = sdp(
    "m=application 40703 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 192.0.2.2",
    ["a=candidate:1543094844 1 udp 2122194687 192.0.2.2 40703 typ host",
     "a=candidate:2426340316 1 udp 2122265343 fd00::2 53058 typ host"],
)
OFFER = {"k": "offer", "id": "AbCdEfGh1234", "t": 1_795_000_000}

"""The evening's states in the live layer (the page's own modules, run in Node:
tests/js/live_evening.mjs): closing the table is a message every phone receives before its link
closes (static/js/live/sync.js Hub.farewell), so a phone tells a closed table from a cut link;
a connection lost for a while says so and comes back by itself, or the link closes after its
grace (static/js/live/link.js RtcLink)."""

from __future__ import annotations

import json
import subprocess

import pytest

from node_harness import NODE, ROOT

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.fixture(scope="module")
def outcomes():
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/live_evening.mjs"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


def test_closing_the_table_tells_every_phone_before_its_link_closes(outcomes):
    close = outcomes["close"]
    assert close["before"] == [True, True]
    # Each phone heard the closing, once, as a message (no move of its own answered).
    assert close["heard"] == [[{"id": None, "code": "live.closed"}]] * 2
    # Then every link is closed: the one that closed itself on hearing it, the other by the hub.
    assert close["connected"] == [False, False]
    assert close["attached"] == []
    assert close["waitedMs"] < 2000


def test_a_lost_connection_says_so_comes_back_by_itself_or_closes_after_its_grace(outcomes):
    lost = outcomes["lost"]
    assert lost["start"] is False
    # ICE "disconnected": the link is still open, marked unstable, with its grace running.
    assert lost["lost"] == {"unstable": True, "open": True, "grace": [lost["grace"]]}
    assert lost["grace"] >= 10_000  # time for a phone's Wi-Fi to come back
    # Back to "connected": steady again, no close pending.
    assert lost["back"] == {"unstable": False, "open": True, "pending": 0}
    # Lost again past the grace: closed once, the connection too.
    assert lost["gone"] == {"unstable": False, "open": False, "pcClosed": 1}
    assert lost["events"] == ["unstable", "steady", "unstable", "close"]

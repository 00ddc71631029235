"""Share links and live invitations with a version mark or a date no Tablée writes are refused,
each saying what is wrong (the page's own codec, run in Node: tests/js/link_versions.mjs)."""

from __future__ import annotations

import json
import subprocess

import pytest

from node_harness import NODE, ROOT

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.fixture(scope="module")
def outcomes():
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/link_versions.mjs"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


def test_a_share_link_with_a_broken_version_mark_is_not_called_newer(outcomes):
    share = outcomes["share"]
    for label in ("0", "-1", '"1"', "none", "1.5", "null"):
        assert share[label] == "bad_version", (label, share[label])
    assert share["2"] == "version"  # a newer Tablée made it: "update the app" is right
    assert share["1"] == share["encoded"] == "ok"


def test_an_invitation_dated_far_off_is_refused(outcomes):
    offer = outcomes["offer"]
    assert offer["1e30"] == offer["2^32"] == offer["now+2d"] == "future"
    assert offer["-1"] == "corrupt"
    assert offer["now-7h"] == "expired"
    assert offer["now"] == offer["now+1h"] == "ok"  # two devices' clocks may differ a little


def test_an_invitation_with_a_broken_version_mark_says_so(outcomes):
    offer = outcomes["offer"]
    for label in ("0", "-1", '"1"', "none", "1.5", "null"):
        assert offer[f"v={label}"] == "bad_version", label
    assert offer["v=2"] == "version" and offer["v=1"] == "ok"


def test_every_refusal_has_its_french_and_english_text():
    for lang in ("fr", "en"):
        share = json.loads((ROOT / "static" / "i18n" / lang / "share.json").read_text(encoding="utf-8"))
        live = json.loads((ROOT / "static" / "i18n" / lang / "live.json").read_text(encoding="utf-8"))
        assert share["share.bad.bad_version"] and live["live.bad.bad_version"] and live["live.bad.future"]

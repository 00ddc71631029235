"""Versions at one live table (static/js/live/versions.js, sync.js's version message): the two
ends of a link learn each other's build and protocol when it opens, a difference of protocol
says which device must update, no end closes its link over a version, and a move whose shape
the MJ's build refuses is answered in words (Node: tests/js/live_versions.mjs; the real
referee through tests/live/session_harness.mjs)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from live_world import HARNESS, harness, phone_table, state
from node_harness import NODE, ROOT
from tablee.api import handle

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


@pytest.fixture(scope="module")
def outcomes():
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/live_versions.mjs"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    return json.loads(done.stdout)


def test_the_build_id_is_the_precache_version_written_by_the_vendor_step(outcomes):
    precache = (ROOT / "static" / "vendor" / "precache.js").read_text()
    version = re.search(r'"version": "(\w+)"', precache).group(1)
    assert outcomes["ours"]["build"] == version
    assert '"./static/vendor/build.js"' in precache  # (offline, the page knows its build too)


def test_two_builds_of_one_protocol_play_together_and_know_each_others_build(outcomes):
    same = outcomes["sameProtocol"]
    assert same["hubLearned"] == [["m-lea", {"build": "someotherbuild", "protocol": 1}]]
    assert same["memberLearned"] == [outcomes["ours"]]
    assert same["memberSynced"] and same["memberHasTable"] == "Table"
    assert same["hubSays"] is None and same["memberSays"] is None
    assert same["kindsToHub"][0] == outcomes["messageVersion"]  # (the phone says its version first)


@pytest.mark.parametrize("case, hub_says, member_says", [
    ("newerPhone", "here", "there"),  # the MJ's device must update
    ("newerMj", "there", "here"),  # the phone must update
    ("olderPhone", "there", None),  # a phone of before the exchange: the MJ's page says it must update
    ("olderMj", None, "there"),  # an MJ's device of before the exchange: the phone's page says so
])
def test_a_difference_of_protocol_says_which_device_must_update_and_keeps_the_link(
        outcomes, case, hub_says, member_says):
    seen = outcomes[case]
    assert (seen["hubSays"], seen["memberSays"]) == (hub_says, member_says)
    assert seen["memberConnected"] and seen["memberSynced"] and seen["memberHasTable"] == "Table"
    assert seen["hubAttached"] == ["m-lea"]


def test_a_phone_of_before_the_exchange_is_never_sent_a_message_it_does_not_know(outcomes):
    """An older phone closes its link on an unknown kind: the hub answers a version only to a
    phone that said its own."""
    assert outcomes["messageVersion"] not in outcomes["olderPhone"]["kindsToMember"]


def test_a_message_kind_a_newer_mj_may_add_does_not_close_a_phones_link(outcomes):
    seen = outcomes["unknownKind"]
    assert seen["kindsToMember"][-1] == 9
    assert seen["memberConnected"] and seen["answers"] == []


def test_a_refused_shape_is_answered_in_words_of_versions(outcomes):
    answers = outcomes["answers"]
    assert answers["unknownField"]["error"] == {"code": "live.refused.unknown_field",
                                                "message_key": "error.live.refused.unknown_field",
                                                "params": {"field": "advantage"}}
    assert answers["unknownFieldNoExtra"]["error"]["params"] == {"field": "test"}
    assert answers["olderPhoneShape"]["error"]["code"] == "live.refused.older_phone"
    assert answers["sameShape"]["error"]["code"] == "request.invalid"  # (same protocol: the field's own words)
    assert answers["notShape"]["error"]["code"] == "live.refused.conflict"
    assert answers["accepted"] == {"logged": "e1"}


def test_every_version_sentence_has_its_french_and_english_text():
    for lang in ("fr", "en"):
        live = json.loads((ROOT / "static" / "i18n" / lang / "live.json").read_text(encoding="utf-8"))
        core = json.loads((ROOT / "static" / "i18n" / lang / "core.json").read_text(encoding="utf-8"))
        for who in ("phone_here", "phone_there", "mj_here", "mj_there"):
            assert live[f"live.version.{who}"]
        for code in ("unknown_field", "older_phone"):
            assert live[f"error.live.refused.{code}"] and live[f"live.why.live.refused.{code}"]
        assert core["update.available_live"] and core["update.confirm_live"]
    fr = json.loads((ROOT / "static" / "i18n" / "fr" / "live.json").read_text(encoding="utf-8"))
    assert "Mettez Tablée à jour sur ce téléphone : fermez puis rouvrez la page" in fr["live.version.phone_here"]


def pointzero_table() -> dict:
    """A fresh table holding one Point Zéro character, Mira (Mécanique 6)."""
    doc = handle({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    mira = handle({"op": "pointzero.character.new", "id": "pz", "name": "Mira"})["character"]
    mira["skills"] = [{"name": "Mécanique", "level": 6}]
    doc["characters"] = [mira]
    return doc


def test_a_move_with_a_field_the_mjs_build_does_not_know_is_refused_in_words():
    """A newer phone's Point Zéro test carries a field the referee's schema does not know: the
    MJ's device answers « live.refused.unknown_field » naming it (never a bare request.invalid),
    the MJ's feed says so, and nothing is logged."""
    with harness(HARNESS) as node:
        world = "versions"
        node("world", world=world, mj=pointzero_table(), referee=sys.executable)
        node("player", world=world, name="lea", doc=phone_table("lea"), called="Léa")
        node("connect", world=world, name="lea", called="Léa")
        node("claim", world=world, name="lea", characters=["pz"])
        node("settle", world=world)
        move = {"op": "pointzero.test.roll", "character_id": "pz",
                "test": {"kind": "skill", "attribute_code": "ADR", "skill_name": "Mécanique", "difficulty": 17,
                         "sacrifice": 0, "tension": True, "advantage": 2}}
        slot = node("call", world=world, name="lea", request=move)
        node("settle", world=world)
        answer = node("answers", world=world, name="lea")[slot]
        assert answer["error"]["code"] == "live.refused.unknown_field", answer
        assert answer["error"]["params"] == {"field": "advantage"}
        s = state(node, world)
        assert [f["code"] for f in s["mj"]["feed"] if f["code"]] == ["live.refused.unknown_field"]
        assert s["mj"]["doc"]["log"] == []
        node("drop", world=world)

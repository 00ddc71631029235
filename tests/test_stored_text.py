"""What Tablée writes to localStorage is 8-bit, and its sizes are counted as WebKit counts them
(static/js/storage.js storedJsonText, storedBytes; run in Node by tests/js/stored_text_checks.mjs).

WebKit (Safari, every iPhone) counts a value at one byte a character when every character is at
most U+00FF and at two as soon as one is not; Tablée's French puts U+202F, "’" and "−" in nearly
every table, so a table saved as JSON.stringify wrote it cost twice what the page counted. The
table, its backups, the undo history are written with each such character as its JSON escape: the
same value, half the bytes; the usage and the backups' bound count bytes so.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from node_harness import NODE, ROOT

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

NNBSP = "\u202f"


def french_table() -> dict:
    notes = f"L’épée du capitaine{NNBSP}; la dette envers la guilde{NNBSP}? Santé −2 😀 一"
    return {"schema": 1, "app": "tablee", "name": f"Soirée{NNBSP}!", "language": "fr",
            "characters": [{"id": f"c{n}", "system": "unicreon", "name": f"Léa {n}", "notes": notes * 5}
                           for n in range(20)],
            "log": [{"id": f"l{n}", "at": "2026-11-01T10:00:00.000Z", "system": None, "kind": "roll",
                     "label": "3d6", "who": "Léa", "result": {"total": 7, "line": f"Réussite{NNBSP}! 7 − 2"}}
                    for n in range(50)],
            "systems": {}, "settings": {}}


@pytest.fixture(scope="module")
def found() -> dict:
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/stored_text_checks.mjs"],
        cwd=ROOT, input=json.dumps({"table": french_table(), "old": {**french_table(), "name": "Ancienne"}}),
        capture_output=True, text=True, encoding="utf-8", timeout=60, check=True,
    )
    return json.loads(done.stdout)


def test_a_french_table_is_saved_8_bit_and_reads_back_equal(found):
    saved = found["saved"]
    assert saved["max"] <= 0xFF, saved  # every character at most U+00FF: 1 byte a character on WebKit
    assert saved["equal"] and saved["same"]
    # fewer bytes than the 16-bit text (2 a character), though this table has one character in ten above Latin-1
    assert saved["length"] < 1.5 * saved["plain"]
    assert found["readable"]  # a download gives the characters back as they are


def test_a_backup_of_a_table_saved_before_is_8_bit_and_other_text_is_kept_as_it_is(found):
    assert found["backup"] == {"max": found["backup"]["max"], "equal": True, "readable": True}
    assert found["backup"]["max"] <= 0xFF
    assert found["brokenKept"]


def test_usage_counts_a_value_with_a_character_above_latin_1_double(found):
    assert found["bytes"] == {"ascii": 10, "latin1": 10, "wide": 20, "emoji": 4}
    # keys and values: "a" + 1000, "b" + 2 * 1000, the backup's key + 500 (Latin-1: one byte each)
    backup_key = len("tablee.backup.2026-01-01T00:00:00.000Z")
    assert found["usage"]["used"] == 1 + 1000 + 1 + 2000 + backup_key + 500
    assert found["usage"]["quota"] == 5_000_000
    assert found["parts"]["other"] == 1 + 1000 + 1 + 2000 and found["parts"]["backups"] == backup_key + 500


def test_the_backups_bound_counts_bytes(found):
    # two backups of 700,000 wide characters: 1.4 M bytes each, 2.8 M in all over the 2.5 M bound
    assert found["pruned"] == ["tablee.backup.2026-01-01T00:00:00.000Z"]


def test_a_text_mostly_in_another_script_is_left_as_it_is(found):
    assert found["cjk"]["same"]


def test_the_undo_history_is_written_8_bit(found):
    assert found["history"]["max"] <= 0xFF and found["history"]["name"] == f"Nuit{NNBSP}!"


def test_any_string_goes_through_and_back(found):
    assert found["fuzzBad"] == 0


def test_a_french_table_of_1_9_m_and_its_backup_fit_what_webkit_gives_a_site(found):
    """In a storage that counts and refuses as WebKit does (5,242,308 bytes): before, the table cost
    3.8 MB and its backup did not fit beside it (an import on an iPhone refused)."""
    assert 1_800_000 < found["webkit"]["chars"] < 2_000_000
    assert found["webkit"]["saved"] and found["webkit"]["backedUp"], found["webkit"]
    assert found["webkit"]["used"] < 5_000_000  # (storage.js STORAGE_QUOTA_BYTES)


def test_a_table_saved_16_bit_by_a_version_before_is_written_8_bit_when_its_backup_needs_the_room(found):
    assert found["webkitOld"] == {"backedUp": True, "same": True, "rev": True, "eightBit": True}

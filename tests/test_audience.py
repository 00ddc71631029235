"""Who sees the MJ's roll at a live table (static/js/views/audience.js): the MJ's choice of one
player follows that player when the MJ recognised a new device as theirs (live/admission.js
keeps the former device in ``replaces``), and a choice that names no one at the table any more
keeps the roll to the MJ alone. A roll meant for one person is never widened to the whole table
by a change the MJ did not make (hidden information: DESIGN.md principle 8)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from node_harness import NODE

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests/js/audience_checks.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.fixture(scope="module")
def seen() -> dict:
    done = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(SCRIPT)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_the_whole_table_the_mj_alone_and_one_player_are_kept_as_chosen(seen):
    assert seen["whole"] == {}
    assert seen["secret"] == {"to": "mj"}
    assert seen["mo"] == {"to": "mo"}


def test_a_roll_for_a_player_follows_her_to_the_device_the_mj_recognised(seen):
    assert seen["replaced"] == {"to": "new-lea"}
    assert seen["name_of_replaced"] == {"id": "new-lea", "name": "Léa"}


def test_a_roll_for_someone_no_longer_at_the_table_stays_with_the_mj(seen):
    assert seen["gone"] == {"to": "mj"}
    assert seen["gone_after_leaving"] == {"to": "mj"}
    assert seen["mo_left"] == {"to": "mj"}
    assert seen["name_of_unknown"] is None


def test_a_phone_has_no_choice(seen):
    assert seen["phone"] == {}

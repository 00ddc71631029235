"""versality.wound.remove: la MJ takes back a wound added by mistake.

Source of the states: 001 "Blessure, incapacité et mort"; README (Versality): two wounds on
one characteristic, or one on each, put the character hors de combat; the next wound
incapacitates. The correction is the exact inverse of a wound added through the app."""

from hypothesis import given, settings
from hypothesis import strategies as st

from api_calls import versality_character
from tablee.api import handle
from tablee.systems.versality import character as C
from tablee.systems.versality import rules as R


def created(**over):
    return versality_character(created=True, **over)


def test_a_wound_taken_back_leaves_the_sheet_as_before(api):
    c = created()
    hurt = api({"op": "versality.wound", "character": c, "characteristic": "mental"})
    assert hurt["character"]["wounds"]["mental"] == 1 and hurt["status"] == "blesse"
    back = api({"op": "versality.wound.remove", "character": hurt["character"], "characteristic": "mental"})
    assert back["character"] == c
    assert back["status"] == "indemne" and back["untreated_wounds"] == 0


def test_the_wound_that_incapacitated_taken_back_leaves_hors_de_combat(api):
    """{physique 2} is hors de combat; a third wound incapacitates; taking it back returns
    to hors de combat, not indemne and not incapacité."""
    c = created(wounds={"physique": 2, "mental": 0, "personnalite": 0})
    worse = api({"op": "versality.wound", "character": c, "characteristic": "personnalite"})
    assert worse["status"] == "incapacite"
    back = api({"op": "versality.wound.remove", "character": worse["character"], "characteristic": "personnalite"})
    assert back["status"] == "hors_de_combat"
    assert back["character"]["incapacitated"] is False
    assert back["character"]["wounds"] == {"physique": 2, "mental": 0, "personnalite": 0}


def test_taking_back_any_wound_of_an_incapacitated_character_lifts_incapacite():
    """No wound is added once incapacitated, so the one that incapacitated was the last:
    {physique 2, mental 2} incapacitated, one mental taken back → {2, 1, 0}, hors de combat."""
    c = created(wounds={"physique": 2, "mental": 2, "personnalite": 0}, incapacitated=True)
    out = C.remove_wound(c, "mental")
    assert out["wounds"] == {"physique": 2, "mental": 1, "personnalite": 0}
    assert out["incapacitated"] is False
    assert C.wound_status(out) == "hors_de_combat"


def test_no_wound_to_take_back_is_refused_and_changes_nothing():
    c = created()
    before = repr(c)
    response = handle({"op": "versality.wound.remove", "character": c, "characteristic": "physique"})
    assert response["error"]["code"] == "versality.wound.none"
    assert response["error"]["params"] == {"characteristic": "physique"}
    assert repr(c) == before


def test_a_correction_is_not_a_heal(api):
    """heal_used (the once-per-game soulager) is untouched by a correction."""
    c = created(wounds={"physique": 1, "mental": 0, "personnalite": 0}, heal_used=False)
    back = api({"op": "versality.wound.remove", "character": c, "characteristic": "physique"})
    assert back["character"]["heal_used"] is False


def test_unknown_characteristic_is_refused_by_the_schema():
    response = handle({"op": "versality.wound.remove", "character": created(), "characteristic": "chance"})
    assert "error" in response


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(R.CHARACTERISTICS), min_size=1, max_size=8))
def test_remove_is_the_inverse_of_every_wound_the_app_can_add(sequence):
    """Property: along any sequence of wounds the op accepts (none once incapacitated),
    taking back the last wound gives exactly the sheet before it."""
    c = created()
    for k in sequence:
        if c["incapacitated"]:
            break
        after = C.add_wound(c, k)
        assert C.remove_wound(after, k) == c
        c = after

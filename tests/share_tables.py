"""Tables that hold something of every audience (TABLES, build_table): what the share filters must
keep from a player, and what each audience still sees."""

from __future__ import annotations

from hypothesis import strategies as st

from api_calls import call
from api_calls import versality_character as sample_versality

MARK = "SECRET-MJ-7f3a"


ok = call


def versality_character() -> dict:
    """A created Versality character with cards (tests/api_calls.py's sample)."""
    return sample_versality(created=True)


def build_table(seed: int, catastrophe: int, tokens: int, points: int, threshold: int, mk_size: int,
                choice: str, revealed: bool) -> dict:
    doc = ok({"op": "store.new", "name": "Table du MJ", "language": "fr"})["document"]
    # Versality: a deck, the MJ's side set.
    va = versality_character()
    vs = ok({"op": "versality.state.new"})["state"]
    built = ok({"op": "versality.deck.build", "state": vs, "character": va, "seed": seed})
    merge = {"op": "versality.state.merge", "state": vs, "public": built["public"], "penalties": built["penalties"]}
    vs = ok(merge)["state"]
    vs = ok({"op": "versality.power.use", "state": vs, "character_id": "ana", "characters": ["ana"],
             "points": points, "note": MARK})["state"]
    vs.update(catastrophe=catastrophe, tokens=tokens, awarded_session=0)
    # Point Zéro: a secret threshold.
    pz = ok({"op": "pointzero.state.new"})["state"]
    pz = ok({"op": "pointzero.mj.threshold", "state": pz, "threshold": threshold})["state"]
    # Théorem: a player's hand and the MK's hand.
    tc = ok({"op": "theorem.character.new", "id": "tia", "name": "Tia"})["character"]
    th = ok({"op": "theorem.state.new", "seed": seed})["state"]
    th = ok({"op": "theorem.hand.draw", "state": th, "character": tc, "seed": seed + 1})["state"]
    th = ok({"op": "theorem.mk.hand", "state": th, "size": mk_size, "seed": seed + 2})["state"]
    # SYSTMJ: a round with a hidden choice.
    sc = ok({"op": "systmj.character.new", "id": "sam", "name": "Sam"})["character"]
    sj = ok({"op": "systmj.state.new"})["state"]
    sj = ok({"op": "systmj.round.start", "state": sj, "characters": [sc]})["state"]
    sj = ok({"op": "systmj.round.choose", "state": sj, "entity": "sam", "choice": choice})["state"]
    if revealed:
        sj = ok({"op": "systmj.round.reveal", "state": sj})["state"]
    # Unicreon: a terrible secret.
    uc = ok({"op": "unicreon.character.new", "id": "ulric", "name": "Ulric"})["character"]
    uc["secret"] = MARK
    doc["characters"] = [va, tc, sc, uc]
    doc["systems"] = {"versality": vs, "pointzero": pz, "theorem": th, "systmj": sj}
    entry = {"at": "2026-11-23T00:00:00Z", "who": "MJ", "label": "x", "result": {"summary": "ok"}}
    doc["log"] = [
        {**entry, "id": "l1", "kind": "theorem.draw", "system": "theorem",
         "request": {"op": "theorem.action", "seed": 1, "deck": th["deck"]}},
        {**entry, "id": "l2", "kind": "pointzero.test", "system": "pointzero",
         "request": {"op": "pointzero.test", "seed": 2, "tension": {"threshold": threshold, "gauge": 0}}},
        {**entry, "id": "l3", "kind": "versality.test", "system": "versality",
         "request": {"op": "versality.test.draw", "seed": 3, "state": vs}, "result": {"catastrophe": MARK}},
        {**entry, "id": "l4", "kind": "roll", "system": None, "request": {"op": "roll", "expr": "2d6", "seed": 4}},
    ]
    opened = ok({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0, opened["document"].get("quarantine")
    return opened["document"]


TABLES = st.builds(
    build_table,
    seed=st.integers(0, 2**32),
    catastrophe=st.integers(1, 9999),
    tokens=st.integers(1, 9999),
    points=st.integers(1, 5),
    threshold=st.integers(1, 10),
    mk_size=st.integers(3, 10),
    choice=st.sampled_from(["action", "mouvement"]),
    revealed=st.booleans(),
)

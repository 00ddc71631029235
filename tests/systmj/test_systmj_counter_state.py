"""A pending counter-attack is part of the SYSTMJ table state (000, 3.3.2: « S'il échoue, son
adversaire est alors en capacité de Contre-attaquer ; dans ce cas, aucune Défense ne sera
possible »): ``counter`` names who may strike back, at whom, in which round. The store keeps it,
a malformed one is refused, and the round ops carry it through."""

from __future__ import annotations

from tablee.api import handle
from tablee.systems.systmj import state as S


def ok(request: dict) -> dict:
    response = handle(request)
    assert "error" not in response, response
    return response


def entity(cid: str, name: str) -> dict:
    c = ok({"op": "systmj.entity.new", "id": cid, "name": name})["character"]
    c["pv_max"], c["language"] = 20, "Commun"
    return c


def test_a_pending_counter_attack_is_kept_by_the_store_and_the_round_ops():
    aldo, brune = entity("sj-aldo", "Aldo"), entity("sj-brune", "Brune")
    state = ok({"op": "systmj.state.new"})["state"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": [aldo, brune]})["state"]
    state = {**state, "counter": {"attacker": "sj-brune", "defender": "sj-aldo", "round": state["round"]}}
    assert S.validate_state(state) == []
    doc = ok({"op": "store.new", "name": "T", "language": "fr"})["document"]
    doc["characters"], doc["systems"] = [aldo, brune], {"systmj": state}
    opened = ok({"op": "store.open", "document": doc})
    assert opened["quarantined"] == 0
    kept = opened["document"]["systems"]["systmj"]["counter"]
    assert kept == {"attacker": "sj-brune", "defender": "sj-aldo", "round": 1}
    # An op on the state keeps the offer (the page takes it away with the next exchange).
    chosen = ok({"op": "systmj.round.choose", "state": state, "entity": "sj-aldo", "choice": "action"})["state"]
    assert chosen["counter"] == state["counter"]
    # A player's copy keeps it too: who may strike back is no secret.
    shared = ok({"op": "store.share", "kind": "table", "data": opened["document"], "audience": "player"})["data"]
    assert shared["systems"]["systmj"]["counter"] == state["counter"]


def test_a_malformed_counter_attack_is_refused():
    state = ok({"op": "systmj.state.new"})["state"]
    for bad in ({"attacker": "sj-brune", "defender": "sj-aldo"},
                {"attacker": "", "defender": "x", "round": 1},
                {"attacker": "a", "defender": "b", "round": -1},
                {"attacker": "a", "defender": "b", "round": 1, "x": 1}):
        assert S.validate_state({**state, "counter": bad}) != [], bad

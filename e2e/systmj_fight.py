"""SYSTMJ fighters and rounds as the combat journeys seed them: an entity of the fight (sj_entity, fighter), the seeds that make a round go one way (seed_for), a round revealed (revealed_round)."""

from __future__ import annotations

from tablee.api import handle


def sj_entity(cid: str, name: str, **attributes: int) -> dict:
    c = handle({"op": "systmj.entity.new", "id": cid, "name": name})["character"]
    c["attributes"].update(attributes)
    c["pv_max"], c["language"] = 20, "Commun"
    return c


def revealed_round(choices: dict[str, str], chars: list[dict], state: dict | None = None) -> dict:
    state = state or handle({"op": "systmj.state.new"})["state"]
    state = handle({"op": "systmj.round.start", "state": state, "characters": chars})["state"]
    for cid, choice in choices.items():
        state = handle({"op": "systmj.round.choose", "state": state, "entity": cid, "choice": choice})["state"]
    return handle({"op": "systmj.round.reveal", "state": state})["state"]


def fighter(c: dict, aware: bool | None = None) -> dict:
    f = {"id": c["id"], "attributes": c["attributes"], "dissimulation": c["skills"]["dissimulation"],
         "detection": c["skills"]["detection"], "pv": c["pv_max"], "pa": c["pa_max"]}
    return f if aware is None else {**f, "aware": aware}


def seed_for(request: dict, outcome: str) -> int:
    return next(s for s in range(2000) if handle({**request, "seed": s})["outcome"] == outcome)

"""Fuzz the Unicreon ops with VALID characters and combat states (the schema fuzz mostly reaches
the malformed-data path): every answer is a response or a unicreon.* RulesError, never a crash,
and every character/state returned passes the store validators."""

from __future__ import annotations

from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablee.api import handle
from tablee.store_records import CHARACTER_VALIDATORS, STATE_VALIDATORS
from tablee.systems.unicreon.character import play_problems
from tablee.systems.unicreon.data import BESTIARY, CARRIED, CATALOGUE, CHARACTERISTICS, NPC_TIERS

#: Characteristics that keep the rules (values 10-50 adding up to 150): every op refuses the others.
VALID_CHARACTERISTICS = st.sampled_from(
    [v for v in product((10, 20, 30, 40, 50), repeat=4) if sum(v) == 150]
).map(lambda v: dict(zip(CHARACTERISTICS, v, strict=True)))
SMALL = st.integers(0, 12)
AMOUNT = st.fixed_dictionaries(
    {"kind": st.sampled_from(["fixed", "max", "infinite"]), "value": st.one_of(st.none(), st.integers(0, 12))}
)
CUSTOM = st.fixed_dictionaries(
    {
        "name": st.text(max_size=8),
        "category": st.sampled_from(["gear", "care", "weapon", "shield", "armour", "bag"]),
    },
    optional={
        "cost": st.integers(0, 60),
        "pe": SMALL,
        "capacity": SMALL,
        "uses": st.one_of(st.none(), st.integers(0, 3)),
        "heal": st.integers(0, 5),
        "cures": st.booleans(),
        "bonus_steps": st.integers(0, 3),
        "carried": st.sampled_from(list(CARRIED)),
        "weapon": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {
                    "characteristic": st.sampled_from(CHARACTERISTICS),
                    "damage": AMOUNT,
                    "ranged": st.booleans(),
                    "thrown": st.booleans(),
                    "melee_ok": st.booleans(),
                    "range": st.one_of(
                        st.none(), st.tuples(SMALL, SMALL).map(lambda t: {"ideal": min(t), "max": max(t)})
                    ),
                    "malus_steps": st.integers(0, 2),
                }
            ),
        ),
        "protection": st.one_of(
            st.none(),
            st.fixed_dictionaries({"characteristic": st.sampled_from(CHARACTERISTICS), "absorb": AMOUNT}),
        ),
    },
)


def call(request: dict) -> dict:
    resp = handle(request)
    if "error" in resp:
        assert resp["error"]["code"].startswith("unicreon."), resp
    return resp


@st.composite
def characters(draw, cid: str = "p"):
    c = call({"op": "unicreon.character.new", "id": cid, "name": cid})["character"]
    c["characteristics"] = draw(VALID_CHARACTERISTICS)
    c["po"] = draw(st.integers(0, 400))
    c["ignore_encumbrance"] = draw(st.booleans())
    c["pv"] = draw(st.integers(0, 12))
    c["created"] = draw(st.booleans())
    for ref in draw(st.lists(st.sampled_from(list(CATALOGUE)), max_size=4)):
        resp = call({"op": "unicreon.shop.buy", "character": c, "ref": ref, "carried": "hand"})
        if "character" in resp and not play_problems(resp["character"]):  # e.g. a second shield in hand
            c = resp["character"]
    for spec in draw(st.lists(CUSTOM, max_size=3)):
        resp = call({"op": "unicreon.inventory.custom", "character": c, "item": spec})
        if "character" in resp and not play_problems(resp["character"]):  # e.g. a second armour worn
            c = resp["character"]
    for kind in draw(st.lists(st.sampled_from(["poison", "disease", "infection"]), max_size=2)):
        c = call(
            {"op": "unicreon.health.afflict", "character": c, "kind": kind, "diagnosed": draw(st.booleans())}
        )["character"]
    assert CHARACTER_VALIDATORS["unicreon"](c) == [] and play_problems(c) == []
    return c


def uid_of(draw, c: dict):
    uids = [i["uid"] for i in c["inventory"]]
    return draw(st.sampled_from([*uids, "nope"])) if uids else "nope"


@given(data=st.data(), c=characters(), other=characters("q"))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_character_ops_on_valid_characters(data, c, other):
    draw = data.draw
    seed = draw(st.integers(0, 2**32))
    reqs = [
        {"op": "unicreon.character.check", "character": c},
        {"op": "unicreon.character.finish", "character": c},
        {"op": "unicreon.shop.sell", "character": c, "uid": uid_of(draw, c)},
        {"op": "unicreon.inventory.remove", "character": c, "uid": uid_of(draw, c)},
        {
            "op": "unicreon.inventory.carry",
            "character": c,
            "uid": uid_of(draw, c),
            "carried": draw(st.sampled_from(list(CARRIED))),
        },
        {
            "op": "unicreon.item.use",
            "character": c,
            "uid": uid_of(draw, c),
            "target": other,
            "condition": draw(st.integers(0, 2)),
        },
        {"op": "unicreon.item.use", "character": c, "uid": uid_of(draw, c)},
        {
            "op": "unicreon.test",
            "character": c,
            "seed": seed,
            "test": {"characteristic": draw(st.sampled_from(CHARACTERISTICS)), "items": [uid_of(draw, c)]},
        },
        {
            "op": "unicreon.health.diagnose",
            "character": c,
            "condition": draw(st.integers(0, 2)),
            "perception": 30,
            "seed": seed,
        },
        {"op": "unicreon.health.day", "character": c, "seed": seed},
        {"op": "unicreon.health.rest", "character": c, "kind": draw(st.sampled_from(["short", "full"]))},
        {"op": "unicreon.health.new_adventure", "character": c},
    ]
    for req in reqs:
        resp = call(req)
        for key in ("character", "target"):
            if isinstance(resp.get(key), dict):
                assert CHARACTER_VALIDATORS["unicreon"](resp[key]) == [], (req["op"], resp[key])
                assert 0 <= resp[key]["pv"] <= resp[key]["pv_max"]


@given(data=st.data(), a=characters("a"), b=characters("b"))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_combat_ops_on_valid_states(data, a, b):
    draw = data.draw
    state = call({"op": "unicreon.combat.new"})["state"]
    state = call({"op": "unicreon.combat.add_character", "state": state, "character": a})["state"]
    state = call(
        {
            "op": "unicreon.combat.add_character",
            "state": state,
            "character": b,
            "side": draw(st.sampled_from(["pc", "npc"])),
        }
    )["state"]
    npc = draw(
        st.one_of(
            st.fixed_dictionaries({"tier": st.sampled_from(list(NPC_TIERS))}),
            st.fixed_dictionaries({"beast": st.sampled_from(list(BESTIARY))}),
        )
    )
    state = call({"op": "unicreon.combat.add_npc", "state": state, "count": draw(st.integers(1, 3)), **npc})[
        "state"
    ]
    state = call({"op": "unicreon.combat.initiative", "state": state, "seed": draw(st.integers(0, 99))})[
        "state"
    ]
    cids = [c["cid"] for c in state["combatants"]]
    for _ in range(draw(st.integers(1, 12))):
        if not state["combatants"]:
            break
        cid, other = draw(st.sampled_from(cids)), draw(st.sampled_from(cids))
        me = next(c for c in state["combatants"] if c["cid"] == cid)
        weapon = draw(st.sampled_from([None, *[w["uid"] for w in me["weapons"]]]))
        theirs = next(c for c in state["combatants"] if c["cid"] == other)
        prot = draw(st.sampled_from([None, *[p["uid"] for p in theirs["protections"]]]))
        seed = draw(st.integers(0, 2**32))
        req = draw(
            st.sampled_from(
                [
                    {
                        "op": "unicreon.combat.attack",
                        "attacker": cid,
                        "defender": other,
                        "weapon": weapon,
                        "protection": prot,
                        "distance": draw(st.integers(0, 300)),
                        "aim": draw(st.booleans()),
                        "surprise": draw(st.booleans()),
                        "seed": seed,
                    },
                    {
                        "op": "unicreon.combat.attack.odds",
                        "attacker": cid,
                        "defender": other,
                        "weapon": weapon,
                        "ranged": draw(st.booleans()),
                    },
                    {"op": "unicreon.combat.engage", "cid": cid, "target": other},
                    {
                        "op": "unicreon.combat.escape",
                        "cid": cid,
                        "from": other,
                        "mode": draw(st.sampled_from(["two_actions", "opposition"])),
                        "seed": seed,
                    },
                    {"op": "unicreon.combat.pickup", "cid": cid, "uid": weapon or "x"},
                    {"op": "unicreon.combat.next"},
                    {"op": "unicreon.combat.adjust", "cid": cid, "pv_delta": draw(st.integers(-30, 30))},
                    {"op": "unicreon.combat.remove", "cid": cid},
                    {"op": "unicreon.combat.surprise", "attackers": [cid]},
                ]
            )
        )
        resp = call({**req, "state": state})
        if "state" in resp:
            state = resp["state"]
            assert STATE_VALIDATORS["unicreon"]({"combat": state}) == [], req["op"]
            assert all(0 <= c["pv"] <= c["pv_max"] for c in state["combatants"])
            cids = [c["cid"] for c in state["combatants"]]
    end = call({"op": "unicreon.combat.end", "state": state})
    assert "error" in end or end["state"]["phase"] == "over"

"""A player's view never holds the seed of a draw from a hidden pile: hidden information never
travels in a player's share.

Every Théorem and Versality op that takes a seed draws from, builds or shuffles a pile whose
order is the MJ's secret (Théorem's numbered deck and arcana decks, 003_0f8319d4d007e1fe.txt
"A) Au commencement"; Versality's decks, 001_28decc945b538010.txt "Le tirage"). The engine is
public and deterministic (``random.Random(seed)``), so that seed, with what any player sees
(the public discard, the sheet's card list, the previous view of the live table), tells the
order: the next cards of a reshuffled deck, another player's arcana hand, a whole Versality
deck. The MJ's device logs these draws with their seed for "Vérifier / rejouer".

The tables here are built through the ops the pages call, and their log entries take the very
shape the pages give them (static/js/systems/theorem/common.js ``logDraw``, table.js, mk.js,
chase.js; static/js/systems/versality/test.js). Each attack plays a phone: it takes the
player's views (the live table's public doc, a player's share link, an entry's share), tries
every number they hold as a seed with the public engine, and must not find the hidden order.
"""

from __future__ import annotations

import base64
import copy
import json
import random
import re
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_calls import call as ok
from api_calls import versality_character
from tablee import api, referee_log, share
from tablee.share_dictionary import DICTIONARY_1

#: Seeds as static/js/storage.js ``newSeed`` makes them (53 bits).
SEEDS = st.integers(2**40, 2**53 - 1)
AT = "2026-12-01T20:00:00.000Z"


# ---------------------------------------------------------------- the pages' log entries
def page_entry(n: int, kind: str, system: str, who: str, label: str, request: dict, result: dict) -> dict:
    """A log entry as app.addLog writes it (static/js/app.js)."""
    return {"id": f"log-{n:04d}", "at": AT, "system": system, "kind": kind, "who": who, "label": label,
            "request": request, "result": result}


def log_draw(doc: dict, kind: str, who: str, label: str, request: dict, deck, drawn=None) -> None:
    """theorem/common.js ``logDraw``: the request with its seed and the deck it used."""
    result = {"summary": label}
    if drawn is not None:
        result["verify"] = referee_log.verify_record({"drawn": drawn}, ("drawn",))
    doc["log"].append(page_entry(len(doc["log"]), kind, "theorem", who, label, {**request, "deck": deck}, result))


def deck_used(state: dict) -> dict:
    """theorem/common.js ``deckUsed``."""
    piles = state["deck"]["piles"]
    return {"draw": list(piles["draw"]["cards"]), "discard": list(piles["discard"]["cards"])}


def th_character(cid: str, name: str, divinite: int = 3) -> dict:
    c = ok({"op": "theorem.character.new", "id": cid, "name": name})["character"]
    c["spheres"] = {"animalite": 3, "humanite": 2, "divinite": divinite}
    c["realite"] = 30
    return c


def theorem_table(seed: int) -> dict:
    doc = ok({"op": "store.new", "name": "Table du MK", "language": "fr"})["document"]
    doc["characters"] = [th_character("tia", "Tia"), th_character("leo", "Léo", 4)]
    doc["systems"]["theorem"] = ok({"op": "theorem.state.new", "seed": seed})["state"]
    return doc


def hand_draw(doc: dict, cid: str, seed: int) -> None:
    """theorem/table.js ``drawHand``."""
    state = doc["systems"]["theorem"]
    c = next(x for x in doc["characters"] if x["id"] == cid)
    r = ok({"op": "theorem.hand.draw", "state": state, "character": c, "seed": seed})
    arc = state["arcana"].get(cid)
    deck = {"draw_count": len(arc["piles"]["draw"]["cards"]), "discard_count": len(arc["piles"]["discard"]["cards"])} \
        if arc else {"new": True}
    doc["systems"]["theorem"] = r["state"]
    log_draw(doc, "theorem.hand", c["name"], f"{r['count']} arcanes piochés",
             {"op": "theorem.hand.draw", "character_id": cid, "seed": seed}, deck)


def arcane(doc: dict, cid: str, seed: int) -> None:
    """theorem/table.js ``playArcane`` for its effect, at the next turn (one arcane a turn): the
    hand emptied is drawn again at once, from the hidden arcana deck, with this seed."""
    state = ok({"op": "theorem.turn.next", "state": doc["systems"]["theorem"]})["state"]
    c = next(x for x in doc["characters"] if x["id"] == cid)
    card = state["arcana"][cid]["piles"]["hand"]["cards"][0]
    r = ok({"op": "theorem.arcane.play", "state": state, "character": c, "card": card, "mode": "effect",
            "mortal": False, "seed": seed})
    doc["systems"]["theorem"] = r["state"]
    doc["characters"] = [r["character"] if x["id"] == cid else x for x in doc["characters"]]
    log_draw(doc, "theorem.arcane", c["name"], f"Arcane {r['result']['arcane']} pour son effet",
             {"op": "theorem.arcane.play", "character_id": cid, "card": card, "mode": "effect", "mortal": False,
              "seed": seed}, None)


def mk_hand(doc: dict, size: int, seed: int) -> None:
    """theorem/mk.js: the MK's hand (the MK plays the cards held first: a hand is drawn empty)."""
    mk = doc["systems"]["theorem"]["arcana"].get("@mk")
    for card in mk["piles"]["hand"]["cards"] if mk else []:
        doc["systems"]["theorem"] = ok({"op": "theorem.mk.discard", "state": doc["systems"]["theorem"],
                                        "card": card})["state"]
    r = ok({"op": "theorem.mk.hand", "state": doc["systems"]["theorem"], "size": size, "seed": seed})
    doc["systems"]["theorem"] = r["state"]
    log_draw(doc, "theorem.hand", "MK", f"Main du MK : {r['count']}",
             {"op": "theorem.mk.hand", "size": size, "seed": seed}, None)


def action(doc: dict, cid: str, seeds) -> None:
    """theorem/table.js ``drawCard`` until the action is settled (a first figure played)."""
    c = next(x for x in doc["characters"] if x["id"] == cid)
    begun = ok({"op": "theorem.action.begin", "state": doc["systems"]["theorem"], "character": c,
                "sphere": "animalite", "modifier": 0})
    state, c = begun["state"], begun["character"]
    while True:
        seed = next(seeds)
        used = deck_used(state)
        r = ok({"op": "theorem.action.draw", "state": state, "character": c, "seed": seed})
        state = r["state"]
        log_draw(doc, "theorem.draw", c["name"], f"Tirage : {r['result']['card']['id']}",
                 {"op": "theorem.action.draw", "character_id": cid, "seed": seed}, used, [[r["result"]["card"]["id"]]])
        if r["result"].get("awaiting"):
            state = ok({"op": "theorem.action.figure", "state": state, "character": c, "decision": "play"})["state"]
        if r["result"].get("done", False):
            break
    doc["systems"]["theorem"] = state
    doc["characters"] = [c if x["id"] == cid else x for x in doc["characters"]]


def opposition(doc: dict, seed: int) -> None:
    """theorem/chase.js ``opposition``: two sides the MK plays."""
    a, b = {"name": "Garde", "base": 10, "start": 0}, {"name": "Voleur", "base": 12, "start": 0}
    r = ok({"op": "theorem.opposition.draw", "state": doc["systems"]["theorem"], "a": a, "b": b, "seed": seed})
    res = r["result"]
    doc["systems"]["theorem"] = r["state"]
    log_draw(doc, "theorem.opposition", "Garde / Voleur", "Garde contre Voleur",
             {"op": "theorem.opposition.draw", "a": {**a, "base": res["base_a"]}, "b": {**b, "base": res["base_b"]},
              "seed": seed}, r["deck_used"], [[x["id"] for x in res["chain_a"]], [x["id"] for x in res["chain_b"]]])


def versality_table() -> dict:
    doc = ok({"op": "store.new", "name": "Table du MJ", "language": "fr"})["document"]
    doc["characters"] = [versality_character(created=True)]
    doc["systems"]["versality"] = ok({"op": "versality.state.new"})["state"]
    return doc


def versality_test(doc: dict, draw_seed: int, resolve_seed: int) -> list:
    """versality/test.js ``draw`` then ``resolve``: one entry, the draw's request with its deck
    and count, the resolution's under ``resolve``. Returns the draw pile (the MJ's secret) after
    the draw, and after the resolution."""
    c = next(x for x in doc["characters"] if x["system"] == "versality")
    state = doc["systems"]["versality"]
    asked = {"op": "versality.test.draw", "characteristic": "mental", "skill": "traquer",
             "difficulty": "conventionnelle", "seed": draw_seed}
    d = ok({**asked, "state": state, "character": c})
    state = ok({"op": "versality.state.merge", "state": state, "public": d["public"],
                "penalties": d["penalties"]})["state"]
    secrets = [list(state["decks"][c["id"]]["piles"]["draw"]["cards"])]
    last_draw = {**asked, "deck": d["test"]["deck_used"], "count": d["test"]["count"]}
    resolve = {"op": "versality.test.resolve", "character_id": c["id"], "force": False, "faiblesse": False, "tokens": 0,
               "seed": resolve_seed}
    if d["test"]["rule"] == "choose":
        resolve["choice"] = d["test"]["drawn"][0]["id"]
    r = ok({**resolve, "state": state})
    state = ok({"op": "versality.state.merge", "state": state, "public": r["public"],
                "penalties": r["penalties"]})["state"]
    doc["systems"]["versality"] = state
    drawn = [[x["id"] for x in d["test"]["drawn"]]]
    doc["log"].append(page_entry(len(doc["log"]), "versality.test", "versality", c["name"], "Mental + Traquer",
                                 {**last_draw, "resolve": resolve},
                                 {"reshuffles": 0, "verify": referee_log.verify_record({"drawn": drawn}, ("drawn",)),
                                  "summary": r["result"]["final"]}))
    return [*secrets, list(state["decks"][c["id"]]["piles"]["draw"]["cards"])]


# ---------------------------------------------------------------- what a phone holds
def unpack(payload: str) -> dict:
    """What a share link's payload (share.pack_link) carries, read as codec.js reads it."""
    raw = base64.urlsafe_b64decode(payload[len(share.PACKED_1):] + "=" * (-len(payload) % 4))
    inflater = zlib.decompressobj(-15, zdict=DICTIONARY_1.encode())
    envelope = json.loads(inflater.decompress(raw) + inflater.flush())
    assert envelope["audience"] == "player"
    return envelope["data"]


def player_views(doc: dict) -> list:
    """Everything a player may be handed of ``doc``: the live table's public doc (the worker's
    projection read from JSON text, the kept views, the uncached share), a player's share link
    of the table, each entry's."""
    doc = ok({"op": "store.open", "document": doc})["document"]
    live = {"op": "store.share", "kind": "table", "data": doc, "audience": "player", "since": None}
    views = [json.loads(api.handle_json(json.dumps(live, ensure_ascii=False)))["data"],
             share.table_view(json.loads(json.dumps(doc))), share.share("table", doc, "player")]
    views.append(unpack(ok({"op": "store.share_link", "kind": "table", "data": doc, "audience": "player"})["payload"]))
    views += [ok({"op": "store.share", "kind": "entry", "data": e, "audience": "player"})["data"] for e in doc["log"]]
    return views


def numbers(view) -> set[int]:
    """Every number a view holds that could be a seed: its integers, and digit runs in its text."""
    out: set[int] = set()
    stack = [view]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, int) and not isinstance(node, bool):
            out.add(abs(node))
        elif isinstance(node, str):
            out.update(int(m) for m in re.findall(r"\d{6,}", node))
    return {n for n in out if n >= 2**16}


def candidates(views: list) -> set[int]:
    return set().union(*(numbers(v) for v in views))


# ---------------------------------------------------------------- the attacks
def test_a_reshuffle_of_the_numbered_deck_cannot_be_computed_from_the_players_views():
    """The draw pile runs out: the MJ's next draw turns the public discard over and shuffles it
    with the draw's seed. A phone holds the view before the draw (its discard, in order) and
    the view after: with the seed it would know every card still to come."""
    seeds = iter(range(2**45, 2**45 + 10_000))
    doc = theorem_table(next(seeds))
    state = doc["systems"]["theorem"]
    # Thin the deck with page actions until it is empty (every chain goes to the discard).
    while state["deck"]["piles"]["draw"]["cards"]:
        action(doc, "tia", seeds)
        state = doc["systems"]["theorem"]
        doc["log"] = doc["log"][-20:]
    assert state["deck"]["piles"]["discard"]["cards"], "nothing to turn over"
    before = player_views(doc)
    discard_seen = before[0]["systems"]["theorem"]["deck"]["piles"]["discard"]["cards"]
    assert discard_seen == state["deck"]["piles"]["discard"]["cards"]  # public, in order
    action(doc, "leo", seeds)
    secret = doc["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]
    assert len(secret) > 1
    after = player_views(doc)
    found = []
    for guess in candidates(before + after):
        order = list(discard_seen)
        random.Random(guess).shuffle(order)
        if order[-len(secret):] == secret:
            found.append(guess)
    assert not found, f"the views hold the seed that shuffled the hidden deck: {found}"
    # What is public stays: the discard and the cards drawn.
    assert after[0]["systems"]["theorem"]["deck"]["piles"]["play"] == doc["systems"]["theorem"]["deck"]["piles"]["play"]


def test_another_players_arcana_hand_cannot_be_computed_from_the_players_views():
    """A first hand draw shuffles the 22 arcana (a known order) with the draw's seed: with it,
    any phone would know Tia's hand, which only Tia's phone holds."""
    doc = theorem_table(2**44 + 1)
    hand_draw(doc, "tia", 0x1F_2E3D_4C5B_6A79)
    mk_hand(doc, 5, 0x0E_1D2C_3B4A_5968)
    state = doc["systems"]["theorem"]
    views = player_views(doc)
    for view in views[:4]:
        assert view["systems"]["theorem"]["arcana"]["tia"]["piles"]["hand"]["cards"] == []
    fresh = ok({"op": "theorem.state.new", "seed": 1})["state"]
    tia = doc["characters"][0]
    found = []
    for guess in candidates(views):
        for owner, op in (("tia", {"op": "theorem.hand.draw", "character": tia}),
                          ("@mk", {"op": "theorem.mk.hand", "size": 5})):
            drawn = ok({**op, "state": fresh, "seed": guess})["state"]["arcana"][owner]["piles"]["hand"]["cards"]
            if drawn == state["arcana"][owner]["piles"]["hand"]["cards"]:
                found.append((owner, guess))
    assert not found, f"the views hold the seed of a hidden hand: {found}"


def test_a_versality_deck_cannot_be_computed_from_the_players_views():
    """A character's first test builds the deck from the sheet's cards (public) and shuffles it
    with the draw's seed; the resolution shuffles the cards not played back in with its own.
    Both seeds, with the public views, would tell the whole draw pile."""
    doc = versality_table()
    before = player_views(doc)
    after_draw, secret = versality_test(doc, 0x0A_1B2C_3D4E_5F60, 0x0B_2C3D_4E5F_6071)
    assert secret == doc["systems"]["versality"]["decks"]["ana"]["piles"]["draw"]["cards"]
    after = player_views(doc)
    public_state = before[0]["systems"]["versality"]
    character = after[0]["characters"][0]
    guesses = candidates(after)
    found = []
    for d in guesses:
        drew = ok({"op": "versality.test.draw", "state": public_state, "character": character,
                   "characteristic": "mental", "skill": "traquer", "difficulty": "conventionnelle", "seed": d})
        mid = ok({"op": "versality.state.merge", "state": public_state, "public": drew["public"],
                  "penalties": drew["penalties"]})["state"]
        if mid["decks"]["ana"]["piles"]["draw"]["cards"] == after_draw:
            found.append(("draw", d))
        for r in guesses:
            resolve = {"op": "versality.test.resolve", "state": mid, "character_id": "ana", "seed": r}
            if drew["test"]["rule"] == "choose":
                resolve["choice"] = drew["test"]["drawn"][0]["id"]
            out = ok(resolve)
            if out["public"]["decks"]["ana"]["piles"]["draw"]["cards"] == secret:
                found.append(("resolve", d, r))
    assert not found, f"the views hold the seeds of a hidden deck: {found}"


def test_the_mjs_own_copy_keeps_the_seed_and_replays_the_draw():
    """The MJ's device (and a share for the MJ) keeps everything: "Vérifier / rejouer" draws
    again from the logged deck with the logged seed and finds the same cards."""
    seeds = iter(range(2**46, 2**46 + 100))
    doc = theorem_table(next(seeds))
    action(doc, "tia", seeds)
    mine = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "mj"})["data"]
    entry = mine["log"][0]
    request = entry["request"]
    again = ok({"op": "theorem.draw.replay", "kind": "action", "deck": request["deck"], "seed": request["seed"]})
    assert referee_log.digest(again, entry["result"]["verify"]["keys"]) == entry["result"]["verify"]["digest"]


def test_a_players_copy_of_a_hidden_pile_draw_keeps_what_is_public():
    """A player's entry has no seed and no deck, so "Vérifier / rejouer" says there that it
    cannot be replayed (static/js/views/verify.js); its words, its result line and the digest
    of the cards drawn (public) stay."""
    seeds = iter(range(2**47, 2**47 + 100))
    doc = theorem_table(next(seeds))
    action(doc, "tia", seeds)
    entry = doc["log"][0]
    out = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["data"]
    assert out["request"] == {"op": "theorem.action.draw", "character_id": "tia"}
    assert out["result"] == entry["result"]
    assert {k: v for k, v in out.items() if k != "request"} == {k: v for k, v in entry.items() if k != "request"}


def test_a_dice_roll_keeps_its_seed_for_a_player():
    """A roll of the dice tray draws from no hidden pile: a player replays it from the log."""
    roll = page_entry(0, "roll", None, "Ana", "2d6", {"op": "roll", "expr": "2d6", "seed": 2**50 + 3},
                      {"total": 7, "terms": []})
    roll["system"] = None
    assert ok({"op": "store.share", "kind": "entry", "data": roll, "audience": "player"})["data"] == roll


# ---------------------------------------------------------------- any table, any order
PAGE_MOVES = st.lists(st.sampled_from(["action", "hand_tia", "hand_leo", "arcane", "mk", "opposition", "versality"]),
                      min_size=1, max_size=8)


def _old_referee_entry(doc: dict, seed: int) -> None:
    """A phone's draw as the live table's referee logs it (tablee/referee_log.py: the seed kept
    inside the deck it drew from)."""
    state = doc["systems"]["theorem"]
    recipe = referee_log.RECIPES["theorem.opposition.side"]
    logged = recipe.request({"side": "a"}, {"deck_used": deck_used(state)}, {"seed": seed})
    doc["log"].append(page_entry(len(doc["log"]), "theorem.opposition", "theorem", "Léo", "Léo", logged,
                                 {"summary": "ok"}))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=PAGE_MOVES, seeds=st.lists(SEEDS, min_size=64, max_size=64, unique=True), referee=st.booleans())
def test_no_seed_of_a_hidden_pile_reaches_a_players_view(moves, seeds, referee):
    """Any sequence of the pages' draws on one table (Théorem actions, hands, arcanes played
    and the hand drawn again, the MK's hand, oppositions; Versality tests), and a draw the
    referee logged: no seed any of them used is anywhere in any player's view, as a number or
    inside a text. (A move the page would refuse, a second hand while one is held, is left out.)"""
    used = iter(seeds)
    doc = theorem_table(next(used))
    vs = versality_table()
    doc["characters"] += vs["characters"]
    doc["systems"]["versality"] = vs["systems"]["versality"]
    for move in moves:
        if move == "action":
            action(doc, "tia", used)
        elif move.startswith("hand_"):
            arc = doc["systems"]["theorem"]["arcana"].get(move[5:])
            if arc is None or not arc["piles"]["hand"]["cards"]:
                hand_draw(doc, move[5:], next(used))
        elif move == "arcane":
            arc = doc["systems"]["theorem"]["arcana"].get("tia")
            if arc is not None and arc["piles"]["hand"]["cards"]:
                arcane(doc, "tia", next(used))
        elif move == "mk":
            mk_hand(doc, 4, next(used))
        elif move == "opposition":
            opposition(doc, next(used))
        else:
            versality_test(doc, next(used), next(used))
    if referee:
        _old_referee_entry(doc, next(used))
    rest = set(used)
    spent = set(seeds) - rest
    mine = json.dumps(ok({"op": "store.share", "kind": "table", "data": copy.deepcopy(doc), "audience": "mj"})["data"])
    if doc["log"]:
        assert any(str(s) in mine for s in spent)  # the MJ's copy keeps them: the filter had work to do
    for view in player_views(doc):
        text = json.dumps(view, ensure_ascii=False)
        leaked = [s for s in spent if str(s) in text]
        assert not leaked, (leaked, text[:400])


@pytest.mark.parametrize("system", ["theorem", "versality"])
def test_a_seed_at_any_depth_of_a_hidden_pile_entry_is_removed(system):
    """An entry of an older shape (a whole answer logged, a seed in a nested request) loses
    every seed, wherever it sits, and nothing else."""
    entry = page_entry(0, f"{system}.draw", system, "Ana", "Tirage",
                       {"op": f"{system}.x", "seed": 11, "resolve": {"seed": 12, "force": True},
                        "sides": [{"seed": 13, "name": "A"}]},
                       {"summary": "ok", "test": {"seed": 14, "count": 2}})
    out = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["data"]
    assert out["request"] == {"op": f"{system}.x", "resolve": {"force": True}, "sides": [{"name": "A"}]}
    assert out["result"] == {"summary": "ok", "test": {"count": 2}}

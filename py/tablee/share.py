"""What a share link may carry: a character, a roll (a log entry) or a whole table, with the
hidden information of every system taken out for a player's share.

Issue 13 ("Between devices"): "The MJ screen (hidden information) sits behind an explicit
switch and never travels in a player's share." A share is validated first, exactly as an
import is (``store.open`` for a table, ``store.check_character`` for a character, the
store's log-entry check for a roll), then, for the ``player`` audience, passed through the
share filter each system declares (its :class:`tablee.system.Views`, installed here by
:func:`plug` on its first need of it). The result is still valid
data (a player imports it like a file): secrets are removed or reset to their neutral value,
never replaced by placeholders the store would refuse.

Fail closed: a player's share of data from a system with no registered filter is refused
(``share.no_filter``), so a new system cannot leak by being forgotten here.
"""

from __future__ import annotations

import base64
import json
import random
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import held, store, store_records, store_shape
from .errors import RulesError, declare
from .registry import SEED_SCHEMA, SYSTEM_IDS, from_json, op, rng_from
from .share_dictionary import DICTIONARY_1
from .systems import load as load_system
from .tree import clone

__all__ = [
    "AUDIENCES",
    "KINDS",
    "SECRET_ROLL",
    "SHARE_FILTERS",
    "ShareFilter",
    "addressed_view",
    "conceal_cards",
    "container_changes",
    "deal_hidden",
    "entry_view",
    "kept_view",
    "list_changes",
    "pack_link",
    "plug",
    "project",
    "register_share_filter",
    "scrub",
    "share",
    "state_view",
    "table_view",
    "view_changes",
]

declare("share.no_filter", "share.invalid", "share.private_entry", "share.no_table", "share.changes_mismatch")

#: A log entry's ``to`` for a roll the MJ made in secret (logged for the MJ only).
SECRET_ROLL = "mj"

#: ``player``: what any player may see (every system's secrets removed); ``mj``: everything
#: (another device of the MJ, or a player's own character handed to the MJ).
AUDIENCES = ("player", "mj")
#: What a link carries: a character, one roll-log entry, a whole table document.
KINDS = ("character", "entry", "table")

Fn = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class ShareFilter:
    """A system's player filters. Each takes a valid record and returns a new valid record
    without the system's hidden information (``None``: that kind of record holds none)."""

    character: Fn | None = None
    state: Fn | None = None
    log_entry: Fn | None = None


#: system id -> its player filters (registered when the system's package is imported)
SHARE_FILTERS: dict[str, ShareFilter] = {}


def register_share_filter(
    system: str, *, character: Fn | None = None, state: Fn | None = None, log_entry: Fn | None = None
) -> None:
    """Plug a system's player filters into :func:`share` (see :class:`ShareFilter`)."""
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")
    SHARE_FILTERS[system] = ShareFilter(character=character, state=state, log_entry=log_entry)


#: The systems whose views are in :data:`SHARE_FILTERS` (:func:`plug`).
_PLUGGED: set[str] = set()


def plug(system: str) -> None:
    """Put ``system``'s player views (its :class:`tablee.system.Views`) in :data:`SHARE_FILTERS`,
    once, the system loaded first. ``system`` is one of SYSTEM_IDS."""
    if system in _PLUGGED:
        return
    views = load_system(system).views
    register_share_filter(system, character=views.character, state=views.state, log_entry=views.log_entry)
    _PLUGGED.add(system)


def _filters(system: str) -> ShareFilter:
    if system in SYSTEM_IDS:
        plug(system)
    found = SHARE_FILTERS.get(system)
    if found is None:
        raise RulesError("share.no_filter", system=system)
    return found


def scrub(value: Any, keys: frozenset[str]) -> Any:
    """``value`` with every object key in ``keys`` removed, at any depth (iterative: the data
    has passed the store's depth limit, but a stack is cheaper than recursion in Pyodide)."""
    out = clone(value)
    stack = [out]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k in [k for k in node if k in keys]:
                del node[k]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def conceal_cards(state: dict[str, Any], *, hands_into: str | None = None) -> dict[str, Any]:
    """A :mod:`tablee.cards` state as any player may hold it: every hidden pile in a canonical
    (sorted) order, so the share never tells the order of a draw pile; with ``hands_into``,
    every owner-only pile (a hand) emptied into that hidden pile, so no hand travels. Cards
    are conserved (the state stays valid); ``revealed`` keeps only cards still shown to all."""
    out = clone(state)
    piles = out["piles"]
    if hands_into is not None:
        for pile in piles.values():
            if pile["visibility"] == "owner":
                piles[hands_into]["cards"].extend(pile["cards"])
                pile["cards"] = []
    public: set[str] = set()
    for pile in piles.values():
        if pile["visibility"] == "hidden":
            pile["cards"] = sorted(pile["cards"])
        elif pile["visibility"] == "public":
            public.update(pile["cards"])
    if "revealed" in out:
        out["revealed"] = [c for c in out["revealed"] if c in public]
    return out


def _card_states(node: Any) -> list[dict[str, Any]]:
    """Every :mod:`tablee.cards` state held under ``node`` (a system's table state), found by
    its shape: an object of ``cards`` and ``piles`` (and ``revealed``) whose piles are objects
    with a ``visibility``. Iterative, like :func:`scrub`; a card state's own keys are not walked."""
    found: list[dict[str, Any]] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            piles = item.get("piles")
            if ("cards" in item and isinstance(piles, dict) and set(item) <= {"cards", "piles", "revealed"}
                    and all(isinstance(p, dict) and "visibility" in p for p in piles.values())):
                found.append(item)
                continue
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def deal_hidden(
    document: dict[str, Any], rng: random.Random, *, sorted_only: bool = False
) -> tuple[dict[str, Any], int]:
    """``document`` (a valid table) with every hidden pile of every system's card states
    shuffled, and how many piles were shuffled.

    A player's copy carries its hidden piles in a canonical (sorted) order (:func:`conceal_cards`:
    their order is the MJ's secret), so imported as it is, a deck would deal 1, 2, 3… de bâton.
    The rules draw the top card of a deck nobody has seen the order of (Théorem,
    003_0f8319d4d007e1fe.txt, "A) Au commencement": "tirer la première carte du paquet", the
    hand laid face down; Versality, 001_28decc945b538010.txt, "Fonctionnement d'un test": the
    cards not played are "remélangées" into the deck) and every page shows the odds of a
    shuffled deck, so the copy is dealt again at import, from a fresh seed: the MJ's order is
    neither told nor guessed. With ``sorted_only`` (a link older than its audience mark: the
    MJ's copy and the players' looked alike), only piles still in that canonical order are
    shuffled. Cards are conserved; a pile of fewer than two cards has no order to hide."""
    out = clone(document)
    count = 0
    for state in out["systems"].values():
        for cards in _card_states(state):
            for pile in cards["piles"].values():
                order = pile.get("cards")
                if pile["visibility"] != "hidden" or not isinstance(order, list) or len(order) < 2:
                    continue
                if sorted_only and order != sorted(order):
                    continue
                rng.shuffle(order)
                count += 1
    return out, count


def _character(character: dict[str, Any], audience: str) -> dict[str, Any]:
    problems = store_records.check_character(character)
    if problems:
        raise RulesError("share.invalid", kind="character", problems=[p.to_json() for p in problems[:5]])
    if audience == "mj":
        return clone(character)
    fn = _filters(character["system"]).character
    return fn(clone(character)) if fn else clone(character)


def _record_in_entry(node: Any) -> bool:
    """Whether ``node`` is a character record a log entry carries (a page logs an op's request
    and answer as they were: Unicreon's health ops hold the whole character)."""
    return isinstance(node, dict) and isinstance(node.get("id"), str) and node.get("system") in SYSTEM_IDS \
        and isinstance(node.get("name"), str)


def _records_filtered(node: Any, depth: int = 0) -> Any:
    """``node`` with every character record in it (:func:`_record_in_entry`) as its system's
    player filter makes it (a secret blanked: Unicreon's terrible secret, 004_12a5de9999b9d0ad.txt,
    "Le terrible secret", is kept from the other players), or only its id when that filter
    cannot read it. The store bounds an entry's depth; past 64 levels a node goes."""
    if depth > 64:
        return None
    if isinstance(node, list):
        return [_records_filtered(v, depth + 1) for v in node]
    if not isinstance(node, dict):
        return node
    if depth > 0 and _record_in_entry(node):
        fn = _filters(node["system"]).character
        try:
            node = fn(clone(node)) if fn else node
        except Exception:  # (a partial record the filter cannot read: its id only)
            return {"id": node["id"]}
        return {k: ("" if k == "secret" else _records_filtered(v, depth + 1)) for k, v in node.items()}
    return {k: _records_filtered(v, depth + 1) for k, v in node.items()}


def entry_view(entry: dict[str, Any]) -> dict[str, Any]:
    """The one player filter of a log entry that passed the store's check, whatever path it
    leaves the MJ's device by (the live table's public doc, a player's private doc, a share link
    of the entry or of the table): its system's log filter (a seed, a hidden pile's order, the
    MJ's fields), then every character record it carries through that record's system's
    player filter (:func:`_records_filtered`), and no system state its request or result holds."""
    fn = _filters(entry["system"]).log_entry if entry["system"] is not None else None
    view = _records_filtered(fn(entry) if fn else entry)
    for part in ("request", "result"):
        # (a system's whole state a page logged with its op: the MJ's, never a player's)
        if isinstance(view.get(part), dict) and isinstance(view[part].get("state"), dict):
            view[part] = {k: v for k, v in view[part].items() if k != "state"}
    return view


def addressed_view(entry: Any) -> dict[str, Any] | None:
    """An entry the MJ sent to one player (``to``: a member id), as that player's private doc
    holds it: checked by the store and filtered by :func:`entry_view`, like a public one; None
    for an entry the store refuses or a secret roll of the MJ's (``to`` is ``mj``)."""
    if not store_records.record_ok("entry", entry) or entry.get("to") == SECRET_ROLL:
        return None
    view = entry_view(clone(entry))
    return view if store_records.record_ok("entry", view) else None


def _entry(entry: Any, audience: str) -> dict[str, Any]:
    # The store's own check of a log entry: open a table holding only this entry.
    doc = store.new_document("Table", "fr")
    doc["log"] = [entry]
    opened, _, parked = store.open_document(doc)
    if parked:
        problems = opened["quarantine"][0]["problems"]
        raise RulesError("share.invalid", kind="entry", problems=problems[:5])
    checked = opened["log"][0]
    if audience == "player" and "to" in checked:
        # A secret roll, or a result the MJ sent to one player only: never in a player's share.
        raise RulesError("share.private_entry")
    if audience == "mj":
        return checked
    return entry_view(checked)


def _table(document: Any, audience: str) -> dict[str, Any]:
    doc, _, _ = store.open_document(document)
    if audience == "mj":
        return doc
    # Records set apart "à réparer" are raw, unchecked data: they stay on the MJ's device.
    doc.pop("quarantine", None)
    out_chars = []
    for character in doc["characters"]:
        fn = _filters(character["system"]).character
        out_chars.append(fn(character) if fn else character)
    doc["characters"] = out_chars
    out_log = []
    for entry in doc["log"]:
        if "to" in entry:
            continue  # the MJ's secret rolls and what was sent to one player only (its private doc)
        out_log.append(entry_view(entry))
    doc["log"] = out_log
    for sid in list(doc["systems"]):
        fn = _filters(sid).state
        if fn:
            doc["systems"][sid] = fn(doc["systems"][sid])
    # What is shared is still a valid table (a player imports it like a file).
    store.validate_document(doc)
    return doc


# ---------------------------------------------------------------- the live table's projection
#
# The MJ's device publishes ``store.share`` (table, player) of its whole table at every change
# (static/js/live/session.js), and a move changes one system state and adds one log entry:
# opening, filtering and validating the 49 characters and 999 entries that did not change is
# what cost (440-620 ms for 50 characters and 1,000 entries). :func:`table_view` gives the
# same answer as :func:`_table` but checks and filters each record once: a record's view
# depends on that record alone, so it is kept (:data:`_VIEWS`) under the record's JSON text.

#: (kind, system, a record's compact JSON text) -> its player view and that view's JSON
#: length, or :data:`_BAD` when the record or its view fails its check (the whole projection
#: then takes the uncached path, which says why). Holds the records of the last table only.
_VIEWS: dict[tuple[str, str | None, str], Any] = {}
#: id(record) -> (the record, its compact JSON text), for the records of the last table: a table
#: the worker holds (tablee.held) shares every record a move did not replace with the table
#: before it, and a record is never changed in place, so its text is not made again.
_TEXTS: dict[int, tuple[Any, str]] = {}
_BAD = object()
_HIDDEN = object()  # a log entry no player sees (``to``): valid, left out of the view


#: A record's compact JSON text (one encoder for every record: json.dumps builds one per call).
_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _object_size(sizes: dict[str, int]) -> int:
    """Characters of a JSON object's compact text given its values' (its keys' text added)."""
    return 2 + sum(len(_text(k)) + 1 + n for k, n in sizes.items()) + max(0, len(sizes) - 1)


def _array_size(sizes: list[int]) -> int:
    return 2 + sum(sizes) + max(0, len(sizes) - 1)


def _record_view(kind: str, system: str | None, record: Any) -> Any:
    """The player view of one record as :func:`_table` makes it, once the record passed the
    store's check; :data:`_BAD` when the record or its view fails the check (:data:`_HIDDEN`
    for a valid entry only the MJ or one player sees)."""
    if not store_records.record_ok(kind, record, system):
        return _BAD
    data = clone(record)
    if kind == "character":
        fn = _filters(data["system"]).character
    elif kind == "entry":
        if "to" in data:
            return _HIDDEN
        fn = entry_view
    else:
        fn = _filters(system).state if system is not None else None
    view = fn(data) if fn else data
    if not store_records.record_ok(kind, view, system):
        return _BAD
    return view, len(_text(view))


def _fast_view(document: Any) -> dict[str, Any] | None:
    """:func:`_table` for a player from the per-record views, or ``None`` when the table is not
    a plain valid one (anything :func:`store.open_document` would set apart, refuse or change,
    a view over the size limit): the caller then takes the uncached path."""
    if not (isinstance(document, dict) and set(document) == set(store_records.TOP_KEYS)
            and document["app"] == store_shape.APP
            and type(document["schema"]) is int and document["schema"] == store_shape.CURRENT_SCHEMA
            and isinstance(document["characters"], list) and isinstance(document["log"], list)
            and isinstance(document["systems"], dict) and len(document["characters"]) <= store_shape.MAX_CHARACTERS
            and len(document["log"]) <= store_shape.MAX_LOG and store_records.top_fields_ok(document)):
        return None
    used: dict[tuple[str, str | None, str], Any] = {}
    texts: dict[int, tuple[Any, str]] = {}

    def view_of(kind: str, system: str | None, record: Any) -> tuple[Any, int]:
        kept = _TEXTS.get(id(record))
        text = kept[1] if kept is not None and kept[0] is record else _text(record)
        texts[id(record)] = (record, text)
        key = (kind, system, text)
        found = _VIEWS.get(key)
        if found is None:
            found = _record_view(kind, system, record)
        used[key] = found
        return found, len(text)

    sizes: dict[str, int] = {}
    characters, ids, lengths, view_lengths = [], set(), [], []
    for record in document["characters"]:
        view, n = view_of("character", None, record)
        if view is _BAD or record["id"] in ids:
            return None  # a record set apart, or a second record of one id
        ids.add(record["id"])
        characters.append(view[0])
        lengths.append(n)
        view_lengths.append(view[1])
    if len({c["id"] for c in characters}) != len(characters):
        return None  # a view the store would refuse
    sizes["characters"] = _array_size(lengths)
    view_sizes = {"characters": _array_size(view_lengths)}
    log, lengths, view_lengths = [], [], []
    for record in document["log"]:
        view, n = view_of("entry", None, record)
        if view is _BAD:
            return None
        lengths.append(n)
        if view is not _HIDDEN:
            log.append(view[0])
            view_lengths.append(view[1])
    sizes["log"] = _array_size(lengths)
    view_sizes["log"] = _array_size(view_lengths)
    systems: dict[str, Any] = {}
    state_lengths: dict[str, int] = {}
    state_view_lengths: dict[str, int] = {}
    for sid, state in document["systems"].items():
        view, n = view_of("state", sid, state)
        if view is _BAD:
            return None
        systems[sid] = view[0]
        state_lengths[sid] = n
        state_view_lengths[sid] = view[1]
    sizes["systems"] = _object_size(state_lengths)
    view_sizes["systems"] = _object_size(state_view_lengths)
    for key in ("schema", "app", "name", "language", "settings"):
        sizes[key] = view_sizes[key] = len(_text(document[key]))
    # The table and its view within the size limit, measured as store.open_document measures
    # them (their compact JSON text, added up from the records').
    if _object_size({k: sizes[k] for k in document}) > store_shape.MAX_DOCUMENT_SIZE:
        return None
    if _object_size(view_sizes) > store_shape.MAX_DOCUMENT_SIZE:
        return None
    _VIEWS.clear()
    _VIEWS.update(used)
    _TEXTS.clear()
    _TEXTS.update(texts)
    return {"schema": store_shape.CURRENT_SCHEMA, "app": store_shape.APP, "name": document["name"],
            "language": document["language"], "characters": characters, "log": log, "systems": systems,
            "settings": clone(document["settings"])}


#: More records replaced in place than this, and a list's change is sent whole.
_MAX_SET = 20


def list_changes(before: list[Any], after: list[Any]) -> dict[str, Any]:
    """How ``after`` is made from ``before`` (records shared, found by identity): the first
    ``drop`` records go, those at the positions ``set`` are replaced, ``add`` is appended; or
    ``{"all": after}``. Empty when nothing changed."""
    if after is before:
        return {}
    drop = next((i for i, x in enumerate(before) if after and x is after[0]), 0)
    window = before[drop:]
    if len(after) < len(window):
        return {"all": after}
    replaced = {str(i): after[i] for i in range(len(window)) if after[i] is not window[i]}
    if len(replaced) > _MAX_SET:
        return {"all": after}
    out: dict[str, Any] = {}
    if drop:
        out["drop"] = drop
    if replaced:
        out["set"] = replaced
    if len(after) > len(window):
        out["add"] = after[len(window):]
    return out


def container_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """How the three containers of table ``after`` are made from ``before``'s, records shared
    found by identity: the system states replaced (``systems``), the ``characters`` and ``log``
    records dropped, replaced, appended (:func:`list_changes`). ``None`` when a system state
    went (the change is not of that shape)."""
    if any(k not in after["systems"] for k in before["systems"]):
        return None
    out: dict[str, Any] = {}
    systems = {k: v for k, v in after["systems"].items() if before["systems"].get(k) is not v}
    if systems:
        out["systems"] = systems
    for key in ("characters", "log"):
        found = list_changes(before[key], after[key])
        if found:
            out[key] = found
    return out


def apply_changes(document: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """``document`` (a copy, every record it keeps shared) with the changes :func:`view_changes`
    or :func:`container_changes` found (``top`` values set, ``systems`` replaced, ``characters``
    and ``log`` records dropped, replaced, appended). Raises ``request.invalid`` when they do
    not fit ``document`` (a position past its end)."""
    out = {**document, **found.get("top", {}), "systems": {**document["systems"], **found.get("systems", {})}}
    for key in ("characters", "log"):
        change = found.get(key)
        if change is None:
            continue
        if "all" in change:
            out[key] = list(change["all"])
            continue
        items = list(document[key][change.get("drop", 0):])
        for i, record in change.get("set", {}).items():
            if int(i) >= len(items):
                raise RulesError("share.changes_mismatch", path=f"changes.{key}.set.{i}")
            items[int(i)] = record
        out[key] = items + list(change.get("add", []))
    return out


def view_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """``after`` from ``before``, two views of :func:`table_view`'s kept path (a record whose view
    did not change is the same object in both): :func:`container_changes`, and the other
    top-level values that changed (``top``). ``None`` when the views differ otherwise."""
    if set(before) != set(after):
        return None
    out = container_changes(before, after)
    if out is None:
        return None
    top = {k: after[k] for k in after
           if k not in ("systems", "characters", "log") and _text(after[k]) != _text(before[k])}
    return {"top": top, **out} if top else out


#: The last view the live table's projection answered (``since``: its changes are answered
#: against it) and its id, a random one (a worker started again knows none of the page's).
_LAST: dict[str, Any] = {"id": None, "view": None}


def table_view(document: Any) -> dict[str, Any]:
    """``share("table", document, "player")``, the same answer, computed from each record's
    view kept from the last call (a record whose JSON text did not change is neither checked
    nor filtered again). For a document read from JSON text only (its values are JSON's own
    types: a tuple or a number key would have the text of a list or a string key), and the
    answer is for JSON text too: its records are the kept views, never to be changed in place."""
    fast = _fast_view(document)
    return fast if fast is not None else _table(document, "player")


def kept_view(view_id: Any) -> dict[str, Any] | None:
    """The public view :func:`project` answered last, when ``view_id`` names it (else None):
    what a caller compares the next projection with."""
    return _LAST["view"] if view_id is not None and view_id == _LAST["id"] else None


def state_view(system: str, state: dict[str, Any]) -> dict[str, Any]:
    """``system``'s table ``state`` as any player sees it (a copy: the system's player view of
    its state, or the whole state when the system hides nothing in it). ``state`` is valid."""
    fn = _filters(system).state
    return fn(clone(state)) if fn else clone(state)


def project(document: Any, since: Any) -> dict[str, Any]:
    """The live table's projection of ``document`` (the MJ's table, read from JSON text) for the
    public doc: ``{"view": id, "changes": ...}`` when ``since`` names this worker's last view and
    both views came from the kept records (:func:`view_changes`), else ``{"view": id, "data":
    view}`` (no ``view`` when the table is off the kept path). Raises what :func:`share` raises."""
    before = _LAST["view"] if since is not None and since == _LAST["id"] else None
    fast = _fast_view(document)
    if fast is None:
        _LAST.update(id=None, view=None)
        return {"data": _table(document, "player")}
    _LAST.update(id=secrets.token_hex(8), view=fast)
    found = view_changes(before, fast) if before is not None else None
    body = {"changes": found} if found is not None else {"data": fast}
    return {"view": _LAST["id"], **body}


def share(kind: str, data: Any, audience: str) -> dict[str, Any]:
    """The data a link of ``kind`` may carry for ``audience``, validated (see the module doc)."""
    if kind == "character":
        return _character(data, audience)
    if kind == "entry":
        return _entry(data, audience)
    return _table(data, audience)


#: A list's changes (:func:`list_changes`): its JSON form, as the page sends it.
_LIST_CHANGES = {
    "type": "object",
    "properties": {"all": {"type": "array"}, "drop": {"type": "integer", "minimum": 0},
                   "set": {"type": "object", "patternProperties": {"^(0|[1-9][0-9]{0,5})$": {}},
                           "additionalProperties": False},
                   "add": {"type": "array"}},
    "additionalProperties": False,
}
#: A table's changes (:func:`view_changes`), as the MJ's page sends them against the table the
#: worker holds.
TABLE_CHANGES = {
    "type": "object",
    "properties": {"top": {"type": "object"}, "systems": {"type": "object"},
                   "characters": _LIST_CHANGES, "log": _LIST_CHANGES},
    "additionalProperties": False,
}


@op(
    "store.share",
    properties={"kind": {"enum": list(KINDS)}, "data": {}, "audience": {"enum": list(AUDIENCES)},
                "since": {"type": ["string", "null"], "maxLength": 64}, "hold": {"type": "boolean"},
                "held": {"type": "string", "minLength": 1, "maxLength": 64}, "changes": TABLE_CHANGES},
    required=("kind", "audience"),
    summary="What a share link may carry: a character, a roll or a table, validated, "
    "every system's secrets removed for a player.",
)
def _share(request: dict[str, Any]) -> dict[str, Any]:
    """A table for a player read from JSON text is :func:`table_view`. With ``since`` (the live
    table's projection, at every change: null, or the ``view`` id of its last answer) the answer
    names its view (``view``) and holds, when ``since`` is this worker's last view and both came
    from the kept records, that view's changes (:func:`view_changes`) instead of ``data``: one
    new log entry is one record to send back, not the table (:func:`project`). With ``hold``
    the worker keeps the table (:mod:`tablee.held`) and answers its revision (``rev``): the
    referee's next move names it instead of sending the table again. The projection may name
    that revision (``held``) and send the table's ``changes`` since it instead of ``data``: an
    MJ's one-field edit is then one record to send, and every record it kept is the held one
    (its view found by identity); another revision than the one held is answered ``{"stale":
    true}``, and the page sends its table whole."""
    kind, audience = request["kind"], request["audience"]
    if "held" in request:
        if not (kind == "table" and audience == "player" and "since" in request and from_json()):
            raise RulesError("share.no_table")  # (a held table is the live projection's only)
        table = held.table(request["held"])
        if table is None:
            return {"stale": True}
        data = apply_changes(table, request.get("changes", {}))
    elif "data" in request:
        data = request["data"]
    else:
        raise RulesError("share.no_table")
    if not (kind == "table" and audience == "player" and from_json()):
        return {"kind": kind, "audience": audience, "data": share(kind, data, audience)}
    if "since" not in request:
        return {"kind": kind, "audience": audience, "data": table_view(data)}
    out = {"kind": kind, "audience": audience, **project(data, request["since"])}
    if request.get("hold") and isinstance(data, dict):
        out["rev"] = held.hold(data)
    return out


@op(
    "store.open_share",
    properties={"document": {}, "audience": {"enum": [*AUDIENCES, None]}, "seed": SEED_SCHEMA},
    required=("document", "audience", "seed"),
    summary="Open a table a share link brought: store.open, then a player's copy has its hidden "
    "piles shuffled from the seed (their order was the MJ's secret).",
)
def _open_share(request: dict[str, Any]) -> dict[str, Any]:
    """:func:`store.open_document`, then :func:`deal_hidden` for a player's copy (``audience``
    ``player``) or a link that does not say whose copy it is (``null``: only piles in the
    canonical order). ``shuffled`` counts the piles dealt again; an MJ's copy keeps its order."""
    doc, migrated_from, quarantined = store.open_document(request["document"])
    shuffled = 0
    if request["audience"] != "mj":
        doc, shuffled = deal_hidden(doc, rng_from(request), sorted_only=request["audience"] is None)
        store.validate_document(doc)
    return {"document": doc, "migrated_from": migrated_from, "quarantined": quarantined, "shuffled": shuffled}


#: The mark of a link packed with :data:`DICTIONARY_1` (a base64url payload never holds a dot).
PACKED_1 = "d1."


def pack_link(kind: str, data: Any, audience: str) -> str:
    """The fragment payload of a share link: the envelope (static/js/share/codec.js: ``{app,
    kind, v: 1, audience, data}``, ``audience`` for a table only) as compact JSON, deflated
    (raw) with the preset dictionary :data:`DICTIONARY_1`, in base64url, after :data:`PACKED_1`.

    The browser's CompressionStream has no dictionary: a player's copy of a table with nothing
    in it but Théorem's 78-card deck took 1,109 bytes (a 1,514-character link, past what a QR
    code read across a table holds); against a fresh table's text it takes about 90. The page
    reads it without the engine (codec.js inflates a stored block of the dictionary, then the
    link's bytes). An older link, plain deflate-raw, has no mark and still opens."""
    mark = {"audience": audience} if kind == "table" else {}
    envelope = {"app": "tablee", "kind": kind, "v": 1, **mark, "data": data}
    text = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_1.encode())
    packed = packer.compress(text.encode()) + packer.flush()
    return PACKED_1 + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@op(
    "store.share_link",
    properties={"kind": {"enum": list(KINDS)}, "data": {}, "audience": {"enum": list(AUDIENCES)}},
    required=("kind", "data", "audience"),
    summary="A share link's payload: store.share's data, packed against the links' preset dictionary.",
)
def _share_link(request: dict[str, Any]) -> dict[str, Any]:
    """:func:`share`, then :func:`pack_link`: the page's link (``payload``) and what it holds."""
    kind, audience = request["kind"], request["audience"]
    data = share(kind, request["data"], audience)
    return {"kind": kind, "audience": audience, "data": data, "payload": pack_link(kind, data, audience)}

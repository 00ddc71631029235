"""What a share link may carry: a character, a roll (a log entry) or a whole table, with the
hidden information of every system taken out for a player's share.

Issue 13 ("Between devices"): "The MJ screen (hidden information) sits behind an explicit
switch and never travels in a player's share." A share is validated first, exactly as an
import is (``store.open`` for a table, ``store.check_character`` for a character, the
store's log-entry check for a roll), then, for the ``player`` audience, passed through the
share filter each system registers here (:func:`register_share_filter`), the way systems
register their store validators. The result is still valid data (a player imports it like a
file): secrets are removed or reset to their neutral value, never replaced by placeholders
the store would refuse.

Fail closed: a player's share of data from a system with no registered filter is refused
(``share.no_filter``), so a new system cannot leak by being forgotten here.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import store
from .errors import RulesError, declare
from .registry import SYSTEM_IDS, op

__all__ = [
    "AUDIENCES",
    "KINDS",
    "SECRET_ROLL",
    "SHARE_FILTERS",
    "ShareFilter",
    "conceal_cards",
    "register_share_filter",
    "scrub",
    "share",
]

declare("share.no_filter", "share.invalid", "share.private_entry")

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


def _filters(system: str) -> ShareFilter:
    if system not in SHARE_FILTERS and system in SYSTEM_IDS:
        # Systems may be imported lazily: importing the package registers its filters.
        importlib.import_module(f"{__package__}.systems.{system}")
    found = SHARE_FILTERS.get(system)
    if found is None:
        raise RulesError("share.no_filter", system=system)
    return found


def scrub(value: Any, keys: frozenset[str]) -> Any:
    """``value`` with every object key in ``keys`` removed, at any depth (iterative: the data
    has passed the store's depth limit, but a stack is cheaper than recursion in Pyodide)."""
    out = copy.deepcopy(value)
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
    out = copy.deepcopy(state)
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


def _character(character: dict[str, Any], audience: str) -> dict[str, Any]:
    problems = store.check_character(character)
    if problems:
        raise RulesError("share.invalid", kind="character", problems=[p.to_json() for p in problems[:5]])
    if audience == "mj":
        return copy.deepcopy(character)
    fn = _filters(character["system"]).character
    return fn(copy.deepcopy(character)) if fn else copy.deepcopy(character)


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
    if audience == "mj" or checked["system"] is None:
        return checked
    fn = _filters(checked["system"]).log_entry
    return fn(checked) if fn else checked


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
        fn = _filters(entry["system"]).log_entry if entry["system"] is not None else None
        out_log.append(fn(entry) if fn else entry)
    doc["log"] = out_log
    for sid in list(doc["systems"]):
        fn = _filters(sid).state
        if fn:
            doc["systems"][sid] = fn(doc["systems"][sid])
    # What is shared is still a valid table (a player imports it like a file).
    store.validate_document(doc)
    return doc


def share(kind: str, data: Any, audience: str) -> dict[str, Any]:
    """The data a link of ``kind`` may carry for ``audience``, validated (see the module doc)."""
    if kind == "character":
        return _character(data, audience)
    if kind == "entry":
        return _entry(data, audience)
    return _table(data, audience)


@op(
    "store.share",
    properties={"kind": {"enum": list(KINDS)}, "data": {}, "audience": {"enum": list(AUDIENCES)}},
    required=("kind", "data", "audience"),
    summary="What a share link may carry: a character, a roll or a table, validated, "
    "every system's secrets removed for a player.",
)
def _share(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": request["kind"],
        "audience": request["audience"],
        "data": share(request["kind"], request["data"], request["audience"]),
    }

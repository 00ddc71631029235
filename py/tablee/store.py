"""The table document: schema, validation, migrations, and the ``store.*`` ops.

Current layout (schema 1)::

    {"schema": 1, "app": "tablee", "name": str (1..80), "language": "fr" | "en",
     "characters": [ {"id": str (1..64), "system": <system id>, "name": str (1..80), ...} ],
     "log": [ {"id": str (1..64), "at": str (ISO-8601 written by the browser, <= 40),
               "kind": str (1..64, e.g. "roll", "unicreon.test"), "system": <system id> | null,
               "who": str (<= 80, optional), "label": str (<= 200),
               "request": object, "result": object,
               "to": str (1..64, optional: "mj" a secret roll, else the live member it was sent to),
               "member": {"id": str (1..64), "name": str (1..80)} (optional: the live member the
                         referee wrote it for, py/tablee/referee_kernel.py),
               "label_words", "summary_words": [text | [key] | [key, {name: text}]] (optional,
                         <= 24: how the label and result line were worded, _check_words),
               "words_lang": "fr" | "en" (optional: the language they were worded in)} ],
     "systems": { <system id>: {...that system's table state...} },
     "settings": {...free JSON object...}}

Every key above is required (``who``, ``to``, ``member`` and the words excepted) and no other key is allowed, at the top
level and in log entries. Characters only need ``id``/``system``/``name`` here; the
system checks the rest (its :class:`tablee.system.StoreHooks`, installed in
:mod:`tablee.store_records`). Same for ``systems[<id>]``. Systems plug their own checks in
with these two hooks, so an imported file is validated down to each character before it
can touch saved data.

Bounds: at most :data:`MAX_LOG` log entries (the browser trims the oldest), at most
:data:`MAX_CHARACTERS` characters, character ids unique, each log ``request``/``result``
at most :data:`MAX_ENTRY_SIZE` characters of JSON, the whole document at most
:data:`MAX_DOCUMENT_SIZE` characters of JSON (``store.too_large``) and
:data:`MAX_DEPTH` levels of nesting.

Schema 0 is the pre-release layout some browsers may still hold (no ``schema`` and no
``app`` key)::

    {"title": str (1..80), "lang": "fr" | "en",
     "rolls": [ {"expr": str (<= 200), "total": int, "dice": [int, ...] (<= 100), "time": str (<= 40)} ]}

Migration 0 -> 1: ``title`` -> ``name``, ``lang`` -> ``language``, no characters, no
system state, empty settings; roll ``i`` becomes the log entry
``{"id": "v0-<i>", "at": time, "kind": "roll", "system": null, "label": expr,
"request": {"op": "roll", "expr": expr}, "result": {"expr": expr, "total": total, "dice": dice}}``
(schema 0 kept no seed nor terms, so the result keeps only what there was); only the
last :data:`MAX_LOG` rolls are kept. Migrations are a chain ``MIGRATIONS[v]: doc_v -> doc_v+1``.

Loading never mutates its input and returns new dicts. Errors: ``store.not_object``,
``store.foreign``, ``store.newer`` {found, supported}, ``store.too_large`` {size, max},
``store.invalid`` {path, reason[, expected | max | problem]} for the first problem found:
``path`` is dotted (``characters.2.name``; ``""`` is the whole document) and ``reason`` one
of :data:`REASONS` or, when a system validator objects, that problem's code (the problem
itself is in ``problem``).

This module loads, opens, migrates and answers the ``store.*`` ops; the bounds and the
primitive checks live in :mod:`tablee.store_shape`, each record's check and the systems' hooks
in :mod:`tablee.store_records`. Every public name of both is importable from here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import answers, store_records
from .errors import RulesError, declare
from .registry import SYSTEM_IDS, op
from .store_records import (
    _TOP_KEYS,
    CHARACTER_SCHEMAS,
    STATE_SCHEMAS,
    _check_log_entry,
    _check_one_character,
    _check_quarantine_item,
    _check_settings,
    _check_state,
    _validate_v1,
    check_character,
)
from .store_shape import (
    APP,
    CURRENT_SCHEMA,
    LANGUAGES,
    MAX_CHARACTERS,
    MAX_DEPTH,
    MAX_DOCUMENT_SIZE,
    MAX_ENTRY_SIZE,
    MAX_ID,
    MAX_LOG,
    MAX_NAME,
    MAX_QUARANTINE,
    MAX_READ_DEPTH,
    _enum,
    _exact_size,
    _Invalid,
    _join,
    _json_size,
    _keys,
    _list,
    _need,
    _text,
    _within_depth,
)
from .tree import clone

__all__ = [
    "MIGRATIONS",
    "limits",
    "load_document",
    "new_document",
    "open_document",
    "validate_document",
]

declare(
    "store.not_object",
    "store.foreign",
    "store.newer",
    "store.invalid",
    "store.too_large",
    "store.char.not_object",
    "store.char.id",
    "store.char.reserved_id",
    "store.char.system",
    "store.char.name",
    "store.char.rejected",
)


# ---------------------------------------------------------------- schema 0 and migrations


def _looks_like_v0(doc: dict[str, Any]) -> bool:
    unversioned = "schema" not in doc and "app" not in doc
    return unversioned and "rolls" in doc and set(doc) <= {"title", "lang", "rolls"}


def _validate_v0(doc: dict[str, Any]) -> None:
    _keys(doc, "", ("title", "lang", "rolls"))
    _text(doc["title"], "title", 80)
    _enum(doc["lang"], "lang", LANGUAGES)
    for i, roll in enumerate(_list(doc["rolls"], "rolls", 100_000)):
        path = _join("rolls", i)
        _need(roll, dict, path)
        _keys(roll, path, ("expr", "total", "dice", "time"))
        _text(roll["expr"], _join(path, "expr"), 200)
        _need(roll["total"], int, _join(path, "total"))
        for j, die in enumerate(_list(roll["dice"], _join(path, "dice"), 100)):
            _need(die, int, _join(_join(path, "dice"), j))
        _text(roll["time"], _join(path, "time"), 40)


def _migrate_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 0 (pre-release: title, lang, rolls) -> schema 1. See the module docstring."""
    log = [
        {
            "id": f"v0-{i}",
            "at": roll["time"],
            "kind": "roll",
            "system": None,
            "label": roll["expr"],
            "request": {"op": "roll", "expr": roll["expr"]},
            "result": {"expr": roll["expr"], "total": roll["total"], "dice": list(roll["dice"])},
        }
        for i, roll in enumerate(doc["rolls"])
    ]
    return {
        "schema": 1,
        "app": APP,
        "name": doc["title"],
        "language": doc["lang"],
        "characters": [],
        "log": log[-MAX_LOG:],
        "systems": {},
        "settings": {},
    }


#: version v -> function turning a valid schema-v document into a schema-(v+1) one
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_0_to_1}
#: version v -> structural check of a schema-v document (raises ``_Invalid``)
_VALIDATORS: dict[int, Callable[[dict[str, Any]], None]] = {0: _validate_v0, 1: _validate_v1}


# ---------------------------------------------------------------- public functions


def new_document(name: str, language: str) -> dict[str, Any]:
    """A fresh, empty, valid table document."""
    doc = {
        "schema": CURRENT_SCHEMA,
        "app": APP,
        "name": name,
        "language": language,
        "characters": [],
        "log": [],
        "systems": {},
        "settings": {},
    }
    validate_document(doc)
    return doc


def _version(doc: dict[str, Any]) -> int:
    if doc.get("app") != APP:
        if _looks_like_v0(doc):
            return 0
        raise RulesError("store.foreign")
    if "schema" not in doc:
        raise _Invalid("schema", "missing")
    version = doc["schema"]
    _need(version, int, "schema")
    if version > CURRENT_SCHEMA:
        raise RulesError("store.newer", found=version, supported=CURRENT_SCHEMA)
    if version < 1:
        raise _Invalid("schema", "enum", expected=list(range(1, CURRENT_SCHEMA + 1)))
    return version


def _document_size(value: Any, *, depth_limit: int = MAX_DEPTH) -> int:
    """The document's size in characters of compact JSON, refused above MAX_DOCUMENT_SIZE.

    The cheap estimate of :func:`_json_size` decides when it is clearly under; near or above
    the limit the exact length of the compact JSON text decides, so a table the browser saved
    (it measures ``JSON.stringify(doc).length``, never less than this) is never refused here.
    """
    size = _json_size(value, "", limit=MAX_DOCUMENT_SIZE, depth_limit=depth_limit)
    if size <= MAX_DOCUMENT_SIZE:
        return size
    exact = _exact_size(value, size)
    if exact > MAX_DOCUMENT_SIZE:
        raise RulesError("store.too_large", size=exact, max=MAX_DOCUMENT_SIZE)
    _json_size(value, "", limit=10 * MAX_DOCUMENT_SIZE, depth_limit=depth_limit)  # depth, non-JSON, in full
    return exact


def load_document(value: Any) -> tuple[dict[str, Any], int | None]:
    """Validate an untrusted value and migrate it to the current schema.

    Returns ``(document, migrated_from)`` where ``migrated_from`` is the schema the value
    was in, or ``None`` when it was already current. Raises :class:`RulesError` (``store.*``).
    Strict: the first problem anywhere refuses the whole value (see :func:`open_document`
    for the loader that keeps every valid part).
    """
    try:
        _document_size(value)
        if not isinstance(value, dict):
            raise RulesError("store.not_object")
        version = _version(value)
        doc = clone(value)
        _VALIDATORS[version](doc)
        start = version
        while version < CURRENT_SCHEMA:
            doc = MIGRATIONS[version](doc)
            version += 1
            _VALIDATORS[version](doc)
    except _Invalid as exc:
        raise exc.error() from None
    return doc, (start if start != CURRENT_SCHEMA else None)


_MISSING = object()


def _invalid_json(exc: _Invalid) -> dict[str, Any]:
    params = {"path": exc.path, "reason": exc.reason, **exc.params}
    return {"field": exc.path, "code": "store.invalid", "message_key": "error.store.invalid", "params": params}


def _deep_text(value: Any) -> str:
    """A record set apart for nesting too deep, as its compact JSON text (NaN and the like
    written as JavaScript would read them back: the text is for a person to repair)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):
        return repr(value)[:MAX_DOCUMENT_SIZE]


def _salvage_v1(doc: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A valid schema-1 document from a readable one: every part that passes its check is
    kept in place, every part that does not goes to ``quarantine`` with its problems."""
    parked: list[dict[str, Any]] = []
    kept_quarantine: list[dict[str, Any]] = []

    def park(kind: str, path: str, exc: _Invalid, data: Any) -> None:
        try:
            _within_depth(data, path, 3)  # at quarantine.<i>.data
        except _Invalid as deep:
            if deep.reason == "too_deep":
                data = _deep_text(data)  # kept whole, as its JSON text: the table stays within MAX_DEPTH
        parked.append({"kind": kind, "path": path[:200], "problems": [_invalid_json(exc)], "data": data})

    def field(key: str, check: Callable[[Any], None], default: Any) -> Any:
        value = doc.get(key, _MISSING)
        if value is _MISSING:
            return default
        try:
            check(value)
        except _Invalid as exc:
            park("field", key, exc, value)
            return default
        return value

    out: dict[str, Any] = {"schema": CURRENT_SCHEMA, "app": APP}
    out["name"] = field("name", lambda v: _text(v, "name", MAX_NAME), "Table")
    out["language"] = field("language", lambda v: _enum(v, "language", LANGUAGES), "fr")

    characters = field("characters", lambda v: _need(v, list, "characters"), [])
    out["characters"] = []
    seen: set[str] = set()
    for i, character in enumerate(characters):
        path = _join("characters", i)
        try:
            if len(out["characters"]) >= MAX_CHARACTERS:
                raise _Invalid("characters", "too_many", max=MAX_CHARACTERS)
            _check_one_character(character, path, seen)
        except _Invalid as exc:
            park("character", path, exc, character)
            continue
        seen.add(character["id"])
        out["characters"].append(character)

    log = field("log", lambda v: _need(v, list, "log"), [])
    good: list[dict[str, Any]] = []
    for i, entry in enumerate(log):
        path = _join("log", i)
        try:
            _check_log_entry(entry, path)
        except _Invalid as exc:
            park("log", path, exc, entry)
            continue
        good.append(entry)
    out["log"] = good[-MAX_LOG:]  # the log is a rolling window: the oldest go first, by design

    systems = field("systems", lambda v: _need(v, dict, "systems"), {})
    out["systems"] = {}
    for sid, state in systems.items():
        path = _join("systems", sid)
        try:
            _check_state(sid, state, path)
        except _Invalid as exc:
            park("system", path, exc, state)
            continue
        out["systems"][sid] = state

    out["settings"] = field("settings", _check_settings, {})
    for key in doc:
        if key not in _TOP_KEYS and key != "quarantine":
            park("field", key, _Invalid(key, "unknown_key"), doc[key])

    for i, item in enumerate(field("quarantine", lambda v: _need(v, list, "quarantine"), [])):
        path = _join("quarantine", i)
        try:
            _check_quarantine_item(item, path)
        except _Invalid as exc:
            park("field", path, exc, item)
            continue
        kept_quarantine.append(item)

    quarantine = kept_quarantine + parked
    if len(quarantine) > MAX_QUARANTINE:
        raise _Invalid("quarantine", "too_many", max=MAX_QUARANTINE)
    if quarantine:
        out["quarantine"] = quarantine
    return out, len(parked)


def open_document(value: Any) -> tuple[dict[str, Any], int | None, int]:
    """The loader the browser uses: :func:`load_document`, but a bad part never hides the table.

    Returns ``(document, migrated_from, quarantined)``. A value that cannot be read as a table
    at all (not an object, another app's, a newer or unknown schema, too large, nested past
    :data:`MAX_READ_DEPTH`, an invalid schema-0 layout) raises like :func:`load_document`.
    Nesting past :data:`MAX_DEPTH` is the fault of the record that holds it: that record is set
    apart like any other, its data kept whole as its compact JSON text. Otherwise every character, log
    entry, system state and top-level field that fails its check is moved, untouched, into
    ``document["quarantine"]`` as ``{"kind", "path", "problems", "data"}`` ("à réparer" in the
    page) and the rest is kept; a wrong name or language falls back to "Table" / "fr" (the
    original kept in quarantine). ``quarantined`` counts the items this call moved. The result
    is a valid current document, and opening it again changes nothing.
    """
    try:
        _document_size(value, depth_limit=MAX_READ_DEPTH)
        if not isinstance(value, dict):
            raise RulesError("store.not_object")
        version = _version(value)
        doc = clone(value)
        parked = 0
        if version == CURRENT_SCHEMA:
            doc, parked = _salvage_v1(doc)
        else:
            _VALIDATORS[version](doc)
        start = version
        while version < CURRENT_SCHEMA:
            doc = MIGRATIONS[version](doc)
            version += 1
        _VALIDATORS[CURRENT_SCHEMA](doc)
        _document_size(doc)
    except _Invalid as exc:
        raise exc.error() from None
    return doc, (start if start != CURRENT_SCHEMA else None), parked


def limits() -> dict[str, Any]:
    """Every limit of the table document, for the page's forms and its pre-save check.

    The systems' schemas need every system imported: the worker reads the answer the set-up
    computed (:mod:`tablee.answers`); a source checkout computes it live.
    """
    return answers.precomputed("store.limits") or limits_live()


def limits_live() -> dict[str, Any]:
    """:func:`limits` computed now, every system's store hooks plugged in."""
    for system in SYSTEM_IDS:
        store_records.plug(system)
    return {
        "document_size": MAX_DOCUMENT_SIZE,
        "depth": MAX_DEPTH,
        "name": MAX_NAME,
        "id": MAX_ID,
        "characters": MAX_CHARACTERS,
        "log": MAX_LOG,
        "log_entry_size": MAX_ENTRY_SIZE,
        "quarantine": MAX_QUARANTINE,
        "character_schemas": clone(CHARACTER_SCHEMAS),
        "state_schemas": clone(STATE_SCHEMAS),
    }


def validate_document(doc: Any) -> None:
    """Raise :class:`RulesError` unless ``doc`` is a valid CURRENT-schema document."""
    _, migrated_from = load_document(doc)
    if migrated_from is not None:
        raise RulesError("store.invalid", path="schema", reason="enum", expected=[CURRENT_SCHEMA])


# ---------------------------------------------------------------- ops

_NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 80}


@op(
    "store.new",
    properties={"name": _NAME_SCHEMA, "language": {"enum": list(LANGUAGES)}},
    required=("name", "language"),
    summary="A fresh, empty table document.",
)
def _new(request: dict[str, Any]) -> dict[str, Any]:
    return {"document": new_document(request["name"], request["language"])}


@op(
    "store.load",
    properties={"document": {}},
    required=("document",),
    summary="Validate an untrusted table document (an imported file) and migrate it to the current schema.",
)
def _load(request: dict[str, Any]) -> dict[str, Any]:
    doc, migrated_from = load_document(request["document"])
    return {"document": doc, "migrated_from": migrated_from}


@op(
    "store.open",
    properties={"document": {}},
    required=("document",),
    summary="Open a saved or imported table: keep every valid part, put each invalid record in quarantine.",
)
def _open(request: dict[str, Any]) -> dict[str, Any]:
    doc, migrated_from, quarantined = open_document(request["document"])
    return {"document": doc, "migrated_from": migrated_from, "quarantined": quarantined}


@op("store.limits", summary="The table document's limits (lengths, counts, sizes) and the systems' published schemas.")
def _limits(request: dict[str, Any]) -> dict[str, Any]:
    return limits()


@op(
    "store.check_character",
    properties={"character": {"type": "object"}},
    required=("character",),
    summary="Check one character (an import) with the kernel's and its system's validators.",
)
def _check_character(request: dict[str, Any]) -> dict[str, Any]:
    problems = check_character(request["character"])
    return {"ok": not problems, "problems": [p.to_json() for p in problems]}

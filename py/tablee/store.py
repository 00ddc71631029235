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
system checks the rest through :func:`register_character_validator`. Same for
``systems[<id>]`` with :func:`register_state_validator`. Systems plug their own checks in
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
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from . import answers
from .errors import Problem, RulesError, declare
from .registry import SYSTEM_IDS, guard_state, op
from .systems import load as load_system
from .systems import load_all as load_all_systems
from .tree import clone

__all__ = [
    "CHARACTER_VALIDATORS",
    "CURRENT_SCHEMA",
    "MAX_CHARACTERS",
    "MAX_DEPTH",
    "MAX_DOCUMENT_SIZE",
    "MAX_ENTRY_SIZE",
    "MAX_LOG",
    "MIGRATIONS",
    "REASONS",
    "RESERVED_ID_PREFIX",
    "STATE_VALIDATORS",
    "check_character",
    "limits",
    "load_document",
    "new_document",
    "open_document",
    "register_character_validator",
    "register_state_validator",
    "reserved_id",
    "validate_document",
]

CURRENT_SCHEMA = 1
APP = "tablee"
LANGUAGES = ("fr", "en")
MAX_LOG = 1000
MAX_CHARACTERS = 200
MAX_ENTRY_SIZE = 20_000
MAX_DOCUMENT_SIZE = 2_000_000
MAX_DEPTH = 32
#: The deepest value :func:`open_document` reads at all (deeper is refused whole: copying and
#: writing it would need a deeper stack than Pyodide's). Between MAX_DEPTH and this, the record
#: too deep is set apart and the rest opens. The page never sends more (engine.js refuses
#: requests past 64 levels, and app.js sets a deeper record apart itself first).
MAX_READ_DEPTH = 200
MAX_NAME = 80
MAX_ID = 64
MAX_QUARANTINE = 2000
MAX_PROBLEMS = 20
QUARANTINE_KINDS = ("character", "log", "system", "field")

#: Why ``store.invalid`` rejected a path (when no system validator did).
REASONS = (
    "missing",  # a required key is absent
    "unknown_key",  # a key the schema does not know
    "type",  # wrong JSON type; params.expected names the right one
    "empty",  # an empty string where text is required
    "too_long",  # a string longer than params.max
    "too_many",  # a list longer than params.max
    "too_large",  # a log request/result above params.max characters of JSON
    "too_deep",  # nesting deeper than params.max
    "not_json",  # a value JSON cannot hold (NaN, non-string key, ...)
    "enum",  # not one of the allowed values (params.expected)
    "unknown_system",  # not one of the five system ids
    "duplicate",  # a character id used twice
    "reserved_id",  # a character id the app keeps for itself (RESERVED_ID_PREFIX)
    "rejected",  # a system validator failed on this data
)

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

#: system id -> fn(character dict) -> problems (empty list when the character is valid)
CHARACTER_VALIDATORS: dict[str, Callable[[dict[str, Any]], list[Problem]]] = {}
#: system id -> fn(state dict under document["systems"][id]) -> problems
STATE_VALIDATORS: dict[str, Callable[[dict[str, Any]], list[Problem]]] = {}


#: system id -> the JSON Schema of its characters, when the system publishes it (the browser
#: reads its lengths and counts from ``store.limits`` for its forms and its pre-save check)
CHARACTER_SCHEMAS: dict[str, dict[str, Any]] = {}
#: system id -> the JSON Schema of its table state, when published
STATE_SCHEMAS: dict[str, dict[str, Any]] = {}


def register_character_validator(
    system: str, fn: Callable[[dict[str, Any]], list[Problem]], *, schema: dict[str, Any] | None = None
) -> None:
    """Plug a system's character check into the store. ``schema`` (optional) is the JSON
    Schema the check starts with; when given, ``store.limits`` publishes it so the page's forms
    and pre-save check use the very same limits (one definition of valid)."""
    CHARACTER_VALIDATORS[system] = fn
    if schema is not None:
        CHARACTER_SCHEMAS[system] = schema


def register_state_validator(
    system: str,
    fn: Callable[[dict[str, Any]], list[Problem]],
    *,
    schema: dict[str, Any] | None = None,
    require: Callable[[Any], Any] | None = None,
) -> None:
    """Same as :func:`register_character_validator` for ``document["systems"][system]``.

    ``require`` (with ``schema``) raises the system's own error for a state that breaks it:
    every op whose request declares a property with ``schema`` then has that state checked
    before it runs (:func:`tablee.registry.guard_state`)."""
    STATE_VALIDATORS[system] = fn
    if schema is not None:
        STATE_SCHEMAS[system] = schema
        if require is not None:
            guard_state(schema, require)


# ---------------------------------------------------------------- helpers


class _Invalid(Exception):
    def __init__(self, path: str, reason: str, **params: Any) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason
        self.params = params

    def error(self) -> RulesError:
        return RulesError("store.invalid", path=self.path, reason=self.reason, **self.params)


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _json_size(value: Any, path: str, *, limit: int, depth_limit: int = MAX_DEPTH) -> int:
    """Characters ``value`` takes as JSON (an upper estimate), stopping once above ``limit``.

    Iterative, so no untrusted nesting can blow the stack; raises :class:`_Invalid` for
    nesting deeper than ``depth_limit`` and for values JSON cannot hold. It walks every value
    of every table the app opens, saves or shares, so only containers go on the walk's stack:
    a container's leaves, nearly all of a table, cost a type test and an addition where the
    container is read, and a path is only written out for a fault.
    """
    if not isinstance(value, (dict, list)):
        return _leaf_size(value, path)
    size = 0
    # Containers still to read: (container, where, depth). ``where`` is the path itself for
    # ``value`` and ``(parent's where, key)`` below it, written out by _path only for a fault.
    stack: list[tuple[Any, Any, int]] = [(value, path, 0)]
    push = stack.append
    while stack and size <= limit:
        item, where, depth = stack.pop()
        if depth >= depth_limit:
            raise _Invalid(_path(where), "too_deep", max=depth_limit)
        below = depth + 1
        if isinstance(item, dict):
            size += 2 + 4 * len(item)
            for k in item:
                if type(k) is not str and not isinstance(k, str):
                    raise _Invalid(_path(where), "not_json")
                size += len(k)
            children = item.items()
        else:
            size += 2 + len(item)
            children = enumerate(item)
        for k, v in children:
            t = type(v)
            if t is str:
                size += len(v) + 2
            elif t is int:
                size += v.bit_length() // 3 + 2
            elif t is bool or v is None:
                size += 5
            elif t is dict or t is list or isinstance(v, (dict, list)):
                push((v, (where, k), below))
            else:
                size += _leaf_size(v, (where, k))
    return size


def _path(where: Any) -> str:
    """The path a :func:`_json_size` ``where`` stands for: ``(parent's where, key)`` pairs
    down from the path it was given."""
    keys: list[str | int] = []
    while isinstance(where, tuple):
        where, key = where
        keys.append(key)
    for key in reversed(keys):
        where = _join(where, key)
    return where


def _leaf_size(value: Any, where: Any) -> int:
    """:func:`_json_size` of a value that is not a container; ``not_json`` for anything JSON
    cannot hold (NaN, infinities, any other type)."""
    if isinstance(value, str):
        return len(value) + 2
    if value is None or isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return value.bit_length() // 3 + 2
    if isinstance(value, float) and math.isfinite(value):
        return 24
    raise _Invalid(_path(where), "not_json")


_TYPE_NAMES = {dict: "object", list: "array", str: "string", int: "integer"}


def _need(value: Any, kind: type, path: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Invalid(path, "type", expected=_TYPE_NAMES[kind])


def _text(value: Any, path: str, max_len: int, *, min_len: int = 1) -> None:
    _need(value, str, path)
    if len(value) < min_len:
        raise _Invalid(path, "empty")
    if len(value) > max_len:
        raise _Invalid(path, "too_long", max=max_len)


def _keys(obj: dict[str, Any], path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    for key in required:
        if key not in obj:
            raise _Invalid(_join(path, key), "missing")
    allowed = set(required) | set(optional)
    for key in obj:
        if key not in allowed:
            raise _Invalid(_join(path, key), "unknown_key")


def _list(value: Any, path: str, max_items: int) -> list[Any]:
    _need(value, list, path)
    if len(value) > max_items:
        raise _Invalid(path, "too_many", max=max_items)
    return value


def _enum(value: Any, path: str, allowed: tuple[Any, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise _Invalid(path, "enum", expected=list(allowed))


def _run_hook(fn: Callable[[dict[str, Any]], list[Problem]], data: dict[str, Any]) -> list[Problem]:
    """Run a system validator on a private copy; a validator that crashes rejects the data."""
    try:
        problems = list(fn(clone(data)))
    except Exception as exc:  # untrusted data must never escape as a traceback
        return [Problem("", "store.char.rejected", {"kind": type(exc).__name__})]
    return problems


def _character_validator(system: str) -> Callable[[dict[str, Any]], list[Problem]] | None:
    """``system``'s character check, its package imported first (issue 14: systems load on
    demand, so a document imports exactly the systems its characters and states use).
    ``system`` is one of SYSTEM_IDS: callers check the untrusted id before."""
    load_system(system)
    return CHARACTER_VALIDATORS.get(system)


def _state_validator(system: str) -> Callable[[dict[str, Any]], list[Problem]] | None:
    """``system``'s table-state check, its package imported first (see above)."""
    load_system(system)
    return STATE_VALIDATORS.get(system)


# ---------------------------------------------------------------- schema 1


#: Ids starting with this belong to the app, never to a character: the Théorem MK's arcana
#: deck is owned by ``"@mk"`` (theorem/state.py). A character with such an id would hold
#: the MK's hand, so every door a character comes through refuses it (import, share link,
#: live table and ``store.check_character`` here; the systems' ops through their validators).
RESERVED_ID_PREFIX = "@"


def reserved_id(cid: Any) -> bool:
    """Whether ``cid`` is an id the app keeps for itself (``@mk``, ...)."""
    return isinstance(cid, str) and cid.startswith(RESERVED_ID_PREFIX)


def _check_character_base(character: Any) -> list[Problem]:
    """The fields the kernel owns in every character (id, system, name)."""
    if not isinstance(character, dict):
        return [Problem("", "store.char.not_object")]
    problems = []
    cid = character.get("id")
    if not isinstance(cid, str) or not 1 <= len(cid) <= 64:
        problems.append(Problem("id", "store.char.id", {"max": 64}))
    elif reserved_id(cid):
        problems.append(Problem("id", "store.char.reserved_id", {"id": cid, "prefix": RESERVED_ID_PREFIX}))
    if character.get("system") not in SYSTEM_IDS:
        problems.append(Problem("system", "store.char.system", {"expected": list(SYSTEM_IDS)}))
    name = character.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 80:
        problems.append(Problem("name", "store.char.name", {"max": 80}))
    return problems


def check_character(character: Any) -> list[Problem]:
    """Every problem of one character: the kernel's fields, then its system's validator."""
    problems = _check_character_base(character)
    if problems:
        return problems
    fn = _character_validator(character["system"])
    return _run_hook(fn, character) if fn else []


def _raise_problem(path: str, problem: Problem) -> None:
    where = _join(path, problem.field) if problem.field else path
    raise _Invalid(where, problem.code, problem=problem.to_json())


_TOP_KEYS = ("schema", "app", "name", "language", "characters", "log", "systems", "settings")


#: The keys of a current-schema table (``quarantine`` aside).
TOP_KEYS = _TOP_KEYS


def record_ok(kind: str, record: Any, system: str | None = None) -> bool:
    """Whether one record passes the check :func:`open_document` makes of it in a table
    (``kind``: ``character``, ``entry`` or ``state`` of ``system``), the ids of the other
    characters aside."""
    try:
        if kind == "character":
            _check_one_character(record, "characters.0", set())
        elif kind == "entry":
            _check_log_entry(record, "log.0")
        else:
            _check_state(system, record, _join("systems", str(system)))
    except _Invalid:
        return False
    return True


def top_fields_ok(doc: dict[str, Any]) -> bool:
    """Whether a table's name, language and settings pass :func:`open_document`'s checks."""
    try:
        _text(doc.get("name"), "name", MAX_NAME)
        _enum(doc.get("language"), "language", LANGUAGES)
        _check_settings(doc.get("settings"))
    except _Invalid:
        return False
    return True


def _within_depth(value: Any, path: str, at: int) -> None:
    """Refuse ``value`` (``too_deep``, ``not_json``) when, placed ``at`` levels below the
    document's top, it would nest past :data:`MAX_DEPTH`: depth is a fault of the record that
    holds it, like any other (issue: one deep record refused the whole table)."""
    _sized_within_depth(value, path, at, limit=10 * MAX_DOCUMENT_SIZE)


def _sized_within_depth(value: Any, path: str, at: int, *, limit: int) -> int:
    """:func:`_within_depth` that also gives ``value``'s estimated JSON size (the walk stops
    once above ``limit``: past it, depth is not checked in full)."""
    try:
        return _json_size(value, path, limit=limit, depth_limit=max(1, MAX_DEPTH - at))
    except _Invalid as exc:
        if exc.reason == "too_deep":
            exc.params["max"] = MAX_DEPTH  # the document's limit, not what was left of it here
        raise


def _check_one_character(character: Any, path: str, seen: set[str]) -> None:
    _need(character, dict, path)
    _within_depth(character, path, 2)
    _text(character.get("id"), _join(path, "id"), MAX_ID)
    if reserved_id(character["id"]):
        raise _Invalid(_join(path, "id"), "reserved_id")
    _text(character.get("name"), _join(path, "name"), MAX_NAME)
    if character.get("system") not in SYSTEM_IDS:
        raise _Invalid(_join(path, "system"), "unknown_system", expected=list(SYSTEM_IDS))
    if character["id"] in seen:
        raise _Invalid(_join(path, "id"), "duplicate")
    fn = _character_validator(character["system"])
    if fn:
        for problem in _run_hook(fn, character):
            _raise_problem(path, problem)


MAX_WORDS = 24
MAX_WORD_PARAMS = 8
MAX_WORDS_SIZE = 2000
MAX_WORDS_DEPTH = 2


def _check_words(words: Any, path: str, *, depth: int = 0) -> None:
    """How a log entry's label or result line was worded (static/js/views/log-words.js), so
    it is said again in the reader's language: at most :data:`MAX_WORDS` segments, each a
    text (<= 200) or ``[key]`` / ``[key, {name: text}]`` (a catalogue key <= 80, at most
    :data:`MAX_WORD_PARAMS` parameters of <= 200 characters, or words of their own, at most
    :data:`MAX_WORDS_DEPTH` levels down), :data:`MAX_WORDS_SIZE` characters of JSON in all."""
    segments = _list(words, path, MAX_WORDS)
    if len(json.dumps(segments, ensure_ascii=False)) > MAX_WORDS_SIZE:
        raise _Invalid(path, "too_long", max=MAX_WORDS_SIZE)
    for i, seg in enumerate(segments):
        where = _join(path, i)
        if isinstance(seg, str):
            _text(seg, where, 200, min_len=0)
            continue
        _need(seg, list, where)
        if not 1 <= len(seg) <= 2:
            raise _Invalid(where, "too_many", max=2)
        _text(seg[0], _join(where, 0), 80)
        if len(seg) == 2:
            params = seg[1]
            _need(params, dict, _join(where, 1))
            if len(params) > MAX_WORD_PARAMS:
                raise _Invalid(_join(where, 1), "too_many", max=MAX_WORD_PARAMS)
            for name, value in params.items():
                _text(name, _join(where, 1), 32)
                if isinstance(value, list) and depth < MAX_WORDS_DEPTH:
                    _check_words(value, _join(_join(where, 1), name), depth=depth + 1)
                else:
                    _text(value, _join(_join(where, 1), name), 200, min_len=0)


def _check_log_entry(entry: Any, path: str) -> None:
    _need(entry, dict, path)
    _keys(entry, path, ("id", "at", "kind", "system", "label", "request", "result"),
          ("who", "to", "member", "label_words", "summary_words", "words_lang"))
    _text(entry["id"], _join(path, "id"), MAX_ID)
    _text(entry["at"], _join(path, "at"), 40)
    _text(entry["kind"], _join(path, "kind"), 64)
    if entry["system"] is not None and entry["system"] not in SYSTEM_IDS:
        raise _Invalid(_join(path, "system"), "unknown_system", expected=list(SYSTEM_IDS))
    if "who" in entry:
        _text(entry["who"], _join(path, "who"), MAX_NAME, min_len=0)
    if "to" in entry:
        _text(entry["to"], _join(path, "to"), MAX_ID)
    if "member" in entry:  # the live member a referee's entry was written for (tablee.referee_kernel)
        where = _join(path, "member")
        _need(entry["member"], dict, where)
        _keys(entry["member"], where, ("id", "name"))
        _text(entry["member"]["id"], _join(where, "id"), MAX_ID)
        _text(entry["member"]["name"], _join(where, "name"), MAX_NAME)
    _text(entry["label"], _join(path, "label"), 200, min_len=0)
    for key in ("label_words", "summary_words"):
        if key in entry:
            _check_words(entry[key], _join(path, key))
    if "words_lang" in entry:  # the language the words were said in when logged
        _enum(entry["words_lang"], _join(path, "words_lang"), LANGUAGES)
    # Every other key is a string (checked above): the entry's depth is its request's and its
    # result's, measured in the same walk as their size (log.<i>.request sits 3 levels down).
    for key in ("request", "result"):
        where = _join(path, key)
        _need(entry[key], dict, where)
        estimate = _sized_within_depth(entry[key], where, 3, limit=MAX_ENTRY_SIZE)
        if estimate > MAX_ENTRY_SIZE:
            if _exact_size(entry[key]) > MAX_ENTRY_SIZE:
                raise _Invalid(where, "too_large", max=MAX_ENTRY_SIZE)
            _within_depth(entry[key], where, 3)  # the estimate stopped early: depth, in full


def _check_state(sid: Any, state: Any, path: str) -> None:
    if sid not in SYSTEM_IDS:
        raise _Invalid(path, "unknown_system", expected=list(SYSTEM_IDS))
    _need(state, dict, path)
    _within_depth(state, path, 2)
    fn = _state_validator(sid)
    if fn:
        for problem in _run_hook(fn, state):
            _raise_problem(path, problem)


def _check_quarantine_item(item: Any, path: str) -> None:
    _need(item, dict, path)
    _within_depth(item, path, 2)
    _keys(item, path, ("kind", "path", "problems", "data"))
    _enum(item["kind"], _join(path, "kind"), QUARANTINE_KINDS)
    _text(item["path"], _join(path, "path"), 200)
    for j, problem in enumerate(_list(item["problems"], _join(path, "problems"), MAX_PROBLEMS)):
        where = _join(_join(path, "problems"), j)
        _need(problem, dict, where)
        _text(problem.get("code"), _join(where, "code"), 100)


def _validate_v1(doc: dict[str, Any]) -> None:
    _keys(doc, "", _TOP_KEYS, ("quarantine",))
    _text(doc["name"], "name", MAX_NAME)
    _enum(doc["language"], "language", LANGUAGES)

    seen: set[str] = set()
    for i, character in enumerate(_list(doc["characters"], "characters", MAX_CHARACTERS)):
        _check_one_character(character, _join("characters", i), seen)
        seen.add(character["id"])

    for i, entry in enumerate(_list(doc["log"], "log", MAX_LOG)):
        _check_log_entry(entry, _join("log", i))

    _need(doc["systems"], dict, "systems")
    for sid, state in doc["systems"].items():
        _check_state(sid, state, _join("systems", sid))

    _need(doc["settings"], dict, "settings")
    _within_depth(doc["settings"], "settings", 1)
    if "quarantine" in doc:
        for i, item in enumerate(_list(doc["quarantine"], "quarantine", MAX_QUARANTINE)):
            _check_quarantine_item(item, _join("quarantine", i))


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


def _exact_size(value: Any, fallback: int = 10**12) -> int:
    """Characters of ``value`` as compact JSON (the browser's ``JSON.stringify`` never writes
    fewer), or ``fallback`` when it has no JSON text (NaN, too deep)."""
    try:
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
    except (ValueError, TypeError, RecursionError):
        return fallback


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


def _check_settings(value: Any) -> None:
    _need(value, dict, "settings")
    _within_depth(value, "settings", 1)


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
    """:func:`limits` computed now, every system imported."""
    load_all_systems()
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

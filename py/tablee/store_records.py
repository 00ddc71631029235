"""The check of each record of a table document: characters, log entries (and how their
label and result line were worded), system states, quarantined records, the whole current
layout; and the hooks the systems plug their own checks into.

Callers import these names from here; :func:`tablee.systems.load` plugs each system's checks in
(its :class:`tablee.system.StoreHooks`). The layout and its bounds are described in
:mod:`tablee.store`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import Problem
from .registry import SYSTEM_IDS, guard_state
from .store_shape import (
    LANGUAGES,
    MAX_CHARACTERS,
    MAX_ENTRY_SIZE,
    MAX_ID,
    MAX_LOG,
    MAX_NAME,
    MAX_PROBLEMS,
    MAX_QUARANTINE,
    QUARANTINE_KINDS,
    _enum,
    _exact_size,
    _Invalid,
    _join,
    _keys,
    _list,
    _need,
    _sized_within_depth,
    _text,
    _within_depth,
)
from .systems import load as load_system
from .tree import clone

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


def _run_hook(fn: Callable[[dict[str, Any]], list[Problem]], data: dict[str, Any]) -> list[Problem]:
    """Run a system validator on a private copy; a validator that crashes rejects the data."""
    try:
        problems = list(fn(clone(data)))
    except Exception as exc:  # untrusted data must never escape as a traceback
        return [Problem("", "store.char.rejected", {"kind": type(exc).__name__})]
    return problems


#: The systems whose store hooks are in the tables above (:func:`plug`).
_PLUGGED: set[str] = set()


def plug(system: str) -> None:
    """Put ``system``'s store hooks (its :class:`tablee.system.StoreHooks`) in the tables above,
    once, the system loaded first (systems load on demand, so a document imports exactly the
    systems its characters and states use). ``system`` is one of SYSTEM_IDS: callers check the
    untrusted id before."""
    if system in _PLUGGED:
        return
    hooks = load_system(system).store
    register_character_validator(system, hooks.character, schema=hooks.character_schema)
    register_state_validator(system, hooks.state, schema=hooks.state_schema)
    _PLUGGED.add(system)


def _character_validator(system: str) -> Callable[[dict[str, Any]], list[Problem]] | None:
    """``system``'s character check (:func:`plug`)."""
    plug(system)
    return CHARACTER_VALIDATORS.get(system)


def _state_validator(system: str) -> Callable[[dict[str, Any]], list[Problem]] | None:
    """``system``'s table-state check (:func:`plug`)."""
    plug(system)
    return STATE_VALIDATORS.get(system)


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


#: The keys of a log entry that say how its label and result line were worded.
WORDS_KEYS = ("label_words", "summary_words", "words_lang")


def _check_entry_words(entry: dict[str, Any], path: str) -> None:
    """An entry's ``label_words`` and ``summary_words`` (:func:`_check_words`) and the
    language they were said in when logged (``words_lang``), each optional."""
    for key in ("label_words", "summary_words"):
        if key in entry:
            _check_words(entry[key], _join(path, key))
    if "words_lang" in entry:
        _enum(entry["words_lang"], _join(path, "words_lang"), LANGUAGES)


def words_problem(words: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The first fault of the words in ``words`` (its :data:`WORDS_KEYS`, as a log entry keeps
    them; other keys are not looked at), by the very check a log entry's words get in a table:
    ``(the key at fault, its store problem {field, code, params})``, or None when they pass.
    The live table's referee checks a phone's words with it before they join an entry."""
    try:
        _check_entry_words({k: words[k] for k in WORDS_KEYS if k in words}, "")
    except _Invalid as exc:
        return exc.path.split(".", 1)[0], {"field": exc.path, "code": exc.reason, "params": exc.params}
    return None


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
    _check_entry_words(entry, path)
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


def _check_settings(value: Any) -> None:
    _need(value, dict, "settings")
    _within_depth(value, "settings", 1)

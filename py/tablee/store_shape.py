"""The table document's bounds and the checks every record's check is made of.

The limits (:data:`MAX_LOG`, :data:`MAX_DOCUMENT_SIZE`, :data:`MAX_DEPTH`, ...) and the
reasons of ``store.invalid`` are described with the layout in :mod:`tablee.store`; callers
import them from here. :class:`_Invalid` carries the first problem found, at its dotted
path, up to the loader that turns it into ``store.invalid``. The JSON walk measures a value's
size and depth without recursion, so no untrusted nesting can blow the stack.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from .errors import RulesError

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
            children: Iterable[tuple[Any, Any]] = item.items()
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


def _exact_size(value: Any, fallback: int = 10**12) -> int:
    """Characters of ``value`` as compact JSON (the browser's ``JSON.stringify`` never writes
    fewer), or ``fallback`` when it has no JSON text (NaN, too deep)."""
    try:
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
    except (ValueError, TypeError, RecursionError):
        return fallback


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

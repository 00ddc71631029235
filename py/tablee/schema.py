"""Checking untrusted data against a compiled JSON Schema, as field problems.

Every store hook (a system's character or table-state validator) starts the same way:
run the schema, and turn the first violation into a :class:`~tablee.errors.Problem`
whose field is the dotted path of the offending value. Untrusted data must never make
a validator raise, so any other exception becomes a problem too.

:func:`compiled` defers fastjsonschema's code generation to a validator's first use: the
systems declare their schemas at import, and compiling them all there cost most of a
system's import time (issue 14: a system's first answer should be quick).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import fastjsonschema

from .errors import Problem

__all__ = [
    "ID_SCHEMA",
    "array",
    "character_head",
    "compile_schema",
    "compiled",
    "fixed_object",
    "integer",
    "named_levels",
    "record",
    "schema_params",
    "shape_problems",
    "share",
    "text",
]

#: A character id (or any record id), as the store bounds it.
ID_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 64}


def _exc_out_of_line(self: Any, msg: str, *args: Any, append_to_msg: str | None = None,
                     rule: str | None = None) -> None:
    """fastjsonschema 2.22's ``CodeGenerator.exc`` (the ``raise`` of one check), except that the
    definition the exception carries is a global of the generated module instead of a literal
    written out at every ``raise``: the same dict, not its ``repr`` parsed again. A Théorem
    request's schema holds its whole table state (about 370 checks): written out, each check's
    definition made a 376 kB module whose generation and byte-compilation were most of the first
    odds request of a page (issue 24: 180 ms in CPython, 660 ms in the worker)."""
    if not self._detailed_exceptions or not self._fast_fail:
        return type(self).exc(self, msg, *args, append_to_msg=append_to_msg, rule=rule)
    arg = '"' + msg + '"'
    if append_to_msg:
        arg += " + (" + append_to_msg + ")"
    definition = self._expand_refs(self._definition)
    definition_rule = self.e(definition.get(rule) if isinstance(definition, dict) else None)
    name = f"DEFINITION_{id(self._definition)}"  # one per definition object of the schema
    self._extra_imports_objects.setdefault(name, definition)
    self.l(
        "raise JsonSchemaValueException(" + arg
        + ', value={variable}, name="{name}", definition={definition}, rule={rule})',
        *args, definition=name, rule=repr(rule), definition_rule=definition_rule,
    )


#: Schemas checked by one validator wherever they are held (:func:`share`): id -> [schema, validator].
_SHARED: dict[int, list[Any]] = {}


def share(schema: dict[str, Any]) -> dict[str, Any]:
    """Mark ``schema`` (a system's table state, a character) to be compiled once: a schema that
    holds this very object below its root calls that one validator there (as fastjsonschema
    calls the function of a ``$ref``) instead of writing all its checks again. Every op of a
    system holds its state's schema: each op's first request compiled the whole state again."""
    _SHARED.setdefault(id(schema), [schema, None])
    return schema


def _block_or_shared_call(self: Any, definition: Any) -> int:
    """fastjsonschema's code for one definition, or a call to a shared definition's validator
    with the path the inline checks would name (``data.state.deck…``)."""
    entry = _SHARED.get(id(definition))
    if entry is None or entry[0] is not definition or self._variable_name == "data":
        return type(self)._generate_func_code_block(self, definition)
    function = f"SHARED_{id(definition)}"
    self._extra_imports_objects.setdefault(function, compile_schema(definition))
    name_arg = f'(name_prefix or "data") + "{self._variable_name[4:]}"'
    if "{" in name_arg or "}" in name_arg:
        name_arg += ".format(**locals())"
    self.l("{}({variable}, custom_formats, {name_arg})", function, name_arg=name_arg)
    return 1


def compile_schema(schema: dict[str, Any]) -> Callable[[Any], Any]:
    """``fastjsonschema.compile(schema)``: the same checks, raising the same exceptions (message,
    path, value, rule, definition), from a smaller generated module: each definition an exception
    carries is a global instead of a literal (:func:`_exc_out_of_line`) and a shared schema is
    one call (:func:`share`; a shared schema is compiled once, wherever it is asked for).
    tests/test_schema_compile.py compares the two on refusals of every system's requests.
    (fastjsonschema 2.22, pinned in requirements-runtime.txt.)"""
    entry = _SHARED.get(id(schema))
    if entry is not None and entry[0] is schema:
        if entry[1] is None:
            entry[1] = _compile(schema)
        return entry[1]
    return _compile(schema)


def _compile(schema: dict[str, Any]) -> Callable[[Any], Any]:
    import types

    from fastjsonschema import _factory

    resolver, generator = _factory(schema, {})
    generator.exc = types.MethodType(_exc_out_of_line, generator)
    generator._generate_func_code_block = types.MethodType(_block_or_shared_call, generator)
    namespace = generator.global_state  # generates the code (and the definitions' globals)
    exec(generator.func_code, namespace)  # (as fastjsonschema.compile does)
    return namespace[resolver.get_scope_name()]


class _Compiled:
    """``compile_schema(schema)``, done on the first call."""

    __slots__ = ("_schema", "_validate")

    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema
        self._validate: Callable[[Any], Any] | None = None

    def __call__(self, data: Any) -> Any:
        if self._validate is None:
            self._validate = compile_schema(self._schema)
        return self._validate(data)


def compiled(schema: dict[str, Any]) -> Callable[[Any], Any]:
    """A validator of ``schema`` (raises ``fastjsonschema.JsonSchemaException``), compiled lazily."""
    return _Compiled(schema)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def schema_params(exc: fastjsonschema.JsonSchemaException) -> dict[str, Any]:
    """What a schema violation says, as data the page words in its own language.

    ``detail`` is fastjsonschema's English sentence (kept for logs and tests, never shown: the
    page words ``rule`` instead); ``field`` the dotted path of the offending value without the
    validator's "data" root, a list's items numbered as the forms number them (``skills.0.level``,
    where fastjsonschema writes ``skills[0].level``), and for a missing key the path of that key
    (``test.skill``, where fastjsonschema names the object holding it); ``rule`` the JSON Schema
    keyword that failed ("type", "minimum", "maxLength", "enum", "additionalProperties"…),
    ``extra`` for "additionalProperties" the first key the schema does not know, and
    ``limit`` that keyword's value when it is plain data (a number, a type name, a short list):
    the page turns ``rule`` into a sentence of its language (``schema.rule.<rule>``: "Score : 99
    au plus") naming the field by its label (``schema.field.<name>``), never "must be integer".
    """
    field = _dotted(str(exc.name or "").removeprefix("data").lstrip("."))
    params: dict[str, Any] = {"detail": str(exc.message)[:200], "field": field}
    rule = getattr(exc, "rule", None)
    if isinstance(rule, str):
        params["rule"] = rule
        limit = getattr(exc, "rule_definition", None)
        value = getattr(exc, "value", None)
        if rule == "required" and isinstance(limit, list) and isinstance(value, dict):
            missing = [name for name in limit if isinstance(name, str) and name not in value]
            if missing:  # the key that is missing, as the field (the object holds the others)
                params["field"] = f"{field}.{missing[0]}" if field else missing[0]
                return params
        if rule == "additionalProperties" and isinstance(value, dict):
            extra = _unknown_keys(getattr(exc, "definition", None), value)
            if extra:  # the key the schema does not know (a newer device's field, or a forged one)
                params["extra"] = extra[0][:64]
        if _scalar(limit) or (isinstance(limit, list) and len(limit) <= 12 and all(_scalar(x) for x in limit)):
            params["limit"] = limit
    return params


def _unknown_keys(definition: Any, value: dict[str, Any]) -> list[str]:
    """The keys of ``value`` that the object schema ``definition`` neither names nor matches."""
    if not isinstance(definition, dict):
        return []
    names = definition.get("properties") if isinstance(definition.get("properties"), dict) else {}
    patterns = [p for p in (definition.get("patternProperties") or {}) if isinstance(p, str)]
    return [k for k in value if isinstance(k, str) and k not in names
            and not any(re.search(p, k) for p in patterns)]


def _dotted(path: str) -> str:
    """``skills[0].level`` -> ``skills.0.level`` (the forms' and the store's paths)."""
    return re.sub(r"\[(\d+)\]", r".\1", path)


def shape_problems(validate: Callable[[Any], Any], data: Any, code: str) -> list[Problem]:
    """``[]`` when ``validate(data)`` passes, else one Problem with ``code`` at the failing path
    (its params: :func:`schema_params`, without the path, which is the Problem's field)."""
    try:
        validate(data)
    except fastjsonschema.JsonSchemaException as exc:
        params = schema_params(exc)
        path = params.pop("field")
        return [Problem(path, code, params)]
    except Exception as exc:  # untrusted data must never make a validator raise
        return [Problem("", code, {"detail": type(exc).__name__})]
    return []


def fixed_object(names: tuple[str, ...], item: dict[str, Any]) -> dict[str, Any]:
    """The schema of an object with exactly the keys ``names``, each value an ``item`` (a
    sheet's attributes or skills, every one of them present and no other)."""
    return {
        "type": "object",
        "properties": {n: item for n in names},
        "required": list(names),
        "additionalProperties": False,
    }


# ----------------------------------------------------------------- shared schema fragments
# The systems' sheets and table states are built from the same few JSON-Schema pieces; these
# write each piece once (the schemas they give are exactly the ones the systems wrote out).


def integer(lo: int, hi: int) -> dict[str, Any]:
    """A whole number from ``lo`` to ``hi``."""
    return {"type": "integer", "minimum": lo, "maximum": hi}


def text(max_length: int, min_length: int = 0) -> dict[str, Any]:
    """A string of at most ``max_length`` characters (at least ``min_length`` when above 0)."""
    if min_length:
        return {"type": "string", "minLength": min_length, "maxLength": max_length}
    return {"type": "string", "maxLength": max_length}


def record(
    properties: dict[str, Any], required: tuple[str, ...] | None = None, *, closed: bool = True
) -> dict[str, Any]:
    """An object with these ``properties`` and no other (``closed=False``: others may come too,
    unchecked); ``required``: all of them unless named."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(properties if required is None else required),
    }
    if closed:
        schema["additionalProperties"] = False
    return schema


def array(items: dict[str, Any], max_items: int, min_items: int = 0) -> dict[str, Any]:
    """A list of at most ``max_items`` ``items`` (at least ``min_items`` when above 0)."""
    if min_items:
        return {"type": "array", "minItems": min_items, "maxItems": max_items, "items": items}
    return {"type": "array", "maxItems": max_items, "items": items}


def character_head(system: str, *, name_max: int = 80, name_min: int = 0) -> dict[str, Any]:
    """The properties every system's character starts with: its id, its system, its name."""
    return {"id": ID_SCHEMA, "system": {"const": system}, "name": text(name_max, name_min)}


def named_levels(max_items: int, level: dict[str, Any], name_max: int = 60) -> dict[str, Any]:
    """A list of ``{"name", "level"}`` (a sheet's skills): a non-empty name, a ``level``."""
    return array(record({"name": text(name_max, 1), "level": level}), max_items)

"""The table of API operations: each op is a name, a JSON Schema and a pure handler.

System modules register their ops with :func:`op`; :mod:`tablee.api` dispatches to
them and ``describe`` publishes the schemas, so the API documents itself.
"""

from __future__ import annotations

import contextvars
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .system import System

__all__ = [
    "OPS",
    "SEED_SCHEMA",
    "STATE_GUARDS",
    "SYSTEM_IDS",
    "Op",
    "SystemOps",
    "from_json",
    "guard_state",
    "install",
    "op",
    "request_schema",
    "rng_from",
]

#: The five systems, in the order the app lists them.
SYSTEM_IDS = ("systmj", "versality", "pointzero", "theorem", "unicreon")

#: A seed is a non-negative integer JavaScript can hold exactly (< 2**53).
SEED_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 2**53 - 1}

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Op:
    name: str
    system: str | None
    schema: dict[str, Any]
    handler: Handler
    summary: str


OPS: dict[str, Op] = {}

#: Whether the request being answered was read from JSON text (:func:`tablee.api.handle_json`,
#: the worker's door) and its answer goes back as JSON text.
READ_FROM_JSON: contextvars.ContextVar[bool] = contextvars.ContextVar("tablee_read_from_json", default=False)


def from_json() -> bool:
    """Whether the request being answered was read from JSON text and is answered as JSON text:
    its values are JSON's own types (no tuple, no number as a key) and nothing keeps the answer's
    objects, so an op may answer with objects it keeps (``store.share``'s projection)."""
    return READ_FROM_JSON.get()

#: The states ops take (a system's table state, Unicreon's combat, a bare card state), each as
#: ``(schema, require)``: ``require(value)`` raises :class:`tablee.errors.RulesError` when the
#: value breaks the state's schema or its system's rules. ``api.handle`` runs it on every request
#: property declared with that schema, before the op's handler sees the request, so no op ever
#: works on a state it could not have made (a live peer or a hand-edited file can send any).
STATE_GUARDS: list[tuple[dict[str, Any], Callable[[Any], Any]]] = []


def guard_state(schema: dict[str, Any], require: Callable[[Any], Any]) -> None:
    """Check every request property whose schema is ``schema`` with ``require`` (see
    :data:`STATE_GUARDS`). Call it where the state's schema is defined, before any op uses it."""
    from .schema import share

    STATE_GUARDS.append((share(schema), require))


def request_schema(
    name: str,
    properties: dict[str, Any] | None = None,
    required: tuple[str, ...] | list[str] = (),
) -> dict[str, Any]:
    """The JSON Schema of a whole request to ``name``, its ``op`` field included."""
    props: dict[str, Any] = {"op": {"const": name}}
    props.update(properties or {})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": props,
        "required": ["op", *required],
        "additionalProperties": False,
    }


def op(
    name: str,
    *,
    system: str | None = None,
    properties: dict[str, Any] | None = None,
    required: tuple[str, ...] | list[str] = (),
    summary: str = "",
) -> Callable[[Handler], Handler]:
    """Register ``handler(request) -> response`` under ``name``.

    The handler receives a request already validated against its schema and returns a
    JSON-ready dict; it raises :class:`tablee.errors.RulesError` for a broken rule.
    """
    if system is not None and system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")

    return _into(OPS, name, system, properties, required, summary)


def _into(
    table: dict[str, Op],
    name: str,
    system: str | None,
    properties: dict[str, Any] | None,
    required: tuple[str, ...] | list[str],
    summary: str,
) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        if name in table:
            raise ValueError(f"op {name!r} registered twice")
        table[name] = Op(name, system, request_schema(name, properties, required), handler, summary)
        return handler

    return register


#: The systems whose ops are in :data:`OPS` (:func:`install`).
_INSTALLED: set[str] = set()


def install(system: System) -> None:
    """Put what ``system`` declares for requests where :mod:`tablee.api` finds it, once: its ops
    (each :attr:`SystemOps.ops` table) in :data:`OPS`, and its state checks (the store hook's
    ``require_state`` under its state schema, and its further ``guards``) in :data:`STATE_GUARDS`."""
    if system.id in _INSTALLED:
        return
    ops = {name: one for table in system.ops for name, one in table.ops.items()}
    twice = sorted(name for name in ops if name in OPS)
    if twice:
        raise ValueError(f"op {twice[0]!r} registered twice")
    hooks = system.store
    if hooks.state_schema is not None and hooks.require_state is not None:
        guard_state(hooks.state_schema, hooks.require_state)
    for schema, require in system.guards:
        guard_state(schema, require)
    OPS.update(ops)
    _INSTALLED.add(system.id)


class SystemOps:
    """How one system declares its ops: one instance per system, made where its ops are.

    ``system_op = SystemOps("versality", state=S.STATE_SCHEMA, character=C.CHARACTER_SCHEMA)``,
    then ``@system_op("deck.build", state=True, character=True, seed=True, summary=...)``
    declares ``versality.deck.build`` in :attr:`ops` (the system's :class:`tablee.system.System`
    lists this table; :func:`tablee.systems.load` installs it in :data:`OPS`), the name prefix
    and ``system=`` fixed here, with the request schema its flags and fields declare, in this
    order:

    - ``state=True``: ``state``, required, under the system's table-state schema (the very object
      given here, so :data:`STATE_GUARDS` checks it before the handler runs);
    - ``character=True``: ``character``, required, under the system's character schema;
    - ``takes``: the other required fields, then ``may``: the optional ones;
    - ``seed=True``: ``seed`` (:data:`SEED_SCHEMA`), required, last.

    A request whose fields do not follow that order (an optional state, a seed before an option)
    gives them whole as ``properties`` and ``required``, as :func:`op` takes them.
    """

    def __init__(
        self, system: str, *, state: dict[str, Any] | None = None, character: dict[str, Any] | None = None
    ) -> None:
        if system not in SYSTEM_IDS:
            raise ValueError(f"unknown system {system!r}")
        from .schema import share

        self.system = system
        #: op name -> op, as this system's modules declared them (not yet in :data:`OPS`).
        self.ops: dict[str, Op] = {}
        # Every op of the system holds these very objects: compiled once (schema.share).
        self.state = share(state) if state is not None else None
        self.character = share(character) if character is not None else None

    def __call__(
        self,
        name: str,
        *,
        summary: str,
        state: bool = False,
        character: bool = False,
        seed: bool = False,
        takes: dict[str, Any] | None = None,
        may: dict[str, Any] | None = None,
        properties: dict[str, Any] | None = None,
        required: tuple[str, ...] | list[str] = (),
    ) -> Callable[[Handler], Handler]:
        """Register the handler under ``<system>.<name>`` (see the class for the request)."""
        if properties is not None or required:
            if state or character or seed or takes or may:
                raise ValueError(f"{name}: properties/required go alone, without flags, takes or may")
            return _into(self.ops, f"{self.system}.{name}", self.system, properties, required, summary)
        props: dict[str, Any] = {}
        if state:
            props["state"] = self._declared("state", self.state)
        if character:
            props["character"] = self._declared("character", self.character)
        props.update(takes or {})
        needed = list(props)
        props.update(may or {})
        if seed:
            props["seed"] = SEED_SCHEMA
            needed.append("seed")
        if len(props) != state + character + len(takes or {}) + len(may or {}) + seed:
            raise ValueError(f"{name}: a field is declared twice")
        return _into(self.ops, f"{self.system}.{name}", self.system, props, needed, summary)

    def _declared(self, what: str, schema: dict[str, Any] | None) -> dict[str, Any]:
        if schema is None:
            raise ValueError(f"{self.system} declared no {what} schema")
        return schema


def rng_from(request: dict[str, Any]) -> random.Random:
    """The explicit RNG of a request: ``random.Random(request["seed"])``.

    Mersenne Twister seeded from an int gives the same stream in CPython 3.11 and in
    Pyodide's 3.14, so a seed replays a roll exactly anywhere.
    """
    return random.Random(request["seed"])

"""What a game system declares, once: the :class:`System` each ``tablee/systems/<id>/`` package
builds from its parts, and the shapes of those parts.

The core modules never name a system: they ask :func:`tablee.systems.load` for one by its id
and read what it declares — its ops (:class:`tablee.registry.SystemOps`), its moves at a live
table and who may make them on what (:class:`Move`), its views per audience (:class:`Views`:
what a player sees of its characters, its table state and its log entries; the MJ sees all),
how a move of it is logged as its page logs the same action (:class:`Recipe`), and its store
hooks (:class:`StoreHooks`). :func:`tablee.systems.load` installs a system in the tables the
core reads (the ops, the state guards, the share filters, the store validators) the first
time a request needs it.

This module imports nothing of the project: every floor may use its shapes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .errors import Problem

__all__ = ["ID", "REC", "Move", "OpTable", "Recipe", "StoreHooks", "System", "Views"]

Record = dict[str, Any]
#: ``prepare(request, ctx) -> request``: fills in what only the MJ's table knows.
Prepare = Callable[[Record, Record], Record]
#: ``hook(answer, request, ctx) -> record or None``.
AfterHook = Callable[[Record, Record, Record], "Record | None"]


class OpTable(Protocol):
    """A table of declared ops (:class:`tablee.registry.SystemOps`): op name -> op."""

    ops: dict[str, Any]


@dataclass(frozen=True)
class Move:
    """What a move may touch: the ownership and state rules of one op a player may send.

    ``system``: the system whose state the op reads and writes (``None``: no state).
    ``actors``: request fields naming an acting character, each ``(field, kind)`` with kind one of:
    ``record`` (a character record, replaced by the MJ's; it must be the member's), ``id`` (a
    ``character_id``), ``id?`` (the same, which the request may leave out), ``subject`` (a SYSTMJ
    test subject whose ``character`` must be the member's), ``cid`` (a combatant of the state
    whose ``character_id`` must be the member's), ``fighter`` (a fighter object whose ``id``
    must), ``side`` (an opposition side whose ``character_id`` must) and ``side?`` (the same when
    the side names a character at all: an NPC side names none).
    ``merge(state, answer) -> new state``: the op answers a part of the state (Versality's
    ``public``/``penalties``) that the system's own rule merges into the MJ's whole state.
    ``mj_fields``: request fields only the MJ sets (dropped from a player's move).
    ``part``: the op's state is this key of the system's state (Unicreon's ``combat``).
    ``state``: the op takes the system state as ``state`` (False: the op is stateless, the
    move still reads and may write the state through ``prepare``/``record``).
    ``prepare(request, ctx)``: fills in what only the MJ's table knows and checks what the
    phone declared against the MJ's record (``ctx``: the member's acting ``character`` as the
    MJ holds it, the system ``state``, the ``member``); it returns the op request.
    ``record(answer, request, ctx)``: the new system state the move leaves besides the op's
    own (None: unchanged), e.g. the Tension point a Point Zéro test spends.
    ``log_only``: fields ``prepare`` leaves in the request for the move's log entry only.
    ``sheet(answer, request, ctx)``: the acting character's record as the move leaves it, for an
    op that answers no ``character`` although its outcome belongs on the sheet.
    ``needs_state``: False when the move may run on a table without the system's state.
    ``others``: request fields naming, by a record the request may leave out, a character the
    move acts on that need not be the member's; written back from the op's answer.
    ``kind``: the log kind of the move's entry when the pages log that op under another name.
    ``hidden``: answer keys the phone never gets besides the whole state.
    """

    system: str | None
    actors: tuple[tuple[str, str], ...] = ()
    merge: Callable[[Record, Record], Record | None] | None = None
    mj_fields: tuple[str, ...] = ()
    part: str | None = None
    state: bool = True
    prepare: Prepare | None = None
    record: AfterHook | None = None
    log_only: tuple[str, ...] = ()
    sheet: AfterHook | None = None
    needs_state: bool = True
    others: tuple[str, ...] = ()
    kind: str | None = None
    hidden: tuple[str, ...] = ()


#: An actor named by a ``character`` record (replaced by the MJ's) / by a ``character_id``.
REC: tuple[tuple[str, str], ...] = (("character", "record"),)
ID: tuple[tuple[str, str], ...] = (("character_id", "id"),)


@dataclass(frozen=True)
class Recipe:
    """How the referee logs one op as the page logs it (:mod:`tablee.referee_log`).

    ``request(request, answer, ctx)``: the logged request (the one "Vérifier / rejouer"
    replays), None: the referee's own. ``result(request, answer, ctx)``: the result fields the
    page logs besides its words (``total``, ``terms``, ``verify``). ``ctx``: ``seed``, the acting
    ``character`` as the MJ holds it, the system ``state`` before the move.
    ``join(log, member, entry, answer, words) -> (index, entry) or None``: the entry of the log
    this move's ``entry`` completes and that entry as completed (``words``: the move's own,
    :func:`tablee.referee_kernel.move_words`) (one test logged as one entry:
    Versality's draw and its resolution); None: the entry is logged as a new one."""

    request: Callable[[Record, Record, Record], Record] | None
    result: Callable[[Record, Record, Record], Record]
    join: Callable[[list[Any], Mapping[str, Any], Record, Any, Record], tuple[int, Record] | None] | None = None


@dataclass(frozen=True)
class Views:
    """A system's player filters, each taking a valid record and returning a new valid record
    without the system's hidden information (None: that kind of record holds none). The MJ's
    audience sees every record whole."""

    character: Callable[[Record], Record] | None = None
    state: Callable[[Record], Record] | None = None
    log_entry: Callable[[Record], Record] | None = None


@dataclass(frozen=True)
class StoreHooks:
    """How the store checks a system's records: ``character(record) -> problems`` and
    ``state(state) -> problems``, with the JSON Schemas they start with (published by
    ``store.limits``) and ``require_state(state)``, which raises the system's own error for a
    state an op must not run on (:func:`tablee.registry.guard_state`)."""

    character: Callable[[Record], list[Problem]]
    character_schema: Record | None
    state: Callable[[Record], list[Problem]]
    state_schema: Record | None
    require_state: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class System:
    """One game system as the core reads it (module docstring). ``ops``: each op table
    (:class:`tablee.registry.SystemOps`) its modules filled; ``guards``: further ``(schema,
    require)`` state checks (a part of the state an op takes alone: Unicreon's fight);
    ``recipes``: op name -> :class:`Recipe`."""

    id: str
    ops: tuple[OpTable, ...]
    store: StoreHooks
    views: Views = Views()
    moves: Mapping[str, Move] = field(default_factory=dict)
    recipes: Mapping[str, Recipe] = field(default_factory=dict)
    guards: tuple[tuple[Record, Callable[[Any], Any]], ...] = ()

    def __post_init__(self) -> None:
        stray = [name for name in [*self.moves, *self.recipes] if name.split(".")[0] != self.id]
        if stray:
            raise ValueError(f"{self.id} declares moves of another system: {stray}")

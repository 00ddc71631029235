"""The five game systems: who wrote them, under which licence, and their rules modules.

:data:`SYSTEMS` is the one list of the systems. Each system's package declares it as one
object, its ``SYSTEM`` (:class:`tablee.system.System`: its ops, moves, player views, log
recipes and store hooks). Importing this package imports no system: :func:`load` imports a
system's package on the first request that needs it (tablee.api for an op, tablee.store for a
document holding that system's characters or state, the referee for a move) and installs what
it declares in the core's tables, so the engine's boot does not grow with the number of
systems. :func:`load_all` loads them all (the live ``describe``, tests, the set-up).
Summaries shown on the "À propos" page are UI text (static/i18n/<lang>/core.json,
key ``system.<id>.summary``); the facts below come from each seed text.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..registry import SYSTEM_IDS

if TYPE_CHECKING:
    from ..system import System

__all__ = ["SYSTEMS", "load", "load_all"]

SYSTEMS: dict[str, dict[str, Any]] = {
    "systmj": {
        "id": "systmj",
        "name": "SYSTMJ",
        "authors": ["François Dubos", "Marceau Dubos"],
        "licence": "CC BY-SA",
        "source": "000_d267ce9097809d3e.txt",
        "mechanic": "d100",
        "playable": True,
    },
    "versality": {
        "id": "versality",
        "name": "Versality",
        "authors": ["Alban Damien (Tenebos)"],
        "licence": "CC BY-NC-SA",
        "source": "001_28decc945b538010.txt",
        "mechanic": "cards",
        "playable": True,
    },
    "pointzero": {
        "id": "pointzero",
        "name": "Point Zéro",
        "authors": [],
        "licence": None,
        "source": "002_61483667e16cef6b.txt",
        "mechanic": "d6 pool",
        "playable": True,
    },
    "theorem": {
        "id": "theorem",
        "name": "Théorem",
        "authors": [],
        "licence": None,
        "source": "003_0f8319d4d007e1fe.txt",
        "mechanic": "tarot",
        "playable": True,
    },
    "unicreon": {
        "id": "unicreon",
        "name": "Unicreon",
        "authors": ["Amaury Bouchard"],
        "licence": "CC BY 4.0",
        "source": "004_12a5de9999b9d0ad.txt",
        "mechanic": "d66",
        "playable": True,
        "version": "0.22.0",
    },
}


#: system id -> its declaration, once installed (:func:`load`).
_INSTALLED: dict[str, System] = {}


def load(system: str) -> System:
    """``system``'s declaration (:class:`tablee.system.System`), its package imported and what
    it declares installed in the core's tables on the first call (:func:`_install`).

    ``system`` must be one of :data:`tablee.registry.SYSTEM_IDS` (callers check untrusted
    ids first); a loaded system costs a dictionary lookup.
    """
    found = _INSTALLED.get(system)
    if found is not None:
        return found
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")
    declared: System = importlib.import_module(f"{__name__}.{system}").SYSTEM
    if declared.id != system:
        raise ValueError(f"{system}'s package declares {declared.id!r}")
    _install(declared)
    _INSTALLED[system] = declared
    return declared


def _install(system: System) -> None:
    """Put what ``system`` declares where the core looks it up: its ops in the op table, its
    state checks before every op that takes its state, its player views in the share filters,
    its store hooks in the store's validators."""
    from .. import registry, share, store_records

    for table in dict.fromkeys(system.ops):
        registry.install_ops(table.ops)
    hooks = system.store
    store_records.register_character_validator(system.id, hooks.character, schema=hooks.character_schema)
    store_records.register_state_validator(system.id, hooks.state, schema=hooks.state_schema,
                                           require=hooks.require_state)
    for schema, require in system.guards:
        registry.guard_state(schema, require)
    views = system.views
    share.register_share_filter(system.id, character=views.character, state=views.state, log_entry=views.log_entry)


def load_all() -> None:
    """Load every system (what ``describe``'s live answer and the tests need)."""
    for system in SYSTEM_IDS:
        load(system)

"""The five game systems: who wrote them, under which licence, and their rules modules.

:data:`SYSTEMS` is the one list of the systems. Each system's package declares it as one
object, its ``SYSTEM`` (:class:`tablee.system.System`: its ops, moves, player views, log
recipes and store hooks). Importing this package imports no system: :func:`load` imports a
system's package on the first request that needs it (tablee.api for an op, tablee.store for a
document holding that system's characters or state, the referee for a move), so the engine's
boot does not grow with the number of systems. :func:`load_all` loads them all (the live
``describe``, tests, the set-up).
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


#: system id -> its declaration, once loaded (:func:`load`).
_LOADED: dict[str, System] = {}


def load(system: str) -> System:
    """``system``'s declaration (:class:`tablee.system.System`), its package imported on the
    first call. The core's tables take what it declares from here, each on its first need of
    it: the ops and state checks (:func:`tablee.registry.install`), the store hooks
    (:func:`tablee.store_records.plug`), the player views (:func:`tablee.share.plug`).

    ``system`` must be one of :data:`tablee.registry.SYSTEM_IDS` (callers check untrusted
    ids first); a loaded system costs a dictionary lookup.
    """
    found = _LOADED.get(system)
    if found is not None:
        return found
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")
    declared: System = importlib.import_module(f"{__name__}.{system}").SYSTEM
    if declared.id != system:
        raise ValueError(f"{system}'s package declares {declared.id!r}")
    _LOADED[system] = declared
    return declared


def load_all() -> None:
    """Load every system (what ``describe``'s live answer and the tests need)."""
    for system in SYSTEM_IDS:
        load(system)

"""The five game systems: who wrote them, under which licence, and their rules modules.

Importing this package imports no system: a system's package (which registers its
``<id>.*`` ops and its store validators) is imported by :func:`load` on the first request
that needs it (tablee.api for an op, tablee.store for a document holding that system's
characters or state), so the engine's boot does not grow with the number of systems
(issue 14). :func:`load_all` imports them all (the live ``describe``, tests, the set-up).
Summaries shown on the "À propos" page are UI text (static/i18n/<lang>/core.json,
key ``system.<id>.summary``); the facts below come from each seed text.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..registry import SYSTEM_IDS

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


def load(system: str) -> None:
    """Import ``system``'s package (registering its ops and validators) unless already done.

    ``system`` must be one of :data:`tablee.registry.SYSTEM_IDS` (callers check untrusted
    ids first); importing an already imported package costs a dictionary lookup.
    """
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")
    importlib.import_module(f"{__name__}.{system}")


def load_all() -> None:
    """Import every system (what ``describe``'s live answer and the tests need)."""
    for system in SYSTEM_IDS:
        load(system)

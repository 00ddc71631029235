"""The five game systems: who wrote them, under which licence, and their rules modules.

Importing this package imports every system module, which registers its API ops.
Summaries shown on the "À propos" page are UI text (static/i18n/<lang>/core.json,
key ``system.<id>.summary``); the facts below come from each seed text.
"""

from __future__ import annotations

from typing import Any

from . import pointzero, systmj, theorem, unicreon, versality  # importing a system registers its ops

__all__ = ["SYSTEMS"]

SYSTEMS: dict[str, dict[str, Any]] = {
    "systmj": {
        "id": "systmj",
        "name": "SYSTMJ",
        "authors": ["François Dubos", "Marceau Dubos"],
        "licence": "CC BY-SA",
        "source": "000_d267ce9097809d3e.txt",
        "mechanic": "d100",
        "playable": systmj.PLAYABLE,
    },
    "versality": {
        "id": "versality",
        "name": "Versality",
        "authors": ["Alban Damien (Tenebos)"],
        "licence": "CC BY-NC-SA",
        "source": "001_28decc945b538010.txt",
        "mechanic": "cards",
        "playable": versality.PLAYABLE,
    },
    "pointzero": {
        "id": "pointzero",
        "name": "Point Zéro",
        "authors": [],
        "licence": None,
        "source": "002_61483667e16cef6b.txt",
        "mechanic": "d6 pool",
        "playable": pointzero.PLAYABLE,
    },
    "theorem": {
        "id": "theorem",
        "name": "Théorem",
        "authors": [],
        "licence": None,
        "source": "003_0f8319d4d007e1fe.txt",
        "mechanic": "tarot",
        "playable": theorem.PLAYABLE,
    },
    "unicreon": {
        "id": "unicreon",
        "name": "Unicreon",
        "authors": ["Amaury Bouchard"],
        "licence": "CC BY 4.0",
        "source": "004_12a5de9999b9d0ad.txt",
        "mechanic": "d66",
        "playable": unicreon.PLAYABLE,
        "version": "0.22.0",
    },
}

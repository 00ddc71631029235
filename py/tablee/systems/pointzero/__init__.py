"""Point Zéro (002_61483667e16cef6b.txt, its "Règles de base" page): roll skill-level d6,
keep attribute-level best, sum against a difficulty.

Importing this package registers its ops (``pointzero.*``) and the store validators.
"""

from . import (
    ops,  # noqa: F401  (registers the ops)
    share,  # noqa: F401  (registers the player share filter)
)

PLAYABLE = True

__all__ = ["PLAYABLE"]

"""Versality (001_28decc945b538010.txt): a personal deck of outcome cards bought with points.

Importing this package registers its ops (``versality.*``) and the store validators.
"""

from . import (
    ops,  # noqa: F401  (registers the ops)
    replay,  # noqa: F401  (registers versality.draw.replay)
    share,  # noqa: F401  (registers the player share filter)
)

PLAYABLE = True

__all__ = ["PLAYABLE"]

"""Versality (001_28decc945b538010.txt): a personal deck of outcome cards bought with points.

Importing this package registers its ops (``versality.*``) and the store validators.
"""

# Each registers: the ops, versality.draw.replay, the player share filter.
from . import ops, replay, share  # noqa: F401

PLAYABLE = True

__all__ = ["PLAYABLE"]

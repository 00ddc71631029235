"""Théorem (003_0f8319d4d007e1fe.txt): a tarot table, figure chains, arcana and réalité.

Importing this package registers its ops (``theorem.*``) and the store validators.
"""

# Each registers: the ops, theorem.draw.replay, the player share filter.
from . import ops, replay, share  # noqa: F401

PLAYABLE = True

__all__ = ["PLAYABLE"]

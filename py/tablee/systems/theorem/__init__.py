"""Théorem (003_0f8319d4d007e1fe.txt): a tarot table, figure chains, arcana and réalité.

Importing this package registers its ops (``theorem.*``) and the store validators.
"""

from . import (
    ops,  # noqa: F401  (registers the ops)
    replay,  # noqa: F401  (registers theorem.draw.replay)
    share,  # noqa: F401  (registers the player share filter)
)

PLAYABLE = True

__all__ = ["PLAYABLE"]

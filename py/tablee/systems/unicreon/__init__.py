"""Unicreon v0.22.0, d6 edition (004_12a5de9999b9d0ad.txt): rules engine and API ops.

Modules: data (tables), resolution (tests, odds, opposition), character (sheet, creation rules,
shop), health, combat (tracker), ops (API; importing this package registers them).
"""

from . import (
    ops,  # noqa: F401  (registers the unicreon.* ops and the store validators)
    share,  # noqa: F401  (registers the player share filter)
)

PLAYABLE = True

__all__ = ["PLAYABLE"]

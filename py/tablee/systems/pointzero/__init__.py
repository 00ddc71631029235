"""Point Zéro (002_61483667e16cef6b.txt, its "Règles de base" page): roll skill-level d6,
keep attribute-level best, sum against a difficulty.

:data:`SYSTEM` declares it: its ops, its moves, its player views, how its moves are logged and
its store hooks (:class:`tablee.system.System`).
"""

from ...system import StoreHooks, System, Views
from . import character, log, moves, ops, share, tension

PLAYABLE = True

SYSTEM = System(
    "pointzero",
    ops=(ops.pointzero_op,),
    store=StoreHooks(character.validate_character, character.CHARACTER_SCHEMA, tension.validate_state,
                     tension.STATE_SCHEMA, tension.require_state),
    views=Views(state=share.player_state, log_entry=share.player_entry),
    moves=moves.MOVES,
    recipes=log.RECIPES,
)

__all__ = ["PLAYABLE", "SYSTEM"]

"""Unicreon v0.22.0, d6 edition (004_12a5de9999b9d0ad.txt): rules engine and API ops.

Modules: data (tables), resolution (tests, odds, opposition), character (sheet, creation rules,
shop), health, combat (tracker), ops (API). :data:`SYSTEM` declares it
(:class:`tablee.system.System`); its ops that take a fight alone have it checked by
:func:`ops.require_combat`.
"""

from ...system import StoreHooks, System, Views
from . import character, log, moves, ops, share

PLAYABLE = True

SYSTEM = System(
    "unicreon",
    ops=(ops.unicreon_op,),
    store=StoreHooks(character.validate_character, character.CHARACTER_SCHEMA, ops.validate_state,
                     ops.SYSTEM_STATE_SCHEMA),
    views=Views(character=share.player_character),
    moves=moves.MOVES,
    recipes=log.RECIPES,
    guards=((ops.STATE, ops.require_combat),),
)

__all__ = ["PLAYABLE", "SYSTEM"]

"""Versality (001_28decc945b538010.txt): a personal deck of outcome cards bought with points.

:data:`SYSTEM` declares it (:class:`tablee.system.System`): its ops (``ops``, and
``replay``'s ``versality.draw.replay``), its moves, its player views, how its
moves are logged and its store hooks.
"""

from ...system import StoreHooks, System, Views
from . import character, log, moves, ops, replay, share, state

PLAYABLE = True

SYSTEM = System(
    "versality",
    ops=(ops.versality_op, replay.replay_op),
    store=StoreHooks(character.validate_character, character.CHARACTER_SCHEMA, state.validate_state,
                     state.STATE_SCHEMA, state.require_state),
    views=Views(state=share.player_state, log_entry=share.player_entry),
    moves=moves.MOVES,
    recipes=log.RECIPES,
)

__all__ = ["PLAYABLE", "SYSTEM"]

"""Théorem (003_0f8319d4d007e1fe.txt): a tarot table, figure chains, arcana and réalité.

:data:`SYSTEM` declares it (:class:`tablee.system.System`): its ops (``ops``, and
``replay``'s ``theorem.draw.replay``), its moves, its player views, how its
moves are logged and its store hooks.
"""

from ...system import StoreHooks, System, Views
from . import character, log, moves, ops, replay, schemas, share, state

PLAYABLE = True

SYSTEM = System(
    "theorem",
    ops=(ops.theorem_op, replay.replay_op),
    store=StoreHooks(character.validate_character, character.CHARACTER_SCHEMA, state.validate_state,
                     schemas.STATE_SCHEMA, state.require_state),
    views=Views(state=share.player_state, log_entry=share.player_entry),
    moves=moves.MOVES,
    recipes=log.RECIPES,
)

__all__ = ["PLAYABLE", "SYSTEM"]

"""SYSTMJ (000_d267ce9097809d3e.txt), part 1: entities, d100 tests, learning and
experience, the end-of-session review, phases of play and the Chronoste.

Modules: data (tables), entity (PJ, PNJ, Créature), state (universe, phase, session,
Chronoste), resolution (d100 tests and exact odds), learning (learning sessions and XP),
ops and ops_cards (API). :data:`SYSTEM` declares it (:class:`tablee.system.System`).
"""

from ...system import StoreHooks, System, Views
from . import entity, log, moves, ops, ops_cards, share, state

PLAYABLE = True

SYSTEM = System(
    "systmj",
    ops=(ops.systmj_op, ops_cards.cards_op),
    store=StoreHooks(entity.validate_entity, entity.CHARACTER_SCHEMA, state.validate_state, state.STATE_SCHEMA,
                     state.require_state),
    views=Views(state=share.player_state, log_entry=share.player_entry),
    moves=moves.MOVES,
    recipes=log.RECIPES,
)

__all__ = ["PLAYABLE", "SYSTEM"]

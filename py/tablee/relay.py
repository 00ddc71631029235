"""The requests a phone's pages may have the MJ's engine answer while its own engine starts.

At a live table a phone whose engine is not ready yet (a first visit, an old phone, an engine
that failed to start) sends the pages' requests that need no table state (odds, a sheet's
check, a system's rule tables) to the MJ's device, which answers them with its own engine
(static/js/live/remote-engine.js); moves go to the referee as always. :data:`STATELESS` is the
one list of those ops: each computes its answer from its request alone, takes no table state,
no whole table and draws nothing (no ``seed``: a roll is a move, refereed), so what the MJ's
engine answers holds nothing the phone did not send (tests/test_relay.py checks each op's
request schema). ``live.relay`` is how the MJ's device asks its engine: it answers an op of the
list (``{"answer": <the op's answer>}``) and refuses any other (``live.refused.stateful``).
"""

from __future__ import annotations

from typing import Any

from .errors import RulesError, declare
from .registry import op

__all__ = ["STATELESS", "TABLE_FIELDS"]

declare("live.refused.stateful")

#: The ops a phone's pages may have the MJ's engine answer (see the module's docstring).
STATELESS: frozenset[str] = frozenset({
    # the kernel: which ops are moves (a phone needs it before its first move), a dice
    # expression's odds, a sheet's check against its system's schema
    "live.moves",
    "odds",
    "store.check_character",
    # Point Zéro
    "pointzero.rules",
    "pointzero.schemas",
    "pointzero.character.check",
    "pointzero.test.odds",
    "pointzero.opposition.odds",
    # SystMJ
    "systmj.rules",
    "systmj.cards.rules",
    "systmj.entity.check",
    "systmj.test.odds",
    "systmj.learning.odds",
    "systmj.combat.score",
    "systmj.wear.of",
    # Théorème
    "theorem.rules",
    "theorem.character.check",
    "theorem.opposition",
    # Unicreon
    "unicreon.data",
    "unicreon.schemas",
    "unicreon.character.check",
    "unicreon.test.odds",
    "unicreon.opposition.odds",
    "unicreon.health.day.odds",
    "unicreon.health.diagnose.odds",
    # Versality
    "versality.rules",
    "versality.character.check",
})

#: Request fields that carry table state, a whole table or a draw: no op of :data:`STATELESS`
#: takes one.
TABLE_FIELDS = frozenset({"state", "document", "data", "held", "changes", "seed"})


@op(
    "live.relay",
    properties={"request": {"type": "object", "properties": {"op": {"type": "string"}}, "required": ["op"]}},
    required=("request",),
    summary="A phone's request that needs no table state, answered by the MJ's engine while the phone's starts.",
)
def _relay(request: dict[str, Any]) -> dict[str, Any]:
    """``{"answer": ...}``: the answer of ``request["request"]`` when its op is one of
    :data:`STATELESS` (an error of that op is its answer too); ``live.refused.stateful`` for
    any other op (a move, an op on the table's state, an unknown name)."""
    inner = request["request"]
    name = inner["op"]
    if name not in STATELESS:
        raise RulesError("live.refused.stateful", op=name[:64])
    from .api import handle  # (api imports this module through its routes)

    return {"answer": handle(inner)}

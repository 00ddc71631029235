"""Each system is one declared object (py/tablee/system.py ``System``, built in
``tablee/systems/<id>/__init__.py``): its ops, its moves (op name -> ``Move``, written in
``tablee/systems/<id>/moves.py``), its player views, its log recipes and its store hooks, loaded
on the system's first use; the referee itself imports no system and no core module of the
referee names one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablee import referee, registry, share, store_records
from tablee.api import handle
from tablee.registry import SYSTEM_IDS
from tablee.system import REC, Move, System
from tablee.systems import load

ROOT = Path(__file__).resolve().parent.parent


def test_importing_the_referee_imports_no_system_and_a_move_loads_only_its_own():
    code = (
        "import sys, json; sys.path.insert(0, 'py')\n"
        "import tablee.referee as r\n"
        "before = sorted(m for m in sys.modules if m.startswith('tablee.systems.'))\n"
        "assert r.is_move('pointzero.test.roll')\n"
        "after = sorted({m.split('.')[2] for m in sys.modules if m.startswith('tablee.systems.')})\n"
        "print(json.dumps([before, after]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    before, after = json.loads(done.stdout)
    assert before == [] and after == ["pointzero"]


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_each_system_declares_its_own_moves_beside_its_ops(system):
    moves = referee.moves_of(system)
    assert moves, system  # every system has moves at a live table
    assert all(name.startswith(f"{system}.") and isinstance(spec, Move) for name, spec in moves.items())
    assert all(referee.is_move(name) for name in moves)
    module = __import__(f"tablee.systems.{system}.moves", fromlist=["MOVES"])
    assert module.MOVES == moves


def test_the_phones_list_is_every_systems_moves_and_the_kernels():
    listed = handle({"op": "live.moves"})["moves"]
    expected = {"roll", "live.character.save", "live.log.add", "live.log.label"}
    for system in SYSTEM_IDS:
        expected |= set(referee.moves_of(system))
    assert set(listed) == expected and set(referee.MOVES) | set(referee._KERNEL_MOVES) == expected
    for name in ("theorem.turn.next", "pointzero.mj.threshold", "store.share", "nope", "pointzero", ""):
        assert not referee.is_move(name), name


def test_a_system_declaring_anothers_move_is_a_registration_mistake():
    declared = load("versality")
    with pytest.raises(ValueError, match=r"theorem\.hand\.draw"):
        System("versality", ops=declared.ops, store=declared.store,
               moves={"theorem.hand.draw": Move("theorem", REC)})


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_each_table_of_the_core_holds_what_the_system_declares(system):
    """Once the door has loaded every system (tests/conftest.py: ``api.load_all``), each table
    the core reads holds what the system declared, and nothing else of that system."""
    declared = load(system)
    assert isinstance(declared, System) and declared.id == system and load(system) is declared
    ops = {name: op for table in declared.ops for name, op in table.ops.items()}
    assert ops and {name: registry.OPS[name] for name in ops} == ops
    assert {n for n, op in registry.OPS.items() if op.system == system} == set(ops)
    assert store_records.CHARACTER_VALIDATORS[system] is declared.store.character
    assert store_records.STATE_VALIDATORS[system] is declared.store.state
    views = share.SHARE_FILTERS[system]
    assert (views.character, views.state, views.log_entry) == (
        declared.views.character, declared.views.state, declared.views.log_entry)
    assert all(name.startswith(f"{system}.") for name in declared.recipes)


def test_no_system_is_named_in_the_referee_or_its_log():
    """The referee's core reads what a system declares: no system's name in its code."""
    for module in ("referee.py", "referee_kernel.py", "referee_log.py"):
        text = (ROOT / "py" / "tablee" / module).read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        named = [s for s in SYSTEM_IDS if f'"{s}.' in code or f"'{s}." in code]
        assert not named, (module, named)

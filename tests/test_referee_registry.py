"""The referee's registration API (py/tablee/referee.py): each system declares its moves beside its
ops, in ``tablee/systems/<id>/moves.py`` (``MOVES``: op name -> ``referee.Move``), loaded on
that system's first move; the referee itself imports no system."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablee import referee
from tablee.api import handle
from tablee.registry import SYSTEM_IDS

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
    assert all(name.startswith(f"{system}.") and isinstance(spec, referee.Move) for name, spec in moves.items())
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


def test_a_system_declaring_anothers_move_is_a_registration_mistake(monkeypatch):
    import types

    fake = types.ModuleType("tablee.systems.versality.moves")
    fake.MOVES = {"theorem.hand.draw": referee.Move("theorem", referee.REC)}
    monkeypatch.setitem(sys.modules, "tablee.systems.versality.moves", fake)
    monkeypatch.setattr(referee, "_LOADED", {})
    with pytest.raises(ValueError, match=r"theorem\.hand\.draw"):
        referee.moves_of("versality")

"""The bench's scripts import one another one way: tools/bench.py (make bench) imports the pieces
it runs (tools/bench_live.py, tools/bench_phone.py, ...), and what they share is in
tools/bench_common.py, never in tools/bench.py: a piece run alone (``python tools/bench_live.py``)
then never loads the whole bench, and no import goes round in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
#: The scripts that run the pieces (they may import any of them).
RUNNERS = {"bench", "bench_engines"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_bench_piece_imports_the_bench_that_runs_it():
    pieces = sorted(p for p in TOOLS.glob("bench*.py") if p.stem not in RUNNERS)
    assert {"bench_live", "bench_common", "bench_phone"} <= {p.stem for p in pieces}
    for path in pieces:
        assert not imported(path) & RUNNERS, f"{path.name} imports {sorted(imported(path) & RUNNERS)}"
    assert "bench_common" in imported(TOOLS / "bench_live.py") and "bench_common" in imported(TOOLS / "bench.py")

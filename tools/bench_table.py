"""A large saved table in the store's real shapes, for `make bench` and e2e/test_boot_paint.py.

``saved_table(characters=50, log=1000)`` is a schema-1 document as the app saves it: Unicreon
sheets from ``new_character`` (the shape the Unicreon page creates) and roll-log entries as
the dice tray writes them (``app.addLog`` around a ``roll`` answer of the real engine, run
here in CPython). ``store.open`` keeps all of it (checked by the e2e test), so the first paint
the bench times is the paint of a table a person could really have.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

EXPRESSIONS = ("3d6", "d66", "4d6kh3", "2d20kh1+3", "d100", "6d6kh4+2")


def saved_table(characters: int = 50, log: int = 1000) -> dict:
    from tablee import api
    from tablee.systems.unicreon.character import new_character

    doc = api.handle({"op": "store.new", "name": "Table de mesure", "language": "fr"})["document"]
    doc["characters"] = [new_character(cid=f"uc-{n:03d}", name=f"Personnage {n:03d}") for n in range(characters)]
    entries = []
    for n in range(log):
        expr = EXPRESSIONS[n % len(EXPRESSIONS)]
        answer = api.handle({"op": "roll", "expr": expr, "seed": n + 1})
        entries.append({
            "id": f"log-{n:04d}",
            "at": f"2026-11-{1 + n // 100:02d}T{(n // 4) % 24:02d}:{n % 60:02d}:00.000Z",
            "system": None,
            "kind": "roll",
            "label": answer["expr"],
            "request": {"op": "roll", "expr": answer["expr"], "seed": answer["seed"]},
            "result": {"total": answer["total"], "terms": answer["terms"]},
        })
    doc["log"] = entries
    return doc

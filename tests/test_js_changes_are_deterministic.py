"""A change of the table is a deterministic function of the latest table.

app.update(mutate) applies `mutate` to the page's table at once, then again, under the lock
every tab shares, to the table as saved at that moment (static/js/save-queue.js): an id, a date, a
seed or a random number made inside it differs between the two (the entry the page showed, and
shared or edited, is not the one saved). Such values are made once, outside, and the change
closes over them. This test reads every function of the pages that takes the table (`(doc)`,
`(doc, answer)`: app.update's mutations, engineChange's `apply`, a charOp's `after`) and every
`update(...)` argument, and refuses a call that makes a fresh value inside one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "static" / "js"

#: Calls that make a value no second application gives back.
FRESH = re.compile(r"\bnewId\(|\bnewSeed\(|\bnew Date\(|\bDate\.now\(|\bMath\.random\(|\bcrypto\.|\bperformance\.now\(")
#: A function that takes the table as its first parameter.
DOC_FUNCTION = re.compile(r"\(\s*doc\s*(?:,\s*\w+\s*)*\)\s*=>\s*|\bdoc\s*=>\s*")


def _balanced(text: str, start: int) -> str:
    """The text from `start` (an opening bracket) to its matching closing one, or to the end of
    the expression when `start` is not a bracket (its first comma, `;` or newline at depth 0)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    depth = 0
    opening = text[start] in pairs
    for i in range(start, len(text)):
        ch = text[i]
        if ch in pairs:
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0 or (opening and depth == 0):
                return text[start : i + 1]
        elif not opening and depth == 0 and ch in ",;\n":
            return text[start:i]
    return text[start:]


def fresh_values_in_changes(source: str) -> list[tuple[int, str]]:
    """(line, call) of every fresh value made inside a table change of `source`."""
    found: set[tuple[int, str]] = set()
    bodies = [m.end() for m in DOC_FUNCTION.finditer(source)]
    bodies += [m.end() - 1 for m in re.finditer(r"\bupdate\(", source)]
    for start in bodies:
        body = _balanced(source, start)
        for m in FRESH.finditer(body):
            found.add((source[: start + m.start()].count("\n") + 1, m.group(0)))
    return sorted(found)


def test_the_check_finds_a_fresh_value_made_inside_a_change():
    bad = [
        "app.update((doc) => { doc.log.push({ id: newId('log') }); });",
        "const mutate = (doc) => {\n  doc.at = new Date().toISOString();\n};\napp.update(mutate);",
        "charOp(app, req, { after: (doc, res) => doc.items.push({ uid: `lib${Date.now()}` }) });",
        "app.update(doc => doc.seed = Math.random())",
    ]
    good = [
        "const id = newId('log');\napp.update((doc) => { doc.log.push({ id }); });",
        "const at = new Date().toISOString();\nconst mutate = (doc) => { doc.at = at; };",
    ]
    for text in bad:
        assert fresh_values_in_changes(text), text
    for text in good:
        assert not fresh_values_in_changes(text), text


@pytest.mark.parametrize("path", sorted(JS.rglob("*.js")), ids=lambda p: str(p.relative_to(JS)))
def test_no_change_of_the_table_makes_a_fresh_value_inside(path):
    found = fresh_values_in_changes(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: " + ", ".join(f"line {n}: {call}" for n, call in found)

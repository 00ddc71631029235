"""Writes e2e/durations.json, the running order a fresh clone starts from (the root conftest.py).

Run it after a whole `make test` (`make durations`): it reads the durations that run kept in
pytest's cache (`.pytest_cache`, key `tablee/durations`: setup, call and teardown of each test)
and writes every test of at least a second, rounded to a tenth, sorted by test. A test the run
did not measure keeps the baseline's entry; a test whose file is gone loses it; a test now under
a second leaves the list (the conftest then estimates it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(".pytest_cache") / "v" / "tablee" / "durations"
BASELINE = Path("e2e") / "durations.json"
MIN_SECONDS = 1.0


def read(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float) and not isinstance(v, bool)}


def write_baseline(root: Path = ROOT) -> dict[str, float]:
    """The new baseline of ``root`` (written to its e2e/durations.json, and returned)."""
    measured = read(root / CACHE)
    if not measured:
        raise SystemExit(f"no durations in {root / CACHE}: run `make test` first")
    merged = {**read(root / BASELINE), **measured}
    kept = {
        nodeid: round(seconds, 1)
        for nodeid, seconds in sorted(merged.items())
        if seconds >= MIN_SECONDS and (root / nodeid.split("::")[0]).is_file()
    }
    (root / BASELINE).write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return kept


if __name__ == "__main__":
    kept = write_baseline(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    print(f"{BASELINE}: {len(kept)} tests, {sum(kept.values()):.0f} s in all")

"""The page's pre-save guard (static/js/guard.js) run in Node on a list of cases (guard)."""

from __future__ import annotations

import json
import subprocess

from node_harness import NODE, ROOT
from tablee import store

LIMITS = store.limits_live()


def guard(*cases: dict) -> list:
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/guard_checks.mjs"],
        cwd=ROOT, input=json.dumps({"limits": LIMITS, "cases": list(cases)}), capture_output=True,
        text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)

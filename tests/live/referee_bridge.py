"""One engine request on stdin (JSON), its answer on stdout: the real referee for the live
table's Node harness (tests/live/session_harness.mjs ``realCall``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))

from tablee.api import handle

sys.stdout.write(json.dumps(handle(json.loads(sys.stdin.read())), ensure_ascii=False))

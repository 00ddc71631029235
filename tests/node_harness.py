"""One Node process speaking JSON lines, for the tests of the live table's JavaScript (Yjs runs
only in JavaScript): ``harness(op, **args)`` sends ``{"id", "op", ...}`` on its stdin and returns
the ``result`` of the matching ``{"id", "ok", "result" | "error"}`` line (an error raises).
The scripts answer through tests/live/lines.mjs. ``NODE`` is None where node is not installed
(the tests skip, saying so)."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)


class NodeHarness:
    def __init__(self, script: Path) -> None:
        self.proc = subprocess.Popen(
            [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(script)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
        )
        self.next_id = 0
        self.lock = threading.Lock()

    def __call__(self, op: str, **args):
        with self.lock:
            self.next_id += 1
            self.proc.stdin.write(json.dumps({"id": self.next_id, "op": op, **args}) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the node harness died (exit {self.proc.poll()})")
        answer = json.loads(line)
        assert answer["id"] == self.next_id
        if not answer["ok"]:
            raise AssertionError(answer["error"])
        return answer["result"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

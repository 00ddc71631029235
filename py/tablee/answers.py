"""Answers computed at set-up time, for the ops whose answer does not depend on the request.

``describe`` (every op and its schema) and ``store.limits`` (the systems' published
schemas) would import every system to answer live. tools/vendor.py computes them once with
:func:`tablee.api.live_answers` and writes each into the package archive as ``tablee/answer.<op>.json`` (the
exact text :func:`tablee.api.handle_json` would send), next to this module; the worker
answers from those files instead (issue 14: the first answer imports no system, and
``handle_json`` sends the file's text as is, without parsing 600 kB to dump it again). In a
source checkout (CPython, the tests) the files are absent and the ops answer live.
tests/test_site.py checks the archived files equal :func:`tablee.api.live_answers`, so a stale
file fails. This module imports no other module of the package (the store and the door both
read it; the live computation lives with the door), so no import circle passes through it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["OPS", "file_name", "precomputed", "text"]

#: The ops answered from a file (their requests carry nothing but ``op``).
OPS = ("describe", "store.limits")


def file_name(name: str) -> str:
    """The file holding ``name``'s answer, inside the package (``answer.describe.json``)."""
    return f"answer.{name}.json"


@cache
def text(name: str) -> str | None:
    """The set-up's answer to ``{"op": name}`` as JSON text, or None without the file."""
    if name not in OPS:
        return None
    try:
        return Path(__file__).with_name(file_name(name)).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def precomputed(name: str) -> dict[str, Any] | None:
    """The set-up's answer to ``{"op": name}`` (a fresh object), or None without the file."""
    raw = text(name)
    return json.loads(raw) if raw is not None else None


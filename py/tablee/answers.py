"""Answers computed at set-up time, for the ops whose answer does not depend on the request.

``describe`` (every op and its schema) and ``store.limits`` (the systems' published
schemas) would import every system to answer live. tools/vendor.py computes them once with
:func:`live` and writes them into the package archive as ``tablee/answers.json``, next to
this module; the worker reads that file instead (issue 14: the first answer imports no
system). In a source checkout (CPython, the tests) the file is absent and the ops answer
live. tests/test_answers.py checks the archived file equals :func:`live`, so a stale file
fails the tests.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["FILE_NAME", "OPS", "live", "precomputed"]

#: The file's name inside the package (tablee/answers.json in the archive).
FILE_NAME = "answers.json"
#: The ops answered from the file, in the file's key order.
OPS = ("describe", "store.limits")


@cache
def _load() -> dict[str, Any]:
    path = Path(__file__).with_name(FILE_NAME)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data if isinstance(data, dict) else {}


def precomputed(name: str) -> dict[str, Any] | None:
    """The set-up's answer to ``{"op": name}`` (a fresh copy), or None without the file."""
    answer = _load().get(name)
    return copy.deepcopy(answer) if isinstance(answer, dict) else None


def live() -> dict[str, Any]:
    """Every answer of :data:`OPS` computed now, every system imported, as JSON round-trips it."""
    from . import api, store

    api.load_all()
    answers = {"describe": api.describe_live(), "store.limits": store.limits_live()}
    return json.loads(json.dumps(answers, ensure_ascii=False))

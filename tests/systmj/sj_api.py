"""Calls to the JSON door shared by the SYSTMJ tests: an answer, or the error it gives."""

from __future__ import annotations

from tablee.api import handle


def call(request: dict) -> dict:
    """The answer to ``request``; fails the test on an error response."""
    resp = handle(request)
    assert "error" not in resp, resp
    return resp


def err(request: dict) -> str:
    """The code of the error ``request`` gives; fails the test on a success."""
    resp = handle(request)
    assert "error" in resp, resp
    return resp["error"]["code"]

"""PyScript worker: exposes tablee.api to the page.

The only Python file that lives in the browser's world. It is started by
static/js/engine.js with PyWorker(..., {config: "pyscript.toml", version: <local pyodide.mjs>})
and exports one function through the worker's ``sync`` object: JSON text in, JSON text out,
so nothing but plain strings crosses the thread boundary.
"""

from tablee.api import handle_json

__export__ = ["handle"]


def handle(text: str) -> str:
    """Answer one JSON request (see tablee.api.handle)."""
    return handle_json(text)

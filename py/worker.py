"""PyScript worker: exposes tablee.api to the page.

The only Python file that lives in the browser's world. It is started by
static/js/engine.js with PyWorker(..., {config: {files: pyscript.toml's [files]},
version: <local pyodide.mjs>}) and exports one function through the worker's ``sync``
object: JSON text in, JSON text out, so nothing but plain strings crosses the thread
boundary.

The rules package and its pinned wheels arrive as one archive, ``tablee.zip`` in the
working directory (tools/vendor.py builds it); Python imports from it as it is (zipimport:
nothing is unpacked, and only the modules a request needs are ever read).
"""

import os
import sys

sys.path.insert(0, os.path.abspath("tablee.zip"))

from tablee.api import handle_json  # from the archive just put on the path

__export__ = ["handle"]


def handle(text: str) -> str:
    """Answer one JSON request (see tablee.api.handle)."""
    return handle_json(text)

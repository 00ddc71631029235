"""PyScript worker: exposes tablee.api to the page.

The only Python file that lives in the browser's world. It is started by
static/js/engine.js with PyWorker(..., {config: <pyscript.toml's [files]>, version: <local
pyodide.mjs>}) and exports one function through the worker's ``sync`` object: JSON text in,
JSON text out, so nothing but plain strings crosses the thread boundary.

The interpreter comes from static/js/pyodide-snapshot.js (Pyodide's loadPyodide, started
from this device's memory snapshot when it has one); :func:`boot` tells the page how.

The package reaches the worker in two archives (tools/vendor.py): ``tablee.zip``, unpacked
before this file runs, holds what answers the first requests (``tablee.api`` and the set-up's
answers for ``store.limits`` and ``describe``); ``tablee-lib.zip.xz`` (the systems, the kernel,
icepool, fastjsonschema: a zip compressed as a whole with xz, the smallest on the wire) is
copied beside it and decompressed and unpacked by :class:`Library` on the first import the
first archive cannot answer, so the engine is ready without unpacking 130 files it may not
need yet. (A start from the memory snapshot has imported all of them already.)
"""

import importlib
import importlib.abc
import importlib.machinery
import io
import json
import lzma
import os
import sys
import zipfile


class Library(importlib.abc.MetaPathFinder):
    """Last on ``sys.meta_path``: asked only for a module no other finder found. When that
    module's top-level package is in the library archive (the package's own, icepool,
    fastjsonschema; not an optional import some module merely tries), unpacks the archive next
    to the package, once, then lets the path finder look again. The archive is an xz-compressed
    zip (tools/vendor.py LIB_PACKED), decompressed in memory on first need."""

    def __init__(self, archive: str, into: str = ".", names: str = "tablee-lib.names.json") -> None:
        self.archive = archive
        self.names = names
        self.into = into
        self.tops: set[str] | None = None  # the archive's top-level names, read on first need
        self.zip: bytes | None = None  # the decompressed zip, from first need until unpacked

    def holds(self, name: str) -> bool:
        if self.tops is None:
            try:  # (the names tools/vendor.py wrote beside the first archive's modules: no decompression)
                with open(self.names) as names:
                    self.tops = set(json.load(names))
            except (OSError, ValueError):
                self.tops = None
        if self.tops is None:
            try:
                with open(self.archive, "rb") as packed:
                    self.zip = lzma.decompress(packed.read())
                with zipfile.ZipFile(io.BytesIO(self.zip)) as library:
                    self.tops = {entry.split("/")[0].removesuffix(".pyc").removesuffix(".py")
                                 for entry in library.namelist()}
            except (OSError, lzma.LZMAError, zipfile.BadZipFile):
                self.tops = set()
        return name.split(".")[0] in self.tops

    def find_spec(self, name, path=None, target=None):
        if not self.holds(name):
            return None
        if self.zip is None:
            with open(self.archive, "rb") as packed:
                self.zip = lzma.decompress(packed.read())
        with zipfile.ZipFile(io.BytesIO(self.zip)) as library:
            library.extractall(self.into)
        self.zip = None
        os.remove(self.archive)
        sys.meta_path.remove(self)
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(name, path)


sys.meta_path.append(Library("tablee-lib.zip.xz"))

from tablee.api import handle_json  # noqa: E402  (the finder first)

__export__ = ["handle", "boot"]


def handle(text: str) -> str:
    """Answer one JSON request (see tablee.api.handle)."""
    return handle_json(text)


def boot() -> str:
    """How the interpreter started, as JSON text: ``{"boot": "snapshot" | "made" | "plain",
    "snapshot_bytes": int}`` (set by static/js/pyodide-snapshot.js, the interpreter's module:
    restored from this device's memory snapshot, started plainly and made one, or started
    plainly; the snapshot's size in bytes, 0 when there is none). The page asks once the
    engine has answered its first request: the moment a snapshot made by this start is
    stored, off the start's critical path."""
    import json

    import js  # the worker's global scope

    # A snapshot made by this start is stored now that the engine is ready (once).
    store = getattr(js, "tableeStoreSnapshot", None)
    if store is not None:
        store()
    kind = os.environ.get("TABLEE_ENGINE_BOOT", "plain")
    size = os.environ.get("TABLEE_SNAPSHOT_BYTES", "0")
    return json.dumps({"boot": kind, "snapshot_bytes": int(size) if size.isdigit() else 0})

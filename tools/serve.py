"""Serve the static site on localhost, as GitHub Pages would, optionally under a sub-path.

``python3 tools/serve.py --port 8000`` serves the repository root at http://localhost:8000/.
``--base /tablee/`` serves it at http://localhost:8000/tablee/ instead (the e2e tests use
this to prove that every URL in the app is relative). Only the files a static host would
publish are served: never .git, node_modules or the virtual environment.

Text files (HTML, JS, CSS, JSON, SVG, TOML, Python) are sent gzipped to a request that
accepts it, as GitHub Pages does (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``,
the compressed ``Content-Length``); each file is compressed once per version and kept in
memory. A ``Range`` request, a 304 and everything else (wasm, archives, images) are sent as
the plain handler sends them.
"""

from __future__ import annotations

import argparse
import datetime
import email.utils
import functools
import gzip
import http.server
import io
import os
import socketserver
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ("/.git", "/node_modules", "/.venv", "/.ci", "/.github", "/tests", "/e2e", "/tools")

TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".toml": "text/plain",
    ".py": "text/plain",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
}

# Content types sent gzipped (GitHub Pages compresses text; wasm and archives are left as
# they are, so the figures measured here do not flatter what a real host would send).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json", "image/svg+xml")
_gzipped: dict[tuple[str, int, int], bytes] = {}
_gzip_lock = threading.Lock()


def gzipped(path: str, stat: os.stat_result) -> bytes:
    """The gzip of the file at `path` in the version `stat` describes (computed once)."""
    key = (path, stat.st_mtime_ns, stat.st_size)
    with _gzip_lock:
        cached = _gzipped.get(key)
    if cached is None:
        cached = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
        with _gzip_lock:
            for old in [k for k in _gzipped if k[0] == path]:
                del _gzipped[old]
            _gzipped[key] = cached
    return cached


def accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header accepts gzip (a `q=0` refuses it)."""
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        return q > 0
    return False


class Handler(http.server.SimpleHTTPRequestHandler):
    base = "/"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

    def translate_path(self, path: str) -> str:
        # Strip the sub-path; anything outside it maps to a file that does not exist.
        if not path.startswith(self.base):
            return str(ROOT / "__outside_base__")
        return super().translate_path("/" + path[len(self.base):])

    def do_GET(self) -> None:
        if self.base != "/" and self.path in ("/", self.base.rstrip("/")):
            self.send_response(302)
            self.send_header("Location", self.base)
            self.end_headers()
            return
        rel = "/" + self.path[len(self.base):] if self.path.startswith(self.base) else self.path
        if any(rel == h or rel.startswith(h + "/") for h in HIDDEN):
            self.send_error(404)
            return
        super().do_GET()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not self.path.split("?", 1)[0].endswith("/") or not os.path.isfile(index):
                return super().send_head()  # the redirect or the listing, as before
            path = index
        ctype = self.guess_type(path)
        if not ctype.startswith(COMPRESSIBLE) or "Range" in self.headers or path.endswith("/"):
            return super().send_head()
        try:
            stat = os.stat(path)
        except OSError:
            return super().send_head()  # its 404
        if not os.path.isfile(path):
            return super().send_head()
        if not accepts_gzip(self.headers.get("Accept-Encoding")):
            self.vary = True
            return super().send_head()
        if "If-Modified-Since" in self.headers and "If-None-Match" not in self.headers:
            try:
                ims = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
            except (TypeError, IndexError, OverflowError, ValueError):
                ims = None
            if ims is not None:
                if ims.tzinfo is None:
                    ims = ims.replace(tzinfo=datetime.UTC)
                modified = datetime.datetime.fromtimestamp(stat.st_mtime, datetime.UTC).replace(microsecond=0)
                if modified <= ims:
                    self.send_response(304)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
        body = gzipped(path, stat)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        if getattr(self, "vary", False):
            self.send_header("Vary", "Accept-Encoding")
            self.vary = False
        # Like a static host: let the service worker do the caching, revalidate otherwise.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    quiet = False

    def handle_error(self, request, client_address) -> None:
        """A browser that stops reading a response (a page closed or reloaded while a file was
        sent) is no fault of the server: its traceback is not printed. Any other is."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_server(
    port: int, base: str = "/", host: str = "127.0.0.1", quiet: bool = False, handler_class: type = Handler
) -> Server:
    if not base.startswith("/") or not base.endswith("/"):
        raise ValueError("--base must start and end with '/'")
    handler = type("BoundHandler", (handler_class,), {"base": base})
    server = Server((host, port), functools.partial(handler, directory=str(ROOT)))
    server.quiet = quiet
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Tablée locally.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--base", default="/", help="sub-path to serve under, e.g. /tablee/")
    args = parser.parse_args()
    server = make_server(args.port, args.base, args.host)
    print(f"Tablée: http://localhost:{args.port}{args.base}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

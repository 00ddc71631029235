"""Serve the static site on localhost, as GitHub Pages would, optionally under a sub-path.

``python3 tools/serve.py --port 8000`` serves the repository root at http://localhost:8000/.
``--base /tablee/`` serves it at http://localhost:8000/tablee/ instead (the e2e tests use
this to prove that every URL in the app is relative). Only the files a static host would
publish are served: never .git, node_modules or the virtual environment.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import socketserver
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

    def end_headers(self) -> None:
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

"""The site as the browser tests serve it: under the base path GitHub Pages gives a project
(``BASE``), on a free port, with a switch to publish a "new version" of the precache list
(``SiteHandler.version_suffix``). e2e/conftest.py's fixtures serve it; a test that needs a
second server of its own imports these from here, never from ``conftest``."""

from __future__ import annotations

import re
import socket
import sys

from browser_support import ROOT

sys.path.insert(0, str(ROOT / "tools"))

from serve import Handler

BASE = "/tablee/"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SiteHandler(Handler):
    """The site as served, plus a switch to publish a "new version" of the precache list."""

    version_suffix = ""

    def do_GET(self) -> None:
        if self.version_suffix and self.path.endswith("/static/vendor/precache.js"):
            text = (ROOT / "static/vendor/precache.js").read_text()
            self.send_script(re.sub(r'("version": ")(\w+)"', rf'\g<1>\g<2>{self.version_suffix}"', text))
            return
        super().do_GET()

    def send_script(self, text: str) -> None:
        """Answer with ``text`` as a script of the site (a file served rewritten)."""
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

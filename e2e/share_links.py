"""Share links as the pages make and read them: a table to share, a device that opens a link, the
link's payload packed and unpacked."""

from __future__ import annotations

import base64
import json
import re
import zlib

from playwright.sync_api import expect

from browser_support import CSP_RECORDER, STRICT_TABLES, goto_route, ok, wait_engine
from tablee.share_dictionary import DICTIONARY_1


def table(name: str = "Table de test", characters=(), systems=None, log=()) -> dict:
    doc = ok({"op": "store.new", "name": name, "language": "fr"})["document"]
    doc["characters"] = list(characters)
    doc["systems"] = systems or {}
    doc["log"] = list(log)
    return ok({"op": "store.open", "document": doc})["document"]


def payload(envelope) -> str:
    """What the page's codec writes: deflate-raw, then base64url without padding."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(json.dumps(envelope).encode()) + c.flush()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unpack(url: str) -> dict:
    """The envelope of a link: plain deflate-raw, or marked ``d1.`` (a table's link, packed
    against the links' preset dictionary, tablee.share_dictionary)."""
    text = url.split("#/share/", 1)[1]
    packed = text.startswith("d1.")
    text = text.removeprefix("d1.")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    reader = zlib.decompressobj(-15, zdict=DICTIONARY_1.encode()) if packed else zlib.decompressobj(-15)
    return json.loads(reader.decompress(raw) + reader.flush())


class Device:
    """One browser profile with the app open (its own storage), guarded like ``guarded``."""

    def __init__(self, browser, site: str, server: str, width: int = 360, locale: str = "fr-FR"):
        self.site = site
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.csp: list[str] = []
        self.context = browser.new_context(viewport={"width": width, "height": 740}, locale=locale)
        own = re.escape(server)
        self.context.route(re.compile(rf"^(?!{own}/|blob:|data:).*"), self._block)
        self.context.on("weberror", lambda e: self.errors.append(str(e.error)))
        self.context.on(
            "console", lambda m: self.csp.append(m.text) if "Content Security Policy" in m.text else None
        )
        self.context.expose_binding("__tableeCspReport", lambda source, text: self.csp.append(str(text)))
        self.context.add_init_script(CSP_RECORDER)
        self.context.add_init_script(STRICT_TABLES)
        self.page = self.context.new_page()

    def _block(self, route):
        self.foreign.append(route.request.url)
        route.abort()

    def open(self, doc: dict | None = None):
        """The app on this device, its saved table ``doc`` (written from a plain file of the
        site before the app loads, so the engine boots once)."""
        if doc is not None:
            self.page.goto(self.site + "manifest.webmanifest")
            self.page.evaluate("d => localStorage.setItem('tablee.document', JSON.stringify(d))", doc)
        self.page.goto(self.site)
        wait_engine(self.page)
        return self.page

    def write(self, doc: dict) -> None:
        """Another tab of this device saves ``doc``: the app's tab follows (storage event)."""
        other = self.context.new_page()
        other.goto(self.site + "manifest.webmanifest")
        other.evaluate("d => localStorage.setItem('tablee.document', JSON.stringify(d))", doc)
        other.close()

    def close(self):
        self.context.close()
        assert not self.foreign, f"requests left the site's origin: {self.foreign}"
        assert not self.errors, f"uncaught page errors: {self.errors}"
        assert not self.csp, f"Content-Security-Policy violations: {self.csp}"


def make_link(page, choice: str, audience: str = "player") -> str:
    goto_route(page, "share")
    page.select_option("#share-what", choice)
    page.check(f"#share-audience-{audience}")
    page.click("#share-make")
    field = page.locator("#share-link")
    expect(field).to_have_value(re.compile(r"#/share/(d1\.)?[A-Za-z0-9_-]+$"))
    return field.input_value()

"""Two builds at one live table (static/js/live/versions.js): the same tree served twice, the
second time as an older Tablée (another build id, an older protocol number), the MJ's laptop on
the first and Léa's phone on the second. When the link opens, both pages say which device must
update and how, the phone still gets the table, and nothing closes without a word. A service-
worker update published meanwhile waits: the MJ's device asks before reloading mid-table.
"""

from __future__ import annotations

import json
import re
import threading

import pytest
from playwright.sync_api import expect

from browser_support import Device
from live_join_by_name import invitation, table
from serve import make_server
from site_server import BASE, SiteHandler, free_port

pytestmark = pytest.mark.slow


class OlderSite(SiteHandler):
    """The site as an older Tablée serves it: its own build id, protocol 0."""

    def do_GET(self) -> None:
        rewrites = {
            "/static/vendor/build.js": ("BUILD = \"", "BUILD = \"older"),
            "/static/js/live/versions.js": ("export const PROTOCOL = 1;", "export const PROTOCOL = 0;"),
        }
        for path, (old, new) in rewrites.items():
            if self.path.split("?")[0].endswith(path):
                from browser_support import ROOT

                text = (ROOT / path.lstrip("/")).read_text(encoding="utf-8")
                assert old in text, path
                self.send_script(text.replace(old, new))
                return
        super().do_GET()


@pytest.fixture
def older_site():
    port = free_port()
    httpd = make_server(port, BASE, quiet=True, handler_class=OlderSite)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{port}"
    httpd.shutdown()


def test_an_older_phone_at_a_newer_mjs_table_is_told_to_update_on_both_screens(
        devices, site, browser, older_site, new_version):
    mj = devices(mj=True).page
    phone = Device(browser, older_site, mj=False)
    try:
        mj.goto(site + "manifest.webmanifest")
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
        mj.goto(site + "#/live")
        expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
        lea = phone.page
        # (the MJ's invitation, opened by Léa's phone on its own, older, site)
        lea.goto(invitation(mj).replace(site, older_site + BASE))
        lea.fill("#live-name", "Léa")
        lea.click("#live-join")
        expect(lea.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
        mj.fill("#live-answer", lea.locator("#live-answer-text").input_value())
        mj.click("#live-accept")
        expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
        expect(lea.locator("#notices")).to_contain_text(
            "Le ou la MJ utilise une version plus récente de Tablée. Mettez Tablée à jour sur ce téléphone : fermez puis rouvrez la page.")
        expect(mj.locator("#notices")).to_contain_text(
            "Le téléphone de Léa utilise une version plus ancienne de Tablée. Mettez Tablée à jour sur ce téléphone : fermez puis rouvrez la page.")
        # the link stays open and the table reached the phone
        expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")
        assert lea.evaluate("() => import('./static/js/live/versions.js').then(m => m.OURS.build)").startswith("older")
        assert not re.search("older", mj.evaluate("() => import('./static/js/live/versions.js').then(m => m.OURS.build)"))

        # A new version published mid-table: the MJ's device says it waits until the table is
        # left, and « Mettre à jour maintenant » asks first; declined, nothing reloads.
        mj.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
        new_version("next")
        mj.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        notice = mj.locator(".notice", has_text="Une nouvelle version de Tablée est prête")
        expect(notice).to_contain_text("Elle attendra que vous quittiez la table en direct", timeout=60_000)
        mj.wait_for_function("() => navigator.serviceWorker.getRegistration().then(r => r.waiting !== null)")
        asked = []
        mj.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        mj.evaluate("() => { window.__samePage = true; }")
        notice.get_by_role("button", name="Mettre à jour maintenant").click()
        expect(notice).to_be_visible()  # (still offered)
        assert asked and "les liens de la table en direct de cet appareil se coupent" in asked[0]
        assert mj.evaluate("() => window.__samePage === true")  # no reload
        assert mj.evaluate("navigator.serviceWorker.getRegistration().then(r => r.waiting !== null)")
        expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")
        phone.check()
    finally:
        phone.context.close()

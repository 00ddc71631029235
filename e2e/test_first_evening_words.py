"""The first evening, the words (a phone, 360×740): names, not ids, and sentences of the
interface language. The home page explains "MK"; Versality's creation steps are numbered in
the order the page shows them; a storage key never names a backup in a message."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import goto_route, wait_engine


def test_home_explains_mk_and_versality_steps_follow_the_page(app):
    goto_route(app, "home")
    theorem = app.locator("[data-testid=home-system][data-system=theorem]")
    expect(theorem).to_contain_text("Maître de Ka (le MK")
    goto_route(app, "versality")
    app.fill("#vs-new-name", "Nadia")
    app.click("#vs-create")
    expect(app.locator("#vs-power-0")).to_be_visible()
    legends = app.locator("main legend").all_inner_texts()
    numbered = [text for text in legends if re.match(r"^\d+\.", text)]
    assert [int(text.split(".")[0]) for text in numbered] == list(range(1, len(numbered) + 1)), numbered
    assert len(numbered) == 6 and not any("bis" in text for text in legends), legends


def test_a_set_aside_table_is_named_by_its_date_not_its_storage_key(page, site, guarded):
    # An unreadable saved table is set aside: the message names the backup as a person reads it.
    page.goto(site + "manifest.webmanifest")
    page.evaluate("() => localStorage.setItem('tablee.document', '{not json')")
    page.goto(site)
    wait_engine(page)
    notice = page.locator(".notice.error").first
    expect(notice).to_contain_text("sauvegarde")
    text = notice.inner_text()
    assert "tablee.backup" not in text and not re.search(r"\d{4}-\d\d-\d\dT", text), text
    assert re.search(r"\b20\d\d\b", text), text  # the date, in words

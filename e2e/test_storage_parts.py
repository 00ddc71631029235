"""The Table page says what takes the site's storage, part by part, largest first (storage.js
storageParts): a person sees that a live table's copy, or the backups, take the room."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import wait_engine


def test_the_table_page_names_what_takes_the_storage_largest_first(app):
    # a phone's copy of a live table's shared state (no session record: nothing starts) and a backup
    app.evaluate("""() => {
      localStorage.setItem('tablee.live.y', '\\u3400'.repeat(1200000));
      localStorage.setItem('tablee.backup.2026-01-01T00:00:00.000Z', JSON.stringify({app: 'tablee'}) + ' '.repeat(300000));
    }""")
    app.goto(app.url.split("#")[0] + "#/table")
    app.reload()
    wait_engine(app)
    parts = app.locator("[data-testid=storage-parts] li")
    expect(parts.first).to_have_attribute("data-part", "live")
    expect(parts.first).to_contain_text("La table en direct")
    expect(parts.first).to_contain_text("2,4 Mo")  # (1.2 M characters above U+00FF: 2 bytes each, as WebKit counts them)
    expect(parts.nth(1)).to_have_attribute("data-part", "backups")
    expect(app.locator("[data-testid=storage-parts] li[data-part=table]")).to_contain_text("La table :")
    app.evaluate("localStorage.removeItem('tablee.live.y')")
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=storage-parts] li[data-part=live]")).to_have_count(0)
    expect(app.locator("[data-testid=storage-parts] li").first).to_have_attribute("data-part", "backups")

"""One record nested too deep never hides the table: at boot and when a backup is restored, the
record goes "à réparer" (kept whole as its JSON text) and the rest opens. The record here nests
past what a request to the engine may carry (64 levels), so the page sets it apart itself
(guard.setApartTooDeep) before store.open sees the table."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from browser_support import wait_engine, wait_saved


def _nest(levels: int):
    value = 1
    for _ in range(levels):
        value = [value]
    return value


def _table(name: str, deep_levels: int) -> dict:
    entry = {"id": "l1", "at": "2026-11-25T10:00:00.000Z", "kind": "roll", "system": None, "label": "2d6",
             "request": {"op": "roll", "expr": "2d6"}, "result": {"total": 7}}
    deep = {**entry, "id": "l2", "label": "profond", "result": {"deep": _nest(deep_levels)}}
    return {"schema": 1, "app": "tablee", "name": name, "language": "fr", "characters": [],
            "log": [entry, deep], "systems": {}, "settings": {}}


def test_a_saved_table_with_one_record_too_deep_opens_with_it_set_apart(page, site, guarded):
    # Seeded from a page of the site that is not the app: an app page still starting could write
    # its own table over the seeded one before the reload (a fresh table's first save).
    page.goto(site + "manifest.webmanifest")
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(_table("Profonde", 80)))
    page.goto(site + "#/table")
    wait_engine(page)
    doc = wait_saved(page, "d => Array.isArray(d.quarantine) && d.quarantine.length === 1")
    assert doc["name"] == "Profonde"
    assert [e["id"] for e in doc["log"]] == ["l1"]
    [item] = doc["quarantine"]
    assert item["path"] == "log.1" and item["problems"][0]["params"]["reason"] == "too_deep"
    assert json.loads(item["data"]) == _table("Profonde", 80)["log"][1]  # kept whole
    expect(page.locator("[data-testid=quarantine-item]")).to_have_count(1)
    # no backup was needed: the table was not set aside
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('tablee.backup.'))") == []


def test_a_backup_with_one_record_too_deep_can_be_restored(page, site, guarded):
    page.goto(site + "#/table")
    wait_engine(page)
    page.evaluate("raw => localStorage.setItem('tablee.backup.2020-01-01T00:00:00.000Z', raw)",
                  json.dumps(_table("Ancienne", 40)))
    page.reload()
    wait_engine(page)
    page.on("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Restaurer").click()
    expect(page.locator("#table-name")).to_have_text("Ancienne")
    doc = wait_saved(page, "d => d.name === 'Ancienne' && d.quarantine.length === 1")
    assert [e["id"] for e in doc["log"]] == ["l1"]

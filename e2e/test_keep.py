"""A campaign that survives the browser (static/js/views/keep.js): the Table page says whether
the browser made this site's storage persistent and asks for it on a tap; on Safari, and
wherever persistence is not granted, it says what may be lost, how to put Tablée on the home
screen, and offers the export; a table with changes not exported for a week gets one quiet
reminder a day with a one-tap export, never during a live table (a clock the test controls).

The browser's answers about persistence and Safari's user agent are set by init scripts of
the test's page: what is checked is what the page does with each answer.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from browser_support import new_table, no_horizontal_scroll, wait_saved

# navigator.storage as a browser that has not made the storage persistent, and grants it when
# the person asks once `window.__allowPersist` is true (the shell's silent request at boot is
# refused: it runs before the test allows anything).
FAKE_PERSISTENCE = """(() => {
  let granted = false;
  const storage = navigator.storage;
  storage.persisted = () => Promise.resolve(granted);
  storage.persist = () => { window.__persistAsked = (window.__persistAsked || 0) + 1;
    if (window.__allowPersist === true) granted = true; return Promise.resolve(granted); };
})();"""
# Safari on an iPhone, whose storage reads as persisted: Safari's seven days apply all the same.
SAFARI = """(() => {
  const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  Object.defineProperty(Navigator.prototype, 'userAgent', { get: () => ua, configurable: true });
  Object.defineProperty(Navigator.prototype, 'vendor', { get: () => 'Apple Computer, Inc.', configurable: true });
  navigator.storage.persisted = () => Promise.resolve(true);
  navigator.storage.persist = () => Promise.resolve(true);
})();"""

ALICE = {"id": "pz-alice", "system": "pointzero", "name": "Alice"}


def open_table_page(page, site: str, doc: dict) -> None:
    """The Table page on `doc` (written before the app's first load; the page needs no engine)."""
    page.goto(site + "manifest.webmanifest")
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc, ensure_ascii=False))
    page.goto(site + "#/table")
    expect(page.locator("[data-testid=keep-section]")).to_be_visible()


def test_the_table_page_says_the_storage_is_not_persistent_and_asks_on_a_tap(page, site, guarded):
    page.add_init_script(FAKE_PERSISTENCE)
    open_table_page(page, site, new_table(name="Campagne"))
    section = page.locator("[data-testid=keep-section]")
    expect(section.locator("[data-testid=keep-persisted]")).to_have_attribute("data-state", "not-persisted")
    expect(section.locator("[data-testid=keep-persisted]")).to_have_text(
        "Stockage persistant : non accordé. Le navigateur peut effacer la table pour faire de la place.")
    # Not Safari: the general risk, the steps to the home screen, the export.
    expect(section).to_have_attribute("data-safari", "no")
    expect(section.locator("[data-testid=keep-risk]")).to_contain_text("Ce navigateur peut effacer les données de Tablée")
    expect(section.locator("[data-testid=keep-steps] li")).to_have_count(3)
    expect(section.locator("[data-testid=keep-steps]")).to_contain_text("« Installer l'application »")
    expect(section.locator("[data-testid=keep-exported]")).to_have_text("Cette table n'a jamais été exportée depuis cet appareil.")
    no_horizontal_scroll(page)

    # Refused: the page says so and changes nothing else.
    page.click("#keep-ask")
    expect(section.locator("[data-testid=keep-asked]")).to_contain_text("n'a pas accordé")
    expect(section.locator("[data-testid=keep-persisted]")).to_have_attribute("data-state", "not-persisted")
    # Granted on the second tap: the state and the risk follow the browser's answer.
    page.evaluate("() => { window.__allowPersist = true; }")
    page.click("#keep-ask")
    expect(section.locator("[data-testid=keep-persisted]")).to_have_attribute("data-state", "persisted")
    expect(section.locator("[data-testid=keep-asked]")).to_have_text("Accordé : ce navigateur gardera la table jusqu'à ce que vous l'effaciez.")
    expect(section.locator("[data-testid=keep-risk]")).to_have_count(0)
    expect(page.locator("#keep-ask")).to_have_count(0)
    assert page.evaluate("() => window.__persistAsked") >= 3  # the boot's silent request, then the two taps

    # In English, the same section.
    page.click("#lang-toggle")
    expect(section.locator("[data-testid=keep-persisted]")).to_have_text(
        "Persistent storage: granted. The browser keeps the table until you delete it.")


# A browser that grants persistence silently to the shell's request at boot, later (when the
# test calls window.__grant(): after the Table page first asked).
SILENT_GRANT = """(() => {
  let granted = false;
  navigator.storage.persisted = () => Promise.resolve(granted);
  navigator.storage.persist = () => new Promise((resolve) => {
    window.__grant = () => { granted = true; resolve(true); };
  });
})();"""


def test_the_boot_s_silent_grant_is_shown_when_the_page_is_opened_again(page, site, guarded):
    page.add_init_script(SILENT_GRANT)
    open_table_page(page, site, new_table(name="Campagne"))
    state = page.locator("[data-testid=keep-persisted]")
    expect(state).to_have_attribute("data-state", "not-persisted")
    page.evaluate("() => window.__grant()")
    page.goto(site + "#/")
    page.goto(site + "#/table")
    expect(state).to_have_attribute("data-state", "persisted")
    expect(page.locator("[data-testid=keep-risk]")).to_have_count(0)
    expect(page.locator("#keep-ask")).to_have_count(0)


def test_safari_is_told_about_its_seven_days_and_exports_in_one_tap(page, site, guarded):
    page.add_init_script(SAFARI)
    open_table_page(page, site, new_table([ALICE], name="Soirée"))
    section = page.locator("[data-testid=keep-section]")
    expect(section).to_have_attribute("data-safari", "yes")
    # Persisted or not, Safari deletes after seven days without a visit: the page says so.
    expect(section.locator("[data-testid=keep-persisted]")).to_have_attribute("data-state", "persisted")
    expect(section.locator("[data-testid=keep-risk]")).to_have_text(
        "Safari efface les données d'un site après sept jours d'utilisation du navigateur sans visite, sauf si le site"
        " est sur l'écran d'accueil : votre table disparaîtrait avec elles.")
    expect(section.locator("[data-testid=keep-steps]")).to_contain_text("iPhone, iPad (Safari) : Partager → « Sur l'écran d'accueil ».")
    expect(section.locator("[data-testid=keep-steps]")).to_contain_text("Android (Chrome) : menu ⋮ → « Installer l'application »")
    no_horizontal_scroll(page)
    with page.expect_download() as info:
        page.click("#keep-export")
    download = info.value
    assert download.suggested_filename.startswith("tablee-Soire")
    assert json.loads(open(download.path(), encoding="utf-8").read())["characters"][0]["name"] == "Alice"
    expect(section.locator("[data-testid=keep-exported]")).to_contain_text("Dernier export :")
    keep = json.loads(page.evaluate("() => localStorage.getItem('tablee.keep')"))
    assert keep["exported"] and keep["since"] is None


T0 = datetime(2026, 11, 2, 20, 0, tzinfo=UTC)
REMINDER = "#notices .notice:has-text('pas été exportées')"


def reload_at(page, when: datetime) -> None:
    """Reload the page at `when` (the page's clock), then wait until the reminder was decided."""
    page.clock.set_system_time(when)
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.keepReminder !== undefined")


def rename(page, name: str) -> None:
    page.goto(page.url.split("#")[0] + "#/table")
    page.fill("#table-name-input", name)
    page.locator("#table-name-input").dispatch_event("change")
    wait_saved(page, "(d, n) => d.name === n", name)


@pytest.mark.fresh_context  # (the clock is installed for the whole context)
def test_a_table_not_exported_for_a_week_gets_a_daily_reminder_never_during_a_live_table(page, site, guarded):
    page.clock.install(time=T0)
    page.goto(site + "manifest.webmanifest")
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(new_table([ALICE], name="Campagne")))
    page.goto(site + "#/table")
    rename(page, "Campagne d'hiver")  # a change on day 0
    keep = json.loads(page.evaluate("() => localStorage.getItem('tablee.keep')"))
    assert keep["since"] == keep["changed"] and keep["since"].startswith("2026-11-02T20:")
    expect(page.locator(REMINDER)).to_have_count(0)

    # Six days later: not yet.
    reload_at(page, T0 + timedelta(days=6))
    assert page.evaluate("() => document.documentElement.dataset.keepReminder") == "none"
    expect(page.locator(REMINDER)).to_have_count(0)
    # Eight days later: the reminder, once, with the date of the change.
    reload_at(page, T0 + timedelta(days=8))
    expect(page.locator(REMINDER)).to_be_visible()
    expect(page.locator(REMINDER)).to_contain_text("depuis le lundi 2 nov. 2026")
    # Again the same day: not shown again.
    reload_at(page, T0 + timedelta(days=8, hours=5))
    assert page.evaluate("() => document.documentElement.dataset.keepReminder") == "none"
    expect(page.locator(REMINDER)).to_have_count(0)
    # The next day: shown again; its button exports the table in one tap and the reminder goes.
    reload_at(page, T0 + timedelta(days=9, hours=1))
    expect(page.locator(REMINDER)).to_be_visible()
    with page.expect_download() as info:
        page.locator(REMINDER).get_by_role("button", name="Exporter la table").click()
    assert json.loads(open(info.value.path(), encoding="utf-8").read())["name"] == "Campagne d'hiver"
    expect(page.locator(REMINDER)).to_have_count(0)
    keep = json.loads(page.evaluate("() => localStorage.getItem('tablee.keep')"))
    assert keep["since"] is None and keep["exported"].startswith("2026-11-11T21:")
    # Nothing changed since the export: no reminder, however long after.
    reload_at(page, T0 + timedelta(days=30))
    assert page.evaluate("() => document.documentElement.dataset.keepReminder") == "none"

    # A change, then a week and more during which this device follows a live table: no reminder.
    rename(page, "Campagne de printemps")
    page.evaluate("() => localStorage.setItem('tablee.live', JSON.stringify({ role: 'mj' }))")
    reload_at(page, T0 + timedelta(days=40))
    assert page.evaluate("() => document.documentElement.dataset.keepReminder") == "live"
    expect(page.locator(REMINDER)).to_have_count(0)

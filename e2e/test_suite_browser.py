"""The suite's own browser: launched without the headless window's unseen address-bar popups
(``browser_support.without_unseen_features``), and with every feature Playwright turns off still
off (Chromium reads only the last ``--disable-features`` of its command line)."""

from __future__ import annotations

from browser_support import HEADLESS_UNSEEN_FEATURES


def test_the_suites_chromium_turns_off_the_unseen_popups_and_keeps_playwrights_switches(browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        command_line = page.locator("#command_line").inner_text().split()
    finally:
        context.close()
    lists = [arg.split("=", 1)[1].split(",") for arg in command_line if arg.startswith("--disable-features=")]
    assert len(lists) >= 2, command_line  # Playwright's own, then the suite's
    in_effect = set(lists[-1])
    assert set(HEADLESS_UNSEEN_FEATURES) <= in_effect
    assert set(lists[0]) <= in_effect

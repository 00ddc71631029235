"""The suite's own browser: launched without the headless window's unseen address-bar popups
(``browser_support.without_unseen_features``), and with every feature Playwright turns off still
off (Chromium reads only the last ``--disable-features`` of its command line)."""

from __future__ import annotations

from browser_support import HEADLESS_UNSEEN_FEATURES, disabled_feature_lists


def test_the_suites_chromium_turns_off_the_unseen_popups_and_keeps_playwrights_switches(browser):
    context = browser.new_context()
    try:
        lists = disabled_feature_lists(context.new_page())
    finally:
        context.close()
    assert len(lists) >= 2, lists  # Playwright's own, then the suite's
    in_effect = set(lists[-1])
    assert set(HEADLESS_UNSEEN_FEATURES) <= in_effect
    assert set(lists[0]) <= in_effect

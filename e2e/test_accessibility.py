"""Accessibility: axe-core (pinned in package.json, dev only) finds no serious or critical
violation on the shell's screens, and the keyboard alone reaches and runs a roll."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, goto_route, wait_log

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page) -> list[dict]:
    # Evaluated, not added as a <script> tag: the page's Content-Security-Policy refuses inline scripts.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
            .filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)})))"""
    )
    return result


@pytest.mark.parametrize(
    "route", ["home", "tray", "log", "table", "about", "share", "systmj", "versality", "pointzero", "theorem", "unicreon"]
)
def test_no_serious_axe_violation(app, route):
    app.fill("#dice-expr", "2d6")
    app.click("#roll-button")
    expect(app.locator("#roll-result li.die")).to_have_count(2)
    wait_log(app, 1)  # the log view then lists the roll
    goto_route(app, route)
    assert axe_violations(app) == []


def test_keyboard_alone_rolls_dice(app):
    app.keyboard.press("Tab")
    expect(app.locator(".skip-link")).to_be_focused()
    app.keyboard.press("Enter")
    # The skip link's navigation focuses the main region once the route is handled: wait for
    # it, or (on a loaded machine) it lands after we focus the field and swallows the typing.
    expect(app.locator("#main")).to_be_focused()
    app.locator("#dice-expr").focus()
    app.keyboard.press("Control+A")
    app.keyboard.type("3d6")
    app.keyboard.press("Enter")
    expect(app.locator("#roll-result li.die")).to_have_count(3)

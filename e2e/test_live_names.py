"""Who is at the live table, in the pages (static/js/views/live.js, live/hub.js): a phone that
answers under a name already at the table is asked for another and never enters the MJ's list
of players; on « Personnages demandés » a character another player plays is said plainly and
goes to the one asking only by its own button.

An MJ and two phones (separate browser contexts) joined by the copy/paste fallback, as in
e2e/test_live_table.py.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from live_join_by_name import answer, table


def test_a_name_at_the_table_is_refused_and_a_played_character_needs_its_own_choice(devices, site):
    mj, lea, mo = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    answer(mj, lea, "Léa")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")
    lea.check("[data-testid=live-session] input[data-character=t-a]")
    mj.locator("[data-testid=live-assign] li:has-text('Léa') button").click()
    expect(lea.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "yes")

    # A second phone answers as « léa » while Léa is at the table: refused, told why, and the
    # MJ's list of players never shows it (nor marks Léa "connexion…").
    answer(mj, mo, " léa ")
    expect(mo.locator("#notices")).to_contain_text("Ce nom est déjà à la table")
    expect(mj.locator("[data-testid=live-feed]")).to_contain_text("nom déjà à la table")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")

    # Under a name of its own it joins; it asks for Aube, whom Léa plays: said plainly, and only
    # the button that says it takes Aube from Léa gives it.
    answer(mj, mo, "Mo")
    expect(mj.locator("[data-testid=live-players] li:has-text('Mo')")).to_have_attribute("data-state", "connected")
    mo.check("[data-testid=live-session] input[data-character=t-a]")
    request = mj.locator("[data-testid=live-assign] li:has-text('Mo')")
    expect(request).to_contain_text("Aube : déjà joué par Léa.")
    expect(request.locator("button[data-confirm]")).to_have_count(0)  # no « Confirmer » hands it over
    take = request.locator("button[data-take=t-a]")
    expect(take).to_have_text("Retirer Aube à Léa et le donner à Mo")
    take.click()
    expect(mo.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "yes")
    expect(lea.locator("[data-testid=live-session] input[data-character=t-a]")).to_have_attribute("data-assigned", "no")

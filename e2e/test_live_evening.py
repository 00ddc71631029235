"""The evening's states on both screens (static/js/views/live-host.js, live-join.js,
live/connect.js closeTable): the MJ closes the table and every phone says so, in its language,
keeping its copy of the table; the MJ's page says the table is closed (after a reload too) and
reopens it with a new invitation the phones rejoin with. A link cut without a word says
« Connexion perdue » on the phone and « Léa : connexion perdue » on the MJ's list, with the way
back right there; a phone that reloads shows its table and « Rejoindre la table », never the
MJ's screen to claim; the MJ's page that reloads serves a new invitation the phone rejoins with.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import no_horizontal_scroll
from live_join_by_name import answer, invitation, table

pytestmark = pytest.mark.slow

SESSION = "(await import('./static/js/live/connect.js')).current()"
#: The phone's links close with no message (what a cut Wi-Fi or a phone asleep does).
CUT_LINKS = f"async () => {{ for (const l of {SESSION}.links.values()) l.close(); }}"


def start(mj, site) -> None:
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)


def rejoin(mj, phone, name: str) -> None:
    """The phone pastes the invitation on the MJ's screen where it is (no new page), answers."""
    phone.fill("#live-invitation", invitation(mj))
    phone.click("#live-invitation-read")
    expect(phone.locator("#live-name")).to_have_value(name)  # (the name it joined with)
    phone.click("#live-join")
    expect(phone.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
    mj.fill("#live-answer", phone.locator("#live-answer-text").input_value())
    mj.click("#live-accept")


def row(mj, name: str):
    return mj.locator(f"[data-testid=live-players] li:has-text('{name}')")


def test_closing_the_table_tells_every_phone_and_reopening_brings_them_back(devices, site):
    mj, lea, mo = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    start(mj, site)
    answer(mj, lea, "Léa")
    answer(mj, mo, "Mo")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")
    expect(row(mj, "Mo")).to_have_attribute("data-state", "connected")
    expect(lea.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")
    expect(mo.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")
    mo.click("#lang-toggle")  # Mo reads English
    expect(mo.locator("html")).to_have_attribute("lang", "en")

    # « Quitter la table en direct » asks first; « Annuler » closes nothing.
    mj.click("#live-leave")
    expect(mj.get_by_test_id("live-close-ask")).to_contain_text("Fermer la table en direct pour tous les joueurs ?")
    expect(mj.locator("#live-close-cancel")).to_be_focused()
    mj.click("#live-close-cancel")
    expect(mj.get_by_test_id("live-close-ask")).to_have_count(0)
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")

    mj.click("#live-leave")
    mj.click("#live-close-confirm")
    closed = mj.get_by_test_id("live-closed")
    expect(closed).to_contain_text("Table en direct fermée")
    expect(closed).to_contain_text("chaque téléphone connecté l'a appris")
    expect(mj.locator("#live-reopen")).to_have_text("Rouvrir la table")
    # No invitation as if the table were open, no list of players told to come back with one.
    expect(mj.locator("#live-offer")).to_have_count(0)
    expect(mj.locator("[data-testid=live-players]")).to_have_count(0)
    expect(mj.locator("main")).not_to_contain_text("absent")

    # Every phone heard it: the closed table in words, in its language, what it keeps, and the
    # way back; it no longer shows itself at the table.
    for phone, words in ((lea, "Table fermée par le ou la MJ."), (mo, "Table closed by the GM.")):
        state = phone.locator("[data-testid=live-join-state]")
        expect(state).to_have_attribute("data-state", "closed")
        expect(state).to_contain_text(words)
        expect(phone.locator("[data-testid=live-people] li[data-here=yes]")).to_have_count(0)
        expect(phone.locator("#live-invitation")).to_be_visible()
        expect(phone.locator("[data-testid=live-hands]")).to_be_visible()
    expect(lea.locator("[data-testid=live-join-state]")).to_contain_text("garde sa copie de la table telle qu'elle était, et sa main")
    expect(mo.locator("[data-testid=live-join-state]")).to_contain_text("keeps its copy of the table as it was, and its hand")
    no_horizontal_scroll(lea)
    kept = lea.evaluate("() => JSON.parse(localStorage.getItem('tablee.document')).characters.map((c) => c.name)")
    assert kept == ["Aube"]

    # The MJ's page reloaded still says the table is closed.
    mj.reload()
    expect(mj.get_by_test_id("live-closed")).to_be_visible()
    expect(mj.locator("#live-offer")).to_have_count(0)
    # A phone reloaded too: still the closed table, never the MJ's screen to claim first.
    lea.reload()
    expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "closed")
    expect(lea.get_by_test_id("mj-mode-mj")).to_have_count(0)

    # Reopened: a new invitation; Léa rejoins with it from where she is.
    mj.click("#live-reopen")
    expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\."))
    expect(mj.get_by_test_id("live-closed")).to_have_count(0)
    rejoin(mj, lea, "Léa")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")
    expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    expect(lea.locator("[data-testid=live-people] li[data-here=yes]")).not_to_have_count(0)


def test_a_cut_link_and_reloads_say_what_happened_on_both_screens(devices, site):
    mj, lea = devices(mj=True).page, devices(mj=False).page
    start(mj, site)
    answer(mj, lea, "Léa")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")
    expect(lea.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")

    # The link is cut with no message: lost, not closed, on both sides; the way back is here.
    lea.evaluate(CUT_LINKS)
    state = lea.locator("[data-testid=live-join-state]")
    expect(state).to_have_attribute("data-state", "away")
    expect(state).to_contain_text("Connexion perdue.")
    expect(state).not_to_contain_text("fermée")
    expect(lea.locator("#live-join-scan")).to_be_visible()
    expect(row(mj, "Léa")).to_have_attribute("data-state", "away")
    expect(row(mj, "Léa")).to_have_text(re.compile(r"^\s*Léa\s*:\s*connexion perdue\s*$"))
    rejoin(mj, lea, "Léa")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")
    expect(state).to_have_attribute("data-state", "connected")

    # The phone reloads, on « Table en direct »: its table and « Rejoindre la table », not the
    # MJ's screen to claim, and not a dead « absent » line.
    lea.goto(site + "#/live")
    lea.reload()
    expect(lea.get_by_role("heading", name="Rejoindre la table", level=1)).to_be_visible()
    expect(state).to_have_attribute("data-state", "offline")
    expect(state).to_contain_text("Pour rejoindre la table, scannez l'invitation")
    expect(lea.get_by_test_id("mj-mode-mj")).to_have_count(0)
    expect(lea.locator("[data-testid=live-people] li[data-here=no]")).to_contain_text("hors ligne")
    expect(lea.locator("[data-testid=live-session]")).to_have_attribute("data-joined", "yes")
    no_horizontal_scroll(lea)
    expect(row(mj, "Léa")).to_have_text(re.compile(r"Léa\s*:\s*connexion perdue"))
    rejoin(mj, lea, "Léa")
    expect(state).to_have_attribute("data-state", "connected")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")

    # The MJ's page reloads: the phone lost its link (not a closed table); the MJ's page serves
    # an invitation at once, and the phone rejoins with it.
    mj.reload()
    expect(state).to_have_attribute("data-state", "away")
    expect(state).to_contain_text("Connexion perdue.")
    expect(mj.get_by_test_id("live-closed")).to_have_count(0)
    expect(row(mj, "Léa")).to_have_text(re.compile(r"^\s*Léa\s*:\s*connexion perdue\s*$"))
    rejoin(mj, lea, "Léa")
    expect(state).to_have_attribute("data-state", "connected")
    expect(row(mj, "Léa")).to_have_attribute("data-state", "connected")

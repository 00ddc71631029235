"""Who takes a place at the live table, in the pages (static/js/live/admission.js,
static/js/views/live-recognise.js, views/live.js): the MJ's list of players changes only after
the key check, and a new device under the name of a player who is away waits for the MJ's
explicit choice on their own screen.

An MJ and phones (separate browser contexts) joined by the copy/paste fallback, as in
e2e/test_live_names.py.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from browser_support import axe_findings
from live_join_by_name import answer, invitation, table

#: Every value Léa's line in the MJ's list of players takes from now on (a MutationObserver:
#: a state shown for a moment is recorded too).
WATCH_LINE = """member => {
  window.__states = [];
  const look = () => {
    const line = document.querySelector(`[data-testid=live-players] li[data-member='${member}']`);
    window.__states.push(line ? line.dataset.state : "gone");
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"]});
}"""


def open_table(mj, site) -> None:
    mj.goto(site + "manifest.webmanifest")
    mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(table(), ensure_ascii=False))
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)


def joined(mj, phone, name: str) -> str:
    answer(mj, phone, name)
    expect(phone.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    member = phone.evaluate("() => localStorage.getItem('tablee.live.member')")
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{member}']")).to_have_attribute("data-state", "connected")
    return member


def test_an_answer_with_a_known_id_and_a_wrong_key_leaves_the_players_list_alone(devices, site):
    """A phone answers with Léa's member id (public: every presence shows it) and a key of its
    own: refused before anything of Léa's is touched. Her line is never marked « connexion… »,
    the list does not change, and the MJ is told plainly."""
    mj, lea, other = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    open_table(mj, site)
    member = joined(mj, lea, "Léa")
    # The list as it reads, its measured round trip left out (it is measured again while the
    # test runs: « 434 ms », then « 2 ms »).
    players = """() => { const list = document.querySelector('[data-testid=live-players]').cloneNode(true);
      list.querySelectorAll('.live-rtt').forEach((e) => e.remove()); return list.innerHTML; }"""
    before = mj.evaluate(players)
    other.goto(site + "manifest.webmanifest")
    other.evaluate("m => { localStorage.setItem('tablee.live.member', m); localStorage.setItem('tablee.live.key', 'NotHerKey1234567'); }", member)
    mj.evaluate(WATCH_LINE, member)
    answer(mj, other, "Léa")
    expect(mj.locator("#notices")).to_contain_text("Un téléphone a répondu avec l'identité de Léa sans en avoir la clé : refusé.")
    expect(mj.locator("[data-testid=live-feed]")).to_contain_text("ce téléphone n'est pas celui de ce joueur")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{member}']")).to_have_attribute("data-state", "connected")
    assert set(mj.evaluate("() => window.__states")) <= {"connected"}
    assert mj.evaluate(players) == before
    expect(other.locator("[data-testid=live-join-state]")).not_to_have_attribute("data-state", "connected")
    expect(lea.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")


def test_a_new_device_under_an_away_name_waits_for_the_mj_who_refuses_it(devices, site):
    """Léa is away; another phone answers as « Léa »: it is told to wait for the MJ, is not in
    the list; the MJ's page says so at the top, usable by keyboard and with no accessibility
    finding, at 360 px; « Refuser » asks the phone for another name, which answers the same
    invitation again (no new one). That phone's join page, reloaded before a name was typed,
    still held the invitation."""
    mj, lea, imp = devices(mj=True).page, devices(mj=False).page, devices(mj=False).page
    open_table(mj, site)
    member = joined(mj, lea, "Léa")
    lea.goto(site + "manifest.webmanifest")  # her page goes away (its link closes with it)
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{member}']")).to_have_attribute("data-state", "away")

    imp.goto(invitation(mj))
    expect(imp.locator("#live-name")).to_be_visible()
    imp.reload()  # (before typing a name: the invitation is still there)
    expect(imp.locator("#live-name")).to_be_visible()
    expect(imp.locator("[data-testid=live-join-bad]")).to_have_count(0)
    answer(mj, imp, "LÉA")
    expect(imp.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "recognition")
    expect(imp.locator("[data-testid=live-join-state]")).to_contain_text("le nom « LÉA » est déjà connu à cette table")
    panel = mj.locator("[data-testid=live-recognise]")
    expect(panel).to_contain_text("Un nouvel appareil se présente comme Léa. Ce nom est déjà connu à cette table, et l'appareil habituel de Léa n'est pas connecté.")
    expect(panel.locator("[role=alert]")).to_have_count(1)
    assert mj.evaluate("() => document.querySelector('main [data-testid=live-recognise]') === document.querySelector('main .card')"), "not at the top"
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator(f"[data-testid=live-players] li[data-member='{member}']")).to_have_attribute("data-state", "away")
    expect(panel.locator("button[data-recognise]")).to_have_text("C'est Léa : lui rendre sa place")
    assert axe_findings(mj) == []
    assert mj.evaluate("document.documentElement.scrollWidth") <= 360

    refuse = panel.locator("button[data-refuse-claim]")
    expect(refuse).to_have_accessible_name("Refuser ce nouvel appareil sous le nom LÉA")
    refuse.focus()
    mj.keyboard.press("Enter")
    expect(panel).to_have_count(0)
    expect(mj.locator("[data-testid=live-recognise-status]")).to_have_text("Appareil refusé sous le nom LÉA : il devra choisir un autre nom.")
    expect(mj.locator("[data-testid=live-recognise-status]")).to_be_focused()
    expect(imp.locator("#notices")).to_contain_text("Ce nom est déjà à la table : choisissez-en un autre")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    expect(mj.locator("[data-testid=live-feed]")).to_contain_text("nom déjà à la table")
    # the phone asks for another name and answers the same invitation again
    expect(imp.locator("#live-name-error")).to_contain_text("« LÉA » est déjà à la table")
    expect(imp.locator("#live-name")).to_be_focused()
    imp.fill("#live-name", "Inès")
    imp.click("#live-join")
    expect(imp.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
    mj.fill("#live-answer", imp.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    expect(imp.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(2)
    expect(mj.locator("[data-testid=live-players] li:has-text('Inès')")).to_have_attribute("data-state", "connected")

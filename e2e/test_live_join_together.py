"""Phones that open one invitation together all join (static/js/live/rtc.js createOffer).

A table scans the MJ's screen at the same moment, or opens the link the MJ posted in the group's
chat: every phone answers the same invitation. Each answer gets its own connection on the MJ's
device (one DTLS certificate and one set of ICE credentials for every connection of the
invitation), so four phones whose answers were all made before the MJ read any of them join,
then three more phones opening the same chat link one after the other. An answer the MJ reads
twice, and an answer to an invitation the MJ's device no longer serves (its page reloaded), are
said in words on both screens, never as the Wi-Fi message.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from live_support import accept, answer_invitation, invitation, open_invitation

WIFI = "Wi-Fi qui isole les appareils"


def start_answer(phone, url: str, name: str) -> None:
    """The phone opens the invitation and answers it; the answer is not read yet."""
    phone.goto(url)
    phone.fill("#live-name", name)
    phone.click("#live-join")


def answer_text(phone) -> str:
    field = phone.locator("#live-answer-text")
    expect(field).to_have_value(re.compile(r"^T\.[A-Za-z0-9_-]{100,}$"))
    return field.input_value()


def test_phones_that_open_one_invitation_together_all_join(devices, site):
    mj = devices(mj=True).page
    url = open_invitation(mj, site)
    together = ["Léa", "Mo", "Inès", "Hugo"]
    phones = [devices(mj=False).page for _ in together]
    # Every phone opens the invitation and answers before the MJ reads the first answer.
    for phone, name in zip(phones, together, strict=True):
        start_answer(phone, url, name)
    answers = [answer_text(phone) for phone in phones]
    assert len(set(answers)) == 4
    for answer in answers:
        accept(mj, answer)
        expect(mj.locator("#live-answer")).to_have_value("")
    rows = mj.locator("[data-testid=live-players] li")
    expect(rows).to_have_count(4)
    for name in together:
        expect(rows.filter(has_text=name)).to_have_attribute("data-state", "connected")
    for phone in phones:
        expect(phone.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    # The invitation on screen is still the one the phones opened: it serves the next ones too.
    assert mj.locator("#live-offer").input_value() == url

    # The same answer read twice opens nothing and says why (not that the invitation is spent).
    accept(mj, answers[0])
    error = mj.locator("[data-testid=live-answer-error]")
    expect(error).to_contain_text("cette réponse a déjà été lue")
    expect(rows).to_have_count(4)

    # The link posted in the chat, opened by three phones one after the other.
    for name in ["Zoé", "Ana", "Tom"]:
        phone = devices(mj=False).page
        accept(mj, answer_invitation(phone, url, name))
        expect(phone.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
        expect(rows.filter(has_text=name)).to_have_attribute("data-state", "connected")
    expect(rows).to_have_count(7)
    assert mj.locator("[data-testid=live-unreachable]").count() == 0


def test_an_invitation_no_longer_served_is_said_in_words_on_both_screens(devices, site):
    mj = devices(mj=True).page
    url = open_invitation(mj, site)
    # The MJ's page reloads: the invitation it showed is no longer served; another is shown.
    mj.reload()
    now = invitation(mj)
    assert now != url
    phone = devices(mj=False).page
    answer = answer_invitation(phone, url, "Léa")
    accept(mj, answer)
    error = mj.locator("[data-testid=live-answer-error]")
    expect(error).to_contain_text("une invitation que cet appareil ne sert plus")
    expect(error).to_contain_text("celle qui est à l'écran maintenant")
    expect(mj.locator("[data-testid=live-no-player]")).to_be_visible()
    assert mj.locator("[data-testid=live-unreachable]").count() == 0
    # The phone hears nothing from the MJ's device on that invitation: it says so, and points at
    # the invitation on the MJ's screen now, without blaming the Wi-Fi (ICE gives up by itself).
    state = phone.locator("[data-testid=live-join-state]")
    expect(state).to_have_attribute("data-state", "unanswered", timeout=60_000)
    expect(state).to_contain_text("ouvrez celle qui est à son écran maintenant")
    expect(state).not_to_contain_text(WIFI)
    # The one on screen now works from the same page.
    phone.fill("#live-invitation", now)
    phone.click("#live-invitation-read")
    phone.fill("#live-name", "Léa")
    phone.click("#live-join")
    accept(mj, answer_text(phone))
    expect(state).to_have_attribute("data-state", "connected")
    expect(mj.locator("[data-testid=live-players] li")).to_have_attribute("data-state", "connected")

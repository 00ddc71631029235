"""A live table joined by name through the pages: a Théorem table for the MJ (table), its
invitation, and a phone answering it as a given name (answer)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import ok


def table() -> dict:
    aube = ok({"op": "theorem.character.new", "id": "t-a", "name": "Aube"})["character"]
    state = ok({"op": "theorem.state.new", "seed": 5})["state"]
    doc = {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr", "characters": [aube],
           "log": [], "systems": {"theorem": state}, "settings": {}}
    return ok({"op": "store.open", "document": doc})["document"]


def invitation(mj) -> str:
    expect(mj.locator("#live-offer, #live-open:enabled").first).to_be_visible()
    if mj.locator("#live-offer").count() == 0:
        mj.click("#live-open")
    expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
    return mj.locator("#live-offer").input_value()


def answer(mj, phone, name: str) -> None:
    """The phone opens the MJ's invitation and answers it as `name`; the answer is pasted on the
    MJ's page."""
    phone.goto(invitation(mj))
    phone.fill("#live-name", name)
    phone.click("#live-join")
    expect(phone.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
    mj.fill("#live-answer", phone.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    expect(mj.locator("#live-answer")).to_have_value("")

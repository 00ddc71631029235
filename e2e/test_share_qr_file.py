"""A whole table's share fits a QR code while the table is small, says so plainly when it does
not, older links still open; and a player's copy saved as a file is dealt again when imported
from the Table page, as its link would be (static/js/share/codec.js, views/share.js,
views/table.js ``importTableFile``)."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, ok, saved_document, wait_saved
from share_links import Device, make_link, payload, table, unpack

IN_ORDER = [f"baton-0{i}" for i in range(1, 7)]


@pytest.fixture
def phones(browser, site, server):
    made: list[Device] = []

    def make(width: int = 360) -> Device:
        made.append(Device(browser, site, server, width))
        return made[-1]

    yield make
    for d in made:
        d.close()


def theorem_table(name: str = "Soirée Théorem", log=()) -> dict:
    state = ok({"op": "theorem.state.new", "seed": 3})["state"]
    return table(name, systems={"theorem": state}, log=log)


def draw_pile(doc: dict) -> list[str]:
    return doc["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]


def long_log(n: int = 30) -> list[dict]:
    rng = random.Random(13)
    return [
        {"id": f"l{i}", "at": "2026-11-23T00:00:00Z", "kind": "roll", "system": None, "who": "MJ",
         "label": "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(150)),
         "request": {"op": "roll", "expr": "1d6", "seed": rng.randrange(2**50)}, "result": {}}
        for i in range(n)
    ]


def test_a_small_tables_share_is_a_qr_code_and_a_big_one_says_it_is_too_big(phones):
    mj = phones(360)
    # A table with nothing in it but Théorem's deck: 1,514 characters before, no QR code.
    page = mj.open(doc=theorem_table())
    url = make_link(page, "table")
    assert len(url) < 250, len(url)
    assert unpack(url)["data"]["name"] == "Soirée Théorem"
    code = page.get_by_test_id("share-qr").locator("svg")
    expect(code).to_be_visible()
    assert int(code.get_attribute("data-version")) <= 10
    expect(page.get_by_test_id("share-too-large")).to_have_count(0)

    # A big one says, in one sentence, that it is too big for one code, and offers the file.
    mj.write(theorem_table("Grande table", log=long_log()))
    expect(page.locator("#share-what option[value=table]")).to_contain_text("Grande table")
    url = make_link(page, "table")
    notice = page.get_by_test_id("share-too-large")
    expect(notice).to_contain_text("trop long pour un QR code")
    expect(page.get_by_test_id("share-qr")).to_have_count(0)


def test_a_packed_link_and_an_older_one_both_open(phones):
    mj, phone = phones(1280), phones(360)
    url = make_link(mj.open(doc=theorem_table()), "table")
    assert "#/share/d1." in url
    page = phone.open()
    page.goto(url)
    expect(page.get_by_test_id("share-summary")).to_have_text("Ce lien contient la table « Soirée Théorem ».")
    # A link made before the dictionary (plain deflate-raw, no mark) opens as it always did.
    old = table("Table d'avant")
    envelope = {"app": "tablee", "kind": "table", "v": 1, "audience": "player", "data": old}
    page.goto(phone.site + "#/share/" + payload(envelope))
    expect(page.get_by_test_id("share-summary")).to_have_text("Ce lien contient la table « Table d'avant ».")
    expect(page.locator("#share-import")).to_be_enabled()
    page.click("#share-import")
    wait_saved(page, "d => d.name === \"Table d'avant\"")


def test_a_players_copy_saved_as_a_file_is_dealt_again_when_imported(phones, tmp_path):
    mj, phone = phones(1280), phones(360)
    page = mj.open(doc=theorem_table("Grande table", log=long_log()))
    make_link(page, "table")  # too big for a QR code: the file is offered
    with page.expect_download() as download:
        page.click("#share-download")
    path = tmp_path / "copie.json"
    path.write_text(open(download.value.path(), encoding="utf-8").read(), encoding="utf-8")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["audience"] == "player" and draw_pile(saved["data"])[:6] == IN_ORDER

    app = phone.open()
    goto_route(app, "table")
    asked: list[str] = []
    app.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    app.set_input_files("#import-table", str(path))
    expect(app.locator("p.outcome-ok[role=status]")).to_contain_text(
        "ce ne sont pas ceux du ou de la MJ"
    )
    assert "Copie pour les joueurs" in asked[0]
    dealt = draw_pile(wait_saved(app, "d => d.name === 'Grande table'"))
    assert sorted(dealt) == sorted(draw_pile(saved["data"]))  # the same cards…
    assert dealt[:6] != IN_ORDER  # …dealt again
    assert len(saved_document(app)["log"]) == 30

    # A copy a newer Tablée saved is refused, saying so, and changes nothing.
    newer = {**saved, "v": 2, "data": {**saved["data"], "name": "Plus récente"}}
    path.write_text(json.dumps(newer), encoding="utf-8")
    app.set_input_files("#import-table", str(path))
    expect(app.locator("#import-error")).to_contain_text("version de Tablée plus récente")
    assert saved_document(app)["name"] == "Grande table"

    # The MJ's own export ("Exporter", the document itself) keeps its order.
    mine = saved_document(page)
    path.write_text(json.dumps(mine), encoding="utf-8")
    mj_order = ",".join(draw_pile(mine))
    app.set_input_files("#import-table", str(path))
    kept = wait_saved(app, "(d, top) => d.systems.theorem.deck.piles.draw.cards.join() === top", mj_order)
    assert draw_pile(kept) == draw_pile(mine)

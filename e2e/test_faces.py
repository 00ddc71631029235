"""Dice and card faces ("Look and feel") in a real browser at 360 px and 1280 px.

Dice: a d6 shows its pips (counted as elements, each die's count equal to the value the log
holds, itself replayed from its seed by the Python rules), a d66 is a dark tens die and a light
units die named "Dizaines n" / "Unités n", a d100 two d10-style faces (tens shown "n0").
A preset rolls at once. Cards: Versality's ladder, Théorem's tarot (suits, figures, major
arcana) and SYSTMJ's four families carry their kind as data attributes and say what they are
to a screen reader. Under prefers-reduced-motion nothing animates; otherwise the roll and the
flip are CSS animations of at most 300 ms, and the result is in the page at once either way."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import (
    axe_findings,
    goto_route,
    new_table,
    no_horizontal_scroll,
    saved_document,
    versality_character,
    wait_engine,
    wait_log,
    wait_saved,
    write_table,
)
from tablee.api import handle
from tablee.systems.theorem.data import ARCANA

WIDTHS = [360, 1280]
LADDER = {
    "oui-et": ("Oui, et…", "▲▲"), "oui": ("Oui", "▲"), "oui-mais": ("Oui, mais…", "△"),
    "non-mais": ("Non, mais…", "▽"), "non-et": ("Non, et…", "▼"), "echec-critique": ("Échec critique", "✖"),
}


def sized(page, width: int) -> None:
    """The page at ``width``: each test below checks its faces at both widths in one page (one
    engine start), resizing it."""
    page.set_viewport_size({"width": width, "height": 800})


def fits(page, width: int) -> None:
    if width == 360:
        no_horizontal_scroll(page)


def dice_in_result(page) -> list[dict]:
    """Every die of the tray's result as the page draws it."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#roll-result li.die')].map(li => ({
            value: Number(li.dataset.value), sides: Number(li.dataset.sides), place: li.dataset.place ?? null,
            pips: li.querySelectorAll('.pip').length, name: li.getAttribute('aria-label'),
            cls: [...li.classList], text: li.innerText.trim(),
            shown: li.querySelector('.die-num') ? li.querySelector('.die-num').textContent
              + getComputedStyle(li.querySelector('.die-num'), '::after').content.replaceAll('"', '').replace('none', '') : null,
        }))"""
    )


def logged_dice(doc: dict) -> list[list[int]]:
    entry = doc["log"][-1]
    replay = handle(dict(entry["request"]))  # the logged request replays to the same dice
    logged = [[d["value"] for d in term["dice"]] for term in entry["result"]["terms"] if term["kind"] != "const"]
    assert logged == [[d["value"] for d in term["dice"]] for term in replay["terms"] if term["kind"] != "const"]
    return logged


def test_3d6_shows_three_faces_with_their_pips_and_names(app):
    sized(app, WIDTHS[0])
    app.fill("#dice-expr", "3d6")
    app.click("#roll-button")
    expect(app.locator("[data-testid=total]")).not_to_be_empty()
    expect(app.locator("#roll-result li.die.d6")).to_have_count(3)
    (values,) = logged_dice(wait_log(app, 1))
    for width in WIDTHS:
        sized(app, width)
        dice = dice_in_result(app)
        assert [d["value"] for d in dice] == values
        for die in dice:
            assert 1 <= die["value"] <= 6 and die["pips"] == die["value"]
            assert die["name"] == f"Dé {die['value']}"
            assert die["text"] == str(die["value"])  # the value is text (visually hidden), the pips are not
        assert int(app.inner_text("[data-testid=total]")) == sum(values)
        # The pips are drawn, not read: every pip sits inside an aria-hidden face.
        assert app.locator("#roll-result .pip").count() == sum(values)
        assert app.locator("#roll-result [aria-hidden=true] .pip").count() == sum(values)
        fits(app, width)


def test_dropped_dice_stay_visible_and_say_so(app):
    sized(app, WIDTHS[0])
    app.fill("#dice-expr", "4d6dl1")
    app.click("#roll-button")
    expect(app.locator("#roll-result li.die")).to_have_count(4)
    wait_log(app, 1)
    dropped = app.locator("#roll-result li.die.dropped")
    for width in WIDTHS:
        sized(app, width)
        expect(dropped).to_have_count(1)
        expect(dropped).to_be_visible()
        value = dropped.get_attribute("data-value")
        expect(dropped).to_have_attribute("aria-label", f"Dé {value} (écarté)")
        assert dropped.locator(".pip").count() == int(value)


def test_a_d66_preset_rolls_at_once_as_two_coloured_dice(app):
    sized(app, WIDTHS[0])
    app.click("button.quick[data-expr=d66]")
    doc = wait_log(app, 1)  # one click, one roll in the log
    (tens_units,) = logged_dice(doc)
    for width in WIDTHS:
        sized(app, width)
        expect(app.locator("#dice-expr")).to_have_value("d66")
        dice = dice_in_result(app)
        assert [d["value"] for d in dice] == tens_units
        tens, units = dice
        assert "tens" in tens["cls"] and "units" in units["cls"] and "tens" not in units["cls"]
        assert (tens["name"], units["name"]) == (f"Dizaines {tens['value']}", f"Unités {units['value']}")
        assert tens["pips"] == tens["value"] and units["pips"] == units["value"]
        colours = app.evaluate(
            """() => [...document.querySelectorAll('#roll-result li.die')].map(li => getComputedStyle(li).backgroundColor)"""
        )
        assert colours[0] != colours[1]
        expect(app.locator("#roll-result .dice-legend")).to_have_text("Dé foncé : dizaines · dé clair : unités.")
        assert int(app.inner_text("[data-testid=total]")) == 10 * tens["value"] + units["value"]
        fits(app, width)


def test_a_d100_preset_rolls_tens_and_units_read_00_to_99(app):
    sized(app, WIDTHS[0])
    app.click("button.quick[data-expr=d100]")
    (tens_units,) = logged_dice(wait_log(app, 1))
    for width in WIDTHS:
        sized(app, width)
        dice = dice_in_result(app)
        assert [d["value"] for d in dice] == tens_units
        tens, units = dice
        assert tens["sides"] == units["sides"] == 10 and tens["pips"] == units["pips"] == 0
        assert "d10" in tens["cls"] and "d10" in units["cls"]
        # "40" + "7" = 47: the tens face shows its ten, the units face its unit.
        assert tens["shown"] == f"{tens['value']}0" and units["shown"] == str(units["value"])
        assert (tens["name"], units["name"]) == (f"Dizaines {tens['value']}", f"Unités {units['value']}")
        total = int(app.inner_text("[data-testid=total]"))
        assert total == 10 * tens["value"] + units["value"] and 0 <= total <= 99
    # The expression field still rolls what is typed, after a preset.
    app.fill("#dice-expr", "d20")
    app.click("#roll-button")
    wait_log(app, 2)
    expect(app.locator("#roll-result li.die.d20")).to_have_count(1)


def test_no_animation_under_reduced_motion_and_a_short_one_otherwise(app):
    for rolled, width in enumerate(WIDTHS):  # two rolls at each width: 3d6 still, then 2d6 animated
        sized(app, width)
        app.emulate_media(reduced_motion="reduce")
        app.fill("#dice-expr", "3d6")
        app.click("#roll-button")
        expect(app.locator("[data-testid=total]")).not_to_be_empty()  # the result is there at once
        expect(app.locator("#roll-result li.die")).to_have_count(3)
        assert app.evaluate("document.getAnimations().length") == 0
        assert app.evaluate("getComputedStyle(document.querySelector('#roll-result li.die')).animationName") == "none"
        wait_log(app, 2 * rolled + 1)
        app.emulate_media(reduced_motion="no-preference")
        app.click("button.quick[data-expr='2d6']")
        wait_log(app, 2 * rolled + 2)
        expect(app.locator("#roll-result li.die")).to_have_count(2)
        timing = app.evaluate(
            """() => [...document.querySelectorAll('#roll-result li.die')].map(li => {
                const s = getComputedStyle(li); return [s.animationName, parseFloat(s.animationDuration)]; })"""
        )
        assert timing and all(name == "die-roll" and 0 < seconds <= 0.3 for name, seconds in timing)


def test_versality_cards_show_the_ladder_with_symbol_and_word(page, app_with):
    sized(page, WIDTHS[0])
    app = app_with(new_table([versality_character("vs-ana", "Ana")]))
    app.emulate_media(reduced_motion="reduce")
    goto_route(app, "versality/test/vs-ana")
    # Mental 0 + Comprendre 0 − épique 5 = −5: seven cards, the worst applies.
    app.select_option("#vs-test-char", "mental")
    app.select_option("#vs-test-skill", "comprendre")
    app.select_option("#vs-test-diff", "epique")
    expect(app.locator("[data-testid=vs-rule]")).to_have_attribute("data-count", "7")
    app.click("#vs-draw")
    cards = app.locator("[data-testid=hand-card]")
    expect(cards).to_have_count(7)
    assert app.evaluate("document.getAnimations().length") == 0
    for width in WIDTHS:
        sized(app, width)
        for i in range(7):
            card = cards.nth(i)
            expect(card).to_have_attribute("data-face", "versality")
            kind = card.get_attribute("data-kind")
            word, symbol = LADDER[kind]
            expect(card).to_have_attribute("aria-label", word)
            expect(card.locator(".card-symbol")).to_have_text(symbol)
            expect(card.locator(".card-label")).to_have_text(word)
        # Every rung has its own colour (and its own symbol and word, checked above).
        colours = app.evaluate(
            """() => [...document.querySelectorAll('[data-testid=hand-card]')].map(c => [c.dataset.kind, getComputedStyle(c).backgroundColor])"""
        )
        by_kind = {kind: colour for kind, colour in colours}
        assert all(by_kind[kind] == colour for kind, colour in colours)
        assert len(set(by_kind.values())) == len(by_kind)
        fits(app, width)
        hand_box = app.locator("[data-testid=hand]").bounding_box()
        assert hand_box["x"] + hand_box["width"] <= width
        assert axe_findings(app) == []


def test_theorem_tarot_figures_numbers_and_arcana(app):
    sized(app, WIDTHS[0])
    base = app.url.split("#")[0]
    app.goto(base + "#/theorem")
    app.fill("#th-new-name", "Joshua")
    app.click("#th-create")
    expect(app.locator("#th-spheres-humanite")).to_be_visible()
    app.fill("#th-new-skill", "Escalade")
    app.click("#th-add-skill")
    wait_saved(app, "d => d.systems.theorem && d.characters.length === 1 && d.characters[0].skills.length === 1")
    cid = saved_document(app)["characters"][0]["id"]
    # The MK's arcana: numeral and name on each face.
    app.goto(base + "#/theorem/mk")
    app.select_option("#th-mk-size", "4")
    app.click("#th-mk-draw")
    wait_saved(app, "d => d.systems.theorem.arcana['@mk'] && d.systems.theorem.arcana['@mk'].piles.hand.cards.length === 4")
    app.click("#th-mk-look")
    arcana = app.locator("[data-testid=th-mk-cards] .play-card")
    expect(arcana).to_have_count(4)
    roman = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
             "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"]
    for i in range(4):
        card = arcana.nth(i)
        expect(card).to_have_attribute("data-face", "arcane")
        number = int(card.get_attribute("data-number"))
        assert card.get_attribute("data-card-id") == f"arcane-{number:02d}"
        expect(card.locator(".card-symbol")).to_have_text(roman[number])
        name = ARCANA[number]  # the rules' own list (tablee.systems.theorem.data)
        assert card.locator(".card-label").inner_text().replace("\u200b", "") == name  # a break allowed after "L'"
        expect(card).to_have_attribute("aria-label", f"{name} (arcane {roman[number]})")
    app.click("#th-mk-hide")
    # The numbered deck: a queen of cups, then a 7 of wands, forced on top of the draw pile.
    doc = saved_document(app)
    piles = doc["systems"]["theorem"]["deck"]["piles"]
    for cid_ in ("coupe-reine", "baton-07"):
        piles["draw"]["cards"].remove(cid_)
    piles["draw"]["cards"][0:0] = ["coupe-reine", "baton-07"]
    write_table(app, doc)
    app.goto(base + f"#/theorem/test/{cid}")
    app.reload()
    wait_engine(app)
    app.select_option("#th-skill", "Escalade")
    expect(app.locator("#th-draw")).to_be_enabled()
    app.click("#th-draw")
    queen = app.locator("[data-testid=th-awaiting-card]")
    expect(queen).to_have_attribute("data-card-id", "coupe-reine")
    expect(queen).to_have_attribute("data-face", "tarot")
    expect(queen).to_have_attribute("data-suit", "coupe")
    expect(queen).to_have_attribute("data-rank", "reine")
    expect(queen).to_have_attribute("aria-label", "Reine de coupe")
    expect(queen.locator(".card-symbol")).to_have_text("♛")
    expect(queen.locator(".card-corner.top")).to_have_text("Re♥")  # Reine (Roi is "Ro")
    app.click("#th-figure-aside")
    expect(app.locator("[data-testid=th-aside-card]")).to_have_attribute("data-card-id", "coupe-reine")
    app.click("#th-draw")
    seven = app.locator("[data-card-id=baton-07][data-face=tarot]").first
    for width in WIDTHS:  # the faces at each width, in one page
        sized(app, width)
        expect(seven).to_be_visible()
        expect(seven).to_have_attribute("aria-label", "7 de bâton")
        expect(seven.locator(".card-symbol")).to_have_text("♣")
        expect(seven.locator(".card-corner.top")).to_have_text("7♣")
        fits(app, width)


def test_systmj_library_cards_show_their_family(page, app_with):
    rules = handle({"op": "systmj.cards.rules"})
    state = handle({"op": "systmj.state.new"})["state"]
    names = {"equipement": "Épée longue", "ressource": "Herbes de Lune", "savoir": "Grimoire", "pouvoir": "Flamme"}
    # A new card states no type until it is given one (4.1, 4.4).
    typed = {"equipement": {"types": ["arme"]}, "pouvoir": {"types": ["magique"]}}
    for family, name in names.items():
        saved = handle({"op": "systmj.card.save", "state": state,
                        "card": {"family": family, "name": name, "description": "", **rules["defaults"][family],
                                 **typed.get(family, {})}})
        state = saved["state"]
    sized(page, WIDTHS[0])
    app = app_with(new_table(systems={"systmj": state}), "systmj/cards")
    words = {"equipement": ("Équipement", "EQ-00001", "⚒"), "ressource": ("Ressource", "RE-00001", "⚗"),
             "savoir": ("Savoir", "SA-00001", "✎"), "pouvoir": ("Pouvoir", "PO-00001", "✦")}
    for width in WIDTHS:
        sized(app, width)
        expect(app.locator("[data-testid=sj-card]")).to_have_count(4)
        for family, (word, number, symbol) in words.items():
            card = app.locator(f"[data-testid=sj-card][data-family={family}]")
            expect(card).to_have_attribute("data-number", number)
            expect(card.locator(".sj-card-symbol")).to_have_text(symbol)
            expect(card.locator(".sj-card-symbol")).to_have_attribute("aria-hidden", "true")
            expect(app.get_by_role("article", name=f"{word} {number} {names[family]}", exact=True)).to_have_count(1)
        bands = app.evaluate(
            """() => [...document.querySelectorAll('[data-testid=sj-card] > header')].map(h => getComputedStyle(h).backgroundColor)"""
        )
        assert len(set(bands)) == 4
        fits(app, width)

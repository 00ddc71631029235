"""Théorem oppositions in a real browser, at 360 px.

- "Joué par : Alice" takes her sphere and skill, as a test does: the base shown and drawn is her
  Humanité 2 + Course 1 = 3 (the form used to keep 6), each side's exact level odds show before
  the draw (the engine's own fractions), the logged request holds that base, and a chase carries
  it onto her table page.
- A phone (a live player's page: the page reads the player's characters from the live module)
  is offered only what the referee accepts: on another player's character page no « Piocher la
  main » nor any action; against another player's character « Proposer l'opposition » instead of
  a draw; with none of its characters on either side, no button that would be refused; in a
  waiting opposition a draw button for its own side only.
- Small opposition cards: « Cavalier » on one line, the corner marks unambiguous (Re for Reine,
  Ro for Roi), and the MK screen's 22 arcana effects shown on demand.

Tables are seeded in storage (built with the real engine in CPython).
"""

from __future__ import annotations

from fractions import Fraction

from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, ok, open_table, put_table, saved_document, wait_saved
from odds_bar_reading import bar, nonzero

ALICE_SKILLS = [{"name": "Course", "level": 1}]


def alice() -> dict:
    c = ok({"op": "theorem.character.new", "id": "alice", "name": "Alice"})["character"]
    c["spheres"] = {"animalite": 1, "humanite": 2, "divinite": 1}
    c["skills"] = ALICE_SKILLS
    c["des_ka"] = 2
    return c


def bob() -> dict:
    c = ok({"op": "theorem.character.new", "id": "bob", "name": "Bob"})["character"]
    c["spheres"] = {"animalite": 3, "humanite": 4, "divinite": 2}
    c["skills"] = [{"name": "Pistage", "level": 2}]
    c["des_ka"] = 3
    return c


def forced(state: dict, *ids: str) -> dict:
    piles = state["deck"]["piles"]
    for cid in ids:
        piles["draw"]["cards"].remove(cid)
    piles["draw"]["cards"][0:0] = list(ids)
    return state


def table(state: dict) -> dict:
    doc = ok({"op": "store.new", "name": "Soirée Théorem", "language": "fr"})["document"]
    doc["characters"] = [alice(), bob()]
    doc["systems"] = {"theorem": state}
    return ok({"op": "store.open", "document": doc})["document"]


def test_a_character_side_takes_its_sheet_base_with_its_odds_before_the_draw(page, site, guarded):
    page.set_viewport_size({"width": 360, "height": 740})
    state = forced(ok({"op": "theorem.state.new", "seed": 4})["state"], "coupe-cavalier", "coupe-04", "epee-09")
    open_table(page, site, table(state), "theorem/chase")
    page.select_option("#th-a-who", "alice")
    page.select_option("#th-a-sphere", "humanite")
    page.select_option("#th-a-skill", "Course")
    expect(page.get_by_test_id("th-a-base-sheet")).to_have_attribute("data-base", "3")
    expect(page.locator("#th-a-base")).to_have_count(0)  # never typed for a character's side
    expect(page.get_by_test_id("th-a-base-sheet")).to_have_text("Base : 3 (fiche : Humanité 2 + Course 1)")
    page.click("#lang-toggle")
    expect(page.get_by_test_id("th-a-base-sheet")).to_have_text("Base: 3 (sheet: Humanité 2 + Course 1)")
    page.click("#lang-toggle")
    expect(page.get_by_test_id("th-a-base-sheet")).to_contain_text("fiche")
    # The odds before the draw: each side's exact levels, the engine's fractions.
    want = ok({"op": "theorem.opposition.odds", "state": state, "sheets": [alice()],
               "a": {"name": "Alice", "base": 6, "start": 0, "character_id": "alice", "sphere": "humanite",
                     "skill": "Course"},
               "b": {"name": "B", "base": 6, "start": 0}})
    odds_a = page.get_by_test_id("th-opp-odds-a")
    expect(odds_a).to_have_attribute("data-base", "3")
    for row in want["a"]["levels"]:
        expect(odds_a.locator(f"li[data-level={row['level']}]")).to_have_attribute("data-p", row["fraction"])
    assert sum(Fraction(r["fraction"]) for r in want["a"]["levels"]) == 1
    # ... and as one outcome bar, worst level to best (static/js/views/odds-bar.js).
    assert bar(page, "[data-testid=th-opp-bar-a]") == nonzero((r["level"], r["fraction"]) for r in want["a"]["levels"])
    expect(page.get_by_test_id("th-opp-odds-b")).to_have_attribute("data-base", "6")
    no_horizontal_scroll(page)

    # The draw: cavalier de coupe then 4 de coupe (−10 − 4) for Alice: 3 − 14 = −11; 9 for B: 15.
    page.click("#th-opp-draw")
    result = page.get_by_test_id("th-opp-result")
    expect(result).to_have_attribute("data-winner", "b")
    expect(result.get_by_test_id("th-opp-side").first).to_contain_text("Alice : -11")
    doc = wait_saved(page, "d => d.log.some(e => e.kind === 'theorem.opposition')")
    entry = next(e for e in doc["log"] if e["kind"] == "theorem.opposition")
    assert entry["request"]["a"]["base"] == 3 and entry["request"]["a"]["sphere"] == "humanite"
    # Small cards: "Cavalier" on one line, its corner clear of its words, the corner mark C.
    card = page.locator("[data-testid=th-opp-card][data-rank=cavalier]").first
    expect(card.locator(".card-corner.top")).to_have_text("C♥")
    fit = card.evaluate("""el => { const label = el.querySelector('.card-label');
        const lh = parseFloat(getComputedStyle(label).lineHeight) || parseFloat(getComputedStyle(label).fontSize) * 1.3;
        const a = el.querySelector('.card-corner.top').getBoundingClientRect();
        const overlap = [...el.querySelectorAll('.card-label, .card-note')].some(n => { const b = n.getBoundingClientRect();
          return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; });
        return {lines: label.getBoundingClientRect().height / lh, wide: label.scrollWidth > label.clientWidth + 1, overlap}; }""")
    assert fit["lines"] < 1.5 and not fit["wide"] and not fit["overlap"], fit
    no_horizontal_scroll(page)

    # A chase with Alice's side carries her sheet's base onto her table page.
    page.check("input[name=th-target][value='3']")
    page.click("#th-chase-start")
    doc = wait_saved(page, "d => d.systems.theorem.chase !== null")
    assert doc["systems"]["theorem"]["chase"]["a"]["base"] == 3
    page.click("#th-begin-a")
    doc = wait_saved(page, "d => d.systems.theorem.pending.alice !== undefined")
    assert doc["systems"]["theorem"]["pending"]["alice"]["base"] == 3
    expect(page).to_have_url(site + "#/theorem/test/alice")


AS_PLAYER = """ids => import('./static/js/live/private.js').then(m =>
  m.setPrivateReader(() => ({characters: ids, hands: []})))"""


def test_a_phone_is_offered_only_what_the_referee_accepts(page, site, guarded):
    page.set_viewport_size({"width": 360, "height": 740})
    state = ok({"op": "theorem.state.new", "seed": 4})["state"]
    open_table(page, site, table(state), "theorem")
    page.evaluate(AS_PLAYER, ["alice"])  # Léa's phone at a live table: she plays Alice
    goto_route(page, "theorem/test/bob")
    expect(page.get_by_test_id("th-not-yours")).to_contain_text("Bob est joué par un autre joueur")
    for action in ("#th-draw-hand", "#th-look-hand", "#th-draw", "#th-begin", "[data-testid=th-play-aside]"):
        expect(page.locator(action)).to_have_count(0)
    goto_route(page, "theorem/test/alice")
    expect(page.locator("#th-draw-hand")).to_be_visible()  # her own: as on one device
    # Bob's sheet: shown, not editable here (a save of it would be refused).
    goto_route(page, "theorem/character/bob")
    expect(page.get_by_test_id("th-not-yours")).to_be_visible()
    expect(page.locator("#th-name")).to_be_disabled()
    expect(page.locator("#th-add-skill")).to_be_disabled()
    goto_route(page, "theorem/character/alice")
    expect(page.locator("#th-name")).to_be_enabled()

    goto_route(page, "theorem/chase")
    page.select_option("#th-a-who", "alice")
    page.select_option("#th-b-who", "bob")
    # Bob is Mo's: no draw of both sides here (refused), the opposition is proposed instead.
    expect(page.locator("#th-opp-draw")).to_have_count(0)
    expect(page.locator("#th-opp-start")).to_be_enabled()
    expect(page.get_by_test_id("th-opp-propose-help")).to_contain_text("il pioche pour son personnage sur son téléphone")
    expect(page.get_by_test_id("th-opp-odds-b")).to_have_attribute("data-base", "6")  # his best sphere 4 + Pistage 2
    # Neither side hers: nothing she could send is offered, and the page says what would work.
    page.select_option("#th-a-who", "")
    expect(page.locator("#th-opp-start")).to_be_disabled()
    expect(page.locator("#th-opp-start-why")).to_contain_text("Choisissez l'un de vos personnages")
    page.select_option("#th-b-who", "")
    expect(page.locator("#th-opp-draw")).to_be_disabled()
    expect(page.locator("#th-chase-start")).to_have_count(0)  # chases are the MK's

    # A chase the MK started, Alice against Bob: Léa announces Alice's turn only.
    sheets = [alice(), bob()]
    chase = ok({"op": "theorem.chase.start", "state": state, "sheets": sheets, "target": 5,
                "a": {"name": "Alice", "base": 0, "start": 0, "character_id": "alice", "sphere": "humanite",
                      "skill": "Course"},
                "b": {"name": "Bob", "base": 0, "start": 0, "character_id": "bob", "sphere": "humanite",
                      "skill": "Pistage"}})["state"]
    doc = saved_document(page)
    doc["systems"]["theorem"] = chase
    put_table(page, doc)
    page.evaluate(AS_PLAYER, ["alice"])
    # The reload left the page on the chase, drawn before the phone's reader was set again: another
    # route first, so the chase is drawn anew as Léa's phone sees it.
    goto_route(page, "theorem/test/alice")
    goto_route(page, "theorem/chase")
    expect(page.locator("#th-begin-a")).to_be_visible()
    expect(page.locator("#th-begin-b")).to_have_count(0)
    expect(page.get_by_test_id("th-round-wait-b")).to_contain_text("Bob joue son tour sur le téléphone de son joueur")
    expect(page.locator("#th-chase-end")).to_have_count(0)

    # A waiting opposition (proposed by Mo): Léa draws Alice's side only; Bob's is Mo's.
    waiting = ok({"op": "theorem.opposition.start", "state": state, "sheets": sheets,
                  "a": {"name": "Bob", "base": 0, "start": 0, "character_id": "bob", "sphere": "humanite",
                        "skill": "Pistage"},
                  "b": {"name": "Alice", "base": 0, "start": 0, "character_id": "alice", "sphere": "humanite",
                        "skill": "Course"}})["state"]
    doc = saved_document(page)
    doc["systems"]["theorem"] = waiting
    put_table(page, doc)
    page.evaluate(AS_PLAYER, ["alice"])
    goto_route(page, "theorem/test/alice")
    expect(page.get_by_test_id("th-opp-waiting-here")).to_contain_text("c'est à Alice de piocher")
    goto_route(page, "theorem/chase")
    box = page.get_by_test_id("th-opp-waiting")
    expect(box.locator("#th-opp-side-b")).to_have_text("Tirer pour Alice")
    expect(box.locator("#th-opp-side-a")).to_have_count(0)
    expect(box.get_by_test_id("th-opp-wait-a")).to_contain_text("pour Bob : son joueur pioche sur son téléphone, ou le MK")
    no_horizontal_scroll(page)


def test_the_mk_screen_shows_the_arcana_effects_on_demand(page, site, guarded):
    page.set_viewport_size({"width": 360, "height": 740})
    state = ok({"op": "theorem.state.new", "seed": 4})["state"]
    open_table(page, site, table(state), "theorem/mk")
    effects = page.get_by_test_id("th-effects")
    expect(effects).not_to_have_attribute("open", "")
    assert page.locator("textarea").count() == 0
    before = page.evaluate("document.documentElement.scrollHeight")
    assert before < 2000, before  # 22 open boxes made it 3,774 px
    effects.locator("summary").click()
    expect(effects.locator("#th-effect-pick option")).to_have_count(22)
    expect(effects.locator("textarea")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollHeight") < before + 400  # opened, still short
    page.select_option("#th-effect-pick", "5")
    page.click("#th-effect-write")
    expect(page.locator("#th-effect-5")).to_be_focused()
    expect(effects.locator("textarea")).to_have_count(1)
    page.fill("#th-effect-5", "Le Pape bénit : +2 à la prochaine action.")
    page.click("#th-save-effects")
    wait_saved(page, "d => d.systems.theorem.effects[5].startsWith('Le Pape')")
    expect(effects.locator("textarea")).to_have_count(0)
    row = effects.get_by_test_id("th-effect-row")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-arcane", "5")
    expect(row).to_contain_text("Le Pape bénit")
    expect(effects.locator("#th-effect-pick option[value='5']")).to_contain_text("(écrit)")
    row.locator("#th-effect-edit-5").click()
    expect(page.locator("#th-effect-5")).to_have_value("Le Pape bénit : +2 à la prochaine action.")
    no_horizontal_scroll(page)

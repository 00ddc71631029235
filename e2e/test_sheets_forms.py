"""Sheets and forms of the five systems, at 360 and 1280 px.

- A new sheet shows no error before anything is typed; a required field left empty shows
  exactly its own message; trying to finish (or asking why a change was not saved) shows all.
- Counters (points left, the dés de Ka start, a score's degree) follow the typing, before
  the field is left; the sheet is saved when the field commits.
- A disabled button's reason is its accessible description.
- Versality: a wound added by mistake is taken back, logged as an MJ correction.
- From 60rem the sheets use two columns; at 360 px one, with no horizontal scroll.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, new_table, no_horizontal_scroll, wait_saved
from browser_support import versality_character as played

WIDTHS = [360, 1280]
REQUIRED = "Ce champ est obligatoire à la création du personnage."
# system, element prefix, the sheet's column container
SYSTEMS = [
    ("unicreon", "uc"), ("versality", "vs"), ("pointzero", "pz"), ("theorem", "th"), ("systmj", "sj"),
]


def sized(page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})


def create(page, system: str, prefix: str, name: str) -> str:
    """A new character from the system's list; returns its id once its sheet is on screen."""
    goto_route(page, system)
    page.fill(f"#{prefix}-new-name", name)
    page.click(f"#{prefix}-create")
    page.wait_for_function(
        "s => location.hash.startsWith(`#/${s}/character/`) && document.querySelector('main h1')?.textContent.trim().length > 0",
        arg=system,
    )
    wait_saved(page, "(d, n) => d.characters.some((c) => c.name === n)", name)
    return page.url.split("/character/")[1]


def shown_errors(page) -> list[str]:
    """The fields whose message is on screen (the `data-field` of every non-empty one)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('main .field-error[data-field]')]
              .filter((p) => p.textContent.trim() !== '').map((p) => p.dataset.field)"""
    )


def invalid_ids(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('main [aria-invalid=true]')].map((e) => e.id)")


def columns(page, testid: str) -> int:
    """How many columns the sheet's `.split` lays out (distinct left edges of its children)."""
    return page.evaluate(
        """id => new Set([...document.querySelector(`[data-testid=${id}]`).children]
              .map((e) => Math.round(e.getBoundingClientRect().left))).size""",
        testid,
    )


# ------------------------------------------------------------------ 1. errors when they help
def test_a_new_sheet_shows_no_error_and_uses_the_width(app):
    for width, system, prefix in ((w, s, p) for w in WIDTHS for s, p in SYSTEMS):  # one engine start
        sized(app, width)
        create(app, system, prefix, f"Mira {width}")
        # The engine's check has answered (the sheet is rendered with its problem slots)...
        expect(app.locator("main .field-error[data-field]").first).to_be_attached()
        # No count before the player tries to finish (its messages are not shown yet).
        if system == "versality":
            expect(app.locator(f"[data-testid={prefix}-problem-count]")).to_contain_text("Valider la création")
        if system == "unicreon":
            expect(app.locator(f"[data-testid={prefix}-problem-count]")).to_contain_text("Terminer la création")
        # ...and nothing is flagged before anything is typed.
        assert shown_errors(app) == [], system
        assert invalid_ids(app) == [], system
        expect(app.locator(f"[data-testid={prefix}-sheet-columns]")).to_be_visible()
        assert columns(app, f"{prefix}-sheet-columns") == (2 if width == 1280 else 1), system
        no_horizontal_scroll(app, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_unicreon_field_left_empty_then_finish_shows_all(app, width):
    sized(app, width)
    create(app, "unicreon", "uc", "Ana")
    app.focus("#uc-job")
    app.focus("#uc-origins")
    expect(app.locator("[data-field=job]")).to_have_text(REQUIRED)
    assert shown_errors(app) == ["job"]
    assert invalid_ids(app) == ["uc-job"]
    # Typing in a field already left updates its message at once.
    app.fill("#uc-job", "Cartographe")
    expect(app.locator("[data-field=job]")).to_have_text("")
    # Trying to finish: every problem at its field, the focus on the first one, nothing saved.
    app.click("#uc-finish-creation")
    for field in ("origins", "story", "description", "don", "defaut"):
        expect(app.locator(f"[data-field={field}]")).to_have_text(REQUIRED)
    expect(app.locator("#uc-origins")).to_be_focused()
    expect(app.locator("[data-testid=uc-created]")).to_have_count(0)
    assert sorted(shown_errors(app)) == sorted(["origins", "story", "description", "don", "defaut"])
    no_horizontal_scroll(app, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_versality_field_left_empty_then_validate_shows_all(app, width):
    sized(app, width)
    create(app, "versality", "vs", "Nadia")
    app.focus("#vs-power-0")
    app.focus("#vs-power-0-approved")
    expect(app.locator("[data-field=powers]")).to_have_text("Le personnage doit avoir un pouvoir.")
    assert shown_errors(app) == ["powers"]
    app.click("#vs-validate")
    for field in ("forces", "characteristics", "skills", "deck"):
        expect(app.locator(f"[data-field={field}]")).not_to_have_text("")
    expect(app.locator("#vs-power-0")).to_be_focused()
    expect(app.locator("#vs-go-test")).to_have_count(0)
    no_horizontal_scroll(app, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_point_zero_new_row_flags_a_field_once_left_or_asked(app, width):
    sized(app, width)
    create(app, "pointzero", "pz", "Mira")
    app.click("#pz-add-attribute")
    # The new row is empty: not saved, said in the status, but no field is flagged yet.
    expect(app.locator("[data-testid=pz-sheet-status]")).to_contain_text("non enregistrée")
    assert shown_errors(app) == []
    app.focus("#pz-attr-4-code")
    app.focus("#pz-attr-4-name")
    expect(app.locator("[data-field='attributes.4.code']")).not_to_have_text("")
    assert shown_errors(app) == ["attributes.4.code"]
    app.click("#pz-show-problems")
    expect(app.locator("[data-field='attributes.4.name']")).not_to_have_text("")
    assert sorted(shown_errors(app)) == ["attributes.4.code", "attributes.4.name"]
    no_horizontal_scroll(app, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_theorem_and_systmj_required_field_left_empty(app, width):
    sized(app, width)
    create(app, "theorem", "th", "Jo")
    app.fill("#th-name", "")
    app.press("#th-name", "Tab")
    expect(app.locator("[data-field=name]")).not_to_have_text("")
    assert shown_errors(app) == ["name"]
    create(app, "systmj", "sj", "Aldo")
    assert shown_errors(app) == []
    app.focus("#sj-language")
    app.focus("#sj-name")
    expect(app.locator("[data-field=language]")).to_have_text("Un personnage maîtrise un langage : indiquez lequel.")
    assert shown_errors(app) == ["language"]
    no_horizontal_scroll(app, width)


# ------------------------------------------------------------------ 2. counters while typing
@pytest.mark.parametrize("width", WIDTHS)
def test_counters_follow_the_typing(app, width):
    sized(app, width)
    vs = create(app, "versality", "vs", "Nadia")
    left = app.locator("[data-testid=vs-characteristics-left]")
    expect(left).to_contain_text("Points restants : 3 sur 3")
    app.click("#vs-characteristics-physique")
    app.keyboard.press("Control+A")
    app.keyboard.type("2")
    # Before the field is left: the counter already says it, the focus is still there.
    expect(left).to_contain_text("Points restants : 1 sur 3")
    expect(app.locator("#vs-characteristics-physique")).to_be_focused()
    app.keyboard.press("Tab")
    wait_saved(app, "(d, id) => d.characters.find((c) => c.id === id).characteristics.physique === 2", vs)

    create(app, "theorem", "th", "Jo")
    start = app.locator("[data-testid=th-ka-start]")
    expect(start).to_have_text("Au départ : 3 (plus faible sphère + 1).")
    app.click("#th-spheres-animalite")
    app.keyboard.press("Control+A")
    app.keyboard.type("0")
    expect(start).to_have_text("Au départ : 1 (plus faible sphère + 1).")
    expect(app.locator("#th-spheres-animalite")).to_be_focused()

    create(app, "systmj", "sj", "Aldo")
    degree = app.locator("[data-testid=sj-skills-detection-degree]")
    app.click("#sj-skills-detection")
    app.keyboard.press("Control+A")
    app.keyboard.type("74")
    expect(degree).to_have_text("Spécialiste")
    expect(app.locator("#sj-skills-detection")).to_be_focused()


# ------------------------------------------------------------------ 3. disabled buttons say why
@pytest.mark.parametrize("width", WIDTHS)
def test_a_disabled_button_says_why(app, width):
    sized(app, width)
    create(app, "versality", "vs", "Nadia")
    app.click("[data-testid=vs-buy-oui-et]")
    app.click("[data-testid=vs-buy-oui]")
    button = app.locator("[data-testid=vs-buy-oui-mais]")
    expect(button).to_be_disabled()
    # The reason comes first (the deck's own problem may follow it).
    expect(button).to_have_accessible_description(re.compile(r"^Coûte 1 point ; il en reste 0\."))
    expect(app.locator("#vs-buy-oui-mais-why")).to_be_visible()
    # Failure cards: nothing owed yet is not a reason once 12 points are bought; a non-et
    # worth more than what is owed while a non-mais fits is.
    app.click("[data-testid=vs-buy-non-mais]")
    expect(app.locator("[data-testid=vs-buy-non-et]")).to_have_accessible_description(
        re.compile(r"^Vaut 5 alors qu'il reste 3 à compenser et qu'une carte moins chère suffit\."))
    no_horizontal_scroll(app, width)


# ------------------------------------------------------------------ 4. Versality: a wound taken back


@pytest.mark.parametrize("width", WIDTHS)
def test_versality_wound_taken_back_is_logged_as_a_correction(page, app_with, width):
    sized(page, width)
    app = app_with(new_table([played("vs-ana", "Ana")]))
    goto_route(app, "versality/character/vs-ana")
    expect(app.locator("[data-testid=vs-unwound-mental]")).to_have_count(0)
    app.click("[data-testid=vs-wound-mental]")
    expect(app.locator("[data-testid=vs-wounds-mental]")).to_have_text("1")
    wait_saved(app, "d => d.characters.find((c) => c.id === 'vs-ana').wounds.mental === 1")
    app.click("[data-testid=vs-unwound-mental]")
    expect(app.locator("[data-testid=vs-wounds-mental]")).to_have_text("0")
    expect(app.locator("[data-testid=vs-status]")).to_have_text("Indemne")
    saved = wait_saved(
        app,
        "d => d.characters.find((c) => c.id === 'vs-ana').wounds.mental === 0"
        " && d.log.some((e) => e.kind === 'versality.wound.remove')",
    )
    ana = next(c for c in saved["characters"] if c["id"] == "vs-ana")
    assert ana["wounds"] == {"physique": 0, "mental": 0, "personnalite": 0}
    assert ana["incapacitated"] is False
    entry = next(e for e in saved["log"] if e["kind"] == "versality.wound.remove")
    assert entry["who"] == "MJ"
    assert entry["label"] == "Correction MJ\u00a0: blessure retirée à Ana (Mental)"
    assert entry["request"] == {"op": "versality.wound.remove", "characteristic": "mental"}
    no_horizontal_scroll(app, width)

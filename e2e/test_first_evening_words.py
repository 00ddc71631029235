"""The first evening, the words (a phone, 360×740): names, not ids, and sentences of the
interface language. The home page explains "MK"; Versality's creation steps are numbered in
the order the page shows them; a storage key never names a backup in a message."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import goto_route, wait_engine


def test_home_explains_mk_and_versality_steps_follow_the_page(app):
    goto_route(app, "home")
    theorem = app.locator("[data-testid=home-system][data-system=theorem]")
    expect(theorem).to_contain_text("Maître de Ka (le MK")
    goto_route(app, "versality")
    app.fill("#vs-new-name", "Nadia")
    app.click("#vs-create")
    expect(app.locator("#vs-power-0")).to_be_visible()
    legends = app.locator("main legend").all_inner_texts()
    numbered = [text for text in legends if re.match(r"^\d+\.", text)]
    assert [int(text.split(".")[0]) for text in numbered] == list(range(1, len(numbered) + 1)), numbered
    assert len(numbered) == 6 and not any("bis" in text for text in legends), legends


def test_a_set_aside_table_is_named_by_its_date_not_its_storage_key(page, site, guarded):
    # An unreadable saved table is set aside: the message names the backup as a person reads it.
    page.goto(site + "manifest.webmanifest")
    page.evaluate("() => localStorage.setItem('tablee.document', '{not json')")
    page.goto(site)
    wait_engine(page)
    notice = page.locator(".notice.error").first
    expect(notice).to_contain_text("sauvegarde")
    text = notice.inner_text()
    assert "tablee.backup" not in text and not re.search(r"\d{4}-\d\d-\d\dT", text), text
    assert re.search(r"\b20\d\d\b", text), text  # the date, in words


#: Narrows a message to the width of its words before the colon (plus a few pixels), so that a
#: line breaks right there, and tells where the colon and the letter before it landed.
COLON_AT_A_BREAK = """el => {
  const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.data.includes(':'));
  const colon = node.data.indexOf(':');
  const word = node.data.slice(0, colon).trimEnd().length;  // just after the word before it
  const range = document.createRange();
  const box = (from, to) => { range.setStart(node, from); range.setEnd(node, to); return range.getBoundingClientRect(); };
  el.style.display = 'inline-block';
  el.style.width = `${Math.ceil(box(0, word).width) + 4}px`;
  const before = box(word - 1, word), sign = box(colon, colon + 1);
  return { text: node.data, width: el.style.width, before: before.top, colon: sign.top, left: sign.left - el.getBoundingClientRect().left };
}"""


def test_a_phone_never_starts_a_line_with_a_colon(app):
    """French sets a space before ":" that a line must not break at (the i18n layer writes a
    no-break space). On the 360 px phone, a refused dice expression's message is narrowed to
    its words before the colon: the colon goes down with the word before it instead of
    starting the next line alone (as it did with a plain space)."""
    app.fill("#dice-expr", "500d6")
    error = app.locator("#dice-error")
    expect(error).to_contain_text("Nombre de dés impossible")
    where = error.evaluate(COLON_AT_A_BREAK)
    assert where["colon"] == where["before"] and where["left"] > 0, where
    assert where["text"].startswith("Nombre de dés impossible\u00a0: 500"), where

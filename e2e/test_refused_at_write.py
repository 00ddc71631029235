"""A change accepted on a tab's own copy but refused when it is written (another tab's change
made the table reach a limit meanwhile) says so on the page that made it, and is offered back.

Two tabs each add characters; each tab's change is accepted against its own copy, but
written together the table would pass 200 characters, and the changes past the limit were
dropped at the write without a word (80 changes in the probe). Here a table holds 190
characters; two tabs add 10 each at the same moment: 10 of the 20 cannot be written. Each tab
says how many of its own were not saved; once room is made, "Réessayer" saves them."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_support import new_table, ok, open_table, wait_engine, wait_saved

PREFILL = 190
PER_TAB = 10
APP = "const { app } = await import(new URL('static/js/app.js', location.href).href);"

#: Adds `n` Point Zéro characters named `<tag>-<i>` as the pages do (app.update, from the new
#: character's name field), without waiting for the writes; resolves once they are written or
#: refused, with how many the page accepted.
ADD = """
async ([tag, n, template]) => {
  APP
  let accepted = 0;
  for (let i = 0; i < n; i += 1) {
    const c = { ...template, id: `${tag}-${i}`, name: `${tag}-${i}` };
    if (app.update((doc) => { doc.characters.push(structuredClone(c)); }, { at: 'new-character-name' })) accepted += 1;
  }
  await app.saved();
  return accepted;
}
""".replace("APP", APP)
NOTICE = re.compile(r"^(?:(\d+) modifications faites ici n'ont|(Une) modification faite ici n'a) pas été enregistrée")


def character(cid: str) -> dict:
    """A fresh Point Zéro sheet, as the engine makes it."""
    return ok({"op": "pointzero.character.new", "id": cid, "name": cid})["character"]


def refused_count(page) -> int:
    """How many of its changes the page says were not saved (0 when it says nothing)."""
    texts = page.locator("#notices .notice.error[role=alert] p").all_inner_texts()
    counts = [m.group(1) or m.group(2) for t in texts if (m := NOTICE.match(t))]
    assert len(counts) <= 1, texts  # one notice, whatever the number of writes that refused
    return 0 if not counts else 1 if counts[0] == "Une" else int(counts[0])


def test_changes_refused_at_the_write_say_so_and_are_offered_back(context, site, guarded):
    doc = new_table([character(f"c{i}") for i in range(PREFILL)])
    pages = [context.new_page(), context.new_page()]
    open_table(pages[0], site, doc, "pointzero")
    pages[1].goto(site + "#/pointzero")
    wait_engine(pages[1])
    for p, tag in zip(pages, "AB", strict=True):
        p.evaluate(f"t => {{ window.__added = ({ADD})(['{tag}', {PER_TAB}, t]); }}", character("x"))
    # every change was accepted on its tab's copy (each copy held 190)
    assert [p.evaluate("() => window.__added") for p in pages] == [PER_TAB, PER_TAB]
    saved = wait_saved(pages[0], "(d) => d.characters.length === 200")
    written = {tag: sum(c["name"].startswith(f"{tag}-") for c in saved["characters"]) for tag in "AB"}
    assert sum(written.values()) == 10
    # each tab says how many of its own were not saved, and why
    for p, tag in zip(pages, "AB", strict=True):
        missing = PER_TAB - written[tag]
        if missing:
            notice = p.locator("#notices .notice.error[role=alert]").filter(has_text="pas été enregistrée")
            expect(notice).to_contain_text("Trop d'éléments (200 au plus)")
            expect(notice.get_by_role("button", name="Réessayer")).to_be_visible()
        assert refused_count(p) == missing, (tag, written)
    # offered back: once there is room, "Réessayer" saves them on the table as it is then
    tag = max(written, key=lambda k: PER_TAB - written[k])
    page = pages["AB".index(tag)]
    missing = PER_TAB - written[tag]
    page.evaluate(f"async () => {{ {APP} app.update((doc) => {{ doc.characters.splice(0, {missing}); }}); }}")
    wait_saved(page, "(d, n) => d.characters.length === n", 200 - missing)
    page.get_by_role("button", name="Réessayer").click()
    saved = wait_saved(page, "(d, [tag, n]) => d.characters.filter((c) => c.name.startsWith(tag + '-')).length === n",
                       [tag, PER_TAB])
    assert len(saved["characters"]) == 200
    assert sorted(c["name"] for c in saved["characters"] if c["name"].startswith(f"{tag}-")) == sorted(
        f"{tag}-{i}" for i in range(PER_TAB))
    expect(page.locator("#notices").filter(has_text="pas été enregistrée")).to_have_count(0)

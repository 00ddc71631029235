"""Two tabs changing the table at the same moment lose nothing: each change is applied to the
latest saved document under a lock the tabs share (navigator.locks), and is in the saved
document once the tab says it is saved. Two pages of one browser context fire 250 changes each,
0 to 5 ms apart; every one of the 500 is in the saved table at the end."""

from __future__ import annotations

from browser_support import saved_document, wait_engine, wait_saved

# Each page adds `n` log entries labelled `<tag>-<i>` through app.addLog (app.update), one every
# 0-5 ms, without waiting for the previous one to be saved; resolves when its own are saved.
FIRE = """
async ([tag, n]) => {
  const { app } = await import(new URL('static/js/app.js', location.href).href);
  const kept = [];
  for (let i = 0; i < n; i += 1) {
    kept.push(app.addLog({ kind: 'roll', label: `${tag}-${i}`, request: { op: 'roll' }, result: { total: i } }));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 6)));
  }
  if (app.saved) await app.saved();
  return kept.filter(Boolean).length;
}
"""
PER_TAB = 250


def test_two_tabs_firing_500_changes_0_to_5_ms_apart_lose_none(context, site, guarded):
    pages = [context.new_page(), context.new_page()]
    for p in pages:
        p.goto(site + "#/log")
        wait_engine(p)
    # both loops run at once: each is started without waiting for it, then both are awaited
    for p, tag in zip(pages, "AB", strict=True):
        p.evaluate(f"() => {{ window.__fired = ({FIRE})(['{tag}', {PER_TAB}]); }}")
    assert [p.evaluate("() => window.__fired") for p in pages] == [PER_TAB, PER_TAB]  # all accepted
    doc = wait_saved(pages[0], "(d, n) => d.log.length >= n", 2 * PER_TAB)
    labels = sorted(e["label"] for e in doc["log"])
    expected = sorted(f"{tag}-{i}" for tag in "AB" for i in range(PER_TAB))
    missing = sorted(set(expected) - set(labels))
    assert not missing, f"{len(missing)} changes lost: {missing[:10]}"
    assert labels == expected  # none twice either
    # each tab's own changes are in the order it made them
    for tag in "AB":
        mine = [e["label"] for e in doc["log"] if e["label"].startswith(tag)]
        assert mine == [f"{tag}-{i}" for i in range(PER_TAB)]
    # and the other tab shows the same table
    assert saved_document(pages[1]) == doc

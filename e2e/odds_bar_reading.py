"""An odds bar read off the page: its segments as (outcome, fraction), checked against the width each
is drawn at (bar), and the outcomes that can happen (nonzero)."""

from __future__ import annotations

from fractions import Fraction

#: A bar as drawn: each segment's outcome, fraction and width, and the track's width.
READ_BAR = """(bar) => {
  const track = bar.querySelector('.ob-track');
  return { width: track.clientWidth, segments: [...track.querySelectorAll('.ob-seg')].map(s => ({
    outcome: s.dataset.outcome, p: s.dataset.p, width: s.getBoundingClientRect().width })) };
}"""


def bar(page, selector: str) -> list[tuple[str, str]]:
    """The bar's segments as (outcome, fraction), checked: they add up to 1, and each is drawn
    as wide as its share (a thin one is drawn 3 px wide at least, taken from the others)."""
    drawn = page.locator(selector).evaluate(READ_BAR)
    fractions = [Fraction(s["p"]) for s in drawn["segments"]]
    assert sum(fractions) == 1, drawn
    slack = 1 + 3 * len(fractions)
    for s, f in zip(drawn["segments"], fractions, strict=True):
        assert abs(s["width"] - float(f) * drawn["width"]) <= slack, (s, float(f) * drawn["width"])
    return [(s["outcome"], s["p"]) for s in drawn["segments"]]


def nonzero(pairs) -> list[tuple[str, str]]:
    return [(k, str(p)) for k, p in pairs if Fraction(p) != 0]

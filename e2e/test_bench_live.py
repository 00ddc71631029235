"""tools/bench_live.py runs: a tiny run of the live table's bench (the two-phone table's moves,
card moves and MJ changes, twelve of each: past the table's burst of moves; a table of two
phones in turn and at once), so a bench that no longer runs (a page that changed under it)
fails here, loudly, instead of printing « not measured » among ``make bench``'s figures. The
figures themselves are never asserted.

A move the live table itself lost (a device whose table never shows a move the referee logged)
is reported by the bench in words naming the device, and fails here: the bench's table has a log
full of the MJ's entries, where a player's roll once pushed out the one before it, so phones
rolling at the same moment never saw each other's (py/tablee/referee_kernel.py ``append``)."""

from __future__ import annotations

import sys

import pytest

from browser_support import ROOT

sys.path.insert(0, str(ROOT / "tools"))

import bench_live

pytestmark = pytest.mark.slow


def _percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_the_live_bench_runs_on_a_tiny_table(browser, site):
    # 12 moves from one phone: past the table's burst of 10 (hub.js RATE_BURST), where the bench broke.
    live = bench_live.live_sync(browser, site, changes=12)
    for key in ("move_answer", "move_logged", "move_other", "theorem_answer", "theorem_other", "versality_answer",
                "mj_to_player"):
        assert len(live[key]) == 12 and all(isinstance(t, float | int) for t in live[key]), (key, live[key])
    assert live["files"] > 0 and live["gzip_bytes"] > 0
    live.update(bench_live.many_phones(browser, site, phones=2, moves=2, rounds=1))
    assert len(live["table_every"]) == 2 and len(live["table_to_mj"]) == 2
    assert all(t > 0 for t in live["table_every"] + live["table_at_once"]), live
    bench_live.summarize(live, _percentile)
    lines = "\n".join(bench_live.report_lines(live))
    assert "not measured" not in lines and "2 phones: a roll from each phone in turn" in lines
    assert not live.get("table_lost"), live["table_lost"]
    assert live["table_at_once"]["count"] == 1

"""make bench, the live table's storage: what each device keeps in localStorage after a long
evening, against the goal (under half of the ~5 M a site gets), counted both ways browsers count
it: in characters (Chromium, Firefox) and in bytes as WebKit does (Safari, every iPhone: a value
costs one byte a character when every character is at most U+00FF, two as soon as one is not;
static/js/storage.js storedBytes). The goal must hold in both.

A campaign whose log is full (tools/bench_table.py's table: 50 Unicreon sheets, each with a page
of notes in French as a person writes it on a phone, with U+202F before « : » and "’", and 1,000 roll
entries in the store's real shapes: about 0.93 M characters saved), one MJ's device and two
phones, then 1,000 roll moves from the phones (each logged by the referee, pushing the oldest
entry out). Then each device's keys, in characters and in bytes (key and value).

Run in Node (tests/live/storage_harness.mjs), not in pages: the session, the sync, the Y docs
and storage.js's `save` and `backup` are the page's own modules over a storage that keeps what
they write, so each key holds exactly the text the browser would store; what differs is the
referee (a stand-in that logs a roll as py/tablee/referee.py does, without the engine) and the
links (in memory). 1,000 moves through three pages and the real engine would take most of an
hour on this machine for the same figures. Not counted there: the undo history (a phone's moves
are not kept in it; the MJ's own changes are, at most 300,000 characters, added as a bound).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

HARNESS = ROOT / "tests" / "live" / "storage_harness.mjs"
QUOTA = 5_000_000  # static/js/storage.js STORAGE_QUOTA_BYTES (and as many characters)
GOAL = 0.5
UNDO_CAP = 300_000  # static/js/undo.js HISTORY_CHARS
MOVES = 1000
NOTES = "Notes de campagne\u202f: le voyage vers la côte, l’or dû à la guilde, les rumeurs du vieux port. "


def campaign() -> dict:
    """The bench table with a page of notes on each sheet: a full-log campaign of ~0.93 M."""
    from bench_table import saved_table

    doc = saved_table()
    for c in doc["characters"]:
        c["notes"] = NOTES * 110
    return doc


def phone_table(name: str) -> dict:
    return {"schema": 1, "app": "tablee", "name": f"Table de {name}", "language": "fr", "characters": [],
            "log": [], "systems": {}, "settings": {}}


def measure(moves: int = MOVES) -> dict:
    from node_harness import NodeHarness

    node = NodeHarness(HARNESS)
    try:
        doc = campaign()
        node("world", world="bench", mj=doc)
        for phone in ("p1", "p2"):
            node("player", world="bench", name=phone, doc=phone_table(phone))
            node("connect", world="bench", name=phone)
        start = time.perf_counter()
        done = 0
        while done < moves:
            for phone in ("p1", "p2"):
                n = min(50, moves - done)
                answers = node("moves", world="bench", name=phone, count=n)
                if not all(isinstance(a, str) and a.startswith("live-") for a in answers):
                    raise RuntimeError(f"a move was not applied: {answers[:3]}")
                done += n
        seconds = time.perf_counter() - start
        devices = {name: node("sizes", world="bench", name=name) for name in ("mj", "p1", "p2")}
        device_bytes = {name: node("bytes", world="bench", name=name) for name in ("mj", "p1", "p2")}
        state = node("state", world="bench")
        # A phone reloaded (its public doc not kept: a large table), then back at the table: what
        # it receives to catch up (the hub's state whole), and how long the sync takes in memory.
        node("disconnect", world="bench", name="p1")
        node("restart", world="bench", name="p1")
        rejoin = node("connect", world="bench", name="p1")
        node("drop", world="bench")
    finally:
        node.close()
    return {
        "moves": done, "seconds": seconds,
        "table_chars": len(json.dumps(doc, ensure_ascii=False, separators=(",", ":"))),
        "log": len(state["mj"]["doc"]["log"]), "devices": devices, "bytes": device_bytes,
        "quota": QUOTA, "goal": GOAL, "undo_cap": UNDO_CAP, "rejoin": rejoin,
    }


NAMES = {"mj": "the MJ's device", "p1": "a phone", "p2": "the other phone"}


def report_lines(r: dict) -> list[str]:
    if "error" in r:
        return ["", f"Live table storage: {r['error']}"]
    lines = ["", f"Live table storage (localStorage, of the ~{r['quota'] / 1e6:.0f} M a site gets, counted as "
             "Chromium and Firefox count it, in characters, and as WebKit (Safari) does, in bytes: two a character "
             f"for a value holding one above U+00FF; goal: under {r['goal']:.0%} on every device, both ways): a "
             f"full-log campaign of {r['table_chars'] / 1e6:.2f} M characters in French after {r['moves']} moves "
             f"from two phones (Node, the page's own modules; the log at {r['log']} entries):", "",
             "| device | key | characters | bytes (WebKit) |", "| --- | --- | --- | --- |"]
    for device in ("mj", "p1"):
        sizes, sizes_bytes = r["devices"][device], r["bytes"][device]
        for key, chars in sorted(sizes.items(), key=lambda kv: -sizes_bytes[kv[0]]):
            own = "`tablee.backup.…` (its own table, backed up when it joined)"
            shown = own if key.startswith("tablee.backup.") else f"`{key}`"
            lines.append(f"| {NAMES[device]} | {shown} | {chars:,} | {sizes_bytes[key]:,} |")
        cells = []
        for total in (sum(sizes.values()), sum(sizes_bytes.values())):
            worst = total + r["undo_cap"]
            cells.append(f"**{total:,}** = {total / r['quota']:.1%} ({worst:,} = {worst / r['quota']:.1%})")
        lines.append(f"| {NAMES[device]} | **total** (with a full undo history) | {cells[0]} | {cells[1]} |")
    if "rejoin" in r:
        lines += ["", f"A phone keeps its own doc (its hand) and not the public one, past 0.5 MB (a second copy of "
                  f"its table): reloaded, it shows its table, and back at the table it receives the hub's state "
                  f"whole, {r['rejoin']['received'] / 1e6:.2f} MB ({r['rejoin']['ms']:.0f} ms in memory)."]
    return lines


def worst_share(r: dict) -> float:
    """The largest share of the quota a device takes, either way of counting, with a full undo history."""
    totals = [sum(r[kind][d].values()) for kind in ("devices", "bytes") for d in r["devices"]]
    return (max(totals) + r["undo_cap"]) / r["quota"]


def main() -> None:
    """The storage figures alone (``python tools/bench_storage.py``)."""
    r = measure()
    print("\n".join(report_lines(r)))
    print(f"\nworst device, either way of counting, with a full undo history: {worst_share(r):.1%} (goal {GOAL:.0%})")
    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    (out / "storage-latest.json").write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

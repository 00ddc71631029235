"""make bench, the live table's join: four phones opening one invitation together.

Five contexts of one browser (the MJ's laptop and four phones, each with its own storage and
no service worker), on a small table. The MJ opens the table; the four phones open the
invitation's link one right after the other (what a table does when everyone scans the MJ's
screen at once), each gives a name and shows its answer; the MJ's page reads the four answers
one after the other (what scanning them does), and the run ends when the MJ's list shows the
four players connected and every phone says so. Timed on the test's clock (wall time, the
browser's work and Playwright's round trips included):

- ``answers_ms``: from the first phone opening the link until all four answers are shown;
- ``links_ms``: from the first answer read on the MJ's device until all four are connected on
  both sides (each answer gets its own connection: static/js/live/rtc.js createOffer);
- ``total_ms``: the two together.
"""

from __future__ import annotations

import json
import re
import time

MJ_MODE_ON = "try { localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"
PHONES = 4
RUNS = 3
TIMEOUT_MS = 120_000
TABLE = {"schema": 1, "app": "tablee", "name": "Banc", "language": "fr", "characters": [], "log": [],
         "systems": {}, "settings": {}}


def _one_run(browser, site: str) -> dict:
    contexts = [browser.new_context(service_workers="block") for _ in range(PHONES + 1)]
    try:
        contexts[0].add_init_script(MJ_MODE_ON)
        mj = contexts[0].new_page()
        mj.goto(site + "manifest.webmanifest")
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(TABLE))
        mj.goto(site + "#/live")
        mj.wait_for_selector("#live-offer, #live-open:enabled", timeout=TIMEOUT_MS)
        if mj.locator("#live-offer").count() == 0:
            mj.click("#live-open")
        mj.wait_for_function("() => /#\\/join\\/T\\./.test(document.getElementById('live-offer')?.value ?? '')",
                             timeout=TIMEOUT_MS)
        url = mj.locator("#live-offer").input_value()
        phones = [context.new_page() for context in contexts[1:]]
        start = time.perf_counter()
        for phone in phones:
            phone.goto(url, wait_until="commit")
        for i, phone in enumerate(phones):
            phone.wait_for_selector("#live-name", timeout=TIMEOUT_MS)
            phone.fill("#live-name", f"Joueur {i + 1}")
            phone.click("#live-join")
        answers = []
        for phone in phones:
            phone.wait_for_function("() => /^T\\./.test(document.getElementById('live-answer-text')?.value ?? '')",
                                    timeout=TIMEOUT_MS)
            answers.append(phone.locator("#live-answer-text").input_value())
        answered = time.perf_counter()
        for answer in answers:
            mj.fill("#live-answer", answer)
            mj.click("#live-accept")
            mj.wait_for_function("() => document.getElementById('live-answer').value === ''", timeout=TIMEOUT_MS)
        mj.wait_for_function(
            "n => document.querySelectorAll('[data-testid=live-players] li[data-state=connected]').length === n",
            arg=PHONES, timeout=TIMEOUT_MS)
        for phone in phones:
            phone.wait_for_function(
                "() => document.querySelector('[data-testid=live-join-state]')?.dataset.state === 'connected'",
                timeout=TIMEOUT_MS)
        done = time.perf_counter()
        return {"answers_ms": (answered - start) * 1000, "links_ms": (done - answered) * 1000,
                "total_ms": (done - start) * 1000, "qr_version": _qr_version(mj),
                "offer_chars": len(url.split("#/join/")[1])}
    finally:
        for context in contexts:
            context.close()


def _qr_version(mj) -> int | None:
    version = mj.locator("[data-testid=live-offer-qr] svg").get_attribute("data-version")
    return int(version) if version and re.fullmatch(r"\d+", version) else None


def join_together(browser, site: str, runs: int = RUNS) -> dict:
    """RUNS runs of four phones joining one invitation together: each figure's runs and median."""
    measured = [_one_run(browser, site) for _ in range(runs)]
    out: dict = {"phones": PHONES, "runs": runs}
    for key in ("answers_ms", "links_ms", "total_ms"):
        values = sorted(m[key] for m in measured)
        out[key] = {"median": values[len(values) // 2], "max": values[-1], "runs": [m[key] for m in measured]}
    out["qr_version"] = measured[-1]["qr_version"]
    out["offer_chars"] = measured[-1]["offer_chars"]
    return out


def report_lines(r: dict) -> list[str]:
    if "error" in r:
        return ["", f"Four phones joining together: {r['error']}"]
    return ["", f"Four phones joining one invitation together (five contexts of one browser, {r['runs']} runs; "
                f"the invitation: {r['offer_chars']} characters, a QR code of version {r['qr_version']}):", "",
            "| figure | median | max |", "| --- | --- | --- |",
            f"| the four phones open the link until all four show their answer | {r['answers_ms']['median']:.0f} ms "
            f"| {r['answers_ms']['max']:.0f} ms |",
            f"| the MJ reads the four answers until all four are connected on both sides | "
            f"{r['links_ms']['median']:.0f} ms | {r['links_ms']['max']:.0f} ms |",
            f"| in all | {r['total_ms']['median']:.0f} ms | {r['total_ms']['max']:.0f} ms |"]

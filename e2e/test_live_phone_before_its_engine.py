"""A phone plays through the MJ's engine before its own is ready (static/js/live/remote-engine.js,
py/tablee/relay.py), one journey on two browser contexts joined through the pages.

Léa's phone never gets an engine until the test releases it: every Worker it creates is held (it
never answers), so its header says « chargement » forever. She creates nothing: she opens the MJ's
invitation, takes Solène (Unicreon), opens her test page and sees the exact odds, answered by the
MJ's engine over the live link (the header says so), and rolls: the roll is a move the MJ's device
referees and logs. Then her engine is let start: her page switches to it without a reload, and the
odds of another difficulty come from her own engine, the MJ's answering nothing more.
"""

from __future__ import annotations

import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, wait_saved

sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "e2e"))

from live_support import ask_and_confirm, join, seed_table, unicreon

pytestmark = pytest.mark.slow

#: The phone's engine held: the Worker it makes starts, but none of its messages reaches the page
#: until `__releaseEngine()` (so the engine never answers, and its start is not given up meanwhile:
#: engine.js STALL_MS); then they arrive, in order, and the engine is ready.
HOLD_ENGINE = """
(() => {
  const Native = window.Worker;
  const held = [];
  let released = false;
  window.__releaseEngine = () => {
    released = true;
    for (const [fn, target, event] of held.splice(0)) fn.call(target, event);
  };
  const call = (fn) => (typeof fn === 'function' ? fn : (event) => fn.handleEvent(event));
  function Worker(...args) {
    const worker = new Native(...args);
    window.__heldWorkers = (window.__heldWorkers || 0) + 1;
    const add = worker.addEventListener.bind(worker);
    const hold = (fn) => (event) => (released ? fn.call(worker, event) : held.push([fn, worker, event]));
    worker.addEventListener = (type, fn, ...rest) => add(type, type === 'message' ? hold(call(fn)) : fn, ...rest);
    let onmessage = null;
    add('message', hold((event) => onmessage?.call(worker, event)));
    Object.defineProperty(worker, 'onmessage', { get: () => onmessage, set: (fn) => { onmessage = fn; } });
    return worker;
  }
  Worker.prototype = Native.prototype;
  window.Worker = Worker;
  window.TABLEE_ENGINE_STALL_MS = 600000;
})();
"""

RELAYED = "async () => (await import('./static/js/live/connect.js')).current().relayAnswered ?? 0"


def test_a_phone_whose_engine_is_held_sees_the_odds_and_rolls_through_the_mjs_engine(devices, site):
    doc = {"schema": 1, "app": "tablee", "name": "Soirée", "language": "fr",
           "characters": [unicreon("u-lea", "Solène")], "log": [], "systems": {}, "settings": {}}
    mj = devices(mj=True).page
    lea = devices(mj=False, scripts=(HOLD_ENGINE,)).page
    seed_table(mj, site, doc)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)

    join(mj, lea, "Léa")
    wait_saved(lea, "d => d.name === 'Soirée'")
    ask_and_confirm(mj, lea, "Léa", ["u-lea"])
    status = lea.locator("#engine-status")
    expect(status).to_have_text("Moteur de règles : celui du ou de la MJ, le vôtre se charge…")

    # Her test page: the odds, from the MJ's engine; the roll, refereed and logged by the MJ's device.
    lea.evaluate("location.hash = '#/unicreon/test/u-lea'")
    lea.select_option("#uc-t-diff", "difficile")
    odds = lea.locator("[data-testid=uc-odds]")
    expect(odds).to_be_visible()
    hard = odds.get_attribute("data-target")
    expect(lea.locator("#uc-roll")).to_be_enabled()
    lea.click("#uc-roll")
    expect(lea.locator("[data-testid=uc-result]")).to_be_visible()
    logged = wait_saved(mj, "d => d.log.some(e => e.kind === 'unicreon.test')")
    assert [e["who"] for e in logged["log"] if e["kind"] == "unicreon.test"] == ["Solène"]
    wait_saved(lea, "d => d.log.some(e => e.kind === 'unicreon.test')")
    assert lea.evaluate("window.__heldWorkers") >= 1
    assert lea.evaluate("document.documentElement.dataset.engine") == "loading"
    expect(lea.locator("[role=alert]:has-text('Refusé')")).to_have_count(0)
    answered = mj.evaluate(RELAYED)
    assert answered >= 2  # (the list of moves, the odds: at least)

    # Her engine answers at last: the page switches to it, without a reload.
    lea.evaluate("window.__releaseEngine()")
    expect(lea.locator("html")).to_have_attribute("data-engine", "ready", timeout=180_000)
    expect(status).to_have_text("Moteur de règles : prêt")
    lea.select_option("#uc-t-diff", "facile")
    expect(odds).not_to_have_attribute("data-target", hard)
    expect(odds).to_be_visible()
    assert mj.evaluate(RELAYED) == answered

"""The page's side of boot: the saved table is painted before any runtime code.

With a large saved table (50 characters, a 1000-entry log, in the store's real shapes) and
every request for PyScript's or Pyodide's files held back, the log and the character list
are on screen and the status line says the engine is loading; the PyScript core is asked for
only after the first contentful paint; once the held requests go through, the engine is
ready and opening the table changed nothing. A first visit's first paint waits for nothing
but the page and its stylesheet: the app's module and what it preloads are asked for after
it. Plus, without a browser: index.html modulepreloads exactly the shell's static module
graph, from the template the page copies in after its first paint.
"""

from __future__ import annotations

import json
import re
import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, saved_document, wait_engine

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "py"))

from bench_table import saved_table
from shell_graph import index_with_preloads, static_graph

RUNTIME = re.compile(r".*/static/vendor/(pyscript|pyodide)/.*")


# It holds the runtime's requests and times a first paint: a context of its own, no service worker.
pytestmark = pytest.mark.fresh_context


@pytest.fixture
def browser_context_args(browser_context_args):
    """No service worker: its install would fetch the held files outside page.route."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="module")
def big_table() -> dict:
    return saved_table(characters=50, log=1000)


def test_big_table_is_what_the_store_keeps(big_table):
    from tablee import api

    opened = api.handle({"op": "store.open", "document": big_table})
    assert opened["quarantined"] == 0 and opened["migrated_from"] is None
    assert opened["document"] == big_table
    assert len(big_table["characters"]) == 50 and len(big_table["log"]) == 1000


def test_saved_table_paints_while_the_runtime_is_held(page, site, guarded, big_table):
    held = []
    released = {"now": False}

    def hold(route):
        if released["now"]:
            route.continue_()
        else:
            held.append(route)

    page.route(RUNTIME, hold)
    # Same origin, not the app: seed the saved table before the app's first boot.
    page.goto(site + "manifest.webmanifest")
    raw = json.dumps(big_table, ensure_ascii=False, separators=(",", ":"))
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", raw)

    with page.expect_request(lambda r: "/static/vendor/pyscript/core" in r.url, timeout=60_000):
        page.goto(site + "#/log")
        # The log draws its latest 50 entries (more on demand: e2e/test_first_evening_share_log.py).
        expect(page.locator("#log-list > li")).to_have_count(50)
    newest = big_table["log"][-1]
    expect(page.locator("#log-list > li").first.locator("strong")).to_have_text(newest["label"])
    expect(page.locator("#log-list > li").first.locator(".log-total")).to_have_text(str(newest["result"]["total"]))
    # The engine was started after the first paint and is stuck on the held core.
    page.wait_for_function("() => document.documentElement.dataset.engine === 'loading'")
    expect(page.locator("#engine-status")).to_have_text("Moteur de règles : chargement…")
    order = page.evaluate(
        """() => ({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
          start: performance.getEntriesByName('tablee-engine-start')[0]?.startTime ?? null,
        })"""
    )
    # engine.js marks the moment it starts importing the runtime: after the first paint.
    assert order["fcp"] is not None and order["start"] is not None, order
    assert order["start"] >= order["fcp"], order
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"

    # The character list of a system page, still without the runtime.
    page.goto(site + "#/unicreon")
    expect(page.locator("[data-testid=uc-char]")).to_have_count(50)
    expect(page.locator("[data-testid=uc-char]").first).to_contain_text("Personnage 000")
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"

    released["now"] = True
    for route in held:
        try:
            route.continue_()
        except Exception:
            pass
    wait_engine(page)
    expect(page.locator("#engine-status")).to_have_text("Moteur de règles : prêt")
    assert saved_document(page) == big_table


def test_a_first_visit_paints_before_it_asks_for_the_app(page, site, guarded):
    """The welcome is painted from the page and its stylesheet alone: every script and preload
    is requested after the first contentful paint (on a slow line they would share it with the
    stylesheet; Lighthouse counts what ended before the largest paint in it)."""
    page.goto(site)
    expect(page.get_by_test_id("home-pitch")).to_be_visible()
    found = page.evaluate(
        """() => ({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
          fetched: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]),
        })"""
    )
    assert found["fcp"] is not None, found
    before = sorted(name.rsplit("/tablee/", 1)[-1] for name, start in found["fetched"] if start < found["fcp"])
    assert not [n for n in before if n.endswith((".js", ".mjs", ".json"))], before
    after = {name.rsplit("/tablee/", 1)[-1] for name, start in found["fetched"] if start >= found["fcp"]}
    assert {"static/js/main.js", "static/js/app.js", "static/i18n/fr/core.json", "static/js/engine.js"} <= after, after


def test_the_runtime_core_throws_no_error_while_it_starts(page, site, guarded):
    """PyScript's core is evaluated on the main thread without throwing an Error: its probe for
    growable SharedArrayBuffers threw "… is not a constructor" on every page that is not
    cross-origin isolated, and to word that message V8 parsed the core's 136 kB top level a
    second time inside the evaluation (tools/vendor.py guard_sab_probe)."""
    cdp = page.context.new_cdp_session(page)
    scripts: dict[str, str] = {}
    thrown: list[tuple[str, str]] = []

    def parsed(event):
        scripts[event["scriptId"]] = event.get("url", "")

    def paused(event):
        data = event.get("data") or {}
        frames = event.get("callFrames") or [{}]
        if data.get("subtype") == "error":
            url = scripts.get(frames[0].get("location", {}).get("scriptId"), "")
            thrown.append((url, (data.get("description") or "").splitlines()[0]))
        cdp.send("Debugger.resume")

    cdp.on("Debugger.scriptParsed", parsed)
    cdp.on("Debugger.paused", paused)
    cdp.send("Debugger.enable")
    cdp.send("Debugger.setPauseOnExceptions", {"state": "all"})
    page.goto(site)
    wait_engine(page)
    cdp.send("Debugger.setPauseOnExceptions", {"state": "none"})
    assert any("/static/vendor/pyscript/core-" in url for url in scripts.values()), scripts
    assert not [t for t in thrown if "/static/vendor/pyscript/" in t[0]], thrown


def test_redraws_that_change_nothing_leave_the_navigation_alone(page, site, guarded):
    """After the first render, the engine's start and its readiness redraw the page but change
    no text of the navigation: nothing in it is rewritten (each rewrite made the browser restyle
    and lay out the header again), and the start itself draws nothing."""
    page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
          window.tableeNavChanges = [];
          new MutationObserver((records) => {
            if (!performance.getEntriesByName("tablee-first-render").length) return;
            for (const r of records) window.tableeNavChanges.push(`${r.type} ${r.target.nodeName} ${r.attributeName ?? ""}`);
          }).observe(document.getElementById("app-nav"), { subtree: true, childList: true, characterData: true, attributes: true });
        });"""
    )
    page.goto(site)
    wait_engine(page)
    expect(page.locator("#app-nav a[aria-current=page]")).to_have_attribute("data-route", "home")
    # One more redraw that changes nothing, as every change of the table makes; the observer's
    # records of it are delivered before the awaited microtask.
    changes = page.evaluate("""async () => {
      const { app } = await import("./static/js/app.js");
      app.rerender();
      await Promise.resolve();
      return window.tableeNavChanges;
    }""")
    assert changes == []


def test_index_modulepreloads_the_shell_graph_and_nothing_else():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    graph = static_graph()
    assert graph[0] == "static/js/main.js" and "static/vendor/lit-html/lit-html.js" in graph
    assert len(preloads) == len(set(preloads))
    # The runtime is never preloaded: it starts after the first paint.
    assert not [p for p in preloads if "pyscript" in p or "pyodide" in p]
    assert sorted(preloads) == sorted(graph[1:]), "index.html's modulepreload list is not main.js's static graph"
    assert index_with_preloads(html) == html, "index.html is stale: run python3 tools/vendor.py"
    # The module, the preloads and the shell's texts sit in the template copied in after the
    # first paint: outside it, the head asks for nothing a first paint does not need.
    template = re.search(r'<template id="boot-load">(.*?)</template>', html, re.S).group(1)
    assert '<script type="module" src="static/js/main.js"></script>' in template
    assert all(f'href="{p}"' in template for p in preloads)
    outside = html.replace(template, "")
    assert re.findall(r'<(?:link|script)[^>]*\b(?:href|src)="([^"]+)"', outside) == [
        "manifest.webmanifest", "static/icons/icon.svg", "static/icons/icon-192.png", "static/css/app.css"]

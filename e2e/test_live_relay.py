"""A player who is not in the room: the live table through a real TURN relay
(static/js/live/ice-servers.js, rtc.js).

Debian's coturn (`turnserver`) is started by the test on the loopback with one static user, and
every browser here forces relay-only ICE (the test setting, `iceTransportPolicy: "relay"`), so
a link can only come up through coturn. One journey: the MJ types the relay in « Joueurs à
distance »: a port where none listens (the invitation says the relay does not answer), a wrong
password (it says the relay refused it), then the right one; Léa's phone opens the invitation (the servers come in it: she types nothing, and the
password is nowhere on her page nor in her storage), joins « par le relais », plays a move the
MJ's device logs once, drops, rejoins through the relay and plays again (logged once); Mo's
phone then joins the same invitation through the relay (each answer gets a new connection on
the MJ's device with its own relay allocation, which the phone learns from its checks).

Where coturn is missing outside CI, the test skips and says why (under CI it fails).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, no_horizontal_scroll, wait_saved

sys.path.insert(0, str(ROOT / "e2e"))

from live_support import ask_and_confirm, axe_clean, call, fresh_table, seed_table

USER = "tablee"
PASSWORD = "relais-de-test-9Q"
RELAY_ONLY = "() => localStorage.setItem('tablee.live.relay_only', '1')"


def free_port() -> int:
    """A port free on the loopback for both UDP and TCP (coturn listens on both)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind(("127.0.0.1", 0))
            port = udp.getsockname()[1]
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
                try:
                    tcp.bind(("127.0.0.1", port))
                except OSError:
                    continue
            return port
    raise RuntimeError("no free loopback port")


@pytest.fixture(scope="module")
def turn(tmp_path_factory):
    """coturn on 127.0.0.1 (a free port, relay ports of its own), user USER:PASSWORD; stopped after."""
    binary = shutil.which("turnserver") or ("/usr/bin/turnserver" if os.path.exists("/usr/bin/turnserver") else None)
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("coturn (turnserver) is missing: .ci/run installs it")
        pytest.skip("coturn is not installed (apt-get install coturn, or tools/browser.sh): the relay test needs a real TURN server")
    port = free_port()
    relay = 20_000 + (port * 7) % 30_000
    folder = tmp_path_factory.mktemp("coturn")
    process = subprocess.Popen(
        [binary, "-n", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1", f"--listening-port={port}",
         f"--min-port={relay}", f"--max-port={relay + 200}", "--lt-cred-mech", f"--user={USER}:{PASSWORD}",
         "--realm=tablee.test", "--no-tls", "--no-dtls", "--no-cli", "--allow-loopback-peers",
         f"--pidfile={folder / 'pid'}", f"--userdb={folder / 'db'}", f"--log-file={folder / 'log'}", "--simple-log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"turnserver stopped at once (code {process.returncode})")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("turnserver did not listen within 30 s")
                time.sleep(0.2)
        yield f"turn:127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def phone_at(devices, site: str):
    """A phone that forces relay-only ICE (its storage set before the app runs)."""
    device = devices(mj=False)
    device.page.goto(site + "manifest.webmanifest")
    device.page.evaluate(RELAY_ONLY)
    return device


def answer_through_relay(mj, phone, url: str, name: str) -> None:
    phone.goto(url)
    phone.fill("#live-name", name)
    phone.click("#live-join")
    expect(phone.locator("#live-answer-text")).to_have_value(re.compile(r"^T\."))
    state = phone.locator("[data-testid=live-join-state]")
    expect(state).to_contain_text("Connexion par le relais…")
    mj.fill("#live-answer", phone.locator("#live-answer-text").input_value())
    mj.click("#live-accept")
    expect(state).to_have_attribute("data-state", "connected", timeout=60_000)
    expect(state.get_by_test_id("live-relay")).to_have_text("par le relais")
    row = mj.locator(f"[data-testid=live-players] li:has-text('{name}')")
    expect(row).to_have_attribute("data-state", "connected")
    expect(row.get_by_test_id("live-relay")).to_have_text("par le relais")


def test_a_phone_joins_plays_drops_and_rejoins_through_a_turn_relay(devices, site, turn):
    mj_device = devices(mj=True)
    mj = mj_device.page
    seed_table(mj, site, fresh_table())
    mj.evaluate(RELAY_ONLY)
    mj.goto(site + "#/live")
    expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)

    # « Joueurs à distance »: a URL that is not TURN changes nothing; a wrong password is
    # refused by coturn, said on the invitation; then the right one.
    remote = mj.get_by_test_id("live-remote")
    remote.locator("summary").click()
    mj.fill("#live-turn-urls", "http://127.0.0.1:3478")
    mj.fill("#live-turn-username", USER)
    mj.fill("#live-turn-credential", "pas-le-bon")
    mj.click("#live-turn-save")
    expect(mj.get_by_test_id("live-turn-error")).to_contain_text("« http://127.0.0.1:3478 » n'est pas une adresse TURN")
    assert mj.evaluate("() => localStorage.getItem('tablee.live.remote')") is None
    # A port where no relay listens: the invitation says the relay does not answer.
    mj.fill("#live-turn-urls", f"turn:127.0.0.1:{free_port()}")
    mj.click("#live-turn-save")
    expect(mj.get_by_test_id("live-remote-status")).to_contain_text("Relais enregistré")
    mj.click("#live-open")
    refusal = mj.locator("#live-invite-title ~ .field-error")
    expect(refusal).to_contain_text("le serveur TURN ne répond pas", timeout=30_000)
    expect(refusal).not_to_contain_text("Wi-Fi")
    mj.fill("#live-turn-urls", turn)
    mj.click("#live-turn-save")
    expect(refusal).to_contain_text("le serveur TURN a refusé le nom d'utilisateur ou le mot de passe", timeout=30_000)
    expect(mj.locator("#live-offer")).to_have_count(0)
    mj.fill("#live-turn-credential", PASSWORD)
    mj.click("#live-turn-save")
    expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"), timeout=30_000)
    url = mj.locator("#live-offer").input_value()

    # Léa's phone: the relay comes in the invitation; the password is not on her page, nor kept.
    lea_device = phone_at(devices, site)
    lea = lea_device.page
    answer_through_relay(mj, lea, url, "Léa")
    assert PASSWORD not in lea.content()
    assert PASSWORD not in lea.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    wait_saved(lea, "d => d.name === 'Première soirée'")

    # A move from her phone, refereed and logged once on the MJ's device.
    ask_and_confirm(mj, lea, "Léa", ["s-lea"])
    first = call(lea, {"op": "systmj.test", "score": 45})
    assert "error" not in first, first
    wait_saved(mj, "(d, id) => d.log.filter(e => e.id === id).length === 1", first["logged"])

    # She drops (page closed) and rejoins through the relay with the invitation on screen.
    row = mj.locator("[data-testid=live-players] li:has-text('Léa')")
    lea.close()
    expect(row).to_have_attribute("data-state", "away", timeout=60_000)
    lea = lea_device.context.new_page()
    answer_through_relay(mj, lea, mj.locator("#live-offer").input_value(), "Léa")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(1)
    again = call(lea, {"op": "systmj.test", "score": 30})
    assert "error" not in again, again
    table = wait_saved(mj, "(d, id) => d.log.filter(e => e.id === id).length === 1", again["logged"])
    assert sum(1 for e in table["log"] if e["id"] == first["logged"]) == 1

    # Mo's phone answers the same invitation: its own connection on the MJ's device, relayed too.
    mo = phone_at(devices, site).page
    answer_through_relay(mj, mo, url, "Mo")
    expect(mj.locator("[data-testid=live-players] li")).to_have_count(2)
    # The setting and the relayed rows at 360 px, and for a screen reader.
    no_horizontal_scroll(mj)
    axe_clean(mj)

"""The live table's join through the camera scan on a browser with no BarcodeDetector
(static/js/views/scan.js, static/js/views/live.js): the MJ's laptop and a player's phone, two
contexts of a Chromium of this module's own, launched with a fake camera
(``--use-fake-device-for-media-stream --use-file-for-fake-video-capture=<file.y4m>``) and with
``BarcodeDetector`` deleted before the pages' scripts run, so the vendored decoder (zxing-wasm,
from static/vendor, never a CDN: every request off the site's origin fails the test) reads the
codes.

The camera's video is made here from the page's own QR code: its modules read from the SVG the
page shows, drawn into a Y4M file before the scan that needs it starts (Chromium opens the file
when a camera stream starts; the previous scan's stream is stopped by then, so the next one
reads the new file).

The MJ's page is allowed the camera and opens it before making the invitation: Chromium then
gathers the device's real addresses instead of mDNS names, and the invitation must stay in the
short form.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, Device, chromium_launch, no_horizontal_scroll, wait_engine

pytestmark = pytest.mark.slow

NO_BARCODE_DETECTOR = "delete globalThis.BarcodeDetector;"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The fake camera's picture: 4:3, as most cameras.
WIDTH, HEIGHT = 640, 480


def write_y4m(path: Path, modules: int, dark: set[tuple[int, int]], frames: int = 2) -> None:
    """A still video of a QR code for Chromium's fake camera: ``modules`` squares a side (quiet
    zone included), the ``dark`` ones (column, row) black on white, as large as fits in the
    middle of the picture. Y4M with 4:2:0 chroma (all grey); written beside and renamed, so
    Chromium never reads half a file."""
    scale = min(WIDTH, HEIGHT) * 9 // 10 // modules
    left, top = (WIDTH - modules * scale) // 2, (HEIGHT - modules * scale) // 2
    luma = bytearray(b"\xff") * (WIDTH * HEIGHT)
    for column, row in dark:
        for y in range(top + row * scale, top + (row + 1) * scale):
            start = y * WIDTH + left + column * scale
            luma[start:start + scale] = b"\x00" * scale
    chroma = b"\x80" * (WIDTH * HEIGHT // 2)
    frame = b"FRAME\n" + bytes(luma) + chroma
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * frames)
    os.replace(temporary, path)


def axe_findings(page) -> list:
    """axe-core's serious and critical findings on the page as it is."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
            .filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)})))""")


def film_qr(page, testid: str, path: Path) -> None:
    """Write the QR code shown in ``[data-testid=<testid>]`` as the fake camera's video."""
    shown = page.locator(f"[data-testid={testid}] svg.qr")
    expect(shown).to_be_visible()
    size, d = page.evaluate(
        "(svg) => [svg.viewBox.baseVal.width, svg.querySelector('path').getAttribute('d')]", shown.element_handle())
    dark = {(int(c), int(r)) for c, r in re.findall(r"M(\d+) (\d+)h1v1h-1z", d)}
    assert len(dark) > 200
    write_y4m(path, int(size), dark)


@pytest.fixture(scope="module")
def camera(tmp_path_factory):
    """The fake camera's video file (a white picture until a test films a code)."""
    path = tmp_path_factory.mktemp("camera") / "camera.y4m"
    write_y4m(path, 10, set())
    return path


@pytest.fixture(autouse=True)
def blank_camera(camera):
    """Each test starts with a white picture, whatever code the previous one filmed."""
    write_y4m(camera, 10, set())


@pytest.fixture(scope="module")
def camera_browser(browser_type, camera):
    launch = chromium_launch(browser_type)
    launch["args"] = [*launch["args"], "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={camera}"]
    browser = browser_type.launch(**launch)
    yield browser
    browser.close()


@pytest.fixture
def camera_devices(camera_browser, server):
    made: list[Device] = []

    def make(mj: bool, allowed: bool = True) -> Device:
        device = Device(camera_browser, server, mj, scripts=(NO_BARCODE_DETECTOR,))
        if allowed:
            device.context.grant_permissions(["camera"], origin=server)
        made.append(device)
        return device

    yield make
    try:
        for device in made:
            device.check()
    finally:
        for device in made:
            device.context.close()


def test_both_sides_join_by_scanning_with_the_vendored_decoder(camera_devices, site, camera):
    mj_device = camera_devices(mj=True)
    mj = mj_device.page
    player = camera_devices(mj=False).page
    # A scan with nothing in sight shows the preview, where to aim, and keeps looking (first, so
    # the camera is long released when the next scan opens the filmed code).
    player.goto(site + "#/join")
    player.click("#live-join-scan")
    scan = player.locator("[data-testid=scan]")
    expect(scan).to_have_attribute("data-scan", "scanning")
    expect(scan).to_have_attribute("data-decoder", "zxing")
    expect(player.locator("#live-join-scan-video")).to_have_js_property("readyState", 4)
    expect(player.locator(".scan-aim")).to_be_visible()
    expect(scan.get_by_role("status")).to_have_text("Placez le QR code dans le cadre, à 20 ou 30 cm de la caméra.")
    no_horizontal_scroll(player)
    assert axe_findings(player) == []
    expect(player.locator("#live-join-scan-stop")).to_be_focused()
    player.keyboard.press("Enter")
    expect(scan).to_have_attribute("data-scan", "idle")
    expect(player.locator("#live-join-scan")).to_be_focused()

    mj.goto(site + "#/live")
    expect(mj.get_by_role("heading", name="Table en direct", level=1)).to_be_visible()
    assert mj.evaluate("() => typeof BarcodeDetector") == "undefined"
    # The MJ's page may use the camera before the invitation is made: Chromium's candidates now
    # carry this machine's real addresses, not mDNS names.
    stopped = mj.evaluate("""async () => {
      const stream = await navigator.mediaDevices.getUserMedia({video: true});
      stream.getTracks().forEach((t) => t.stop());
      return stream.getTracks().every((t) => t.readyState === 'ended');
    }""")
    assert stopped
    mj.click("#live-open")
    offer = mj.locator("#live-offer")
    expect(offer).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
    url = offer.input_value()
    payload = url.split("#/join/")[1]
    assert len(payload) < 260, f"the invitation left the short form: {len(payload)} characters"
    # What another engine's test calls (no camera there): the decoder on the page's own code.
    decoded = mj.evaluate("""async () => {
      const [{decodeQr, qrDetector}, {qrCanvasOf}] = await Promise.all([
        import('./static/js/views/scan.js'), import('./static/js/share/qr.js')]);
      const svg = document.querySelector('[data-testid=live-offer-qr] svg.qr');
      return [(await qrDetector()).kind, await decodeQr(qrCanvasOf(svg)), await decodeQr(qrCanvasOf(svg.outerHTML, 3))];
    }""")
    assert decoded == ["zxing", url, url]
    sdp = mj.evaluate("async (p) => (await (await import('./static/js/live/rtc.js')).readOffer(p)).sdp", payload)
    assert re.search(r"^a=candidate:\S+ 1 udp \d+ \d+\.\d+\.\d+\.\d+ \d+ typ host$", sdp, re.M), sdp
    assert ".local" not in sdp

    # The phone reads the invitation with its camera, inside the app (no link opened).
    film_qr(mj, "live-offer-qr", camera)
    player.click("#live-join-scan")
    expect(player.locator("#live-name")).to_be_visible()
    expect(player.locator("#live-join-scan-video")).to_have_count(0)  # the camera stopped
    player.fill("#live-name", "Inès")
    player.click("#live-join")
    expect(player.locator("#live-answer-text")).to_have_value(re.compile(r"^T\.[A-Za-z0-9_-]{100,}$"))

    # The MJ's laptop reads the phone's answer with its camera.
    film_qr(player, "live-answer-qr", camera)
    mj.click("#live-scan")
    expect(mj.locator("[data-testid=scan]")).to_have_attribute("data-decoder", "zxing")
    row = mj.locator("[data-testid=live-players] li")
    expect(row).to_have_attribute("data-state", "connected")
    expect(row).to_contain_text("Inès")
    expect(player.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")
    expect(mj.locator("#live-scan-video")).to_have_count(0)
    # The decoder came from static/vendor: the page asked for nothing else (Device.check).
    loaded = mj.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /zxing|barcode/.test(n))")
    assert any(n.endswith("/static/vendor/zxing-wasm/dist/reader/zxing_reader.wasm") for n in loaded), loaded

    # Offline, a page of the app still decodes: the decoder is not downloaded with the app, but
    # the service worker keeps it once a scan loaded it (here before the worker was installed).
    wait_engine(mj)  # the service worker registers once the engine is ready
    mj.evaluate("async () => { await navigator.serviceWorker.ready; }")
    kept = """async () => { for (const name of await caches.keys()) {
        const keys = await (await caches.open(name)).keys();
        const kept = keys.filter((r) => /(ponyfill|zxing-exported)\\.js[?]tablee-hash=|zxing_reader\\.wasm[?]tablee-hash=/.test(r.url));
        if (kept.length === 3) return true; } return false; }"""
    mj.wait_for_function(kept, timeout=60_000, polling=200)
    mj_device.context.set_offline(True)
    offline = mj_device.context.new_page()
    offline.goto(site + "#/join")
    expect(offline.locator("#live-join-scan")).to_be_visible()
    assert offline.evaluate("() => navigator.serviceWorker.controller !== null")
    assert offline.evaluate("""async () => {
      const [{decodeQr}, {html, render}, qr] = await Promise.all([import('./static/js/views/scan.js'),
        import('./static/vendor/lit-html/lit-html.js'), import('./static/js/share/qr.js')]);
      const box = document.createElement('div');
      render(qr.qrSvg(qr.qrMatrix('hors ligne'), 'code'), box);
      return decodeQr(qr.qrCanvasOf(box.querySelector('svg')));
    }""") == "hors ligne"
    # A device offline that never scanned (its kept decoder removed, a fresh page): the scan
    # says the reader is not on this device yet.
    offline.evaluate("""async () => { for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const r of await cache.keys()) if (/[?]tablee-hash=/.test(r.url)) await cache.delete(r); } }""")
    fresh = mj_device.context.new_page()
    fresh.goto(site + "#/live")
    fresh.click("#live-scan")
    missing = fresh.locator("[data-scan-error]")
    expect(missing).to_have_attribute("data-scan-error", "no_decoder_offline")
    expect(missing).to_contain_text("pas encore sur cet appareil")
    expect(fresh.locator("#live-answer")).to_be_editable()


def test_a_refused_or_absent_camera_says_so_in_one_sentence_and_the_paste_field_stays(camera_devices, devices, site):
    """The MJ's laptop refuses the camera (this module's browser, no permission given); the
    phone has no camera at all (the suite's browser has no fake device)."""
    mj = camera_devices(mj=True, allowed=False).page
    mj.goto(site + "#/live")
    mj.click("#live-scan")
    refused = mj.locator("[data-scan-error]")
    expect(refused).to_have_attribute("data-scan-error", "refused")
    expect(refused).to_have_text("La caméra est refusée à Tablée : collez le texte à la place, "
                                 "ou autorisez la caméra dans les réglages du navigateur.")
    expect(refused).to_have_attribute("role", "alert")
    expect(mj.locator("#live-scan-video")).to_have_count(0)
    expect(mj.locator("#live-answer")).to_be_editable()
    expect(mj.locator("#live-scan")).to_be_visible()  # the MJ may allow it and try again
    assert axe_findings(mj) == []
    assert mj.locator("[data-testid=live-players] li").count() == 0

    phone = devices(mj=False).page
    phone.goto(site + "#/join")
    phone.click("#live-join-scan")
    absent = phone.locator("[data-scan-error]")
    expect(absent).to_have_attribute("data-scan-error", "absent")
    expect(absent).to_have_text("Aucune caméra utilisable sur cet appareil (absente ou déjà prise par une autre "
                                "application) : collez le texte à la place.")
    expect(phone.locator("#live-invitation")).to_be_editable()


def test_the_camera_is_the_back_one_else_the_front_one_else_any(devices, site):
    """scan.js's openCamera on a stand-in for navigator.mediaDevices: a laptop (no back camera)
    gets its front one; a refusal stops at once; no camera at all is "absent"."""
    page = devices(mj=False).page
    page.goto(site + "#/join")
    expect(page.locator("main h1")).to_be_visible()
    tried = page.evaluate("""async () => {
      const {openCamera} = await import('./static/js/views/scan.js');
      const media = (fail) => {
        const asked = [];
        return {asked, getUserMedia: async (c) => {
          asked.push(JSON.stringify(c.video));
          const name = fail(c.video);
          if (name) throw new DOMException('no', name);
          return 'stream ' + JSON.stringify(c.video);
        }};
      };
      const run = async (fail) => {
        const m = media(fail);
        const got = await openCamera(m).catch((e) => e.code);
        return [got, m.asked];
      };
      return {
        laptop: await run((v) => (v.facingMode?.exact ? 'OverconstrainedError' : null)),
        phone: await run(() => null),
        refused: await run(() => 'NotAllowedError'),
        none: await run(() => 'NotFoundError'),
        busy: await run((v) => (v === true ? 'NotReadableError' : 'OverconstrainedError')),
      };
    }""")
    env, user = '{"facingMode":{"exact":"environment"}}', '{"facingMode":"user"}'
    assert tried["laptop"] == ['stream {"facingMode":"user"}', [env, user]]
    assert tried["phone"] == ['stream {"facingMode":{"exact":"environment"}}', [env]]
    assert tried["refused"] == ["refused", [env]]
    assert tried["none"] == ["absent", [env, user, "true"]]
    assert tried["busy"] == ["absent", [env, user, "true"]]


NO_WEBRTC = "delete globalThis.RTCPeerConnection; delete globalThis.webkitRTCPeerConnection;"


def test_a_browser_without_webrtc_says_it_cannot_join_a_live_table(devices, site):
    """Debian's WebKitGTK has no RTCPeerConnection: both live pages say so in plain words (a
    stable [data-live-unsupported]) and nothing fails (Device.check: no page error)."""
    page = devices(mj=True, scripts=(NO_WEBRTC,)).page
    page.goto(site + "#/live")
    notice = page.locator("[data-live-unsupported]")
    expect(notice).to_contain_text("Ce navigateur ne peut pas rejoindre une table en direct")
    expect(notice.get_by_role("link")).to_have_attribute("href", "#/share")
    expect(page.locator("#live-open")).to_have_count(0)
    page.goto(site + "#/join")
    expect(page.locator("[data-live-unsupported]")).to_contain_text("il ne sait pas relier deux appareils (WebRTC absent)")
    expect(page.locator("#live-join-scan")).to_have_count(0)


def test_the_join_page_speaks_its_own_words_before_the_engine_is_up(camera_devices, site):
    """A phone opening an invitation is often a first visit, its engine still starting: the join
    page (and its scan) loads the live table's texts itself. Here the engine never comes up
    (Pyodide's files are held), and the page is in French all the same."""
    phone = camera_devices(mj=False)
    held = []
    phone.context.route(re.compile(r".*/static/vendor/pyodide/.*"), lambda route: held.append(route))
    page = phone.page
    page.goto(site + "#/join")
    expect(page.locator("#live-join-scan")).to_have_text("Scanner l'invitation")
    expect(page.get_by_role("heading", level=1)).to_have_text("Rejoindre la table")
    assert page.evaluate("() => document.documentElement.dataset.engine") != "ready"
    for route in held:
        route.abort()


def test_leaving_the_page_stops_the_camera(camera_devices, site):
    page = camera_devices(mj=False).page
    page.goto(site + "#/join")
    page.click("#live-join-scan")
    expect(page.locator("#live-join-scan-video")).to_have_js_property("readyState", 4)
    page.evaluate("() => { window.__track = document.getElementById('live-join-scan-video').srcObject.getTracks()[0]; }")
    page.get_by_role("link", name="Dés").click()
    page.wait_for_function("() => window.__track.readyState === 'ended'")


def test_a_scan_stopped_while_its_camera_opens_lets_it_go(devices, site):
    """A stop (and a new start) while the camera is still opening: the first camera, when it
    comes, is closed at once and the second scan runs; which way a camera looks comes from the
    track, else from what was asked (a back camera that names no side is not mirrored)."""
    page = devices(mj=False).page
    page.goto(site + "#/join")
    expect(page.locator("main h1")).to_be_visible()
    result = page.evaluate("""async () => {
      const {Scan, qrDetector} = await import('./static/js/views/scan.js');
      await qrDetector();
      const opening = [];
      navigator.mediaDevices.getUserMedia = (c) => new Promise((resolve) => opening.push({c, resolve}));
      const camera = (facingMode) => {
        const track = {stopped: false, stop() { this.stopped = true; }, getSettings: () => ({}),
                       getConstraints: () => ({facingMode})};
        return {track, stream: {getTracks: () => [track], getVideoTracks: () => [track]}};
      };
      const scan = new Scan({ids: {start: 's', video: 'v', stop: 'x'}, labels: {start: 'live.scan', video: 'live.scan'},
                             onText: () => {}, rerender: () => {}});
      const until = async (f) => { while (!f()) await new Promise((r) => setTimeout(r, 10)); };
      const first = scan.start();
      await until(() => opening.length === 1);
      scan.stop();
      const second = scan.start();
      await until(() => opening.length === 2);
      const a = camera({exact: 'environment'}), b = camera({exact: 'environment'});
      opening[0].resolve(a.stream);
      await first;
      const between = [scan.state, a.track.stopped];
      opening[1].resolve(b.stream);
      await second;
      const after = [scan.state, scan.stream === b.stream, b.track.stopped, scan.facing];
      scan.stop();
      return {between, after, stoppedAtLast: b.track.stopped};
    }""")
    assert result == {"between": ["starting", True], "after": ["scanning", True, False, "environment"],
                      "stoppedAtLast": True}

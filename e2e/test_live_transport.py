"""The live table's transport and pages (static/js/live/rtc.js, static/js/views/live.js).

Two browser contexts with separate storage stand for the MJ's laptop and a player's phone, on
this machine with no internet (every request off the site's origin fails the test). They join
the way a table would: the MJ's page makes an invitation, the player's context opens its link
(what the phone's camera app does), gives a name and shows an answer, which the test copies
into the MJ's paste field. No browser flag is needed: Chromium's host candidates here are mDNS
`.local` names, and two contexts of one browser resolve each other's.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_support import no_horizontal_scroll
from live_support import accept, answer_invitation, axe_clean, open_invitation

pytestmark = pytest.mark.slow

RTC = "./static/js/live/rtc.js"


def test_a_player_joins_messages_flow_both_ways_and_leaving_shows_away(devices, site):
    mj = devices(mj=True).page
    player_device = devices(mj=False)
    player = player_device.page

    url = open_invitation(mj, site)
    offer_length = len(url.split("#/join/")[1])
    version = int(mj.locator("[data-testid=live-offer-qr] svg").get_attribute("data-version"))
    assert 100 < offer_length < 300 and version <= 10, (offer_length, version)
    no_horizontal_scroll(mj)

    answer = answer_invitation(player, url, "Léa")
    assert 100 < len(answer) < 300, len(answer)
    assert int(player.locator("[data-testid=live-answer-qr] svg").get_attribute("data-version")) <= 10
    no_horizontal_scroll(player)
    axe_clean(player)
    print(f"offer {offer_length} chars (QR v{version} with the link), answer {len(answer)} chars")

    accept(mj, answer)
    row = mj.locator("[data-testid=live-players] li")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-state", "connected")
    expect(row).to_contain_text("Léa")
    # A ping from each side came back: messages went both ways over the channel.
    expect(row.locator(".live-rtt")).to_have_text(re.compile(r"aller-retour \d+ ms"))
    state = player.locator("[data-testid=live-join-state]")
    expect(state).to_have_attribute("data-state", "connected")
    expect(state.locator(".live-rtt")).to_have_text(re.compile(r"aller-retour \d+ ms"))
    # The invitation stays on screen: the next player answers it too.
    expect(mj.locator("#live-offer")).to_have_value(url)
    no_horizontal_scroll(mj)
    axe_clean(mj)

    # The hook the session uses (rtc.onLink) hands each side its link: a large message (sent in
    # parts) and a small one cross in each direction.
    member = player.evaluate("() => localStorage.getItem('tablee.live.member')")
    got_player = player.evaluate(
        """async (rtc) => { const r = await import(rtc);
          return await new Promise((resolve) => r.onLink((info) => {
            info.link.onmessage = (bytes) => {
              let sum = 0; for (const b of bytes) sum = (sum + b) % 1000003;
              info.link.send(new TextEncoder().encode(`${info.role}:${info.name}:${bytes.length}:${sum}`));
            };
            resolve({role: info.role, name: info.name, memberId: info.memberId, open: info.link.open});
          })); }""",
        RTC,
    )
    assert got_player == {"role": "player", "name": "Léa", "memberId": member, "open": True}
    reply = mj.evaluate(
        """async (rtc) => { const r = await import(rtc);
          const info = await new Promise((resolve) => r.onLink(resolve));
          const big = new Uint8Array(1_500_000); let sum = 0;
          for (let i = 0; i < big.length; i++) { big[i] = (i * 7) % 256; sum = (sum + big[i]) % 1000003; }
          const back = new Promise((resolve) => { info.link.onmessage = (b) => resolve(new TextDecoder().decode(b)); });
          info.link.send(big);
          return {info: {role: info.role, name: info.name, memberId: info.memberId}, text: await back, sum}; }""",
        RTC,
    )
    assert reply["info"] == {"role": "mj", "name": "Léa", "memberId": member}
    assert reply["text"] == f"player:Léa:1500000:{reply['sum']}"

    # The phone leaves (page closed): the MJ's list says the link is lost.
    player.close()
    expect(row).to_have_attribute("data-state", "away")
    expect(row).to_contain_text("connexion perdue")


def test_a_player_who_left_rejoins_as_the_same_member(devices, site):
    mj = devices(mj=True).page
    phone = devices(mj=False)
    url = open_invitation(mj, site)
    accept(mj, answer_invitation(phone.page, url, "Mo"))
    row = mj.locator("[data-testid=live-players] li")
    expect(row).to_have_attribute("data-state", "connected")
    phone.page.close()
    expect(row).to_have_attribute("data-state", "away")

    # Same phone (same storage), the invitation on screen: one row, connected again.
    again = phone.context.new_page()
    url2 = mj.locator("#live-offer").input_value()
    accept(mj, answer_invitation(again, url2, "Mo"))
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-state", "connected")
    expect(again.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "connected")

    # The MJ's device leaves: the phone says its link is lost and how to come back.
    mj.close()
    expect(again.locator("[data-testid=live-join-state]")).to_have_attribute("data-state", "away")
    expect(again.locator("[data-testid=live-join-state]")).to_contain_text("Connexion perdue. Pour revenir, scannez l'invitation")


def test_bad_pastes_say_why_and_change_nothing(devices, site):
    mj = devices(mj=True).page
    url = open_invitation(mj, site)
    # This browser reads no QR code itself (no BarcodeDetector here): the scan is offered all
    # the same, with the vendored decoder (e2e/test_scan.py).
    assert mj.evaluate("() => typeof BarcodeDetector") == "undefined"
    expect(mj.locator("#live-scan")).to_have_count(1)
    error = mj.locator("[data-testid=live-answer-error]")
    cases = [
        ("n'importe quoi", "caractères qu'une invitation Tablée n'a jamais"),
        ("AAAA", "abîmé"),
        (url, "c'est une invitation de l'appareil MJ, pas la réponse d'un joueur"),
        ("", "vide"),
    ]
    for text, words in cases:
        accept(mj, text)
        expect(error).to_contain_text(words)
        expect(mj.locator("#live-answer")).to_have_attribute("aria-invalid", "true")
        expect(mj.locator("[data-testid=live-no-player]")).to_be_visible()
        assert mj.locator("#live-offer").input_value() == url  # the invitation is still the same
    no_horizontal_scroll(mj)

    player = devices(mj=False).page
    player.goto(site + "#/join")
    expect(player.get_by_role("heading", name="Rejoindre la table", level=1)).to_be_visible()
    player.fill("#live-invitation", site + "#/join/abc$def")
    player.click("#live-invitation-read")
    expect(player.locator("[data-testid=live-join-bad]")).to_contain_text("Cette invitation ne peut pas être utilisée")
    # A player's answer pasted where an invitation goes.
    other = devices(mj=False).page
    answer = answer_invitation(other, url, "Zoé")
    player.fill("#live-invitation", answer)
    player.click("#live-invitation-read")
    expect(player.locator("[data-testid=live-join-bad]")).to_contain_text("c'est la réponse d'un joueur, pas une invitation")
    # The MJ pastes the answer twice: the second time it says the answer was read already.
    accept(mj, answer)
    expect(mj.locator("[data-testid=live-players] li")).to_have_attribute("data-state", "connected")
    accept(mj, answer)
    expect(error).to_contain_text("déjà été lue")
    axe_clean(player)


def test_signalling_texts_and_the_link_in_one_page(devices, site):
    """rtc.js itself: the refusal code of each bad text, and a loopback link between two
    connections of one page (parts put back together, messages kept until onmessage is set)."""
    page = devices(mj=False).page
    page.goto(site + "#/join")
    expect(page.locator("main h1")).to_be_visible()
    result = page.evaluate(
        """async (rtc) => {
          const r = await import(rtc);
          const codec = await import('./static/js/share/codec.js');
          const code = async (text, kind, options) => { try { await r.readSignal(text, kind, options); return 'ok'; } catch (e) { return e.code; } };
          const wrap = async (body) => codec.toBase64Url(await codec.deflate(JSON.stringify(body)));
          const enc = new TextEncoder();
          const packedOffer = (host) => {
            const t = Math.floor(Date.now() / 1000);
            const bytes = [0x54, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, t >>> 24, (t >>> 16) & 255, (t >>> 8) & 255, t & 255,
              0, 4, ...enc.encode('abcd'), 22, ...enc.encode('abcdefghijklmnopqrstuv'), ...new Array(32).fill(171),
              0, 4, 0, 0, 1, 0, 126, 255, 0, 255, 0, enc.encode(host).length, ...enc.encode(host), 200, 1];
            return 'T.' + codec.toBase64Url(new Uint8Array(bytes));
          };
          const offer = await r.createOffer({servers: []});
          const later = Date.now() + (r.OFFER_LIFETIME_S + 60) * 1000;
          const sdp = (await r.readOffer(offer.text)).sdp;
          const codes = {
            empty: await code('  ', 'offer'),
            long: await code('A'.repeat(r.MAX_SIGNAL_TEXT + 1), 'offer'),
            encoding: await code('a+b/c', 'offer'),
            corrupt: await code('AAAAAAAA', 'offer'),
            foreign: await code(await wrap({app: 'other', v: 1, k: 'offer'}), 'offer'),
            version: await code(await wrap({app: 'tablee', v: 2, k: 'offer'}), 'offer'),
            is_offer: await code(offer.text, 'answer'),
            expired: await code(offer.text, 'offer', {now: later}),
            fresh: await code(offer.text, 'offer'),
            bad_name: await code(await wrap({app: 'tablee', v: 1, k: 'answer', id: offer.id, m: 'abcdefgh12', s: 'KeyKeyKeyKey0123', n: ' x\\u0000', sdp}), 'answer'),
            proto: await offer.check(await wrap({app: 'tablee', v: 1, k: 'answer', id: '__proto__', m: 'abcdefgh12', s: 'KeyKeyKeyKey0123', n: 'x', sdp})).then(() => 'ok', (e) => e.code),
            packed_foreign: await code('T.' + codec.toBase64Url(new Uint8Array([0x55, 1, 1])), 'offer'),
            packed_version: await code('T.' + codec.toBase64Url(new Uint8Array([0x54, 9, 1])), 'offer'),
            packed_short: await code('T.' + codec.toBase64Url(new Uint8Array([0x54, 1, 1, 7, 7])), 'offer'),
            packed_cut: await code(offer.text.slice(0, -6), 'offer'),
            packed_tail: await code('T.' + codec.toBase64Url(new Uint8Array([...codec.fromBase64Url(offer.text.slice(2)), 0])), 'offer'),
            // A packed offer written by hand, with a host-name candidate (tag 0): a plain name
            // reads, one that would smuggle a line into the SDP does not.
            packed_host: await code(packedOffer('printer-7.lan'), 'offer'),
            packed_inject: await code(packedOffer('a\\nb'), 'offer'),
            other_offer: await offer.check(await wrap({app: 'tablee', v: 1, k: 'answer', id: 'zzzzzzzzzzzz', m: 'abcdefgh12', s: 'KeyKeyKeyKey0123', n: 'x', sdp})).then(() => 'ok', (e) => e.code),
          };
          const answer = await r.answerOffer(offer.text, {member: 'abcdefgh1234', name: 'Théo', servers: []});
          // The answer goes back in the longer text form (what a browser whose SDP the short
          // form does not know sends): it connects just the same.
          const read = await r.readSignal(answer.text, 'answer');
          const long = await wrap({app: 'tablee', v: 1, k: 'answer', id: read.id, m: read.memberId, s: read.key, n: read.name, sdp: read.sdp});
          const [a, b] = await Promise.all([offer.accept(long), answer.link]);
          // b gets three messages before anyone listens to it; then a 700 kB one in parts.
          const big = new Uint8Array(700_000).map((_, i) => (i * 13) % 256);
          for (const n of [1, 2, 3]) a.send(new Uint8Array([n]));
          a.send(big);
          const rtt = await a.ping();
          const got = await new Promise((resolve) => { const seen = []; b.onmessage = (m) => { seen.push(m); if (seen.length === 4) resolve(seen); }; });
          const same = got[3].length === big.length && got[3].every((v, i) => v === big[i]);
          // The same answer accepted twice at once: one link, the other call says "used".
          const offer2 = await r.createOffer({servers: []});
          const answer2 = await r.answerOffer(offer2.text, {member: 'abcdefgh5678', name: 'Uma', servers: []});
          const twice = await Promise.allSettled([offer2.accept(answer2.text), offer2.accept(answer2.text)]);
          const race = twice.map((x) => x.status === 'fulfilled' ? 'link' : x.reason.code).sort();
          if (twice[0].value) twice[0].value.close();
          if (twice[1].value) twice[1].value.close();
          const closed = new Promise((resolve) => { a.onclose = () => resolve('closed'); });
          b.close();
          return {codes, race, peer: a.peer, lengths: [offer.text.length, answer.text.length, long.length], packed: offer.text.startsWith('T.') && answer.text.startsWith('T.'), small: got.slice(0, 3).map((m) => Array.from(m)), same, part: a.partSize, rtt: rtt > 0,
                  closed: await closed, openAfter: a.open, sentAfterClose: (a.send(new Uint8Array([9])), 'no throw')};
        }""",
        RTC,
    )
    assert result["codes"] == {
        "empty": "empty", "long": "too_long", "encoding": "encoding", "corrupt": "corrupt", "foreign": "foreign",
        "version": "version", "is_offer": "is_offer", "expired": "expired", "fresh": "ok", "bad_name": "bad_name",
        "proto": "other_offer", "other_offer": "other_offer", "packed_foreign": "foreign", "packed_version": "version",
        "packed_short": "corrupt", "packed_cut": "corrupt", "packed_tail": "corrupt", "packed_host": "ok",
        "packed_inject": "corrupt",
    }
    assert result["race"] == ["link", "used"]
    assert {k: v for k, v in result["peer"].items() if k != "key"} == {"memberId": "abcdefgh1234", "name": "Théo"}
    assert len(result["peer"]["key"]) == 16  # the member key, from the answer
    offer, answer, long = result["lengths"]
    assert result["packed"] and offer < 250 and answer < 250 and long > 400, result["lengths"]
    assert result["small"] == [[1], [2], [3]]
    assert result["same"] is True
    assert 1024 <= result["part"] <= 65536
    assert result["rtt"] is True
    assert result["closed"] == "closed" and result["openAfter"] is False and result["sentAfterClose"] == "no throw"


def test_stun_setting_refuses_what_is_not_a_stun_url(devices, site):
    page = devices(mj=True).page
    page.goto(site + "#/live")
    page.click("details.more-options summary")
    page.fill("#live-stun", "http://example.org")
    page.click("#live-stun-save")
    expect(page.locator("#live-stun-error")).to_contain_text("Ce n'est pas une adresse STUN")
    assert page.evaluate("() => localStorage.getItem('tablee.live.stun')") is None
    page.fill("#live-stun", "stun:192.168.1.2:3478")
    page.click("#live-stun-save")
    expect(page.locator("details.more-options [role=status]")).to_have_text("Réglage enregistré.")
    assert page.evaluate("() => localStorage.getItem('tablee.live.stun')") == "stun:192.168.1.2:3478"


def test_devices_that_cannot_reach_each_other_are_told_so_in_plain_words(devices, site):
    """An answer whose only candidate is an address nobody answers (TEST-NET-1, RFC 5737): once
    the 20 s the devices get have passed (Playwright's clock, fast-forwarded: no real wait),
    the MJ's page says why in plain words and offers the share links."""
    mj = devices(mj=True).page
    mj.clock.install()
    url = open_invitation(mj, site)
    answer = mj.evaluate(
        """async ([rtc, url]) => {
          const r = await import(rtc);
          const codec = await import('./static/js/share/codec.js');
          const offer = await r.readOffer(url);
          const enc = new TextEncoder();
          const id = Array.from(codec.fromBase64Url(offer.id));
          const bytes = [0x54, 2, 2, ...id, 9, 8, 7, 6, 5, 4, 3, 2, 1, ...new Array(12).fill(7), 3, ...enc.encode('Ana'),
            1, 4, ...enc.encode('wxyz'), 22, ...enc.encode('abcdefghijklmnopqrstuv'), ...new Array(32).fill(171),
            0, 4, 0, 0, 1, 0, 126, 255, 0, 255, 4, 192, 0, 2, 1, 0, 9];
          return 'T.' + codec.toBase64Url(new Uint8Array(bytes));
        }""",
        [RTC, url],
    )
    accept(mj, answer)
    row = mj.locator("[data-testid=live-players] li")
    expect(row).to_have_attribute("data-state", "connecting")
    expect(row).to_contain_text("Ana")
    mj.clock.fast_forward(21_000)
    expect(row).to_have_attribute("data-state", "unreachable")
    notice = mj.locator("[data-testid=live-unreachable]")
    expect(notice).to_contain_text("Les appareils ne se joignent pas (Wi-Fi qui isole les appareils, réseau sans mDNS")
    expect(notice.get_by_role("link", name="Partager par lien")).to_have_attribute("href", "#/share")


# Headless Chromium on Linux has no BarcodeDetector and no camera: the test gives the page a
# stand-in for both (a canvas stream as the camera, a detector that "reads" the text the test
# put on the window), so the MJ's scan path runs from the button to the connected player.
FAKE_SCANNER = """
globalThis.BarcodeDetector = class {
  constructor(options) { this.formats = options.formats; }
  async detect(source) { return globalThis.__scanned && source.readyState >= 2 ? [{rawValue: globalThis.__scanned}] : []; }
};
navigator.mediaDevices.getUserMedia = async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 64;
  const g = canvas.getContext('2d');
  const stream = canvas.captureStream(10);
  const paint = () => { g.fillStyle = '#' + Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0'); g.fillRect(0, 0, 64, 64); };
  paint(); setInterval(paint, 100);
  return stream;
};
"""


def test_the_mj_scans_the_answer_with_the_camera_where_the_browser_reads_qr_codes(devices, site):
    mj_device = devices(mj=True)
    mj_device.context.add_init_script(FAKE_SCANNER)
    mj = mj_device.page
    url = open_invitation(mj, site)
    answer = answer_invitation(devices(mj=False).page, url, "Inès")
    mj.click("#live-scan")
    expect(mj.locator("#live-scan-video")).to_be_visible()
    mj.evaluate("(text) => { globalThis.__scanned = text; }", answer)
    row = mj.locator("[data-testid=live-players] li")
    expect(row).to_have_attribute("data-state", "connected")
    expect(row).to_contain_text("Inès")
    expect(mj.locator("#live-scan-video")).to_have_count(0)  # the camera stopped


def test_the_short_form_keeps_every_kind_of_candidate(devices, site):
    """sdp-pack.js on an SDP with the candidates Chromium shows once the page may use the camera
    (raw IPv4 and IPv6 addresses), a STUN one (srflx with its related address) and a host name:
    packed then unpacked, the SDP is the same but for the foundations (renumbered); an SDP line
    the short form does not know leaves it to the text form (null)."""
    page = devices(mj=False).page
    page.goto(site + "#/join")
    expect(page.locator("main h1")).to_be_visible()
    sdp_lines = [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
        "a=candidate:1 1 udp 2122260223 192.168.1.23 51234 typ host",
        "a=candidate:2 1 udp 2122262783 2a01:e0a:1f2:3::7 40000 typ host",
        "a=candidate:3 1 udp 2122194687 fe80::1 40001 typ host",
        "a=candidate:4 1 udp 1686052607 203.0.113.9 61000 typ srflx raddr 192.168.1.23 rport 51234",
        "a=candidate:5 1 udp 41885439 relay-1.example.org 3478 typ relay raddr 0.0.0.0 rport 0",
        "a=candidate:6 1 udp 2113937151 0bd77e1e-2ef7-42dd-b25c-03d59ef82d2c.local 44641 typ host",
        "a=ice-ufrag:IEV8", "a=ice-pwd:2w+AU/w1IacOJBfqHrwlqWhE",
        "a=fingerprint:sha-256 3E:3B:C7:6E:ED:4C:8E:1B:B4:87:9D:BF:B0:EA:B5:D5:3A:90:FD:65:82:5E:A2:EA:D9:AF:76:6D:5E:CF:97:78",
        "a=setup:active", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144",
    ]
    result = page.evaluate(
        """async (sdp) => {
          const p = await import('./static/js/live/sdp-pack.js');
          const body = {k: 'answer', id: 'AbCdEfGh1234', m: 'zYxWvUtS9876', s: 'KeyKeyKeyKey0123', n: 'Zoé', sdp};
          const packed = p.packSignal(body);
          const back = p.unpackSignal(packed);
          return {back, size: packed.length,
                  other: p.packSignal({...body, sdp: sdp + '\\na=something-new:1'}),
                  longId: p.packSignal({...body, id: 'short'})};
        }""",
        "\n".join(sdp_lines),
    )
    back = result["back"]
    assert {k: back[k] for k in ("app", "v", "k", "id", "m", "s", "n")} == {
        "app": "tablee", "v": 1, "k": "answer", "id": "AbCdEfGh1234", "m": "zYxWvUtS9876", "s": "KeyKeyKeyKey0123",
        "n": "Zoé"}
    expected = [re.sub(r"^a=candidate:\d+ ", "a=candidate:# ", line) for line in sdp_lines]
    expected[8] = "a=candidate:# 1 udp 2122262783 2a01:e0a:1f2:3:0:0:0:7 40000 typ host"  # IPv6 written in full
    expected[9] = "a=candidate:# 1 udp 2122194687 fe80:0:0:0:0:0:0:1 40001 typ host"
    assert [re.sub(r"^a=candidate:\d+ ", "a=candidate:# ", line) for line in back["sdp"].split("\n")] == expected
    # 94 bytes of envelope, credentials and fingerprint; candidates: IPv4 host 12, IPv6 host 24
    # each, srflx 19, relay by name 35, mDNS host 24.
    assert result["size"] == 94 + 12 + 24 + 24 + 19 + 35 + 24 + 12  # (the last 12: the member key)
    assert result["other"] is None and result["longId"] is None

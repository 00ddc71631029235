// Node script for tests/test_link_versions.py: reads share links and invitations the page's own
// codec would refuse (a bad version mark, an offer dated far off) and prints what each gives.
import { deflate, decodeShare, encodeShare, toBase64Url } from "../../static/js/share/codec.js";
import { readSignal } from "../../static/js/live/rtc.js";

const NOW = 1_780_000_000_000; // a fixed reader's clock (ms)
const SDP = "v=0\no=- 1 2 IN IP4 127.0.0.1\ns=-\nt=0 0\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\n";

async function payload(envelope) {
  return toBase64Url(await deflate(JSON.stringify(envelope)));
}

async function outcome(run) {
  try {
    await run();
    return "ok";
  } catch (error) {
    return error?.code ?? String(error);
  }
}

const out = { share: {}, offer: {} };
const data = { id: "c1", system: "unicreon", name: "Ada" };
const versions = { "0": 0, "-1": -1, '"1"': "1", none: undefined, "1.5": 1.5, "null": null, "2": 2, "1": 1 };
for (const [label, v] of Object.entries(versions)) {
  const envelope = { app: "tablee", kind: "character", data };
  if (v !== undefined) envelope.v = v;
  out.share[label] = await outcome(async () => decodeShare(await payload(envelope)));
}
out.share.encoded = await outcome(async () => decodeShare(await encodeShare("character", data)));

const offer = (t, v = 1) => ({ app: "tablee", v, k: "offer", id: "abcdefghijkl", t, sdp: SDP });
const times = { now: NOW / 1000, "1e30": 1e30, "2^32": 2 ** 32, "-1": -1, "now+2d": NOW / 1000 + 2 * 86400, "now+1h": NOW / 1000 + 3600, "now-7h": NOW / 1000 - 7 * 3600 };
for (const [label, t] of Object.entries(times)) {
  out.offer[label] = await outcome(async () => readSignal(await payload(offer(t)), "offer", { now: NOW }));
}
for (const [label, v] of Object.entries(versions)) {
  const body = offer(NOW / 1000);
  if (v === undefined) delete body.v;
  else body.v = v;
  out.offer[`v=${label}`] = await outcome(async () => readSignal(await payload(body), "offer", { now: NOW }));
}
process.stdout.write(JSON.stringify(out));

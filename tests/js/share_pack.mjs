// Node script for tests/test_share_pack.py: reads the payloads on stdin ({label: payload}, the
// engine's packed links and damaged ones) with the page's own codec and prints, for each, the
// envelope it holds or the refusal's code; also an unmarked link (deflate-raw, as every link
// was before the dictionary) and the codec's dictionary text.
import { decodeShare, encodeShare } from "../../static/js/share/codec.js";
import { DICTIONARY_1 } from "../../static/js/share/dictionary.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const payloads = JSON.parse(input);

async function outcome(payload) {
  try {
    return { ok: await decodeShare(payload) };
  } catch (error) {
    return { error: error?.code ?? String(error) };
  }
}

const out = { decoded: {}, dictionary: DICTIONARY_1 };
for (const [label, payload] of Object.entries(payloads)) out.decoded[label] = await outcome(payload);
const legacy = await encodeShare("table", { schema: 1, app: "tablee", name: "Ancienne", language: "fr", characters: [], log: [], systems: {}, settings: {} }, "player");
out.legacy = { payload: legacy, ...(await outcome(legacy)) };
process.stdout.write(JSON.stringify(out));

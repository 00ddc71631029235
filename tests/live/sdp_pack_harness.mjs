// static/js/live/sdp-pack.js under Node for tests/test_sdp_pack.py: `pack` gives the packed
// bytes of a signalling body (base64) or null; `unpack` gives the body read back from them,
// or {error} with the reader's refusal.
import { packSignal, unpackSignal } from "../../static/js/live/sdp-pack.js";
import { serveLines } from "./lines.mjs";

serveLines({
  pack: ({ body }) => {
    const bytes = packSignal(body);
    return bytes === null ? null : Buffer.from(bytes).toString("base64");
  },
  unpack: ({ bytes }) => {
    try {
      return unpackSignal(new Uint8Array(Buffer.from(bytes, "base64")));
    } catch (error) {
      return { error: error.message };
    }
  },
});

// Share links between devices: the data rides in the URL fragment, which a
// browser never sends to the host. Envelope {app: "tablee", kind, v, data} as JSON, compressed
// with CompressionStream("deflate-raw"), written in base64url. Decoding treats the text as
// hostile: its length is bounded before anything else, decompression stops past a bound
// (a small link cannot inflate into a huge one), and the JSON's depth is checked.
// The page's links are packed by the engine (store.share_link): the same envelope deflated
// against a preset dictionary (share/dictionary.js), the payload marked `d1.`; a player's copy
// of a fresh table then takes about 120 characters instead of 1,500, and fits a QR code.
// CompressionStream has no dictionary, but reading one needs none: the dictionary goes in
// front of the link's bytes as a stored deflate block, and its text is cut off the result.
// A payload without the mark (every older link) is plain deflate-raw and opens as before.

import { depthOf } from "../engine.js";
import { LIMITS } from "../storage.js";

export const SHARE_APP = "tablee";
export const SHARE_VERSION = 1;
export const SHARE_KINDS = ["character", "entry", "table"];
/** The route a share link opens: `#/share/<payload>`. */
export const SHARE_ROUTE = "share";
/** The longest fragment read at all (base64url characters, about 0.75 byte each). */
export const MAX_FRAGMENT = 1_000_000;
/** The most characters a link may inflate to: the largest table plus the envelope. */
export const MAX_INFLATED = LIMITS.document_size + 4096;
/** The deepest JSON a link may hold (the store's own depth limit, plus the envelope). */
export const MAX_DEPTH = LIMITS.depth + 2;

/** Why a link cannot be read: a stable code for the message (share.bad.<code>). */
export class ShareError extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

/** Bytes as base64url text (no padding); also used by live/rtc.js's signalling texts. */
export function toBase64Url(bytes) {
  // the browser's own encoder where it has one (the same text, ~10x faster on a live table's state)
  if (typeof bytes.toBase64 === "function") return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url text, or ShareError("encoding"). */
export function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new ShareError("encoding");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  let binary;
  try {
    binary = atob(b64);
  } catch {
    throw new ShareError("encoding");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** deflate-raw of a string (UTF-8). */
export async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Inflate at most `max` bytes; past that the stream is cancelled and the link refused. */
export async function inflate(bytes, max) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) {
        reader.cancel().catch(() => {});
        throw new ShareError("too_large");
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ShareError) throw error;
    throw new ShareError("corrupt");
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The mark of a payload packed against DICTIONARY_1 (base64url never holds a dot). */
export const PACKED_1 = "d1.";
let dictionaryBytes = null;

/** The deflate-raw bytes of a payload marked PACKED_1, inflated (at most `max` bytes beyond
 * the dictionary): a stored block of the dictionary, then the link's own blocks, whose
 * back-references reach into it; the dictionary's bytes are then cut off. */
async function inflatePacked(bytes, max) {
  // (loaded when a packed link is read: the live page's signalling uses this module too)
  dictionaryBytes ??= new TextEncoder().encode((await import("./dictionary.js")).DICTIONARY_1);
  const n = dictionaryBytes.length; // (under 32 KiB: a deflate window, and one stored block)
  const head = new Uint8Array([0x00, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff]); // BFINAL 0, BTYPE 00
  const whole = new Uint8Array(head.length + n + bytes.length);
  whole.set(head, 0);
  whole.set(dictionaryBytes, head.length);
  whole.set(bytes, head.length + n);
  const out = await inflate(whole, max + n);
  return out.subarray(n);
}

/** Whose copy a link holds: a player's (every secret out, hidden piles in a canonical order)
 * or the MJ's (everything). An older link has no mark: its audience is null. */
export const SHARE_AUDIENCES = ["player", "mj"];

/** The fragment payload (base64url) of a share of `kind`, made for `audience`: a table's link
 * says whose copy it is (a player's hidden piles are dealt again when it is opened); a
 * character or a roll holds no pile and says nothing more. */
export async function encodeShare(kind, data, audience) {
  const mark = kind === "table" && SHARE_AUDIENCES.includes(audience) ? { audience } : {};
  const envelope = { app: SHARE_APP, kind, v: SHARE_VERSION, ...mark, data };
  return toBase64Url(await deflate(JSON.stringify(envelope)));
}

/**
 * Why a version mark `v` is not `current`: "version" only for a whole number above it (a newer
 * Tablée made it); a missing mark, text ("1"), zero, a negative or a fraction is "bad_version"
 * (no Tablée ever wrote one: the link was made by hand or damaged).
 */
export function versionProblem(v, current) {
  return Number.isInteger(v) && v > current ? "version" : "bad_version";
}

/** The envelope a payload holds ({kind, data, audience}: audience null when the link does not
 * say, an older link), or a ShareError saying why not. */
export async function decodeShare(payload) {
  if (typeof payload !== "string" || payload.length === 0) throw new ShareError("empty");
  if (payload.length > MAX_FRAGMENT) throw new ShareError("too_large");
  const packed = payload.startsWith(PACKED_1);
  const bytes = fromBase64Url(packed ? payload.slice(PACKED_1.length) : payload);
  // UTF-8: at most 3 bytes per character
  const inflated = packed ? await inflatePacked(bytes, MAX_INFLATED * 3) : await inflate(bytes, MAX_INFLATED * 3);
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(inflated);
  } catch {
    throw new ShareError("corrupt");
  }
  if (text.length > MAX_INFLATED) throw new ShareError("too_large");
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new ShareError("corrupt");
  }
  if (depthOf(envelope) > MAX_DEPTH) throw new ShareError("too_deep");
  if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope) || envelope.app !== SHARE_APP) {
    throw new ShareError("foreign");
  }
  if (envelope.v !== SHARE_VERSION) throw new ShareError(versionProblem(envelope.v, SHARE_VERSION));
  if (!SHARE_KINDS.includes(envelope.kind) || !Object.hasOwn(envelope, "data")) throw new ShareError("foreign");
  const audience = SHARE_AUDIENCES.includes(envelope.audience) ? envelope.audience : null;
  return { kind: envelope.kind, data: envelope.data, audience };
}

/** The full link for a payload: this page's address with `#/share/<payload>`. */
export function shareUrl(payload, base = location.href) {
  const url = new URL(base);
  url.hash = `#/${SHARE_ROUTE}/${payload}`;
  return url.href;
}

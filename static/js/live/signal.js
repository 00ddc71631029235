// The live table's signalling texts (live/rtc.js makes the connections): an invitation (the MJ's
// offer) and a phone's answer, written and read, and this device's identity and settings.
//
// A signalling text has two forms. The short one, "T." + base64url of bytes (live/sdp-pack.js),
// keeps only what varies in a data-channel SDP (ICE credentials, DTLS fingerprint and role,
// candidates) and writes the SDP back on the other side: an invitation link is about 215
// characters, a QR code of version 9-10. The text form, for an SDP of another shape (another
// browser's), is base64url(deflate-raw(JSON)) (share/codec.js's primitives), the JSON being
// {app: "tablee", k: "offer"|"answer", v: 1, id, ...} with the SDP made shorter: the lines a
// browser does not need (extmap-allow-mixed, msid-semantic, ice-options:trickle), the
// candidates' extensions (generation, network-id, network-cost, ufrag) and the TCP candidates
// (port 9 "active" ones, useless on a local network) removed; about 600 characters. Reading a
// text treats it as hostile: bounded length before anything, bounded inflation, every field
// checked, and a code per reason (LiveError) that the pages turn into a French sentence.

import { deflate, fromBase64Url, inflate, ShareError, toBase64Url } from "../share/codec.js";
import { packSignal, unpackSignal } from "./sdp-pack.js";
import { checkServers, settingServers } from "./ice-servers.js";

export const SIGNAL_APP = "tablee";
export const SIGNAL_VERSION = 1;
/** The longest signalling text read at all (characters, a pasted join link included). */
export const MAX_SIGNAL_TEXT = 6000;
/** The most bytes a signalling text may inflate to. */
const MAX_SIGNAL_INFLATED = 16_000;
/** The longest SDP a signalling text may hold. */
const MAX_SDP = 12_000;
/** The longest player name. */
export const MAX_NAME = 40;
/** An offer older than this (by the reader's clock) is refused as expired. */
export const OFFER_LIFETIME_S = 6 * 3600;
/** How far in the future (by the reader's clock) an offer may be dated: two devices' clocks
 * differ, but not by a day. */
export const OFFER_CLOCK_SKEW_S = 24 * 3600;
/** A member id, a member key, an invitation's id. */
export const ID_RE = /^[A-Za-z0-9_-]{8,32}$/;
const STUN_RE = /^stuns?:[A-Za-z0-9.[\]:-]{1,200}$/;

/** Why a text or a connection did not work: a stable code for the message (live.bad.<code>). */
export class LiveError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

// ------------------------------------------------------------------ ids, settings

export function randomId(bytes = 9) {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export const MEMBER_KEY = "tablee.live.member";
/** This phone's member key: sent only in its answers (a QR code the MJ scans), never in
 * presence, so another phone that knows the member id cannot answer as that member. */
export const SECRET_KEY = "tablee.live.key";
export const NAME_KEY = "tablee.live.name";
export const STUN_KEY = "tablee.live.stun";

function readKey(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeKey(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage: the value lasts as long as the page.
  }
}

/** This device's player id: made once, kept on the device (a rejoin is the same player). */
export function memberId() {
  const saved = readKey(MEMBER_KEY);
  if (saved && ID_RE.test(saved)) return saved;
  const id = randomId();
  writeKey(MEMBER_KEY, id);
  return id;
}

/** This device's member key (made once, kept on the device; see SECRET_KEY). */
export function memberKey() {
  const saved = readKey(SECRET_KEY);
  if (saved && ID_RE.test(saved)) return saved;
  const key = randomId(12);
  writeKey(SECRET_KEY, key);
  return key;
}

export function savedName() {
  const name = readKey(NAME_KEY);
  return name && cleanName(name) === name ? name : "";
}

export function saveName(name) {
  writeKey(NAME_KEY, name);
}

/** A player's name as typed: trimmed, spaces collapsed; null when empty, too long or with control characters. */
export function cleanName(text) {
  if (typeof text !== "string") return null;
  const name = text.normalize("NFC").trim().replace(/\s+/g, " ");
  if (!name || [...name].length > MAX_NAME || /[\p{Cc}\p{Cf}]/u.test(name)) return null;
  return name;
}

/** The STUN server set on this device ("" for none, the default: a table on a Wi-Fi needs none). */
export function stunSetting() {
  const value = readKey(STUN_KEY) ?? "";
  return STUN_RE.test(value) ? value : "";
}

/** Set (or clear, with "") the STUN server; returns false (nothing changed) when the text is not a stun: URL. */
export function setStun(text) {
  const value = String(text ?? "").trim();
  if (value === "") {
    writeKey(STUN_KEY, null);
    return true;
  }
  if (!STUN_RE.test(value)) return false;
  writeKey(STUN_KEY, value);
  return true;
}

/** This device's ICE servers: the STUN setting, then the TURN one (live/ice-servers.js). */
export function iceServers() {
  return settingServers(stunSetting());
}

export function webrtcAvailable() {
  return typeof RTCPeerConnection === "function";
}

// ------------------------------------------------------------------ signalling texts

const DROP_LINES = [/^a=extmap-allow-mixed$/, /^a=msid-semantic:/, /^a=ice-options:trickle$/];

/** The SDP with what the other browser does not need taken out (lines joined by "\n"). */
export function compactSdp(sdp) {
  return sdp
    .split(/\r?\n/)
    .filter((line) => line && !DROP_LINES.some((re) => re.test(line)))
    .filter((line) => !(line.startsWith("a=candidate:") && / tcp /i.test(line)))
    .map((line) => (line.startsWith("a=candidate:") ? line.replace(/ (generation|network-id|network-cost|ufrag) \S+/g, "") : line))
    .map((line) => (line.startsWith("o=") ? line.replace(/^o=(\S+) \d+ /, "o=$1 1 ") : line))
    .join("\n");
}

/** The SDP a browser takes from a compact one. */
export function expandSdp(text) {
  return `${text.split("\n").join("\r\n")}\r\n`;
}

/** The short form's mark: "." is not a base64url character, so no text form starts this way. */
const PACKED = "T.";

/** The text of a body: the short form (sdp-pack.js) when the SDP has the usual shape, else the text form. */
export async function writeSignal(body) {
  const packed = packSignal(body);
  if (packed) return PACKED + toBase64Url(packed);
  return toBase64Url(await deflate(JSON.stringify({ app: SIGNAL_APP, v: SIGNAL_VERSION, ...body })));
}

function bytesOf(payload) {
  try {
    return fromBase64Url(payload);
  } catch {
    throw new LiveError("encoding");
  }
}

async function bodyOf(payload) {
  if (payload.startsWith(PACKED)) {
    try {
      return unpackSignal(bytesOf(payload.slice(PACKED.length)));
    } catch (error) {
      if (error instanceof LiveError) throw error;
      throw new LiveError(["foreign", "version"].includes(error.message) ? error.message : "corrupt");
    }
  }
  let inflated;
  try {
    inflated = await inflate(bytesOf(payload), MAX_SIGNAL_INFLATED);
  } catch (error) {
    if (error instanceof LiveError) throw error;
    if (error instanceof ShareError && error.code === "too_large") throw new LiveError("too_long");
    throw new LiveError("corrupt");
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(inflated));
  } catch {
    throw new LiveError("corrupt");
  }
}

/** The payload of a pasted text: the text itself, or what follows `#/join/` in a pasted link. */
function payloadOf(text) {
  const compact = text.replace(/\s+/g, "");
  const link = compact.match(/#\/join\/([^/?#]*)$/);
  return link ? link[1] : compact;
}

function checkSdp(sdp) {
  return typeof sdp === "string" && sdp.length <= MAX_SDP && sdp.startsWith("v=0\n") && /\nm=application /.test(sdp);
}

/**
 * Read a signalling text of kind `expected` ("offer" or "answer"). Returns its fields or throws
 * LiveError: empty, too_long, encoding, corrupt, foreign, version, is_offer / is_answer (the
 * other kind was pasted), expired (an offer past OFFER_LIFETIME_S), future (dated more than
 * OFFER_CLOCK_SKEW_S ahead), bad_version (no usable version mark), bad_name.
 */
export async function readSignal(text, expected, { now = Date.now() } = {}) {
  if (typeof text !== "string" || text.trim() === "") throw new LiveError("empty");
  if (text.length > MAX_SIGNAL_TEXT) throw new LiveError("too_long");
  const payload = payloadOf(text);
  if (payload === "") throw new LiveError("empty");
  const body = await bodyOf(payload);
  if (body === null || typeof body !== "object" || Array.isArray(body) || body.app !== SIGNAL_APP) throw new LiveError("foreign");
  if (body.v !== SIGNAL_VERSION) throw new LiveError(Number.isInteger(body.v) && body.v > SIGNAL_VERSION ? "version" : "bad_version");
  if (body.k !== "offer" && body.k !== "answer") throw new LiveError("foreign");
  if (body.k !== expected) throw new LiveError(body.k === "offer" ? "is_offer" : "is_answer");
  if (typeof body.id !== "string" || !ID_RE.test(body.id) || !checkSdp(body.sdp)) throw new LiveError("corrupt");
  if (body.k === "offer") {
    // Seconds since 1970 in 32 bits (what sdp-pack writes); an offer dated after the reader's
    // clock by more than OFFER_CLOCK_SKEW_S was not made by a Tablée that runs now.
    if (!Number.isInteger(body.t) || body.t < 0) throw new LiveError("corrupt");
    if (body.t > 0xffffffff || body.t * 1000 > now + OFFER_CLOCK_SKEW_S * 1000) throw new LiveError("future");
    if (body.t * 1000 + OFFER_LIFETIME_S * 1000 < now) throw new LiveError("expired");
    const ice = checkServers(body.ice); // (live/ice-servers.js: [] for none)
    if (ice === null) throw new LiveError("corrupt");
    return { kind: "offer", id: body.id, t: body.t, sdp: body.sdp, ice };
  }
  if (typeof body.m !== "string" || !ID_RE.test(body.m)) throw new LiveError("corrupt");
  if (typeof body.s !== "string" || !ID_RE.test(body.s)) throw new LiveError("corrupt");
  const name = cleanName(body.n);
  if (name === null || name !== body.n) throw new LiveError("bad_name");
  return { kind: "answer", id: body.id, memberId: body.m, key: body.s, name, sdp: body.sdp };
}

/** The offer a text holds (see readSignal), for the player's page to check before answering. */
export function readOffer(text, options) {
  return readSignal(text, "offer", options);
}

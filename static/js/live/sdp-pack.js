// The short form of a signalling text (live/rtc.js): the few facts of a data-channel SDP packed
// as bytes, so an invitation link fits a QR code of version 10 (271 bytes at level L) where the
// SDP text, even deflated, needs version 17-18.
//
// A data channel's SDP from Chromium holds little that varies: the ICE user fragment and
// password, the DTLS fingerprint, the DTLS role, the SCTP max message size and the candidates.
// `packSignal` keeps those (and the envelope: kind, id, the offer's time or the answer's player)
// when the SDP is exactly that shape, else returns null and rtc.js sends the longer text form
// (any browser's SDP still works). `unpackSignal` reads untrusted bytes: every length is
// bounded, every field checked against what SDP allows before the SDP is written back, so no
// field can carry a line break or anything else into the description.
//
// Firefox's SDP is the same but for its origin line, a direction line (`a=sendrecv`), the end of
// its candidates and "UDP" in capitals: the short form reads those too (see DROPPED, ORIGIN),
// so a Firefox phone's answer is as short as a Chromium one's.
//
// Once a page may use the camera (or the microphone), Chromium writes the device's real IPv4 and
// IPv6 addresses in its candidates instead of mDNS `.local` names, and names its default
// candidate in the media line's port and the connection line (`m=application 40703 ...`,
// `c=IN IP4 192.0.2.2`; with only `.local` names these are `9` and `0.0.0.0`). Those two lines
// repeat a candidate already packed, and ICE reads the candidates, not them: the short form
// takes them when they name one of its candidates (or are the placeholders) and writes the
// placeholders back, so such an invitation stays short (IPv4 and IPv6 addresses are packed as
// 4 and 16 bytes).
//
// Layout (big-endian): magic 0x54 ("T"), format (1 for an offer, 3 for an offer carrying ICE
// servers, 2 for an answer), kind
// (1 offer, 2 answer), id (9 bytes); offer: time (u32, seconds); answer: member id (9 bytes),
// member key (12 bytes: proves a rejoin is the same phone, see session.js), name (u8 length,
// UTF-8);
// then setup (0 actpass, 1 active, 2 passive), ufrag (u8 length, text), pwd (u8 length, text),
// fingerprint (sha-256, 32 bytes), max-message-size (u32), candidates (u8 count) each:
// type (0 host, 1 srflx, 2 prflx, 3 relay), priority (u32), address, port (u16), and for a type
// other than host the related address and port. An address is a tag then: 1 an mDNS name
// (a UUID, 16 bytes, written "<uuid>.local"), 4 IPv4 (4 bytes), 6 IPv6 (16 bytes), 0 a
// host name (u8 length, text).

import { fromBase64Url, toBase64Url } from "../share/codec.js";
import { packServers, unpackServers } from "./ice-servers.js";

const MAGIC = 0x54;
const FORMAT = 1;
/** An answer's format: 2 since it carries the member's key (a format-1 answer has none). */
const ANSWER_FORMAT = 2;
/** An offer's format when it carries ICE servers (live/ice-servers.js packServers, after the
 * candidates): a Tablée that does not know them says the invitation is from a newer version. */
const SERVERS_FORMAT = 3;
const SETUPS = ["actpass", "active", "passive"];
const TYPES = ["host", "srflx", "prflx", "relay"];
const ICE_CHARS = /^[A-Za-z0-9+/]+$/;
const HOSTNAME = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
const UUID_LOCAL = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const CANDIDATE = /^a=candidate:\S+ 1 (?:udp|UDP) (\d+) (\S+) (\d+) typ (host|srflx|prflx|relay)(?: raddr (\S+) rport (\d+))?$/;
/** The SDP lines the template writes itself (the rest must be candidates or the fields packed). */
const FIXED = new Set(["v=0", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=mid:0", "a=sctp-port:5000"]);
/** Lines Firefox writes that tell a data channel nothing once every candidate is in the text:
 * its direction (`a=sendrecv`, session and media level) and the end of its candidates. */
const DROPPED = new Set(["a=sendrecv", "a=end-of-candidates"]);
/** The origin line: Chromium's (its session id made 1 by rtc.js) or Firefox's; written back as
 * Chromium's, the session version being all a browser reads of it. */
const ORIGIN = /^o=(?:- \d+ \d+ IN IP4 127\.0\.0\.1|mozilla\.\.\.THIS_IS_SDPARTA-[\d.]+ \d+ \d+ IN IP4 0\.0\.0\.0)$/;
/** The media line and the connection line: written back as port 9 and 0.0.0.0 (see above). */
const MEDIA = /^m=application (\d{1,5}) UDP\/DTLS\/SCTP webrtc-datachannel$/;
const CONNECTION = /^c=IN (IP4|IP6) (\S+)$/;

// ------------------------------------------------------------------ addresses

function ipv6Bytes(text) {
  if (!/^[0-9a-fA-F:]+$/.test(text) || text.length > 39) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const out = [];
  for (const g of groups) {
    const n = parseInt(g, 16);
    out.push(n >> 8, n & 255);
  }
  return out;
}

function ipv6Text(bytes) {
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(":");
}

function packAddress(out, text) {
  const uuid = text.match(UUID_LOCAL);
  if (uuid) {
    out.push(1, ...hexBytes(uuid.slice(1).join("")));
    return true;
  }
  const v4 = text.match(IPV4);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((n) => n > 255)) return false;
    out.push(4, ...parts);
    return true;
  }
  const v6 = text.includes(":") ? ipv6Bytes(text) : null;
  if (v6) {
    out.push(6, ...v6);
    return true;
  }
  if (text.length <= 253 && HOSTNAME.test(text)) {
    out.push(0, text.length, ...new TextEncoder().encode(text));
    return true;
  }
  return false;
}

function hexBytes(hex) {
  const out = [];
  for (let i = 0; i < hex.length; i += 2) out.push(parseInt(hex.slice(i, i + 2), 16));
  return out;
}

function hexText(bytes, sep = "") {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(sep);
}

// ------------------------------------------------------------------ packing

/** The format byte of a body: an offer's with ICE servers is SERVERS_FORMAT. */
function offerFormat(body) {
  if (body.k !== "offer") return ANSWER_FORMAT;
  return Array.isArray(body.ice) && body.ice.length > 0 ? SERVERS_FORMAT : FORMAT;
}

/** Whether `format` is one a signal of `kind` (1 offer, 2 answer) is written in. */
function formatOfKind(format, kind) {
  return kind === 1 ? format === FORMAT || format === SERVERS_FORMAT : format === ANSWER_FORMAT;
}

/**
 * Whether the media line's port and the connection line (both required) are the placeholders
 * (9, IN IP4 0.0.0.0) or name one of the candidates: the only shapes whose dropping loses
 * nothing ICE uses.
 */
function defaultCandidate(port, connection, candidates) {
  if (port === null || connection === null) return false;
  if (port === 9 && connection.family === "IP4" && connection.address === "0.0.0.0") return true;
  const v6 = connection.family === "IP6";
  if (v6 !== connection.address.includes(":")) return false;
  return candidates.some(([, , address, candidatePort]) => Number(candidatePort) === port && address === connection.address);
}

function u16(out, n) {
  out.push((n >>> 8) & 255, n & 255);
}

function u32(out, n) {
  out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}

function idBytes(id, chars = 12) {
  if (typeof id !== "string" || id.length !== chars || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  return Array.from(fromBase64Url(id));
}

/**
 * The bytes of a signalling body ({k, id, t | m, s, n, sdp} with the compact SDP of rtc.js), or
 * null when its SDP is not the data-channel shape this form knows.
 */
export function packSignal(body) {
  const out = [MAGIC, offerFormat(body), body.k === "offer" ? 1 : 2];
  const id = idBytes(body.id);
  if (!id) return null;
  out.push(...id);
  if (body.k === "offer") {
    if (!Number.isInteger(body.t) || body.t < 0 || body.t > 0xffffffff) return null;
    u32(out, body.t);
  } else {
    const member = idBytes(body.m);
    const key = idBytes(body.s, 16);
    const name = new TextEncoder().encode(body.n);
    if (!member || !key || name.length > 255) return null;
    out.push(...member, ...key, name.length, ...name);
  }
  const fields = {};
  const candidates = [];
  let media = null;
  let connection = null;
  for (const line of body.sdp.split("\n")) {
    if (FIXED.has(line) || DROPPED.has(line) || ORIGIN.test(line)) continue;
    const candidate = line.match(CANDIDATE);
    if (candidate) {
      candidates.push(candidate);
      continue;
    }
    const m = line.match(MEDIA);
    const c = line.match(CONNECTION);
    if ((m && media !== null) || (c && connection !== null)) return null;
    if (m) media = Number(m[1]);
    if (c) connection = { family: c[1], address: c[2] };
    if (m || c) continue;
    const field = line.match(/^a=(ice-ufrag|ice-pwd|fingerprint|setup|max-message-size):(.*)$/);
    if (!field || Object.hasOwn(fields, field[1])) return null;
    fields[field[1]] = field[2];
  }
  const setup = SETUPS.indexOf(fields.setup);
  const ufrag = fields["ice-ufrag"] ?? "";
  const pwd = fields["ice-pwd"] ?? "";
  const fingerprint = (fields.fingerprint ?? "").match(/^sha-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/);
  const mms = Number(fields["max-message-size"]);
  if (setup < 0 || !ICE_CHARS.test(ufrag) || ufrag.length > 255 || !ICE_CHARS.test(pwd) || pwd.length > 255) return null;
  if (!fingerprint || !Number.isInteger(mms) || mms < 0 || mms > 0xffffffff || candidates.length > 255) return null;
  if (!defaultCandidate(media, connection, candidates)) return null;
  out.push(setup, ufrag.length, ...new TextEncoder().encode(ufrag), pwd.length, ...new TextEncoder().encode(pwd));
  out.push(...hexBytes(fingerprint[1].replace(/:/g, "").toLowerCase()));
  u32(out, mms);
  out.push(candidates.length);
  for (const [, priority, address, port, type, raddr, rport] of candidates) {
    const p = Number(priority);
    if (p > 0xffffffff || Number(port) > 65535) return null;
    out.push(TYPES.indexOf(type));
    u32(out, p);
    if (!packAddress(out, address)) return null;
    u16(out, Number(port));
    if (type !== "host") {
      if (raddr === undefined || Number(rport) > 65535 || !packAddress(out, raddr)) return null;
      u16(out, Number(rport));
    }
  }
  if (out[1] === SERVERS_FORMAT && !packServers(out, body.ice)) return null;
  return new Uint8Array(out);
}

// ------------------------------------------------------------------ unpacking

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }

  take(n) {
    if (this.at + n > this.bytes.length) throw new Error("corrupt");
    const part = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return part;
  }

  u8() {
    return this.take(1)[0];
  }

  u16() {
    const [a, b] = this.take(2);
    return (a << 8) | b;
  }

  u32() {
    const [a, b, c, d] = this.take(4);
    return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
  }

  text(n) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(this.take(n));
    } catch {
      throw new Error("corrupt");
    }
  }
}

function readAddress(reader) {
  const tag = reader.u8();
  if (tag === 1) {
    const hex = hexText(reader.take(16));
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
  }
  if (tag === 4) return Array.from(reader.take(4)).join(".");
  if (tag === 6) return ipv6Text(reader.take(16));
  if (tag === 0) {
    const name = reader.text(reader.u8());
    if (!HOSTNAME.test(name)) throw new Error("corrupt");
    return name;
  }
  throw new Error("corrupt");
}

/**
 * The body ({app, v, k, id, t | m, n, sdp}) packed in untrusted bytes; throws Error("foreign"),
 * Error("version") or Error("corrupt").
 */
export function unpackSignal(bytes) {
  const reader = new Reader(bytes);
  if (reader.u8() !== MAGIC) throw new Error("foreign");
  const format = reader.u8();
  if (format !== FORMAT && format !== ANSWER_FORMAT && format !== SERVERS_FORMAT) throw new Error("version");
  const kind = reader.u8();
  if (kind !== 1 && kind !== 2) throw new Error("foreign");
  if (!formatOfKind(format, kind)) throw new Error("version");
  const body = { app: "tablee", v: 1, k: kind === 1 ? "offer" : "answer", id: toBase64Url(reader.take(9)) };
  if (kind === 1) body.t = reader.u32();
  else {
    body.m = toBase64Url(reader.take(9));
    body.s = toBase64Url(reader.take(12));
    body.n = reader.text(reader.u8());
  }
  const setup = SETUPS[reader.u8()];
  const ufrag = reader.text(reader.u8());
  const pwd = reader.text(reader.u8());
  if (!setup || !ICE_CHARS.test(ufrag) || !ICE_CHARS.test(pwd)) throw new Error("corrupt");
  const fingerprint = hexText(reader.take(32), ":").toUpperCase();
  const mms = reader.u32();
  const count = reader.u8();
  const lines = [];
  for (let i = 0; i < count; i += 1) {
    const type = TYPES[reader.u8()];
    if (!type) throw new Error("corrupt");
    const priority = reader.u32();
    const address = readAddress(reader);
    const port = reader.u16();
    let related = "";
    if (type !== "host") {
      const raddr = readAddress(reader);
      related = ` raddr ${raddr} rport ${reader.u16()}`;
    }
    lines.push(`a=candidate:${i + 1} 1 udp ${priority} ${address} ${port} typ ${type}${related}`);
  }
  if (format === SERVERS_FORMAT) body.ice = unpackServers(reader);
  if (reader.at !== bytes.length) throw new Error("corrupt");
  body.sdp = [
    "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0", ...lines,
    `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`, `a=fingerprint:sha-256 ${fingerprint}`, `a=setup:${setup}`,
    "a=mid:0", "a=sctp-port:5000", `a=max-message-size:${mms}`,
  ].join("\n");
  return body;
}

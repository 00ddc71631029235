// The live table's transport: one WebRTC data channel per player, with no server.
//
// Signalling is done by hand: the MJ's device makes an offer, shown as a QR code of a join link
// (`#/join/<offer>`) and as a text to copy; the player's phone answers with a text (and a QR
// code) the MJ pastes or scans. There is no trickle: each side waits for ICE gathering to finish,
// so the text carries every candidate. With no ICE server (the default), the candidates are the
// devices' own addresses on the Wi-Fi (Chromium shows them as mDNS `.local` names); a setting
// adds a STUN server for a table with internet.
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
//
// The Link (the interface shared with live/sync.js, docs/ARCHITECTURE.md): `send(Uint8Array)`, `onmessage(Uint8Array)`,
// `onclose()` once, `close()`, `open`. A message larger than one data-channel message is sent
// in parts and put back together; sending waits on `bufferedAmountLowThreshold` (backpressure)
// so a first sync of a large table does not overflow the channel's buffer. Messages that
// arrive before anyone set `onmessage` are kept and handed over when it is set.
//
// The hook for the rest of the app: `onLink(callback)` is called with
// {link, role, memberId, name} each time a link opens, `role` being this device's role: "mj"
// (the link goes to the player `memberId`, called `name`) or "player" (this device is the
// player `memberId`, the link goes to the MJ).

import { deflate, fromBase64Url, inflate, ShareError, toBase64Url } from "../share/codec.js";
import { packSignal, unpackSignal } from "./sdp-pack.js";
import { checkServers, failureCode, hasTurn, missingRelay, rtcConfiguration, settingServers, throughRelay, watchIceErrors } from "./ice-servers.js";

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
/** After the MJ accepted an answer, how long the devices get to reach each other. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** The same with TURN servers set: a relay adds an allocation and a round trip through it. */
export const RELAY_CONNECT_TIMEOUT_MS = 45_000;
/** How long ICE gathering may take before the text is made with the candidates found so far. */
const GATHER_TIMEOUT_MS = 10_000;
/** A connection "disconnected" for this long is closed (a phone asleep, out of the Wi-Fi). */
const DISCONNECT_GRACE_MS = 8_000;
/** The largest message a Link reassembles (a peer sending more is cut off). */
export const MAX_MESSAGE = 32 * 1024 * 1024;
/** Part size: well under every browser's data-channel limit (Chromium 256 KiB, Firefox 1 GiB). */
const PART = 64 * 1024;
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
/** Messages kept for a consumer not there yet (beyond, the link closes). */
const MAX_INBOX = 4096;

const ID_RE = /^[A-Za-z0-9_-]{8,32}$/;
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
async function writeSignal(body) {
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

// ------------------------------------------------------------------ connections

function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener("icegatheringstatechange", check);
      pc.removeEventListener("icecandidate", last);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === "complete") done();
    };
    const last = (event) => {
      if (event.candidate === null) done();
    };
    const timer = setTimeout(done, GATHER_TIMEOUT_MS);
    pc.addEventListener("icegatheringstatechange", check);
    pc.addEventListener("icecandidate", last);
  });
}

/** The Link of a data channel once it is open; rejects LiveError("unreachable") on failure or after `timeoutMs`. */
function opened(pc, channel, timeoutMs) {
  return new Promise((resolve, reject) => {
    let timer = null;
    const fail = () => {
      clearTimeout(timer);
      pc.removeEventListener("connectionstatechange", state);
      pc.close();
      reject(new LiveError("unreachable"));
    };
    const state = () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") fail();
    };
    const open = () => {
      clearTimeout(timer);
      pc.removeEventListener("connectionstatechange", state);
      resolve(new RtcLink(pc, channel));
    };
    if (timeoutMs) timer = setTimeout(fail, timeoutMs);
    pc.addEventListener("connectionstatechange", state);
    if (channel.readyState === "open") open();
    else channel.addEventListener("open", open, { once: true });
  });
}

function newConnection(servers, certificates) {
  if (!webrtcAvailable()) throw new LiveError("no_webrtc");
  return new RTCPeerConnection(rtcConfiguration(servers, certificates));
}

/** The DTLS certificate every connection of this page's invitations uses (one key, one
 * fingerprint: see createOffer). Made once per page. */
let certificate = null;
/** RSA: with an ECDSA one, a Firefox phone answering a Chromium MJ's invitation did not connect
 * once the MJ read its answer more than a few seconds after it was made (measured). */
const CERTIFICATE = { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };

async function tableCertificate() {
  if (typeof RTCPeerConnection?.generateCertificate !== "function") return null;
  certificate ??= RTCPeerConnection.generateCertificate(CERTIFICATE).catch(() => null);
  const made = await certificate;
  if (made === null || (made.expires && made.expires < Date.now() + OFFER_LIFETIME_S * 1000)) {
    certificate = null; // (refused or about to expire: the next invitation makes another)
  }
  return made;
}

const FIREFOX_ORIGIN = /^o=mozilla\.\.\.THIS_IS_SDPARTA/m;
/** An answer whose phone is the DTLS client. */
const DTLS_CLIENT = /^a=setup:active\r?$/m;
const UFRAG_LINE = /^a=ice-ufrag:(\S+)$/m;
const PWD_LINE = /^a=ice-pwd:(\S+)$/m;
const FINGERPRINT_LINE = /^a=fingerprint:(\S+ \S+)$/m;

/** The SDP with its ICE credentials replaced by `ufrag` and `pwd` (every media section). */
function withCredentials(sdp, ufrag, pwd) {
  return sdp.replace(/^a=ice-ufrag:\S+$/gm, `a=ice-ufrag:${ufrag}`).replace(/^a=ice-pwd:\S+$/gm, `a=ice-pwd:${pwd}`);
}

/**
 * The MJ's side: one invitation that any number of phones answer, each getting its own
 * connection. Returns {id, text, check(answerText), accept(answerText), close()}; `accept`
 * reads the answer (a LiveError, and nothing changed, when it is not this invitation's answer
 * or was accepted already), then resolves with the Link once the channel is open (its `peer`
 * is {memberId, name, key}), or rejects LiveError("unreachable") when ICE fails or after
 * CONNECT_TIMEOUT_MS.
 *
 * How one offer serves several phones: every connection of the invitation is made with the
 * same DTLS certificate (so the same fingerprint) and the same ICE user fragment and password
 * (written into each new offer before `setLocalDescription`), so each phone's answer to the one
 * offer describes a connection with a fresh RTCPeerConnection as well as with the first. The
 * first connection (the invitation's) only holds its ports and is never answered: each
 * accepted answer gets a new connection, whose checks reach the phone at the addresses its
 * answer gave, and the phone learns the MJ's new ports from those checks (peer-reflexive
 * candidates). Tested with Chromium and Firefox on both sides (docs/ARCHITECTURE.md).
 */
export async function createOffer({ servers = iceServers(), now = Date.now(), timeoutMs = null } = {}) {
  timeoutMs ??= hasTurn(servers) ? RELAY_CONNECT_TIMEOUT_MS : CONNECT_TIMEOUT_MS;
  const cert = await tableCertificate();
  const certificates = cert ? [cert] : undefined;
  const holder = newConnection(servers, certificates);
  const iceErrors = watchIceErrors(holder);
  const holderChannel = holder.createDataChannel("tablee", { ordered: true });
  await holder.setLocalDescription(await holder.createOffer());
  await gathered(holder);
  const noRelay = missingRelay(holder.localDescription.sdp, servers, iceErrors);
  if (noRelay) {
    holder.close();
    throw new LiveError(noRelay);
  }
  const sdp = holder.localDescription.sdp;
  const ufrag = sdp.match(UFRAG_LINE)?.[1];
  const pwd = sdp.match(PWD_LINE)?.[1];
  const fingerprint = sdp.match(FINGERPRINT_LINE)?.[1];
  const id = randomId();
  const text = await writeSignal({ k: "offer", id, t: Math.floor(now / 1000), sdp: compactSdp(sdp), ...(servers.length ? { ice: servers } : {}) });
  /** The answers accepted (by their ICE user fragment): one connection each. */
  const accepted = new Set();
  let closed = false;
  let first = true;
  return {
    id,
    text,
    /** How many answers this invitation accepted. */
    get answered() {
      return accepted.size;
    },
    /** The answer's player ({memberId, name, key, ...}) when `answerText` answers this
     * invitation and was not accepted yet; throws LiveError. */
    async check(answerText) {
      const answer = await readSignal(answerText, "answer");
      if (answer.id !== id || closed) throw new LiveError("other_offer");
      if (accepted.has(answerUfrag(answer))) throw new LiveError("used");
      return answer;
    },
    async accept(answerText) {
      const answer = await this.check(answerText);
      const key = answerUfrag(answer);
      if (accepted.has(key)) throw new LiveError("used"); // another accept() got there while this one read
      accepted.add(key);
      const pc = await answerConnection(answer);
      const link = await opened(pc, pc.channel, timeoutMs).catch((error) => {
        throw error instanceof LiveError ? new LiveError(failureCode(error.code, servers)) : error;
      });
      link.peer = { memberId: answer.memberId, name: answer.name, key: answer.key };
      return link;
    },
    close() {
      closed = true;
      holder.close();
    },
  };

  /** A connection for one answer: the invitation's certificate and credentials, its own ports. */
  async function answerConnection(answer) {
    // Without a shared certificate (a browser that cannot make one), only the invitation's own
    // connection can take an answer: one phone per invitation, as before.
    // A phone that answers as the DTLS client (Firefox, or an older Tablée) takes the
    // invitation's own connection when it is still free: it began its handshake towards those
    // ports while waiting, and a Firefox phone reached only from a new connection's ports gives
    // up when the MJ reads its answer a few seconds late (measured with Chromium as the MJ's
    // device; docs/ARCHITECTURE.md). The role is read from the answer's `a=setup` line, which
    // the short form keeps (the origin line, which names Firefox, is written back as Chromium's).
    const fresh = Boolean(cert && ufrag && pwd) && !(first && DTLS_CLIENT.test(answer.sdp));
    if (!fresh && !first) throw new LiveError("used");
    if (!fresh) first = false;
    let pc = holder;
    let channel = null;
    try {
      if (fresh) {
        pc = newConnection(servers, certificates);
        channel = pc.createDataChannel("tablee", { ordered: true });
        const offer = await pc.createOffer();
        await pc.setLocalDescription({ type: "offer", sdp: withCredentials(offer.sdp, ufrag, pwd) });
        const local = pc.localDescription.sdp;
        if (local.match(UFRAG_LINE)?.[1] !== ufrag || local.match(FINGERPRINT_LINE)?.[1] !== fingerprint) throw new LiveError("sdp");
      } else {
        channel = holderChannel;
      }
      await pc.setRemoteDescription({ type: "answer", sdp: expandSdp(answer.sdp) });
    } catch {
      pc.close();
      throw new LiveError("sdp");
    }
    pc.channel = channel;
    return pc;
  }
}

function answerUfrag(answer) {
  return answer.sdp.match(/^a=ice-ufrag:(\S+)$/m)?.[1] ?? answer.sdp;
}

/** The offer a text holds (see readSignal), for the player's page to check before answering. */
export function readOffer(text, options) {
  return readSignal(text, "offer", options);
}

/**
 * The player's side: answer an offer (its text, or what readOffer gave). Returns
 * {text, link: Promise<Link>, close()}; the link opens once the MJ has accepted the answer,
 * and rejects LiveError("unreachable") when the connection fails.
 */
export async function answerOffer(offer, { member = memberId(), key = memberKey(), name, servers = iceServers() } = {}) {
  const read = typeof offer === "string" ? await readOffer(offer) : offer;
  const player = cleanName(name);
  if (player === null) throw new LiveError("bad_name");
  // The servers the MJ's invitation carries, when it carries some: the player types nothing.
  if (read.ice?.length) servers = read.ice;
  const pc = newConnection(servers);
  const iceErrors = watchIceErrors(pc);
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (event) => resolve(event.channel), { once: true });
  });
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: expandSdp(read.sdp) });
    // The phone is the DTLS server (`passive`): the MJ's device, whose connection for this
    // answer starts when the MJ reads it, sends the first DTLS message once ICE connects. As
    // the client, the phone began its handshake towards the invitation's own connection while
    // waiting, and its retransmissions, further and further apart, came after the MJ's 20 s.
    const answer = await pc.createAnswer();
    // (Firefox stays the client: its answer takes the invitation's own connection, see createOffer.)
    const sdp = FIREFOX_ORIGIN.test(answer.sdp) ? answer.sdp : answer.sdp.replace(/^a=setup:active(?=\r?$)/m, "a=setup:passive");
    await pc.setLocalDescription({ type: "answer", sdp });
  } catch {
    pc.close();
    throw new LiveError("sdp");
  }
  await gathered(pc);
  const text = await writeSignal({ k: "answer", id: read.id, m: member, s: key, n: player, sdp: compactSdp(pc.localDescription.sdp) });
  // ICE that failed after the MJ's device reached this phone is the network's doing
  // ("unreachable": the Wi-Fi isolates the devices...); ICE that failed without a word from the
  // MJ's device is an invitation it no longer serves (its page reloaded, the table closed) or an
  // answer it has not read: "unanswered", said without blaming the Wi-Fi. Read once ICE failed
  // (Firefox's statistics read while ICE checks kept a Firefox phone from connecting: measured).
  let heard = false;
  const listen = async () => {
    try {
      (await pc.getStats()).forEach((s) => {
        if (s.type === "remote-candidate" && s.candidateType === "prflx") heard = true;
        if (s.type === "candidate-pair" && ((s.requestsReceived ?? 0) > 0 || (s.responsesReceived ?? 0) > 0)) heard = true;
      });
    } catch {
      // no statistics: what was heard stays as it was
    }
  };
  const failed = new Promise((_, reject) => {
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") {
        const state = pc.connectionState;
        listen().then(() => reject(new LiveError(failureCode(heard || state === "closed" ? "unreachable" : "unanswered", servers, pc.localDescription?.sdp, iceErrors))));
      }
    });
  });
  failed.catch(() => {}); // once the link is open, a later failure is the link's onclose
  const link = Promise.race([channel, failed]).then((ch) => opened(pc, ch, 0));
  link.then((l) => {
    l.peer = { memberId: member, name: player, key };
  }, () => {});
  return { text, link, close: () => pc.close() };
}

// ------------------------------------------------------------------ the Link

const WHOLE = 0;
const PART_MORE = 1;
const PART_LAST = 2;
const PING = 3;
const PONG = 4;

function frame(type, bytes) {
  const out = new Uint8Array(bytes.length + 1);
  out[0] = type;
  out.set(bytes, 1);
  return out;
}

/** A Link over one RTCDataChannel (the interface live/sync.js uses); also an EventTarget: "close", "rtt". */
export class RtcLink extends EventTarget {
  #pc;
  #channel;
  #queue = [];
  #parts = [];
  #partBytes = 0;
  #inbox = [];
  #onmessage = null;
  #closed = false;
  #grace = null;
  #pings = new Map();

  constructor(pc, channel) {
    super();
    this.#pc = pc;
    this.#channel = channel;
    this.onclose = null;
    this.peer = null;
    /** The last round trip measured by ping(), in milliseconds. */
    this.rtt = null;
    channel.binaryType = "arraybuffer";
    channel.bufferedAmountLowThreshold = LOW_WATER;
    channel.addEventListener("message", (event) => this.#receive(event.data));
    channel.addEventListener("close", () => this.#end());
    channel.addEventListener("bufferedamountlow", () => this.#flush());
    pc.addEventListener("connectionstatechange", () => {
      const state = pc.connectionState;
      if (state === "failed" || state === "closed") this.#end();
      else if (state === "disconnected") {
        if (this.#grace === null) this.#grace = setTimeout(() => this.#end(), DISCONNECT_GRACE_MS);
      } else if (this.#grace !== null) {
        clearTimeout(this.#grace);
        this.#grace = null;
      }
    });
  }

  get open() {
    return !this.#closed && this.#channel.readyState === "open";
  }

  get onmessage() {
    return this.#onmessage;
  }

  /** Setting the handler hands it the messages that came before. */
  set onmessage(handler) {
    this.#onmessage = handler;
    while (handler && this.#inbox.length && this.#onmessage === handler) this.#deliver(this.#inbox.shift());
  }

  /** The largest part this channel sends in one data-channel message. */
  get partSize() {
    const max = this.#pc.sctp?.maxMessageSize;
    return Math.max(1024, Math.min(PART, (Number.isFinite(max) && max > 0 ? max : PART) - 1));
  }

  /** Send one message (a Uint8Array); never throws; dropped when the link is closed. */
  send(bytes) {
    if (!this.open || !(bytes instanceof Uint8Array)) return;
    const size = this.partSize;
    if (bytes.length <= size) this.#queue.push(frame(WHOLE, bytes));
    else {
      for (let at = 0; at < bytes.length; at += size) {
        const end = Math.min(at + size, bytes.length);
        this.#queue.push(frame(end === bytes.length ? PART_LAST : PART_MORE, bytes.subarray(at, end)));
      }
    }
    this.#flush();
  }

  /** Measure a round trip (resolves with milliseconds; "rtt" event too). */
  ping() {
    if (!this.open) return Promise.resolve(null);
    const nonce = crypto.getRandomValues(new Uint8Array(8));
    const key = toBase64Url(nonce);
    return new Promise((resolve) => {
      this.#pings.set(key, { at: performance.now(), resolve });
      this.#queue.push(frame(PING, nonce));
      this.#flush();
    });
  }

  close() {
    this.#end();
  }

  /** Whether this link goes through a TURN relay now (its selected candidate pair). */
  throughRelay() {
    return this.open ? throughRelay(this.#pc) : Promise.resolve(false);
  }

  #flush() {
    while (this.#queue.length && !this.#closed && this.#channel.readyState === "open" && this.#channel.bufferedAmount <= HIGH_WATER) {
      try {
        this.#channel.send(this.#queue.shift());
      } catch {
        this.#end();
        return;
      }
    }
  }

  #receive(data) {
    if (this.#closed || !(data instanceof ArrayBuffer) || data.byteLength === 0) return;
    const bytes = new Uint8Array(data);
    const type = bytes[0];
    const body = bytes.subarray(1);
    if (type === WHOLE) this.#deliver(body);
    else if (type === PART_MORE || type === PART_LAST) {
      this.#partBytes += body.length;
      if (this.#partBytes > MAX_MESSAGE) {
        this.#end();
        return;
      }
      this.#parts.push(body);
      if (type === PART_LAST) {
        const whole = new Uint8Array(this.#partBytes);
        let at = 0;
        for (const part of this.#parts) {
          whole.set(part, at);
          at += part.length;
        }
        this.#parts = [];
        this.#partBytes = 0;
        this.#deliver(whole);
      }
    } else if (type === PING) {
      this.#queue.push(frame(PONG, body));
      this.#flush();
    } else if (type === PONG) {
      const key = toBase64Url(body);
      const pending = this.#pings.get(key);
      if (!pending) return;
      this.#pings.delete(key);
      this.rtt = performance.now() - pending.at;
      pending.resolve(this.rtt);
      this.dispatchEvent(new CustomEvent("rtt", { detail: this.rtt }));
    }
    // Other types: a later version's; ignored.
  }

  #deliver(bytes) {
    const handler = this.#onmessage;
    if (!handler) {
      if (this.#inbox.length >= MAX_INBOX) this.#end();
      else this.#inbox.push(bytes);
      return;
    }
    try {
      handler(bytes);
    } catch (error) {
      console.error(error); // a consumer's fault must not stop the transport
    }
  }

  #end() {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#grace);
    this.#queue = [];
    this.#parts = [];
    for (const { resolve } of this.#pings.values()) resolve(null);
    this.#pings.clear();
    try {
      this.#channel.close();
    } catch {
      // already closed
    }
    this.#pc.close();
    try {
      this.onclose?.();
    } catch (error) {
      console.error(error);
    }
    this.dispatchEvent(new Event("close"));
  }
}

// ------------------------------------------------------------------ the hook

const listeners = new Set();
const live = new Set();

/**
 * Call `callback({link, role, memberId, name, key})` for every link open now and each time one
 * opens. Returns a function that stops the calls.
 */
export function onLink(callback) {
  listeners.add(callback);
  for (const info of live) callback(info);
  return () => listeners.delete(callback);
}

/** The links open now ({link, role, memberId, name}). */
export function openLinks() {
  return [...live];
}

/** Tell the app a link opened (the pages call it); `key` is the player's member key. */
export function announce(link, role, member, name, key = null) {
  const info = Object.freeze({ link, role, memberId: member, name, key });
  live.add(info);
  link.addEventListener("close", () => live.delete(info), { once: true });
  for (const callback of listeners) {
    try {
      callback(info);
    } catch (error) {
      console.error(error);
    }
  }
  return info;
}

// The live table's connections: one WebRTC data channel per player, with no server.
//
// Signalling is done by hand: the MJ's device makes an offer, shown as a QR code of a join link
// (`#/join/<offer>`) and as a text to copy; the player's phone answers with a text (and a QR
// code) the MJ pastes or scans. There is no trickle: each side waits for ICE gathering to finish,
// so the text carries every candidate. With no ICE server (the default), the candidates are the
// devices' own addresses on the Wi-Fi (Chromium shows them as mDNS `.local` names); a setting
// adds a STUN server for a table with internet.
//
// The texts and this device's identity are live/signal.js's; the Link over a data channel and
// the hook that tells the app about each link are live/link.js's (both re-exported here, so the
// pages import one module).

import { failureCode, hasTurn, missingRelay, rtcConfiguration, watchIceErrors } from "./ice-servers.js";
import { expandSdp, compactSdp, iceServers, LiveError, memberId, memberKey, OFFER_LIFETIME_S, randomId, readOffer, readSignal, webrtcAvailable, cleanName, writeSignal } from "./signal.js";
import { RtcLink } from "./link.js";

export * from "./signal.js";
export * from "./link.js";

/** After the MJ accepted an answer, how long the devices get to reach each other. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** The same with TURN servers set: a relay adds an allocation and a round trip through it. */
export const RELAY_CONNECT_TIMEOUT_MS = 45_000;
/** How long ICE gathering may take before the text is made with the candidates found so far. */
const GATHER_TIMEOUT_MS = 10_000;

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


// The ICE servers of a table that plays across the internet (« Joueurs à distance »).
//
// On the table's Wi-Fi no server is needed and none is set by default: the invitation then
// carries the devices' own addresses and nothing leaves the room. For a player at home, the MJ's
// device may set TURN URLs (a group's own coturn, or a provider's) with their username and
// credential: a TURN server relays the link when the two devices cannot reach each other
// directly (NATs, mobile carriers). The STUN server stays its own setting (rtc.js STUN_KEY).
//
// The MJ's invitation carries the servers to the phones (sdp-pack.js packs them in the short
// form, rtc.js writes them in the text form), so a player types nothing: a phone uses the
// servers of the invitation it answers, never keeps them, never shows them. The credential is
// only inside the invitation: it is not logged, not shown on a phone, not sent over the link.
//
// A test setting (also a way for a group to check its relay) forces relay-only ICE
// (`iceTransportPolicy: "relay"`) on this device: the link can then only come up through TURN.
//
// Everything read here is untrusted (localStorage, an invitation): URLs, usernames and
// credentials are checked against what an RTCIceServer takes, and bounded.

export const REMOTE_KEY = "tablee.live.remote";
export const RELAY_ONLY_KEY = "tablee.live.relay_only";
/** How many TURN URLs one setting holds, and how many servers an invitation may carry. */
export const MAX_TURN_URLS = 4;
export const MAX_SERVERS = 4;
/** The longest username or credential (a provider's time-limited ones are about 60 characters). */
export const MAX_SECRET = 128;

const TURN_URL = /^turns?:(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\?transport=(?:udp|tcp))?$/;
const ICE_URL = /^(?:stuns?|turns?):(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\?transport=(?:udp|tcp))?$/;
const SECRET = /^[\x21-\x7e]+$/;

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage: the setting lasts as long as the page.
  }
}

function portOk(url) {
  const port = url.match(/:(\d{1,5})(?:\?|$)/);
  return !port || (Number(port[1]) >= 1 && Number(port[1]) <= 65535);
}

function secretOk(text) {
  return typeof text === "string" && text.length <= MAX_SECRET && SECRET.test(text);
}

/**
 * The TURN setting typed on the MJ's device, checked: {urls, username, credential} or an error
 * code (remote.bad.<code>): `url` (not a turn:/turns: URL), `too_many`, `username`,
 * `credential` (missing, too long, spaces or control characters). Empty URLs clear the setting.
 */
export function checkRemote({ urls = "", username = "", credential = "" } = {}) {
  const list = String(urls).split(/[\s,]+/).filter(Boolean);
  if (list.length === 0) return { value: null };
  if (list.length > MAX_TURN_URLS) return { error: "too_many" };
  const bad = list.find((url) => !TURN_URL.test(url) || !portOk(url));
  if (bad !== undefined) return { error: "url", url: bad };
  if (!secretOk(username)) return { error: "username" };
  if (!secretOk(credential)) return { error: "credential" };
  return { value: { urls: list, username, credential } };
}

/** The TURN setting saved on this device, or null. */
export function remoteSetting() {
  let saved;
  try {
    saved = JSON.parse(read(REMOTE_KEY) ?? "null");
  } catch {
    return null;
  }
  if (!saved || typeof saved !== "object") return null;
  const { value } = checkRemote({ urls: Array.isArray(saved.urls) ? saved.urls.join(" ") : "", username: saved.username, credential: saved.credential });
  return value ?? null;
}

/** Save (or clear, with empty URLs) the TURN setting; returns the check's error, or null when saved. */
export function setRemote(fields) {
  const checked = checkRemote(fields);
  if (checked.error) return checked;
  write(REMOTE_KEY, checked.value ? JSON.stringify(checked.value) : null);
  return null;
}

/** Whether this device forces relay-only ICE (the test setting). */
export function relayOnly() {
  return read(RELAY_ONLY_KEY) === "1";
}

export function setRelayOnly(on) {
  write(RELAY_ONLY_KEY, on ? "1" : null);
}

/** The RTCIceServer list of this device's settings: the STUN URL (rtc.js), then the TURN one. */
export function settingServers(stun) {
  const servers = stun ? [{ urls: stun }] : [];
  const turn = remoteSetting();
  if (turn) servers.push({ urls: [...turn.urls], username: turn.username, credential: turn.credential });
  return servers;
}

/** Whether a server list holds a TURN URL (the link may then come through a relay). */
export function hasTurn(servers) {
  return Array.isArray(servers) && servers.some((s) => [s.urls].flat().some((url) => /^turns?:/.test(url)));
}

/** The RTCPeerConnection configuration of `servers` with this device's ICE policy. */
export function rtcConfiguration(servers, certificates) {
  const config = { iceServers: servers };
  if (certificates) config.certificates = certificates;
  if (relayOnly()) config.iceTransportPolicy = "relay";
  return config;
}

/**
 * Servers read from an invitation (untrusted): a list of {urls, username?, credential?}, or
 * null when anything is not what an RTCIceServer takes (the reader refuses the invitation).
 */
export function checkServers(servers) {
  if (servers === undefined) return [];
  if (!Array.isArray(servers) || servers.length > MAX_SERVERS) return null;
  const out = [];
  for (const server of servers) {
    if (!server || typeof server !== "object") return null;
    const urls = [server.urls].flat();
    if (urls.length === 0 || urls.length > MAX_TURN_URLS) return null;
    if (urls.some((url) => typeof url !== "string" || !ICE_URL.test(url) || !portOk(url))) return null;
    const turn = urls.some((url) => /^turns?:/.test(url));
    if (turn) {
      if (!secretOk(server.username) || !secretOk(server.credential)) return null;
      out.push({ urls, username: server.username, credential: server.credential });
    } else {
      if (server.username !== undefined || server.credential !== undefined) return null;
      out.push({ urls });
    }
  }
  return out;
}

// ------------------------------------------------------------------ in the short form

/** Append the servers to a packed offer: count (u8), then each: URL count (u8), each URL
 * (u8 length, text), username and credential (u8 length, text; 0 for a STUN server). */
export function packServers(out, servers) {
  const checked = checkServers(servers);
  if (checked === null || checked.length === 0) return false;
  const enc = new TextEncoder();
  const text = (s) => {
    const bytes = enc.encode(s);
    out.push(bytes.length, ...bytes);
  };
  out.push(checked.length);
  for (const server of checked) {
    out.push(server.urls.length);
    server.urls.forEach(text);
    text(server.username ?? "");
    text(server.credential ?? "");
  }
  return true;
}

/** The servers packed by packServers (a sdp-pack Reader); throws Error("corrupt"). */
export function unpackServers(reader) {
  const count = reader.u8();
  if (count === 0 || count > MAX_SERVERS) throw new Error("corrupt");
  const servers = [];
  for (let i = 0; i < count; i += 1) {
    const n = reader.u8();
    const urls = [];
    for (let j = 0; j < n; j += 1) urls.push(reader.text(reader.u8()));
    const username = reader.text(reader.u8());
    const credential = reader.text(reader.u8());
    servers.push(username || credential ? { urls, username, credential } : { urls });
  }
  const checked = checkServers(servers);
  if (checked === null) throw new Error("corrupt");
  return checked;
}

// ------------------------------------------------------------------ what ICE did

/** Watch a connection's ICE errors: `refused()` tells whether a TURN server refused the
 * credential (STUN error 401 or 403 on a turn: URL), `unreachable()` whether one did not answer. */
export function watchIceErrors(pc) {
  const errors = [];
  pc.addEventListener("icecandidateerror", (event) => {
    errors.push({ code: Number(event.errorCode), url: String(event.url ?? "") });
  });
  const turn = (e) => /^turns?:/.test(e.url);
  return {
    refused: () => errors.some((e) => turn(e) && (e.code === 401 || e.code === 403 || e.code === 437 || e.code === 441)),
    unreachable: () => errors.some((e) => turn(e) && e.code >= 700),
  };
}

/** Whether an SDP holds a relay candidate. */
export function hasRelayCandidate(sdp) {
  return /^a=candidate:.* typ relay/m.test(sdp);
}

/**
 * Why gathering with TURN servers found no relay: "turn_refused" (the server refused the
 * username or credential) or "turn_unreachable" (it did not answer: wrong address, a firewall).
 */
export function relayFailure(errors) {
  return errors.refused() ? "turn_refused" : "turn_unreachable";
}

/** Why an invitation's first connection cannot serve a phone behind another NAT: null when no
 * TURN server is set or its SDP holds a relay candidate, else relayFailure's code. */
export function missingRelay(sdp, servers, errors) {
  return !hasTurn(servers) || hasRelayCandidate(sdp) ? null : relayFailure(errors);
}

/**
 * The code of a connection that did not open (`code`: "unreachable" or "unanswered"), said for a
 * link that may come through a relay: with TURN servers, this device's relay refused or silent
 * (no relay candidate in `localSdp`, when given), else "relay_failed" (the relay was set and the
 * devices still did not meet: a firewall, the time ran out), never the Wi-Fi's words. An
 * invitation no longer served stays "unanswered".
 */
export function failureCode(code, servers, localSdp = null, errors = null) {
  if (code !== "unreachable" && code !== "unanswered") return code;
  if (!hasTurn(servers) || code === "unanswered") return code;
  if (localSdp !== null && localSdp !== undefined && errors && !hasRelayCandidate(localSdp)) return relayFailure(errors);
  return "relay_failed";
}

/** Whether a connection's selected candidate pair goes through a TURN relay (either side). */
export async function throughRelay(pc) {
  let stats;
  try {
    stats = await pc.getStats();
  } catch {
    return false;
  }
  let pair = null;
  stats.forEach((s) => {
    if (s.type === "transport" && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId) ?? pair;
  });
  if (!pair) {
    stats.forEach((s) => {
      if (s.type === "candidate-pair" && s.state === "succeeded" && (s.nominated || s.selected)) pair ??= s;
    });
  }
  if (!pair) return false;
  const local = stats.get(pair.localCandidateId);
  const remote = stats.get(pair.remoteCandidateId);
  return local?.candidateType === "relay" || remote?.candidateType === "relay";
}

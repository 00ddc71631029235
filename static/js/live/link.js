// The Link of the live table (the interface shared with live/sync.js, docs/ARCHITECTURE.md) over
// one RTCDataChannel, and the hook that tells the app each link that opens (live/rtc.js makes
// the connections).
//
// `send(Uint8Array)`, `onmessage(Uint8Array)`, `onclose()` once, `close()`, `open`. A message
// larger than one data-channel message is sent in parts and put back together; sending waits on
// `bufferedAmountLowThreshold` (backpressure) so a first sync of a large table does not overflow
// the channel's buffer. Messages that arrive before anyone set `onmessage` are kept and handed
// over when it is set.
//
// The hook for the rest of the app: `onLink(callback)` is called with
// {link, role, memberId, name} each time a link opens, `role` being this device's role: "mj"
// (the link goes to the player `memberId`, called `name`) or "player" (this device is the
// player `memberId`, the link goes to the MJ).

import { toBase64Url } from "../share/codec.js";
import { throughRelay } from "./ice-servers.js";

/** A connection "disconnected" for this long is closed (a phone asleep, out of the Wi-Fi);
 * meanwhile ICE keeps checking the same pair and the link comes back by itself when the network
 * lets it (the pages say « connexion perdue, nouvel essai… » while `unstable`). */
export const DISCONNECT_GRACE_MS = 15_000;
/** The largest message a Link reassembles (a peer sending more is cut off). */
export const MAX_MESSAGE = 32 * 1024 * 1024;
/** Part size: well under every browser's data-channel limit (Chromium 256 KiB, Firefox 1 GiB). */
const PART = 64 * 1024;
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
/** Messages kept for a consumer not there yet (beyond, the link closes). */
const MAX_INBOX = 4096;

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

/** A Link over one RTCDataChannel (the interface live/sync.js uses); also an EventTarget: "close",
 * "rtt", "unstable" and "steady" (the connection lost for now, then back). */
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
        if (this.#grace === null) {
          this.#grace = setTimeout(() => this.#end(), DISCONNECT_GRACE_MS);
          this.dispatchEvent(new Event("unstable"));
        }
      } else if (this.#grace !== null) {
        clearTimeout(this.#grace);
        this.#grace = null;
        this.dispatchEvent(new Event("steady"));
      }
    });
  }

  /** Whether the connection is lost for now and ICE is trying again ("unstable", then "steady"
   * when it came back or "close" after DISCONNECT_GRACE_MS). */
  get unstable() {
    return this.#grace !== null && !this.#closed;
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

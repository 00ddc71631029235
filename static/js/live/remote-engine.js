// A phone plays through the MJ's engine while its own starts (a first visit downloads ~7 MB
// before its engine answers; an old phone, an engine that failed to start). Until this device's
// engine is ready, the pages' requests that need no table state (odds, a sheet's check, a
// system's rule tables: py/tablee/relay.py STATELESS, the one list) go to the MJ's device over the
// live link, which answers them with its engine; moves go to the referee as always (member.js).
// Once the local engine is ready every request runs here again, without a reload.
//
// On the wire a request is a move message whose op is ENGINE_OP ({op, request}): the hub answers
// it aside (hubRelayMethods.answerEngine), never through the referee's queue, never logged, with
// `{engine: answer}` or a refusal. The MJ's engine answers only an op of the list (its
// `live.relay` op refuses any other, `live.refused.stateful`: what it computes is from the
// phone's request alone, nothing of the MJ's table). Each member's requests are counted in a
// token bucket of their own (RELAY_PER_MINUTE, burst RELAY_BURST; beyond, `live.refused.rate`),
// beside the moves' one: a player looking at odds never delays their roll. A phone that gets no
// `{engine}` answer (a refusal, a hub of a version before, no answer within RELAY_TIMEOUT_MS)
// runs the request on its own engine, which waits for its start as before.
// Methods of Session (session.js).
import { onEngineState } from "../engine.js";
import { refusal } from "./sync.js";
import { isObject, moveId } from "./ystore.js";

/** The op of a move message that carries a request for the MJ's engine. */
export const ENGINE_OP = "live.engine";
/** A member's requests to the MJ's engine: this many a minute on average, this many at once. */
export const RELAY_PER_MINUTE = 120;
export const RELAY_BURST = 30;
/** A member's requests the MJ's engine works on at once (more are refused `busy`). */
export const MAX_RELAY_IN_FLIGHT = 8;
/** A request the MJ's device has not answered in this long runs on the phone's engine. */
export const RELAY_TIMEOUT_MS = 20_000;
/** A request refused for the pace is asked again this many times (after the wait told). */
const RATE_RETRIES = 2;
const BUSY = "live.refused.busy";
const RATE = "live.refused.rate"; // (hub.js RATE)
const STATEFUL = "live.refused.stateful";

/** Whether app's own engine answers: ready, or a page object with no engine state (the tests'
 * stand-in apps answer at once). */
const localReady = (app) => typeof app?.engine?.state !== "string" || app.engine.state === "ready";

/** The token bucket `buckets[key]` ({perMinute, burst}): the wait in ms, 0 when a token was taken. */
function takeToken(buckets, key, { perMinute, burst }) {
  const now = Date.now();
  const bucket = buckets.get(key) ?? { tokens: burst, at: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
  bucket.at = now;
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute);
}

/** The MJ's side. */
export const hubRelayMethods = {
  /** Member `memberId`'s request for the MJ's engine (`move.request`): answered `{engine}` when
   * its op needs no table state, else refused (and the refusal goes to the MJ's feed, like a
   * refused move's). Never queued behind the moves, never logged. */
  async answerEngine(memberId, move) {
    const member = this.members.get(memberId);
    if (!member) return refusal("live.refused.identity");
    const request = move.request;
    const op = isObject(request) && typeof request.op === "string" ? request.op.slice(0, 64) : "";
    this.relayBuckets ??= new Map();
    this.relayRate ??= { perMinute: RELAY_PER_MINUTE, burst: RELAY_BURST };
    const wait = takeToken(this.relayBuckets, memberId, this.relayRate);
    if (wait > 0) return this.note(memberId, member.name, op, RATE, refusal(RATE, { wait }));
    if (!op) return this.note(memberId, member.name, ENGINE_OP, "live.refused.malformed", refusal("live.refused.malformed"));
    this.relayInFlight ??= new Map();
    const count = this.relayInFlight.get(memberId) ?? 0;
    if (count >= MAX_RELAY_IN_FLIGHT) return this.note(memberId, member.name, op, BUSY, refusal(BUSY));
    this.relayInFlight.set(memberId, count + 1);
    try {
      // (py/tablee/relay.py: the op's answer, or live.refused.stateful for an op not on its list)
      const answer = await this.app.call({ op: "live.relay", request });
      if (isObject(answer) && Object.hasOwn(answer, "answer")) {
        this.relayAnswered = (this.relayAnswered ?? 0) + 1; // (how many it answered: the tests, make bench)
        return { engine: answer.answer };
      }
      const code = typeof answer?.error?.code === "string" ? answer.error.code : "live.refused.malformed";
      // (an honest phone asks for any request of its pages while its engine starts, knowing no
      // list: a refused one it then runs itself, and never asks again. Not a line of the feed)
      if (code === STATEFUL) return refusal(code, { op });
      return this.note(memberId, member.name, op, code, refusal(code));
    } finally {
      this.relayInFlight.set(memberId, (this.relayInFlight.get(memberId) ?? 1) - 1);
    }
  },
};

/** A player's side. */
export const memberRelayMethods = {
  /** Whether the MJ's engine may be asked now: this device's engine is not ready, the table is
   * this phone's (joined) and its link is synced. */
  relayServes() {
    return this.role === "player" && !localReady(this.app) && this.joined && Boolean(this.member?.synced) && !this.engineStopped;
  },

  /** Follow whether the MJ's engine answers for this phone: `app.engine.relayed` says so to the
   * pages (app.engineAnswers) and the header; the page is drawn again when it changes. */
  watchEngine() {
    this.engineWaiters = [];
    this.relayWaiting = new Map(); // request id -> its resolve
    this.notRelayed = new Set(); // the ops the MJ's engine refused (they need the table)
    const update = () => this.engineUpdate();
    this.addEventListener("change", update);
    // (boot.js's listener, registered before, has set app.engine.state when this one runs)
    this.stopEngineWatch = onEngineState(update);
    this.engineUpdate();
  },

  /** Something changed (the link, the table, this device's engine): waiting calls look again. */
  engineUpdate() {
    const serves = this.relayServes();
    if (isObject(this.app.engine) && Boolean(this.app.engine.relayed) !== serves) {
      this.app.engine.relayed = serves;
      this.app.rerender?.();
    }
    if (localReady(this.app) || !serves) {
      // (asked there and not answered yet: asked here instead, the engine that answers now, or
      // again once the link is back)
      for (const resolve of [...this.relayWaiting.values()]) resolve(null);
    }
    for (const resolve of this.engineWaiters.splice(0)) resolve();
  },

  /** Stop following (the session closes). */
  stopEngine() {
    this.engineStopped = true;
    this.stopEngineWatch?.();
    for (const resolve of [...(this.relayWaiting?.values() ?? [])]) resolve(null);
    for (const resolve of this.engineWaiters?.splice(0) ?? []) resolve();
    if (isObject(this.app.engine) && this.app.engine.relayed) {
      this.app.engine.relayed = false;
      this.app.rerender?.();
    }
  },

  /** A request of the page's that is no move: the MJ's engine answers it while this device's
   * is not ready and the link serves (else this device's, which waits for its start). */
  async engineCall(request) {
    const op = isObject(request) ? request.op : null;
    while (!localReady(this.app) && !this.engineStopped && !this.notRelayed.has(op)) {
      if (this.relayServes()) {
        const answer = await this.relayed(request);
        if (answer !== null) return answer.engine;
        // (refused while the link serves: this device's engine; the link gone: wait again)
        if (this.relayServes()) break;
        continue;
      }
      // (an engine that failed to start, and no link: its own failure, as before)
      if (this.app.engine?.state === "failed") break;
      // (no link yet: whichever comes first, the link or this device's engine)
      await new Promise((resolve) => this.engineWaiters.push(resolve));
    }
    return this.localCall(request);
  },

  /** Ask the MJ's engine: resolves `{engine}` (its answer), or null when it gave none. */
  async relayed(request, tries = 0) {
    const id = moveId();
    const reply = await new Promise((resolve) => {
      const timer = setTimeout(() => done(null), RELAY_TIMEOUT_MS);
      const done = (answer) => {
        clearTimeout(timer);
        this.relayWaiting.delete(id);
        resolve(answer);
      };
      this.relayWaiting.set(id, done);
      if (!this.member.send(id, { op: ENGINE_OP, request })) done(null);
    });
    if (isObject(reply) && Object.hasOwn(reply, "engine")) return reply;
    if (reply?.error?.code === STATEFUL) this.notRelayed.add(request.op);
    const wait = reply?.error?.params?.wait;
    if (reply?.error?.code === RATE && tries < RATE_RETRIES && Number.isFinite(wait)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, RELAY_TIMEOUT_MS)));
      if (this.relayServes()) return this.relayed(request, tries + 1);
    }
    return null;
  },

  /** An answer of the hub for one of this phone's requests to the MJ's engine: true when it was
   * one (member.js onAnswer goes no further). */
  engineAnswer(id, answer) {
    const resolve = this.relayWaiting?.get(id);
    if (!resolve) return false;
    resolve(answer);
    return true;
  },
};

// Which Tablée each device at a live table runs, and what a difference means
// (docs/ARCHITECTURE.md, "Versions at one table").
//
// A device's version is `{build, protocol}`: `build` is the id tools/vendor.py gives the whole
// site (the precache version: static/vendor/build.js, the service worker's cache name too), so
// two devices with the same build run the same files; `protocol` is the number of the live
// table's language (the envelope's kinds in sync.js and the moves' shapes the referee takes),
// raised by hand whenever a device of the previous number would misread this one's messages
// or refuse its moves. Devices exchange versions when a link opens (sync.js MESSAGE_BUILD); a
// device of before that exchange is protocol 0.
//
// Only the protocol matters: two builds of one protocol play together (a phone may still send
// a field its MJ's build does not know: the referee's refusal says so in words, `unknownField`).
// Two protocols: the device with the lower number must update, and both pages say which.
import { BUILD } from "../../vendor/build.js";

/** The live table's protocol number (0: a device of before the exchange of versions). */
export const PROTOCOL = 1;
/** This device's version. */
export const OURS = Object.freeze({ build: BUILD, protocol: PROTOCOL });
/** Bound on a build id as a peer sends it. */
const MAX_BUILD = 64;
/** The version of a device that sent none (a Tablée of before the exchange). */
export const BEFORE = Object.freeze({ build: "", protocol: 0 });
/** A peer that sent a message kind this device does not know: a newer protocol, number unknown. */
export const NEWER = Object.freeze({ build: "", protocol: Infinity });

/** `value` as a version, or null when it is not one (a peer's message: checked, never trusted). */
export function readVersion(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const { build, protocol } = value;
  if (typeof build !== "string" || build.length > MAX_BUILD) return null;
  if (!Number.isInteger(protocol) || protocol < 0 || protocol > 1_000_000) return null;
  return { build, protocol };
}

/** What a difference between this device's version `ours` and a peer's `theirs` asks for:
 * null (nothing: the same protocol), "here" (this device must update: the peer speaks a newer
 * protocol) or "there" (the peer must update). */
export function whoUpdates(ours, theirs) {
  if (!theirs || theirs.protocol === ours.protocol) return null;
  return theirs.protocol > ours.protocol ? "here" : "there";
}

/** The referee's answer `answer` to a move of a peer of version `theirs`, in words a person can
 * act on when the move's shape is what was refused (`request.invalid`): a field this device's
 * build does not know (`live.refused.unknown_field`, naming it: the MJ's device must update,
 * or the phone sent what no Tablée writes), or any other shape refused from a phone of an older
 * protocol (`live.refused.older_phone`: that phone must update). Any other answer as it is. */
export function versionedAnswer(answer, theirs, ours = OURS) {
  const error = answer?.error;
  if (error?.code !== "request.invalid") return answer;
  const params = error.params ?? {};
  if (params.rule === "additionalProperties") {
    // (the referee names the unknown key, `extra`; else the object that held it)
    const named = [params.extra, params.field].find((f) => typeof f === "string" && f !== "");
    const field = named ? named.slice(0, 64) : "";
    return { error: { code: "live.refused.unknown_field", message_key: "error.live.refused.unknown_field", params: { field } } };
  }
  if (whoUpdates(ours, theirs) === "there") {
    return { error: { code: "live.refused.older_phone", message_key: "error.live.refused.older_phone", params: {} } };
  }
  return answer;
}

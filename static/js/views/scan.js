// The camera scan of a QR code, on every browser: the live table's pages (views/live.js) read
// a player's answer on the MJ's device and the MJ's invitation on a phone with it.
//
// The decoder is the browser's own `BarcodeDetector` where it reads QR codes (Chrome on Android
// and macOS), else the vendored `barcode-detector` ponyfill (zxing-wasm's reader, the same API),
// imported only when a scan starts, its .wasm taken from static/vendor (never zxing's CDN
// default). It is not downloaded with the app (0.48 MB): the service worker keeps it once it
// loaded (asked here: KEEP_ON_DEMAND), so a scan works offline after one use; missing offline,
// the scan says so (`no_decoder_offline`) and the paste field stays.
//
// The camera: the back one where there is one (a phone), else the front one (a laptop), else
// any; a front camera's preview is mirrored, as people expect to see themselves. A framing box
// shows where to aim. A refused, absent or busy camera, or a decoder that cannot load, gets one
// plain sentence; the page keeps its paste field beside the scan.
//
// For a test or another page: `qrDetector()` gives the decoder, `decodeQr(source)` the text of
// the first QR code in an image (an <img>, <canvas>, <video>, ImageData, ImageBitmap or Blob),
// `openCamera()` the stream; `new Scan({...})` is the start/stop/preview of one page. Its markup
// carries `data-testid="scan"` with `data-scan` (idle, starting, scanning, found, refused,
// absent, no_decoder, no_decoder_offline), `data-decoder` (native, zxing) and `data-facing` (environment, user).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";
import { loadStylesheet } from "./ui.js";

/** The vendored ponyfill's entry and the .wasm it needs (tools/vendor.py copies both). */
export const DECODER_URL = new URL("../../vendor/barcode-detector/dist/es/ponyfill.js", import.meta.url).href;
export const DECODER_WASM_URL = new URL("../../vendor/zxing-wasm/dist/reader/zxing_reader.wasm", import.meta.url).href;
/** How often a frame of the preview is decoded while nothing was found. */
const LOOK_EVERY_MS = 150;
/** Looks that find no preview before the scan stops its camera: the preview is drawn before
 * the first look, so a missing one means its page went away (another route). */
const MISSING_LOOKS = 3;

/** Why a scan cannot run: a stable code, said by `live.scan_<code>`. */
export class ScanError extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

let detecting = null;

async function nativeReadsQr() {
  const Native = globalThis.BarcodeDetector;
  if (typeof Native !== "function") return false;
  if (typeof Native.getSupportedFormats !== "function") return true;
  try {
    return (await Native.getSupportedFormats()).includes("qr_code");
  } catch {
    return false;
  }
}

/** Ask the service worker (now, or once one is active) to keep the decoder for an offline scan. */
function keepForOffline() {
  navigator.serviceWorker?.ready
    .then((registration) => registration.active?.postMessage({ type: "KEEP_ON_DEMAND" }))
    .catch(() => {});
}

async function loadDetector() {
  if (await nativeReadsQr()) return { kind: "native", detector: new globalThis.BarcodeDetector({ formats: ["qr_code"] }) };
  let module;
  try {
    module = await import(DECODER_URL);
    // The module (and its 1 MB .wasm) is compiled now, so a failure is said at once and the
    // first frame is not the one that waits for it.
    await module.prepareZXingModule({
      overrides: { locateFile: (path, prefix) => (path.endsWith(".wasm") ? DECODER_WASM_URL : prefix + path) },
      fireImmediately: true,
    });
  } catch {
    throw new ScanError(navigator.onLine === false ? "no_decoder_offline" : "no_decoder");
  }
  keepForOffline();
  return { kind: "zxing", detector: new module.BarcodeDetector({ formats: ["qr_code"] }) };
}

/**
 * The QR decoder: {kind: "native" | "zxing", detector} where `detector.detect(source)` is
 * BarcodeDetector's. Loaded once (a failure is tried again next time); throws
 * ScanError("no_decoder") when the vendored decoder cannot load (offline before any visit).
 */
export function qrDetector() {
  if (!detecting) {
    detecting = loadDetector();
    detecting.catch(() => {
      detecting = null;
    });
  }
  return detecting;
}

/** The text of the first QR code in `source` (anything BarcodeDetector.detect takes), or null. */
export async function decodeQr(source) {
  const { detector } = await qrDetector();
  const codes = await detector.detect(source);
  return codes.length ? codes[0].rawValue : null;
}

/** Whether this browser can open a camera at all (a page served over https, or localhost). */
export function cameraAvailable() {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";
}

/** The camera's stream: the back camera, else the front one, else any. Throws ScanError:
 * "refused" (permission), "absent" (no camera, or none that opens). */
export async function openCamera(media = navigator.mediaDevices) {
  if (typeof media?.getUserMedia !== "function") throw new ScanError("absent");
  const tries = [{ facingMode: { exact: "environment" } }, { facingMode: "user" }, true];
  let refused = false;
  for (const video of tries) {
    try {
      return await media.getUserMedia({ video, audio: false });
    } catch (error) {
      if (error?.name === "NotAllowedError" || error?.name === "SecurityError") {
        refused = true;
        break;
      }
      // OverconstrainedError (no such camera), NotFoundError, NotReadableError (in use): next.
    }
  }
  throw new ScanError(refused ? "refused" : "absent");
}

/** Which way the camera looks: what the track says, else what was asked of it (a camera that
 * names no side, a laptop's, is taken as facing the person: its preview is mirrored). */
function facingOf(stream) {
  const track = stream.getVideoTracks()[0];
  const said = track?.getSettings?.().facingMode;
  const asked = track?.getConstraints?.().facingMode;
  const facing = said || asked?.exact || asked;
  return facing === "environment" ? "environment" : "user";
}

/**
 * One page's scan. `ids` names its elements ({start, video, stop}), `labels` its texts
 * ({start, video}: i18n keys), `onText(text)` gets what was read (the scan has stopped), and
 * `rerender()` draws the page again.
 */
export class Scan {
  constructor({ ids, labels, onText, rerender }) {
    Object.assign(this, { ids, labels, onText, rerender });
    this.state = "idle";
    this.stream = null;
    this.kind = "";
    this.facing = "";
    this.timer = null;
    this.starting = null;
  }

  get active() {
    return this.state === "starting" || this.state === "scanning";
  }

  async start() {
    if (this.active) return;
    loadStylesheet(new URL("../../css/scan.css", import.meta.url).href);
    this.state = "starting";
    // This start's mark: a stop, or a stop and a new start, while it waits makes it give up.
    const mine = (this.starting = {});
    const current = () => this.starting === mine && this.state === "starting";
    this.rerender();
    let stream = null;
    try {
      // The decoder first: a device that cannot decode does not open its camera for nothing.
      const { kind, detector } = await qrDetector();
      if (!current()) return;
      stream = await openCamera();
      if (!current()) throw new ScanError("stopped");
      Object.assign(this, { stream, kind, facing: facingOf(stream), state: "scanning" });
      this.rerender();
      this.focus(this.ids.stop); // the start button is gone: a keyboard stays on the scan
      this.look(detector, stream, 0);
    } catch (error) {
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (!current()) return; // stopped meanwhile: nothing to say
      this.state = error instanceof ScanError ? error.code : "absent";
      this.rerender();
    }
  }

  async look(detector, stream, missing) {
    if (this.stream !== stream) return;
    const video = document.getElementById(this.ids.video);
    if (!video) {
      if (missing >= MISSING_LOOKS) this.stop(); // the page that showed it is gone
      else this.timer = setTimeout(() => this.look(detector, stream, missing + 1), LOOK_EVERY_MS);
      return;
    }
    let text = null;
    const began = performance.now();
    if (video.readyState >= 2 && video.videoWidth > 0) {
      try {
        const codes = await detector.detect(video);
        text = codes.length ? codes[0].rawValue : null;
      } catch {
        text = null; // a frame the decoder could not take: the next one
      }
    }
    if (this.stream !== stream) return;
    if (text) {
      this.stop("found");
      this.rerender();
      this.onText(text);
      return;
    }
    // The decoder runs on the page's thread (zxing took 40-150 ms a 640x480 frame here): the
    // next look waits twice as long as this one took, so a slow device keeps two thirds of its
    // time for the page.
    const spent = performance.now() - began;
    this.timer = setTimeout(() => this.look(detector, stream, 0), Math.max(LOOK_EVERY_MS, 2 * spent));
  }

  focus(id) {
    document.getElementById(id)?.focus({ preventScroll: true });
  }

  /** Stop the camera (the state becomes `state`: "idle" by default). */
  stop(state = "idle") {
    clearTimeout(this.timer);
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    Object.assign(this, { stream: null, timer: null, state, starting: null });
  }

  /** The start button (none where the browser has no camera API), the preview with its
   * framing box, and the sentence of a scan that cannot run. */
  view() {
    if (!cameraAvailable()) return nothing;
    const failed = ["refused", "absent", "no_decoder", "no_decoder_offline"].includes(this.state);
    return html`<div class="scan" data-testid="scan" data-scan=${this.state} data-decoder=${this.kind} data-facing=${this.facing}>
      ${this.active
        ? html`<div class="scan-frame" data-facing=${this.facing}>
            ${this.stream
              ? html`<video id=${this.ids.video} autoplay muted playsinline .srcObject=${this.stream} aria-label=${t(this.labels.video)}></video>
                  <div class="scan-aim" aria-hidden="true"></div>`
              : nothing}
          </div>
          <p class="muted small" role="status">${this.stream ? t("live.scan_aim") : t("live.scan_starting")}</p>
          <div class="row"><button type="button" id=${this.ids.stop} @click=${() => { this.stop(); this.rerender(); this.focus(this.ids.start); }}>${t("live.scan_stop")}</button></div>`
        : html`<div class="row"><button type="button" id=${this.ids.start} @click=${() => this.start()}>${t(this.labels.start)}</button></div>`}
      ${failed ? html`<p class="field-error" role="alert" data-scan-error=${this.state}>${t(`live.scan_${this.state}`)}</p>` : nothing}
    </div>`;
  }
}

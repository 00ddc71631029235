// Bridge to the rules engine: py/tablee runs in a PyScript (Pyodide) worker so the page
// never blocks on Python. `call(request)` sends one JSON request to tablee.api.handle and
// resolves with its JSON response; calls made before the worker is ready wait for it.
// document.documentElement.dataset.engine is "idle" until the engine starts, "loading", then
// "ready" (or "failed"); dataset.engineBoot says how the interpreter started, once ready:
// "snapshot" (restored from this device's memory snapshot), "made" (started plainly and made
// one) or "plain" (see static/js/pyodide-snapshot.js).
//
// Nothing here runs at import: PyScript's core (a large module evaluated on the main thread)
// is fetched only when the engine starts. The shell renders the saved table first, then calls
// startEngineSoon() (the core is evaluated once that render is painted); any call() before
// that starts the engine at once.

const root = new URL("../../", import.meta.url); // the site root, wherever it is hosted
const abs = (path) => new URL(path, root).href;

let workerPromise = null;
const listeners = new Set();
let state = "idle";

function setState(next, detail) {
  state = next;
  document.documentElement.dataset.engine = next;
  for (const fn of listeners) fn(next, detail);
}

export function engineState() {
  return state;
}

let bootInfo = { boot: null, snapshot_bytes: 0 };

/** How the ready engine started and the size of the engine's memory snapshot on this device
 * ({boot: "snapshot" | "made" | "plain" | null before ready, snapshot_bytes}). */
export function engineBoot() {
  return bootInfo;
}

export function onEngineState(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** PyScript's core: imported when the engine starts, never before. */
const CORE = "../vendor/pyscript/core.js";

/** A promise resolved in the next animation frame's callback, just before that frame is
 * painted: whatever it starts (an import) is evaluated in a later task, so after the paint.
 * A hidden page draws no frame, so it never waits more than 200 ms for one. */
function nextFrame() {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 200);
    if (typeof requestAnimationFrame !== "function") return;
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      resolve();
    });
  });
}

/** Yield to the event loop: ends the current main-thread task (a paint or input may come). */
function yieldTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Start the engine off the critical path, as soon as the shell's first render is on its way
 * to the screen: the runtime's import begins in the next frame's callback, so the core is
 * evaluated only after that frame (the saved table) is painted (waiting for the load
 * event and an idle moment as well cost the engine about a second on a cold visit, against a
 * bare page that starts at once). Resolves like startEngine() (the worker, once it answered).
 * A call() meanwhile starts it at once; both then share the one start.
 */
export async function startEngineSoon() {
  if (!workerPromise) await nextFrame();
  return startEngine();
}

/**
 * The worker's PyScript configuration: pyscript.toml's generated [files] block (the package's
 * first archive, unpacked at the worker's root, and its library archive, copied beside it and
 * unpacked by py/worker.py when first needed), given as an object with absolute URLs. Given as
 * the file's URL, the worker would fetch pyscript.toml and then PyScript's TOML parser
 * before it even starts fetching Pyodide: two round trips on the engine's critical path.
 * tests/test_boot_serving_and_preloads.py checks that WORKER_FILES is exactly pyscript.toml's [files].
 */
export const WORKER_FILES = {
  "./static/vendor/tablee.zip": "./*",
  "./static/vendor/tablee-lib.zip.xz": "./tablee-lib.zip.xz"
};

function workerConfig() {
  return { files: Object.fromEntries(Object.entries(WORKER_FILES).map(([from, to]) => [abs(from), to])) };
}

/** A start that shows no sign of life for this long is taken as hung: its worker was killed
 * (a phone short of memory), a download or a lock never finished. Every download's bytes, and
 * each step of the interpreter's start, count as signs of life (PROGRESS_CHANNEL), so a slow
 * phone on a slow network is never cut short: only silence is. The page's
 * `TABLEE_ENGINE_STALL_MS` shortens it (the browser tests). */
export const STALL_MS = 60_000;
/** The BroadcastChannel static/js/pyodide-snapshot.js reports the start's progress on. */
export const PROGRESS_CHANNEL = "tablee-engine-progress";
/** Roughly how many bytes each followed download brings (decompressed; the bar only needs the
 * proportion), and the share of the bar the downloads fill. */
const DOWNLOAD_BYTES = { runtime: 9_600_000, stdlib: 1_800_000, package: 800_000 };
const DOWNLOADS_SHARE = 0.8;

/** Why a start is given up: the worker died or stayed silent for STALL_MS. */
export class EngineHung extends Error {
  constructor(why) {
    super(`engine start ${why}`);
    this.hung = true;
  }
}

let progressState = { step: "core", fraction: 0 };
const progressListeners = new Set();

/** The first start's progress: {step: "core" | "runtime" | "stdlib" | "package" | "interpreter"
 * | "snapshot" | "retry", fraction: 0..1}; `fn` is called at each change (the header's bar,
 * static/js/engine-progress.js). */
export function onEngineProgress(fn) {
  progressListeners.add(fn);
  fn(progressState);
  return () => progressListeners.delete(fn);
}

/** The bar never goes back, but at a new try (`restart`). */
function setProgress(step, fraction, restart = false) {
  const floor = restart ? 0 : progressState.fraction;
  progressState = { step, fraction: Math.max(floor, Math.min(fraction, 0.99)) };
  for (const fn of progressListeners) fn(progressState);
}

/** The workers PyScript creates, recorded so a hung one can be ended (PyScript keeps the Worker
 * constructor it finds when its core is evaluated: it is wrapped for that moment only). */
let spawned = null;
let onSpawn = () => {};

async function importCore() {
  const Native = globalThis.Worker;
  if (typeof Native !== "function") return import(CORE);
  globalThis.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      spawned = this;
      onSpawn(this);
    }
  };
  try {
    return await import(CORE);
  } finally {
    globalThis.Worker = Native;
  }
}

/** One start of the worker, until its first answer. `plain`: no snapshot read or made. */
async function runWorker(core, id, plain) {
  const { PyWorker, hooks } = await core;
  // PyScript turns every worker hook into code with Function(), which the site's CSP (no
  // 'unsafe-eval') refuses. Its one default worker hook registers the `_pyscript` module
  // for pyscript.fs, which py/worker.py never uses: with no hooks, nothing is evaluated.
  for (const set of Object.values(hooks.worker)) set.clear();
  // The core's evaluation is one main-thread task; yield before the worker is created so
  // the page can paint and answer input in between (two tasks of about 60 ms, not one).
  await yieldTask();
  const module = new URL(abs("static/js/pyodide-snapshot.js"));
  module.searchParams.set("start", id);
  if (plain) module.searchParams.set("plain", "1");
  const worker = await PyWorker(abs("py/worker.py"), {
    config: workerConfig(),
    // A worker ignores `interpreter` from the config and would fetch Pyodide from a CDN:
    // naming a module here keeps every request on this origin. PyScript imports it and
    // calls its loadPyodide: ours wraps the vendored Pyodide's, to start from this
    // device's memory snapshot (static/js/pyodide-snapshot.js; its URL carries this start's
    // progress channel id, and `plain` on a second try).
    version: module.href,
  });
  // One real round trip before announcing readiness: store.limits, the answer the shell
  // needs first (its forms check against it). Not `describe`: its 620 kB of schemas would
  // cross the thread boundary and be parsed on the main thread at every start, for the
  // five system names two pages show (app.describe() asks for it when one of them does).
  const limits = JSON.parse(await worker.sync.handle(JSON.stringify({ op: "store.limits" })));
  if (limits.error) throw new Error(limits.error.code);
  // How the interpreter started (and, when it made a memory snapshot, the moment to store it).
  const boot = JSON.parse(await worker.sync.boot());
  return { worker, limits, boot };
}

/** runWorker, given up (EngineHung) when it stays silent for STALL_MS or its worker dies. */
async function watchedStart(core, plain) {
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let alive = performance.now();
  const bytes = {};
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(PROGRESS_CHANNEL) : null;
  if (channel) {
    channel.onmessage = ({ data }) => {
      if (data?.start !== id) return;
      alive = performance.now();
      if (data.step in DOWNLOAD_BYTES) bytes[data.step] = Math.max(bytes[data.step] ?? 0, data.loaded ?? 0);
      const total = Object.values(DOWNLOAD_BYTES).reduce((a, b) => a + b, 0);
      const got = Object.entries(bytes).reduce((sum, [step, n]) => sum + Math.min(n, DOWNLOAD_BYTES[step]), 0);
      const base = data.step === "interpreter" || data.step === "snapshot" ? 0.05 : 0.05 + DOWNLOADS_SHARE * (got / total);
      setProgress(data.step, data.step === "snapshot" ? Math.max(base, 0.9) : base);
    };
  }
  let timer = null;
  let died = null;
  const given_up = new Promise((_, reject) => {
    died = (why) => reject(new EngineHung(why));
    const stall = () => globalThis.TABLEE_ENGINE_STALL_MS ?? STALL_MS;
    timer = setInterval(() => {
      if (performance.now() - alive > stall()) died("stalled");
    }, Math.min(1000, stall() / 4));
  });
  onSpawn = (worker) => {
    alive = performance.now();
    worker.addEventListener("error", () => died("worker error"));
  };
  try {
    return await Promise.race([runWorker(core, id, plain), given_up]);
  } catch (error) {
    if (error?.hung) {
      spawned?.terminate();
      spawned = null;
    }
    throw error;
  } finally {
    clearInterval(timer);
    channel?.close();
    onSpawn = () => {};
  }
}

/** static/js/pyodide-snapshot.js's SNAPSHOT_CACHE and SNAPSHOT_URL (not imported: that
 * module imports Pyodide's). */
async function dropSnapshot() {
  try {
    const cache = await caches.open("tablee-snapshot");
    await cache.delete(abs("static/vendor/pyodide/engine.snapshot"));
  } catch {
    // no Cache Storage: no snapshot either
  }
}

export function startEngine() {
  if (workerPromise) return workerPromise;
  const started = performance.now();
  performance.mark("tablee-engine-start");
  // The core's download begins before the page redraws for the "loading" state (below).
  const core = importCore();
  core.then(() => setProgress("core", 0.05), () => {});
  workerPromise = (async () => {
    let result;
    try {
      result = await watchedStart(core, false);
    } catch (error) {
      // Told on screen, then once more without the memory snapshot (a snapshot that never
      // finishes loading, a heap too large for this device): the pages that need no engine
      // work meanwhile.
      console.warn("Tablée engine start failed, trying once more without the snapshot", error);
      // A snapshot that may be what hung is not tried again: the next visit makes a new one.
      await dropSnapshot();
      setProgress("retry", 0, true);
      setState("retrying", { hung: Boolean(error?.hung) });
      result = await watchedStart(core, true);
    }
    const { worker, limits, boot } = result;
    performance.mark("tablee-engine-ready");
    bootInfo = boot;
    document.documentElement.dataset.engineBoot = bootInfo.boot;
    setState("ready", { ms: performance.now() - started, limits });
    return worker;
  })().catch((error) => {
    console.error("Tablée engine failed to start", error);
    setState("failed", { error: String(error), hung: Boolean(error?.hung) });
    throw error;
  });
  setState("loading");
  return workerPromise;
}

/** The deepest nesting a request may have (tablee.api.MAX_REQUEST_DEPTH). */
export const MAX_REQUEST_DEPTH = 64;

/** Nesting depth of a JSON value, without recursion (an imported file may be hostile). */
export function depthOf(value) {
  let deepest = 0;
  const stack = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object") continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_REQUEST_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Send one request to tablee.api.handle; resolves with the JSON response (errors included).
 * A request nested deeper than MAX_REQUEST_DEPTH is refused here: in Pyodide such a request
 * can overflow the wasm stack and kill the interpreter for good.
 */
export async function call(request) {
  if (depthOf(request) > MAX_REQUEST_DEPTH) {
    return {
      error: { code: "request.too_deep", message_key: "error.request.too_deep", params: { max: MAX_REQUEST_DEPTH } },
    };
  }
  const worker = await startEngine();
  let text;
  try {
    text = await worker.sync.handle(JSON.stringify(request));
  } catch (error) {
    // The interpreter itself failed: nothing will answer any more until a reload.
    console.error("Tablée engine stopped", error);
    setState("failed", { error: String(error) });
    return { error: { code: "engine.stopped", message_key: "engine.stopped", params: {} } };
  }
  return JSON.parse(text);
}

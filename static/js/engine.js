// Bridge to the rules engine: py/tablee runs in a PyScript (Pyodide) worker so the page
// never blocks on Python. `call(request)` sends one JSON request to tablee.api.handle and
// resolves with its JSON response; calls made before the worker is ready wait for it.
// document.documentElement.dataset.engine is "loading", then "ready" (or "failed").

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

export function onEngineState(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function startEngine() {
  if (workerPromise) return workerPromise;
  setState("loading");
  const started = performance.now();
  workerPromise = (async () => {
    const { PyWorker } = await import("../vendor/pyscript/core.js");
    const worker = await PyWorker(abs("py/worker.py"), {
      config: abs("pyscript.toml"),
      // A worker ignores `interpreter` from the config and would fetch Pyodide from a CDN:
      // naming the vendored module here keeps every request on this origin.
      version: abs("static/vendor/pyodide/pyodide.mjs"),
    });
    // One real round trip before announcing readiness.
    const probe = JSON.parse(await worker.sync.handle(JSON.stringify({ op: "describe" })));
    if (probe.error) throw new Error(probe.error.code);
    performance.mark("tablee-engine-ready");
    setState("ready", { ms: performance.now() - started, describe: probe });
    return worker;
  })().catch((error) => {
    console.error("Tablée engine failed to start", error);
    setState("failed", { error: String(error) });
    throw error;
  });
  return workerPromise;
}

/** Send one request to tablee.api.handle; resolves with the JSON response (errors included). */
export async function call(request) {
  const worker = await startEngine();
  const text = await worker.sync.handle(JSON.stringify(request));
  return JSON.parse(text);
}

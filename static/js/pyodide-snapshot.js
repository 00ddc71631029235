// The engine's interpreter module: Pyodide's own `loadPyodide`, wrapped to start from a memory
// snapshot of the heap when this device has one (a warm engine-ready in about a third of a plain
// start's time). PyScript's worker imports the module named by PyWorker's `version` when it is a
// URL and calls its `{loadPyodide, version}` (polyscript's interpreters.js and
// interpreter/pyodide.js), so PyScript still fetches the archives, runs py/worker.py and sets up
// its exports: only the interpreter's start changes. static/js/engine.js names this module.
//
// The snapshot's life (Pyodide's private `_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`;
// tests/test_snapshot_api.py fails loudly when the pinned Pyodide no longer has them):
// - made on a start that finds none, before the interpreter is handed to PyScript (once PyScript
//   registers its JS modules in Python, the heap can no longer be serialized), after importing
//   PRE_IMPORTS (the standard library of the readiness path), and stored in Cache Storage
//   (SNAPSHOT_CACHE, one entry) once the engine is ready (storeWhenReady);
// - restored on every later start whose key (static/vendor/snapshot-key.json, written by
//   tools/vendor.py over every precached file: Pyodide, its stdlib archive, this file, the app)
//   is the stored one; a stale one is deleted and a new one made;
// - never worse than a plain start: a snapshot that cannot be read, is not the one stored
//   (digest), or fails to restore or to answer is deleted and the start falls back to a plain
//   one, which makes a new snapshot; failing to make or store one changes nothing else.
// After a restore, Python's `random` is reseeded from the browser's crypto entropy (a snapshot
// freezes its state). The hash seed of str/bytes stays the snapshot's: it orders sets and
// dicts' hashing, never a roll (rolls use seeds the page draws from crypto).
// How the interpreter started ("snapshot", "made" or "plain") and the snapshot's size reach the
// page through py/worker.py's `boot` export (os.environ, set here). Performance marks in the
// worker: tablee-interpreter-start / -ready, tablee-snapshot-make / -made (the cost of making).
// The standard library mounted is the trimmed archive (STDLIB_URL, Pyodide's `stdLibURL`): the
// snapshot's key covers it like every precached file.

import { loadPyodide as loadPlain, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const here = (path) => new URL(path, import.meta.url).href;
const INDEX_URL = here("../vendor/pyodide/");
/** The standard library the engine mounts: only the modules the worker's code can import
 * (tools/vendor.py write_stdlib_trimmed), its entries stored and the zip gzipped as a whole
 * (1.65 MB on the wire): the worker's fetch inflates it as it arrives (inflateGzip). A browser
 * without DecompressionStream fetches the zip itself (4.1 MB, not precached: online only). */
const PACKED_STDLIB = typeof DecompressionStream === "function";
const STDLIB_URL = here(`../vendor/pyodide/stdlib-trimmed.zip${PACKED_STDLIB ? ".gz" : ""}`);
const KEY_URL = here("../vendor/snapshot-key.json");
/** The Cache Storage cache holding the one snapshot (sw.js keeps it across its own cleanup). */
export const SNAPSHOT_CACHE = "tablee-snapshot";
/** The snapshot's name in that cache: a URL nothing ever fetches. */
export const SNAPSHOT_URL = here("../vendor/pyodide/engine.snapshot");
const KEY_HEADER = "x-tablee-snapshot-key";
const DIGEST_HEADER = "x-tablee-snapshot-sha256";

/** The standard library imported before the snapshot is made: what the readiness path
 * (py/worker.py, then `import tablee.api`: vendor.boot_modules()) imports, and what those
 * import, so a restored engine imports none of it. The package itself follows
 * (preloadPackage). */
export const PRE_IMPORTS = [
  "importlib.abc", "importlib.machinery", "zipfile", "json", "dataclasses", "typing", "random",
  "pathlib", "functools", "collections.abc",
];

/** The package's two archives (pyscript.toml's [files], both unpacked into the interpreter's
 * working directory, where PyScript puts them) and what is imported from them before the
 * snapshot is made: every module that registers ops (`tablee.api.load_all`) and the two
 * libraries they use lazily. A device makes its snapshot once and starts from it dozens of
 * times an evening: each restored start then answers a system's first op, or the first odds
 * (icepool), without importing anything (90 to 320 ms each in the worker before), for about
 * half a second more on the start that makes it. */
const PACKAGE_ARCHIVES = [here("../vendor/tablee.zip"), here("../vendor/tablee-lib.zip.xz")];
/** The library archive comes xz-compressed (tools/vendor.py LIB_PACKED): written as it is, then
 * decompressed and unpacked by the interpreter's own lzma, as py/worker.py does. */
const LIBRARY_UNPACK =
  "import io as _io, lzma as _lz, zipfile as _zf\n" +
  "with open('tablee-lib.zip.xz', 'rb') as _f:\n    _zf.ZipFile(_io.BytesIO(_lz.decompress(_f.read()))).extractall('.')\n" +
  "del _io, _lz, _zf, _f";
const PACKAGE_PRELOAD = "import tablee.api as _a\n_a.load_all()\nimport icepool, fastjsonschema\ndel _a, icepool, fastjsonschema";

/** This start's options, from the module's URL (static/js/engine.js): `start`, the id of the
 * page's progress channel; `plain=1`, a second try that neither restores nor makes a snapshot. */
const SEARCH = new URL(import.meta.url).searchParams;
const PLAIN = SEARCH.get("plain") === "1";
/** static/js/engine.js's PROGRESS_CHANNEL. */
const PROGRESS_CHANNEL = "tablee-engine-progress";
const progressChannel = typeof BroadcastChannel === "function" && SEARCH.get("start") ? new BroadcastChannel(PROGRESS_CHANNEL) : null;

/** Tell the page how the start goes: `step` (runtime, stdlib, package, snapshot, interpreter)
 * and, for a download, the bytes read so far. The page's bar moves, and its watchdog sees the
 * start is alive. */
function progress(step, loaded = 0) {
  try {
    progressChannel?.postMessage({ start: SEARCH.get("start"), step, loaded });
  } catch {
    // (a closed channel: nothing to tell)
  }
}

/** The downloads the page's bar follows, by the end of their URL. */
const TRACKED = [["pyodide.asm.wasm", "runtime"], ["stdlib-trimmed.zip.gz", "stdlib"], ["stdlib-trimmed.zip", "stdlib"],
  ["tablee-lib.zip.xz", "package"], ["tablee.zip", "package"]];

/** The standard library's response inflated as it arrives (Pyodide reads the zip's bytes). */
function inflateGzip(response) {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/zip");
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip")), { status: response.status, statusText: response.statusText, headers });
}

/** The worker's fetch: the packed standard library inflated (inflateGzip), and the bytes of
 * TRACKED downloads counted as they arrive (at most one message every 150 ms a file). The
 * response is the same but for its body's stream. */
function followDownloads() {
  const plain = globalThis.fetch;
  if (typeof plain !== "function") return;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input?.url ?? "";
    const counted = counting(await plain(input, init), url);
    return PACKED_STDLIB && url.split("?")[0].endsWith("/stdlib-trimmed.zip.gz") && counted.ok && counted.body ? inflateGzip(counted) : counted;
  };
}

/** ``response`` counted for the page's bar when ``url`` is a TRACKED download. */
function counting(response, url) {
  const tracked = TRACKED.find(([end]) => url.split("?")[0].endsWith(end));
  if (!progressChannel || typeof TransformStream !== "function" || !tracked || !response.ok || !response.body) return response;
  let loaded = 0;
  let said = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      const now = Date.now();
      if (now - said > 150) {
        said = now;
        progress(tracked[1], loaded);
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
}
followDownloads();

/** How long a made snapshot waits for the page's `boot` call (see storeWhenReady). */
const STORE_FALLBACK_MS = 30_000;

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function sha256(bytes) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

async function snapshotKey() {
  const response = await fetch(KEY_URL);
  if (!response.ok) throw new Error(`snapshot key: HTTP ${response.status}`);
  const { key } = await response.json();
  if (typeof key !== "string" || !key) throw new Error("snapshot key: missing");
  return key;
}

/** The stored snapshot when it has this key: {bytes, sound}, where `sound` resolves to whether
 * the bytes are byte for byte the ones stored (their SHA-256, computed while the interpreter
 * is restored from them: the browser hashes off the worker's thread, so the check costs the
 * start nothing, and no interpreter is handed on before it passed); null when there is none
 * or it has another key (deleted: an update made it stale). Throws when it cannot be read. */
async function readSnapshot(cache, key) {
  const response = await cache.match(SNAPSHOT_URL);
  if (!response) return null;
  if (response.headers.get(KEY_HEADER) !== key) {
    await cache.delete(SNAPSHOT_URL);
    return null;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const expected = response.headers.get(DIGEST_HEADER);
  return { bytes, sound: sha256(bytes).then((digest) => digest === expected) };
}

async function storeSnapshot(cache, key, bytes) {
  try {
    const headers = { "content-type": "application/octet-stream", [KEY_HEADER]: key, [DIGEST_HEADER]: await sha256(bytes) };
    await cache.put(SNAPSHOT_URL, new Response(bytes, { headers }));
  } catch (error) {
    // Quota refused or storage gone: no snapshot this time, and no partial one left behind.
    console.warn("Tablée: engine snapshot not stored", error);
    await cache.delete(SNAPSHOT_URL).catch(() => {});
  }
}

/** An interpreter restored from `bytes`, reseeded and checked. Pyodide restores the heap into
 * the module's memory, which starts smaller than a snapshot (pyodide#6254): it is grown to the
 * snapshot's heap first, as Cloudflare's workerd does. */
export async function restoreSnapshot(options, bytes) {
  if (bytes.byteLength < 64 || bytes.byteOffset % 4) throw new Error("snapshot: truncated");
  const heapOffset = new Uint32Array(bytes.buffer, bytes.byteOffset, 4)[1];
  const heapBytes = bytes.byteLength - heapOffset;
  if (!(heapOffset > 0 && heapBytes > 0)) throw new Error("snapshot: truncated");
  const { default: createModule } = await import(`${INDEX_URL}pyodide.asm.mjs`);
  const pyodide = await loadPlain({
    ...options,
    _loadSnapshot: bytes,
    async createPyodideModule(settings) {
      const module = await createModule(settings);
      module.growMemory(heapBytes);
      return module;
    },
  });
  reseed(pyodide);
  // Pyodide keeps its options: let the 31 MB of the snapshot's bytes go.
  if (pyodide._api?.config) pyodide._api.config._loadSnapshot = undefined;
  return pyodide;
}

/** A plain start that makes a snapshot: {pyodide, bytes}, or {pyodide, bytes: null} when
 * Pyodide would start but not make one. Throws only when Pyodide refuses `_makeSnapshot`. */
export async function makeSnapshot(options) {
  const pyodide = await loadPlain({ ...options, _makeSnapshot: true });
  try {
    performance.mark("tablee-snapshot-make");
    preImport(pyodide);
    await preloadPackage(pyodide);
    const bytes = pyodide.makeMemorySnapshot();
    performance.mark("tablee-snapshot-made");
    return { pyodide, bytes };
  } catch (error) {
    console.warn("Tablée: engine snapshot not made", error);
    return { pyodide, bytes: null };
  }
}

/** Reseed what the snapshot froze, from the browser's crypto entropy, and check the restored
 * interpreter answers (a heap restored wrong fails here, not in PyScript). */
function reseed(pyodide) {
  const entropy = hex(crypto.getRandomValues(new Uint8Array(32)));
  const answer = pyodide.runPython(
    `import json as _j, random as _r\n_r.seed(int("${entropy}", 16))\n_j.dumps([1, "é"], ensure_ascii=False)`,
  );
  pyodide.runPython("del _j, _r");
  if (answer !== '[1, "é"]') throw new Error("snapshot: the restored interpreter answers wrong");
}

function preImport(pyodide) {
  pyodide.runPython(
    `import importlib as _il\nfor _n in ${JSON.stringify(PRE_IMPORTS)}:\n    try:\n        _il.import_module(_n)\n` +
      "    except ImportError:\n        pass\ndel _il, _n",
  );
}

/** Unpack the package's archives where PyScript will (the working directory: the files
 * the modules read, such as the set-up's answers, are there again after a restore, PyScript
 * unpacking them before py/worker.py runs) and import it (PACKAGE_PRELOAD). A package that
 * cannot be fetched or imported leaves a snapshot of the standard library only: the
 * package's modules are then imported after each start, as py/worker.py always can. */
async function preloadPackage(pyodide) {
  try {
    const archives = await Promise.all(
      PACKAGE_ARCHIVES.map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return response.arrayBuffer();
      }),
    );
    const [first, library] = archives;
    pyodide.unpackArchive(first, "zip", { extractDir: pyodide.FS.cwd() });
    pyodide.FS.writeFile(`${pyodide.FS.cwd()}/tablee-lib.zip.xz`, new Uint8Array(library));
    pyodide.runPython(LIBRARY_UNPACK);
    pyodide.runPython(PACKAGE_PRELOAD);
  } catch (error) {
    console.warn("Tablée: the rules package is not in the engine snapshot", error);
  }
}

/** The interpreter this module last started (for the browser tests' probes of its state). */
export let started = null;

function mark(pyodide, boot, bytes) {
  started = pyodide;
  performance.mark("tablee-interpreter-ready");
  pyodide.runPython(
    `import os as _o\n_o.environ["TABLEE_ENGINE_BOOT"] = "${boot}"\n_o.environ["TABLEE_SNAPSHOT_BYTES"] = "${bytes}"\ndel _o`,
  );
  return pyodide;
}

/** Store the made snapshot once the engine is ready, so hashing and writing 31 MB never
 * competes with the start: py/worker.py's `boot`, which the page calls right after the
 * engine's first answer, calls `globalThis.tableeStoreSnapshot` (once); a page that never
 * asks gets it stored after STORE_FALLBACK_MS. */
function storeWhenReady(store) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    delete globalThis.tableeStoreSnapshot;
    clearTimeout(fallback);
    store();
  };
  const fallback = setTimeout(once, STORE_FALLBACK_MS);
  globalThis.tableeStoreSnapshot = once;
}

/** Pyodide's loadPyodide, from this device's snapshot when it has a good one (see above). */
export async function loadPyodide(options = {}) {
  performance.mark("tablee-interpreter-start");
  progress("interpreter");
  // Pyodide's Emscripten module (1.25 MB of JavaScript to fetch and compile) is imported now,
  // while the snapshot's key and bytes are read: the restore, or Pyodide's own start, then
  // finds it loaded (one module map: the same URL is imported once).
  import(`${INDEX_URL}pyodide.asm.mjs`).catch(() => {}); // (a failure is Pyodide's to report)
  const base = { ...options, indexURL: INDEX_URL, stdLibURL: STDLIB_URL };
  // A second try after a start that hung: no snapshot read, none made.
  if (PLAIN) return mark(await loadPlain(base), "plain", 0);
  let cache = null;
  let key = null;
  let stored = null;
  let failed = false; // a snapshot was there and could not be used
  try {
    [cache, key] = await Promise.all([globalThis.caches ? caches.open(SNAPSHOT_CACHE) : null, snapshotKey()]);
    if (cache) stored = await readSnapshot(cache, key);
  } catch (error) {
    console.warn("Tablée: engine snapshot unreadable, starting without it", error);
    failed = true;
    await cache?.delete(SNAPSHOT_URL).catch(() => {});
  }
  if (stored) {
    progress("snapshot");
    try {
      const [pyodide, sound] = await Promise.all([restoreSnapshot(base, stored.bytes), stored.sound]);
      if (!sound) throw new Error("snapshot: digest mismatch");
      return mark(pyodide, "snapshot", stored.bytes.byteLength);
    } catch (error) {
      console.warn("Tablée: engine snapshot not restored, starting without it", error);
      failed = true;
      await cache.delete(SNAPSHOT_URL).catch(() => {});
    }
  }
  if (!cache || !key) return mark(await loadPlain(base), "plain", 0);
  let made;
  try {
    made = await makeSnapshot(base);
  } catch (error) {
    console.warn("Tablée: Pyodide refused to prepare a snapshot, starting without it", error);
    return mark(await loadPlain(base), "plain", 0);
  }
  const { pyodide, bytes } = made;
  if (!bytes) return mark(pyodide, "plain", 0);
  storeWhenReady(() => storeSnapshot(cache, key, bytes));
  return mark(pyodide, failed ? "plain" : "made", bytes.byteLength);
}

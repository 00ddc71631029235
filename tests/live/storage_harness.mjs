// What the live table keeps in each device's localStorage, run in one `node` process by
// tests/test_live_storage.py and tools/bench_storage.py (JSON lines, tests/live/lines.mjs).
//
// One MJ device and player devices, each a stand-in app over its own storage (a Map that keeps
// the strings it is given; `sizes` counts them in characters as Chromium and Firefox do, `bytes`
// as WebKit does: storage.storedBytes), joined by sync.js's in-memory links.
// The app saves its table as the page does, with storage.js's own `save` (`tablee.document`)
// and `backup` (`tablee.backup.*`, at a phone's first join); the session (session.js) writes
// what it keeps (`tablee.live`, a phone's `tablee.live.y` and `.delta`) itself. The MJ's worker
// is a stand-in: a `roll` move appends one log entry as the referee logs a roll (the log kept
// at its 1,000 cap), `store.share` is the table without its secrets. What is not here: the undo
// history (a phone's moves are not kept there; the MJ's own changes are, at most 300,000
// characters: the bench adds that bound), the engine's snapshot (outside localStorage).
import { serveLines } from "./lines.mjs";
import { memoryStorage } from "./memory_storage.mjs";
import { memoryLinkPair } from "../../static/js/live/sync.js";
import { Session } from "../../static/js/live/session.js";
import { readJson } from "../../static/js/live/ydoc.js";
import { backup, save } from "../../static/js/storage.js";
import { toBase64Url } from "../../static/js/share/codec.js";
import * as Y from "yjs";

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The stand-in for store.share (audience player): the MJ's secrets out. */
function playerView(doc) {
  const out = { ...doc, log: doc.log.filter((e) => !Object.hasOwn(e, "to")) };
  delete out.quarantine;
  return out;
}

/** A roll's log entry as the referee writes it (py/tablee/referee_kernel.py log_run). */
function rollEntry(n, member, now) {
  const dice = Array.from({ length: 6 }, (_, i) => ({ value: 1 + ((n * 7 + i * 3) % 6), kept: i < 4 }));
  return {
    id: `live-${n.toString(16).padStart(16, "0")}`, at: now, system: null, kind: "roll", label: "6d6kh4+2",
    who: member.name, member: { id: member.id, name: member.name },
    request: { op: "roll", expr: "6d6kh4+2", seed: 1000 + n },
    result: { total: dice.filter((d) => d.kept).reduce((s, d) => s + d.value, 2), terms: [
      { kind: "dice", sign: 1, text: "6d6kh4", count: 6, sides: 6, keep: { mode: "kh", n: 4 }, dice, value: 13 },
      { kind: "const", sign: 1, text: "2", count: 0, sides: null, keep: null, dice: [], value: 2 }] },
  };
}

function fakeApp(doc, storage) {
  const listeners = new Set();
  const app = {
    doc,
    storage,
    accepted: [],
    rolls: 0,
    worker: { held: null, revs: 0 },
    onDocument(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    changed() {
      for (const fn of listeners) fn(this.doc);
    },
    update(mutate) {
      const next = { ...this.doc }; // (shallow, as the app's change of a live table is)
      mutate(next);
      this.doc = next;
      save(this.doc, storage);
      this.changed();
      return true;
    },
    changeCount: () => 0,
    saved: async () => {},
    addLog() {
      return true;
    },
    replaceDocument(next) {
      // app.js: the table saved is backed up first (storage.js backup), then replaced
      const key = backup(storage.getItem("tablee.document") ?? JSON.stringify(this.doc), storage);
      if (!key) return null;
      this.doc = next;
      save(this.doc, storage);
      this.changed();
      return key;
    },
    hold(table) {
      this.worker.revs += 1;
      this.worker.held = { rev: `rev-${this.worker.revs}`, doc: table };
      return this.worker.held.rev;
    },
    async call(request) {
      await tick();
      if (request.op === "live.moves") return { moves: ["roll"] };
      if (request.op === "store.share") {
        const data = request.data ?? this.worker.held?.doc;
        return { kind: "table", audience: "player", data: playerView(data), rev: this.hold(data) };
      }
      if (request.op !== "live.move") return { error: { code: "unknown" } };
      let source = request.document;
      if (Object.hasOwn(request, "held")) {
        if (request.held !== this.worker.held?.rev) return { stale: true };
        source = this.worker.held.doc;
      }
      if (request.move?.op !== "roll") return { applied: false, answer: { error: { code: "live.refused.not_a_move" } }, rev: this.hold(source) };
      const entry = rollEntry(this.rolls++, request.member, request.now);
      const next = { ...source, log: [...source.log, entry].slice(-1000) };
      this.accepted.push({ member: request.member.id, id: entry.id, request: request.move });
      return { applied: true, document: next, answer: { total: entry.result.total, logged: entry.id }, rev: this.hold(next), projection: { data: playerView(next) } };
    },
    t: (key) => key,
  };
  save(doc, storage);
  return app;
}

const worlds = new Map();

function device(world, name) {
  const d = world.devices.get(name);
  if (!d) throw new Error(`no device ${name}`);
  return d;
}

function newSession(d) {
  d.session = new Session(d.app, { role: d.role, me: d.role === "player" ? `m-${d.name}` : null, key: `key-${d.name}`, name: d.name, storage: d.storage });
  if (d.role === "mj") d.session.rate = { perMinute: 600_000, burst: 10_000 }; // (the pace is not what is measured)
}

async function settle(world) {
  for (let round = 0; round < 400; round += 1) {
    await tick();
    await tick();
    let moved = 0;
    for (const pair of world.links.values()) for (const link of pair) moved += link.deliver(link.pending.length);
    if (moved === 0 && round > 3) {
      await tick();
      if (![...world.links.values()].some((pair) => pair.some((l) => l.pending.length && l.open))) return round;
    }
  }
  throw new Error("the world did not settle");
}

/** What a device keeps: {key: characters (key and value)}. */
function sizes(d) {
  d.session.saveNow();
  d.session.save();
  return Object.fromEntries([...d.storage.data].map(([k, v]) => [k, k.length + v.length]).sort());
}

/** What a value costs as WebKit counts it (storage.js storedBytes, written again here so the bench
 * can measure the code before it too): its length, twice it with a character above U+00FF. */
const storedBytes = (text) => (/[\u0100-\uffff]/.test(text) ? 2 * text.length : text.length);

/** What a device keeps in bytes as WebKit counts them: {key: bytes (key and value)}. */
function bytes(d) {
  d.session.saveNow();
  d.session.save();
  return Object.fromEntries([...d.storage.data].map(([k, v]) => [k, storedBytes(k) + storedBytes(v)]).sort());
}

const handlers = {
  async world({ world, mj }) {
    const w = { devices: new Map(), links: new Map() };
    worlds.set(world, w);
    const storage = memoryStorage();
    const d = { name: "mj", role: "mj", storage, app: fakeApp(mj, storage) };
    newSession(d);
    w.devices.set("mj", d);
    await settle(w);
    return true;
  },
  async player({ world, name, doc }) {
    const storage = memoryStorage();
    const d = { name, role: "player", storage, app: fakeApp(doc, storage) };
    newSession(d);
    worlds.get(world).devices.set(name, d);
    return true;
  },
  async connect({ world, name }) {
    const w = worlds.get(world);
    const mj = device(w, "mj");
    const p = device(w, name);
    const [a, b] = memoryLinkPair({ manual: true });
    mj.session.attach({ link: a, memberId: p.session.me, name, key: p.session.key });
    p.session.attach({ link: b, memberId: p.session.me, name });
    w.links.set(name, [a, b]);
    const start = performance.now();
    await settle(w);
    // (what the phone received to catch up, and how long the in-memory sync took)
    return { received: b.received.reduce((n, m) => n + m.byteLength, 0), ms: performance.now() - start };
  },
  async ybase({ world, name }) {
    // What a phone's saved Y base holds: which docs, and its size.
    const d = device(worlds.get(world), name);
    d.session.save();
    const base = JSON.parse(d.storage.getItem("tablee.live.y"));
    return { public: typeof base?.public === "string", private: typeof base?.private === "string", chars: d.storage.getItem("tablee.live.y")?.length ?? 0 };
  },
  async disconnect({ world, name }) {
    const w = worlds.get(world);
    for (const link of w.links.get(name)) link.close();
    w.links.delete(name);
    await settle(w);
    return true;
  },
  async moves({ world, name, count, wait = true }) {
    // `count` rolls from the phone's page (app.call: a move); `wait`: each answered before the
    // next (a person's pace), else all sent at once (they wait while the link is down)
    const w = worlds.get(world);
    const d = device(w, name);
    const answers = [];
    for (let n = 0; n < count; n += 1) {
      const answer = d.app.call({ op: "roll", expr: "6d6kh4+2" });
      if (!wait) {
        answers.push(answer);
        await tick();
        continue;
      }
      // (a phone whose link is down keeps it waiting: answered "waiting" here, not awaited)
      let got = "waiting";
      answer.then((a) => {
        got = a;
      });
      for (let i = 0; i < 20 && got === "waiting"; i += 1) await settle(w);
      answers.push(got);
    }
    const out = wait ? answers : [];
    if (!wait) d.pending = answers;
    return out.map((a) => (a === "waiting" ? a : a?.logged ?? a?.error?.code ?? null));
  },
  async answered({ world, name }) {
    const d = device(worlds.get(world), name);
    const got = await Promise.all(d.pending ?? []);
    return got.map((a) => a?.logged ?? a?.error?.code ?? null);
  },
  async settle({ world }) {
    return settle(worlds.get(world));
  },
  async sizes({ world, name }) {
    return sizes(device(worlds.get(world), name));
  },
  async bytes({ world, name }) {
    return bytes(device(worlds.get(world), name));
  },
  async restart({ world, name, lose = false, wipeY = false }) {
    // The page reloads from what its storage holds (`lose`: a crash, the planned save lost;
    // `wipeY`: the Y state gone too, as a version before this one could lose it to a full storage).
    const w = worlds.get(world);
    const d = device(w, name);
    if (!lose) d.session.save();
    if (wipeY) for (const key of ["tablee.live.y", "tablee.live.y.delta"]) d.storage.removeItem(key);
    clearTimeout(d.session.saveTimer);
    d.session.saveTimer = null;
    d.session.stop();
    d.session.close();
    newSession(d);
    await settle(w);
    return true;
  },
  async oldCopy({ world, name }) {
    // The phone's Y state as a version before generations saved it (base64, no generation).
    const d = device(worlds.get(world), name);
    d.session.save();
    const base = JSON.parse(d.storage.getItem("tablee.live.y"));
    const whole = (doc) => toBase64Url(Y.encodeStateAsUpdate(doc));
    d.storage.setItem("tablee.live.y", JSON.stringify({ id: "old", role: "player", me: base.me,
      public: whole(d.session.publicDoc), private: whole(d.session.privateDocs.get(d.session.me)) }));
    d.storage.removeItem("tablee.live.y.delta");
    return true;
  },
  async state({ world }) {
    const w = worlds.get(world);
    const out = {};
    for (const [name, d] of w.devices) {
      out[name] = {
        doc: d.app.doc,
        epoch: d.session.epoch ?? null,
        queue: d.session.queue.length,
        joined: d.session.joined,
        backups: [...d.storage.data.keys()].filter((k) => k.startsWith("tablee.backup.")).length,
        accepted: d.role === "mj" ? d.app.accepted : [],
        public: readJson(d.session.publicDoc),
        view: d.role === "mj" ? playerView(d.app.doc) : null,
      };
    }
    return out;
  },
  async drop({ world }) {
    const w = worlds.get(world);
    for (const d of w.devices.values()) d.session.close();
    worlds.delete(world);
    return true;
  },
};

serveLines(handlers);

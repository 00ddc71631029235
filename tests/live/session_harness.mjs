// Test harness for static/js/live/session.js (the live table's session: a device's table
// document <-> the Y docs), run by tests/test_live_session.py in one `node` process: JSON lines
// in ({"id", "op", ...}), JSON lines out ({"id", "ok", "result"} or {"id", "ok": false, "error"}).
//
// A "world" is one MJ device and some player devices, each a fake app (the document, update,
// replaceDocument, onDocument, call) with its own storage, joined by in-memory links
// (sync.js's memoryLinkPair, held until the test delivers them). The MJ's `store.share` is a
// stand-in filter (the real one is Python, checked by the e2e test with the engine): it
// blanks each character's `secret`, drops every state's `mj` key, empties every pile shown to
// its owner (its cards left out, so a hand's cards are sentinels a test can look for in every
// byte a player received) and sorts the `draw` pile.
import { serveLines } from "./lines.mjs";
import { memoryLinkPair } from "../../static/js/live/sync.js";
import { Session, adopt, held, mergePublic, overlay, privateView, shared } from "../../static/js/live/session.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function memoryStorage() {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
  };
}

/** The stand-in for store.share (audience player). */
function playerView(doc) {
  const out = structuredClone(doc);
  delete out.quarantine;
  for (const c of out.characters) if (typeof c.secret === "string") c.secret = "";
  for (const state of Object.values(out.systems ?? {})) {
    if (!isObject(state)) continue;
    delete state.mj;
    if (isObject(state.piles)) {
      for (const pile of Object.values(state.piles)) if (pile.visibility === "owner") pile.cards = [];
      if (isObject(state.piles.draw)) state.piles.draw.cards.sort();
    }
  }
  return out;
}

function fakeApp(doc) {
  const listeners = new Set();
  const app = {
    doc,
    backups: [],
    notices: [],
    onDocument(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    changed() {
      for (const fn of listeners) fn(this.doc);
    },
    update(mutate) {
      const next = structuredClone(this.doc);
      mutate(next);
      this.doc = next;
      this.changed();
      return true;
    },
    replaceDocument(next) {
      this.backups.push(this.doc);
      this.doc = next;
      this.changed();
      return `backup-${this.backups.length}`;
    },
    async call(request) {
      await tick();
      if (request.op !== "store.share") return { error: { code: "unknown" } };
      return { kind: "table", audience: "player", data: playerView(request.data) };
    },
    notify(kind, text) {
      this.notices.push([kind, text]);
    },
    t: (key) => key,
  };
  return app;
}

const worlds = new Map();

function device(world, name) {
  const d = world.devices.get(name);
  if (!d) throw new Error(`no device ${name}`);
  return d;
}

/** What connect.js does with a session's "held" event: a notice on the device. */
function watched(session, app) {
  session.addEventListener("held", (e) => app.notify("warning", e.detail.mine ? "live.held_mine" : "live.held"));
  return session;
}

function newDevice(world, name, role, doc) {
  const app = fakeApp(structuredClone(doc));
  const storage = memoryStorage();
  const session = watched(new Session(app, { role, me: role === "player" ? `m-${name}` : null, name, storage }), app);
  const d = { name, role, app, storage, session, links: [] };
  world.devices.set(name, d);
  return d;
}

/** Open a link between the MJ and player `name` (held: deliver with "deliver"). */
function connect(world, name) {
  const mj = device(world, "mj");
  const p = device(world, name);
  const [a, b] = memoryLinkPair({ manual: true });
  mj.session.attach({ link: a, memberId: p.session.me, name });
  p.session.attach({ link: b, memberId: p.session.me, name });
  p.links.push(b);
  mj.links.push(a);
  world.links.set(name, [a, b]);
}

async function settle(world, order = null) {
  // Deliver everything (in the order given: link names, repeated), until nothing moves.
  for (let round = 0; round < 200; round += 1) {
    await tick();
    await tick();
    let moved = 0;
    const names = order ?? [...world.links.keys()];
    for (const name of names) {
      const pair = world.links.get(name);
      if (!pair) continue;
      for (const link of pair) moved += link.deliver(link.pending.length);
    }
    if (moved === 0 && round > 3) {
      await tick();
      const left = [...world.links.values()].some((pair) => pair.some((l) => l.pending.length && l.open));
      if (!left) return round;
    }
  }
  throw new Error("the world did not settle");
}

function received(world, name) {
  const pair = world.links.get(name);
  return pair ? pair[1].received.map((bytes) => Buffer.from(bytes).toString("latin1")) : [];
}

const handlers = {
  async world({ world, mj }) {
    worlds.set(world, { devices: new Map(), links: new Map(), received: new Map() });
    newDevice(worlds.get(world), "mj", "mj", mj);
    await settle(worlds.get(world));
    return true;
  },
  async player({ world, name, doc }) {
    newDevice(worlds.get(world), name, "player", doc);
    return true;
  },
  async connect({ world, name }) {
    connect(worlds.get(world), name);
    return true;
  },
  async disconnect({ world, name }) {
    const w = worlds.get(world);
    const pair = w.links.get(name);
    const was = w.received.get(name) ?? [];
    w.received.set(name, [...was, ...received(w, name)]);
    pair[1].close();
    pair[0].close();
    w.links.delete(name);
    await settle(w);
    return true;
  },
  async claim({ world, name, characters }) {
    device(worlds.get(world), name).session.claim(characters);
    return true;
  },
  async edit({ world, name, path, value }) {
    // Set (or delete, value undefined) one field of the device's table, as a view would.
    const d = device(worlds.get(world), name);
    d.app.update((doc) => {
      let node = doc;
      for (const key of path.slice(0, -1)) node = Array.isArray(node) ? node.find((x) => x.id === key) ?? node[key] : node[key];
      const last = path[path.length - 1];
      if (value === undefined) delete node[last];
      else node[last] = value;
    });
    return true;
  },
  async append({ world, name, key, value }) {
    const d = device(worlds.get(world), name);
    d.app.update((doc) => {
      doc[key].push(value);
    });
    return true;
  },
  async remove({ world, name, key, id }) {
    const d = device(worlds.get(world), name);
    d.app.update((doc) => {
      doc[key] = doc[key].filter((x) => x.id !== id);
    });
    return true;
  },
  async settle({ world, order }) {
    return settle(worlds.get(world), order);
  },
  async state({ world }) {
    const w = worlds.get(world);
    const out = {};
    for (const [name, d] of w.devices) {
      out[name] = {
        doc: d.app.doc,
        backups: d.app.backups.length,
        notices: d.app.notices,
        private: d.session.role === "player" ? d.session.privateContent() : null,
        presence: d.session.presence().map((p) => ({ id: p.id, name: p.name, role: p.role, here: p.here, characters: p.characters })),
        overwritten: d.session.overwritten,
        joined: d.session.joined,
        received: d.role === "player" ? [...(w.received.get(name) ?? []), ...received(w, name)] : [],
        projection: d.role === "mj" ? shared(playerView(d.app.doc)) : null,
      };
    }
    return out;
  },
  async saved({ world, name }) {
    const d = device(worlds.get(world), name);
    d.session.save();
    return JSON.parse(d.storage.getItem("tablee.live"));
  },
  async restart({ world, name }) {
    // The page reloads: the session is made again from the saved Y state.
    const w = worlds.get(world);
    const d = device(w, name);
    d.session.save();
    d.session.stop();
    const session = watched(new Session(d.app, { role: d.role, me: d.session.me, name, storage: d.storage }), d.app);
    d.session = session;
    return true;
  },
  pure({ fn, args }) {
    const fns = { adopt, held, mergePublic, overlay, privateView, shared };
    return fns[fn](...args);
  },
  async drop({ world }) {
    const w = worlds.get(world);
    for (const d of w.devices.values()) d.session.close();
    worlds.delete(world);
    return true;
  },
};

serveLines(handlers);

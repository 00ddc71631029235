// Test harness for the live table's JS (static/js/live/ydoc.js, sync.js): CPython cannot run
// Yjs, so tests/test_live_replication.py keeps one `node` process per test module and talks to it in JSON
// lines: one command per line on stdin ({"id", "op", ...}), one answer per line on stdout
// ({"id", "ok", "result"} or {"id", "ok": false, "error"}). Bytes cross as base64.
// `yjs`, `y-protocols` and `lib0` resolve from node_modules, as the import map does in the page.
import { serveLines } from "./lines.mjs";
import * as Y from "yjs";
import { Awareness } from "y-protocols/awareness";
import { mirror, readJson, writeJson } from "../../static/js/live/ydoc.js";
import { Hub, Member, memoryLinkPair } from "../../static/js/live/sync.js";

const b64 = (bytes) => Buffer.from(bytes).toString("base64");
const unb64 = (text) => new Uint8Array(Buffer.from(text, "base64"));
const tick = () => new Promise((resolve) => setImmediate(resolve));

// ---- replicas: named Y.Docs, each recording the updates it produced itself --------------------
const docs = new Map();

function replica(name) {
  const doc = docs.get(name);
  if (!doc) throw new Error(`no replica ${name}`);
  return doc;
}

function newReplica(name, from) {
  const doc = new Y.Doc();
  doc.own = [];
  doc.on("update", (update, origin) => {
    if (origin !== "remote") doc.own.push(update);
  });
  if (from !== undefined) Y.applyUpdate(doc, unb64(from), "remote");
  docs.set(name, doc);
  return doc;
}

/** Paths (JSON pointers, from the root map) every Y op of a transaction touched. */
function observeChanges(doc, fn) {
  const root = doc.getMap("json");
  const touched = [];
  let updates = 0;
  const onDeep = (events) => {
    for (const event of events) {
      const path = event.path.map(String);
      if (event.target instanceof Y.Map) {
        for (const key of event.keysChanged) touched.push([...path, key].join("/"));
      } else {
        touched.push([...path, "[]"].join("/"));
      }
    }
  };
  const onUpdate = () => {
    updates += 1;
  };
  root.observeDeep(onDeep);
  doc.on("update", onUpdate);
  try {
    fn();
  } finally {
    root.unobserveDeep(onDeep);
    doc.off("update", onUpdate);
  }
  return { touched: touched.sort(), updates };
}

// ---- a world: a hub and members over manual memory links ---------------------------------------
const worlds = new Map();

function newWorld(name, members, sentinels) {
  const hubPublic = new Y.Doc();
  const hubAwareness = new Awareness(hubPublic);
  hubAwareness.setLocalState({ name: "MJ", characters: [], role: "mj" });
  // the table the hub opens to players: members must receive it before they edit, as a
  // container created apart on two devices at one key keeps only one of them (see ydoc.js)
  writeJson(hubPublic, { characters: [], log: [] }, "hub");
  const hubPrivate = new Map();
  const hub = new Hub({
    publicDoc: hubPublic,
    privateDocFor: (id) => {
      if (!hubPrivate.has(id)) hubPrivate.set(id, new Y.Doc());
      return hubPrivate.get(id);
    },
    awareness: hubAwareness,
    maxBytes: 1 << 20,
  });
  const world = { hub, hubPublic, hubAwareness, hubPrivate, members: new Map(), sentinels };
  for (const id of members) {
    const publicDoc = new Y.Doc();
    const privateDoc = new Y.Doc();
    const awareness = new Awareness(publicDoc);
    awareness.setLocalState({ name: id, characters: [`c-${id}`], role: "player" });
    const member = new Member({ publicDoc, privateDoc, awareness, maxBytes: 1 << 20 });
    const entry = { member, publicDoc, privateDoc, awareness, links: null, received: [], syncedCalls: 0 };
    member.onsynced = () => {
      entry.syncedCalls += 1;
    };
    world.members.set(id, entry);
    // the hub's private doc for this member starts with its secret
    writeJson(hub.privateDocFor(id), { hand: [{ id: "card-1", name: sentinels[id] }] }, "hub");
  }
  worlds.set(name, world);
  return world;
}

function connect(world, id) {
  const m = world.members.get(id);
  const [hubEnd, memberEnd] = memoryLinkPair({ manual: true });
  const keep = memberEnd.received;
  m.links = { hubEnd, memberEnd };
  m.received.push(keep); // every array of bytes this member's links ever received
  world.hub.attach(hubEnd, id);
  m.member.attach(memberEnd);
}

function endsOf(world) {
  const ends = [];
  for (const [id, m] of world.members) {
    if (m.links) ends.push([`hub>${id}`, m.links.hubEnd], [`${id}>hub`, m.links.memberEnd]);
  }
  return new Map(ends);
}

function editJson(doc, origin, change) {
  const json = readJson(doc);
  change(json);
  writeJson(doc, json, origin);
}

function setCharacter(json, charId, field, value) {
  json.characters = Array.isArray(json.characters) ? json.characters : [];
  let record = json.characters.find((c) => c && c.id === charId);
  if (!record) {
    record = { id: charId, name: charId };
    json.characters.push(record);
  }
  record[field] = value;
}

function appendLog(json, entryId, text) {
  json.log = Array.isArray(json.log) ? json.log : [];
  json.log.push({ id: entryId, label: text });
}

function actorDocs(world, actor) {
  if (actor === "hub") return { publicDoc: world.hubPublic, origin: "hub-local" };
  const m = world.members.get(actor);
  return { publicDoc: m.publicDoc, privateDoc: m.privateDoc, origin: "member-local" };
}

async function flush(world) {
  for (let round = 0; round < 10000; round++) {
    await tick();
    let moved = 0;
    for (const end of endsOf(world).values()) moved += end.deliver(Infinity);
    await tick();
    if (!moved) return;
  }
  throw new Error("the world never settled");
}

async function runStep(world, step) {
  const [kind, ...args] = step;
  if (kind === "char") {
    const [actor, charId, field, value] = args;
    const { publicDoc, origin } = actorDocs(world, actor);
    editJson(publicDoc, origin, (json) => setCharacter(json, charId, field, value));
  } else if (kind === "log") {
    const [actor, entryId, text] = args;
    const { publicDoc, origin } = actorDocs(world, actor);
    editJson(publicDoc, origin, (json) => appendLog(json, entryId, text));
  } else if (kind === "priv") {
    // [priv, member, key, value]: the member writes its private doc;
    // [priv, "hub:"+member, key, value]: the hub writes that member's private doc
    const [actor, key, value] = args;
    const doc = actor.startsWith("hub:") ? world.hub.privateDocFor(actor.slice(4)) : world.members.get(actor).privateDoc;
    editJson(doc, actor.startsWith("hub:") ? "hub-local" : "member-local", (json) => {
      json[key] = value;
    });
  } else if (kind === "deliver") {
    const [endName, n] = args;
    const end = endsOf(world).get(endName);
    if (end) end.deliver(n);
  } else if (kind === "detach") {
    const m = world.members.get(args[0]);
    if (m.links) {
      m.member.detach();
      m.links = null;
    }
  } else if (kind === "attach") {
    const m = world.members.get(args[0]);
    if (!m.links) connect(world, args[0]);
  } else if (kind === "reload") {
    // the player's page reloads while away: new Y.Docs (new client id) restored from the saved
    // Y state (Y.encodeStateAsUpdate), a new awareness and Member
    const id = args[0];
    const m = world.members.get(id);
    if (m.links) {
      m.member.detach();
      m.links = null;
      await tick();
    }
    const state = { pub: Y.encodeStateAsUpdate(m.publicDoc), priv: Y.encodeStateAsUpdate(m.privateDoc) };
    const presenceState = m.awareness.getLocalState();
    m.member.destroy();
    m.awareness.destroy();
    m.publicDoc = new Y.Doc();
    m.privateDoc = new Y.Doc();
    Y.applyUpdate(m.publicDoc, state.pub, "restore");
    Y.applyUpdate(m.privateDoc, state.priv, "restore");
    m.awareness = new Awareness(m.publicDoc);
    m.awareness.setLocalState(presenceState);
    m.member = new Member({ publicDoc: m.publicDoc, privateDoc: m.privateDoc, awareness: m.awareness, maxBytes: 1 << 20 });
    m.member.onsynced = () => {
      m.syncedCalls += 1;
    };
  } else if (kind === "flush") {
    await flush(world);
  } else {
    throw new Error(`unknown step ${kind}`);
  }
  await tick();
}

function presence(awareness) {
  return Array.from(awareness.getStates().values())
    .map((s) => s.name)
    .filter((n) => typeof n === "string")
    .sort();
}

function worldView(world) {
  const members = {};
  for (const [id, m] of world.members) {
    const received = m.received.flat();
    const leaked = {};
    for (const [other, sentinel] of Object.entries(world.sentinels)) {
      const needle = Buffer.from(sentinel, "utf8");
      leaked[other] = received.some((bytes) => Buffer.from(bytes).includes(needle));
    }
    members[id] = {
      public: readJson(m.publicDoc),
      private: readJson(m.privateDoc),
      connected: m.member.connected,
      synced: m.member.synced,
      syncedCalls: m.syncedCalls,
      clientId: m.awareness.clientID,
      presence: presence(m.awareness),
      received: received.length,
      receivedBytes: received.reduce((n, b) => n + b.length, 0),
      leaked,
    };
  }
  const hubPrivate = {};
  for (const [id, doc] of world.hubPrivate) hubPrivate[id] = readJson(doc);
  return {
    hub: { clientId: world.hubAwareness.clientID, public: readJson(world.hubPublic), private: hubPrivate, presence: presence(world.hubAwareness),
      attached: world.hub.attached().sort() },
    members,
  };
}

function destroyWorld(world) {
  world.hub.destroy();
  world.hubAwareness.destroy();
  for (const m of world.members.values()) {
    m.member.destroy();
    m.awareness.destroy();
  }
}

// ---- commands ---------------------------------------------------------------------------------
const commands = {
  roundtrip: ({ json }) => {
    const doc = new Y.Doc();
    writeJson(doc, json, "test");
    const direct = readJson(doc);
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    return { direct, replicated: readJson(copy) };
  },
  // write A then B into one doc: what it reads, and what the second write touched
  // (`known`: each write is told what the doc holds, as the public doc's sole writer does)
  rewrite: ({ a, b, known = false }) => {
    const doc = new Y.Doc();
    writeJson(doc, a, "test");
    const held = known ? readJson(doc) : undefined;
    const changes = observeChanges(doc, () => writeJson(doc, b, "test", held));
    const again = observeChanges(doc, () => writeJson(doc, b, "test", known ? b : undefined));
    return { read: readJson(doc), ...changes, againUpdates: again.updates, againTouched: again.touched };
  },
  // a peer's update nesting maps `depth` deep (built without writeJson), read on another doc:
  // how deep the read goes before its null
  deep: ({ depth }) => {
    const doc = new Y.Doc();
    doc.transact(() => {
      let map = doc.getMap("json");
      for (let i = 0; i < depth; i++) {
        const child = new Y.Map();
        map.set("k", child);
        map = child;
      }
      map.set("k", "fond");
    });
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    let value = readJson(copy);
    let levels = 0;
    while (value !== null && typeof value === "object") {
      value = value.k;
      levels += 1;
    }
    return { levels, leaf: value };
  },
  new: ({ name, from }) => {
    newReplica(name, from);
    return null;
  },
  write: ({ name, json }) => {
    writeJson(replica(name), json, "local");
    return null;
  },
  read: ({ name }) => readJson(replica(name)),
  // follow a replica's JSON from its transactions' events (ydoc.js mirror)
  mirror: ({ name }) => {
    const doc = replica(name);
    doc.mirror?.stop();
    doc.mirror = mirror(doc);
    return null;
  },
  // the mirror's JSON and readJson's, as text (the key order compared too)
  mirrored: ({ name }) => {
    const doc = replica(name);
    return { mirror: JSON.stringify(doc.mirror.json), read: JSON.stringify(readJson(doc)) };
  },
  state: ({ name }) => b64(Y.encodeStateAsUpdate(replica(name))),
  // the updates this replica produced itself, since it was created
  own: ({ name }) => replica(name).own.map(b64),
  apply: ({ name, updates }) => {
    const doc = replica(name);
    for (const u of updates) Y.applyUpdate(doc, unb64(u), "remote");
    return null;
  },
  drop: () => {
    for (const doc of docs.values()) doc.destroy();
    docs.clear();
    return null;
  },
  world: async ({ name, members, sentinels, steps, settle = true }) => {
    const world = newWorld(name, members, sentinels);
    for (const id of members) connect(world, id);
    for (const step of steps) await runStep(world, step);
    if (settle) {
      for (const id of members) if (!world.members.get(id).links) connect(world, id);
      await flush(world);
    }
    return worldView(world);
  },
  world_step: async ({ name, steps }) => {
    const world = worlds.get(name);
    for (const step of steps) await runStep(world, step);
    return worldView(world);
  },
  // send raw bytes to the hub on a member's link, as a hostile or broken peer would
  world_inject: async ({ name, member, bytes }) => {
    const world = worlds.get(name);
    const m = world.members.get(member);
    m.links.hubEnd.onmessage(unb64(bytes));
    await tick();
    await tick();
    return { hubAttached: world.hub.attached().sort(), linkOpen: m.links.hubEnd.open, view: worldView(world) };
  },
  world_drop: ({ name }) => {
    const world = worlds.get(name);
    if (world) destroyWorld(world);
    worlds.delete(name);
    return null;
  },
};

serveLines(commands);

// Test harness for static/js/live/session.js (the live table's session: a device's table
// document <-> the Y docs), run by tests/test_live_session.py in one `node` process: JSON lines
// in ({"id", "op", ...}), JSON lines out ({"id", "ok", "result"} or {"id", "ok": false, "error"}).
//
// A "world" is one MJ device and some player devices, each a fake app (the document, update,
// replaceDocument, onDocument, call) with its own storage, joined by in-memory links
// (sync.js's memoryLinkPair, held until the test delivers them). The MJ's `store.share` is a
// stand-in filter (the real one is Python, checked by the e2e test with the engine): it
// blanks each character's `secret` and drops its `mj_notes`, drops every state's `mj` key, empties every pile shown to
// its owner (its cards left out, so a hand's cards are sentinels a test can look for in every
// byte a player received) and sorts the `draw` pile. Its `live.move` is a stand-in referee
// (the real one is py/tablee/referee.py, tested in Python): a sheet save of one's own
// character (a blanked `secret` keeps the MJ's), a log entry (dated here), and `test.draw`
// (the top card of the hidden draw pile into the character's own hand: hidden state); every
// move it accepts is recorded, in order, so a test can replay them. A world made with
// `referee` (a Python executable) runs the real referee instead (`realCall`), one Python process
// per move: a phone's moves of the five systems, checked as the MJ's device checks them.
import * as encoding from "lib0/encoding";
import { execFileSync } from "node:child_process";
import { serveLines } from "./lines.mjs";
import { memoryStorage } from "./memory_storage.mjs";
import { MESSAGE_MOVE, memoryLinkPair } from "../../static/js/live/sync.js";
import { MAX_QUEUE, Session, adopt, applyChanges, applyViewChanges, privateView, shared, tableChanges } from "../../static/js/live/session.js";
import { MAX_KEPT_ANSWERS } from "../../static/js/live/hub.js";
import { nameKey } from "../../static/js/live/names.js";
import { readJson, writeJson } from "../../static/js/live/ydoc.js";
import { toBase64Url } from "../../static/js/share/codec.js";
import * as Y from "yjs";

const tick = () => new Promise((resolve) => setImmediate(resolve));
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** The stand-in for store.share (audience player). */
function playerView(doc) {
  const out = structuredClone(doc);
  delete out.quarantine;
  if (Array.isArray(out.log)) out.log = out.log.filter((e) => !Object.hasOwn(e, "to")); // a secret roll, a roll sent to one player
  for (const c of out.characters) {
    if (typeof c.secret === "string") c.secret = "";
    delete c.mj_notes; // (a field only the MJ sees)
  }
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

/** The stand-in for live.private_log (py/tablee/share.py addressed_view, the one entry filter):
 * an entry sent to one player without its seed, its deck, Point Zéro's threshold and what is
 * left, and any character's secret; a secret roll of the MJ's (`to: "mj"`) never. */
function addressedView(entry) {
  if (!isObject(entry) || entry.to === "mj") return null;
  const out = structuredClone(entry);
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      for (const key of ["seed", "deck", "threshold", "left", "secret"]) delete node[key];
      Object.values(node).forEach(walk);
    }
  };
  walk(out.request);
  walk(out.result);
  return out;
}

const refusal = (code) => ({ error: { code, message_key: `error.${code}`, params: {} } });

/** The stand-in referee: [document, answer] or a refusal (see the header). */
function standInMove(doc, member, move, now) {
  const out = structuredClone(doc);
  const own = (id) => typeof id === "string" && member.characters.includes(id) && out.characters.some((c) => c.id === id);
  if (move.op === "live.character.save") {
    const c = move.character;
    if (isObject(c) && typeof c.id === "string" && !out.characters.some((x) => x.id === c.id)) {
      out.characters.push(c);
      return [out, { character: c, created: c.id }];
    }
    if (!isObject(c) || !own(c.id)) return refusal("live.refused.character");
    const at = out.characters.findIndex((x) => x.id === c.id);
    const full = out.characters[at];
    out.characters[at] = { ...c, secret: c.secret === "" ? full.secret : c.secret };
    return [out, { character: playerView({ characters: [out.characters[at]] }).characters[0] }];
  }
  if (move.op === "live.log.add") {
    const e = move.entry;
    if (!isObject(e) || typeof e.id !== "string" || out.log.some((x) => x.id === e.id)) return refusal("live.refused.invalid");
    out.log.push({ ...e, at: now });
    if (out.log.length > 1000) out.log.splice(0, out.log.length - 1000);
    return [out, { entry: e.id }];
  }
  if (move.op === "live.log.label") {
    const at = out.log.findIndex((e) => e.id === move.id && e.who === member.name);
    if (at < 0 || typeof move.label !== "string") return refusal("live.refused.character");
    out.log[at] = { ...out.log[at], label: move.label };
    return [out, { entry: out.log[at] }];
  }
  if (move.op === "test.damage") {
    // (a move answering a character, like Unicreon's health ops: the page writes it to show it)
    const id = move.character?.id;
    if (!own(id)) return refusal("live.refused.character");
    const at = out.characters.findIndex((x) => x.id === id);
    out.characters[at] = { ...out.characters[at], pv: out.characters[at].pv - (Number.isInteger(move.amount) ? move.amount : 1) };
    return [out, { character: playerView({ characters: [out.characters[at]] }).characters[0] }];
  }
  if (move.op === "test.draw") {
    const id = move.character?.id;
    if (!own(id)) return refusal("live.refused.character");
    const piles = out.systems.theorem.piles;
    const hand = piles[`hand-${id}`];
    if (!hand || !piles.draw.cards.length) return { applied: false, answer: refusal("theorem.empty") };
    hand.cards.push(piles.draw.cards.shift());
    if (move.log === true) {
      // (the referee's own entry for the move, as py/tablee/referee.py logs a roll: under the
      // words the move carried, referee.move_words)
      const entry = `live-${out.log.length}-${id}`;
      const label = typeof move.label === "string" ? move.label.slice(0, 200) : "";
      out.log.push({ id: entry, at: now, kind: "test.draw", system: null, label, who: member.name, request: {}, result: {} });
      return [out, { drawn: 1, logged: entry, state: playerView(out).systems.theorem }];
    }
    return [out, { drawn: 1, state: playerView(out).systems.theorem }];
  }
  return refusal("live.refused.not_a_move");
}

/** The real referee (py/tablee/referee.py), for a world made with `referee: <python>`: each
 * request runs `api.handle` in a Python process of its own (tests/live/referee_bridge.py), so no
 * worker holds a table (every move sends it whole). */
function python(executable, request) {
  const out = execFileSync(executable, ["tests/live/referee_bridge.py"], { input: JSON.stringify(request), maxBuffer: 64 << 20 });
  return JSON.parse(out.toString("utf-8"));
}

/** The MJ's `live.move` and a phone's `live.moves` answered by the real referee. */
function realCall(app, request) {
  if (request.op === "live.moves") return python(app.referee, { op: "live.moves" });
  if (Object.hasOwn(request, "held") && request.held !== app.worker.held?.rev) return { stale: true };
  const source = Object.hasOwn(request, "held") ? app.worker.held.doc : request.document;
  const { member, move, seed, now } = request;
  const r = python(app.referee, { op: "live.move", document: source, member, move, seed, now });
  if (!r.applied) return { ...r, rev: app.hold(source) };
  app.accepted.push({ member, move, now });
  const projection = Object.hasOwn(request, "view") ? { data: playerView(r.document) } : undefined;
  return { applied: true, document: r.document, answer: r.answer, rev: app.hold(r.document), projection };
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
    update(mutate, options = {}) {
      const next = structuredClone(this.doc);
      mutate(next);
      if (options.record !== false) this.recorded += 1; // (kept to undo: this person's change)
      this.doc = next;
      this.changes += 1;
      if (!this.holdWrites) this.written = this.changes; // (saved at once, unless the test holds the writes)
      this.changed();
      return true;
    },
    changes: 0,
    recorded: 0,
    written: 0,
    holdWrites: false,
    changeCount() {
      return this.changes;
    },
    async saved(upTo = Infinity) {
      while (this.written < Math.min(upTo, this.changes)) await tick();
    },
    addLog(entry) {
      const record = { id: `log-${Math.random().toString(36).slice(2)}`, at: new Date().toISOString(), system: null, ...entry };
      return this.update((doc) => {
        doc.log.push(record);
      });
    },
    replaceDocument(next) {
      this.backups.push(this.doc);
      this.doc = next;
      this.changed();
      return `backup-${this.backups.length}`;
    },
    accepted: [],
    // The worker's held table, as py/tablee/held.py keeps it: {rev, doc} (a copy: what crossed
    // as JSON), the requests that named another revision, and the ones that sent the table.
    worker: { held: null, revs: 0, stale: 0, whole: 0 },
    hold(doc) {
      this.worker.revs += 1;
      this.worker.held = { rev: `rev-${this.worker.revs}-${Math.random().toString(36).slice(2)}`, doc: structuredClone(doc) };
      return this.worker.held.rev;
    },
    async call(request) {
      await tick();
      // (`app`, not `this`: a phone's session calls it as its own localCall)
      if (app.referee && (request.op === "live.moves" || request.op === "live.move")) return realCall(app, request);
      // (the one entry filter, py/tablee/share.py addressed_view, the real one in such a world)
      if (app.referee && request.op === "live.private_log") return python(app.referee, request);
      // (the MJ's engine answering a phone's request that needs no table: py/tablee/relay.py)
      if (app.referee && request.op === "live.relay") return python(app.referee, request);
      // (a phone's own engine, told apart from the MJ's: remote-engine.js)
      if (request.op === "odds") return { engine: "this device's" };
      if (request.op === "live.moves") return { moves: ["live.character.save", "live.log.add", "live.log.label", "test.draw", "test.damage"] };
      if (request.op === "live.move") {
        // (`churn`: the MJ changes the table while the referee runs this many moves)
        if (this.churn > 0) {
          this.churn -= 1;
          this.update((doc) => {
            doc.name = `${doc.name}·`;
          });
        }
        let source = request.document;
        if (Object.hasOwn(request, "held")) {
          if (request.held !== this.worker.held?.rev) {
            this.worker.stale += 1;
            return { stale: true };
          }
          source = this.worker.held.doc;
        } else {
          this.worker.whole += 1;
        }
        const r = standInMove(source, request.member, request.move, request.now);
        if (!Array.isArray(r)) return { ...r, rev: Object.hasOwn(request, "held") ? request.held : this.hold(source) };
        this.accepted.push({ member: request.member, move: request.move, now: request.now });
        const rev = this.hold(r[0]);
        // the public view of the table the move made, answered with it when asked for (`view`)
        const projection = Object.hasOwn(request, "view") ? { data: playerView(r[0]) } : undefined;
        return { applied: true, document: structuredClone(r[0]), answer: r[1], rev, projection };
      }
      if (request.op === "local.echo") return { echo: true };
      if (request.op === "live.private_log") return { entries: request.entries.map(addressedView) };
      if (request.op !== "store.share") return { error: { code: "unknown" } };
      let data = request.data;
      if (Object.hasOwn(request, "held")) {
        // the changes of an MJ's edit against the table held (py/tablee/share.py apply_changes)
        if (request.held !== this.worker.held?.rev) {
          this.worker.stale += 1;
          return { stale: true };
        }
        data = Object.assign(applyChanges({ ...this.worker.held.doc }, request.changes), request.changes.top ?? {});
        this.worker.edits = (this.worker.edits ?? 0) + 1;
      }
      const keep = request.hold && !this.worker.sharesOnly;
      return { kind: "table", audience: "player", data: playerView(data), ...(keep ? { rev: this.hold(structuredClone(data)) } : {}) };
    },
    notify(kind, text) {
      this.notices.push([kind, text]);
    },
    // (the words of a move, as the catalogue's live.op.* give them)
    t: (key) => (key.startsWith("live.op.") ? `words of ${key.slice(8)}` : key),
  };
  return app;
}

const worlds = new Map();

function device(world, name) {
  const d = world.devices.get(name);
  if (!d) throw new Error(`no device ${name}`);
  return d;
}

/** What connect.js does with a session's "refused" event: a notice on the device. A player's
 * moves as sent are recorded (`app.sentMoves`: {id, move}), to send one again. */
function watched(session, app) {
  session.addEventListener("refused", (e) => app.notify("warning", e.detail.code ?? "live.refused.identity"));
  if (session.member) {
    app.sentMoves = app.sentMoves ?? [];
    const send = session.member.send.bind(session.member);
    session.member.send = (id, move) => {
      const sent = send(id, move);
      if (sent) app.sentMoves.push({ id, move });
      return sent;
    };
  }
  return session;
}

function newDevice(world, name, role, doc, called = null) {
  const app = fakeApp(structuredClone(doc));
  const storage = memoryStorage();
  // (`called`: the name its person typed, when not the device's: what its session announces)
  const session = watched(new Session(app, { role, me: role === "player" ? `m-${name}` : null, key: `key-${name}`, name: called ?? name, storage }), app);
  // The table's pace (hub.js rateWait) is not what these tests check, but for the one that
  // sets it (`rate`): the others send moves far faster than a person does.
  if (role === "mj") session.rate = { perMinute: 600_000, burst: 10_000 };
  const d = { name, role, app, storage, session, links: [] };
  world.devices.set(name, d);
  return d;
}

/** Open a link between the MJ and player `name` (held: deliver with "deliver"). */
function connect(world, name, { as = null, key = null, called = null } = {}) {
  const mj = device(world, "mj");
  const p = device(world, name);
  const [a, b] = memoryLinkPair({ manual: true });
  // `as`: answer for another member's id (a hostile phone), with `key` (its own by default);
  // `called`: under another name than the device's
  const admitted = mj.session.attach({ link: a, memberId: as ?? p.session.me, name: called ?? name, key: key ?? p.session.key });
  if (!admitted) {
    if (!a.open) return false;
    // refused but told why (a name already at the table): the phone's side is up, as a real
    // link's is, and hears it before the link closes
    p.session.attach({ link: b, memberId: p.session.me, name: called ?? name });
    world.links.set(name, [a, b]);
    return false;
  }
  p.session.attach({ link: b, memberId: p.session.me, name: called ?? name });
  p.links.push(b);
  mj.links.push(a);
  world.links.set(name, [a, b]);
  return true;
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
  async world({ world, mj, referee = null }) {
    worlds.set(world, { devices: new Map(), links: new Map(), received: new Map() });
    newDevice(worlds.get(world), "mj", "mj", mj).app.referee = referee;
    worlds.get(world).referee = referee;
    await settle(worlds.get(world));
    return true;
  },
  async player({ world, name, doc, called = null }) {
    newDevice(worlds.get(world), name, "player", doc, called).app.referee = worlds.get(world).referee;
    return true;
  },
  async connect({ world, name, as = null, key = null, called = null }) {
    return connect(worlds.get(world), name, { as, key, called });
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
    // the player asks, the MJ confirms (what the live pages do)
    const w = worlds.get(world);
    const p = device(w, name);
    p.session.ask(characters);
    await settle(w);
    device(w, "mj").session.assign(p.session.me, characters);
    await settle(w);
    return true;
  },
  async recognise({ world, name }) {
    // The MJ's « C'est Léa : lui rendre sa place » for the device `name` waiting (admission.js)
    const w = worlds.get(world);
    return device(w, "mj").session.recognise(device(w, name).session.me);
  },
  async refuseClaim({ world, name }) {
    const w = worlds.get(world);
    return device(w, "mj").session.refuseClaim(device(w, name).session.me);
  },
  async ask({ world, name, characters }) {
    device(worlds.get(world), name).session.ask(characters);
    return true;
  },
  async assign({ world, name, characters }) {
    const w = worlds.get(world);
    device(w, "mj").session.assign(device(w, name).session.me, characters);
    return true;
  },
  async call({ world, name, request, write = null }) {
    // a page's engine call on this device (a move goes to the referee); the answer is kept, and
    // counted (`shown`: how many results the page got). With `write`, the page writes the
    // character the answer carries into its table to show it ("now", or "late": when the test
    // says, `pageWrite`, as a page busy elsewhere would).
    const d = device(worlds.get(world), name);
    d.answers = d.answers ?? [];
    d.shown = d.shown ?? [];
    d.late = d.late ?? [];
    const slot = d.answers.length;
    d.answers.push(null);
    d.shown.push(0);
    d.app.call(request).then((answer) => {
      d.answers[slot] = answer;
      d.shown[slot] += 1;
      const c = answer?.character;
      if (!write || !isObject(c)) return;
      const show = () => d.app.update((doc) => {
        doc.characters = doc.characters.map((x) => (x.id === c.id ? structuredClone(c) : x));
      });
      if (write === "late") d.late.push(show);
      else show();
    });
    return slot;
  },
  async undo({ world, name }) {
    // The player's « Annuler » (app.js undoEntry asks the live session first)
    const d = device(worlds.get(world), name);
    d.undone = null;
    d.app.liveUndo().then((done) => {
      d.undone = done;
    });
    return true;
  },
  async undone({ world, name }) {
    return device(worlds.get(world), name).undone;
  },
  async pageWrite({ world, name }) {
    const d = device(worlds.get(world), name);
    const late = (d.late ?? []).splice(0);
    for (const show of late) show();
    return late.length;
  },
  async shown({ world, name }) {
    return device(worlds.get(world), name).shown ?? [];
  },
  async deliver({ world, name, side, skipAnswers = false }) {
    // Hand over what one side of a player's link holds ("up": the phone's to the MJ's device,
    // "down": the MJ's to the phone), then let the devices run; `skipAnswers`: the answers of
    // moves stay held (delivered later: an answer that comes late).
    const w = worlds.get(world);
    const [mjEnd, playerEnd] = w.links.get(name);
    const from = side === "up" ? playerEnd : mjEnd;
    let n = 0;
    if (skipAnswers) {
      const held = from.pending.filter((bytes) => bytes[0] === 3);
      from.pending.splice(0, from.pending.length, ...from.pending.filter((bytes) => bytes[0] !== 3));
      n = from.deliver(from.pending.length);
      from.pending.push(...held);
    } else n = from.deliver(from.pending.length);
    for (let i = 0; i < 5; i += 1) await tick();
    return n;
  },
  async untilAnswered({ world, name }) {
    // Run the MJ's device until the answer of a move of `name` waits on its link (applied,
    // not yet received by the phone).
    const [mjEnd] = worlds.get(world).links.get(name);
    for (let i = 0; i < 500; i += 1) {
      if (mjEnd.pending.some((bytes) => bytes[0] === 3)) return true;
      await tick();
    }
    throw new Error("no answer came");
  },
  async resend({ world, name, times = 1 }) {
    // The phone sends its last move again, under the same id (what a phone does with a move
    // whose answer it never received).
    const d = device(worlds.get(world), name);
    const last = d.app.sentMoves.at(-1);
    for (let i = 0; i < times; i += 1) d.session.member.send(last.id, last.move);
    return last.id;
  },
  async resendAt({ world, name, back }) {
    // The phone sends its move `back` moves before the last again, under the same id.
    const d = device(worlds.get(world), name);
    const sent = d.app.sentMoves.at(-back);
    d.session.member.send(sent.id, sent.move);
    return sent.id;
  },
  bounds() {
    // what the MJ's saved session keeps of each member's answers, and what a phone keeps waiting
    return { kept: MAX_KEPT_ANSWERS, queue: MAX_QUEUE };
  },
  async answers({ world, name }) {
    return device(worlds.get(world), name).answers ?? [];
  },
  async cancel({ world, name }) {
    const d = device(worlds.get(world), name);
    return d.session.queue.map((q) => q.id).filter((id) => d.session.cancel(id)).length;
  },
  async hostile({ world, name, kind, value = null }) {
    // what a hostile phone can do with its own link, past its own session's code
    const w = worlds.get(world);
    const d = device(w, name);
    const link = w.links.get(name)[1];
    if (kind === "write") writeJson(d.session.publicDoc, value); // Member sends the update
    else if (kind === "write-private") writeJson(d.session.privateDocs.get(d.session.me), value);
    else if (kind === "presence") d.session.awareness.setLocalState(value);
    else if (kind === "move") d.session.member.send(`raw-${Math.random()}`, value);
    else if (kind === "bytes") link.send(Uint8Array.from(value));
    else if (kind === "oversize") {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, MESSAGE_MOVE);
      encoding.writeVarString(e, "");
      encoding.writeVarString(e, JSON.stringify({ id: "big", move: { op: "live.log.add", junk: "x".repeat(value) } }));
      link.send(encoding.toUint8Array(e));
    }
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
  async addLog({ world, name, entry }) {
    // a page logs a result on this device (app.addLog)
    return device(worlds.get(world), name).app.addLog(entry);
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
        presence: d.session.presence().map((p) => ({ id: p.id, name: p.name, role: p.role, here: p.here, characters: p.characters, asked: p.asked })),
        assigned: d.session.assigned(),
        queue: d.session.queue.map((q) => q.move.op),
        queueLabels: d.session.queue.map((q) => q.label ?? null),
        feed: d.session.feed,
        claims: d.role === "mj" ? d.session.pendingClaims().map((c) => ({ id: c.id, name: c.name, as: c.as, characters: c.characters })) : [],
        unseen: d.session.unseen,
        accepted: d.role === "mj" ? d.app.accepted : [],
        recorded: d.app.recorded,
        open: d.role === "player" ? Boolean(d.session.member.connected) : null,
        joined: d.session.joined,
        received: d.role === "player" ? [...(w.received.get(name) ?? []), ...received(w, name)] : [],
        projection: d.role === "mj" ? shared(playerView(d.app.doc)) : null,
      };
    }
    return out;
  },
  async saved({ world, name }) {
    // What the device keeps after a save: its record, the Y docs' base and the updates since.
    const d = device(worlds.get(world), name);
    d.session.save();
    const read = (key) => JSON.parse(d.storage.getItem(key));
    return { record: read("tablee.live"), base: read("tablee.live.y"), delta: read("tablee.live.y.delta") };
  },
  async ydocs({ world, name }) {
    // The device's Y docs as JSON (the public one, and each private one by member).
    const d = device(worlds.get(world), name);
    return { public: readJson(d.session.publicDoc), private: Object.fromEntries([...d.session.privateDocs].map(([id, doc]) => [id, readJson(doc)])) };
  },
  async legacy({ world, name }) {
    // The device's session as a version before the Y keys saved it: the Y state in the record.
    const d = device(worlds.get(world), name);
    d.session.save();
    const record = JSON.parse(d.storage.getItem("tablee.live"));
    const whole = (doc) => toBase64Url(Y.encodeStateAsUpdate(doc));
    record.public = whole(d.session.publicDoc);
    record.private = d.role === "mj" ? Object.fromEntries([...d.session.privateDocs].map(([id, doc]) => [id, whole(doc)])) : whole(d.session.privateDocs.get(d.session.me));
    d.storage.setItem("tablee.live", JSON.stringify(record));
    d.storage.removeItem("tablee.live.y");
    d.storage.removeItem("tablee.live.y.delta");
    return true;
  },
  async restartAsIs({ world, name }) {
    // The page reloads from what its storage holds now (no save first: a crash).
    const w = worlds.get(world);
    const d = device(w, name);
    d.session.stop();
    clearTimeout(d.session.saveTimer); // (its planned save never happens)
    d.session.saveTimer = null;
    d.session.close();
    d.session = watched(new Session(d.app, { role: d.role, me: d.session.me, key: d.session.key, name, storage: d.storage }), d.app);
    return true;
  },
  async restart({ world, name }) {
    // The page reloads: the session is made again from the saved Y state.
    const w = worlds.get(world);
    const d = device(w, name);
    d.session.save();
    d.session.stop();
    d.session.close();
    const session = watched(new Session(d.app, { role: d.role, me: d.session.me, key: d.session.key, name, storage: d.storage }), d.app);
    d.session = session;
    return true;
  },
  nameKeys({ names }) {
    // the key names are compared by at the table (static/js/live/names.js)
    return names.map(nameKey);
  },
  pure({ fn, args }) {
    const fns = { adopt, applyChanges, applyViewChanges, privateView, shared, tableChanges };
    return fns[fn](...args);
  },
  replay({ mj, accepted }) {
    // the stand-in referee applied to `mj` in the order the hub accepted the moves
    let doc = structuredClone(mj);
    for (const { member, move, now } of accepted) {
      const r = standInMove(doc, member, move, now);
      if (!Array.isArray(r)) throw new Error(`replay refused ${move.op}`);
      doc = r[0];
    }
    return doc;
  },
  async worker({ world, forget = false, sharesOnly = null }) {
    // The MJ's stand-in worker: what it holds against the MJ's table (`forget`: the worker
    // started again, holding nothing; `sharesOnly`: its projection does not hold the table, so
    // an MJ's edit leaves it holding the table before).
    const mj = device(worlds.get(world), "mj");
    const { held, stale, whole } = mj.app.worker;
    if (forget) mj.app.worker.held = null;
    if (sharesOnly !== null) mj.app.worker.sharesOnly = sharesOnly;
    return { stale, whole, rev: held?.rev ?? null, same: held !== null && JSON.stringify(held.doc) === JSON.stringify(mj.app.doc),
      session: mj.session.held?.rev ?? null };
  },
  async engine({ world, name, state }) {
    // This device's own engine: "loading" (the MJ's answers what needs no table, remote-engine.js)
    // or "ready"; boot.js sets app.engine.state, the session follows it.
    const d = device(worlds.get(world), name);
    d.app.engine ??= { state: "ready", relayed: false };
    d.app.engine.state = state;
    d.app.rerender = () => {
      d.app.rerenders = (d.app.rerenders ?? 0) + 1;
    };
    d.session.engineUpdate();
    return { relayed: d.app.engine.relayed };
  },
  async relayRate({ world, perMinute, burst }) {
    device(worlds.get(world), "mj").session.relayRate = { perMinute, burst };
    return true;
  },
  async feed({ world }) {
    return device(worlds.get(world), "mj").session.feed;
  },
  async churn({ world, count }) {
    // The MJ changes the table during the next `count` runs of the referee (each run of a move
    // is tried three times on a table that changed, then answered "busy").
    device(worlds.get(world), "mj").app.churn = count;
    return true;
  },
  async rate({ world, perMinute, burst }) {
    device(worlds.get(world), "mj").session.rate = { perMinute, burst };
    return true;
  },
    async sleep({ ms }) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return true;
  },
  async writes({ world, name = "mj", hold }) {
    // Hold this device's saves (a slow storage), or let them all happen.
    const app = device(worlds.get(world), name).app;
    app.holdWrites = hold;
    if (!hold) app.written = app.changes;
    return true;
  },
  async drop({ world }) {
    const w = worlds.get(world);
    for (const d of w.devices.values()) d.session.close();
    worlds.delete(world);
    return true;
  },
};

serveLines(handlers);

// The evening's states in the live layer, run in Node by tests/test_live_closing_and_lost_links.py: the MJ's
// closing reaches every phone as a message before its link closes (sync.js Hub.farewell), and a
// link whose connection is lost for a while says so and comes back by itself, or closes after
// its grace (link.js RtcLink). Prints one JSON object of outcomes.
import * as Y from "yjs";
import { Awareness } from "y-protocols/awareness";
import { Hub, Member, memoryLinkPair, TABLE_CLOSED } from "../../static/js/live/sync.js";
import { DISCONNECT_GRACE_MS, RtcLink } from "../../static/js/live/link.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));
const out = {};

// ---- closing: two members hear TABLE_CLOSED, then their links close
{
  const hubDoc = new Y.Doc();
  const hub = new Hub({ publicDoc: hubDoc, privateDocFor: () => new Y.Doc(), awareness: new Awareness(hubDoc), epoch: "e1" });
  const members = [];
  for (const id of ["member-aaaa1", "member-bbbb2"]) {
    const [a, b] = memoryLinkPair();
    hub.attach(a, id);
    const doc = new Y.Doc();
    const member = new Member({ publicDoc: doc, privateDoc: new Y.Doc(), awareness: new Awareness(doc) });
    const heard = [];
    member.onanswer = (mid, answer) => heard.push({ id: mid, code: answer?.error?.code ?? null });
    member.attach(b);
    members.push({ member, heard, link: b });
  }
  for (let i = 0; i < 20; i++) await tick();
  const before = members.map((m) => m.member.connected);
  // The first phone closes its side on hearing it (as connect.js does); the second one does not.
  members[0].member.onanswer = (mid, answer) => {
    members[0].heard.push({ id: mid, code: answer?.error?.code ?? null });
    if (answer?.error?.code === TABLE_CLOSED) members[0].member.detach();
  };
  const started = Date.now();
  await hub.farewell(300);
  for (let i = 0; i < 10; i++) await tick();
  out.close = {
    code: TABLE_CLOSED,
    before,
    heard: members.map((m) => m.heard),
    connected: members.map((m) => m.member.connected),
    attached: hub.attached(),
    waitedMs: Date.now() - started,
  };
}

// ---- a lost connection: "unstable", then back ("steady"), or closed after the grace
function fakes() {
  const pc = new EventTarget();
  pc.connectionState = "connected";
  pc.sctp = null;
  pc.closed = 0;
  pc.close = () => { pc.closed += 1; };
  const channel = new EventTarget();
  Object.assign(channel, { readyState: "open", bufferedAmount: 0, send() {}, close() { channel.readyState = "closed"; } });
  const state = (s) => { pc.connectionState = s; pc.dispatchEvent(new Event("connectionstatechange")); };
  return { pc, channel, state };
}
{
  // Timers held by the test: the grace runs when the test says.
  const timers = [];
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms, live: true }); return timers.length - 1; };
  globalThis.clearTimeout = (id) => { if (timers[id]) timers[id].live = false; };
  try {
    const events = [];
    const { pc, channel, state } = fakes();
    const link = new RtcLink(pc, channel);
    for (const e of ["unstable", "steady", "close"]) link.addEventListener(e, () => events.push(e));
    const start = link.unstable;
    state("disconnected");
    const lost = { unstable: link.unstable, open: link.open, grace: timers.filter((t) => t.live).map((t) => t.ms) };
    state("connected");
    const back = { unstable: link.unstable, open: link.open, pending: timers.filter((t) => t.live).length };
    state("disconnected");
    for (const t of timers.filter((x) => x.live)) { t.live = false; t.fn(); }
    const gone = { unstable: link.unstable, open: link.open, pcClosed: pc.closed };
    out.lost = { start, lost, back, gone, events, grace: DISCONNECT_GRACE_MS };
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
}

process.stdout.write(JSON.stringify(out));
process.exit(0);

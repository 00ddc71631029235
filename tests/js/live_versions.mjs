// Node script for tests/test_live_version_exchange.py: two ends of a live link (static/js/live/sync.js
// Hub and Member over memoryLinkPair) of the same or different versions, and what each learns
// of the other; the referee's refusals worded by versions (static/js/live/versions.js).
import * as Y from "yjs";
import * as encoding from "lib0/encoding";
import { Awareness } from "y-protocols/awareness";
import { Hub, Member, MESSAGE_VERSION, memoryLinkPair } from "../../static/js/live/sync.js";
import { OURS, PROTOCOL, versionedAnswer, whoUpdates } from "../../static/js/live/versions.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));
const settle = async () => {
  for (let i = 0; i < 20; i++) await tick();
};

const kindsOf = (messages) => messages.map((bytes) => bytes[0]);

/** A hub of version `hubVersion` and a member of `memberVersion` (null: a Tablée of before the
 * exchange of versions), linked; `extra(hubEnd)` may send raw bytes from the hub's end. */
async function table(hubVersion, memberVersion, extra = null) {
  const hubDoc = new Y.Doc();
  hubDoc.getMap("json").set("name", "Table");
  const learned = { hub: [], member: [] };
  const hub = new Hub({
    publicDoc: hubDoc, privateDocFor: () => new Y.Doc(), awareness: new Awareness(hubDoc), epoch: "gen-1",
    version: hubVersion, onversion: (id, v) => learned.hub.push([id, v]),
  });
  const memberDoc = new Y.Doc();
  const member = new Member({ publicDoc: memberDoc, privateDoc: new Y.Doc(), awareness: new Awareness(memberDoc), version: memberVersion });
  member.onversion = (v) => learned.member.push(v);
  const answers = [];
  member.onanswer = (id, answer) => answers.push([id, answer]);
  const [hubEnd, memberEnd] = memoryLinkPair();
  hub.attach(hubEnd, "m-lea");
  member.attach(memberEnd);
  await settle();
  if (extra) {
    extra(hubEnd);
    await settle();
  }
  const show = (v) => (v === null ? null : { build: v.build, protocol: v.protocol === Infinity ? "newer" : v.protocol });
  return {
    hubLearned: learned.hub.map(([id, v]) => [id, show(v)]),
    memberLearned: learned.member.map(show),
    memberConnected: member.connected,
    memberSynced: member.synced,
    memberHasTable: memberDoc.getMap("json").get("name") ?? null,
    hubAttached: hub.attached(),
    kindsToMember: kindsOf(memberEnd.received),
    kindsToHub: kindsOf(hubEnd.received),
    answers,
    hubSays: whoUpdates(hubVersion ?? { protocol: 0 }, learned.hub[0]?.[1]),
    memberSays: whoUpdates(memberVersion ?? { protocol: 0 }, learned.member[0]),
  };
}

/** A message of kind 9 (a kind a newer Tablée might add), sent from the hub's end. */
function unknownKind(link) {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 9);
  encoding.writeVarString(encoder, "");
  encoding.writeVarString(encoder, "{}");
  link.send(encoding.toUint8Array(encoder));
}

const other = { build: "someotherbuild", protocol: PROTOCOL };
const newer = { build: "newbuild", protocol: PROTOCOL + 1 };
const invalid = (params) => ({ error: { code: "request.invalid", message_key: "error.request.invalid", params } });
const out = {
  ours: OURS,
  messageVersion: MESSAGE_VERSION,
  sameProtocol: await table(OURS, other),
  newerPhone: await table(OURS, newer),
  newerMj: await table(newer, OURS),
  olderPhone: await table(OURS, null),
  olderMj: await table(null, OURS),
  unknownKind: await table(OURS, OURS, unknownKind),
  answers: {
    unknownField: versionedAnswer(invalid({ op: "pointzero.test.roll", field: "test", rule: "additionalProperties", extra: "advantage" }), OURS),
    unknownFieldNoExtra: versionedAnswer(invalid({ field: "test", rule: "additionalProperties" }), OURS),
    olderPhoneShape: versionedAnswer(invalid({ field: "test.kind", rule: "enum" }), { build: "", protocol: 0 }),
    sameShape: versionedAnswer(invalid({ field: "test.kind", rule: "enum" }), OURS),
    notShape: versionedAnswer({ error: { code: "live.refused.conflict", params: {} } }, { build: "", protocol: 0 }),
    accepted: versionedAnswer({ logged: "e1" }, OURS),
  },
};
process.stdout.write(JSON.stringify(out), () => process.exit(0)); // (presence keeps a timer)

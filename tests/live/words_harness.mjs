// Test harness for the words a phone's move carries (static/js/live/member.js, worded by
// static/js/views/log-words.js withWords) and how another device reads the entry the referee
// logs with them (labelOf, summaryOf), run by tests/test_live_words.py in one `node` process
// (JSON lines, tests/live/lines.mjs). The referee between them is the real one, in Python.
//
// - `move` {lang, request}: the move a phone in `lang` sends for a page's engine call (the
//   member's `move`, on a link that is up): what crosses to the MJ's device.
// - `label` {lang, logged, carried, entry}: what the page's addLog that follows a move (the
//   entry the referee logged as `logged`, under the words `carried`) sends: a `live.log.label`
//   move or null. The entry's label and summary are given as parts said in `lang` (`said`).
// - `read` {lang, entry}: the entry's label, result line and signer on a page in `lang`.
// - `said` {lang, parts}: parts said in `lang` (a part is text or [key, params], said by t).
import { serveLines } from "./lines.mjs";
import { i18n, loadEveryLanguage } from "../js/page_i18n.mjs";

const { labelOf, signerOf, summaryOf } = await import("../../static/js/views/log-words.js");
const { memberMethods } = await import("../../static/js/live/member.js");
await loadEveryLanguage();

const say = (parts) => (typeof parts === "string" ? parts : parts.map((p) => (typeof p === "string" ? p : i18n.t(p[0], p[1] ?? {}))).join(""));

/** A player's session as member.js sees it, its link up: what it sends is kept in `sent`. */
function phone() {
  const sent = [];
  const session = Object.assign(Object.create(memberMethods), {
    app: { t: i18n.t },
    role: "player",
    queue: [],
    waiting: new Map(),
    waitingShown: new Map(),
    member: { synced: true, send: (id, move) => sent.push(move) > 0 },
    saveSoon() {},
    emit() {},
    showTable() {},
  });
  return { session, sent };
}

serveLines({
  move({ lang, request }) {
    i18n.setLanguage(lang);
    const { session, sent } = phone();
    session.move(request);
    return sent[0] ?? null;
  },
  label({ lang, logged: id, carried, entry }) {
    i18n.setLanguage(lang);
    const { session, sent } = phone();
    Object.assign(session, { joined: true, moveOps: new Set([entry.request.op]), logged: id });
    session.keepCarried(id, carried);
    const made = { ...entry, label: say(entry.label), ...(entry.summary ? { result: { summary: say(entry.summary) } } : {}) };
    delete made.summary;
    session.addLog(made);
    return sent[0] ?? null;
  },
  read({ lang, entry }) {
    i18n.setLanguage(lang);
    return { label: labelOf(entry), summary: summaryOf(entry), signer: signerOf(entry) };
  },
  said({ lang, parts }) {
    i18n.setLanguage(lang);
    return say(parts);
  },
});

// "Vérifier / rejouer" ("the roll's seed is jargon: keep it for verification behind a
// control, not on every roll"). A roll or test result records, next to its request (which holds
// the seed), a digest of the outcome fields of the engine's answer (`verifyRecord`). The control
// sends the same request again (same seed: the rules are pure and every roll uses
// registry.rng_from(request)) and says whether the outcome is identical, showing the seed there.
//
// Log entries are untrusted (imported tables): the record is read with Object.hasOwn and checked
// for shape; the request goes to the engine, which validates it against its op's schema. A roll
// of the dice tray (op "roll", logged with its total and dice) is checked against the logged
// total and dice themselves. A Versality or Théorem draw depends on the deck as it stood too:
// it is logged with that deck (`request.deck`: draw pile top first, and discard) and the digest
// of the cards drawn, and replayed by the system's replay op (`DECK_REPLAYS`), which draws again
// from that deck with that seed. A player's copy of such an entry has neither (the share filters
// take out the deck and every seed of a Théorem or Versality entry: with the public discard, a
// seed tells a hidden deck's order, py/tablee/systems/theorem/share.py): it keeps its digest, so
// the control is offered (`offersVerify`) and says that the draw cannot be replayed there.
// The result line is checked too: when the replay's outcome is the same, the words the rules
// give that outcome (py/tablee/referee_words.py) must be the entry's (`lineFollows`), else the
// control says the line does not follow from the replay (an older entry's included).

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";

/** Canonical JSON: object keys sorted, so equal values give equal text. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** FNV-1a over the UTF-16 code units, twice with different offsets: 16 hex digits. */
function digestText(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    b ^= b >>> 15;
  }
  return a.toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

function pickKeys(obj, keys) {
  const out = {};
  for (const k of keys) out[k] = obj && typeof obj === "object" && Object.hasOwn(obj, k) ? obj[k] : null;
  return out;
}

/** The digest of the outcome fields `keys` of an engine answer. */
export function outcomeDigest(response, keys) {
  return digestText(canonical(pickKeys(response, keys)));
}

/** What a log entry's result keeps to verify a replay: {keys, digest}. */
export function verifyRecord(response, keys) {
  return { keys: [...keys], digest: outcomeDigest(response, keys) };
}

const ROLL_KEYS = ["total", "terms"];

/** The seed of a logged request: its own, or for a player's draw from a hidden pile logged by
 * the live table's referee, the one kept inside its deck (py/tablee/referee_log.py: the share
 * filters take the deck out, so no phone gets that seed). */
export function seedOf(request) {
  if (!request || typeof request !== "object") return null;
  if (Object.hasOwn(request, "seed")) return request.seed;
  const deck = Object.hasOwn(request, "deck") ? request.deck : null;
  return deck && typeof deck === "object" && Object.hasOwn(deck, "seed") ? deck.seed : null;
}

/** A logged deck as it stood, checked for shape (the engine checks its cards). */
function deckOf(request) {
  const deck = Object.hasOwn(request, "deck") ? request.deck : null;
  return deck && typeof deck === "object" && Array.isArray(deck.draw) && Array.isArray(deck.discard)
    ? { draw: deck.draw, discard: deck.discard } : null;
}

/** The draws replayed from their deck: logged op -> the replay request (null: not replayable). */
const DECK_REPLAYS = new Map([
  ["theorem.action.draw", (rq, deck) => ({ op: "theorem.draw.replay", kind: "action", deck, seed: seedOf(rq) })],
  ["theorem.opposition.draw", (rq, deck) => ({ op: "theorem.draw.replay", kind: "opposition", deck, seed: seedOf(rq) })],
  ["theorem.chase.round", (rq, deck) => ({ op: "theorem.draw.replay", kind: "chase", deck, seed: seedOf(rq) })],
  ["theorem.opposition.side", (rq, deck) => ({ op: "theorem.draw.replay", kind: "side", deck, seed: seedOf(rq) })],
  ["versality.test.draw", (rq, deck) => (Number.isInteger(rq.count) ? { op: "versality.draw.replay", deck, count: rq.count, seed: seedOf(rq) } : null)],
]);

/** The request that replays a logged request: itself, or for a deck draw its replay op's. */
function replayRequest(request) {
  if (!DECK_REPLAYS.has(request.op)) return request;
  const deck = deckOf(request);
  return deck ? DECK_REPLAYS.get(request.op)(request, deck) : null;
}

/** An entry's result line as logged (its text, its words and their language), for the replay
 * to check it follows (`lineFollows`). */
function lineOf(entry, result) {
  const summary = result && typeof result === "object" && typeof result.summary === "string" ? result.summary : "";
  const words = Object.hasOwn(entry, "summary_words") && Array.isArray(entry.summary_words) ? entry.summary_words : null;
  const lang = Object.hasOwn(entry, "words_lang") && typeof entry.words_lang === "string" ? entry.words_lang : null;
  return { summary, words, lang };
}

/** The ids of a list of cards (anything else: null). */
const idsOf = (cards) => (Array.isArray(cards) ? cards.map((c) => (c && typeof c === "object" ? c.id : null)) : null);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A draw from a hidden pile replays through its own op (theorem.draw.replay,
 * versality.draw.replay), which gives the cards drawn, not the outcome: its result line is
 * checked against the outcome the entry logged (`result`, the referee's answer), once the
 * cards that outcome names are the replay's (`agrees`). `name`: the op whose words the line
 * is (a Versality test's is its resolution's). */
const LOGGED_LINES = new Map([
  ["theorem.action.draw", { agrees: (res, drawn) => res?.result?.card?.id === drawn?.[0]?.[0] }],
  ["theorem.opposition.draw", { agrees: (res, drawn) => same(idsOf(res?.result?.chain_a), drawn?.[0]) && same(idsOf(res?.result?.chain_b), drawn?.[1]) }],
  ["theorem.opposition.side", { agrees: (res, drawn) => same(idsOf(res?.chain), drawn?.[0]) }],
  ["versality.test.draw", { name: "versality.test.resolve",
    agrees: (res, drawn) => Array.isArray(drawn?.[0]) && drawn[0].includes(res?.result?.played?.id) }],
]);

/** The logged outcome a draw's line is checked against (LOGGED_LINES), or null. */
function loggedLine(request, result) {
  const how = LOGGED_LINES.get(request.op);
  if (!how || !result || typeof result !== "object") return null;
  const resolve = request.resolve && typeof request.resolve === "object" ? request.resolve : null;
  if (how.name && !resolve) return null;
  return { name: how.name ?? request.op, request: how.name ? resolve : request, answer: result, agrees: how.agrees };
}

/** How an (untrusted) log entry can be checked: {request, keys, digest, line} or null. */
export function checkOf(entry) {
  const request = entry && Object.hasOwn(entry, "request") ? entry.request : null;
  const result = entry && Object.hasOwn(entry, "result") ? entry.result : null;
  if (!request || typeof request !== "object" || typeof request.op !== "string" || seedOf(request) === null) return null;
  const record = result && typeof result === "object" && Object.hasOwn(result, "verify") ? result.verify : null;
  if (record && Array.isArray(record.keys) && record.keys.length <= 12 && record.keys.every((k) => typeof k === "string" && k.length <= 40)
    && typeof record.digest === "string") {
    const replay = replayRequest(request);
    if (!replay) return null;
    const line = lineOf(entry, result);
    if (replay !== request) line.logged = loggedLine(request, result);
    return { request: replay, keys: record.keys, digest: record.digest, line };
  }
  if (request.op === "roll" && result && Object.hasOwn(result, "total") && Array.isArray(result.terms)) {
    return { request, keys: ROLL_KEYS, digest: outcomeDigest(result, ROLL_KEYS), line: lineOf(entry, result) };
  }
  return null;
}

const SPACES = /[\s\u00a0\u202f]+/g;
const plain = (text) => String(text ?? "").replace(SPACES, " ").trim();

/** Whether a replayed answer `r` gives the result line `line` an entry was logged with: the
 * words the referee and the pages make from an op's answer (py/tablee/referee_words.py,
 * `live.outcome_words`, with the names of the table's records), said in the entry's words' language (French for an entry without
 * words). An op with no outcome words (a plain roll of dice) follows only with no result
 * line; an op the rules give no words for here (a draw: its line is its page's) is not judged
 * (true). A forged line (« Réussite critique » on a roll of 58, or words that say another
 * outcome) does not follow. */
async function lineFollows(call, check, r, names) {
  const line = check.line;
  if (!line) return true;
  if (Object.hasOwn(line, "logged")) return loggedLineFollows(call, line, r, names);
  const said = await call({ op: "live.outcome_words", name: check.request.op, request: check.request, answer: r, lang: line.lang ?? "fr", ...names });
  return saidFollows(line, said);
}

/** The catalogue keys `words` use, their values' own words included. */
function keysOf(words, into = new Set()) {
  for (const seg of Array.isArray(words) ? words : []) {
    if (!Array.isArray(seg) || typeof seg[0] !== "string") continue;
    into.add(seg[0]);
    for (const value of Object.values(seg[1] && typeof seg[1] === "object" ? seg[1] : {})) keysOf(value, into);
  }
  return into;
}

/** Whether `line` is the one `said` (live.outcome_words) gives: the same text, and words (what
 * a reader in another language reads) made of the referee's keys only. A page reads its line
 * back into words from the text (log-words.js wordsOf), and may leave a name or a card as text
 * where the referee keyed it (« PNJ moyen 2 »): that reads as written in every language,
 * never as another outcome. Words a reader would not take (that no longer say the text in
 * their language: log-words.js stillSays) show the text instead. */
function saidFollows(line, said) {
  if (!said || said.error || said.known !== true) return true;
  if (said.summary === null) return line.summary === "" && line.words === null;
  if (plain(line.summary) !== plain(said.summary)) return false;
  const own = keysOf(said.words);
  return [...keysOf(line.words)].every((key) => own.has(key));
}

/** A hidden pile's draw (LOGGED_LINES): its line must be the words of the outcome it logged,
 * and that outcome must name the cards the replay drew. An entry that logged no outcome (a
 * page's own, `{summary, verify}`) cannot be judged past its cards: not judged. */
async function loggedLineFollows(call, line, r, names) {
  const logged = line.logged;
  if (!logged) return true;
  const said = await call({ op: "live.outcome_words", name: logged.name, request: logged.request, answer: logged.answer, lang: line.lang ?? "fr", ...names });
  if (!said || said.error || said.known !== true || said.summary === null) return true;
  if (!logged.agrees(logged.answer, r.drawn)) return false;
  return saidFollows(line, said);
}

/** Whether a log entry offers "Vérifier / rejouer": it holds its seed, or the digest of a result
 * whose seed a player's copy does not carry (the control then says it cannot be replayed here,
 * never a seed). */
export function offersVerify(entry) {
  if (!entry || typeof entry !== "object") return false;
  const request = Object.hasOwn(entry, "request") ? entry.request : null;
  if (seedOf(request) !== null) return true;
  const result = Object.hasOwn(entry, "result") ? entry.result : null;
  return Boolean(request && typeof request === "object" && typeof request.op === "string"
    && result && typeof result === "object" && Object.hasOwn(result, "verify"));
}

/** State of each control, by its key: {status: busy|same|different|error|unavailable, seed}. */
const states = new Map();

/** What the replay of `check` (checkOf) says, `call` running the engine: "same", "different"
 * (another outcome), "words" (the same outcome, but a result line that does not follow from
 * it: `lineFollows`) or "error". */
export async function replayStatus(call, check, characters = null) {
  const r = await call(check.request);
  if (r.error) return "error";
  if (outcomeDigest(r, check.keys) !== check.digest) return "different";
  // The dice replay the same: the result line must follow from them too (a line a phone wrote).
  return (await lineFollows(call, check, r, namesOf(characters))) ? "same" : "words";
}

/** The names a result line takes from the table's records (a side of an opposition), as
 * live.outcome_words takes them: {names: {id: name}}, or nothing. */
function namesOf(characters) {
  if (!Array.isArray(characters)) return {};
  const names = {};
  for (const c of characters.slice(0, 500)) {
    if (c && typeof c === "object" && typeof c.id === "string" && typeof c.name === "string") names[c.id] = c.name.slice(0, 200);
  }
  return { names };
}

async function run(app, key, check, seed) {
  if (states.get(key)?.status === "busy") return; // the button stays focusable meanwhile
  if (!check) {
    states.set(key, { status: "unavailable", seed });
    app.rerender();
    return;
  }
  states.set(key, { status: "busy", seed });
  app.rerender();
  // On a live table's phone, app.call sends a roll to the MJ's device as a move (it would roll
  // again, with another seed, and log it): a replay runs on this device's engine.
  const status = await replayStatus(app.callHere ?? app.call, check, app.doc?.characters);
  states.set(key, { status, seed });
  app.rerender();
}

/**
 * The control: a "Vérifier / rejouer" button and, once pressed, the answer (identical or not)
 * with the seed. `key` names the control (a log entry id); `check` is `checkOf(entry)` or
 * `{request, keys, digest}` (null: not replayable); `seed` the seed to show.
 */
export function verifyControl(app, key, check, seed = seedOf(check?.request)) {
  const state = states.get(key);
  const id = `verify-${key}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const ready = app.engine.state === "ready";
  let text = "";
  if (state?.status === "busy") text = t("verify.busy");
  else if (state?.status === "same") text = t("verify.same");
  else if (state?.status === "different") text = t("verify.different");
  else if (state?.status === "words") text = t("verify.words_differ");
  else if (state?.status === "error") text = t("verify.error");
  else if (state?.status === "unavailable") text = t("verify.unavailable");
  return html`<div class="verify" data-testid="verify">
    <button type="button" class="verify-button small" id=${id} aria-describedby=${`${id}-out`}
      ?disabled=${!ready} aria-busy=${state?.status === "busy" ? "true" : "false"} @click=${() => run(app, key, check, seed)}>${t("verify.button")}</button>
    <p class="verify-out small" id=${`${id}-out`} role="status" data-testid="verify-out" data-status=${state?.status ?? "idle"}>${text
      ? html`<span class=${state.status === "same" ? "outcome-ok" : state.status === "different" || state.status === "words" ? "outcome-bad" : ""}>${text}</span>${seed !== null && seed !== undefined
        ? html` <span class="muted">${t("verify.seed", { seed: String(seed) })}</span>` : nothing}` : nothing}</p>
  </div>`;
}

/** Forget the answer of a control (a new roll under the same key). */
export function forgetVerify(key) {
  states.delete(key);
}

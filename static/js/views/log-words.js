// A log entry's words in the reader's language. The pages word an entry's label and result line
// from the catalogues (static/i18n) in the language of the device that logged it; a table is read
// on other devices, in other languages. So the entry also keeps how it was worded
// (`label_words`, `summary_words`: the text cut into the catalogue keys it was made of, with
// their parameters, and the literal text between them) and the log page, the home page and the
// live feed say it again in the reader's language (`labelOf`, `summaryOf`). An entry without
// them (written before, or by a page whose words are not in the catalogue) is read as French
// when the reader's language is not, and otherwise shown as it was written.
//
// The words are found from the text itself when the entry is logged (`withWords`, called by
// app.addLog), among the texts of the entry's system (`<system>.…` keys): a whole sentence
// with placeholders ("Opposition contre {name}"), else the longest catalogue texts that stand
// as whole words in it ("Physique + Athlétisme · Difficile"), the rest kept as written (names,
// numbers, dice). A character's name or a player's note is never a key of its own: only what a
// catalogue text of the system matches is reworded.

import { LANGUAGES, catalogue, ensureLanguage, fill, frenchSpaced, has, language, t, tn } from "../i18n.js";

/** Bounds, the same as the store's (py/tablee/store.py, _check_words) and guard.js. */
export const MAX_SEGMENTS = 24;
export const MAX_PARAMS = 8;
const MIN_PLAIN = 3; // a shorter catalogue text ("Or", "PV") is too easily part of a name

const SPACES = /[\u00a0\u202f]/g;
const norm = (s) => String(s).replace(SPACES, " ");
const WORDISH = /[\p{L}\p{N}]/u;

/** tables object -> system -> {plain, templated}, rebuilt when a namespace loads. */
const built = new WeakMap();

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The catalogue texts a system's entry may be worded from, in `lang`: the system's, and what
 * « Annuler » logs ("Annulé : Fiche modifiée : Ana", `undo.`) for any entry. */
function candidates(lang, system) {
  const table = catalogue(lang);
  let bySystem = built.get(table);
  if (!bySystem) built.set(table, (bySystem = new Map()));
  let found = bySystem.get(system ?? "");
  if (found) return found;
  const prefixes = system ? [`${system}.`, "undo."] : ["undo."];
  const plain = [];
  const templated = [];
  const exact = new Map(); // a whole text -> its key ("Table modifiée")
  for (const [key, raw] of Object.entries(table)) {
    if (!prefixes.some((p) => key.startsWith(p)) || typeof raw !== "string") continue;
    const text = norm(lang === "fr" ? frenchSpaced(raw) : raw);
    if (!text.includes("{")) {
      if (!exact.has(text)) exact.set(text, key);
      // Single words of « Annuler »'s are not looked for: a note may say "Annuler" in its own words.
      if (key.startsWith(`${system}.`) && Array.from(text).length >= MIN_PLAIN && WORDISH.test(text)) plain.push({ key, text });
      continue;
    }
    // A sentence with placeholders: literal parts matched as written, each {name} a value.
    const names = [];
    let pattern = "";
    let literal = "";
    let last = 0;
    let ok = true;
    let anchor = ""; // its longest literal part: a text without it is not tried (no backtracking)
    for (const m of text.matchAll(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g)) {
      const piece = text.slice(last, m.index);
      literal += piece;
      // French elides before a vowel when a value is filled in (i18n.fill): "de {suit}" reads "d'épée".
      const elided = lang === "fr" && m[2] === undefined ? ELIDED.exec(piece) : null;
      const kept = elided ? piece.slice(0, elided.index + elided[1].length) : piece;
      if (kept.length > anchor.length) anchor = kept;
      pattern += elided
        ? `${escape(piece.slice(0, elided.index + elided[1].length))}(?:${escape(elided[2])} |${escape(elided[2].slice(0, -1))}')`
        : escape(piece);
      last = m.index + m[0].length;
      if (m[2] !== undefined) {
        if (!names.includes(m[1])) ok = false; // a plural form alone: its number is not in the text
        pattern += `(?:${escape(m[2])}|${escape(m[3])})`;
      } else if (names.includes(m[1])) {
        pattern += `\\k<${m[1]}>`;
      } else {
        names.push(m[1]);
        pattern += `(?<${m[1]}>.+?)`;
      }
    }
    literal += text.slice(last);
    pattern += escape(text.slice(last));
    if (text.slice(last).length > anchor.length) anchor = text.slice(last);
    if (!ok || names.length > MAX_PARAMS) continue;
    let regex;
    try {
      regex = new RegExp(`^${pattern}$`, "u");
    } catch {
      continue; // a placeholder no group can be named after ("{0}"): never matched
    }
    // Enough words of its own to tell it from a name ("{a} / {b}" is not a sentence): a shorter
    // one ("{rank} de {suit}") is only a value's, and only when its values are catalogue text.
    const short = (literal.match(/\p{L}/gu) ?? []).length < 4;
    templated.push({ key, regex, anchor, size: literal.length, names, short });
  }
  plain.sort((a, b) => b.text.length - a.text.length);
  templated.sort((a, b) => b.size - a.size);
  found = { plain, templated, exact };
  bySystem.set(system ?? "", found);
  return found;
}

const ELIDED = /(^|[\s(«"'’])(de|De|le|Le|la|La|que|Que|ne|Ne|je|Je|se|Se|me|Me|te|Te|lorsque|puisque|jusque) $/;

/** Where `needle` stands as whole words in `hay`, or -1. */
function wholeAt(hay, needle) {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return -1;
    const before = i > 0 ? hay[i - 1] : "";
    const after = hay[i + needle.length] ?? "";
    const edgeIn = WORDISH.test(needle[0]) && before && WORDISH.test(before);
    const edgeOut = WORDISH.test(needle.at(-1)) && after && WORDISH.test(after);
    // Not a word inside a sentence of someone's ("la fête de Mental"): a catalogue text in a
    // label stands between signs ("Physique + Combattre · Facile", "Cuisine (45)").
    const prev = hay.slice(0, i).replace(/ $/, "").at(-1) ?? "";
    const next = hay.slice(i + needle.length).replace(/^ /, "")[0] ?? "";
    const inSentence = /\p{L}/u.test(prev) || /\p{L}/u.test(next);
    if (!edgeIn && !edgeOut && !inSentence) return i;
    from = i + 1;
  }
}

function cut(text, plain, out) {
  if (!text) return;
  for (const { key, text: value } of plain) {
    const at = wholeAt(text, value);
    if (at < 0) continue;
    cut(text.slice(0, at), plain, out);
    out.push([key]);
    cut(text.slice(at + value.length), plain, out);
    return;
  }
  if (typeof out.at(-1) === "string") out[out.length - 1] += text;
  else out.push(text);
}

/** How deep a value's own words may go: "Tirage : {card}", "{rank} de {suit}", "Valet". */
export const MAX_DEPTH = 2;

/** Whether words are all catalogue text (what is left between keys has no letter). */
const whole = (words) => Array.isArray(words) && words.every((seg) => Array.isArray(seg) || !/\p{L}/u.test(seg));
/** A value with no letter of its own ("6"), or catalogue text. */
const bare = (v) => Array.isArray(v) || !/\p{L}/u.test(v);
const SEPARATOR = / — | · /;
/** Placeholders that hold someone's name: never reworded, even "Valet" or "Combat". */
const PERSON = new Set(["name", "a", "b", "d", "who", "target", "winner", "loser", "attacker", "defender", "healer",
  "owner", "character", "actor", "side", "player", "from", "to", "member", "fighter", "source", "team", "names"]);

/**
 * The words of `text` as logged in `lang` by a page of `system` (or null: the entry of no
 * system): [segment, …], a segment being literal text or [key] or [key, {name: value}], a value
 * being text or, when it is all catalogue text itself, its words ("Annulé : {label}" with
 * "Fiche modifiée : {name}"; down to MAX_DEPTH); null when no catalogue text is in it (a dice
 * expression, a note) or it would not fit the store's bounds.
 */
export function wordsOf(text, lang, system, depth = 0) {
  if (typeof text !== "string" || !text.trim() || (system !== null && typeof system !== "string")) return null;
  const found = candidates(lang, system);
  const s = norm(text);
  const one = sentence(s, found, lang, system, depth);
  let out = one ? [one] : null;
  if (!out) {
    // Parts a page joined with " — " or " · " ("Tirage : Valet d'épée — Humanité + Escrime"):
    // each a sentence of its own, or cut into catalogue texts.
    out = [];
    for (const [i, part] of s.split(/( — | · )/).entries()) {
      if (i % 2) cut(part, found.plain, out);
      // A catalogue text may hold sentences of its own (« Bof. C'est passé de justesse »): the
      // part whole first, then its sentences one after the other ("Égalité. Réussite (Marge +3)").
      else if (!clause(part, found, lang, system, depth, out)) {
        for (const [j, one] of part.split(/((?<=[.!?]) )/).entries()) {
          if (j % 2 || !clause(one, found, lang, system, depth, out)) cut(one, found.plain, out);
        }
      }
    }
    out = out.reduce((all, seg) => {
      if (typeof seg === "string" && typeof all.at(-1) === "string") all[all.length - 1] += seg;
      else all.push(seg);
      return all;
    }, []);
  }
  if (!out.some((seg) => Array.isArray(seg)) || out.length > MAX_SEGMENTS) return null;
  if (JSON.stringify(out).length > 2000) return null;
  if (out.some((seg) => (typeof seg === "string" ? seg.length > 200 : seg[0].length > 80 || Object.values(seg[1] ?? {}).some((v) => typeof v === "string" && v.length > 200)))) return null;
  return out;
}

/** `part` as one catalogue text, or one followed by figures in brackets ("Alice l'emporte
 * (11 / 7)"), added to `out`; false (nothing added) when it is neither. */
function clause(part, found, lang, system, depth, out) {
  const said = sentence(part, found, lang, system, depth);
  if (said) {
    out.push(said);
    return true;
  }
  const bracket = /^(.+?)( \([^()]*\)\.?)$/.exec(part);
  const head = bracket ? sentence(bracket[1], found, lang, system, depth) : null;
  if (!head) return false;
  out.push(head);
  cut(bracket[2], found.plain, out);
  return true;
}

/** `s` as one catalogue text: [key] or [key, params] (a value all catalogue text given as its
 * own words, down to MAX_DEPTH), or null. */
function sentence(s, { templated, exact }, lang, system, depth) {
  if (exact.has(s)) return [exact.get(s)];
  // Of the sentences as long that match (one text under two keys, "Apprentissage : {name}" and
  // "… : {skill}"), the one whose values are catalogue text.
  let best = null;
  for (const { key, regex, anchor, names, short, size } of templated) {
    if (best && size < best.size) break;
    if ((short && depth === 0) || !s.includes(anchor)) continue;
    const m = regex.exec(s);
    // A value running over a page's separator is the next part's, not this sentence's.
    if (!m || names.some((n) => SEPARATOR.test(m.groups[n]))) continue;
    const params = Object.fromEntries(names.map((n) => {
      const sub = depth < MAX_DEPTH && !PERSON.has(n) ? wordsOf(m.groups[n], lang, system, depth + 1) : null;
      return [n, whole(sub) ? sub : m.groups[n]];
    }));
    // A short one is a value's only when its own values are catalogue text or numbers:
    // "Valet d'épée", "6 de bâton", never someone's "Pierre de Lune".
    if (short && !Object.values(params).every(bare)) continue;
    const worded = Object.values(params).filter(Array.isArray).length;
    if (!best || worded > best.worded) best = { size, worded, found: [key, params] };
  }
  return best?.found ?? null;
}

/** A segment [key, params] with its params' own words said (`sayWords`): [key, params], or
 * [key, null] when one of them cannot be. */
function saidParams(seg, sayWords) {
  const params = {};
  for (const [name, value] of Object.entries(seg[1] ?? {})) {
    params[name] = Array.isArray(value) ? sayWords(value) : value;
    if (params[name] === null) return [seg[0], null];
  }
  return [seg[0], params];
}

/** `words` (wordsOf) said in the page's language, or null when a key is unknown here. */
export function say(words) {
  if (!Array.isArray(words) || !words.length) return null;
  let out = "";
  for (const seg of words) {
    if (typeof seg === "string") {
      out += seg;
      continue;
    }
    if (!Array.isArray(seg) || typeof seg[0] !== "string" || !has(seg[0])) return null;
    const [key, params = {}] = saidParams(seg, say);
    if (!params) return null;
    const plural = /^(.*)_(one|other)$/.exec(key);
    const n = Number(params.n ?? params.count);
    out += plural && Number.isFinite(n) && ("n" in params || "count" in params) ? tn(plural[1], n, params) : t(key, params);
  }
  return language() === "fr" ? frenchSpaced(out) : out;
}

/** `words` said in `lang` from its catalogue alone, or null when one of its keys is not loaded. */
function sayIn(words, lang) {
  const table = catalogue(lang);
  let out = "";
  for (const seg of words) {
    if (typeof seg === "string") {
      out += seg;
      continue;
    }
    const [key, params] = saidParams(seg, (sub) => sayIn(sub, lang));
    if (!params) return null;
    const plural = /^(.*)_(one|other)$/.exec(key);
    const n = Number(params.n ?? params.count);
    const form = plural && Number.isFinite(n) ? `${plural[1]}_${new Intl.PluralRules(lang).select(n)}` : key;
    const template = table[form] ?? table[key];
    if (typeof template !== "string") return null;
    out += fill(template, params, lang);
  }
  return out;
}

/** The languages asked for to check an entry's words (loaded once, then the page is drawn again). */
const asked = new Set();

/** Whether `words` still say `text` in `lang`, the language they were worded in: the page that
 * logged an entry may change its text later (a choice of dice re-words its result line, the
 * live table labels a phone's entry), and words that no longer say it are stale. When that
 * language's texts are not loaded here (an English entry on a French page) they are loaded
 * and the page drawn again (`app.rerender`); until then the text is shown as written. */
function stillSays(words, text, lang, app) {
  if (!Array.isArray(words) || typeof text !== "string" || !LANGUAGES.includes(lang)) return false;
  const said = sayIn(words, lang);
  if (said === null) {
    if (!asked.has(lang)) {
      asked.add(lang);
      ensureLanguage(lang).then(() => app?.rerender?.());
    }
    return false;
  }
  return norm(said) === norm(text);
}

/** The entry as logged, with the words of its label and result line (app.addLog; a phone's
 * move carries them to the referee's entry, live/member.js). `labelKey`: the catalogue key
 * the label was said from when the caller knows it (the words a phone's move waits under,
 * `live.op.<op>`, which are no text of a system): its words when the label is that text. */
export function withWords(entry, { labelKey = null } = {}) {
  if (!entry || typeof entry !== "object") return entry;
  const lang = language();
  const keyed = typeof labelKey === "string" && typeof catalogue(lang)[labelKey] === "string"
    && typeof entry.label === "string" && norm(entry.label) === norm(fill(catalogue(lang)[labelKey], {}, lang));
  const label = keyed ? [[labelKey]] : wordsOf(entry.label, lang, entry.system ?? null);
  const summary = wordsOf(entry.result?.summary, lang, entry.system ?? null);
  if (!label && !summary) return entry;
  return { ...entry, ...(label ? { label_words: label } : {}), ...(summary ? { summary_words: summary } : {}), words_lang: lang };
}

/** How much of a text its words found in the catalogue (its length less the literal text). */
function covered(words) {
  return (words ?? []).reduce((n, seg) => n + (typeof seg === "string" ? -seg.length : 1000), 0);
}

/** An older entry's text read as French (the language every table was logged in before), when
 * more of it is French catalogue text than the reader's: "Cuisine (cook) (45)" is already English. */
const olderMemo = new Map();
function older(text, system) {
  if (language() === "fr" || typeof text !== "string" || (system !== null && typeof system !== "string")) return null;
  const memoKey = `${language()}\u0000${system}\u0000${text}`;
  if (!olderMemo.has(memoKey)) {
    if (olderMemo.size > 2000) olderMemo.clear();
    const french = wordsOf(text, "fr", system);
    const own = french && wordsOf(text, language(), system);
    olderMemo.set(memoKey, french && (!own || covered(french) > covered(own)) ? french : null);
  }
  return say(olderMemo.get(memoKey));
}

/** Who an entry is signed by, as the log shows it: its `who` (the acting character's name, as
 * the page signs it), and for an entry a live table's referee wrote for a member (`member`: the
 * link's, py/tablee/referee_kernel.py stamp) that member's name when `who` does not end with it
 * already ("Mira (Léa)"): a phone whose character is named "MJ" reads "MJ (Léa)", never as the
 * MJ. Never from an entry's words: they say its label and result line only. */
export function signerOf(e) {
  const who = typeof e?.who === "string" ? e.who : "";
  const name = typeof e?.member?.name === "string" ? e.member.name.trim() : "";
  if (!name || who === name || who.endsWith(`(${name})`)) return who;
  return who ? `${who} (${name})` : name;
}

/** An entry's label in the reader's language (its stored label when its words are unknown). */
export function labelOf(e, app = null) {
  return (stillSays(e.label_words, e.label, e.words_lang, app) ? say(e.label_words) : null) ?? older(e.label, e.system ?? null) ?? e.label;
}

/** An entry's result line in the reader's language, or "" when it has none. */
export function summaryOf(e, app = null) {
  const summary = typeof e.result?.summary === "string" ? e.result.summary : "";
  if (!summary) return "";
  return (stillSays(e.summary_words, summary, e.words_lang, app) ? say(e.summary_words) : null) ?? older(summary, e.system ?? null) ?? summary;
}

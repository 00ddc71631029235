// A result line read back into words as a page does (static/js/views/log-words.js wordsOf, what
// app.addLog stores), from the words the referee gives it (say): for tests/test_referee_words.py.
// One JSON array of {words, lang, system} on stdin; one JSON array of the words read back.
import { readFileSync } from "node:fs";

globalThis.document = { documentElement: { dataset: {} } };
globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.fetch = async (url) => {
  try {
    const text = readFileSync(new URL(url), "utf-8");
    return { ok: true, json: async () => JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const root = new URL("../../static/", import.meta.url);
const i18n = await import(new URL("js/i18n.js", root));
const words = await import(new URL("js/views/log-words.js", root));
for (const lang of i18n.LANGUAGES) await i18n.ensureLanguage(lang);
const out = [];
for (const { words: said, lang, system } of JSON.parse(readFileSync(0, "utf-8"))) {
  i18n.setLanguage(lang);
  out.push(words.wordsOf(words.say(said), lang, system));
}
process.stdout.write(JSON.stringify(out));

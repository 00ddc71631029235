// Log-entry words said by the page (static/js/views/log-words.js say), for
// tests/test_referee_sides.py: one JSON array of {words, lang} on stdin, one JSON array of the
// texts (null: a key the page does not know) on stdout.
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
for (const { words: said, lang } of JSON.parse(readFileSync(0, "utf-8"))) {
  i18n.setLanguage(lang);
  out.push(words.say(said));
}
process.stdout.write(JSON.stringify(out));

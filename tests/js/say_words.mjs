// Log-entry words said by the page (static/js/views/log-words.js say), for
// tests/test_referee_sides.py: one JSON array of {words, lang} on stdin, one JSON array of the
// texts (null: a key the page does not know) on stdout.
import { readFileSync } from "node:fs";
import { i18n, loadEveryLanguage, STATIC } from "./page_i18n.mjs";

const words = await import(new URL("js/views/log-words.js", STATIC));
await loadEveryLanguage();
const out = [];
for (const { words: said, lang } of JSON.parse(readFileSync(0, "utf-8"))) {
  i18n.setLanguage(lang);
  out.push(words.say(said));
}
process.stdout.write(JSON.stringify(out));

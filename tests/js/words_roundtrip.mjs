// A result line read back into words as a page does (static/js/views/log-words.js wordsOf, what
// app.addLog stores), from the words the referee gives it (say): for tests/test_referee_outcome.py.
// One JSON array of {words, lang, system} on stdin; one JSON array of the words read back.
import { readFileSync } from "node:fs";
import { i18n, loadEveryLanguage, STATIC } from "./page_i18n.mjs";

const words = await import(new URL("js/views/log-words.js", STATIC));
await loadEveryLanguage();
const out = [];
for (const { words: said, lang, system } of JSON.parse(readFileSync(0, "utf-8"))) {
  i18n.setLanguage(lang);
  out.push(words.wordsOf(words.say(said), lang, system));
}
process.stdout.write(JSON.stringify(out));

// Renders every message key of static/i18n with sample parameters, in both languages, through
// the page's own i18n layer (static/js/i18n.js: plurals, elision), for tests/test_i18n_sentences.py.
// Prints one JSON object: {lang: {key: [rendering, ...]}} (and "colon()": the colon helper's). With the argument "errors", reads a
// JSON list of engine errors ({code, message_key, params, field?}) on stdin and prints
// {lang: [message, ...]} as the page words them (errorMessage).
import { readFileSync, readdirSync } from "node:fs";
import { i18n, STATIC as root } from "./page_i18n.mjs";

/** Sample values by parameter name: a text for what names a thing, else a number. */
const TEXT = {
  name: "Alice", who: "Alice", owner: "Alice", character: "Alice", actor: "Alice", target: "Bruno", a: "Alice", b: "Bruno",
  winner: "Alice", loser: "Bruno", attacker: "Alice", defender: "Bruno", healer: "Alice", fighter: "Alice",
  file: "table.json", table: "Ma table", system: "Point Zéro", game: "Point Zéro", app: " (Notes)",
  suit: "épée", figure: "Valet", card: "Valet d'épée", arcane: "La Lune", family: "Arme", rank: "Valet",
  skill: "Escrime", attribute: "Force", label: "Escrime", characteristic: "Physique", what: "personnage",
  reason: "valeur trop grande", detail: "valeur trop grande", field: "Nom", path: "Nom", problem: "valeur trop grande",
  roll: "3d6 → 11", dice: "3d6", expr: "3d6", formula: "3d6", notation: "3d6", text: "Télékinésie", note: "note",
  title: "Ma table", key: "la copie du 24/11/2026", kind: "personnage", op: "le test", code: "erreur inconnue",
  date: "24/11/2026", when: "24/11/2026 20:47", at: "20:47", time: "20:47", version: "2", url: "https://example.org/",
  outcome: "oui-mais", result: "réussite", level: "Bon", difficulty: "Facile", weapon: "Épée", armor: "Cuir",
  list: "Force, Agilité", names: "Alice, Bruno", items: "Force, Agilité", choices: "Force, Agilité", allowed: "Force, Agilité",
  expected: "2", max: "99", min: "0", value: "12", limit: "99", rule: "maximum", state: "Théorem", source: "Alice",
  verdict: "réussite", status: "prêt", size: "12 ko", mode: "normal", message: "valeur trop grande", session: "2",
  from: "Alice", to: "Bruno", peer: "Alice", device: "le téléphone d'Alice", role: "MJ", side: "Alice", option: "Escrime",
  team: "Alice, Bruno", chain: "Valet, Dame", strain: "Physique", effect: "Télékinésie", hand: "Valet d'épée",
  used: "12 ko", quota: "5 Mo", left: "4 Mo", d: "Bruno", pile: "pioche", kept: "Force",
  fraction: "1/8",
};
/** Parameters the pages fill with a percentage they formatted (formatPercent, in the language shown). */
const PERCENT = new Set(["percent", "p", "odds", "chance"]);

function sample(name, n) {
  if (PERCENT.has(name)) return i18n.formatPercent(12.5);
  if (name in TEXT) return TEXT[name];
  return n;
}

function placeholders(template) {
  return [...template.matchAll(/\{(\w+)(?:\|[^|{}]*\|[^|{}]*)?\}/g)].map((m) => m[1]);
}

if (process.argv[2] === "errors") {
  const errors = JSON.parse(readFileSync(0, "utf-8"));
  const words = {};
  for (const lang of i18n.LANGUAGES) {
    await i18n.ensureLanguage(lang);
    i18n.setLanguage(lang);
    words[lang] = errors.map((e) => i18n.errorMessage(e));
  }
  // (exit once the whole answer is written: a pipe takes 64 kB at a time)
  process.stdout.write(JSON.stringify(words), () => process.exit(0));
} else {
  await renderAll();
}

async function renderAll() {
const out = {};
for (const lang of i18n.LANGUAGES) {
  await i18n.ensureLanguage(lang);
  i18n.setLanguage(lang);
  out[lang] = {};
  const dir = new URL(`i18n/${lang}/`, root);
  for (const file of readdirSync(dir)) {
    const table = JSON.parse(readFileSync(new URL(file, dir), "utf-8"));
    for (const [key, template] of Object.entries(table)) {
      const names = placeholders(template);
      // Plural forms are rendered with the counts they are for; other keys with 1 and 2.
      const counts = key.endsWith("_one") ? [1] : key.endsWith("_other") ? [2, 5] : [1, 2];
      out[lang][key] = counts.map((n) => i18n.fill(template, Object.fromEntries(names.map((p) => [p, sample(p, n)])), lang));
    }
  }
  // The layer's colon helper, which templates put between a label and its value.
  out[lang]["colon()"] = [`Escrime${i18n.colon()}12`];
}
process.stdout.write(JSON.stringify(out));
}

// Log entries worded in one language and read in the other (static/js/views/log-words.js), for
// tests/test_log_words.py. The labels are made as the pages make them (their keys, t and tn),
// logged through withWords (what app.addLog stores), and read back with labelOf / summaryOf.
// Prints one JSON object: {case: {fr, en}} (the entry's label and result line read on a French
// page and on an English page), for entries logged in French and in English.
import { readFileSync } from "node:fs";
import { i18n, loadEveryLanguage, STATIC } from "./page_i18n.mjs";

const words = await import(new URL("js/views/log-words.js", STATIC));
const { t, tn } = i18n;
await loadEveryLanguage();

/** The entries of the five systems' common pages, worded in the page's language. */
const CASES = {
  roll: () => ({ kind: "roll", system: null, label: "3d6+2", result: { total: 12 } }),
  note: () => ({ kind: "live.note", system: null, label: "Alice ouvre la porte", result: {} }),
  systmj_test: () => ({ kind: "systmj.test", system: "systmj", label: `${t("systmj.skill.cuisine")} (45 → 40)`, result: {} }),
  systmj_exchange: () => ({ kind: "systmj.combat.exchange", system: "systmj", label: t("systmj.combat.log", { target: "Bruno" }), result: {} }),
  versality_test: () => ({ kind: "versality.test", system: "versality",
    label: `${t("versality.characteristic.personnalite")} + ${t("versality.skill.combattre")} · ${t("versality.difficulty.facile")}`, result: {} }),
  versality_draw: () => ({ kind: "versality.draw", system: "versality", label: t("versality.ui.drawn_cards", { count: 3 }), result: {} }),
  pointzero_test: () => ({ kind: "pointzero.test", system: "pointzero", label: `3d6 · ${t("pointzero.ui.log_tension")}`,
    result: { total: 11, summary: `${t("pointzero.ui.success")} (${t("pointzero.ui.margin")} +3)` } }),
  theorem_draw: () => ({ kind: "theorem.hand", system: "theorem", label: tn("theorem.ui.hand_drawn", 3), result: {} }),
  theorem_opposition: () => ({ kind: "theorem.opposition", system: "theorem", label: t("theorem.ui.opposition_log", { a: "Alice", b: "Bruno" }), result: {} }),
  unicreon_opposition: () => ({ kind: "unicreon.opposition", system: "unicreon", label: t("unicreon.ui.opposition_vs", { name: "Bruno" }), result: {} }),
  systmj_learning: () => ({ kind: "systmj.learning", system: "systmj", label: t("systmj.ui.learning_label", { skill: t("systmj.skill.cuisine") }), result: {} }),
  theorem_action: () => ({ kind: "theorem.draw", system: "theorem",
    label: `${t("theorem.ui.log_draw", { card: t("theorem.ui.card_name", { rank: t("theorem.rank.valet"), suit: t("theorem.suit.epee") }) })} — ${t("theorem.sphere.humanite")} + Escrime · ${t("theorem.ui.exploit_short", { n: 2 })}`, result: {} }),
  theorem_named: () => ({ kind: "theorem.opposition", system: "theorem", label: t("theorem.ui.opposition_log", { a: "Pierre de Lune", b: "Valet" }), result: {} }),
  pointzero_opposition: () => ({ kind: "pointzero.opposition", system: "pointzero", label: "3d6",
    result: { summary: `${t("pointzero.ui.wins", { name: "Alice" })} (11 / 7)` } }),
  unicreon_day: () => ({ kind: "unicreon.day", system: "unicreon", label: "2d6",
    result: { summary: `${t("unicreon.ui.day_lost", { n: 3, pv: 9 })} ${t("unicreon.ui.success")} (${t("unicreon.ui.target")} +5)` } }),
  versality_result: () => ({ kind: "versality.test", system: "versality", label: "3d6",
    result: { summary: `${t("versality.outcome.oui-mais")} — ${t("versality.ui.played_card", { card: t("versality.outcome.oui") })}` } }),
  undo_sheet: () => ({ kind: "undo", system: null, label: t("undo.log.undone", { label: t("undo.label.character", { name: "Ana" }) }), result: {} }),
  undo_name: () => ({ kind: "redo", system: null, label: t("undo.log.redone", { label: t("undo.label.name") }), result: {} }),
  note_words: () => ({ kind: "versality.note", system: "versality", label: "Annuler la fête de Mental", result: {} }),
  unicreon_test: () => ({ kind: "unicreon.test", system: "unicreon",
    label: `${t("unicreon.difficulty.tres_difficile")} · ${t("unicreon.ui.bonus_n", { n: 10 })}`, result: {} }),
};

const out = {};
for (const from of i18n.LANGUAGES) {
  for (const [name, make] of Object.entries(CASES)) {
    i18n.setLanguage(from);
    const entry = JSON.parse(JSON.stringify(words.withWords(make())));
    const read = {};
    for (const lang of i18n.LANGUAGES) {
      i18n.setLanguage(lang);
      read[lang] = { label: words.labelOf(entry), summary: words.summaryOf(entry), direct: make().label };
      // An entry logged before the words were kept: its label alone.
      read[lang].bare = words.labelOf({ ...entry, label_words: undefined });
    }
    out[`${from}:${name}`] = { stored: entry, read };
  }
}
// A result line re-worded after it was logged (Point Zéro's choice of dice): the words kept
// for the first one no longer say it, and the line is shown as it now reads.
i18n.setLanguage("en");
const first = words.withWords({ kind: "pointzero.test", system: "pointzero", label: "3d6", result: { summary: `${t("pointzero.ui.failure")} (${t("pointzero.ui.margin")} -2)` } });
const reworded = { ...first, result: { summary: `${t("pointzero.ui.success")} (${t("pointzero.ui.margin")} +1)` } };
i18n.setLanguage("fr");
out.stale = { fr: words.summaryOf(reworded), words: first.summary_words };
// Labels made of one key each ("keys", stdin: [[key, params], ...]): logged in each language
// and read in each, next to what the page says in that language (t / tn).
if (process.argv[2] === "keys") {
  const asked = JSON.parse(readFileSync(0, "utf-8"));
  const said = (key, params) => (params.n !== undefined && !i18n.has(key) ? tn(key, params.n, params) : t(key, params));
  const rows = [];
  for (const [key, params] of asked) {
    for (const from of i18n.LANGUAGES) {
      i18n.setLanguage(from);
      const entry = words.withWords({ kind: key, system: key.split(".")[0], label: said(key, params), result: {} });
      for (const to of i18n.LANGUAGES) {
        i18n.setLanguage(to);
        rows.push({ key, from, to, read: words.labelOf(entry), want: said(key, params), words: entry.label_words ?? null });
      }
    }
  }
  console.log(JSON.stringify(rows));
} else if (process.argv[2] === "guard") {
  const { checkCandidate } = await import(new URL("js/guard.js", STATIC));
  const limits = JSON.parse(readFileSync(0, "utf-8"));
  const table = (log) => ({ schema: 1, app: "tablee", name: "T", language: "fr", characters: [], log, systems: {}, settings: {} });
  const logged = Object.values(out).filter((v) => v.stored).map((v, i) => ({ id: `e${i}`, at: "2026-11-28T10:00:00.000Z", request: {}, ...v.stored }));
  const base = { id: "x", at: "2026-11-28T10:00:00.000Z", kind: "roll", system: null, label: "Attaque", request: {}, result: {} };
  const bad = {
    too_many: { ...base, label_words: Array.from({ length: 25 }, () => "a") },
    long_text: { ...base, label_words: ["a".repeat(201)] },
    key_type: { ...base, label_words: [[12]] },
    params_type: { ...base, label_words: [["k", { n: 3 }]] },
    lang: { ...base, label_words: [["k"]], words_lang: "de" },
    nested_ok: { ...base, label_words: [["k", { label: [["k2", { name: "Ana" }]] }]], words_lang: "fr" },
    too_deep: { ...base, label_words: [["k", { a: [["k2", { b: [["k3", { c: [["k4"]] }]] }]] }]] },
  };
  const answers = { logged: checkCandidate(table(logged), null, limits) };
  for (const [name, e] of Object.entries(bad)) answers[name] = checkCandidate(table([e]), null, limits);
  console.log(JSON.stringify({ answers, logged }));
} else {
  console.log(JSON.stringify(out));
}

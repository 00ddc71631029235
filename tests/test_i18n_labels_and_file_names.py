"""Words a person read wrong at a first evening, through the page's own modules in Node: a
difficulty's value after its label without brackets in brackets, the home page's last roll
("… = Garde l'emporte. (11 — 55)"), and a table's name in a file name
(`tablee-Soire-e-The-orem-…`)."""

from __future__ import annotations

import json
import subprocess

import pytest

from node_harness import NODE, ROOT

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

SCRIPT = r"""
globalThis.document = { documentElement: { dataset: {} } };
const { readFileSync } = await import("node:fs");
globalThis.fetch = async (url) => {
  try { const text = readFileSync(new URL(url), "utf-8"); return { ok: true, json: async () => JSON.parse(text) }; }
  catch { return { ok: false }; }
};
const root = new URL("static/", ROOT);
const i18n = await import(new URL("js/i18n.js", root));
const storage = await import(new URL("js/storage.js", root));
const out = {};
for (const lang of ["fr", "en"]) {
  await i18n.ensureLanguage(lang);
  i18n.setLanguage(lang);
  const label = i18n.t("pointzero.difficulty.tres_difficile");
  out[lang] = i18n.t("pointzero.ui.difficulty_option", { label, value: 20 });
}
out.last = [
  storage.lastRollText([{ label: "Opposition Garde contre Kay", result: { summary: "Garde l'emporte. (11 — 55)" } }]),
  storage.lastRollText([{ who: "Zoé", label: "Perception", result: { total: 7, summary: "Réussite" } }]),
  storage.lastRollText([{ label: "Tirage", result: { summary: "Valet d'épée." } }]),
];
out.files = ["Soirée Théorem", "Œuvre — Ça", "", "  "].map((n) => storage.fileNamePart(n));
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def words() -> dict:
    script = f"const ROOT = {json.dumps(ROOT.as_uri() + '/')};\n" + SCRIPT
    done = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "--input-type=module", "-e", script],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", check=True)
    return json.loads(done.stdout)


def test_a_difficulty_value_follows_its_label_without_nested_brackets(words):
    assert words["fr"] == "Très difficile (20)"
    assert words["en"] == "Très difficile (very hard): 20"


def test_the_last_roll_reads_as_a_sentence(words):
    assert words["last"] == ["Opposition Garde contre Kay → Garde l'emporte (11 — 55)", "Zoé · Perception = 7",
                             "Tirage → Valet d'épée"]


def test_a_name_in_a_file_name_keeps_its_letters_without_accents(words):
    assert words["files"] == ["Soiree-Theorem", "Œuvre-Ca", "table", "table"]

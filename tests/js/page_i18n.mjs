// The page's i18n layer (static/js/i18n.js) loaded in Node, with the little of a page it needs:
// the document's dataset, a localStorage that remembers nothing, and a fetch that reads the
// site's files. Imported first by the scripts that word texts as the page does.
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

/** The site's static/ folder. */
export const STATIC = new URL("../../static/", import.meta.url);
export const i18n = await import(new URL("js/i18n.js", STATIC));

/** Every language's catalogues loaded, as a page holds them once each language was shown. */
export async function loadEveryLanguage() {
  for (const lang of i18n.LANGUAGES) await i18n.ensureLanguage(lang);
}

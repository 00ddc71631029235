// UI text: flat key -> string maps in static/i18n/<lang>/<namespace>.json, French first.
// t(key, params) fills {name} placeholders; a missing key falls back to French, then to
// the key itself, so a gap shows up on screen instead of breaking the page.

export const LANGUAGES = ["fr", "en"];
export const NAMESPACES = ["core", "kernel", "cards", "safety", "share", "unicreon", "versality", "systmj", "pointzero", "theorem", "home", "live"];

const tables = { fr: {}, en: {} };
let current = "fr";

async function loadLanguage(lang) {
  const parts = await Promise.all(
    NAMESPACES.map(async (ns) => {
      try {
        const response = await fetch(new URL(`../i18n/${lang}/${ns}.json`, import.meta.url));
        return response.ok ? await response.json() : {};
      } catch {
        return {};
      }
    }),
  );
  tables[lang] = Object.assign({}, ...parts);
}

const loading = new Map();

/** Load a language's texts once (a promise shared by every caller). */
export function ensureLanguage(lang) {
  if (!loading.has(lang)) loading.set(lang, loadLanguage(lang));
  return loading.get(lang);
}

/** Load French (every text falls back to it) and `lang` before the first paint; the other
 * languages follow in the background, so the first paint waits for no text it does not show. */
export async function initI18n(lang) {
  const first = LANGUAGES.includes(lang) ? lang : "fr";
  await Promise.all([ensureLanguage("fr"), ensureLanguage(first)]);
  setLanguage(lang);
  for (const other of LANGUAGES) ensureLanguage(other);
}

export function setLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "fr";
  document.documentElement.lang = current;
}

export function language() {
  return current;
}

export function has(key) {
  return key in tables[current] || key in tables.fr;
}

export function t(key, params = {}) {
  const template = tables[current][key] ?? tables.fr[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? formatParam(params[name]) : whole,
  );
}

/**
 * Plural-aware text: picks `<key>_one` or `<key>_other` by the language's plural rules
 * (French says "0 point", "1 point", "2 points"), with {n} (or {count}) filled in.
 */
export function tn(key, n, params = {}) {
  const candidate = `${key}_${pluralForm(n)}`;
  return t(has(candidate) ? candidate : `${key}_other`, { n, count: n, ...params });
}

function formatParam(value) {
  if (Array.isArray(value)) return value.map(formatParam).join(", ");
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The user-facing message of an API error or a field problem ({code, message_key, params}). */
export function errorMessage(error) {
  if (!error) return "";
  const key = error.message_key ?? `error.${error.code}`;
  if (!has(key)) return t("error.unknown", { code: error.code });
  const params = readableParams(error.params ?? {});
  // A message about a count may have singular/plural forms (<key>_one, <key>_other).
  const form = typeof params.count === "number" ? `${key}_${pluralForm(params.count)}` : null;
  return t(form && has(form) ? form : key, params);
}

function pluralForm(n) {
  return new Intl.PluralRules(current === "fr" ? "fr-FR" : "en-GB").select(n);
}

/** A `reason` param is a code: show its words (store.reason.*, or the system problem it names). */
function readableParams(params) {
  const { reason } = params;
  if (typeof reason !== "string") return params;
  if (has(`store.reason.${reason}`)) return { ...params, reason: t(`store.reason.${reason}`) };
  if (has(`error.${reason}`)) return { ...params, reason: t(`error.${reason}`, params.problem?.params ?? {}) };
  return params;
}

// Intl formatters are costly to build (toLocaleString builds one per call): one per
// language and options, reused (a 1000-entry log formats 1000 times on first paint).
const formatters = new Map();
function formatter(Kind, options) {
  const key = `${Kind.name}|${current}|${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Kind(current === "fr" ? "fr-FR" : "en-GB", options));
  return formatters.get(key);
}

/** A number written the way the current language writes it (decimal comma in French). */
export function formatNumber(value, maximumFractionDigits = 3) {
  return formatter(Intl.NumberFormat, { maximumFractionDigits }).format(value);
}

export function formatPercent(value) {
  if (value > 0 && value < 0.001) return `< ${formatNumber(0.001)} %`; // never "0 %" for a possible outcome
  const digits = value > 0 && value < 0.1 ? 3 : value < 10 ? 2 : 1;
  return `${formatter(Intl.NumberFormat, { maximumFractionDigits: digits }).format(value)} %`;
}

export function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatter(Intl.DateTimeFormat, { dateStyle: "short", timeStyle: "medium" }).format(date);
}

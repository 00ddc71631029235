// UI text: flat key -> string maps in static/i18n/<lang>/<namespace>.json, French first.
// t(key, params) fills {name} placeholders; a missing key falls back to French, then to
// the key itself, so a gap shows up on screen instead of breaking the page.

export const LANGUAGES = ["fr", "en"];
export const NAMESPACES = ["core", "kernel", "cards", "safety", "share", "unicreon", "versality", "systmj", "pointzero", "theorem", "home", "live"];
/** The shell's own texts (every page but a system's): what a first paint needs at most, with
 * the namespaces of the systems it shows (about 35 kB of the 138 kB of French). */
export const SHELL_NAMESPACES = ["core", "kernel", "cards", "safety", "share", "home"];

const tables = { fr: {}, en: {} };
let current = "fr";
/** lang -> namespace -> promise of its texts (fetched once, shared by every caller). */
const loading = new Map();
/** lang -> namespace -> its texts, once fetched. */
const loaded = new Map();

function loadNamespace(lang, ns) {
  if (!loading.has(lang)) {
    loading.set(lang, new Map());
    loaded.set(lang, new Map());
  }
  const mine = loading.get(lang);
  if (!mine.has(ns)) {
    mine.set(ns, (async () => {
      let texts = {};
      try {
        const response = await fetch(new URL(`../i18n/${lang}/${ns}.json`, import.meta.url));
        texts = response.ok ? await response.json() : {};
      } catch {
        texts = {};
      }
      loaded.get(lang).set(ns, texts);
      // Merged in NAMESPACES order whatever order they arrived in, as one load of them all.
      const have = loaded.get(lang);
      tables[lang] = Object.assign({}, ...NAMESPACES.filter((n) => have.has(n)).map((n) => have.get(n)));
    })());
  }
  return mine.get(ns);
}

function known(namespaces) {
  return namespaces.filter((ns) => NAMESPACES.includes(ns));
}

/** Load a language's texts, every namespace, once (a promise shared by every caller). */
export function ensureLanguage(lang) {
  return Promise.all(NAMESPACES.map((ns) => loadNamespace(lang, ns))).then(() => undefined);
}

/** Load some namespaces in French (every text falls back to it) and in the current language. */
export function ensureNamespaces(namespaces) {
  const langs = current === "fr" ? ["fr"] : ["fr", current];
  return Promise.all(langs.flatMap((lang) => known(namespaces).map((ns) => loadNamespace(lang, ns)))).then(() => undefined);
}

/** Before the first paint: the shell's texts and `extra` namespaces (the systems the page
 * shows), in French and in `lang`. The rest is the caller's to load after the paint
 * (ensureLanguage), so the first paint waits for no text it does not show. */
export async function initI18n(lang, extra = []) {
  setLanguage(lang);
  await ensureNamespaces([...SHELL_NAMESPACES, ...extra]);
}

/** Where this device keeps the person's choice of language (never in a table: a table imported
 * from another device, a live table's copy, keeps its own language field and changes nothing
 * of the interface's). */
export const LANGUAGE_KEY = "tablee.language";

/** The first of the browser's languages (navigator.languages, most preferred first) Tablée
 * speaks, by its primary subtag ("en-US" is English), else French. */
export function browserLanguage(list = globalThis.navigator?.languages ?? [globalThis.navigator?.language]) {
  for (const tag of list ?? []) {
    const base = String(tag ?? "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "fr";
}

function storedChoice() {
  try {
    const chosen = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return LANGUAGES.includes(chosen) ? chosen : null;
  } catch {
    return null;
  }
}

/** Keep `lang` as this device's language (the person chose it). */
export function chooseLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, lang);
  } catch {
    // no storage: the choice lasts as long as the page
  }
}

/**
 * The interface's language on this device: the person's choice kept here, else the browser's
 * (an en-US browser starts in English). `savedTableLanguage` is the language field of the table
 * this device saved before the choice was kept apart: a table saved in English was the person's
 * choice (every table used to start in French), so it becomes the device's choice once.
 */
export function deviceLanguage(savedTableLanguage = null) {
  const chosen = storedChoice();
  if (chosen) return chosen;
  if (savedTableLanguage === "en") {
    chooseLanguage("en");
    return "en";
  }
  return browserLanguage();
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

/**
 * The text of `key` with its {name} placeholders filled in, written as a sentence of the
 * language, in one place for every message:
 * - a key with plural forms (`<key>_one`, `<key>_other`) and no plain form takes the form of its
 *   `count` (or `n`) parameter, so `t("x", { count: 1 })` never says "1 points";
 * - `{n|point|points}` in a text is the word in the form `n` asks for (French: 0 and 1 singular);
 * - French elision at a filled-in value: "de {suit}" with "épée" reads "d'épée", "le {x}" with
 *   "arcane" "l'arcane" (de, le, la, que, ne, je, se, me, te before a vowel or a mute h is not
 *   guessed: only vowels).
 */
export function t(key, params = {}) {
  let template = tables[current][key] ?? tables.fr[key];
  if (template === undefined) {
    const count = typeof params.count === "number" ? params.count : params.n;
    const form = typeof count === "number" ? `${key}_${pluralForm(count)}` : null;
    template = (form && (tables[current][form] ?? tables.fr[form])) ?? (tables[current][`${key}_other`] ?? tables.fr[`${key}_other`]) ?? key;
    if (typeof count === "number") params = { n: count, count, ...params };
  }
  return fill(template, params, current);
}

/**
 * French typography, written once here for every French message (the catalogues keep plain
 * spaces, easy to read and edit): the space before a high sign never breaks a line, so a phone
 * never starts a line with ":" or "?". The convention is the Imprimerie nationale's, which the
 * catalogue's `{label}\u00a0:` already followed: a no-break space (U+00A0) before ":" and
 * inside « », a narrow no-break space (U+202F) before ";", "?", "!" and "%" (as Intl's French
 * numbers do). `colon()` and formatPercent write the same, and the engine's one French text
 * (tablee.referee's learning note) too.
 */
export const NBSP = "\u00a0";
export const NNBSP = "\u202f";
const spaced = new Map();
export function frenchSpaced(text) {
  let out = spaced.get(text);
  if (out === undefined) {
    out = text.replace(/ +(?=:)/g, NBSP).replace(/ +(?=[;?!%])/g, NNBSP).replace(/« +/g, `«${NBSP}`).replace(/ +»/g, `${NBSP}»`);
    spaced.set(text, out);
  }
  return out;
}

const ELIDED = /(^|[\s(«"'’])(de|De|le|Le|la|La|que|Que|ne|Ne|je|Je|se|Se|me|Me|te|Te|lorsque|puisque|jusque) $/;
const VOWEL = /^[aeiouyàâäéèêëîïôöûüùœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜÙŒÆ]/;

/** Fill a template's placeholders (see t): exported for the i18n test, which renders every key. */
export function fill(template, params, lang = current) {
  if (lang === "fr") template = frenchSpaced(template);
  let out = "";
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g)) {
    out += template.slice(last, m.index);
    last = m.index + m[0].length;
    const [whole, name, one, other] = m;
    if (!(name in params)) {
      out += whole;
      continue;
    }
    if (one !== undefined) {
      const n = Number(params[name]);
      out += Number.isFinite(n) && pluralForm(n, lang) === "one" ? one : other;
      continue;
    }
    const value = formatParam(params[name]);
    if (lang === "fr" && VOWEL.test(value)) {
      out = out.replace(ELIDED, (all, before, word) => `${before}${word.slice(0, -1)}'`);
    }
    out += value;
  }
  return out + template.slice(last);
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
  const params = readableParams(error.params ?? {}, error.field, error.code);
  // A message about a count may have singular/plural forms (<key>_one, <key>_other).
  const form = typeof params.count === "number" ? `${key}_${pluralForm(params.count)}` : null;
  return t(form && has(form) ? form : key, params);
}

// (the MJ's feed and a 1000-entry log ask for thousands of plural forms in one render)
function pluralForm(n, lang = current) {
  return formatter(Intl.PluralRules, {}, lang).select(n);
}

/**
 * A field named as the interface labels it ("La compétence"), from the last name in its dotted
 * path (`test.skill`, `skills.0.level`): `schema.field.<name>`, else "Une valeur".
 */
export function fieldLabel(path) {
  // A page that named the field itself ("ATT", "Poids") passes words, not a path: kept as they are.
  if (typeof path === "string" && !path.includes(".") && /[A-Z\u00C0-\u024F ]/.test(path)) return path;
  const names = String(path ?? "").split(".").filter((part) => part && !/^\d+$/.test(part));
  for (const name of names.reverse()) {
    if (has(`schema.field.${name}`)) return t(`schema.field.${name}`);
  }
  return t("schema.field.unknown");
}

/** A schema violation (`rule`, `limit` from tablee.schema.schema_params) in words. */
function schemaSentence(params, field) {
  const { rule, limit } = params;
  const key = has(`schema.rule.${rule}`) ? `schema.rule.${rule}` : "schema.rule.other";
  const types = (Array.isArray(limit) ? limit : [limit]).map((name) => (has(`schema.type.${name}`) ? t(`schema.type.${name}`) : null));
  const expected = rule === "type" && types.every(Boolean) ? types.join(t("schema.or")) : "";
  return t(key, { field: fieldLabel(params.field ?? params.path ?? field), limit: typeof limit === "number" ? limit : "", expected });
}

/**
 * What a rule's `detail` says, in words: a reason code of the catalogue (`reason.<code>`: a
 * card in no pile, a seat nobody holds), else the name of the part at fault (`kind`, `owner`)
 * as its label, else the place (`at`, a dotted path) as its label; never the code itself.
 */
function detailWords(detail, at) {
  if (has(`reason.${detail}`)) return at ? t("reason.at", { field: fieldLabel(at), reason: t(`reason.${detail}`) }) : t(`reason.${detail}`);
  const names = String(detail).split(".").filter((part) => part && !/^\d+$/.test(part));
  const named = names.length === 1 && /^[a-z_]+$/.test(names[0]) && has(`schema.field.${names[0]}`);
  return t("schema.rule.other", { field: named ? t(`schema.field.${names[0]}`) : fieldLabel(at) });
}

/**
 * A rule's refusal names what is at fault in words (issue: no raw field path or code inside a
 * sentence): a `field` param (a dotted path, `decks.ana.piles`) becomes its label, a `detail`
 * (a reason code, or the engine's own words) its sentence, a shared thing's `kind` its name.
 */
function wordedParams(params, at, code) {
  const out = { ...params };
  if (typeof params.detail === "string" && code !== "request.internal") out.detail = detailWords(params.detail, at ?? params.field);
  if (typeof params.field === "string") out.field = fieldLabel(params.field);
  if (typeof params.pile === "string" && has(`schema.field.${params.pile}`)) out.pile = t(`schema.field.${params.pile}`);
  if (code === "share.invalid" && has(`share.kind.${params.kind}`)) out.kind = t(`share.kind.${params.kind}`);
  return out;
}

/** A `reason` param is a code: show its words (store.reason.*, or the system problem it names);
 * a schema violation (`rule`) replaces the validator's English `detail` with a sentence. */
function readableParams(params, field, code) {
  // A game is named as people know it (« Point Zéro »), never by its id (`pointzero`).
  if (typeof params.system === "string" && has(`nav.${params.system}`)) params = { ...params, system: t(`nav.${params.system}`) };
  if (typeof params.rule === "string") {
    const detail = schemaSentence(params, field);
    params = { ...params, detail, reason: params.reason ?? detail };
    if (typeof params.field === "string") params.field = fieldLabel(params.field);
  } else {
    params = wordedParams(params, typeof params.field === "string" ? params.field : field, code);
  }
  const { reason } = params;
  if (typeof reason !== "string") return params;
  if (has(`store.reason.${reason}`)) return { ...params, reason: t(`store.reason.${reason}`) };
  if (has(`error.${reason}`)) return { ...params, reason: t(`error.${reason}`, params.problem?.params ?? {}) };
  return params;
}

// Intl formatters are costly to build (toLocaleString builds one per call): one per
// language and options, reused (a 1000-entry log formats 1000 times on first paint).
const formatters = new Map();
function formatter(Kind, options, lang = current) {
  const key = `${Kind.name}|${lang}|${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Kind(lang === "fr" ? "fr-FR" : "en-GB", options));
  return formatters.get(key);
}

/** A number written the way the current language writes it (decimal comma in French). */
export function formatNumber(value, maximumFractionDigits = 3) {
  return formatter(Intl.NumberFormat, { maximumFractionDigits }).format(value);
}

/**
 * Words a page keeps to say again (a live region's last announcement, a status line): kept as a
 * function that makes them (`ui.announce = () => t("…", params)`), they are made at each render
 * in the language shown then, so switching the language re-says them in the new one (a string
 * made once stayed French on the English page). `said(words)` gives the words; a plain string,
 * null or undefined pass through ("" for none).
 */
export function said(words) {
  if (typeof words === "function") return words();
  return words ?? "";
}

/** The colon between a label and its value as the current language writes it: French puts a
 * no-break space before it ("Échec\u00a0: 21\u202f%", see frenchSpaced), English none ("Failure: 21%"). */
export function colon() {
  return current === "fr" ? `${NBSP}: ` : ": ";
}

/** A whole number in a formula, negative with a true minus sign ("= −2", never "= -2"). */
export function formatSigned(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** A percentage as the interface language writes it: French "21,5\u202f%" (a narrow no-break
 * space: a line never starts with "%"), English "21.5%". */
export function formatPercent(value) {
  const sign = current === "fr" ? `${NNBSP}%` : "%";
  if (value > 0 && value < 0.001) return `<${NBSP}${formatNumber(0.001)}${sign}`; // never "0 %" for a possible outcome
  const digits = value > 0 && value < 0.1 ? 3 : value < 10 ? 2 : 1;
  return `${formatter(Intl.NumberFormat, { maximumFractionDigits: digits }).format(value)}${sign}`;
}

/** A time of day as the interface language writes it ("14:26" / "14:26:28"; the browser's own
 * locale may be another). */
export function formatClock(when, { seconds = false } = {}) {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  return formatter(Intl.DateTimeFormat, { timeStyle: seconds ? "medium" : "short" }).format(date);
}

export function formatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatter(Intl.DateTimeFormat, { dateStyle: "short", timeStyle: "medium" }).format(date);
}

/** A language's loaded texts (key -> template), as loaded so far: for views/log-words.js, which
 * finds the keys a logged sentence was worded from. The same object until a namespace loads. */
export function catalogue(lang) {
  return tables[lang] ?? {};
}

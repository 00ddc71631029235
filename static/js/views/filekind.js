// What a file is, before it is imported as a table ("importing a file of the wrong
// kind says what the file is instead of « champ manquant »").
//
// `sniffFile(file)` reads the bytes and says what they are: an empty file, an image, a PDF, an
// archive (zip, and so .ods/.xlsx/.docx), other binary data, a CSV (the journal's spreadsheet
// export among them), text that is not JSON, or JSON (then `parsed` holds it).
// `recognise(parsed)` runs the small table of recognisers below over parsed JSON: Tablée's own
// files that are not tables (the journal export, an item exported from « À réparer », one
// character, any other `{"app": "tablee", "kind": …}` export) and another application's JSON.
// A table (or what may be an older one) gets null: the engine's store.open decides.
// Nothing here trusts the file: only own properties are read, and nothing is kept.

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const own = (o, k) => isObject(o) && Object.hasOwn(o, k);
const str = (v, max = 80) => (typeof v === "string" ? Array.from(v).slice(0, max).join("") : "");

/** Leading bytes of the binary formats a person may pick by mistake. */
const MAGIC = [
  { kind: "image", detail: "PNG", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { kind: "image", detail: "JPEG", bytes: [0xff, 0xd8, 0xff] },
  { kind: "image", detail: "GIF", bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: "image", detail: "WebP", bytes: [0x52, 0x49, 0x46, 0x46], at8: [0x57, 0x45, 0x42, 0x50] },
  { kind: "pdf", detail: "PDF", bytes: [0x25, 0x50, 0x44, 0x46] },
  { kind: "archive", detail: "zip", bytes: [0x50, 0x4b, 0x03, 0x04] },
];

const startsWith = (bytes, prefix, offset = 0) => prefix.every((b, i) => bytes[offset + i] === b);

/** Header lines of the journal's spreadsheet exports (this one, both languages, and the older
 * tab-separated one). */
const LOG_CSV_HEADERS = [/^date[;,]heure[;,]jeu[;,]/i, /^date[;,]time[;,]game[;,]/i, /^at\twho\tlabel\t/];

/**
 * Read a File (or Blob with a name) and say what it is:
 * {kind: "empty" | "image" | "pdf" | "archive" | "binary" | "csv" | "csv_log" | "text" | "json",
 *  detail, parsed}. `parsed` is set for "json" only.
 */
export async function sniffFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = typeof file.type === "string" ? file.type : "";
  for (const m of MAGIC) {
    if (startsWith(bytes, m.bytes) && (!m.at8 || startsWith(bytes, m.at8, 8))) return { kind: m.kind, detail: m.detail };
  }
  if (type.startsWith("image/")) return { kind: "image", detail: type.slice(6).toUpperCase() };
  let text = new TextDecoder("utf-8").decode(bytes);
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  if (!text.trim()) return { kind: "empty", detail: "" };
  if (text.includes("\u0000")) return { kind: "binary", detail: type };
  try {
    return { kind: "json", detail: "", parsed: JSON.parse(text) };
  } catch {
    // not JSON: what else?
  }
  const first = text.split(/\r?\n/, 1)[0];
  if (LOG_CSV_HEADERS.some((re) => re.test(first))) return { kind: "csv_log", detail: "" };
  const lines = text.split(/\r?\n/).filter((l) => l.trim()).slice(0, 5);
  const looksTabular = lines.length >= 2 && lines.every((l) => /[;,\t]/.test(l)) && !/^\s*[[{]/.test(text);
  if (/\.(csv|tsv)$/i.test(file.name ?? "") || /^text\/(csv|tab-separated-values)/.test(type) || looksTabular) {
    return { kind: "csv", detail: "" };
  }
  return { kind: "text", detail: "" };
}

/**
 * The recognisers of parsed JSON that is not a table, first match wins. Each is
 * {kind, match(parsed) -> params | null}; the message is `filekind.<kind>` with those params
 * (and {file}). Add one with `addRecogniser` (e.g. a share format) rather than a branch elsewhere.
 */
const RECOGNISERS = [
  {
    // log.js's JSON export: {"app": "tablee", "kind": "log", "table", "log": [...]}
    kind: "log",
    match: (d) => (own(d, "app") && d.app === "tablee" && d.kind === "log"
      ? { table: str(d.table), n: Array.isArray(d.log) ? d.log.length : 0 } : null),
  },
  {
    // an item exported from « À réparer »: {"kind", "path", "problems", "data"}
    kind: "quarantine",
    match: (d) => (own(d, "kind") && own(d, "path") && Array.isArray(d.problems) && own(d, "data") && typeof d.path === "string"
      ? { path: str(d.path) } : null),
  },
  {
    // one character (a sheet saved on its own): an id, a known system, a name, no table around it
    kind: "character",
    match: (d) => (own(d, "system") && own(d, "id") && own(d, "name") && !own(d, "characters") && typeof d.system === "string"
      ? { name: str(d.name), system: str(d.system, 20) } : null),
  },
  {
    // any other Tablée export that says what it is (a shared character, a roll…)
    kind: "tablee_other",
    match: (d) => (own(d, "app") && d.app === "tablee" && typeof d.kind === "string" && d.kind !== "table"
      ? { what: str(d.kind, 40) } : null),
  },
  {
    // another application's JSON: it names itself, or it is not an object at all
    kind: "foreign",
    match: (d) => {
      if (!isObject(d)) return { app: "" };
      if (own(d, "app") && d.app !== "tablee") return { app: str(typeof d.app === "string" ? d.app : JSON.stringify(d.app), 40) };
      return null;
    },
  },
];

export function addRecogniser(recogniser, { first = true } = {}) {
  if (first) RECOGNISERS.unshift(recogniser);
  else RECOGNISERS.push(recogniser);
}

/** {kind, params} for parsed JSON that is not a table, else null (it may be a table: the engine decides). */
export function recognise(parsed) {
  for (const r of RECOGNISERS) {
    const params = r.match(parsed);
    if (params) return { kind: r.kind, params };
  }
  return null;
}

/**
 * After store.open refused parsed JSON: does it look like any Tablée table at all (current, or
 * schema 0 which had no "app" key but a "title" and "rolls")? When not, the person is told it is
 * another application's data instead of the store's first missing field.
 */
export function looksLikeATable(parsed) {
  if (!isObject(parsed)) return false;
  if (own(parsed, "app")) return parsed.app === "tablee";
  return own(parsed, "schema") || own(parsed, "rolls") || own(parsed, "characters") || own(parsed, "title");
}

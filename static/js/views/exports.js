// The journal as a spreadsheet file ("the spreadsheet export opens correctly in a
// French spreadsheet"): CSV per RFC 4180 (a cell with the separator, a quote or a line break
// is quoted, quotes doubled; lines end with CRLF), a UTF-8 byte-order mark so Excel and
// LibreOffice read the accents, headers in the UI language, local date and time in their own
// columns, totals written as numbers. French spreadsheets take ";" between cells and a decimal
// comma; English ones ",", and a decimal point.
// Names are user text: a text cell that a spreadsheet would read as a formula (starting with
// =, +, -, @, a tab or a carriage return) gets a leading apostrophe (OWASP "CSV injection").

import { language, t } from "../i18n.js";
import { downloadBlob, fileStamp } from "../storage.js";
import { spreadsheetDateTime } from "./when.js";

export const BOM = "\uFEFF";
const FORMULA_START = /^[=+\-@\t\r]/;

/** The separator and decimal mark of the UI language's spreadsheets. */
export function csvDialect(lang = language()) {
  return lang === "fr" ? { sep: ";", decimal: "," } : { sep: ",", decimal: "." };
}

/** One cell: a finite number as a number (decimal mark of the dialect), anything else as text,
 * neutralised when it would start a formula, quoted when it must be. */
export function csvCell(value, { sep, decimal } = csvDialect()) {
  if (typeof value === "number" && Number.isFinite(value)) return String(value).replace(".", decimal);
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows, dialect = csvDialect()) {
  return rows.map((row) => row.map((v) => csvCell(v, dialect)).join(dialect.sep)).join("\r\n") + "\r\n";
}

function diceText(result) {
  if (!result || !Array.isArray(result.terms)) return "";
  return result.terms
    .filter((term) => Array.isArray(term.dice) && term.dice.length > 0)
    .map((term) => `${term.text}: ${term.dice.map((d) => (d.kept ? d.value : `(${d.value})`)).join(" ")}`)
    .join(" · ");
}

const COLUMNS = ["date", "time", "game", "who", "roll", "total", "result", "dice"];

/** The rows of the journal, oldest first, header first. */
export function logRows(log) {
  const rows = [COLUMNS.map((c) => t(`csv.col.${c}`))];
  for (const e of log) {
    const when = new Date(e.at);
    const { date, time } = Number.isNaN(when.getTime()) ? { date: String(e.at ?? ""), time: "" } : spreadsheetDateTime(when);
    const game = typeof e.system === "string" && e.system ? t(`nav.${e.system}`) : t("csv.dice_tray");
    const total = e.result?.total;
    rows.push([
      date,
      time,
      game,
      e.who ?? "",
      e.label ?? "",
      typeof total === "number" ? total : "",
      typeof e.result?.summary === "string" ? e.result.summary : "",
      diceText(e.result),
    ]);
  }
  return rows;
}

/** The whole CSV file's text (BOM included). */
export function logCsv(log) {
  return BOM + toCsv(logRows(log));
}

export function downloadLogCsv(app) {
  downloadBlob(`tablee-journal-${fileStamp()}.csv`, new Blob([logCsv(app.doc.log)], { type: "text/csv;charset=utf-8" }));
}
